"""Build azul-state/1 documents for tests, stating only what matters.

    >>> doc = position(factories=["BBRK", "", "", "", ""], boards=[board(lines={4: "KK"}), board()])
    >>> doc["bag"].count("B")   # the bag holds whatever the rest of the position does not: 20 per colour
    18

Defaults: two players, the coloured wall, the first round the walls allow (1 + the most tiles in a wall row),
phase "offer", seat 0 to act and starting, the marker in
the centre, empty factories, centre and lid, empty boards with score 0, no winners. The bag is filled so
that each colour totals 20 tiles (SETUP-4) unless a `bag` is given, in which case it is used as is (to build
documents with a wrong tile total on purpose).

Multisets (factories, centre, bag, lid) may be written in any order; they are put in B Y R K W order.
Boards take `lines` and `wall` either as full lists of 5 strings or as a dict {line or row number (1-5): text}.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from azul_reference import Game, IllegalMove, from_state, to_state

COLOURS = "BYRKW"
FACTORIES = {2: 5, 3: 7, 4: 9}


def canonical(tiles: str) -> str:
    """A multiset of tiles in B Y R K W order ('M' or other letters are kept at the end, unsorted)."""
    return "".join(sorted(tiles, key=lambda letter: COLOURS.find(letter) if letter in COLOURS else 9))


def board(score: int = 0, lines: list[str] | dict[int, str] | None = None,
          wall: list[str] | dict[int, str] | None = None, floor: str = "") -> dict[str, Any]:
    """One board; `lines={4: "KK"}` puts two black tiles on pattern line 4, `wall={1: "B...."}` fills wall row 1."""
    return {"score": score, "lines": _five(lines, ""), "wall": _five(wall, "....."), "floor": floor}


def _five(given: list[str] | dict[int, str] | None, empty: str) -> list[str]:
    if given is None:
        return [empty] * 5
    if isinstance(given, dict):
        rows = [empty] * 5
        for number, text in given.items():
            rows[number - 1] = text
        return rows
    return list(given)


def coloured_row(row: int, colours: str) -> str:
    """Wall row `row` (1-5) of the coloured wall holding `colours`, each on the space printed for it (WALL-1).

    Row 1 reads B Y R K W and each row below is shifted one space to the right: coloured_row(2, "B") == ".B...".
    """
    cells = ["."] * 5
    for letter in colours:
        cells[(COLOURS.index(letter) + row - 1) % 5] = letter
    return "".join(cells)


def count(doc: dict[str, Any], letter: str) -> int:
    """How many tiles of colour `letter` the document holds, wherever they are."""
    places = doc["factories"] + [doc["centre"], doc["bag"], doc["lid"]]
    for b in doc["boards"]:
        places += b["lines"] + b["wall"] + [b["floor"]]
    return sum(text.count(letter) for text in places)


def position(*, players: int = 2, variant: str = "colour", round: int | None = None, phase: str = "offer",
             turn: int = 0, start_player: int = 0, marker: str | int = "centre",
             factories: list[str] | None = None, centre: str = "", bag: str | None = None, lid: str = "",
             boards: list[dict[str, Any]] | None = None, winners: list[int] | None = None) -> dict[str, Any]:
    """An azul-state/1 document; see the module docstring for the defaults."""
    boards = copy.deepcopy(boards) if boards is not None else [board() for _ in range(players)]
    if round is None:  # the first round the walls allow: a wall row gains at most one tile per tiling
        round = 1 + max(5 - row.count(".") for b in boards for row in b["wall"])
    doc: dict[str, Any] = {
        "format": "azul-state/1", "variant": variant, "players": players, "round": round, "phase": phase,
        "turn": turn, "start_player": start_player, "marker": marker,
        "factories": [canonical(f) for f in (factories or [""] * FACTORIES.get(players, 5))],
        "centre": canonical(centre), "bag": "", "lid": canonical(lid),
        "boards": boards,
        "winners": winners,
    }
    if bag is not None:
        doc["bag"] = canonical(bag)
        return doc
    missing = {letter: 20 - count(doc, letter) for letter in COLOURS}
    over = {letter: -n for letter, n in missing.items() if n < 0}
    if over:
        raise ValueError(f"the position holds more than 20 tiles of a colour: {over} too many")
    doc["bag"] = "".join(letter * missing[letter] for letter in COLOURS)
    return doc


def game(**overrides: Any) -> Game:
    """The reference engine's Game in the position `position(**overrides)` describes."""
    return from_state(position(**overrides))


def refused(g: Game, move: str, rule: str) -> None:
    """The move is refused naming `rule`, and the game is exactly as before."""
    before = to_state(g)
    with pytest.raises(IllegalMove) as caught:
        g.play(move)
    assert caught.value.rule == rule, caught.value.message
    assert to_state(g) == before
