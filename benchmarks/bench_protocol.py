#!/usr/bin/env python3
"""Protocol requests per second: the reference engine as `azul serve` over pipes, driven by ProcessEngine.

Plays random games (deal, legal_moves, play; state every step) for a few seconds and prints the rate.
Target: at least 3,000 requests per second.

    python benchmarks/bench_protocol.py [--seconds 3] [--engine "azul serve"]
"""

from __future__ import annotations

import argparse
import random
import shlex
import shutil
import sys
import time
from pathlib import Path

from azul_conformance.engines.subprocess import ProcessEngine


def _serve_command() -> str:
    """`azul serve` from this Python's environment (its bin folder need not be on PATH)."""
    beside = Path(sys.executable).parent / "azul"
    azul = str(beside) if beside.exists() else shutil.which("azul")
    if azul:
        return shlex.join([azul, "serve"])
    return shlex.join([sys.executable, "-c", "from azul_conformance.cli import main; main()", "serve"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--engine", default=None, help="engine command (default: azul serve)")
    args = parser.parse_args()
    command = args.engine or _serve_command()
    engine = ProcessEngine(command)
    rng = random.Random(1)
    start, games = time.perf_counter(), 0
    engine.requests = 0
    while time.perf_counter() - start < args.seconds:
        state = engine.new_game(rng.choice((2, 3, 4)))
        while state["phase"] != "over":
            if state["phase"] == "deal":
                state = engine.deal()
                continue
            moves = engine.legal_moves()
            state = engine.play(rng.choice(moves))
            engine.state()
        games += 1
    elapsed = time.perf_counter() - start
    engine.close()
    rate = engine.requests / elapsed
    print(f"{engine.requests} requests in {elapsed:.2f} s over {games} games: {rate:,.0f} requests/s "
          f"({'meets' if rate >= 3000 else 'BELOW'} the 3,000/s target)")
    return 0 if rate >= 3000 else 1


if __name__ == "__main__":
    sys.exit(main())
