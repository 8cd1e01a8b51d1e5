"""The formatter: a canonical azul-state/1 dict written back in the scenario language.

It writes only what differs from the defaults, so its output is what a scenario writer would write, and
parse(format(state)) == state for every real position (the text reaches a fixed point after one pass).
"""

from __future__ import annotations

from typing import Any

from ..notation import COLOURS, MARKER, TILES_PER_COLOUR, canonical
from .position import first_round

SHORT = 12  # a multiset longer than this is written with counts (`18B 20Y`)


def format_tiles(tiles: str) -> str:
    """A multiset as written in the language: `BBRK`, `-` when empty, `18B 20Y ...` when long."""
    tiles = canonical(tiles)
    if not tiles:
        return "-"
    if len(tiles) <= SHORT:
        return tiles
    return " ".join(f"{tiles.count(c)}{c}" for c in COLOURS if c in tiles)


def format_floor(floor: str) -> str:
    return " ".join(floor) if floor else "-"


def format_cells(cells: str) -> str:
    return " ".join(cells)


def board_rows(board: dict[str, Any]) -> list[str]:
    """The five rows of a board as drawn: pattern lines right-aligned, `|`, the wall row."""
    rows = []
    for number, (tiles, wall) in enumerate(zip(board["lines"], board["wall"]), start=1):
        cells = "." * (number - len(tiles)) + tiles
        rows.append("  " * (5 - number) + format_cells(cells) + " | " + format_cells(wall))
    return rows


def _is_empty_drawing(board: dict[str, Any]) -> bool:
    return not any(board["lines"]) and all(set(row) <= {"."} for row in board["wall"])


def format_board(seat: int, board: dict[str, Any], always: bool = False) -> list[str]:
    """A `board N:` block; nothing for a board at its defaults unless `always`."""
    drawing = not _is_empty_drawing(board) or always
    header = f"board {seat}:"
    if board["score"] or always:
        header += f" score: {board['score']}"
    if not drawing:
        if board["floor"]:
            header += f"  floor: {format_floor(board['floor'])}"
        return [header] if header != f"board {seat}:" else []
    lines = [header] + ["  " + row for row in board_rows(board)]
    if board["floor"] or always:
        lines.append(f"  floor: {format_floor(board['floor'])}")
    return lines


def _pairs(items: list[tuple[str, Any, Any]]) -> str:
    return "  ".join(f"{name}: {value}" for name, value, default in items if value != default)


def format_position(state: dict[str, Any]) -> str:
    """The position text of a canonical state (defaults left out)."""
    lines = [
        _pairs([("players", state["players"], 2), ("variant", state["variant"], "colour")]),
        _pairs([("round", state["round"], first_round(state["boards"])), ("phase", state["phase"], "offer"),
                ("turn", state["turn"], state["start_player"]), ("start", state["start_player"], 0)]),
        _marker_line(state),
        f"winners: {', '.join(map(str, state['winners']))}" if state["winners"] is not None else "",
        *_factory_lines(state["factories"]),
        _centre_line(state),
        *_supply_lines(state),
    ]
    for seat, board in enumerate(state["boards"]):
        lines += format_board(seat, board)
    return "".join(line + "\n" for line in lines if line)


def _marker_shown_in_centre(state: dict[str, Any]) -> bool:
    return state["marker"] == "centre" and state["phase"] in ("offer", "tiling")


def _marker_line(state: dict[str, Any]) -> str:
    marker = state["marker"]
    holders = [seat for seat, board in enumerate(state["boards"]) if MARKER in board["floor"]]
    if marker == "centre" and not holders:
        return ""
    if marker != "centre" and holders == [marker]:
        return ""
    return f"marker: {marker}"


def _factory_lines(factories: list[str]) -> list[str]:
    entries = [f"{number}: {format_tiles(tiles)}" for number, tiles in enumerate(factories, start=1) if tiles]
    if not entries:
        return []
    if len(entries) <= 5:
        return ["factories: " + "  ".join(entries)]
    return ["factories:"] + ["  " + entry for entry in entries]


def _centre_line(state: dict[str, Any]) -> str:
    shown = (MARKER + " " if _marker_shown_in_centre(state) else "") + (canonical(state["centre"]))
    return f"centre: {shown.strip()}" if shown.strip() else ""


def _supply_lines(state: dict[str, Any]) -> list[str]:
    """Bag and lid: the bag is left out when it holds exactly the tiles not in play elsewhere."""
    elsewhere = "".join(state["factories"]) + state["centre"]
    for board in state["boards"]:
        elsewhere += "".join(board["lines"]) + "".join(board["wall"]) + board["floor"]
    bag, lid = canonical(state["bag"]), canonical(state["lid"])
    lid_line = f"lid: {format_tiles(lid)}" if lid else ""
    if not bag and lid and lid == _rest(elsewhere):  # the bag ran dry: say so, rather than imply it
        return ["bag: -", "lid: auto"]
    if bag == _rest(elsewhere + lid):
        return [lid_line]
    if lid and lid == _rest(elsewhere + bag):
        return [f"bag: {format_tiles(bag)}", "lid: auto"]
    return [f"bag: {format_tiles(bag)}", lid_line]


def _rest(used: str) -> str:
    counts = [TILES_PER_COLOUR - used.count(colour) for colour in COLOURS]
    if min(counts) < 0:
        return "?"  # more tiles than exist: never equal to a real bag
    return "".join(colour * count for colour, count in zip(COLOURS, counts))
