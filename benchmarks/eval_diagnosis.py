#!/usr/bin/env python3
"""How well the diagnosis names what is wrong: the catalogue's misreadings diagnosed as themselves.

    python benchmarks/eval_diagnosis.py                    # every misreading over the protocol, 300 pairs
    python benchmarks/eval_diagnosis.py --pairs 0 -j 2     # the singles only
    python benchmarks/eval_diagnosis.py --json docs/reports/diagnosis/self-test.json
    python benchmarks/eval_diagnosis.py --combine singles.json pairs.json --json docs/reports/diagnosis/self-test.json

Singles: each rule-level misreading of the catalogue is served as an engine (`azul serve --misreading ID`, a
process speaking protocol v1), judged by the default suite, and diagnosed. It is *named* when a deviation
names it (or lists it as indistinguishable on these cases); *alone* when, besides, no deviation names another
misreading and none is left undiagnosed. Pairs: a seeded sample of two misreadings of different rules, both
applied to the reference in-process (the suite's cases run through the same adapter interface); both named
is the measure. Then the speed: diagnosing the failing cases of one engine on one core, in-process.

With --held-out, each single is also diagnosed as an engine the catalogue was not fitted to: without the reading
it serves. What is named then is *as exact* when it reproduces every case the served reading failed (the suite
cannot tell them apart: no worse than the reading itself), a *near reading* when it is of the same rule but not
as exact (a heading more precise than the evidence: the cases where the two readings part are missing from the
suite), or of *another rule*; else nothing is named (the honest "not diagnosed"). The near readings found are a
list of pairs that a scenario should tell apart.

Goals (issue 23): singles named 100%, pairs both named at least 90%, at most 20 s for 100 failing cases on one
core. Misreadings the suite cannot tell apart on any case (the same failures everywhere) count as named
when listed together, as the reports list them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from azul_conformance.diagnosis import diagnose
from azul_conformance.diagnosis.cover import CATALOGUE, pair
from azul_conformance.diagnosis.experiment import reproduce
from azul_conformance.diagnosis.observe import observation
from azul_conformance.harness.runner import RunOptions, run_cases
from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants.catalogue import BY_ID, MUTANTS, Mutant
from azul_conformance.mutants.patching import MutantEngine
from azul_conformance.processes import Pool
from azul_conformance.results import Verdict

AZUL = str(Path(sys.executable).with_name("azul"))


@dataclass
class Outcome:
    ids: tuple[str, ...]  # the misreadings applied
    named: tuple[str, ...]  # those a deviation names (or lists as indistinguishable)
    others: tuple[str, ...]  # misreadings named that were not applied
    undiagnosed: int
    faults: int
    failing: int
    seconds: float  # the diagnosis alone
    run_seconds: float = 0.0  # the suite's run on the engine, before the diagnosis
    out_of_time: int = 0  # cases cut by the case budget (a misreading whose games never end)
    # --held-out (singles): the diagnosis without the served reading: what it named, and which of those are as
    # exact as the served reading (they reproduce every case it failed)
    held_named: tuple[str, ...] | None = None
    held_exact: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: dict) -> "Outcome":
        """An outcome as --json wrote it (its tuples as lists)."""
        held = data.get("held_named")
        return cls(**{**data, "ids": tuple(data["ids"]), "named": tuple(data["named"]),
                      "others": tuple(data["others"]), "held_named": None if held is None else tuple(held),
                      "held_exact": tuple(data.get("held_exact") or ())})


def judge(ids: tuple[str, ...], examples: int, protocol: bool, case_timeout: float | None = None,
          held_out: bool = False) -> Outcome:
    """Run the suite on the reference with `ids` applied and diagnose it (one core). `case_timeout` cuts a case
    (out of time, never a failure) as `azul conform --case-timeout` does: a misreading whose games never end
    would otherwise play each property's games to the move limit, minutes over the protocol."""
    session = Session(examples=examples, formats=())
    cases = collect(session).cases
    if protocol:
        engine = Session(engine_command=f"{AZUL} serve --misreading {'+'.join(ids)}", timeout=30).open_engine()
    else:
        by_id = {m.id: m for m in MUTANTS}
        parts = [by_id[i] for i in ids]
        engine = MutantEngine(parts[0] if len(parts) == 1 else pair(*parts))
    started = time.perf_counter()
    try:
        results = run_cases(engine, list(cases), RunOptions(examples=examples, case_timeout=case_timeout))
    finally:
        engine.close()
    run_seconds = time.perf_counter() - started
    started = time.perf_counter()
    found = diagnose(results, {c.id: c for c in cases}, jobs=1)
    seconds = time.perf_counter() - started
    named: set[str] = set()
    for deviation in found.deviations:
        for reading in ((deviation.misreading,) if deviation.misreading else ()) + deviation.alike:
            named.update(reading.id.split("+"))
    shown = _shown(found)
    outcome = Outcome(ids, tuple(sorted(named & set(ids))), tuple(sorted(shown - set(ids) - _alike_of(found, ids))),
                      sum(d.kind == "undiagnosed" for d in found.deviations),
                      sum(d.kind == "engine-fault" for d in found.deviations),
                      sum(r.bad for r in results), round(seconds, 3), round(run_seconds, 1),
                      sum(r.verdict is Verdict.OUT_OF_TIME for r in results))
    if held_out and len(ids) == 1:
        by_case = {c.id: c for c in cases}
        without = diagnose(results, by_case, catalogue=[m for m in CATALOGUE if m.id != ids[0]], jobs=1)
        held = sorted(_shown(without))
        # what the run's failures give to reproduce (a crash gives nothing), once for every reading named
        seen = [(by_case.get(r.id), observation(r)) for r in results if r.bad]
        seen = [(case, observed) for case, observed in seen if observed is not None]
        outcome.held_named = tuple(held)
        outcome.held_exact = tuple(m for m in held if _as_exact(m, seen))
    return outcome


