"""What every importer produces: a recorded game in neutral terms, and the problems it found on the way.

An importer reads its format into `ImportedGame`s (deals, takes in our move notation, the start player of
each round, the scores the source wrote down) and reports an `ImportProblem` for a game it cannot convert:
one that lacks something a replay needs or contradicts itself. `to_record` turns an ImportedGame into a
game record with every fact of the source as a checkable claim, so that `azul replay` judges the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..records.model import Claim, Comment, Deal, Header, Note, Ply, Record, Round
from ..records.writer import HEADER_ORDER


@dataclass(frozen=True)
class ImportedRound:
    factories: tuple[str, ...]          # as dealt, factory 1 first, "" for an empty factory
    start: int                          # the seat that takes first in this round
    takes: tuple[str, ...]              # in our move notation (3K4, CBF)
    scores: tuple[int, ...] | None = None   # the scores the source gives after this round, if any


@dataclass(frozen=True)
class ImportedGame:
    name: str                           # how messages name the game: "games.json.gz, game 3"
    players: int
    rounds: tuple[ImportedRound, ...]
    headers: dict[str, str] = field(default_factory=dict)   # Event, Source, Seed, Date, Seat0, X-...
    final: tuple[int, ...] | None = None     # final scores (bonuses included), only for a finished game
    winners: tuple[int, ...] | None = None   # the winning seats the source names, only for a finished game
    differs: tuple[tuple[str, str], ...] = ()   # (rule ID, how the source applies it differently)
    comments: tuple[str, ...] = ()
    variant: str = "colour"


class ImportProblem(ValueError):
    """A game that cannot be converted: which game, which field of the source, and why."""

    def __init__(self, game: str, field_name: str, message: str) -> None:
        super().__init__(f"{game}: {field_name}: {message}")
        self.game, self.field, self.message = game, field_name, message


def is_integer(value: Any) -> bool:
    """An integer of JSON: not a boolean (True == 1 in Python) and not a float (1.0 == 1)."""
    return type(value) is int


def integer(value: Any, game: str, where: str, low: int | None = None, high: int | None = None) -> int:
    """`value` if it is an integer (not a boolean) within the bounds given; an ImportProblem otherwise."""
    if not is_integer(value) or (low is not None and value < low) \
            or (high is not None and value > high):
        bounds = f" from {low} to {high}" if low is not None and high is not None else ""
        raise ImportProblem(game, where, f"expected an integer{bounds}, found {value!r}")
    return value


def _headers(game: ImportedGame) -> tuple[Header, ...]:
    values = dict(game.headers)
    values.update(Players=str(game.players), Variant=game.variant, StartPlayer=str(game.rounds[0].start))
    if game.winners is not None:
        values["Result"] = "-".join("1" if seat in game.winners else "0" for seat in range(game.players))
    else:
        values["Result"] = "*"
    order = sorted(values, key=lambda n: (HEADER_ORDER.index(n) if n in HEADER_ORDER else len(HEADER_ORDER), n))
    return tuple(Header(name, values[name]) for name in order)


def _round(number: int, round_: ImportedRound, closing: tuple[Note, ...]) -> Round:
    deal = Deal(round_.factories, (Claim("start", (round_.start,)),))
    plies = tuple(Ply(take) for take in round_.takes)
    if plies:
        plies = plies[:-1] + (Ply(plies[-1].move, notes=closing),)
    return Round(number, deal, plies)


def to_record(game: ImportedGame) -> Record:
    """The game record: headers naming the source, each round's deal with `[%start s]`, its takes, the
    source's scores after the round as `[%score ...]`, and for a finished game `[%final ...] [%winners ...]`
    after the last take. Known rule differences of the source come first as `[%differs RULE "how"]`."""
    if not game.rounds:
        raise ImportProblem(game.name, "rounds", "the game has no round to replay")
    notes: list[Note] = [Comment(text) for text in game.comments]
    notes += [Claim("differs", (rule, how)) for rule, how in game.differs]
    rounds = []
    for number, round_ in enumerate(game.rounds, 1):
        closing: tuple[Note, ...] = ()
        last = number == len(game.rounds)
        if last and game.final is not None:
            closing = (Claim("final", game.final),)
            if game.winners is not None:
                closing += (Claim("winners", game.winners),)
        elif round_.scores is not None:
            closing = (Claim("score", round_.scores),)
        rounds.append(_round(number, round_, closing))
    return Record(_headers(game), tuple(rounds), tuple(notes), source=game.name)
