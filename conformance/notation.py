"""The published notation's constants, on the suite side: one home for what the contracts fix.

azul-state/1, protocol v1, the move notation, the scenario language and game records all write tiles as the
letters B Y R K W (M the first-player marker) in that order, and rest on the same counts. Every module of the
suite reads them from here. The reference engine keeps its own copies, because it depends on nothing of ours
(and the third-party adapters import nothing of ours); tests/test_notation.py holds those equal to these.
"""

from __future__ import annotations

COLOURS = "BYRKW"  # blue, yellow, red, black, white: the order of every multiset string
MARKER = "M"  # the first-player marker, in the centre or on a floor line; never a tile
COLOUR_NAMES = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white", MARKER: "first-player marker"}
TILES_PER_COLOUR = 20  # SETUP-4
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}  # SETUP-3
PLAYER_COUNTS = tuple(FACTORIES_BY_PLAYERS)
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)  # FLOOR-3: points lost per occupied floor space, left to right
FLOOR_SPACES = len(FLOOR_PENALTIES)  # FLOOR-1
VARIANTS = ("colour", "grey")
DESTINATIONS = "12345F"  # a take's destination: pattern line 1-5 or the floor
ERROR_CODES = ("illegal_move", "bad_request", "unsupported", "internal")


def wall_colour(row: int, column: int) -> str:
    """The colour printed on the coloured wall (WALL-1), 0-based row and column: each row shifts by one."""
    return COLOURS[(column - row) % 5]


def canonical(tiles: str) -> str:
    """A multiset of tiles in the canonical B Y R K W order (anything else, the marker included, dropped)."""
    return "".join(colour * tiles.count(colour) for colour in COLOURS)
