"""Shrinking a deviation to a small game that still shows it, and writing that game as a scenario.

A game is replayed from its plan, so shrinking edits the plan: fewer move choices (a missing choice picks
the first legal move), choices set to 0, the first seat to start, other deal seeds. An edit is kept when the
replayed game still shows the same deviation (the same key) in no more steps. Replays are bounded in number
and time; the result is always a real, replayable game.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from ..engines.base import Capabilities, Engine
from ..properties.counterexample import write_counterexample
from ..properties.play import GamePlan
from ..results import Verdict
from .games import FailingGame, play_game, trace_of


def shrink(engine: Engine, reference: Engine, capabilities: Capabilities, found: FailingGame,
           seconds: float = 20.0, tries: int = 400) -> FailingGame:
    """The smallest game found (within the budget) showing the same deviation as `found`."""
    if not capabilities.deal:
        return found  # the engine deals by itself: a replay need not meet the same deals
    deadline = time.monotonic() + seconds
    best, plan = found, found.game_plan()
    budget = [tries]

    def attempt(candidate: GamePlan) -> bool:
        nonlocal best, plan
        if budget[0] <= 0 or time.monotonic() > deadline:
            return False
        budget[0] -= 1
        failing = play_game(engine, reference, capabilities, candidate, found.index)
        if failing and failing[-1].verdict in (Verdict.CRASH, Verdict.TIMEOUT):
            engine.restart()
        again = next((f for f in failing if f.key == found.key), None)
        if again is None or len(again.steps) > len(best.steps):
            return False
        best, plan = again, candidate
        return True

    used = sum(1 for step in best.steps if step["kind"] == "move")
    attempt(replace(plan, choices=plan.choices[:used]))
    if plan.start_player:
        attempt(replace(plan, start_player=0))
    for seed in range(4):  # a few small deal seeds: other deals may show it sooner
        if plan.deal_seed != seed:
            attempt(replace(plan, deal_seed=seed))
    for size in (0, len(plan.choices) // 4, len(plan.choices) // 2):  # drop the tail of the choices
        if size < len(plan.choices) and attempt(replace(plan, choices=plan.choices[:size])):
            break
    i = 0
    while i < len(plan.choices) and budget[0] > 0 and time.monotonic() < deadline:
        if plan.choices[i]:
            attempt(replace(plan, choices=plan.choices[:i] + (0,) + plan.choices[i + 1:]))
        i += 1
    return best


def write_scenario(folder: str | Path, case_id: str, deviation: FailingGame, reference: Engine,
                   engine_state: dict | None) -> str:
    """The deviation's game as a scenario file (the reference's outcome asserted); its path."""
    path = write_counterexample(folder, case_id, deviation.rule, deviation.message, trace_of(deviation),
                                reference, engine_state)
    return str(path)
