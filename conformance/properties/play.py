"""Playing one game on any Engine, step by step, with checks watching every position.

A game is fixed by a GamePlan (players, variant, start player, a seed for the deals, and the move choices),
so that hypothesis can generate and shrink games. The walk records a Trace (the deals and moves played) that
replays the game exactly, and the checks (`Watcher`s) raise PropertyFailure naming the rule broken.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engines.base import Engine, EngineCrash, EngineTimeout, Rejected
from .canonical import CanonicalState, draw_deal
from .invariants import seat_problems

MAX_ROUNDS = 60  # a harness limit: the rules deal on while a tile is left (END-8), so a game from which no row can
# be won never ends; beyond this the walk stops without judging (never an engine failure)
# Refusals that judge nothing: `unsupported` (a capability the engine lacks: the property is skipped) and
# `internal` (the engine broke answering: an error). They pass through the walk to run_property.
ENGINE_ANSWERS = ("unsupported", "internal")
GREY_PLACEMENTS = 25  # at most 5 placements per board and round


@dataclass(frozen=True)
class GamePlan:
    players: int = 2
    variant: str = "colour"
    start_player: int = 0
    deal_seed: int = 0
    choices: tuple[int, ...] = ()


@dataclass
class Trace:
    """What was played: each step is {"kind": "deal", "factories": [...]} or {"kind": "move", "move": "1B2"},
    and the last may carry `reject` (the code a refused step should get)."""

    plan: GamePlan
    steps: list[dict[str, Any]] = field(default_factory=list)
    given: CanonicalState | None = None  # the state the game started from
    capped: bool = False  # stopped at MAX_ROUNDS: a limit of the harness, not a verdict on the engine


class PropertyFailure(Exception):
    """A check failed: the rule it breaks, what was expected and found, and the game that led there."""

    def __init__(self, rule: str | None, message: str, *, expected: Any = None, actual: Any = None,
                 step: dict[str, Any] | None = None, difference: tuple[str, str] | None = None) -> None:
        super().__init__(f"{rule or 'protocol'}: {message}")
        self.rule, self.message, self.expected, self.actual = rule, message, expected, actual
        self.step = step  # a step to append to the trace (a refused move that should have been accepted...)
        # (field, kind) when the failure is not a difference of state fields: the report's grouping key, so that
        # every property that meets the same refusal shows as one deviation (harness/findings.py)
        self.difference = difference
        self.trace: Trace | None = None

    @classmethod
    def listed_move_refused(cls, move: str, error: Rejected) -> PropertyFailure:
        """A move the engine listed as legal, then refused when played (OFFER-15 unless it names a rule)."""
        return cls(error.rule or "OFFER-15", f"{move} is listed as legal but was refused: {error.code}: "
                   f"{error.message}", expected="accepted", actual=error.code, step={"kind": "move", "move": move},
                   difference=("refused move", "refused"))


class EngineGaveUp(BaseException):
    """The engine crashed or hung: stop the property at once (hypothesis must not shrink through timeouts).
    A BaseException so that hypothesis lets it through."""

    def __init__(self, error: EngineCrash | EngineTimeout, trace: Trace) -> None:
        super().__init__(str(error))
        self.error, self.trace = error, trace


class Watcher:
    """A check riding along a game. Each hook may raise PropertyFailure."""

    finished = False  # a steering watcher (targeted.py) ends the game once its branch has been judged

    def on_start(self, engine: Engine, state: CanonicalState) -> None: ...

    def on_deal(self, engine: Engine, before: CanonicalState, after: CanonicalState,
                given: list[str] | None) -> None: ...

    def on_position(self, engine: Engine, state: CanonicalState, moves: list[str], chooser: "Chooser") -> None: ...

    def on_move(self, engine: Engine, before: CanonicalState, move: str, after: CanonicalState) -> None: ...

    def on_end(self, engine: Engine, state: CanonicalState) -> None: ...

    def on_stall(self, engine: Engine, state: CanonicalState, moves: int) -> None:
        """The round went on for more moves than it has tiles: moves that take nothing keep it going."""

    def narrow(self, state: CanonicalState, moves: list[str]) -> list[str]:
        """The moves the walk may choose from (a differential check keeps those both engines accept)."""
        return moves

    def arrange(self, state: CanonicalState, factories: list[str]) -> list[str]:
        """The deal the walk gives the engine: another drawable deal may replace the one drawn at random."""
        return factories


class Chooser:
    """Turns the plan's choice list into picks; once the list runs out every pick is the first option,
    so shrinking the list shrinks the game towards the canonical first moves."""

    def __init__(self, choices: tuple[int, ...]) -> None:
        self.choices, self.index = choices, 0

    def pick(self, options: list[Any]) -> Any:
        value = self.choices[self.index] if self.index < len(self.choices) else 0
        self.index += 1
        return options[value % len(options)]


Recover = Callable[[PropertyFailure, "CanonicalState | None"], "CanonicalState | None"]


def walk(engine: Engine, plan: GamePlan, watchers: list[Watcher], give_deals: bool,
         recover: Recover | None = None) -> Trace:
    """Play one game per `plan`; with `give_deals` our drawn deals are handed to the engine, else it deals.

    `recover`, where given, is offered each failure a watcher raises (its trace up to there set), with the
    engine's position when the failure leaves it where it was (a legal-move list judged) or None when the
    step led it astray; it answers the position the game goes on from (the engine put back on the rules'
    position) or None, and the failure then ends the walk as without it."""
    trace = Trace(plan)
    try:
        _walk(engine, plan, watchers, give_deals, trace, recover)
    except PropertyFailure as failure:
        if failure.trace is None:
            if failure.step:
                trace.steps.append(failure.step)
            failure.trace = trace
        raise
    except (EngineCrash, EngineTimeout) as error:
        raise EngineGaveUp(error, trace) from None
    return trace


def _walk(engine: Engine, plan: GamePlan, watchers: list[Watcher], give_deals: bool, trace: Trace,
          recover: Recover | None = None) -> None:
    def watched(hook: Callable[[Watcher], None], state: CanonicalState | None, after: CanonicalState):
        """Run `hook` on every watcher; the position the game goes on from (`after`, or where `recover` put
        the engine back after a failure)."""
        try:
            for watcher in watchers:
                hook(watcher)
        except PropertyFailure as failure:
            if recover is None:
                raise
            failure.trace = Trace(plan, trace.steps + ([failure.step] if failure.step else []), trace.given)
            back = recover(failure, state)
            if back is None:
                raise
            return back
        return after

    state = _seated(_refusable(lambda: engine.new_game(plan.players, plan.variant, plan.start_player), "new_game"))
    state = watched(lambda w: w.on_start(engine, state), None, state)
    chooser, rng = Chooser(plan.choices), random.Random(plan.deal_seed)
    round_moves = 0
    while state["phase"] != "over" and state["round"] <= MAX_ROUNDS and not any(w.finished for w in watchers):
        if state["phase"] == "deal":
            state = _deal(engine, state, watchers, rng if give_deals else None, trace, watched)
            round_moves = 0
            continue
        round_moves += 1
        if round_moves > 4 * len(state["factories"]) + GREY_PLACEMENTS:  # every take removes a tile
            for watcher in watchers:
                watcher.on_stall(engine, state, round_moves)
            return
        moves = _refusable(engine.legal_moves, "legal_moves")
        state = watched(lambda w: w.on_position(engine, state, moves, chooser), state, state)
        options = sorted(set(moves))
        for watcher in watchers:
            options = watcher.narrow(state, options)
        if not options:
            return  # nothing to play (a check already judged an empty list)
        move = chooser.pick(options)
        state = _play(engine, state, move, watchers, trace, watched)
    if state["phase"] == "over":
        for watcher in watchers:
            watcher.on_end(engine, state)
    elif state["round"] > MAX_ROUNDS:
        trace.capped = True


def _deal(engine: Engine, state: CanonicalState, watchers: list[Watcher], rng: random.Random | None,
          trace: Trace, watched) -> CanonicalState:
    factories = draw_deal(state, rng) if rng is not None else None
    for watcher in watchers if factories is not None else ():
        factories = watcher.arrange(state, factories)
    try:
        after = engine.deal(factories)
    except Rejected as error:
        raise PropertyFailure(error.rule or "DEAL-1", f"the engine refused the drawable deal {factories}: "
                              f"{error.code}: {error.message}", expected="accepted", actual=error.code,
                              step={"kind": "deal", "factories": factories}, difference=("deal", "refused")) from None
    trace.steps.append({"kind": "deal", "factories": list(after["factories"])})
    _seated(after)
    return watched(lambda w: w.on_deal(engine, state, after, factories), None, after)


def _play(engine: Engine, state: CanonicalState, move: str, watchers: list[Watcher], trace: Trace,
          watched) -> CanonicalState:
    try:
        after = engine.play(move)
    except Rejected as error:
        if error.code in ENGINE_ANSWERS:
            raise
        raise PropertyFailure.listed_move_refused(move, error) from None
    trace.steps.append({"kind": "move", "move": move})
    _seated(after)
    return watched(lambda w: w.on_move(engine, state, move, after), None, after)


def _seated(state: CanonicalState) -> CanonicalState:
    """`state`, unless it names a seat its table lacks (turn 7 of two players): an impossible position, failed
    here before any watcher reads a board by seat (else an IndexError would stand as the verdict)."""
    problems = seat_problems(state)
    if problems:
        rule, text = problems[0]
        raise PropertyFailure(rule, f"the engine replied with a position no game can reach: {text}",
                              expected="a possible position", actual=text, difference=("state", "impossible"))
    return state


def _refusable(call, what: str):
    try:
        return call()
    except Rejected as error:
        if error.code in ENGINE_ANSWERS:
            raise
        raise PropertyFailure(None, f"the engine refused {what}: {error.code}: {error.message}",
                              actual=error.code) from None
