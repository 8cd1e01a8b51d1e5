"""`azul fuzz` games per second against the reference engine over the protocol: 1 worker step by step (every
move a request, the path of engines without play_game), 1 worker with play_game on one core and with the
next game prepared meanwhile (the default, which uses a second core), 2 local worker processes, and a 2-worker
Dask cluster on this machine (loopback), measured in turns in one run.

Each configuration plays the same campaign (two-player games, coloured wall) from a fresh state file for about
--games games, in blocks of azul fuzz's default 50 games (--block): a block costs a Dask cluster a few
milliseconds of task handling, so blocks smaller than a campaign's overstate that cost (25-game blocks cost the
2-worker cluster about 7 points of linear against 50-game ones). The rounds are interleaved and each
configuration's best round counts (other load on a shared machine only slows a round down). Printed: games per
second per configuration and per worker, the load average, and the ratios: play_game against step by step, 2
processes and the cluster against twice one worker on one core (linear: 100%; a worker that overlaps already
uses both cores of a 2-core machine, so two of them cannot double it), and the cluster against 2 local
processes (Dask's own cost).

Fair start: nothing is timed before every worker process is up and has started its engine (the warm-up holds
one block per worker at a barrier until all have; the cluster itself is started before that). A round's
figure is one campaign's wall time, from creating its state file to recording its last block, for every
configuration alike: so the cluster's own per-campaign cost, its first blocks reaching the workers and the
last result coming back (about 10-15 ms together on this machine, against under a millisecond for local
processes), is counted, and weighs more the shorter the campaign (--games).

Targets (issue 15): at least 200 two-player games per second per worker; the cluster within 80% of linear.

    python benchmarks/bench_fuzz.py                   # 3 rounds of 600 games per configuration
    python benchmarks/bench_fuzz.py --games 2000 --rounds 2
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from azul_conformance.fuzz.campaign import CampaignSpec, close_engines, engines_for
from azul_conformance.fuzz.state import StateFile
from azul_conformance.fuzz.run import DaskExecutor, LocalExecutor, play_campaign


def serve_command() -> str:
    """`azul serve` from this Python's environment."""
    return shlex.join([sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())",
                       "serve"])


def engines_started(spec: CampaignSpec, folder: str, workers: int) -> int:
    """Start this process's engines, then wait (at most a minute) until `workers` processes have: each worker
    holds one of these blocks, so every worker, not just the quickest, starts its engine before timing."""
    engines_for(spec)
    Path(folder, str(os.getpid())).touch()
    waited = time.perf_counter()
    while len(os.listdir(folder)) < workers and time.perf_counter() - waited < 60:
        time.sleep(0.01)
    return os.getpid()


def warm_up(spec: CampaignSpec, executor, workers: int) -> None:
    """Every worker's engine started and every worker process up, outside the measurement (for each
    configuration alike: the 1-worker figures do not include a start-up either)."""
    with tempfile.TemporaryDirectory() as folder:
        futures = [executor.submit(engines_started, spec, folder, workers) for _ in range(workers)]
        if len({future.result() for future in futures}) < workers:
            print(f"warm-up: not every one of the {workers} workers started its engine", file=sys.stderr)
    rate(spec, executor, 4 * workers, 1)  # and a few games: the first requests of a fresh engine are slow


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
    parser.add_argument("--games", type=int, default=600, help="games per configuration per round (default 600)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts (default 3)")
    parser.add_argument("--block", type=int, default=50, help="games per block (default 50, as azul fuzz)")
    parser.add_argument("--engine", default=None, help="engine command (default: azul serve)")
    args = parser.parse_args(argv)
    from distributed import Client, LocalCluster

    engine = args.engine or serve_command()
    overlapping = CampaignSpec(seed=1, engine=engine)
    one_core = replace(overlapping, overlap=False)
    step_by_step = replace(overlapping, batched=False)
    block = args.block
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        local1, local2, dask = LocalExecutor(1), LocalExecutor(2), DaskExecutor(client=client)
        configs = {"1 worker, step by step": (step_by_step, local1, 1, 10),  # 10x fewer games: it is slow
                   "1 worker, one core": (one_core, local1, 1, 1),
                   "1 worker, overlapping": (overlapping, local1, 1, 1),
                   "2 processes": (overlapping, local2, 2, 1),
                   "2-worker cluster": (overlapping, dask, 2, 1)}
        for spec, executor, workers, _ in configs.values():
            warm_up(spec, executor, workers)
        best = dict.fromkeys(configs, 0.0)
        print(f"{'round':>5} {'configuration':<24} {'games/s':>8} {'per worker':>10} {'load':>5}")
        for r in range(args.rounds):
            for name, (spec, executor, workers, fewer) in configs.items():
                games_per_s = rate(spec, executor, args.games // fewer, max(1, block // fewer))
                best[name] = max(best[name], games_per_s)
                print(f"{r + 1:>5} {name:<24} {games_per_s:>8,.1f} {games_per_s / workers:>10,.1f} "
                      f"{os.getloadavg()[0]:>5.1f}", flush=True)
        for executor in (local1, local2, dask):
            executor.close()
    close_engines()
    single = best["1 worker, one core"]
    print(f"best of {args.rounds} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
    print(f"  per worker: {best['1 worker, overlapping']:,.1f} games/s overlapping, {single:,.1f} on one core "
          f"(target 200); step by step {best['1 worker, step by step']:,.1f}: play_game is "
          f"{best['1 worker, overlapping'] / best['1 worker, step by step']:,.1f}x faster")
    print(f"  2 processes {best['2 processes']:,.1f} games/s ({best['2 processes'] / (2 * single):.0%} of linear); "
          f"2-worker cluster {best['2-worker cluster']:,.1f} ({best['2-worker cluster'] / (2 * single):.0%} of "
          f"linear, {best['2-worker cluster'] / best['2 processes']:.0%} of 2 local processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
