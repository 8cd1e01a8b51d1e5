"""The reference engine's random-game speed against ludometer's, both in-process, interleaved in one run.

ludometer (github.com/RemiFabre/ludometer, pure Python; numpy only for its network encoding, which is not used
here) is the fastest third-party Python Azul engine we know. This project holds none of its code: the script
reads your copy from $LUDOMETER_ROOT (the folder holding ludometer/azul/engine.py). Without it the script says
so, measures the reference engine and its fast path alone, judges no target and exits 0. Every engine plays
whole two-player games with the same uniform random policy: every turn the legal moves are listed and one is
picked with a seeded random.Random; each engine deals with its own generator, seeded per game. The engines are
measured in turns, about --seconds of this process's CPU time each, --rounds times; each engine's best round
counts (other load on a shared machine only ever slows a round down), and the ratios of the bests to
ludometer's are printed.

The reference engine runs three ways: `reference`, the readable engine (Game); `fast`, its fast path
(azul_reference.fast.FastGame, the same games) compiled with mypyc as `AZUL_COMPILE=1 pip install` builds it;
`fast-interpreted`, the same fast.py source run by CPython. The target: the fast path at least 2x ludometer's
games per second; the exit status is 1 below it.

    LUDOMETER_ROOT=/path/to/ludometer python benchmarks/bench_vs_ludometer.py   # 5 rounds of 1 s per engine
    python benchmarks/bench_vs_ludometer.py                  # without ludometer: our engines only, exit 0
    python benchmarks/bench_vs_ludometer.py --profile        # plus cProfile of every engine
    python benchmarks/bench_vs_ludometer.py --engine reference --games 60   # just play them: for valgrind

Instruction counts do not depend on the machine's load: run the last form with .venv-bench/bin/python under
valgrind's callgrind with --games 60 and --games 0 (PYTHONHASHSEED fixed) and divide the difference by 60
(benchmarks/README.md).

The script runs itself in a virtual environment at .venv-bench/ in the project folder, which it makes (once)
with mypy, numpy when LUDOMETER_ROOT is set (ludometer imports it), and the project installed with the fast
path compiled, and installs the project there again whenever reference_impl/ has changed since. Without a C
compiler the build fails and the script says so; --interpreted then runs the fast path interpreted only.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import random
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
LUDOMETER_ENGINE = Path("ludometer") / "azul" / "engine.py"  # what $LUDOMETER_ROOT must hold
BENCH_VENV = PROJECT / ".venv-bench"
STAMP = BENCH_VENV / "azul-reference-source.sha256"  # the reference_impl/ the venv's build was made from
RUN_TIMEOUT = 4 * 3600  # seconds for the measuring run in .venv-bench (a long --rounds/--seconds or --profile)


def source_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((PROJECT / "reference_impl").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def ludometer_root() -> Path | None:
    """Your copy of ludometer, from $LUDOMETER_ROOT; None when the variable is not set."""
    value = os.environ.get("LUDOMETER_ROOT")
    if not value:
        return None
    root = Path(value).expanduser().resolve()
    if not (root / LUDOMETER_ENGINE).is_file():
        sys.exit(f"LUDOMETER_ROOT={value} holds no {LUDOMETER_ENGINE.as_posix()}: set it to your copy of ludometer "
                 "(the folder holding that file), or unset it to measure our engines alone")
    return root


def run_in_bench_venv(interpreted: bool, numpy: bool) -> None:
    """Re-run this script in .venv-bench, making it or building the project into it again when needed."""
    if Path(sys.prefix).resolve() == BENCH_VENV.resolve():  # run in it (by the re-run below, or by hand)
        if not STAMP.exists() or not STAMP.read_text().startswith(source_digest()):
            sys.exit(f"the project installed in {BENCH_VENV} is not today's reference_impl/: run this script "
                     "once with another Python, which installs it again")
        return
    python = BENCH_VENV / "bin" / "python"
    if not python.exists():
        print(f"making {BENCH_VENV} (once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True, timeout=300)
    wanted = (["numpy"] if numpy else []) + ["mypy", "setuptools>=70.1"]  # numpy: ludometer imports it
    modules = (["numpy"] if numpy else []) + ["mypy", "setuptools.command.bdist_wheel"]
    if subprocess.run([str(python), "-c", "import " + ", ".join(modules)],
                      capture_output=True, timeout=120).returncode:
        print(f"installing {', '.join(name.split('>')[0] for name in wanted)} into {BENCH_VENV}", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *wanted], check=True, timeout=900)
    digest = source_digest() + ("-interpreted" if interpreted else "")
    if not STAMP.exists() or STAMP.read_text() != digest:
        how = "interpreted" if interpreted else "with the fast path compiled by mypyc"
        print(f"installing the project into {BENCH_VENV}, {how}", file=sys.stderr)
        env = dict(os.environ, AZUL_COMPILE="0" if interpreted else "1")
        build = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-build-isolation", "--force-reinstall",
                                "--no-deps", str(PROJECT)], env=env, timeout=900)
        if build.returncode:
            sys.exit("the build failed (the compiled fast path needs a C compiler and Python's headers); "
                     "--interpreted measures the fast path interpreted only")
        STAMP.write_text(digest)
    sys.exit(subprocess.run([str(python), __file__, *sys.argv[1:]], timeout=RUN_TIMEOUT).returncode)


def reference_game(seed: int) -> int:
    """One random two-player game on the readable reference engine (bench_engine's loop); returns the moves."""
    from bench_engine import play_one

    return play_one(2, "colour", seed)[0]


def fast_game_of(fast_class):
    """bench_engine's loop on a FastGame class: the same games as reference_game (tests/test_engine_fast_game.py)."""
    from bench_engine import play_one

    def fast_game(seed: int) -> int:
        return play_one(2, "colour", seed, make=lambda players, _variant: fast_class(players))[0]
    return fast_game


def interpreted_fast_class():
    """FastGame from reference_impl/fast.py run by CPython, whatever the installed module is."""
    spec = importlib.util.spec_from_file_location("azul_reference.fast_interpreted",
                                                  PROJECT / "reference_impl" / "fast.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FastGame


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
    parser.add_argument("--target", type=float, default=2.0, help="required ratio fast path / ludometer")
    parser.add_argument("--profile", action="store_true", help="also profile 300 games of each engine")
    parser.add_argument("--interpreted", action="store_true",
                        help="install the project into .venv-bench without compiling the fast path")
    parser.add_argument("--engine", choices=ENGINES, help="with --games: only this engine")
    parser.add_argument("--games", type=int, help="with --engine: play this many games after the warm-up, "
                                                  "untimed, and stop (for an instruction count)")
    args = parser.parse_args(argv)
    if (args.engine is None) != (args.games is None):
        parser.error("--engine and --games go together")
    ludometer = ludometer_root()
    if ludometer is None and args.engine == "ludometer":
        parser.error("--engine ludometer needs LUDOMETER_ROOT: your copy of ludometer (the folder holding "
                     f"{LUDOMETER_ENGINE.as_posix()})")
    run_in_bench_venv(args.interpreted, numpy=ludometer is not None)
    if ludometer is None and args.engine is None:
        print(f"LUDOMETER_ROOT is not set: ludometer is not measured and the target ({args.target:g}x ludometer) is "
              "not judged; only the reference engine and its fast path are. To compare, set LUDOMETER_ROOT to your "
              "copy of ludometer (the folder holding ludometer/azul/engine.py): "
              "LUDOMETER_ROOT=/path/to/ludometer python benchmarks/bench_vs_ludometer.py", flush=True)
    if ludometer is not None:
        sys.path.insert(0, str(ludometer))
    from azul_reference import fast

    compiled = not fast.__file__.endswith(".py")
    engines = {"reference": reference_game, "fast": fast_game_of(fast.FastGame),
               "fast-interpreted": fast_game_of(interpreted_fast_class()), "ludometer": ludometer_game}
    if not compiled:
        del engines["fast"]  # the installed fast path is the interpreted one
    if ludometer is None:
        del engines["ludometer"]
    for play in engines.values():  # imports and warm-up outside the measurement
        play(0)
    if args.engine:
        moves = sum(engines[args.engine](seed) for seed in range(1, args.games + 1))
        print(f"{args.engine}: {args.games} games, {moves} moves")
        return 0
    print(f"the fast path: {fast.__file__} ({'compiled with mypyc' if compiled else 'interpreted'})")
    best = {name: 0.0 for name in engines}
    print(f"{'round':>5} {'engine':<17} {'games':>6} {'moves/game':>10} {'games/s':>9}")
    for r in range(args.rounds):
        for name, play in engines.items():
            games_per_s, games, moves = rate(play, args.seconds, first_seed=r * 100_000)
            best[name] = max(best[name], games_per_s)
            print(f"{r + 1:>5} {name:<17} {games:>6} {moves:>10.1f} {games_per_s:>9,.0f}")
    judged = "fast" if compiled else "fast-interpreted"
    if ludometer is None:
        print(f"best of {args.rounds} (ludometer not measured: LUDOMETER_ROOT is not set):")
        for name in engines:
            print(f"  {name:<17} {best[name]:>9,.0f} games/s")
        ratio = None
    else:
        print(f"best of {args.rounds}, against ludometer's {best['ludometer']:,.0f} games/s:")
        for name in engines:
            if name != "ludometer":
                print(f"  {name:<17} {best[name]:>9,.0f} games/s  {best[name] / best['ludometer']:.2f}x")
        ratio = best[judged] / best["ludometer"]
        print(f"the fast path ({judged}): {ratio:.2f}x ludometer (target {args.target:.2f}x): "
              f"{'met' if ratio >= args.target else 'NOT MET'}")
    if args.profile:
        from bench_engine import profile  # beside this script: its directory is first on sys.path

        for name, play in engines.items():
            profile(name, play, 300)
    return 0 if ratio is None or ratio >= args.target else 1


ENGINES = ("reference", "fast", "fast-interpreted", "ludometer")


if __name__ == "__main__":
    sys.exit(main())
