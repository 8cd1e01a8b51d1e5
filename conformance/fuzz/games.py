"""One fuzz game: the engine under test and the reference, in lockstep, judged at every step.

Game `index` of a campaign with seed `seed` is fixed by those two numbers alone (players, variant, start
player, the deals' seed and every move choice), whoever plays it and in whatever order, so a campaign
split over processes or machines plays exactly the games one process would. A difference from the reference
is a FailingGame, named by the rule it breaks and keyed by the kind of difference: failing games with the same
key are one deviation (harness/findings.py's idea, applied to games), so that a million games showing the same
bug make one deviation, not a million. After a difference the engine is put back on the reference's position
(load_state, where the engine offers it) and the game goes on, so that a frequent bug does not hide the others:
every kind of difference a game shows is found, each once per game. A crash, a timeout, a refused move, or an
engine that cannot be put back ends the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from ..engines.base import Capabilities, Engine, Rejected
from ..properties.canonical import CanonicalState
from ..properties.differential import Differential
from ..properties.play import EngineGaveUp, GamePlan, PropertyFailure, Trace, walk
from ..results import Verdict, engine_trouble
from .batched import judge_batched
from .failing import FailingGame, plan_json

CHOICES = 400  # one number per decision; enough for the longest random game (later picks take the first option)


@dataclass(frozen=True)
class Mix:
    """Which games a campaign plays: player counts and walls drawn per game from these."""

    players: tuple[int, ...] = (2,)
    variants: tuple[str, ...] = ("colour",)


def plan_for(seed: int, index: int, mix: Mix) -> GamePlan:
    """The plan of game `index`: a function of the campaign seed and the index only."""
    rng = random.Random(f"azul-fuzz/{seed}/{index}")
    players = mix.players[rng.randrange(len(mix.players))]
    variant = mix.variants[rng.randrange(len(mix.variants))]
    return GamePlan(players, variant, rng.randrange(players), rng.getrandbits(32),
                    tuple(rng.getrandbits(20) for _ in range(CHOICES)))


def judge_games(engine: Engine, reference: Engine, capabilities: Capabilities,
                games: Iterable[tuple[int, GamePlan]], batched: bool = True,
                overlap: bool = True) -> Iterator[tuple[int, list[FailingGame]]]:
    """(index, its FailingGames, one per kind of difference, none where it agreed) for each (index, plan), in
    order. With `batched` and an engine that
    offers play_game and given deals, each game goes in one request (batched.py) and only a game whose answer
    differs is replayed in lockstep; else every game is played in lockstep. After a crash or a timeout the
    engine is restarted (an EngineError when it cannot be)."""

    def lockstep(plan: GamePlan, index: int) -> list[FailingGame]:
        found = play_game(engine, reference, capabilities, plan, index)
        if found and found[-1].verdict in (Verdict.CRASH, Verdict.TIMEOUT):
            engine.restart()
        return found

    if batched and capabilities.play_game and capabilities.deal:
        yield from judge_batched(engine, reference, games, lockstep, 2 if overlap else 1)
    else:
        for index, plan in games:
            yield index, lockstep(plan, index)


def play_game(engine: Engine, reference: Engine, capabilities: Capabilities, plan: GamePlan,
              index: int) -> list[FailingGame]:
    """Play one game in lockstep, judged at every step: a FailingGame for each kind of difference it shows (the
    first step showing it), in the order found; none when the engine agreed with the reference."""
    found: dict[str, FailingGame] = {}
    watcher = Differential.following(reference, plan)

    def note(failure: PropertyFailure) -> None:
        for each in [failure, *getattr(failure, "also", ())]:  # each kind of difference the step showed
            each.trace = failure.trace
            found.setdefault(_key(each), _failing(each, plan, index, len(found)))

    def put_back(failure: PropertyFailure, unmoved: CanonicalState | None) -> CanonicalState | None:
        note(failure)
        if unmoved is not None:
            return unmoved  # a legal-move list differed: the engine is still where the reference is
        position = watcher.position
        if not capabilities.load_state or position is None or getattr(failure, "where", None) is None:
            return None  # not a difference of the state (a refusal, an impossible position): the game ends
        try:
            back = engine.load_state(position)
        except Rejected:
            return None
        return back if back == position else None

    try:
        walk(engine, plan, [watcher], capabilities.deal, put_back)
    except PropertyFailure as failure:
        note(failure)
    except EngineGaveUp as gave_up:
        error = gave_up.error
        verdict = engine_trouble(error)["verdict"]
        command = (error.request or {}).get("cmd", "?") if isinstance(error.request, dict) else "?"
        found.setdefault(f"{verdict} {command}", FailingGame(
            f"{verdict} {command}", verdict, None, error.message, index, plan_json(plan), gave_up.trace.steps,
            stderr=error.stderr[-2000:] if error.stderr else "", put_back=len(found)))
    return list(found.values())


def _key(failure: PropertyFailure) -> str:
    where = getattr(failure, "where", None) or ("legal-moves " + ("extra" if "listed but illegal"
                                                                    in failure.message else "missing"))
    return f"fail {failure.rule or 'protocol'} {where}"


def _failing(failure: PropertyFailure, plan: GamePlan, index: int, put_back: int) -> FailingGame:
    return FailingGame(_key(failure), Verdict.FAIL, failure.rule, failure.message, index, plan_json(plan),
                       failure.trace.steps if failure.trace else [], _small(failure.expected),
                       _small(failure.actual), put_back=put_back)


def _small(value: Any, limit: int = 4000) -> Any:
    """Keep reports and state files small: a huge expected/actual is cut to its text."""
    text = repr(value)
    return value if len(text) <= limit else text[:limit] + "..."


def trace_of(deviation: FailingGame) -> Trace:
    return Trace(deviation.game_plan(), list(deviation.steps))
