"""Evaluating Checks (compiled assertions) against a state and its legal moves; diffs for reports.

Shared by the runner and usable by anyone holding the JSON export's checks: the meaning of each kind is
written once, here (the kinds are listed in model.py).
"""

from __future__ import annotations

import difflib
from typing import Any

from ..notation import COLOURS, canonical
from .formatter import board_rows, format_floor
from .model import Assertion, Check

MISSING = object()


def pointer(state: Any, path: str) -> Any:
    """The value at a JSON pointer (`/boards/0/floor`), or MISSING."""
    value = state
    for part in path.strip("/").split("/") if path.strip("/") else []:
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, ValueError, TypeError):
            return MISSING
    return value


def matches(move: str, pattern: str) -> bool:
    """Whether a move fits a move pattern (`?` is any one character): `1Y5` fits `1Y?`."""
    return len(move) == len(pattern) and all(want in ("?", have) for have, want in zip(move, pattern))


def tile_count(value: Any) -> int | None:
    if isinstance(value, str):
        return len(value.replace(".", ""))
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return sum(len(item.replace(".", "")) for item in value)
    return None


def actual_of(check: Check, state: dict[str, Any], moves: list[str] | None) -> Any:
    """What the engine shows for a check, in the same form as the check's value."""
    if check.kind.startswith("moves_"):
        if moves is None:
            return MISSING
        chosen = [move for move in moves if check.pattern is None or matches(move, check.pattern)]
        return len(chosen) if check.kind == "moves_count" else sorted(set(chosen))
    value = pointer(state, check.path)
    if value is MISSING:
        return MISSING
    if check.kind == "multiset" and isinstance(value, str):
        return canonical(value) if set(value) <= set(COLOURS) else value
    if check.kind == "set" and isinstance(value, list):
        return sorted(value)
    if check.kind == "count":
        return tile_count(value)
    if check.kind == "length":
        return len(value) if isinstance(value, list) else None
    return value


def holds(check: Check, actual: Any) -> bool:
    if actual is MISSING:
        return False
    if check.kind == "moves_include":
        return set(check.value) <= set(actual)
    if check.kind == "moves_exclude":
        return not set(check.value) & set(actual)
    return actual == check.value


def describe(check: Check, actual: Any) -> str:
    """One line saying how a check failed."""
    where = check.path or "legal moves" + (f" matching {check.pattern}" if check.pattern else "")
    if actual is MISSING:
        return f"{where}: absent from the engine's state"
    if check.kind == "moves_include":
        return f"legal moves lack {', '.join(sorted(set(check.value) - set(actual)))}"
    if check.kind == "moves_exclude":
        return f"legal moves wrongly include {', '.join(sorted(set(check.value) & set(actual)))}"
    if check.kind == "moves_equal":
        missing, extra = sorted(set(check.value) - set(actual)), sorted(set(actual) - set(check.value))
        parts = [f"missing {', '.join(missing)}"] if missing else []
        parts += [f"unexpected {', '.join(extra)}"] if extra else []
        return f"{where}: " + "; ".join(parts)
    label = {"count": " (count)", "moves_count": " (count)", "length": " (number of items)"}.get(check.kind, "")
    return f"{where}{label}: expected {check.value!r}, got {actual!r}"


def extra_moves(check: Check, actual: Any) -> list[str]:
    """The moves a failing move check found listed that the scenario says are not legal."""
    if actual is MISSING or not isinstance(actual, list):
        return []
    if check.kind == "moves_exclude":
        return sorted(set(check.value) & set(actual))
    if check.kind == "moves_equal":
        return sorted(set(actual) - set(check.value))
    return []


def difference(check: Check, actual: Any) -> tuple[str, str]:
    """What a failing check found, as (state field, kind of difference): the key by which failures that differ
    in the same way are grouped into one deviation. Seats and indexes are left out (`boards/floor`)."""
    if check.kind.startswith("moves_"):
        field = "legal moves"
        if actual is MISSING:
            return field, "absent"
        if check.kind == "moves_count":  # too many moves listed is the same deviation as moves listed wrongly
            return field, "extra" if actual > check.value else "missing"
        if check.kind == "moves_exclude":
            return field, "extra"
        if check.kind == "moves_include":
            return field, "missing"
        return field, "extra" if set(actual) - set(check.value) else "missing"
    field = "/".join(part for part in check.path.strip("/").split("/") if not part.isdigit())
    if actual is MISSING:
        return field, "absent"
    if check.kind in ("count", "length") and isinstance(actual, int) and isinstance(check.value, int):
        return field, "more" if actual > check.value else "fewer"
    return field, "differs"


def failures(assertion: Assertion, state: dict[str, Any], moves: list[str] | None) -> list[tuple[Check, Any]]:
    """The checks of an assertion that do not hold, each with what the engine showed."""
    found = []
    for check in assertion.checks:
        actual = actual_of(check, state, moves)
        if not holds(check, actual):
            found.append((check, actual))
    return found


def board_diff(assertion: Assertion, state: dict[str, Any]) -> str:
    """For a whole-board assertion: the expected and actual drawings, as a unified diff."""
    paths = [check.path for check in assertion.checks]
    seat = paths[0].split("/")[2]
    actual_board = pointer(state, f"/boards/{seat}")
    if not isinstance(actual_board, dict):
        return ""
    expected_board = dict(actual_board)
    for check in assertion.checks:
        field, *index = check.path.split("/")[3:]
        if index:
            expected_board[field] = list(expected_board[field])
            expected_board[field][int(index[0])] = check.value
        else:
            expected_board[field] = check.value
    try:
        before, after = _drawing(expected_board), _drawing(actual_board)
    except (KeyError, TypeError, ValueError):
        return ""
    return "\n".join(difflib.unified_diff(before, after, "expected", "actual", lineterm="", n=5))


def _drawing(board: dict[str, Any]) -> list[str]:
    return [f"score: {board['score']}", *board_rows(board), f"floor: {format_floor(board['floor'])}"]
