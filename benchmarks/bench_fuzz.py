"""`azul fuzz` games per second against the reference engine over the protocol: 1 worker, 2 local worker
processes, and a 2-worker Dask cluster on this machine (loopback), measured in turns in one run.

Each configuration plays the same campaign (two-player games, coloured wall) from a fresh state file for
about --games games; the rounds are interleaved and each configuration's best round counts (other load on a
shared machine only slows a round down). Printed: games per second per configuration and per worker, and the
ratios: 2 processes against 1 (linear: 2.0), the cluster against 2 x one worker (linear: 100%).

Targets (issue 15): at least 200 two-player games per second per worker; the cluster within 80% of linear.

    python benchmarks/bench_fuzz.py                   # 3 rounds of 100 games per configuration
    python benchmarks/bench_fuzz.py --games 300 --rounds 2
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
import tempfile
import time
from pathlib import Path

from azul_conformance.fuzz.campaign import CampaignSpec, StateFile, close_engines
from azul_conformance.fuzz.run import DaskExecutor, LocalExecutor, play_campaign


def serve_command() -> str:
    """`azul serve` from this Python's environment."""
    return shlex.join([sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())",
                       "serve"])


def rate(spec: CampaignSpec, executor, games: int, block: int) -> float:
    """Games per second of one campaign from scratch (engines already started where they are kept)."""
    with tempfile.TemporaryDirectory() as folder:
        state = StateFile(Path(folder) / "state.jsonl", spec)
        started = time.perf_counter()
        try:
            play_campaign(spec, state, executor, games, None, block)
        finally:
            state.close()
        return state.findings.games / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per configuration per round (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts (default 3)")
    parser.add_argument("--engine", default=None, help="engine command (default: azul serve)")
    args = parser.parse_args(argv)
    from distributed import Client, LocalCluster

    spec = CampaignSpec(seed=1, engine=args.engine or serve_command())
    block = max(1, args.games // 8)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        configs = {"1 worker": LocalExecutor(1), "2 processes": LocalExecutor(2),
                   "2-worker cluster": DaskExecutor(client=client)}
        workers = {"1 worker": 1, "2 processes": 2, "2-worker cluster": 2}
        for name, executor in configs.items():  # warm-up: start every engine outside the measurement
            rate(spec, executor, 2 * workers[name], 1)
        best = dict.fromkeys(configs, 0.0)
        print(f"{'round':>5} {'configuration':<17} {'games/s':>8} {'per worker':>10}")
        for r in range(args.rounds):
            for name, executor in configs.items():
                games_per_s = rate(spec, executor, args.games, block)
                best[name] = max(best[name], games_per_s)
                print(f"{r + 1:>5} {name:<17} {games_per_s:>8,.1f} {games_per_s / workers[name]:>10,.1f}")
        for executor in configs.values():
            executor.close()
    close_engines()
    single = best["1 worker"]
    print(f"best of {args.rounds}: 1 worker {single:,.1f} games/s; 2 processes {best['2 processes']:,.1f} "
          f"({best['2 processes'] / single:.2f}x of 1 worker; linear 2.00x); 2-worker cluster "
          f"{best['2-worker cluster']:,.1f} ({best['2-worker cluster'] / (2 * single):.0%} of linear)")
    print(f"per worker: {single:,.1f} games/s (target 200)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
