"""One seat's scoring in one tiling, itemized rule by rule: each tile with its runs, the floor, the clamp and the
bonuses. Read from canonical states (`azul-state/1`) alone, so that both the replay's explanation of a false claim
(records/explain.py) and the site's "try it" page (run in the browser, where only this module, the notation and
the reference engine are loaded) say the same thing in the same words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .notation import COLOURS, FLOOR_PENALTIES, FLOOR_SPACES

__all__ = ["Account", "accounts", "after_take", "runs"]


@dataclass
class Account:
    """One seat's scoring in one tiling: each tile with its runs, the floor, the clamp, the bonuses."""

    before: int
    tiles: list[tuple[int, int, str, int, int]]    # (row, column, colour, across, down) in placement order
    floor: str                                      # the floor line when the penalties are counted
    wall: list[str]                                 # the wall after the tiling
    over: bool

    @staticmethod
    def points(across: int, down: int) -> int:
        if across == 1 and down == 1:
            return 1
        return (across if across > 1 else 0) + (down if down > 1 else 0)

    def tile_points(self) -> int:
        return sum(self.points(a, d) for _, _, _, a, d in self.tiles)

    def penalty(self) -> int:
        return sum(FLOOR_PENALTIES[:min(len(self.floor), FLOOR_SPACES)])

    def bonuses(self) -> tuple[int, int, int]:
        if not self.over:
            return 0, 0, 0
        rows = sum(1 for row in self.wall if "." not in row)
        columns = sum(1 for c in range(5) if all(row[c] != "." for row in self.wall))
        colours = sum(1 for colour in COLOURS if all(colour in row for row in self.wall))
        return 2 * rows, 7 * columns, 10 * colours

    def total(self) -> int:
        return max(0, self.before + self.tile_points() - self.penalty()) + sum(self.bonuses())

    def lines(self, seat: int) -> list[str]:
        out = [f"seat {seat}: {self.before} before the tiling"]
        for row, column, colour, across, down in self.tiles:
            rule = "SCORE-1" if across == down == 1 else "SCORE-2"
            out.append(f"  {colour} to wall row {row + 1}, column {column + 1}: +{self.points(across, down)} "
                       f"({rule}: {across} across, {down} down, as the wall stands then: SCORE-3)")
        if self.floor:
            out.append(f"  floor {self.floor}: -{self.penalty()} (FLOOR-3" + (", FLOOR-4" if "M" in self.floor
                                                                               else "") + ")")
        raw = self.before + self.tile_points() - self.penalty()
        if raw < 0:
            out.append(f"  {raw} becomes 0 (SCORE-5)")
        rows, columns, colours = self.bonuses()
        for value, rule, what in ((rows, "END-2", "rows"), (columns, "END-3", "columns"),
                                  (colours, "END-4", "colours")):
            if value:
                out.append(f"  complete {what}: +{value} ({rule})")
        out.append(f"  = {self.total()}")
        return out


def runs(wall: Sequence[str], row: int, column: int) -> tuple[int, int]:
    def run(cells: Sequence[str], at: int) -> int:
        low = high = at
        while low > 0 and cells[low - 1] != ".":
            low -= 1
        while high < 4 and cells[high + 1] != ".":
            high += 1
        return high - low + 1

    return run(wall[row], column), run([r[column] for r in wall], row)


def after_take(state: dict[str, Any], move: str) -> list[dict[str, Any]]:
    """The boards once the take `move` is made in `state` (the offer's last take, before the tiling)."""
    boards = [dict(b, lines=list(b["lines"])) for b in state["boards"]]
    board = boards[state["turn"]]
    source, colour, line = move[0], move[1], move[2]
    pool = state["centre"] if source == "C" else state["factories"][int(source) - 1]
    count = pool.count(colour)
    floor = board["floor"]
    if source == "C" and state.get("marker") == "centre" and len(floor) < FLOOR_SPACES:
        floor += "M"
    if line != "F":
        row = int(line) - 1
        fits = min(count, row + 1 - len(board["lines"][row]))
        board["lines"][row] += colour * fits
        count -= fits
    board["floor"] = (floor + colour * count)[:FLOOR_SPACES]
    return boards


def accounts(start_state: dict[str, Any], last_take: str, after: dict[str, Any]) -> list[Account] | None:
    """Each seat's account of the tiling that the take `last_take` (the offer's last) started in `start_state`
    and that led to `after`; None unless every account adds up to the score our engine gave."""
    boards = after_take(start_state, last_take)
    found = []
    for seat, (board, final) in enumerate(zip(boards, after["boards"])):
        wall = list(board["wall"])
        tiles = []
        floor = board["floor"]
        for row in range(5):
            line = board["lines"][row]
            if len(line) != row + 1:
                continue
            new = [c for c in range(5) if wall[row][c] == "." and final["wall"][row][c] != "."]
            if not new:
                floor = (floor + line)[:FLOOR_SPACES]  # GREY-3: the line fits nowhere and goes to the floor
                continue
            column = new[0]
            wall[row] = wall[row][:column] + line[0] + wall[row][column + 1:]
            tiles.append((row, column, line[0], *runs(wall, row, column)))
        account = Account(board["score"], tiles, floor, list(final["wall"]), after["phase"] == "over")
        if account.total() != final["score"]:
            return None
        found.append(account)
    return found