def _shown(found) -> set[str]:
    """The misreadings a diagnosis's deviations name (a pair's two)."""
    return {part for d in found.deviations if d.misreading for part in d.misreading.id.split("+")}


def _as_exact(mutant_id: str, seen: list) -> bool:
    """Whether the reading reproduces every failure `seen` holds: (its case, the observation to reproduce)."""
    engine = MutantEngine(BY_ID[mutant_id])
    return bool(seen) and all(reproduce(engine, case, observed) == observed for case, observed in seen)


def _alike_of(found, ids) -> set[str]:
    """Misreadings named by a deviation that lists one of `ids` as indistinguishable: not another cause."""
    return {part for d in found.deviations if d.misreading and any(m.id in ids for m in d.alike)
            for part in d.misreading.id.split("+")}


def _one(args: tuple) -> Outcome:
    return judge(*args)


def sample_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = [(a.id, b.id) for i, a in enumerate(MUTANTS) for b in MUTANTS[i + 1:] if a.rule != b.rule]
    return sorted(rng.sample(pairs, min(count, len(pairs))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300, help="pairs of misreadings to sample (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", type=int, default=5, help="random games per property (default 5)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="engines judged at once (each on one core)")
    parser.add_argument("--only", nargs="*", default=None, help="misreading ids (default: the whole catalogue)")
    parser.add_argument("--case-timeout", type=float, default=60.0, metavar="SECONDS",
                        help="a case that takes longer is cut, out of time (default 60; 0: no limit)")
    parser.add_argument("--json", type=Path, default=None, help="write every outcome here")
    parser.add_argument("--held-out", action="store_true",
                        help="diagnose each single again without the reading it serves, as an engine the catalogue "
                             "was not fitted to: is what it names then as exact, a near reading, or nothing?")
    parser.add_argument("--in-process", action="store_true",
                        help="the singles in-process too, through the same adapter interface (much faster: a "
                             "misreading whose games never end costs minutes over the protocol)")
    parser.add_argument("--combine", type=Path, nargs="+", default=None, metavar="JSON",
                        help="judge nothing: summarise the outcomes of earlier runs' --json files together (the "
                             "singles of one run and the pairs of another, run at the same time on two cores)")
    args = parser.parse_args()
    if args.combine:
        return combine(args.combine, args.json)
    singles: list[Mutant] = [m for m in MUTANTS if args.only is None or m.id in args.only]
    limit = args.case_timeout or None
    jobs = [((m.id,), args.examples, not args.in_process, limit, args.held_out) for m in singles]
    jobs += [(p, args.examples, False, limit) for p in sample_pairs(args.pairs, args.seed)]
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    pool = Pool(args.jobs)  # conformance/processes.py: where every worker process of ours is started
    try:
        for done, call in enumerate([pool.submit(_one, job) for job in jobs], 1):
            outcome = call.result()
            outcomes.append(outcome)
            slow = outcome.run_seconds > 60
            if done % 20 == 0 or done == len(jobs) or slow:
                slow = f" ({'+'.join(outcome.ids)} took {outcome.run_seconds:.0f} s)" if slow else ""
                print(f"  {done}/{len(jobs)} engines judged, {time.perf_counter() - started:.0f} s{slow}", flush=True)
    finally:
        pool.close()
    settings = {"over": "in-process" if args.in_process else "protocol", "seed": args.seed,
                "examples": args.examples, "case_timeout": limit, "held_out": args.held_out}
    summarise(outcomes, settings, args.json)
    return 0


def combine(files: list[Path], target: Path | None) -> int:
    """The outcomes of several --json files as one run: they must have judged with the same settings."""
    outcomes: list[Outcome] = []
    settings: dict = {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            these = {"over": data["singles"]["over"] if data["singles"]["total"] else None,
                     "seed": data["pairs"]["seed"] if data["pairs"]["total"] else None,
                     "examples": data["examples"], "case_timeout": data.get("case_timeout")}
            outcomes += [Outcome.from_json(o) for o in data["outcomes"]]
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"{path}: not an outcome file of this script ({error})", file=sys.stderr)
            return 2
        for key, value in these.items():
            if value is not None and settings.get(key, value) != value:
                print(f"{path}: {key} {value!r}, where the files before it have {settings[key]!r}: runs with other "
                      "settings cannot be summarised together", file=sys.stderr)
                return 2
            if value is not None:
                settings[key] = value
    seen = [o.ids for o in outcomes]
    if len(set(seen)) != len(seen):
        print("the files judge some engine twice: each misreading or pair must come from one run", file=sys.stderr)
        return 2
    summarise(outcomes, {"over": "protocol", "seed": 0, **settings}, target)
    return 0


def summarise(outcomes: list[Outcome], settings: dict, target: Path | None) -> None:
    ones = [o for o in outcomes if len(o.ids) == 1]
    twos = [o for o in outcomes if len(o.ids) == 2]
    named = [o for o in ones if o.named == o.ids]
    alone = [o for o in named if not o.others and not o.undiagnosed]
    both = [o for o in twos if o.named == tuple(sorted(o.ids))]
    where = "in-process" if settings["over"] == "in-process" else "over the protocol"
    print(f"singles {where}: {len(named)} of {len(ones)} named ({_pct(len(named), len(ones))}), "
          f"{len(alone)} alone ({_pct(len(alone), len(ones))})")
    for o in ones:
        if o not in alone:
            print(f"    {o.ids[0]}: named {list(o.named)}, others {list(o.others)}, {o.undiagnosed} undiagnosed, "
                  f"{o.faults} engine faults, {o.failing} failing cases, {o.out_of_time} out of time")
    if twos:
        print(f"pairs in-process (seed {settings['seed']}): {len(both)} of {len(twos)} both named "
              f"({_pct(len(both), len(twos))})")
        for o in twos:
            if o not in both:
                print(f"    {'+'.join(o.ids)}: named {list(o.named)}, others {list(o.others)}")
    held = held_out_summary(ones)
    if held:
        total = held["total"]
        print(f"held out (each single diagnosed without the reading it serves, {total} with a failure): as exact "
              f"{held['as_exact']}, near reading of its rule {held['near']} ({_pct(held['near'], total)}), another "
              f"rule {held['other_rule']} ({_pct(held['other_rule'], total)}), nothing named {held['nothing']}")
        for served, near in held["near_pairs"]:
            print(f"    {served}: near {', '.join(near)}")
        for served, other in held["other_pairs"]:
            print(f"    {served}: another rule's {', '.join(other)}")
    cases = sum(o.failing for o in outcomes)
    seconds = sum(o.seconds for o in outcomes)
    print(f"speed: {cases} failing cases diagnosed in {seconds:.1f} s on one core: "
          f"{100 * seconds / max(cases, 1):.1f} s per 100 failing cases (goal: at most 20)")
    if target:
        target.write_text(json.dumps({
            "singles": {"total": len(ones), "named": len(named), "alone": len(alone), "over": settings["over"]},
            "pairs": {"total": len(twos), "both_named": len(both), "seed": settings["seed"]},
            "seconds_per_100_cases": round(100 * seconds / max(cases, 1), 2), "examples": settings["examples"],
            "case_timeout": settings["case_timeout"],
            **({"held_out": held} if held else {}),
            "outcomes": [o.__dict__ for o in outcomes]}, indent=1) + "\n", encoding="utf-8")


def held_out_summary(ones: list[Outcome]) -> dict | None:
    """The singles diagnosed without themselves: each counted once, by the worst it was given (a reading of
    another rule, then a near reading of its rule, then only readings as exact, then nothing)."""
    judged = [o for o in ones if o.held_named is not None and o.failing]
    if not judged:
        return None
    counts = dict.fromkeys(("as_exact", "near", "other_rule", "nothing"), 0)
    near_pairs, other_pairs = [], []
    for o in judged:
        served = BY_ID[o.ids[0]]
        wrong = [m for m in o.held_named if m not in o.held_exact]
        if any(BY_ID[m].rule != served.rule for m in wrong):
            counts["other_rule"] += 1
            other_pairs.append((served.id, wrong))
        elif wrong:
            counts["near"] += 1
            near_pairs.append((served.id, wrong))
        elif o.held_named:
            counts["as_exact"] += 1
        else:
            counts["nothing"] += 1
    return {"total": len(judged), **counts, "near_pairs": near_pairs, "other_pairs": other_pairs}


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


if __name__ == "__main__":
    sys.exit(main())
