"""Memory over a long `azul fuzz` campaign: the resident size of the campaign's process, block after block.

A campaign holds only the blocks in flight and one record per distinct deviation, and writes every finished
block to its state file, so its memory should stay flat however many games it plays. This plays --games
games (two-player, coloured wall, the in-process reference engine against itself, so the process holds the
campaign, the engine and the reference) and prints the resident size (VmRSS, Linux) at growing game counts,
the peak (VmHWM) and the growth from the first tenth of the campaign to its end.

    nice python benchmarks/bench_fuzz_memory.py                 # 100,000 games (long: run it in the background)
    python benchmarks/bench_fuzz_memory.py --games 5000         # a quick look
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from azul_conformance.fuzz.campaign import CampaignSpec, close_engines
from azul_conformance.fuzz.state import StateFile
from azul_conformance.fuzz.run import LocalExecutor, play_campaign


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status (Linux only)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--max-seconds", type=float, default=5400.0, help="stop after this long whatever happens")
    args = parser.parse_args(argv)
    spec = CampaignSpec(seed=7)
    marks = sorted({args.games // 100, args.games // 20} | {args.games * k // 10 for k in range(1, 11)})
    samples: list[tuple[int, int]] = []
    started = time.perf_counter()

    def on_block(block) -> None:
        games = state.findings.games
        samples.append((games, status_kib("VmRSS")))
        if marks and games >= marks[0]:
            marks.pop(0)
            print(f"{games:>8} games  {time.perf_counter() - started:>7.0f} s  rss {samples[-1][1] / 1024:7.1f} MiB"
                  f"  load {os.getloadavg()[0]:.1f}", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        state = StateFile(Path(folder) / "state.jsonl", spec)
        try:
            play_campaign(spec, state, LocalExecutor(1), args.games, args.max_seconds, args.block, on_block)
        finally:
            state.close()
            close_engines()
    tenth = next(rss for games, rss in samples if games >= state.findings.games // 10)
    end = samples[-1][1]
    print(f"{state.findings.games} games in {time.perf_counter() - started:.0f} s; peak rss (VmHWM) "
          f"{status_kib('VmHWM') / 1024:.1f} MiB; rss after a tenth {tenth / 1024:.1f} MiB, at the end "
          f"{end / 1024:.1f} MiB: growth {end / tenth:.3f}x over the last nine tenths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
