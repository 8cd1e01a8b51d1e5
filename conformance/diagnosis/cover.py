"""Diagnosis by experiment: each failing case run again on the reference engine with each catalogued misreading
applied, and the fewest misreadings that reproduce the most of what the engine did.

1. What the engine did in each failing case is an Observation (observe.py). A case the unmutated reference
   also reproduces is no evidence of anything (it cannot be told from the rules) and is left undiagnosed.
2. Every misreading of the catalogue (conformance/mutants/catalogue.py: the rule-level mutants and the other
   choices of implementation-defined rules) is tried on every case (experiment.py): it *explains* the case when
   it reproduces the observation exactly; otherwise how close it came is kept. Only a misreading this run could
   have told from the rules is tried: one that fails a case the engine passed is not the engine's, and one none
   of whose killing cases was judged (a 4-player scenario on a 2-player engine, a chapter left out by --only)
   could explain a case only by what no case looked at (`unrefutable`); a misreading that passes a corpus
   scenario (the published results) is not run on it again. After the experiments, a misreading is dropped
   unless its own killing cases bear it out: those it explains must outnumber those where the engine reached
   the reading's first difference undisturbed and did something else there (a failing game of the run that it
   explains bears it out too: replaying the engine's game, it fails it); and one that a case written for
   its own rule contradicts so is dropped however often it is borne out elsewhere, unless a second misreading
   the engine shows elsewhere accounts for the difference (`_drop_unconfirmed`, `_co_faults`).
3. Where no single misreading explains a case, pairs are tried: among the misreadings that explain some of the
   engine's other cases, and the three that came closest on the case; again, without the dropped ones, for the
   cases whose only explanations were dropped in step 2.
   For a case that nothing explains yet, the rules that are numbers are fitted (fit.py): the value of the
   floor's penalties, a bonus or a count under which the reference does what the engine did, held to the
   engine's passing scenarios and its own cases as the catalogue's readings are held to theirs.
4. Greedy set cover: the misreading (or pair) that explains the most cases not yet explained, again and again.
   Each chosen one is a deviation; the misreadings that explain every one of its cases as well are listed with
   it, as indistinguishable on this engine's cases. One bug, one heading: a chosen misreading that reproduces
   fewer cases of a first difference than that first difference leaves unexplained is dropped, its cases going
   back to the symptom's heading (`_outnumbered_dropped`).
5. What nothing explains stays grouped by symptom (harness/findings.py), with the nearest misreadings. Crashes,
   timeouts, refused queries and impossible positions that no misreading reproduces are engine faults.
   A case that an implementation-defined choice other than ours explains `differs`: it is no failure.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from pathlib import Path

from ..engines.reference import ReferenceEngine
from ..harness.cases import Case
from ..harness.header import suite_version
from ..harness.findings import KINDS, STRICTNESS, Deviation, Evidence, Misreading, fault_groups, judge, \
    judge_verdict, refiled, strictest_level, symptom_groups, symptom_key, unfiled
from ..harness.report import misreadings
from ..scenario_rules import SUITE_FOLDER, corpus_root
from ..spec_data import rule_key
from ..mutants.catalogue import ALTERNATIVES, MUTANTS, Mutant
from ..mutants.families import FAMILIES, Family
from ..mutants.patching import MutantEngine
from ..mutants.published import load as load_published
from ..processes import each_in_a_process
from ..results import CaseKind, CaseResult, Verdict
from ..scenario import with_deciding_rules
from .experiment import fails, reproduce
from .fit import fit
from .observe import Observation, observation

CATALOGUE: tuple[Mutant, ...] = MUTANTS + ALTERNATIVES
NEAREST = 3  # misreadings shown beside a deviation nothing explains, and tried in pairs on each such case
MAX_PAIR_CANDIDATES = 8  # bounds the pairs tried on a case: 28 at most
MAX_PAIR_TRIALS = 400  # bounds the pair experiments of a whole diagnosis (an engine failing everything)


@dataclass(frozen=True)
class Diagnosis:
    """A run's deviations, each with its cases, and the results as they end after it (a failure that another
    implementation-defined choice explains `differs`)."""

    deviations: tuple[Deviation, ...]
    results: tuple[CaseResult, ...]
    tried: int = 0  # misreadings in the catalogue
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        found = dict.fromkeys(KINDS, 0)
        for deviation in self.deviations:
            found[deviation.kind] += 1
        found["misreading"] = len(misreadings(self.deviations))  # a pair's two misreadings count as two
        return found


@dataclass
class _Trials:
    """Per case: the misreadings (ids; a pair as "a+b") that explain it, and how close the others came."""

    explains: dict[str, set[str]] = field(default_factory=dict)  # case id -> misreading ids
    closeness: dict[str, dict[str, float]] = field(default_factory=dict)  # case id -> misreading id -> 0..1
    ruled_out: set[str] = field(default_factory=set)  # misreadings a passing case contradicts
    # a scenario's line where the engine first went wrong, and where each reading that does not explain it does
    # (and shows there something the engine did not)
    first: dict[str, int] = field(default_factory=dict)  # case id -> line
    reached: dict[str, dict[str, int]] = field(default_factory=dict)  # case id -> misreading id -> line


def pair(first: Mutant, second: Mutant) -> Mutant:
    """Two misreadings at once: both sets of patches (applied in order, so two patches of one target compose)."""
    return Mutant(f"{first.id}+{second.id}", first.rule, f"{first.description} And: {second.description}",
                  first.patches + second.patches, first.source)


def diagnose(results: Sequence[CaseResult], cases: dict[str, Case], catalogue: Sequence[Mutant] = CATALOGUE,
             jobs: int = 1, seed: int = 0, on_case: Callable[[int, int], None] | None = None,
             families: Sequence[Family] = FAMILIES) -> Diagnosis:
    """Diagnose the failing results of a run. `cases`: the run's cases by id (a result whose case is unknown,
    as in a report of other scenario files, cannot be run again and stays undiagnosed). `on_case(done, all)`
    hears of the progress. A misreading that fails a scenario the engine passes (the published results say
    which scenarios each one fails) is not the engine's reading: it explains nothing, alone or in a pair.
    `families`: the rules that are numbers, fitted where the catalogue explains nothing (fit.py)."""
    started = time.perf_counter()
    # a report diagnosed before: each case as it was judged; one written before the scenarios said which rule
    # decides the field they found wrong: filed as a new run would file it
    results = [decided(unfiled(result), cases.get(result.id)) for result in results]
    by_id = {mutant.id: mutant for mutant in catalogue}
    seen: dict[str, Observation] = {}
    for result in results:
        # a scenario must be at hand to run again; a game (property, fuzz) is in the result itself
        known = result.id in cases or result.kind is not CaseKind.SCENARIO
        found = observation(result) if result.bad and known else None
        if found is not None:
            seen[result.id] = found
    against = contradicted(results, catalogue, cases, seed) if seen else {}
    killers = killers_judged(results, catalogue) if seen else None
    for mutant_id, judged in (killers or {}).items():
        if not judged:
            against[mutant_id] = ["(none of the cases that kill it was judged in this run)"]
    out = {m for m, cases_against in against.items() if cases_against}
    trials = _try_all(seen, cases, [m for m in catalogue if m.id not in out], jobs, seed, on_case,
                      passing(seen, cases))
    _rule_out(trials, against)
    _try_pairs(trials, seen, cases, by_id, seed)
    if killers:
        own = own_killers(killers, catalogue, cases)
        _co_faults(trials, own, seen, cases, by_id, seed)
        explained = {case_id for case_id, found in trials.explains.items() if found}
        games = {c for c in seen if c not in cases or cases[c].kind is not CaseKind.SCENARIO}
        _drop_unconfirmed(trials, killers, own, games)
        # a case explained only by what was dropped may be two faults that the pairs met first hid: tried again
        _try_pairs(trials, seen, cases, by_id, seed, only={c for c in explained if not trials.explains[c]})
    fit(trials, seen, cases, results, by_id, seed, families)  # the rules that are numbers, where nothing explains
    chosen = _outnumbered_dropped(_cover(trials, seen, by_id, cases), results)
    return _deviations(results, chosen, trials, by_id, len(catalogue), time.perf_counter() - started)


# -- the experiments ---------------------------------------------------------------------------------------------

def _try_all(seen: dict[str, Observation], cases: dict[str, Case], catalogue: Sequence[Mutant], jobs: int,
             seed: int, on_case: Callable[[int, int], None] | None,
             passes: dict[str, frozenset[str]] | None = None) -> _Trials:
    ids = sorted(seen)
    trials = _Trials()
    if not ids:
        return trials
    jobs = min(jobs or os.cpu_count() or 1, len(ids))
    if jobs <= 1:
        parts = [_try_cases(ids, seen, cases, catalogue, seed, on_case, passes)]
    else:
        # each share of the cases in a forked process of its own (conformance/processes.py): the loaded
        # scenarios and the catalogue's patch functions reach it without pickling, and a misreading that
        # breaks its process (a loop, the stack) costs that share its diagnosis, nothing more
        parts = []
        done = 0

        def answered(chunk: list[str], answer: object) -> None:
            nonlocal done
            if isinstance(answer, _Trials):
                parts.append(answer)
            done += len(chunk)
            if on_case:
                on_case(done, len(ids))

        # a few shares per process, so that the progress moves as each ends (and a share that breaks is small)
        shares = min(len(ids), jobs * SHARES_PER_PROCESS)
        each_in_a_process([ids[start::shares] for start in range(shares)],
                          lambda chunk: _try_cases(chunk, seen, cases, catalogue, seed, None, passes), answered,
                          jobs=jobs, limit=CHUNK_LIMIT)
    for part in parts:
        trials.explains.update(part.explains)
        trials.closeness.update(part.closeness)
        trials.first.update(part.first)
        trials.reached.update(part.reached)
    return trials


CHUNK_LIMIT = 900.0  # seconds a share of the experiments may take before its process is stopped
SHARES_PER_PROCESS = 4


def _try_cases(ids: Iterable[str], seen: dict[str, Observation], cases: dict[str, Case],
               catalogue: Sequence[Mutant], seed: int, on_case: Callable[[int, int], None] | None,
               passes: dict[str, frozenset[str]] | None = None) -> _Trials:
    """`passes`: per case, the misreadings known to pass it (they cannot reproduce a failure: not run)."""
    trials = _Trials()
    engines = [MutantEngine(mutant, seed) for mutant in catalogue]
    reference = ReferenceEngine(seed)
    ids = list(ids)
    for done, case_id in enumerate(ids, 1):
        observed, case = seen[case_id], cases.get(case_id)
        trials.explains[case_id] = set()
        if reproduce(reference, case, observed) == observed:
            continue  # the rules themselves give this: nothing to explain (a harness artefact)
        close = trials.closeness.setdefault(case_id, {})
        first = observed.first_line()
        if first is not None:
            trials.first[case_id] = first
        reached = trials.reached.setdefault(case_id, {})
        known_to_pass = (passes or {}).get(case_id, frozenset())
        for engine in engines:
            if engine.mutant.id in known_to_pass:
                continue  # it passes the scenario: it reproduces no failure there, and comes nowhere near it
            got = reproduce(engine, case, observed)
            if got == observed:
                trials.explains[case_id].add(engine.mutant.id)
            else:
                close[engine.mutant.id] = observed.closeness(got)
                line = got.departs(observed) if got is not None else None
                if line is not None:
                    reached[engine.mutant.id] = line
        if on_case:
            on_case(done, len(ids))
    return trials


def contradicted(results: Sequence[CaseResult], catalogue: Sequence[Mutant],
                 cases: dict[str, Case] | None = None, seed: int = 0) -> dict[str, list[str]]:
    """For each misreading, the scenarios it fails (published.load()'s `killed_by`: every scenario of the bundled
    corpus was run on it) that the engine passed. A scenario at hand in `cases` counts only if the misreading
    still fails it when the rule a refusal names is not judged: that rule is no part of a misreading (a refusal's
    rule counts only where it is the finding, observe.py), and an engine that names none passes where the
    misreading, naming another, fails. A property the engine passed contradicts nothing: its games are drawn by
    chance (the published kills played 50 of them a property, seed 0), so the misreading itself, run with fewer
    games or another seed, may pass it too (served as an engine with 3 games each, end-lowest-score-wins passed
    targeted-end-ties and was ruled out as its own explanation)."""
    published = load_published() or {}
    passed = {r.id for r in results if r.verdict is Verdict.PASS and r.kind is CaseKind.SCENARIO}
    fails = {entry["id"]: entry.get("killed_by") or [] for entry in published.get("mutants", ())}
    found = {m.id: [c for c in fails.get(m.id, ()) if c in passed] for m in catalogue if fails.get(m.id)}
    by_id = {m.id: m for m in catalogue}
    for mutant_id, against in found.items():
        scenarios = [c for c in against if c in (cases or {}) and cases[c].kind is CaseKind.SCENARIO]
        if scenarios:
            engine = MutantEngine(by_id[mutant_id], seed)
            found[mutant_id] = [c for c in against if c not in scenarios or _fails_in_substance(engine, cases[c])]
    return found


def passing(seen: dict[str, Observation], cases: dict[str, Case]) -> dict[str, frozenset[str]]:
    """For each scenario of `seen` that is the bundled corpus's own, the misreadings the published results say
    pass it: every scenario was run on every rule-level misreading (published.load()'s `killed_by`), so one not
    killed by it cannot reproduce its failure, and running it again is time lost (most misreadings fail a few
    scenarios of some 240). Nothing where the results were measured on another suite version, or for a scenario
    of other files (the corpus's files are those the suite version fingerprints)."""
    published = load_published() or {}
    if not seen or published.get("suite_version") != _suite_version():
        return {}
    mine = [c for c in seen if c in cases and cases[c].kind is CaseKind.SCENARIO and _bundled(cases[c].payload.file)]
    if not mine:
        return {}
    kills = {entry["id"]: set(entry.get("killed_by") or ()) for entry in published.get("mutants", ())}
    return {c: frozenset(m for m, killers in kills.items() if c not in killers) for c in mine}


def _bundled(file: str) -> bool:
    """Whether a scenario's file (as the loader names it: scenario_rules.display_name) is the bundled corpus's,
    wherever the suite is installed: named under the suite's folder, and no file of that name in the working
    folder outside the corpus (one's own conformance/scenarios/ beside the run is named so too)."""
    if not file.startswith(SUITE_FOLDER + "/"):
        return False
    here = Path(file)
    return not here.exists() or here.resolve().is_relative_to(corpus_root().resolve())


@cache
def _suite_version() -> str:
    return suite_version()


JUDGED = (Verdict.PASS, Verdict.FAIL, Verdict.DIFFERS)  # a verdict that could tell a reading from the rules


def killers_judged(results: Sequence[CaseResult], catalogue: Sequence[Mutant]) -> dict[str, set[str]] | None:
    """For each misreading the published results say some case kills (published.load()'s `killed_by`), those of
    its killing cases this run judged (passed or failed: not skipped, not left out by --only). None for a run
    that judged none of the published cases at all (a fuzz campaign's findings, a report on other scenario
    files): which readings its passing games refute is not known, and it is not held to them."""
    published = load_published() or {}
    kills = {entry["id"]: set(entry.get("killed_by") or ()) for entry in published.get("mutants", ())}
    judged = {r.id for r in results if r.verdict in JUDGED}
    if not judged & set().union(*kills.values()):
        return None
    return {m.id: kills[m.id] & judged for m in catalogue if kills.get(m.id)}


def unrefutable(results: Sequence[CaseResult], catalogue: Sequence[Mutant]) -> list[str]:
    """The misreadings none of whose killing cases was judged in this run: the 4-player scenario alone kills it
    and the engine plays 2 players; `--only FLOOR` left out the SETUP scenarios that do. Nothing this run did
    could have told such a reading from the rules, so it may not explain what the engine did (it would, by
    changing what the engine does right where no case looked: who is on move)."""
    return [m for m, judged in (killers_judged(results, catalogue) or {}).items() if not judged]


def own_killers(killers: dict[str, set[str]], catalogue: Sequence[Mutant], cases: dict[str, Case]
                ) -> dict[str, set[str]]:
    """For each misreading, those of its killing cases this run judged that were written for its own rule (the
    rule is among the case's rules): the suite's most direct tests of it."""
    rule = {m.id: m.rule for m in catalogue}
    return {m: {c for c in judged if c in cases and rule.get(m) in cases[c].rules} for m, judged in killers.items()}


def _explained_by_part(trials: _Trials) -> dict[str, set[str]]:
    """Each misreading: the cases it explains, alone or in a pair."""
    explained: dict[str, set[str]] = {}
    for case_id, found in trials.explains.items():
        for mutant_id in found:
            for part in mutant_id.split("+"):
                explained.setdefault(part, set()).add(case_id)
    return explained


def _contradicting(trials: _Trials, mutant_id: str, case_ids: Iterable[str]) -> list[str]:
    """Those of `case_ids` where the engine got as far as the misreading's first difference undisturbed (its own
    first difference is not earlier) and showed something else there."""
    return [case_id for case_id in case_ids
            if case_id in trials.first and mutant_id in trials.reached.get(case_id, {})
            and trials.reached[case_id][mutant_id] <= trials.first[case_id]]


MAX_CO_FAULT_TRIALS = 300  # bounds the pairs tried on the cases that contradict a misreading on its own rule


def _co_faults(trials: _Trials, own: dict[str, set[str]], seen: dict[str, Observation], cases: dict[str, Case],
               by_id: dict[str, Mutant], seed: int) -> None:
    """Where a case written for a misreading's own rule contradicts it, a second fault at the same place may be
    the cause (the engine scores the floor otherwise as well): the misreading is tried there in a pair with
    each other misreading that explains some case of this run, and a pair that reproduces the case explains it.
    The pairs of step 3 are tried on a budget over every unexplained case, and may not have reached this one."""
    explained = _explained_by_part(trials)
    useful = [m for m in by_id if "+" not in m and m not in trials.ruled_out and m in explained]
    order = {mutant_id: index for index, mutant_id in enumerate(by_id)}
    engines: dict[str, MutantEngine] = {}
    left = MAX_CO_FAULT_TRIALS
    for mutant_id in useful:
        for case_id in _contradicting(trials, mutant_id, sorted(own.get(mutant_id, set()) - explained[mutant_id])):
            for other in (m for m in useful if m != mutant_id):
                if left <= 0:
                    return
                both_id = "+".join(sorted((mutant_id, other), key=order.__getitem__))
                engine = engines.get(both_id)
                if engine is None:
                    first, second = both_id.split("+")
                    both = by_id.get(both_id) or pair(by_id[first], by_id[second])
                    engine = engines[both_id] = MutantEngine(both, seed)
                left -= 1
                if reproduce(engine, cases.get(case_id), seen[case_id]) == seen[case_id]:
                    trials.explains[case_id].add(both_id)
                    by_id.setdefault(both_id, engine.mutant)
                    break


def _drop_unconfirmed(trials: _Trials, killers: dict[str, set[str]], own: dict[str, set[str]] | None = None,
                      games: frozenset[str] | set[str] = frozenset()) -> None:
    """A misreading explains nothing (alone or in a pair) unless its own killing cases that this run judged
    bear it out. Each of them the engine failed is a prediction: where the reading explains it, it is borne
    out (and so is a failing game of this run that it explains, `games`: replaying the engine's own game, it
    gives the engine's answer where the rules give another, so it fails that game: a killing case of its own,
    which the published killers, a few random games a property, need not hold); where the engine got as far as
    the reading's first difference undisturbed (its own first difference is not earlier) and did something else
    there, it is contradicted, as a pass contradicts it; where the engine went wrong earlier, another fault hid
    the place, and the case says nothing. A reading contradicted more often than borne out (or never borne out)
    explains what it seems to elsewhere by chance: the one case of a hundred that an unrelated reading
    reproduces must not name the bug (nor may a heading come and go with the cases --only keeps).

    And a misreading that a case written for its own rule contradicts (`own`: those cases) is not the engine's,
    however often it is borne out elsewhere: there the suite tests that very rule, and the engine did something
    else where the misreading first departs from it. What such a misreading reproduces elsewhere is a near
    neighbour's doing (the last floor space left uncharged, where the engine charges nothing for the first; one
    part of a broader fault), and a neighbour named as the bug misleads more than no name: its cases go back to
    their symptom's heading, where it is shown as the nearest misreading. (Where a second fault at that place,
    found by _co_faults, explains the case, it is no contradiction.)"""
    out = set()
    for mutant_id, cases in _explained_by_part(trials).items():
        if mutant_id not in killers:
            continue
        borne_out = (killers[mutant_id] | games) & cases
        contradicted = set(_contradicting(trials, mutant_id, killers[mutant_id] - cases))
        if not borne_out or len(contradicted) > len(borne_out) or contradicted & (own or {}).get(mutant_id, set()):
            out.add(mutant_id)
    for case_id, found in trials.explains.items():
        dropped = {m for m in found if out & set(m.split("+"))}
        found -= dropped
        for mutant_id in dropped:  # it reproduces the case: shown as nearest where nothing else explains it
            trials.closeness.setdefault(case_id, {})[mutant_id] = 1.0
    trials.ruled_out |= out


def decided(result: CaseResult, case: Case | None) -> CaseResult:
    """A scenario's failure from a report written before the runner gave each failing check the rule that
    decides its field (`decided_by`): given them now, from the engine's state in the report, and judged again."""
    state = result.details.get("state")
    if result.verdict is not Verdict.FAIL or case is None or case.kind is not CaseKind.SCENARIO or result.rule \
            or not isinstance(state, dict) or all("decided_by" in entry for entry in result.failures):
        return result
    failures = with_deciding_rules(case.payload, result.failures, state)
    if failures == result.failures:
        return result
    scenario = case.payload
    return judge(dataclasses.replace(result, details=dict(result.details, failures=failures)), scenario.level)


def _fails_in_substance(engine: MutantEngine, case: Case) -> bool:
    scenario = case.payload
    if not any(reject is not None and reject.rule for reject in
               [scenario.given.reject] + [step.reject for step in scenario.steps]):
        return True  # no refusal it expects names a rule: judged without the rules, it fails as published
    return fails(engine, case)


def _rule_out(trials: _Trials, against: dict[str, list[str]]) -> None:
    """A misreading contradicted by a case the engine passes explains nothing (and joins no pair)."""
    out = {m for m, cases in against.items() if cases}
    for case_id, found in trials.explains.items():
        found -= out
    for close in trials.closeness.values():
        for m in out & set(close):
            del close[m]
    trials.ruled_out = out


def _try_pairs(trials: _Trials, seen: dict[str, Observation], cases: dict[str, Case], by_id: dict[str, Mutant],
               seed: int, only: set[str] | None = None) -> None:
    """Pairs for the cases no single misreading explains (of `only`, if given): among those that explain other
    cases and those that came closest on the case."""
    unexplained = [case_id for case_id, found in sorted(trials.explains.items())
                   if not found and case_id in trials.closeness and (only is None or case_id in only)]
    if not unexplained:
        return
    useful = [m for m in by_id if "+" not in m and any(m in found for found in trials.explains.values())]
    # single readings only (a pair shown as nearest is two of them, and may hold one since dropped)
    allowed = [m for m in by_id if "+" not in m and m not in trials.ruled_out]
    order = {mutant_id: index for index, mutant_id in enumerate(by_id)}
    tried: dict[str, MutantEngine] = {}
    explaining: dict[str, MutantEngine] = {}  # the pairs tried that explain a case
    trials_left = MAX_PAIR_TRIALS
    for case_id in unexplained:
        # a pair that explains another case is tried first: one engine, two misreadings, many cases (only
        # those: trying again every pair that explained nothing spent the bound on the first cases' failures)
        for both_id, engine in list(explaining.items()):
            if both_id in trials.explains[case_id] or trials_left <= 0:
                continue
            trials_left -= 1
            if reproduce(engine, cases.get(case_id), seen[case_id]) == seen[case_id]:
                trials.explains[case_id].add(both_id)
                by_id.setdefault(both_id, engine.mutant)
        if trials.explains[case_id]:
            continue
        nearest = sorted((score, m) for m, score in trials.closeness[case_id].items()
                         if score > 0 and m not in trials.ruled_out)
        closest = [m for _, m in sorted(nearest, key=lambda item: (-item[0], item[1]))[:NEAREST]]
        # of those that explain other cases, the misreadings of the case's own rules first: the bound must not
        # leave out the one rule the case is about for the catalogue's earlier chapters
        rules = set(cases[case_id].rules) if case_id in cases else set()
        mine = sorted(useful, key=lambda m: (by_id[m].rule not in rules, order[m]))
        candidates = [m for m in dict.fromkeys(closest + mine) if m in allowed][:MAX_PAIR_CANDIDATES]
        for first, second in combinations(sorted(candidates, key=order.__getitem__), 2):  # one id a pair
            a, b = by_id[first], by_id[second]  # two readings of one rule too: "too early, and half the lid"
            both = pair(a, b)
            if both.id in explaining or trials_left <= 0:  # (tried on this case above)
                continue
            trials_left -= 1
            engine = tried.get(both.id)
            if engine is None:
                engine = tried[both.id] = MutantEngine(both, seed)
            got = reproduce(engine, cases.get(case_id), seen[case_id])
            if got == seen[case_id]:
                trials.explains[case_id].add(both.id)
                by_id.setdefault(both.id, both)
                explaining[both.id] = engine


def _cover(trials: _Trials, seen: dict[str, Observation], by_id: dict[str, Mutant],
           cases: dict[str, Case]) -> list[tuple[str, list[str]]]:
    """Greedy set cover: (misreading id, the cases it is chosen for), the one explaining the most first."""
    explained_by: dict[str, set[str]] = {}
    for case_id, found in trials.explains.items():
        for mutant_id in found:
            explained_by.setdefault(mutant_id, set()).add(case_id)
    order = {mutant_id: index for index, mutant_id in enumerate(by_id)}
    uncovered = {case_id for case_id, found in trials.explains.items() if found}
    chosen = []
    while uncovered:
        def merit(mutant_id: str) -> tuple:
            gain = explained_by[mutant_id] & uncovered
            own = sum(by_id[part].rule in cases[c].rules for c in gain if c in cases
                      for part in mutant_id.split("+"))
            return (len(gain), "+" not in mutant_id, own, -order.get(mutant_id, len(order)))
        best = max(explained_by, key=merit)
        mine = sorted(explained_by[best] & uncovered)
        chosen.append((best, mine))
        uncovered -= set(mine)
    return chosen


def _outnumbered_dropped(chosen: list[tuple[str, list[str]]], results: Sequence[CaseResult]
                         ) -> list[tuple[str, list[str]]]:
    """One bug, one heading: a bug shows the same first difference wherever it is exercised, so a misreading
    that reproduces fewer of the cases of a first difference (symptom_key) than are left unexplained with it
    names no bug there: it matched a few by chance, and the cases go back to their symptom's heading (where it
    is shown as nearest). Dropping one can leave another outnumbered: until none is."""
    symptom = {r.id: symptom_key(r) for r in results if r.bad}
    while True:
        explained = {c for _, case_ids in chosen for c in case_ids}
        unexplained = Counter(key for case_id, key in symptom.items() if case_id not in explained)
        kept = [(mutant_id, case_ids) for mutant_id, case_ids in chosen
                if len(case_ids) >= sum(unexplained[key] for key in {symptom[c] for c in case_ids})]
        if len(kept) == len(chosen):
            return kept
        chosen = kept


# -- the deviations ----------------------------------------------------------------------------------------------

def _misreading(mutant_id: str, by_id: dict[str, Mutant]) -> Misreading:
    parts = [by_id[part] for part in mutant_id.split("+")]
    words = parts[0].description if len(parts) == 1 else " / ".join(f"{p.rule}: {p.description}" for p in parts)
    return Misreading(mutant_id, tuple(p.rule for p in parts), words, tuple(p.source for p in parts))


def _deviations(results: Sequence[CaseResult], chosen: list[tuple[str, list[str]]], trials: _Trials,
                by_id: dict[str, Mutant], tried: int, seconds: float) -> Diagnosis:
    by_case = {r.id: r for r in results}
    deviations: list[Deviation] = []
    differing: set[str] = set()
    explained: set[str] = set()
    for mutant_id, case_ids in chosen:
        reading = _misreading(mutant_id, by_id)
        if set(reading.sources) == {"choice"}:  # another implementation-defined choice: no failure
            differing.update(case_ids)
            continue
        explained.update(case_ids)
        alike = sorted(m for m in by_id if m != mutant_id and "+" not in m
                       and all(m in trials.explains.get(c, ()) for c in case_ids))
        # counted once, under the misreading that explains it; but where misreadings of other rules explain its
        # cases as well, which rule is misread is not known: the cases stay where the run filed them
        if all(by_id[m].rule == reading.rules[0] for m in alike) and len(set(reading.rules)) == 1:
            for case_id in case_ids:
                by_case[case_id] = refiled(by_case[case_id], reading.rules)
        cases = tuple(sorted((by_case[c] for c in case_ids), key=_rank))
        evidence = Evidence.of(cases[0], reading)
        deviations.append(Deviation(
            id=mutant_id, kind="misreading", rule=reading.rules[0], level=strictest_level(cases), cases=cases,
            misreading=reading, alike=tuple(_misreading(m, by_id) for m in alike), evidence=evidence))
    updated = tuple(judge_verdict(r, Verdict.DIFFERS) if r.id in differing else by_case[r.id] for r in results)
    rest = [r for r in updated if r.bad and r.id not in explained]
    faults, symptoms = fault_groups(rest)
    for group in symptom_groups(symptoms):
        near = _nearest(group.cases, trials, by_id)
        deviations.append(dataclasses.replace(group, nearest=near))
    deviations += faults
    return Diagnosis(tuple(_ordered(deviations)), updated, tried, round(seconds, 2))


def _rank(result: CaseResult) -> tuple:
    size = result.details.get("size")
    return (size if isinstance(size, int) else 10**6, result.id)


def _nearest(cases: Sequence[CaseResult], trials: _Trials, by_id: dict[str, Mutant]) -> tuple:
    scores: dict[str, float] = {}
    for case in cases:
        for mutant_id, score in trials.closeness.get(case.id, {}).items():
            scores[mutant_id] = scores.get(mutant_id, 0.0) + score / len(cases)
    best = sorted(((s, m) for m, s in scores.items() if s > 0), key=lambda item: (-item[0], item[1]))[:NEAREST]
    # 1.0 only where it reproduces every case (dropped, and said so): a near miss is not rounded up to it
    return tuple((_misreading(m, by_id), 1.0 if s > 1 - 1e-9 else min(round(s, 2), 0.99))
                 for s, m in best)


KIND_ORDER = {kind: index for index, kind in enumerate(KINDS)}


def _ordered(deviations: list[Deviation]) -> list[Deviation]:
    return sorted(deviations, key=lambda d: (KIND_ORDER[d.kind], STRICTNESS.get(d.level, 0), -len(d.cases),
                                             rule_key(d.rule), d.id))


def diagnoser(jobs: int = 1, seed: int = 0, on_case: Callable[[int, int], None] | None = None
              ) -> Callable[[list[CaseResult], dict[str, Case]], tuple]:
    """The session's diagnosis step: (deviations, results, what it did) for the results of a run; `on_case(done,
    all)` hears of the failing cases run again so far."""

    def run(results: list[CaseResult], cases: dict[str, Case]) -> tuple:
        found = diagnose(results, cases, jobs=jobs, seed=seed, on_case=on_case)
        counts = found.counts()
        return found.deviations, list(found.results), {
            "catalogue": found.tried, "seconds": found.seconds, "misreadings": counts["misreading"],
            "undiagnosed": counts["undiagnosed"], "engine_faults": counts["engine-fault"]}
    return run
