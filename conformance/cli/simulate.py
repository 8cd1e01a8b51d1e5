"""`azul simulate`: random games on the reference engine, with statistics per player count.

The random policy picks each move uniformly among the legal moves. The rules deal a new round whenever no wall
row is complete and a tile is left (ROUND-1, DEAL-3), so a game that reaches a position from which no row can
ever be completed goes on for ever (random grey-wall play finds one about once in 1,000 games): --max-rounds
stops it, and it is counted and reported as stopped at the cap, not as a finished game.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from .numbers import Number, SEEDS
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from azul_conformance.engines.reference import play_logged_game, play_random_game
from azul_conformance.harness.outputs import write_atomically
from azul_conformance.harness.terminal import output_console
from azul_conformance.cli import parse_players
from azul_conformance.records import record_from_states, write_record



@dataclass
class Tally:
    """What the games of one player count add up to."""

    players: int
    games: int = 0
    unfinished: int = 0
    rounds: int = 0
    moves: int = 0
    seconds: float = 0.0
    scores: list[int] = field(default_factory=list)

    def add(self, result: dict[str, Any], seconds: float) -> None:
        if not self.scores:
            self.scores = [0] * self.players
        self.games += 1
        self.unfinished += not result["finished"]
        self.rounds += result["rounds"]
        self.moves += result["moves"]
        self.seconds += seconds
        self.scores = [total + score for total, score in zip(self.scores, result["scores"])]

    def row(self) -> list[str]:
        n = max(self.games, 1)
        return [str(self.players), str(self.games), str(self.unfinished), f"{self.rounds / n:.2f}",
                f"{self.moves / n:.1f}", f"{self.games / self.seconds:,.0f}" if self.seconds else "-",
                "  ".join(f"{total / n:.1f}" for total in self.scores)]


def write_records(target: str, counts: tuple[int, ...], variant: str, games: int, seed: int,
                  max_rounds: int) -> list[Path]:
    """Replay each simulated game with its log and write it as a game record; returns the paths written."""
    base = Path(target)
    single = len(counts) == 1 and games == 1
    paths = []
    for players in counts:
        for number, game_seed in enumerate(game_seeds(seed, players, variant, games), 1):
            states, moves = play_logged_game(players, variant, game_seed, max_rounds)
            headers = {"Event": f"azul simulate, seed {seed}", "Seed": str(game_seed)}
            path = base if single else base.with_name(f"{base.stem}-{players}p-{number:0{len(str(games))}}.azr")
            write_atomically(path, write_record(record_from_states(states, moves, headers)), make_folder=False)
            paths.append(path)
    return paths


def game_seeds(seed: int, players: int, variant: str, games: int) -> list[int]:
    """One seed per game, reproducible from the run's seed and independent across player counts."""
    stream = random.Random(f"{seed}/{players}/{variant}")
    return [stream.getrandbits(63) for _ in range(games)]


def run(counts: tuple[int, ...], variant: str, games: int, seed: int, max_rounds: int,
        progress: Progress | None = None) -> list[Tally]:
    tallies = []
    for players in counts:
        tally = Tally(players)
        task = progress.add_task(f"{players} players", total=games) if progress else None
        for game_seed in game_seeds(seed, players, variant, games):
            start = time.perf_counter()
            result = play_random_game(players, variant, game_seed, max_rounds)
            tally.add(result, time.perf_counter() - start)
            if progress is not None:
                progress.advance(task)
        tallies.append(tally)
    return tallies


@click.command()
@click.option("--games", "-n", type=Number(int, 1, 10 ** 9), default=100, show_default=True,
              help="Games to play for each player count.")
@click.option("--players", "-p", default="2", show_default=True, callback=parse_players,
              help="Player counts, comma-separated (2, 3, 4).")
@click.option("--variant", type=click.Choice(["colour", "grey"]), default="colour", show_default=True,
              help="Which side of the boards: the coloured wall or the grey wall.")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True,
              help="Seed of the run (deals and moves).")
@click.option("--max-rounds", type=Number(int, 1, 10 ** 6), default=100, show_default=True,
              help="Stop a game that has not ended after this many rounds (counted as unfinished): under the "
                   "rules a game from which no wall row can be completed never ends.")
@click.option("--record", "record", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write each game as an annotated game record (.azr, checkable by azul replay): to this "
                   "file for a single game, else to FILE-<players>p-<n>.azr beside it.")
def simulate(games: int, players: tuple[int, ...], variant: str, seed: int, max_rounds: int,
             record: str | None) -> None:
    """Play random games on the reference engine and print statistics per player count.

    Each move is chosen uniformly among the legal moves; the engine deals with its own seeded generator,
    so a run is reproducible from --seed. The coloured wall is played on the engine's fast path
    (azul_reference.fast), which plays the same games as the readable engine in less time. Per player count:
    games played, games left unfinished (stopped at --max-rounds: the rules let a game from which no wall row
    can be completed go on for ever), mean score per seat (seat 0 starts), mean rounds and moves per game, and
    games per second on one core.

    \b
    Examples:
      azul simulate --games 500 --players 2,3,4 --variant grey --seed 7
      azul simulate --games 1 --players 4 --record game.azr && azul replay game.azr
    """
    started = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        tallies = run(players, variant, games, seed, max_rounds, progress)
    table = Table(title=f"Random games on the {variant} wall, seed {seed} (means per game)")
    for heading in ("players", "games", "unfinished", "rounds", "moves", "games/s"):
        table.add_column(heading, justify="right")
    table.add_column("score by seat", no_wrap=True)
    for tally in tallies:
        table.add_row(*tally.row())
    console = output_console()
    console.print(table)
    if record:
        for path in write_records(record, players, variant, games, seed, max_rounds):
            console.print(f"wrote {path}")
    console.print(f"{sum(t.games for t in tallies)} games in {time.perf_counter() - started:.2f} s")
    unfinished = sum(t.unfinished for t in tallies)
    if unfinished:
        games_word = "game" if unfinished == 1 else "games"
        console.print(f"{unfinished} {games_word} stopped at the cap of {max_rounds} rounds (unfinished: no wall row "
                      f"completed; the rules deal on while a tile is left, so such a game may never end); "
                      f"their scores are counted as they stood")
