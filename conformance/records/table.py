"""The table of a canonical state for the terminal: factories, centre, and each board as a player sees it.

Every tile is shown by its letter (B Y R K W, M the marker), coloured when the terminal allows, so the text
reads the same without colour. Pattern lines are right-aligned with `·` for a free space; on the coloured
wall an empty space shows its colour's letter in lower case, on the grey wall a `.`.
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..notation import COLOURS, FLOOR_PENALTIES, FLOOR_SPACES, wall_colour

STYLE = {"B": "bold white on blue", "Y": "bold black on yellow", "R": "bold white on red",
         "K": "bold white on grey15", "W": "bold black on grey93", "M": "bold black on bright_yellow"}


def _tiles(text: str) -> Text:
    out = Text()
    for letter in text:
        out.append(letter, style=STYLE.get(letter, ""))
    return out


def _pattern_line(number: int, content: str) -> Text:
    out = Text(" " * (5 - number))
    out.append("·" * (number - len(content)), style="dim")
    return out + _tiles(content)


def _wall_row(row: int, cells: str, grey: bool) -> Text:
    out = Text()
    for column, cell in enumerate(cells):
        if cell in COLOURS:
            out.append_text(_tiles(cell))
        else:
            out.append("." if grey else wall_colour(row, column).lower(), style="dim")
    return out


def _board(state: dict[str, Any], seat: int, names: dict[int, str]) -> Panel:
    board = state["boards"][seat]
    grey = state.get("variant") == "grey"
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column()
    grid.add_column()
    for row in range(5):
        grid.add_row(_pattern_line(row + 1, board["lines"][row]), "│", _wall_row(row, board["wall"][row], grey))
    floor = board["floor"]
    penalty = sum(FLOOR_PENALTIES[:min(len(floor), FLOOR_SPACES)])
    floor_text = Text("floor ") + _tiles(floor) + Text("·" * (FLOOR_SPACES - len(floor)), style="dim")
    if penalty:
        floor_text.append(f"  -{penalty}", style="red")
    title = Text(f"seat {seat}" + (f" ({names[seat]})" if seat in names else ""))  # a Text: names are no markup
    marks = []
    if state.get("phase") == "over" and seat in (state.get("winners") or []):
        marks.append("winner")
    elif state.get("phase") in ("offer", "tiling") and state.get("turn") == seat:
        marks.append("to move")
    subtitle = f"score {board['score']}" + ("".join(f" · {m}" for m in marks))
    return Panel(Group(grid, floor_text), title=title, subtitle=subtitle, expand=True, width=26)


def _heading(state: dict[str, Any]) -> Text:
    phase = state.get("phase")
    text = f"round {state.get('round')} · {state.get('variant')} wall · phase {phase}"
    if phase == "over":
        text += " · winners: " + ", ".join(f"seat {s}" for s in state.get("winners") or [])
    else:
        text += f" · seat {state.get('turn')} to {'deal' if phase == 'deal' else 'move'}"
    return Text(text, style="bold")


def _supply(state: dict[str, Any]) -> Text:
    out = Text("factories ")
    for index, content in enumerate(state["factories"], 1):
        out.append(f"{index}:")
        out.append_text(_tiles(content) if content else Text("-", style="dim"))
        out.append(" ")
    out.append(" centre ")
    centre = ("M" if state.get("marker") == "centre" else "") + state.get("centre", "")
    out.append_text(_tiles(centre) if centre else Text("-", style="dim"))
    out.append(f"   bag {len(state.get('bag', ''))} · lid {len(state.get('lid', ''))}", style="dim")
    return out


def table(state: dict[str, Any], names: dict[int, str] | None = None) -> RenderableType:
    """The whole table as one rich renderable."""
    names = names or {}
    boards = [_board(state, seat, names) for seat in range(len(state["boards"]))]
    return Group(_heading(state), _supply(state), Columns(boards))

