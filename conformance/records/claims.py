"""Claims: the checkable annotations of a record (`[%score 12 7]`, `[%wall 0 "B....|..."]`...).

`check_claim_form` checks a claim as written (its name, the number and kind of its arguments, the shape of
its board text) when the record is read; `claim_mismatch` compares it with a canonical state during replay.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from ..notation import COLOURS, FLOOR_SPACES, MARKER
from ..spec_data import rule_titles
from .model import CLAIM_FORMS, Claim

_WALL_ROW = re.compile(rf"[{COLOURS}.]{{5}}")
_FLOOR = re.compile(rf"-|[{COLOURS}{MARKER}]{{1,{FLOOR_SPACES}}}")
_CENTRE = re.compile(rf"-|[{COLOURS}]+")
_LINE = re.compile(rf"([{COLOURS}])\1*")


def check_claim_form(claim: Claim, players: int, lenient: bool) -> Claim:
    """The claim (its text upper-cased when lenient), or ValueError saying what the form should be."""
    if claim.kind not in CLAIM_FORMS:
        close = difflib.get_close_matches(claim.kind, CLAIM_FORMS, n=1)
        hint = f"did you mean %{close[0]}? " if close else ""
        raise ValueError(f"unknown claim %{claim.kind}: {hint}known claims are "
                         + ", ".join(f"%{k}" for k in CLAIM_FORMS))
    form, meaning = CLAIM_FORMS[claim.kind]
    usage = _usage(claim.kind, form, players)
    args = claim.args
    ints = all(isinstance(a, int) for a in args)
    if form == "scores" and not (ints and len(args) == players):
        raise ValueError(f"%{claim.kind} gives {meaning}: {usage}")
    if form == "seats":
        if not (ints and args and all(0 <= a < players for a in args) and len(set(args)) == len(args)):
            raise ValueError(f"%{claim.kind} gives {meaning}: {usage}")
    if form == "seat" and not (ints and len(args) == 1 and 0 <= args[0] < players):
        raise ValueError(f"%{claim.kind} gives {meaning}: {usage}")
    if form == "rule+text":
        return _check_rule_claim(claim, usage, meaning)
    if form in ("seat+text", "text"):
        return _check_text_claim(claim, form, players, lenient, usage, meaning)
    return claim


def _check_rule_claim(claim: Claim, usage: str, meaning: str) -> Claim:
    args = claim.args
    if len(args) != 2 or not all(isinstance(a, str) for a in args) or not args[1].strip():
        raise ValueError(f"%{claim.kind} gives {meaning}: {usage}")
    if args[0] not in rule_titles():
        close = difflib.get_close_matches(args[0], rule_titles(), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise ValueError(f"%{claim.kind}: {args[0]!r} is not a rule of the specification{hint}")
    return claim


def _usage(kind: str, form: str, players: int) -> str:
    examples = {"scores": " ".join(str(7 * (s + 1)) for s in range(players)), "seats": "0", "seat": "0",
                "seat+text": '0 "..."', "text": '"..."', "rule+text": '"END-8" "how the source differs"'}
    return f"write [%{kind} {examples[form]}]" + (f" (seats 0 to {players - 1})" if "seat" in form else "")


def _check_text_claim(claim: Claim, form: str, players: int, lenient: bool, usage: str, meaning: str) -> Claim:
    args = claim.args
    shape = (int, str) if form == "seat+text" else (str,)
    if len(args) != len(shape) or any(not isinstance(a, t) for a, t in zip(args, shape)):
        raise ValueError(f"%{claim.kind} gives {meaning}: {usage}")
    if form == "seat+text" and not 0 <= args[0] < players:
        raise ValueError(f"%{claim.kind}: there is no seat {args[0]} ({usage})")
    text = args[-1]
    fixed = text.upper() if lenient else text
    problem = _text_problem(claim.kind, fixed)
    if problem:
        raise ValueError(f"%{claim.kind} {text!r}: {problem}")
    return Claim(claim.kind, args[:-1] + (fixed,), pos=claim.pos)


def _text_problem(kind: str, text: str) -> str | None:
    if kind == "wall":
        rows = text.split("|")
        if len(rows) != 5 or not all(_WALL_ROW.fullmatch(r) for r in rows):
            return "a wall is 5 rows of 5 cells (B Y R K W, . for empty), joined by |"
    elif kind == "lines":
        lines = text.split("|")
        if len(lines) != 5:
            return "pattern lines are 5 parts joined by |, `-` for an empty line"
        for number, line in enumerate(lines, 1):
            if line != "-" and not (_LINE.fullmatch(line) and len(line) <= number):
                return f"pattern line {number} holds up to {number} tiles of one colour (or is -), not {line!r}"
    elif kind == "floor":
        if not _FLOOR.fullmatch(text) or text.count(MARKER) > 1:
            return "a floor line is up to 7 tiles (B Y R K W, M the marker at most once), or - if empty"
    elif kind == "centre" and not _CENTRE.fullmatch(text):
        return "the centre is tiles B Y R K W (not the marker), or - if empty"
    return None


def _scores(state: dict[str, Any]) -> list[int]:
    return [board["score"] for board in state["boards"]]


def claim_mismatch(claim: Claim, state: dict[str, Any]) -> str | None:
    """None when the claim holds in `state`, else what the state shows instead."""
    kind, args = claim.kind, claim.args
    over = state.get("phase") == "over"
    if kind in ("final", "winners") and not over:
        return f"the game is not over here (phase {state.get('phase')!r}, round {state.get('round')})"
    if kind in ("score", "final"):
        actual = _scores(state)
        if list(args) != actual:
            wrong = [f"seat {s}: claimed {c}, actual {a}" for s, (c, a) in enumerate(zip(args, actual)) if c != a]
            return f"the scores are {' '.join(map(str, actual))} ({'; '.join(wrong)})"
    elif kind == "winners":
        actual = state.get("winners") or []
        if sorted(args) != sorted(actual):
            return "the winners are " + (" ".join(f"seat {s}" for s in actual) or "nobody yet")
    elif kind == "start":
        if args[0] != state.get("start_player"):
            return f"the start player is seat {state.get('start_player')}"
    elif kind == "centre":
        if "".join(sorted(args[0].strip("-"))) != "".join(sorted(state["centre"])):
            return f"the centre holds {state['centre'] or '-'!r}"
    else:
        board = state["boards"][args[0]]
        actual = {"wall": "|".join(board["wall"]), "lines": "|".join(line or "-" for line in board["lines"]),
                  "floor": board["floor"] or "-"}[kind]
        if args[1] != actual:
            return f"seat {args[0]}'s {kind} {'is' if kind != 'lines' else 'are'} {actual!r}"
    return None
