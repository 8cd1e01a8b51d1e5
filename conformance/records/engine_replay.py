"""Replaying a record on an engine under test (`azul replay --engine`): the record judges the engine, claim by claim.

The record is replayed on the reference first: one that parts ways with our rules cannot judge an engine past
that point, and its ReplayError is raised as `azul replay` gives it (`on_reference` set). Then the same replay
runs on the engine, and its first failure is the engine's: a deal or move it refuses (the rule it names), a
request it fails (a crash, a timeout, a reply that is not protocol), an early end, or a claim its state
contradicts. A contradicted claim is explained from the engine's side: its value is made a claim and explained
on the reference's steps (explain_claim), which names the step where the two part ways and the catalogued
misreading under which the reference gives the engine's value, and so the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..engines.base import Engine
from .errors import ReplayError
from .explain import Disagreement, explain_claim
from .model import Claim, Record
from .replay import ReplayResult, Step, _Replayer, replay

__all__ = ["replay_on_engine"]


def replay_on_engine(record: Record, engine: Engine, *, text: str = "",
                     on_step: Callable[[Step], None] | None = None) -> ReplayResult:
    """Replay `record` on `engine`, the record being right where it agrees with our rules. ReplayError on the
    first failure: `on_reference` True when the record itself parts ways with our rules (the engine not asked)."""
    try:
        reference = replay(record, text=text)
    except ReplayError as error:
        error.on_reference = True
        raise
    replayer = _Replayer(record, engine, text, on_step, judges_engine=True)
    try:
        return replayer.run()
    except ReplayError as error:
        error.on_reference = False
        error.result = replayer.result
        claim = replayer.failed_claim
        if claim is not None and error.pos == claim.pos:
            # the claim follows the last step both sides played; the reference's steps up to there
            steps = reference.steps[:len(replayer.result.steps)]
            error.disagreement = _engine_claim(claim, replayer.state, steps)
        raise


def _engine_claim(claim: Claim, state: dict[str, Any], steps: list[Step]) -> Disagreement:
    """Where the engine's value of the claim's field parts from our rules', and the rule."""
    theirs = engine_value(claim, state)
    found = explain_claim(theirs, steps, {}) if theirs is not None else None
    if found is None:  # a state the account cannot read, or a value no single step made
        return Disagreement(f"the claim {claim}", None, str(claim), _shown(claim, state), pos=claim.pos,
                            side="engine")
    return replace(found, side="engine")


def engine_value(claim: Claim, state: dict[str, Any]) -> Claim | None:
    """The claim as the engine's state would make it (None where the state cannot, e.g. a game not over)."""
    kind, args = claim.kind, claim.args
    try:
        if kind in ("final", "winners") and state["phase"] != "over":
            return None
        if kind in ("score", "final"):
            values: tuple[Any, ...] = tuple(board["score"] for board in state["boards"])
        elif kind == "winners":
            values = tuple(sorted(state["winners"]))
        elif kind == "start":
            values = (state["start_player"],)
        elif kind == "centre":
            values = ("".join(sorted(state["centre"])) or "-",)
        else:
            board = state["boards"][args[0]]
            shown = {"wall": lambda: "|".join(board["wall"]),
                     "lines": lambda: "|".join(line or "-" for line in board["lines"]),
                     "floor": lambda: board["floor"] or "-"}[kind]()
            values = (args[0], shown)
    except (KeyError, IndexError, TypeError):
        return None
    return Claim(kind, values, pos=claim.pos)


def _shown(claim: Claim, state: dict[str, Any]) -> str:
    value = engine_value(claim, state)
    if value is not None:
        return str(value)
    return f"the game is not over (phase {state.get('phase')!r})" if isinstance(state, dict) else "unreadable"
