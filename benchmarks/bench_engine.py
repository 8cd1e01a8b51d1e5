"""How fast the reference engine plays whole random games, on one core.

Each game: the engine deals with its own generator (seeded per game); every turn the legal moves are
enumerated and one is picked uniformly with a seeded random.Random. Games are played back to back in this
process for about --seconds per configuration (2, 3 and 4 players, coloured and grey wall).

The target: at least 1,000 two-player games per second on each wall; the exit status is 1 below it.

    python benchmarks/bench_engine.py                 # the table and the verdict
    python benchmarks/bench_engine.py --profile       # plus where the time goes (cProfile, 2 players)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

from azul_reference import DEAL, Game

MAX_ROUNDS = 100  # the rules let a game from which no row can ever be completed go on: stop it here


def play_one(players: int, variant: str, seed: int, make=Game) -> tuple[int, bool]:
    """One random game on `make(players, variant)` (Game, or another engine with its deal, legal_moves, play and
    phase); returns the number of moves played and whether the game ended."""
    game = make(players, variant)
    deals, picks = random.Random(seed), random.Random(~seed)
    moves = 0
    while not game.is_over():
        if game.phase == DEAL:
            if game.round > MAX_ROUNDS:
                return moves, False
            game.deal(rng=deals)
        else:
            legal = game.legal_moves()
            game.play(legal[picks.randrange(len(legal))])
            moves += 1
    return moves, True


def measure(players: int, variant: str, seconds: float) -> dict:
    games = moves = unfinished = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games < 20:
        played, ended = play_one(players, variant, seed=games)
        games, moves, unfinished = games + 1, moves + played, unfinished + (not ended)
    return {"players": players, "variant": variant, "games": games, "seconds": elapsed, "moves": moves,
            "unfinished": unfinished, "games_per_s": games / elapsed, "moves_per_s": moves / elapsed}


def print_table(rows: list[dict]) -> None:
    print(f"{'players':>7} {'wall':<6} {'games':>6} {'unfinished':>10} {'moves/game':>10} {'games/s':>9} "
          f"{'moves/s':>9} {'us/move':>8}")
    for r in rows:
        print(f"{r['players']:>7} {r['variant']:<6} {r['games']:>6} {r['unfinished']:>10} "
              f"{r['moves'] / r['games']:>10.1f} {r['games_per_s']:>9,.0f} {r['moves_per_s']:>9,.0f} "
              f"{1e6 / r['moves_per_s']:>8.1f}")


def profile(title: str, play, games: int = 300) -> None:
    """cProfile of `games` calls play(seed), seeds 0, 1, ...; own time first."""
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play(seed)
    profiler.disable()
    print(f"\nWhere the time goes: {games} games, {title} (cProfile, own time first)")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration (default 2)")
    parser.add_argument("--target", type=float, default=1000.0, help="two-player games per second required")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated (default 2,3,4)")
    parser.add_argument("--profile", action="store_true", help="also profile two-player games with cProfile")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.players.split(",")]
    rows = [measure(players, variant, args.seconds) for players in counts for variant in ("colour", "grey")]
    print_table(rows)
    if args.profile:
        for variant in ("colour", "grey"):
            profile(f"two players, {variant} wall", lambda seed, v=variant: play_one(2, v, seed))
    slow = [r for r in rows if r["players"] == 2 and r["games_per_s"] < args.target]
    for r in slow:
        print(f"BELOW TARGET: {r['games_per_s']:,.0f} two-player games/s on the {r['variant']} wall "
              f"(target {args.target:,.0f})")
    if not slow and 2 in counts:
        print(f"target met: two-player games/s >= {args.target:,.0f} on both walls")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
