"""The targeted properties' reach and cost: how often each steered property reaches its rare branch in the
default run, and what the five cost beside the rest of the default in-process suite, timed in one run.

Each round times the default suite without the targeted properties (scenarios and the other properties) and
then the targeted properties alone, in this process, on the reference engine; the best round of each counts
(load on a shared machine only slows a round down). Printed: per targeted property its games, the games that
reached its branch and its seconds; then the two totals and their ratio.

    python benchmarks/bench_targeted.py                 # 2 rounds, the default suite's 50 games a property
    python benchmarks/bench_targeted.py --rounds 3
"""

from __future__ import annotations

import argparse
import time

from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness.runner import RunOptions, run_case
from azul_conformance.harness.session import Session, collect


def timed(cases, examples: int) -> tuple[float, dict]:
    engine = ReferenceEngine(0)
    options = RunOptions(examples=examples, seed=0)
    outcomes = {}
    started = time.perf_counter()
    for case in cases:
        begun = time.perf_counter()
        result = run_case(engine, case, engine.info.capabilities, options)
        outcomes[case.id] = (result, time.perf_counter() - begun)
    return time.perf_counter() - started, outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--examples", type=int, default=50, help="games per property (default 50, as azul conform)")
    args = parser.parse_args(argv)
    cases = collect(Session(examples=args.examples)).cases
    targeted = [c for c in cases if c.id.startswith("targeted-")]
    rest = [c for c in cases if not c.id.startswith("targeted-")]
    best_rest = best_targeted = float("inf")
    for number in range(args.rounds):
        seconds_rest, _ = timed(rest, args.examples)
        seconds_targeted, outcomes = timed(targeted, args.examples)
        best_rest, best_targeted = min(best_rest, seconds_rest), min(best_targeted, seconds_targeted)
        print(f"round {number + 1}: the rest of the default suite ({len(rest)} cases) {seconds_rest:.1f} s, "
              f"the {len(targeted)} targeted properties {seconds_targeted:.1f} s", flush=True)
    for case_id, (result, seconds) in outcomes.items():
        details = result.details or {}
        print(f"  {case_id:28} {result.verdict:5} {details.get('reached', 0):3} of {details.get('examples', 0):3} "
              f"games reached the branch, {seconds:.2f} s")
    print(f"targeted properties: {best_targeted:.1f} s beside {best_rest:.1f} s for the rest of the default suite: "
          f"{best_targeted / best_rest:.2f}x its time")
    return 0 if all(result.verdict == "pass" and (result.details or {}).get("reached")
                    for result, _ in outcomes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
