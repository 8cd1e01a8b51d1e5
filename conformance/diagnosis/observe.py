"""What an engine did in a failing case, as data that another engine's run of the same case can be held to.

An Observation is what a misreading must reproduce to explain a case:
- a scenario: each failing assertion (where it is, the values found), or the step that went wrong and what the
  engine did there (accepted it, refused it with a code, refused it but changed the state);
- a property: the game it played (its deals and moves) and what the engine answered at the request that
  differed: the values at the paths that differed, a refusal's code (with the engine's position when it
  refused), an accepted step that should have been refused, the legal moves it listed, or an undrawable deal it
  made.

Observations are built from CaseResult fields only, so a report read back from disk (`azul diagnose`) gives the
same ones as the run that wrote it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..results import CaseKind, CaseResult, Verdict


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@dataclass(frozen=True)
class Observation:
    # "assertions", "step" (scenarios); "paths", "refused", "accepted", "moves", "dealt", "state" (properties)
    kind: str
    items: frozenset[tuple[str, str]]  # what must be reproduced: (where or path, canonical value)
    steps: tuple[Any, ...] = ()  # a property's game, as play_game steps (a move, or a deal's factories)
    plan: tuple[int, str, int] | None = None  # players, variant, start player
    # a refused step's: the engine's position when it refused (canonical), where the request is judged again;
    # where it was met, not what was done, so no part of what must be reproduced
    position: str | None = field(default=None, compare=False)
    # "paths" of a game played in lockstep (a fuzz finding): every other field of the state was judged and
    # agreed with the rules, so a reading that explains the case must leave them as the rules have them
    whole: bool = field(default=False, compare=False)
    # a scenario's deals the engine drew itself, (step number, factories) each: another engine's run of it deals
    # the same tiles there, so that what the engine did is reproduced from its draw, not the other's
    draws: tuple[tuple[int, tuple[str, ...]], ...] = field(default=(), compare=False)

    def first_line(self) -> int | None:
        """A scenario's first difference: the line of its step or assertion that went wrong first (the runner stops
        at the first checkpoint that fails, so the earliest line of what failed there). None for a game's."""
        lines = [int(where.rsplit(":", 1)[1]) for where, _ in self.items
                 if self.kind in ("assertions", "step") and where.rsplit(":", 1)[-1].isdigit()]
        return min(lines) if lines else None

    def departs(self, seen: "Observation") -> int | None:
        """Where this observation (a reading's) first shows something `seen` (the engine's) does not: the line of
        its first difference from the rules, or None where it shows nothing the engine did not (what it shows
        there as well, beside another fault's fields at the same checkpoint, is no contradiction)."""
        return None if self.items <= seen.items else self.first_line()

    def closeness(self, other: "Observation | None") -> float:
        """How much of this observation `other` reproduces, from 0 to 1 (1: all of it, and nothing else)."""
        if other is None or other.kind != self.kind:
            return 0.0
        union = self.items | other.items
        return len(self.items & other.items) / len(union) if union else 1.0


def observation(result: CaseResult) -> Observation | None:
    """What `result` shows the engine did, or None when it shows no rule misread (a pass, a crash, a refused
    query) or a failure whose shape gives nothing to reproduce."""
    if result.verdict is not Verdict.FAIL:
        return None
    if result.kind is CaseKind.SCENARIO:
        return _scenario(result)
    return _property(result)  # a property's game, or a fuzz finding's


def _scenario(result: CaseResult) -> Observation | None:
    failures = result.failures
    draws = _draws(result.details.get("draws"))
    if failures:
        return Observation("assertions", frozenset(
            (entry.get("where") or "impossible", _canon(entry.get("actual") if entry.get("where")
                                                        else entry.get("rule")))
            for entry in failures), draws=draws)
    at = result.details.get("at")
    if not at:
        return None
    actual = result.actual
    if isinstance(actual, dict) and "code" in actual and "format" not in actual:
        # a refusal: its code is what the engine did; the rule it names counts only where that is the finding
        named = [d for d in result.details.get("differences", ()) if list(d)[:1] == ["refusal rule"]]
        actual = {"code": actual["code"], **({"rule": actual.get("rule")} if named else {})}
    items = {(at, _canon(actual))}
    if "accepted_state" in result.details:  # an acceptance is told apart by the position it led to
        items.add(("accepted state", _canon(result.details["accepted_state"])))
    return Observation("step", frozenset(items), draws=draws)


def _draws(found: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """A result's recorded draws (the runner's details["draws"]), or none where a report read back holds
    anything else: what is dealt again is the engine's own draw, never a guess."""
    if not isinstance(found, dict):
        return ()
    draws = []
    for number, factories in found.items():
        if not (isinstance(number, str) and number.isdigit() and isinstance(factories, list)
                and all(isinstance(tiles, str) for tiles in factories)):
            return ()
        draws.append((int(number), tuple(factories)))
    return tuple(sorted(draws))


def _property(result: CaseResult) -> Observation | None:
    game = result.details.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("plan"), dict) or game.get("given"):
        return None
    plan = game["plan"]
    try:
        steps = tuple(step["move"] if step["kind"] == "move" else tuple(step["factories"])
                      for step in game.get("steps", ()))
        setup = (int(plan["players"]), str(plan["variant"]), int(plan["start_player"]))
    except (KeyError, TypeError, ValueError):
        return None
    expected, actual = result.expected, result.actual
    differences = {tuple(d) for d in result.details.get("differences", ())}
    if isinstance(actual, dict) and actual and all(str(key).startswith("/") for key in actual):
        kind, items = "paths", {(key, _canon(sorted(value) if key.endswith("winners") and isinstance(value, list)
                                             else value)) for key, value in actual.items()}
    elif expected == "accepted" and isinstance(actual, str) and steps:
        kind, items = "refused", {("code", _canon(actual))}
        state = result.details.get("state")
        if isinstance(state, dict) and state.get("format"):
            return Observation(kind, frozenset(items), steps, setup, _canon(state))
    elif expected == "illegal_move" and actual == "accepted" and steps:
        kind, items = "accepted", {("accepted", _canon(steps[-1]))}
    elif ("deal", "not drawable") in differences and isinstance(actual, list):
        kind, items = "dealt", {("dealt", _canon(actual))}
    elif isinstance(expected, list) and isinstance(actual, list) and all(isinstance(m, str) for m in actual):
        kind, items = "moves", {("moves", _canon(sorted(set(actual))))}
    elif isinstance(result.details.get("state"), dict):  # any other failure: the position the game ended in
        kind, items = "state", {("state", _canon(result.details["state"]))}
    else:
        return None
    return Observation(kind, frozenset(items), steps, setup, whole=kind == "paths" and result.kind is CaseKind.FUZZ)
