"""The move and tile encoding of ludometer's engine, and the reading of a game's rounds from its takes, shared
by its fixture and the Faïence dataset.

Facts from the engine's documentation (as the README beside its recorded games gives them): an action is
`source * 30 + colour * 6 + dest`, source 0-4 the factories 1-5 and 5 the centre, dest 0-4 pattern lines 1-5
and 5 the floor; colours 0-4 are blue, yellow, red, black and white (called teal there), the order and wall
layout of our notation. A factory or the centre is five counts, one per colour.
"""

from __future__ import annotations

from ..notation import COLOURS
from .game import ImportedRound, ImportProblem

ACTIONS = 6 * 30
CENTRE = 5
FLOOR = 5
PLAYERS = 2          # the engine plays two-player games only
FACTORIES = 5

# The rules in which ludometer's engine (ludometer/azul/engine.py, AzulState._end_round) is known to differ
# from ours; every imported record declares them so that a disagreement they decide is reported as explained.
RULE_DIFFERENCES = (
    ("ROUND-3", "when nobody took the marker, ludometer's next round is started by the seat that did not make "
                "the round's last take, not by the same start player"),
)


def decode(action: object) -> str:
    """The take in our notation (`3K4`, `CBF`); ValueError when `action` is no action id."""
    if type(action) is int and 0 <= action < ACTIONS:  # (not a boolean: True is no action)
        text = _TAKES[action]
        if text is not None:
            return text
    return _decode(action)


def _decode(action: object) -> str:
    if type(action) is not int or not 0 <= action < ACTIONS:
        raise ValueError(f"{action!r} is not an action id (an integer from 0 to {ACTIONS - 1})")
    source, rest = divmod(action, 30)
    colour, dest = divmod(rest, 6)
    if colour >= len(COLOURS):
        raise ValueError(f"{action} names colour {colour}; there are five (0-4)")
    return (("C" if source == CENTRE else str(source + 1)) + COLOURS[colour]
            + ("F" if dest == FLOOR else str(dest + 1)))


_TAKES = [None if action % 30 // 6 >= len(COLOURS) else _decode(action) for action in range(ACTIONS)]


def counts(value: object, what: str) -> tuple[int, ...]:
    """Five tile counts, one per colour; ValueError naming `what` otherwise."""
    if type(value) is list and len(value) == 5:
        for n in value:
            if type(n) is not int or not 0 <= n <= 20:  # (not a boolean, not a float)
                break
        else:
            return tuple(value)
    raise ValueError(f"{what} is five tile counts (0-20), one per colour, not {value!r}")


_TEXTS: dict[tuple[int, ...], str] = {}  # a factory's counts -> its text (a few hundred of them)


def factory_text(tiles: tuple[int, ...]) -> str:
    text = _TEXTS.get(tiles)
    if text is None:
        text = "".join(COLOURS[colour] * n for colour, n in enumerate(tiles))
        if len(_TEXTS) < 4096:
            _TEXTS[tiles] = text
    return text


class Offer:
    """The tiles on offer in one round, to tell where a flat list of takes passes to the next round.

    Only the bookkeeping every Azul engine shares (a take removes its colour from the source, a factory's
    other tiles go to the centre, the round ends when nothing is left); the rules themselves are judged later
    by replaying the record."""

    def __init__(self, factories: list[tuple[int, ...]]) -> None:
        self.sources = [list(f) for f in factories] + [[0] * 5]
        self.left = sum(map(sum, factories))  # tiles on offer

    @property
    def empty(self) -> bool:
        return not self.left

    def take(self, action: int) -> None:
        source, rest = divmod(action, 30)
        colour = rest // 6
        pool = self.sources[source]
        if not pool[colour]:
            where = "the centre" if source == CENTRE else f"factory {source + 1}"
            raise ValueError(f"{decode(action)} takes {COLOURS[colour]} from {where}, which holds none")
        self.left -= pool[colour]
        pool[colour] = 0
        if source != CENTRE:
            centre = self.sources[CENTRE]
            for other in range(5):
                centre[other] += pool[other]
                pool[other] = 0


def deal(factories: object, game: str, where: str) -> list[tuple[int, ...]]:
    """A round's five factories as tile counts; an ImportProblem at `where` when they are not."""
    if not isinstance(factories, list) or len(factories) != FACTORIES:
        raise ImportProblem(game, where, f"expected {FACTORIES} factories, found {factories!r}")
    try:
        tiles = [counts(factory, f"factory {i}") for i, factory in enumerate(factories, 1)]
    except ValueError as error:
        raise ImportProblem(game, where, str(error)) from None
    if any(sum(factory) > 4 for factory in tiles):
        raise ImportProblem(game, where, "a factory holds at most 4 tiles")
    return tiles


class Rounds:
    """A game's rounds as its takes are read: each take is checked against the tiles on offer and against the
    seat whose turn it is (turns alternate from the round's first mover), so that a flat list of takes falls
    into its rounds."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.done: list[ImportedRound] = []
        self.offer: Offer | None = None
        self.factories: tuple[str, ...] = ()
        self.takes: list[str] = []
        self.start = self.turn = -1

    def begin(self, tiles: list[tuple[int, ...]], start: int | None = None) -> None:
        """A new round dealt `tiles`; its first mover is `start`, or (None) the seat of its first take."""
        self.offer, self.factories, self.takes = Offer(tiles), tuple(map(factory_text, tiles)), []
        self.start = self.turn = -1 if start is None else start

    def take(self, seat: int, action: object, where: str, seat_field: str) -> None:
        """The take `action` by `seat` (`where` names the move in the source, `seat_field` its seat)."""
        if self.start < 0:
            self.start = self.turn = seat
        elif seat != self.turn:
            raise ImportProblem(self.game, seat_field, f"seat {seat} moves where turns alternating from the "
                                f"round's first mover (seat {self.start}) give seat {self.turn}")
        try:
            self.takes.append(decode(action))
            self.offer.take(action)
        except ValueError as error:
            raise ImportProblem(self.game, f"{where}.action", str(error)) from None
        self.turn = (self.turn + 1) % PLAYERS

    def close(self, scores: tuple[int, ...] | None = None) -> None:
        """The round ends; `scores` are the source's after it, if it gives them."""
        self.done.append(ImportedRound(self.factories, self.start, tuple(self.takes), scores))
