"""The reference engine's random-game speed against ludometer's, both in-process, interleaved in one run.

ludometer (../shared/engines/ludometer, pure Python; numpy only for its network encoding, which is not used
here) is the fastest third-party Python Azul engine we know. Both engines play whole two-player games with the
same uniform random policy: every turn the legal moves are listed and one is picked with a seeded
random.Random; each engine deals with its own generator, seeded per game. The two are measured in turns, about
--seconds of this process's CPU time each, --rounds times; each engine's best round counts (other load on a
shared machine only ever slows a round down), and the ratio of the two bests is printed.

The target: the reference engine at least 2x ludometer's games per second; the exit status is 1 below it.

    python benchmarks/bench_vs_ludometer.py                  # 5 rounds of 1 s per engine
    python benchmarks/bench_vs_ludometer.py --profile        # plus cProfile of both engines
    python benchmarks/bench_vs_ludometer.py --engine reference --games 60   # just play them: for valgrind

Instruction counts do not depend on the machine's load: run the last form under valgrind's callgrind with
--games 60 and --games 0 (PYTHONHASHSEED fixed) and divide the difference by 60 (benchmarks/README.md).

ludometer imports numpy. When the running Python lacks it, the script makes (or finds) a virtual environment
at .venv-bench/ in the project folder with numpy and the project installed, and runs itself again there.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
LUDOMETER = PROJECT.parent / "shared" / "engines" / "ludometer"
BENCH_VENV = PROJECT / ".venv-bench"


def ensure_numpy() -> None:
    """Re-run this script under a Python that has numpy (and the project), making that venv if needed."""
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    python = BENCH_VENV / "bin" / "python"
    if os.environ.get("AZUL_BENCH_REEXEC"):
        sys.exit(f"numpy is still missing in {sys.executable}; remove {BENCH_VENV} and try again")
    if not python.exists():
        print(f"making {BENCH_VENV} with numpy and the project (once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True, timeout=300)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "numpy", "-e", str(PROJECT)],
                       check=True, timeout=900)
    env = dict(os.environ, AZUL_BENCH_REEXEC="1")
    sys.exit(subprocess.run([str(python), __file__, *sys.argv[1:]], env=env).returncode)


def reference_game(seed: int) -> int:
    """One random two-player game on the reference engine (bench_engine's loop); returns the moves played."""
    from bench_engine import play_one

    return play_one(2, "colour", seed)[0]


def ludometer_game(seed: int) -> int:
    """One random two-player game on ludometer's engine (it deals from its own seeded generator)."""
    from ludometer.azul.engine import AzulState

    state = AzulState.new_game(seed)
    picks = random.Random(~seed)
    moves = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[picks.randrange(len(legal))])
        moves += 1
    return moves


def rate(play, seconds: float, first_seed: int) -> tuple[float, int, float]:
    """Games per second over about `seconds` of back-to-back games; also the games and moves per game."""
    games = moves = 0
    start = time.process_time()  # CPU time: a shared machine's other load does not count against a round
    while (elapsed := time.process_time() - start) < seconds or games < 10:
        moves += play(first_seed + games)
        games += 1
    return games / elapsed, games, moves / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per engine per round (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best counts (default 5)")
    parser.add_argument("--target", type=float, default=2.0, help="required ratio reference / ludometer")
    parser.add_argument("--profile", action="store_true", help="also profile 300 games of each engine")
    parser.add_argument("--engine", choices=("reference", "ludometer"), help="with --games: only this engine")
    parser.add_argument("--games", type=int, help="with --engine: play this many games after the warm-up, "
                                                  "untimed, and stop (for an instruction count)")
    args = parser.parse_args(argv)
    if (args.engine is None) != (args.games is None):
        parser.error("--engine and --games go together")
    ensure_numpy()
    sys.path.insert(0, str(LUDOMETER))
    engines = {"reference": reference_game, "ludometer": ludometer_game}
    for play in engines.values():  # imports and warm-up outside the measurement
        play(0)
    if args.engine:
        moves = sum(engines[args.engine](seed) for seed in range(1, args.games + 1))
        print(f"{args.engine}: {args.games} games, {moves} moves")
        return 0
    best = {name: 0.0 for name in engines}
    print(f"{'round':>5} {'engine':<10} {'games':>6} {'moves/game':>10} {'games/s':>9}")
    for r in range(args.rounds):
        for name, play in engines.items():
            games_per_s, games, moves = rate(play, args.seconds, first_seed=r * 100_000)
            best[name] = max(best[name], games_per_s)
            print(f"{r + 1:>5} {name:<10} {games:>6} {moves:>10.1f} {games_per_s:>9,.0f}")
    ratio = best["reference"] / best["ludometer"]
    print(f"best of {args.rounds}: reference {best['reference']:,.0f} games/s, ludometer "
          f"{best['ludometer']:,.0f} games/s, ratio {ratio:.2f}x (target {args.target:.2f}x)")
    if args.profile:
        from bench_engine import profile  # beside this script: its directory is first on sys.path

        for name, play in engines.items():
            profile(name, play, 300)
    return 0 if ratio >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
