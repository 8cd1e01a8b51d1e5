"""Moves in the compact notation (docs/reference/notation.md), as small frozen values that parse and print round-trip.

    Take       `3K4`: the black tiles of factory 3 to pattern line 4;  `CBF`: the centre's blue tiles to the floor
    Placement  `2@4`: (grey wall) the tile of completed pattern line 2 goes to wall column 4

Every possible move exists once, built at import, so the engine hands out shared instances instead of
building new objects on its hot path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import NotationError
from .tiles import COLOURS

CENTRE = 0  # Take.source for the centre; factories are numbered 1-9 as in the notation
FLOOR = 0  # Take.line for the floor line; pattern lines are numbered 1-5


@dataclass(frozen=True, slots=True)
class Take:
    """Take every tile of `colour` (0-4, B Y R K W) from `source` (factory 1-9, or 0 the centre) to `line`."""

    source: int
    colour: int
    line: int
    text: str = field(init=False, repr=False, compare=False)  # the move in the notation, `3K4`

    def __post_init__(self) -> None:
        source = "C" if self.source == CENTRE else str(self.source)
        line = "F" if self.line == FLOOR else str(self.line)
        object.__setattr__(self, "text", f"{source}{COLOURS[self.colour]}{line}")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Take.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Take":
        move = _TAKES.get(text) if isinstance(text, str) else None
        if move is None:
            raise NotationError(f"{text!r} is not a take: expected <source><colour><line> such as '3K4' or 'CBF' "
                                "(source 1-9 or C, colour one of B Y R K W, line 1-5 or F)")
        return move


@dataclass(frozen=True, slots=True)
class Placement:
    """Grey wall: the tile of completed pattern `line` (1-5) goes to wall `column` (1-5)."""

    line: int
    column: int
    text: str = field(init=False, repr=False, compare=False)  # the move in the notation, `2@4`

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.line}@{self.column}")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Placement.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Placement":
        move = _PLACEMENTS.get(text) if isinstance(text, str) else None
        if move is None:
            raise NotationError(f"{text!r} is not a placement: expected <line>@<column> such as '2@4' (both 1-5)")
        return move


Move = Take | Placement


def parse_move(text: str) -> Move:
    """Parse either kind of move."""
    if isinstance(text, str) and "@" in text:
        return Placement.parse(text)
    return Take.parse(text)


# TAKES[source][colour][line], PLACEMENTS[line][column]: the shared instances.
TAKES = [[[Take(s, c, line) for line in range(6)] for c in range(5)] for s in range(10)]
PLACEMENTS = [[Placement(line, col) if line and col else None for col in range(6)] for line in range(6)]
# TAKES_TO[source][colour][lines]: the takes of `colour` from `source` to every pattern line in the bit set
# `lines` (bit l - 1 for line l), in line order, then to the floor (OFFER-11); legal-move lists are built from these.
def takes_to(by_line: list[Take]) -> list[tuple[Take, ...]]:
    """TAKES_TO of one source and colour, from its takes by line (`by_line[line]`, FLOOR included)."""
    return [tuple(by_line[line] for line in range(1, 6) if lines >> (line - 1) & 1) + (by_line[FLOOR],)
            for lines in range(32)]


TAKES_TO = [[takes_to(by_line) for by_line in by_colour] for by_colour in TAKES]
# TAKES_FROM[factories]: TAKES_TO of factory 1, 2... up to `factories`, then of the centre: the order of legal lists.
TAKES_FROM = tuple(TAKES_TO[1:factories + 1] + [TAKES_TO[CENTRE]] for factories in range(10))
TAKE_OF_TEXT = {str(t): t for by_colour in TAKES for by_line in by_colour for t in by_line}  # `3K4` -> its Take
_TAKES = TAKE_OF_TEXT
_PLACEMENTS = {str(p): p for row in PLACEMENTS for p in row if p is not None}
