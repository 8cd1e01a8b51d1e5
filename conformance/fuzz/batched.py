"""A fuzz game in one request: the fast path for engines that offer `play_game` (docs/reference/protocol.md).

The reference plays game i alone first, choosing every move and deal exactly as the lockstep walk would if the
engine agreed with it (`reference_game`; tests hold the two equal). The engine then gets the whole game in one
`play_game` request and answers with what it accepted, every legal-move list and the state at each round's end
(before each deal) and at the end. Any difference, a refusal, a crash or a timeout sends the game back to the
lockstep walk (games.play_game), which replays it step by step and names the first deviation exactly as a
campaign without the fast path would. So the fast path changes how fast games are judged, not what is found,
except for a difference that shows only in a state between two round ends and vanishes by the next one.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..engines.base import CanonicalState, Engine, EngineCrash, EngineError, EngineTimeout, GameRun, Rejected
from ..engines.messages import state_schema_problem
from ..properties.canonical import draw_deal, state_diff
from ..properties.play import GREY_PLACEMENTS, MAX_ROUNDS, Chooser, GamePlan
from ..results import Verdict, engine_trouble
from .failing import FailingGame, plan_json


@dataclass
class Script:
    """Game i as the reference played it: the steps, the states to compare and every legal-move list."""

    steps: list[str | list[str]] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)  # step counts at which the states are compared
    states: list[CanonicalState] = field(default_factory=list)  # the reference's state at each count
    moves: list[str] = field(default_factory=list)  # the reference's legal moves before each move step, joined


def reference_game(reference: Any, plan: GamePlan) -> Script:
    """The game `plan` fixes, on the in-process reference (a ReferenceEngine) alone. The same decisions as
    properties.play.walk: deals drawn from the position with the plan's deal seed, moves picked by the
    Chooser from the sorted legal moves, the same stall and round limits. State documents are written only
    where they are compared (and a deal needs the bag and lid)."""
    script = Script()
    state = reference.new_game(plan.players, plan.variant, plan.start_player)
    chooser, rng = Chooser(plan.choices), random.Random(plan.deal_seed)
    phase, round_, round_moves, factories = state["phase"], state["round"], 0, len(state["factories"])
    while phase != "over" and round_ <= MAX_ROUNDS:
        if phase == "deal":
            if script.steps:
                state = reference.state()
            script.counts.append(len(script.steps))
            script.states.append(state)
            deal = draw_deal(state, rng)
            phase, round_ = reference.deal_quietly(deal)
            script.steps.append(deal)
            round_moves = 0
            continue
        round_moves += 1
        if round_moves > 4 * factories + GREY_PLACEMENTS:
            break
        moves = reference.legal_moves()
        if not moves:
            break
        move = chooser.pick(sorted(set(moves)))
        script.moves.append(" ".join(moves))
        phase, round_ = reference.play_quietly(move)
        script.steps.append(move)
    if not script.counts or script.counts[-1] != len(script.steps):
        script.counts.append(len(script.steps))
        script.states.append(reference.state())
    return script


def disagreement(script: Script, run: GameRun) -> str | None:
    """The first way the engine's answer differs from the reference's game (None: none)."""
    if run.refused is not None:
        step = script.steps[run.played] if run.played < len(script.steps) else "?"
        return f"step {run.played + 1} ({step}) was refused: {run.refused.code}: {run.refused.message}"
    if run.played != len(script.steps):
        return f"{run.played} of {len(script.steps)} steps played, and none refused"
    if len(run.moves) != len(script.moves):
        return f"{len(run.moves)} legal-move lists for {len(script.moves)} move steps"
    for number, (want, got) in enumerate(zip(script.moves, run.moves), 1):
        if got != want and sorted(got.split(" ")) != sorted(want.split(" ")):  # the same order is the quick case
            return f"the legal moves before move {number} differ"
    if len(run.states) != len(script.states):
        return f"{len(run.states)} states for {len(script.states)} step counts asked"
    for count, want, got in zip(script.counts, script.states, run.states):
        if want == got and _typed(got):
            continue
        if state_diff(want, got) or state_schema_problem(got):  # not merely the winners in another order
            return f"the state after {count} steps differs"
    return None


def _typed(state: CanonicalState) -> bool:
    """Equal to the reference's state (which conforms to the schema), and its numbers are integers: JSON's
    `true` and `1.0` compare equal to 1 in Python, but only an integer conforms."""
    numbers = [state["players"], state["round"], state["turn"], state["start_player"]]
    numbers += [board["score"] for board in state["boards"]] + (state["winners"] or [])
    if state["marker"] != "centre":
        numbers.append(state["marker"])
    return all(type(n) is int for n in numbers)


@dataclass
class _InFlight:
    index: int
    plan: GamePlan
    script: Script
    answer: Callable[[], GameRun]


def judge_batched(engine: Engine, reference: Any, games: Iterable[tuple[int, GamePlan]],
                  lockstep: Callable[[GamePlan, int], Any], in_flight: int = 2) -> Iterator[tuple[int, Any]]:
    """(index, its FailingGames, none where it agreed) for each game, in order. With `in_flight` 2, game i+1 is
    sent before game i's answer is read, so the reference prepares one game while the engine plays the other (on
    another core). A game whose answer differs goes to `lockstep` (which restarts the engine after a crash it
    finds); the engine is idle by then: the answers already asked for are read first, or, when the engine died,
    asked for again after the replay."""
    waiting: deque[_InFlight] = deque()
    for index, plan in games:
        script = reference_game(reference, plan)
        waiting.append(_InFlight(index, plan, script, _send(engine, script, plan)))
        if len(waiting) >= in_flight:
            yield _settle(engine, waiting, lockstep)
    while waiting:
        yield _settle(engine, waiting, lockstep)


def _send(engine: Engine, script: Script, plan: GamePlan) -> Callable[[], GameRun]:
    try:
        return engine.send_game(plan.players, plan.variant, plan.start_player, script.steps, script.counts,
                                moves=True)
    except EngineError as error:  # the engine is gone: this game's answer is that
        return _given(error)


def _given(outcome: GameRun | EngineError) -> Callable[[], GameRun]:
    def answer() -> GameRun:
        if isinstance(outcome, EngineError):
            raise outcome
        return outcome
    return answer


def _outcome(answer: Callable[[], GameRun]) -> GameRun | EngineError:
    try:
        return answer()
    except EngineError as error:
        return error


def _settle(engine: Engine, waiting: deque, lockstep: Callable[[GamePlan, int], Any]) -> tuple[int, Any]:
    game = waiting.popleft()
    outcome = _outcome(game.answer)
    if isinstance(outcome, GameRun):
        why = disagreement(game.script, outcome)
        if why is None:
            return game.index, []
        verdict = Verdict.FAIL
    elif isinstance(outcome, Rejected):
        verdict, why = Verdict.FAIL, f"play_game was refused: {outcome.code}: {outcome.message}"
    else:
        verdict = engine_trouble(outcome)["verdict"]
        why = f"{verdict}: {outcome.message}"
    alive = verdict is Verdict.FAIL
    if alive:  # read the answers already asked for, so that the replay talks to an idle engine
        for later in waiting:
            result = _outcome(later.answer)
            later.answer = _given(result)
            alive = alive and not isinstance(result, (EngineCrash, EngineTimeout))
    if not alive:
        engine.restart()
    found = lockstep(game.plan, game.index)
    # what play_game answered is not what the single requests answer (a whole game slower than its deadline is
    # no deviation)
    if not found and verdict is not Verdict.TIMEOUT:
        found = [_batch_only(verdict, why, game)]
    if verdict is not Verdict.FAIL:  # the requests sent after this game died with the engine: ask again
        for later in waiting:
            later.answer = _send(engine, later.script, later.plan)
    return game.index, found


def _batch_only(verdict: Verdict, why: str, game: _InFlight) -> Any:
    steps = [{"kind": "deal", "factories": s} if isinstance(s, list) else {"kind": "move", "move": s}
             for s in game.script.steps]
    return FailingGame(f"{verdict} play_game", verdict, None,
                       f"play_game: {why}; the same game played step by step agrees with the reference",
                       game.index, plan_json(game.plan), steps)
