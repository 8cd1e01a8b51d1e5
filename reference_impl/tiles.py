"""Board facts: the colours, the tile supply, the coloured wall's layout and the floor line's penalties.

The rulebook text leaves the last two to the printed board; see rules WALL-1 and FLOOR-3.
"""

from __future__ import annotations

from operator import mul

COLOURS = "BYRKW"  # blue, yellow, red, black, white: the order of every multiset string (docs/reference/state.md)
MARKER = 5  # the first-player marker as it stands in a floor line; never a tile
MARKER_LETTER = "M"
LETTERS = COLOURS + MARKER_LETTER  # LETTERS[tile] for a tile or the marker on a floor line
COLOUR_INDEX = {letter: index for index, letter in enumerate(COLOURS)}

TILES_PER_COLOUR = 20  # SETUP-4: 100 tiles, 20 of each colour
TILES_PER_FACTORY = 4  # DEAL-1
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}  # SETUP-3
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)  # FLOOR-3: points lost per occupied floor space, left to right
FLOOR_SPACES = len(FLOOR_PENALTIES)  # FLOOR-1
WALL_SIZE = 5


def wall_column(row: int, colour: int) -> int:
    """WALL-1: on the coloured wall, row r holds colour c at column (c + r) mod 5 (rows and columns from 0)."""
    return (colour + row) % WALL_SIZE


def wall_colour(row: int, column: int) -> int:
    """WALL-1: the colour printed at a cell of the coloured wall (the inverse of wall_column)."""
    return (column - row) % WALL_SIZE


def counts_to_text(counts: list[int] | tuple[int, ...]) -> str:
    """A multiset of tiles as a canonical string: colour letters in B Y R K W order."""
    return "".join(map(mul, COLOURS, counts))


def text_to_counts(text: str) -> list[int]:
    """The inverse of counts_to_text; any order is accepted. Raises KeyError on a letter that is no colour."""
    counts = [0] * 5
    for letter in text:
        counts[COLOUR_INDEX[letter]] += 1
    return counts
