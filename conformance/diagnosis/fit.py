"""The rules that are numbers, fitted to what the engine did: for the failing cases no catalogued reading explains,
each family of mutants/families.py (the floor's penalties, a bonus, a count) is searched for a value under which
the reference does what the engine did.

1. A case is a family's to fit only where one of its probes (a value that changes every use of the rule, up and
   down) changes what the reference does there: elsewhere no value of it can.
2. The family's whole space is tried on the first such case (on the next, up to three, while none explains it);
   each value that explains it is then tried on all of them, and of the values that explain the same cases the
   nearest to the rules' is kept (an entry of the table that no case reached is not guessed).
3. A value is the engine's only if the engine's own cases bear it out, as a catalogued reading's must: it explains
   two cases at least (a range of values tried is many chances at a lone case) and more than it contradicts (the
   engine got to the value's first difference undisturbed and did something else there), no case of its own
   rule shows another value, and no scenario the engine passed fails with it (a catalogued reading is held to
   the published kills; a fitted one has none, so it is run on them).

What survives is tried on the failures a catalogued reading explains as well, and joins the experiments' results
as any reading does: the cover chooses between them on all that each explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..engines.reference import ReferenceEngine
from ..harness.cases import Case
from ..mutants.catalogue import Mutant
from ..mutants.families import FAMILIES, Family
from ..mutants.patching import MutantEngine
from ..results import CaseKind, CaseResult, Verdict
from .experiment import fails, reproduce
from .observe import Observation

SAMPLE = 3  # cases a family's whole space is tried on, at most
KEPT = 3  # values of a family held to the engine's passing scenarios (those that explain the most)
# cases a value must explain: of a range of a dozen values or hundreds, one reproduces a lone case by chance (an
# engine's one wrong score at the game's end, a fault of another kind, matched by a column bonus of 1)
AT_LEAST = 2


class Trials(Protocol):  # cover._Trials: what fitting reads and adds to
    explains: dict[str, set[str]]
    closeness: dict[str, dict[str, float]]
    first: dict[str, int]


def fit(trials: Trials, seen: dict[str, Observation], cases: dict[str, Case], results: Sequence[CaseResult],
        by_id: dict[str, Mutant], seed: int = 0, families: Sequence[Family] = FAMILIES) -> list[Mutant]:
    """Fit each family to the cases nothing explains; each value kept is added to `trials` (the cases it explains)
    and `by_id`. The values kept, returned."""
    open_cases = [c for c, found in sorted(trials.explains.items()) if not found and c in trials.closeness]
    if not open_cases:
        return []
    reference = ReferenceEngine(seed)
    rules_do = {c: reproduce(reference, cases.get(c), seen[c]) for c in open_cases}
    passed = [cases[r.id] for r in results if r.verdict is Verdict.PASS and r.id in cases
              and cases[r.id].kind is CaseKind.SCENARIO]
    kept: list[Mutant] = []
    for family in families:
        probes = [MutantEngine(family.reading(probe), seed) for probe in family.probes]
        mine = [c for c in open_cases
                if any(reproduce(probe, cases.get(c), seen[c]) != rules_do[c] for probe in probes)]
        if not mine:
            continue
        explained = _search(family, mine, seen, cases, seed)
        best = sorted(((found, case_ids) for found, case_ids in explained.items() if len(case_ids) >= AT_LEAST),
                      key=lambda item: (-len(item[1]), family.distance(item[0])))[:KEPT]
        for found, case_ids in best:
            reading = family.reading(found)
            engine = MutantEngine(reading, seed)
            if not _borne_out(engine, family, case_ids, mine, seen, cases, trials, seed) \
                    or any(fails(engine, c) for c in passed):
                continue
            # the failures a catalogued reading explains too: the cover chooses between them on all they explain
            case_ids |= {c for c in trials.closeness if c not in case_ids and c in seen
                         and reproduce(engine, cases.get(c), seen[c]) == seen[c]}
            kept.append(reading)
            by_id.setdefault(reading.id, reading)
            for case_id in case_ids:
                trials.explains[case_id].add(reading.id)
            break  # an engine holds one value of a rule: the first borne out, of those explaining the most
    return kept


def _search(family: Family, mine: list[str], seen: dict[str, Observation], cases: dict[str, Case],
            seed: int) -> dict[Any, frozenset[str]]:
    """Each value that explains some of `mine` (the nearest to the rules' of those explaining the same cases):
    the cases it explains."""
    found: dict[Any, frozenset[str]] = {}
    engines: dict[str, MutantEngine] = {}
    for case_id in mine[:SAMPLE]:
        if found:
            break  # the values found are tried on every case next; another case is searched only if none was
        for candidate in family.values():
            engine = engines.get(repr(candidate))
            if engine is None:
                engine = engines[repr(candidate)] = MutantEngine(family.reading(candidate), seed)
            if reproduce(engine, cases.get(case_id), seen[case_id]) == seen[case_id]:
                found[candidate] = frozenset()
    for candidate in found:
        engine = engines[repr(candidate)]
        found[candidate] = frozenset(c for c in mine if reproduce(engine, cases.get(c), seen[c]) == seen[c])
    nearest: dict[frozenset[str], Any] = {}
    for candidate, case_ids in found.items():
        if case_ids not in nearest or family.distance(candidate) < family.distance(nearest[case_ids]):
            nearest[case_ids] = candidate
    return {candidate: case_ids for case_ids, candidate in nearest.items()}


def _borne_out(engine: MutantEngine, family: Family, explained: frozenset[str], mine: list[str],
               seen: dict[str, Observation], cases: dict[str, Case], trials: Trials, seed: int) -> bool:
    """Of the family's cases the value does not explain, those where the engine got as far as the value's first
    difference and did something else there contradict it: fewer of them than it explains. A case written for
    the family's rule that another value of the family explains says the engine holds that one: none may. (One
    that no value explains says another fault decides there, beside the value: the family's whole space is its
    neighbours, so unlike a catalogued reading's, the contradiction points to no nearer reading.)"""
    against = 0
    for case_id in mine:
        if case_id in explained or case_id not in trials.first:
            continue
        got = reproduce(engine, cases.get(case_id), seen[case_id])
        line = got.departs(seen[case_id]) if got is not None else None
        if line is not None and line <= trials.first[case_id]:
            if case_id in cases and family.rule in cases[case_id].rules and _explained_by_another(
                    family, engine.mutant.id, case_id, seen, cases, seed):
                return False
            against += 1
    return against < len(explained)


def _explained_by_another(family: Family, mutant_id: str, case_id: str, seen: dict[str, Observation],
                          cases: dict[str, Case], seed: int) -> bool:
    for candidate in family.values():
        reading = family.reading(candidate)
        if reading.id != mutant_id and reproduce(MutantEngine(reading, seed), cases.get(case_id),
                                                 seen[case_id]) == seen[case_id]:
            return True
    return False
