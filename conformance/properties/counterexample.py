"""The minimal failing game of a property, written as a scenario file anyone can replay.

The scenario starts from a new game, gives every deal as it was played, plays the moves, and asserts what the
reference engine says at the end, on the parts of the state the failure concerns. A step the engine should
have refused carries `-> illegal_move RULE`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..engines.base import Engine, Rejected
from ..results import clipped
from .canonical import CanonicalState, state_diff
from .play import Trace


def write_counterexample(folder: str | Path, case_id: str, rule: str | None, message: str, trace: Trace,
                         reference: Engine, engine_state: CanonicalState | None = None) -> Path:
    """Write `<folder>/<case_id>.yaml` and return its path."""
    steps = [_step_text(step, rule) for step in trace.steps]
    expected, moves = _replay(reference, trace)
    asserts = _assertions(expected, engine_state, moves)
    scenario: dict[str, Any] = {
        "id": f"counterexample-{case_id}",
        "title": f"Minimal game found by {case_id}: {message}"[:300].replace("\n", " "),
        "rules": [rule] if rule and re.fullmatch(r"[A-Z]+-[0-9]+", rule) else ["SETUP-4"],
        "level": "rule",
        "given": (f"new game players: {trace.plan.players} variant: {trace.plan.variant} "
                  f"start: {trace.plan.start_player}\n"),
        "steps": "".join(line + "\n" for line in steps) or "\n",
        "expect": "".join(line + "\n" for line in asserts) or "phase = " + (expected or {}).get("phase", "deal") + "\n",
    }
    path = Path(folder) / f"{case_id}.yaml"
    if path.parent != Path(folder) or "/" in case_id or "\\" in case_id:
        raise ValueError(f"{case_id!r} cannot name a file in {folder}")  # a path of its own: never outside
    if Path(folder).is_symlink():  # a link would take the game out of the folder given
        raise ValueError(f"{folder} is a symbolic link: counterexamples are not written through one")
    path.parent.mkdir(parents=True, exist_ok=True)
    # Every line of the engine's message stays inside the comment: a bare newline would start YAML of its own.
    said = "".join(f"# {line}\n" for line in (clipped(message).splitlines() or [""]))
    header = f"# Written by `azul conform`: the minimal game on which {case_id} failed.\n{said}"
    text = header + yaml.dump([scenario], Dumper=_Literal, sort_keys=False, allow_unicode=True, width=110)
    try:  # a file or link already at that name is replaced, never written through (O_EXCL, O_NOFOLLOW)
        path.unlink()
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def _step_text(step: dict[str, Any], rule: str | None) -> str:
    if step["kind"] == "deal":
        return "deal " + " ".join(f"{i + 1}: {text or '-'}" for i, text in enumerate(step["factories"]))
    text = step["move"]
    if step.get("reject"):
        text += f" -> {step['reject']}" + (f" {rule}" if rule and re.fullmatch(r"[A-Z]+-[0-9]+", rule) else "")
    return text


def _replay(reference: Engine, trace: Trace) -> tuple[CanonicalState | None, list[str] | None]:
    """The reference's state after the trace (refused steps skipped), and its legal moves there."""
    plan = trace.plan
    try:
        state = reference.new_game(plan.players, plan.variant, plan.start_player)
        for step in trace.steps:
            try:
                state = reference.deal(step["factories"]) if step["kind"] == "deal" else reference.play(step["move"])
            except Rejected:
                continue
        return state, reference.legal_moves()
    except Rejected:
        return None, None


def _assertions(expected: CanonicalState | None, actual: CanonicalState | None, moves: list[str] | None) -> list[str]:
    if expected is None:
        return []
    paths = [p for p, _, _ in state_diff(expected, actual)] if actual is not None else []
    lines = [_assertion(expected, p) for p in paths]
    lines = [line for line in dict.fromkeys(lines) if line]
    if not lines:  # nothing specific: pin the whole table and every board's score, floor and lines
        lines = [_assertion(expected, f"/{name}") for name in ("phase", "round", "turn", "centre", "bag", "lid")]
        for seat in range(expected["players"]):
            lines += [_assertion(expected, f"/boards/{seat}/score"), _assertion(expected, f"/boards/{seat}/floor")]
        lines = [line for line in lines if line]
    if moves is not None and expected["phase"] in ("offer", "tiling"):
        lines.append("legal moves = {" + ", ".join(sorted(moves)) + "}")
    return lines


def _tiles(text: str) -> str:
    return text if text else "-"


def _assertion(state: CanonicalState, path: str) -> str | None:
    parts = path.strip("/").split("/")
    top = parts[0]
    if top == "boards" and len(parts) >= 3:
        seat, part = int(parts[1]), parts[2]
        board = state["boards"][seat]
        if part == "score":
            return f"score {seat} = {board['score']}"
        if part == "floor":
            return f"board {seat} floor = {_tiles(board['floor'])}"
        if part == "lines" and len(parts) == 4:
            return f"board {seat} line {int(parts[3]) + 1} = {_tiles(board['lines'][int(parts[3])])}"
        if part == "wall" and len(parts) == 4:
            return f"board {seat} wall row {int(parts[3]) + 1} = {board['wall'][int(parts[3])]}"
        return None
    if top == "factories" and len(parts) == 2:
        return f"factory {int(parts[1]) + 1} = {_tiles(state['factories'][int(parts[1])])}"
    if top in ("centre", "bag", "lid"):
        return f"{top} = {_tiles(state[top])}"
    if top == "winners":
        return "winners = " + (",".join(map(str, state["winners"])) if state["winners"] else "-")
    if top == "marker":
        return f"marker = {state['marker']}"
    if top == "start_player":
        return f"start = {state['start_player']}"
    if top in ("phase", "round", "turn"):
        return f"{top} = {state[top]}"
    return None


class _Literal(yaml.SafeDumper):
    """Multi-line strings as YAML literal blocks, as the scenario files write them."""


def _literal(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Literal.add_representer(str, _literal)
