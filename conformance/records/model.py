"""What a game record is made of: frozen values whose `str` is their record text.

A Record holds headers, notes before the first round, and rounds; a Round holds its deal, the takes of the
offer phase and (grey wall) the tiling placements; every step carries the notes written after it. A note is
a free comment or a checkable Claim. Positions (`pos`) say where a value was read; they take no part in
equality, so a record read back from its own text equals the record written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..located import Span

ANNOTATIONS = ("!!", "??", "!?", "?!", "!", "?")

# Claim kind -> (argument form, what it asserts). Forms: "scores" one integer per seat, "seats" one or more
# seats, "seat" one seat, "seat+text" a seat then a quoted string, "text" a quoted string, "rule+text" a rule
# ID of the specification then a quoted string.
CLAIM_FORMS = {
    "score": ("scores", "the score of every seat, in seat order"),
    "final": ("scores", "the final scores, bonuses included (the game must be over)"),
    "winners": ("seats", "the winning seats (the game must be over)"),
    "wall": ("seat+text", 'a seat\'s wall, rows top to bottom: "B....|.....|.....|.....|....."'),
    "lines": ("seat+text", 'a seat\'s pattern lines 1 to 5, `-` for an empty one: "-|R|-|KKK|-"'),
    "floor": ("seat+text", 'a seat\'s floor line, left to right, M the marker, `-` if empty: "MRR"'),
    "centre": ("text", 'the tiles in the centre (not the marker), `-` if none: "YYW"'),
    "start": ("seat", "the start player of the round (the seat that takes first)"),
    "differs": ("rule+text", "a rule the record's source applies differently, and how (before the first round; "
                             "a disagreement that this rule decides is then reported as explained)"),
}
# Claims that declare rather than assert: not compared with a state, not counted as checked.
DECLARATIONS = ("differs",)

_NO_POS = field(default=None, compare=False, repr=False)


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Header:
    name: str
    value: str
    pos: Span | None = _NO_POS

    def __str__(self) -> str:
        return f"[{self.name} {quote(self.value)}]"


@dataclass(frozen=True)
class Comment:
    text: str
    pos: Span | None = _NO_POS

    def __str__(self) -> str:
        return "{" + self.text + "}"


@dataclass(frozen=True)
class Claim:
    """A checkable annotation such as `[%score 12 7]`; `args` are ints and strings as written."""

    kind: str
    args: tuple[int | str, ...]
    pos: Span | None = _NO_POS

    def __str__(self) -> str:
        parts = [f"%{self.kind}"] + [quote(a) if isinstance(a, str) else str(a) for a in self.args]
        return "[" + " ".join(parts) + "]"


Note = Comment | Claim


@dataclass(frozen=True)
class Ply:
    """One decision: a take (`3K4`) in the offer, or a placement (`2@4`) of the tiling with its `seat`."""

    move: str
    annotation: str = ""
    notes: tuple[Note, ...] = ()
    seat: int | None = None
    pos: Span | None = _NO_POS

    def __str__(self) -> str:
        return self.move + self.annotation


@dataclass(frozen=True)
class Deal:
    """The factories as dealt, factory 1 first; an empty factory is ""."""

    factories: tuple[str, ...]
    notes: tuple[Note, ...] = ()
    pos: Span | None = _NO_POS

    def __str__(self) -> str:
        return "deal " + " ".join(f or "-" for f in self.factories)


@dataclass(frozen=True)
class Round:
    number: int
    deal: Deal
    plies: tuple[Ply, ...] = ()
    placements: tuple[Ply, ...] = ()
    pos: Span | None = _NO_POS

    def steps(self) -> tuple[Deal | Ply, ...]:
        return (self.deal, *self.plies, *self.placements)


@dataclass(frozen=True)
class Record:
    headers: tuple[Header, ...]
    rounds: tuple[Round, ...] = ()
    notes: tuple[Note, ...] = ()
    source: str = field(default="<record>", compare=False, repr=False)

    def header(self, name: str, default: str | None = None) -> str | None:
        return next((h.value for h in self.headers if h.name == name), default)

    @property
    def players(self) -> int:
        return int(self.header("Players", "2"))

    @property
    def variant(self) -> str:
        return self.header("Variant", "colour")

    @property
    def start_player(self) -> int:
        return int(self.header("StartPlayer", "0"))

    def seat_name(self, seat: int) -> str:
        name = self.header(f"Seat{seat}")
        return f"seat {seat} ({name})" if name else f"seat {seat}"
