"""Targeted properties: random games steered into the rare branches that plain random play seldom reaches.

Random play almost never has a round in which nobody takes from the centre, a player whose floor line is full
when the marker is taken, a tie on points at the end, or a grey-wall line whose colour fits no free column. Each
`Steer` below keeps the randomness of a game plan (hypothesis still generates and shrinks the plans) but
arranges our drawable deals and narrows the moves the walk chooses from, so that every game heads for its
branch; it counts the games that reach it (`reached`, shown in the property's result) and ends a game once the
branch has been reached and judged, so that the properties stay cheap. The differential check riding along
judges the engine there against the reference, step by step.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..engines.base import CanonicalState
from ..notation import COLOURS, FLOOR_SPACES
from .play import Watcher

ROUND_CAP = 12  # a steered game that has not reached its branch by then stops (a limit, never a verdict)


class Steer(Watcher):
    """Arranges deals and narrows moves towards one branch; counts the games that reach it."""

    branch = ""  # what is reached, in words

    def __init__(self) -> None:
        self.reached = 0  # games that reached the branch
        self.games = 0
        self._hit: int | None = None  # the round in which this game reached it

    @property
    def finished(self) -> bool:  # judged: the round that reached the branch and the next round's start
        return self._hit is not None and self._round > self._hit

    def on_start(self, engine, state) -> None:
        self.games += 1
        self._hit, self._round = None, state["round"]

    def hit(self, state: CanonicalState) -> None:
        if self._hit is None:
            self._hit = state["round"]
            self.reached += 1

    def on_deal(self, engine, before, after, given) -> None:
        self._round = after["round"]
        if self._round > ROUND_CAP:
            self._hit = self._hit if self._hit is not None else -1  # give up on this game: stop it

    def narrow(self, state: CanonicalState, moves: list[str]) -> list[str]:
        preferred = self.prefer(state, moves)
        return preferred or moves

    def prefer(self, state: CanonicalState, moves: list[str]) -> list[str]:
        return moves


def _bag(state: CanonicalState) -> Counter:
    return Counter(state["bag"])


def _monochrome(state: CanonicalState, factories: list[str], keep: int = 0) -> list[str]:
    """The same deal's first tiles decide each factory's colour; four of it, while the bag alone suffices (a
    deal the bag can give: drawable). The last `keep` factories stay as drawn. Otherwise the drawn deal."""
    bag = _bag(state)
    if sum(bag.values()) < 4 * len(factories):
        return factories
    kept = factories[len(factories) - keep:] if keep else []
    bag.subtract(Counter("".join(kept)))
    arranged = []
    for drawn in factories[:len(factories) - len(kept)]:
        colour = drawn[0] if drawn and bag[drawn[0]] >= 4 else max(COLOURS, key=lambda c: bag[c])
        if bag[colour] < 4:
            return factories
        bag[colour] -= 4
        arranged.append(colour * 4)
    return arranged + kept


class NoCentreTake(Steer):
    """Single-colour factories and factory takes only: the round ends with the marker still in the centre
    (ROUND-3: the same start player again)."""

    branch = "a round without a take from the centre"

    def arrange(self, state, factories):
        return _monochrome(state, factories) if state["round"] % 2 == 1 else factories

    def prefer(self, state, moves):
        return [m for m in moves if not m.startswith("C")]

    def on_move(self, engine, before, move, after) -> None:
        if before["phase"] == "offer" and after["phase"] != "offer" and before["marker"] == "centre" \
                and not move.startswith("C"):
            self.hit(before)


class FullFloor(Steer):
    """Factory takes dumped on the floor until it is full, then a take from the centre (FLOOR-5: the marker
    finds no space). Single-colour factories fill floors fast; the last factory, as drawn, feeds the centre."""

    branch = "the marker taken by a player whose floor line is full"

    def arrange(self, state, factories):
        return _monochrome(state, factories, keep=2)

    def prefer(self, state, moves):
        if state["phase"] != "offer" or state["marker"] != "centre":
            return moves
        floor = state["boards"][state["turn"]]["floor"]
        if len(floor) >= FLOOR_SPACES:
            return [m for m in moves if m.startswith("C")]
        dumps = [m for m in moves if m.endswith("F") and not m.startswith("C")]
        most = max((_count(state, m) for m in dumps), default=0)
        return [m for m in dumps if _count(state, m) == most]

    def on_move(self, engine, before, move, after) -> None:
        if move.startswith("C") and before["marker"] == "centre" \
                and len(before["boards"][before["turn"]]["floor"]) >= FLOOR_SPACES:
            self.hit(before)


def _count(state: CanonicalState, move: str) -> int:
    source = state["centre"] if move[0] == "C" else state["factories"][int(move[0]) - 1]
    return source.count(move[1])


class BagRunsOut(Steer):
    """Everything to the floor line: the tiles go round through the lid, and with 3 or 4 players the bag runs
    out in the middle of the third or fourth deal (DEAL-2: the lid poured in, the deal goes on)."""

    branch = "a bag that runs out in the middle of a deal"

    def prefer(self, state, moves):
        return [m for m in moves if m.endswith("F")]

    def on_deal(self, engine, before, after, given) -> None:
        super().on_deal(engine, before, after, given)
        needed = 4 * len(before["factories"])
        if 0 < len(before["bag"]) < needed and before["lid"]:
            self.hit(after)


class EndTies(Steer):
    """Every player builds wall row 1 in the same colour order (B Y R K W) from line 1 and sends everything else
    to the floor: the scores stay clamped at 0 and the game ends with the players level (END-6, END-7)."""

    branch = "a tie on points at the end"

    def prefer(self, state, moves):
        board = state["boards"][state["turn"]]
        row = board["wall"][0]
        wanted = next((colour for colour in COLOURS if colour not in row), None)
        if not board["lines"][0] and wanted:
            builds = [m for m in moves if m[1] == wanted and m[2] == "1"]
            if builds:
                return builds
        return [m for m in moves if m.endswith("F")]

    @property
    def finished(self) -> bool:
        return self._hit == -1

    def on_end(self, engine, state) -> None:
        scores = [board["score"] for board in state["boards"]]
        if scores.count(max(scores)) > 1:
            self.hit(state)


class GreyUnfit(Steer):
    """On the grey wall, takes to a line whose colour every free column of its row already holds: when the
    line is complete its tiles fit nowhere (GREY-3)."""

    branch = "a complete grey-wall line whose colour fits no free column"

    def prefer(self, state, moves):
        if state["phase"] != "offer":
            return _blocking(state, moves)
        board = state["boards"][state["turn"]]
        return [m for m in moves if m[2] != "F" and _unfit(board, int(m[2]) - 1, m[1])]

    def on_move(self, engine, before, move, after) -> None:
        if before["phase"] == "offer" and after["phase"] != "offer":
            for board in before["boards"]:
                if any(_full(board, line) and _unfit(board, line, board["lines"][line][0]) for line in range(5)):
                    self.hit(before)


def _full(board: dict[str, Any], line: int) -> bool:
    return len(board["lines"][line]) == line + 1


def _unfit(board: dict[str, Any], line: int, colour: str) -> bool:
    """Every free column of wall row `line` already holds `colour` (GREY-2 then leaves it no column)."""
    wall = board["wall"]
    free = [c for c in range(5) if wall[line][c] == "."]
    return bool(free) and all(any(row[c] == colour for row in wall) for c in free)


def _blocking(state: CanonicalState, moves: list[str]) -> list[str]:
    """Placements: rows 1 and 2 from the left, rows 3 to 5 from the right, so that the last free columns of the
    upper rows already hold the lower rows' colours."""
    placements = sorted(m for m in moves if "@" in m)
    if not placements:
        return []
    return placements[:1] if placements[0][0] in "12" else placements[-1:]
