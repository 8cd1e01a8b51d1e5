"""The rule that decides a field of the state at a step: the one rule a difference there is filed under.

A difference from the rules shows at a step (a take, the end of a round, a grey-wall tiling step, the end of the
game, a deal) in a field of the canonical state. spec/differences.yaml names, for each step and field, the rule
that field answers to; where several rules can decide the field, what the rules give and what the engine gave
tell which one does (`deciding_rule`): winners that take in a seat without the top score break END-5, winners
picked wrongly among the seats tied on it END-6, a tie on rows that stands and is not shared END-7; a floor
line that differs by the marker alone after the first take from the centre is the marker's rule (OFFER-5), and
any difference of that take onto a full floor line our ruling FLOOR-5; a round's score higher by just the end
bonuses is a bonus given early, a game's final score lower by just one kind of bonus is that bonus missed; a
game that ends with no complete row ends for want of tiles (our ruling END-8), not by END-1.

Everything that files a difference uses it: the differential properties and the fuzz (differential.py), the
fuzz case's id, the scenarios' failures and the headings nothing explains (harness/findings.py), so that one bug
carries one rule ID whichever tool found it.
"""

from __future__ import annotations

from typing import Any

from ..notation import COLOURS, FLOOR_SPACES, MARKER
from .canonical import CanonicalState
from .declared import difference_rules

STEPS = ("take", "round", "tiling", "end", "deal")  # the kinds of step spec/differences.yaml files differences by


def step_kind(before: CanonicalState, after: CanonicalState, dealt: bool = False) -> str:
    """What kind of step led from `before` to `after` (the rules' positions): a deal, a take within the offer, a
    step of a grey-wall tiling, the end of a round, the end of the game."""
    if dealt:
        return "deal"
    if after["phase"] == "over":
        return "end"
    if before["phase"] == "offer" and after["phase"] == "offer":
        return "take"
    if before["phase"] == "tiling" or after["phase"] == "tiling":
        return "tiling"
    return "round"


def field_rule(context: str, path: str) -> str | None:
    """The rule spec/differences.yaml files a difference at `path` under after a step of kind `context` (None:
    the field is not listed for that step)."""
    parts = path.strip("/").split("/")
    top, leaf = parts[0], parts[-1]
    table = difference_rules()[context]
    return table.get(f"boards.{leaf}") if top == "boards" else table.get(top)


def deciding_rule(context: str, path: str, before: CanonicalState, expected: CanonicalState, got: Any,
                  step: str = "") -> str:
    """The rule that decides the field at `path` after a step of kind `context` from `before` (`step`: the move
    played, "deal" or ""), judged by what the rules give there (`expected`, the whole position) and what the
    engine gave (`got`, its value at `path`)."""
    rule = field_rule(context, path) or "SETUP-4"  # a field no step lists: the game's make-up
    parts = path.strip("/").split("/")
    if expected["phase"] == "deal" and parts[0] == "boards" and parts[-1] == "score" and isinstance(got, int):
        board = expected["boards"][int(parts[1])]
        rule = _bonus(board["wall"], got - board["score"]) or rule  # END-1: the bonuses come at the end only
    if context == "end" and parts[0] == "boards" and parts[-1] == "score" and isinstance(got, int):
        board = expected["boards"][int(parts[1])]
        rule = _bonus(board["wall"], board["score"] - got, single=True) or rule
    if path == "/winners":
        rule = _winners_rule(expected, got) if context == "end" else rule
    if path == "/phase" and context == "end" and not any("." not in row for board in expected["boards"]
                                                         for row in board["wall"]):
        rule = "END-8"  # the game ended with no complete row: for want of tiles to deal, our ruling
    # Where the rule the field belongs to is not the one at stake, but a ruling of ours is (an engine that reads
    # them otherwise must not be reported as breaking the rulebooks), or the marker's own rule is:
    if rule == "ROUND-2" and before["marker"] == "centre" and not step.startswith("C"):
        rule = "ROUND-3"  # nobody took from the centre this round: who starts next is our ruling
    elif rule in ("OFFER-5", "OFFER-10", "FLOOR-2") and context == "take" and step.startswith("C") \
            and before["marker"] == "centre":
        if len(before["boards"][before["turn"]]["floor"]) >= FLOOR_SPACES:
            rule = "FLOOR-5"  # the marker taken onto a full floor line
        elif parts[0] == "boards" and parts[-1] == "floor" and _by_the_marker(_at(expected, parts), got):
            rule = "OFFER-5"  # the floor differs by the marker alone: where the first centre take puts it
    return rule


def _winners_rule(expected: CanonicalState, got: Any) -> str:
    """Which of END-5 to END-7 the engine's winners break: END-5 where it names a seat without the top score (or
    none); among the seats tied on it, END-6 where the most complete rows pick other winners than the rules',
    END-7 where a tie on rows that stands is not shared."""
    scores = [board["score"] for board in expected["boards"]]
    top = {seat for seat, score in enumerate(scores) if score == max(scores)}
    if not isinstance(got, list) or not got or not set(got) <= top:
        return "END-5"
    rows = {seat: sum("." not in row for row in expected["boards"][seat]["wall"]) for seat in top}
    most = {seat for seat in top if rows[seat] == max(rows.values())}
    return "END-7" if len(most) > 1 and set(got) < most else "END-6" if len(top) > 1 else "END-5"


def _bonus(wall: list[str], extra: int, single: bool = False) -> str | None:
    """The end-bonus rule (END-2, END-3, END-4) whose points make `extra`: all the wall's bonuses at once (a
    round's score with them too early), or, `single`, one kind of them (a final score without that bonus)."""
    rows = sum("." not in row for row in wall)
    columns = sum(all(row[c] != "." for row in wall) for c in range(5))
    colours = sum("".join(wall).count(colour) == 5 for colour in COLOURS)
    if extra <= 0:
        return None
    if single:
        found = [rule for rule, points in (("END-2", 2 * rows), ("END-3", 7 * columns), ("END-4", 10 * colours))
                 if points == extra]
        return found[0] if len(found) == 1 else None
    if extra != 2 * rows + 7 * columns + 10 * colours:
        return None
    return "END-3" if columns else "END-4" if colours else "END-2"


def _by_the_marker(expected: Any, got: Any) -> bool:
    """Two floor lines that differ by the marker alone (one holds it, the other not, the tiles the same)."""
    if not isinstance(expected, str) or not isinstance(got, str):
        return False
    return (MARKER in expected) != (MARKER in got) and expected.replace(MARKER, "") == got.replace(MARKER, "")


def _at(state: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(state, dict):
            state = state.get(part)
        elif isinstance(state, list) and part.isdigit() and int(part) < len(state):
            state = state[int(part)]
        else:
            return None
    return state
