"""`azul conform -j 2` against `-j 1`: the default suite on the reference engine over the protocol, timed in
turns in one run.

Each round runs the whole default suite (scenarios and properties) once with -j 1 and once with -j 2 against
`azul serve`; the best round of each counts (other load on a shared machine only slows a round down) and the
ratio of the two is printed, with the machine's load average. Target (issue 15): -j 2 in at most 0.6x the time
of -j 1 on 2 cores.

    python benchmarks/bench_conform_parallel.py                 # 2 rounds, 10 games per property
    python benchmarks/bench_conform_parallel.py --examples 50   # the default suite's property length
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time

from rich.console import Console

from azul_conformance.harness.session import Session, run_session


def serve_command() -> str:
    return shlex.join([sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())",
                       "serve"])


def cpu() -> float:
    """CPU seconds of this process and of its children ended so far (workers, engines)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(jobs: int, examples: int) -> tuple[float, float, list]:
    with tempfile.TemporaryDirectory() as folder:
        session = Session(engine_command=serve_command(), examples=examples, jobs=jobs, formats=("jsonl",),
                          report_dir=folder)
        started, used = time.perf_counter(), cpu()
        results, _ = run_session(session, Console(file=open("/dev/null", "w")))
        return time.perf_counter() - started, cpu() - used, [(r.id, str(r.verdict)) for r in results]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--examples", type=int, default=10, help="games per property (default 10)")
    args = parser.parse_args(argv)
    best = {1: float("inf"), 2: float("inf")}
    verdicts = {}
    for r in range(args.rounds):
        for jobs in (1, 2):
            seconds, used, verdicts[jobs] = timed(jobs, args.examples)
            best[jobs] = min(best[jobs], seconds)
            # the CPU time says what -j 2 costs in work beyond -j 1 (on a loaded machine the wall time says little)
            print(f"round {r + 1}: -j {jobs}: {seconds:6.1f} s, {used:6.1f} s of CPU ({len(verdicts[jobs])} cases)",
                  flush=True)
    same = verdicts[1] == verdicts[2]
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"best of {args.rounds}: -j 1 {best[1]:.1f} s, -j 2 {best[2]:.1f} s: ratio {best[2] / best[1]:.2f}x "
          f"(target <= 0.60x); same verdicts in the same order: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
