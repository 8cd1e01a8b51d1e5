"""The rules that are numbers, each a family of readings: an engine may hold any other value of a bounded space
(the floor line's seven penalties, a bonus, the factories for a player count, the tiles a factory takes, the
tiles of a colour, the floor's spaces, the wall's layout, a lone tile's point, the score at the start), and the
diagnosis names the value its answers show (diagnosis/fit.py).

A catalogued reading of such a rule holds one value someone thought of (the first space free, the table read from
its second entry); an engine that slipped to another value came near it and was not explained. A family holds
every value of its space, so none needs a reading written for it, and none was chosen after meeting an engine:
the space is the rule's shape (a table of non-decreasing penalties, a count), bounded so that trying it is cheap.
Its readings are built when needed, never listed in the catalogue: they have no published kills, and the
diagnosis holds each to the scenarios the engine passed instead (a value those fail is not the engine's).

Written by someone who had seen the held-out misses (a floor table no reading held was the largest of them) and
the names of the blind mutants' files (not their diagnoses): the rules chosen are those whose titles are numbers
(spec/rules), each with the range its shape allows, but the choice to write them was not blind, so the held-out
figure of the first clean-room round fits none of them (benchmarks/eval_causes.py).

A reading's id is its family's stem and its value (`floor-penalties-0-1-2-2-2-3-3`); `reading(id)` builds it
again from the id, so a report's heading can be run again wherever it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from azul_reference.tiles import FACTORIES_BY_PLAYERS, FLOOR_PENALTIES, TILES_PER_COLOUR, TILES_PER_FACTORY

from .readings import Mutant, Patch, points, scored, value

FITTED = "fitted"  # Mutant.source of a family's reading


@dataclass(frozen=True)
class Family:
    stem: str  # the id's first part
    rule: str
    what: str  # what the value is, in words: "the floor line's penalties, space by space"
    rules: Any  # the rules' value
    space: Callable[[], Iterable[Any]]  # every value the family holds (the rules' own is left out)
    patches: Callable[[Any], tuple[Patch, ...]]
    # values that change every use of the rule, one way and the other: a case none of them changes is not about it
    probes: tuple[Any, ...]
    words: Callable[[Any], str] = str  # a value as the description shows it
    parse: Callable[[str], Any] = int  # a value as written in the id, back

    def reading(self, found: Any) -> Mutant:
        text = self.words(found)
        return Mutant(f"{self.stem}-{_id_text(found)}", self.rule,
                      f"{self.what}: {text} (the rules: {self.words(self.rules)}).", self.patches(found), FITTED)

    def values(self) -> list[Any]:
        return [found for found in self.space() if found != self.rules]

    def distance(self, found: Any) -> tuple[int, int]:
        """How far a value is from the rules' (the entries that differ, then by how much): of the values that
        explain the same cases, the nearest is named (an entry no case reached stays as the rules have it)."""
        mine, rules = (found, self.rules) if isinstance(found, tuple) else ((found,), (self.rules,))
        return (sum(a != b for a, b in zip(mine, rules)), sum(abs(a - b) for a, b in zip(mine, rules)))


def _id_text(found: Any) -> str:
    if isinstance(found, tuple):
        return "-".join(map(str, found))
    return str(found)


def _penalties() -> Iterable[tuple[int, ...]]:
    # non-decreasing from left to right, as the printed line is, each 0 to 4
    return combinations_with_replacement(range(5), len(FLOOR_PENALTIES))


def _floor_spaces(spaces: int) -> tuple[Patch, ...]:
    penalties = (FLOOR_PENALTIES + (FLOOR_PENALTIES[-1],) * spaces)[:spaces]
    return ("board.FLOOR_SPACES", value(spaces)), ("board.FLOOR_PENALTIES", value(penalties))


def _bonus(rows: int, columns: int, colours: int) -> tuple[Patch, ...]:
    return (("board.Board.end_bonus",
             value(lambda board: rows * board.complete_rows() + columns * board.complete_columns()
                   + colours * board.complete_colours())),)


FACTORIES = tuple(FACTORIES_BY_PLAYERS.values())  # for 2, 3 and 4 players


def _one_count_changed() -> Iterable[tuple[int, ...]]:
    for index in range(len(FACTORIES)):
        for count in range(1, 13):
            yield FACTORIES[:index] + (count,) + FACTORIES[index + 1:]


def _table(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("-"))


def _layout(found: tuple[int, int, int]) -> tuple[Patch, ...]:
    by_colour, by_row, shift = found
    return (("board.wall_column", value(lambda row, colour: (by_colour * colour + by_row * row + shift) % 5)),)


def _layouts() -> Iterable[tuple[int, int, int]]:
    # (a, b, k): colour c of row r at column (a c + b r + k) mod 5; with a and b not 0 (mod 5) every row and every
    # column holds each colour once, as the printed wall does: each such wall is a layout an author could draw
    return ((a, b, k) for a in range(1, 5) for b in range(1, 5) for k in range(5))


def _starting_score(score: int) -> tuple[Patch, ...]:
    def patch(original):
        def init(board) -> None:
            original(board)
            board.score = score
        return init
    return (("board.Board.__init__", patch),)


ROW, COLUMN, COLOUR = 2, 7, 10  # END-2, END-3, END-4

FAMILIES: tuple[Family, ...] = (
    Family("floor-penalties", "FLOOR-3", "The floor line's penalties, space by space, are", FLOOR_PENALTIES,
           _penalties, lambda found: (("board.FLOOR_PENALTIES", value(found)),),
           (tuple(p + 1 for p in FLOOR_PENALTIES), (0,) * len(FLOOR_PENALTIES)),
           words=lambda found: " ".join(map(str, found)), parse=_table),
    Family("floor-spaces", "FLOOR-1", "The floor line's spaces number", len(FLOOR_PENALTIES),
           lambda: range(1, 13), _floor_spaces, (len(FLOOR_PENALTIES) - 1, len(FLOOR_PENALTIES) + 1)),
    Family("end-row-bonus", "END-2", "A complete horizontal row earns", ROW, lambda: range(0, 16),
           lambda found: _bonus(found, COLUMN, COLOUR), (ROW - 1, ROW + 1)),
    Family("end-column-bonus", "END-3", "A complete vertical column earns", COLUMN, lambda: range(0, 16),
           lambda found: _bonus(ROW, found, COLOUR), (COLUMN - 1, COLUMN + 1)),
    Family("end-colour-bonus", "END-4", "Five tiles of one colour on the wall earn", COLOUR, lambda: range(0, 16),
           lambda found: _bonus(ROW, COLUMN, found), (COLOUR - 1, COLOUR + 1)),
    Family("setup-factories", "SETUP-3", "The factory displays for 2, 3 and 4 players number", FACTORIES,
           _one_count_changed, lambda found: (("game.FACTORIES_BY_PLAYERS", value(dict(zip(FACTORIES_BY_PLAYERS,
                                                                                          found)))),),
           (tuple(count + 1 for count in FACTORIES), tuple(count - 1 for count in FACTORIES)),
           words=lambda found: ", ".join(map(str, found)), parse=_table),
    Family("deal-tiles-a-factory", "DEAL-1", "Each factory display is filled with tiles numbering", TILES_PER_FACTORY,
           lambda: range(1, 9), lambda found: (("game.TILES_PER_FACTORY", value(found)),),
           (TILES_PER_FACTORY - 1, TILES_PER_FACTORY + 1)),
    Family("setup-tiles-a-colour", "SETUP-4", "The bag starts with tiles of each colour numbering", TILES_PER_COLOUR,
           lambda: range(TILES_PER_COLOUR - 10, TILES_PER_COLOUR + 11),
           lambda found: (("game.TILES_PER_COLOUR", value(found)),), (TILES_PER_COLOUR - 1, TILES_PER_COLOUR + 1)),
    Family("wall-layout", "WALL-1", "The coloured wall's layout puts colour c of row r at column (a c + b r + k) "
           "mod 5, with a, b and k", (1, 1, 0), _layouts, _layout, ((1, 1, 1), (1, 1, 4)),
           words=lambda found: " ".join(map(str, found)), parse=_table),
    Family("score-lone-tile-scores", "SCORE-1", "A tile placed with no neighbour scores", 1, lambda: range(0, 7),
           lambda found: (("board.Board.placement_points", points(lambda a, d: scored(a, d, lone=found))),), (0, 2)),
    Family("setup-scores-start-at", "SETUP-2", "Every score starts at", 0, lambda: range(-5, 11), _starting_score,
           (-1, 1)),
)

BY_STEM = {family.stem: family for family in FAMILIES}


def reading(mutant_id: str) -> Mutant | None:
    """A family's reading, built again from its id; None for an id no family's reading has."""
    for family in FAMILIES:
        prefix = family.stem + "-"
        if mutant_id.startswith(prefix):
            try:
                found = family.parse(mutant_id[len(prefix):])
            except ValueError:
                return None
            if found in family.values():
                return family.reading(found)
    return None
