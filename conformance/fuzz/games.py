"""One fuzz game: the engine under test and the reference, in lockstep, judged at every step.

Game `index` of a campaign with seed `seed` is fixed by those two numbers alone (players, variant, start
player, the deals' seed and every move choice), whoever plays it and in whatever order, so a campaign
split over processes or machines plays exactly the games one process would. The first difference from the
reference ends the game as a Deviation, named by the rule it breaks and keyed by the kind of difference, so
that a million games showing the same bug make one deviation, not a million.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engines.base import Capabilities, Engine, EngineTimeout
from ..properties.differential import Differential
from ..properties.play import EngineGaveUp, GamePlan, PropertyFailure, Trace, walk

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


@dataclass
class Deviation:
    """The first difference from the reference in one game, and how to find that game again."""

    key: str  # what kind of difference: the same key twice is the same deviation
    verdict: str  # fail, crash or timeout
    rule: str | None
    message: str
    index: int  # the game's index in the campaign
    plan: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    expected: Any = None
    actual: Any = None
    stderr: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Deviation":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    def game_plan(self) -> GamePlan:
        plan = dict(self.plan)
        plan["choices"] = tuple(plan.get("choices", ()))
        return GamePlan(**plan)


def play_game(engine: Engine, reference: Engine, capabilities: Capabilities, plan: GamePlan,
              index: int, batched: bool = False) -> Deviation | None:
    """Play one game; None when the engine agreed with the reference at every step. With `batched` and an
    engine that offers play_game (and given deals), the game goes first in one request (batched.py) and is
    replayed in lockstep only when the answer differs."""
    if not (batched and capabilities.play_game and capabilities.deal):
        return _lockstep(engine, reference, capabilities, plan, index)
    from .batched import play_batched, reference_game

    script = reference_game(reference, plan)
    differs = play_batched(engine, script, plan)
    if differs is None:
        return None
    found = _lockstep(engine, reference, capabilities, plan, index)
    if found is None:  # what play_game answered is not what the single requests answer
        verdict, why = differs
        found = Deviation(f"{verdict} play_game", verdict, None, f"play_game: {why}; the same game played step "
                          "by step agrees with the reference", index, _plan_json(plan),
                          [{"kind": "deal", "factories": s} if isinstance(s, list) else {"kind": "move", "move": s}
                           for s in script.steps])
    return found


def _lockstep(engine: Engine, reference: Engine, capabilities: Capabilities, plan: GamePlan,
              index: int) -> Deviation | None:
    """Play one game in lockstep, judged at every step."""
    give_deals = capabilities.deal
    try:
        walk(engine, plan, [Differential.following(reference, plan)], give_deals)
    except PropertyFailure as failure:
        where = getattr(failure, "where", None) or ("legal-moves " + ("extra" if "listed but illegal"
                                                                        in failure.message else "missing"))
        key = f"fail {failure.rule or 'protocol'} {where}"
        return Deviation(key, "fail", failure.rule, failure.message, index, _plan_json(plan),
                         failure.trace.steps if failure.trace else [], _small(failure.expected),
                         _small(failure.actual))
    except EngineGaveUp as gave_up:
        error = gave_up.error
        verdict = "timeout" if isinstance(error, EngineTimeout) else "crash"
        command = (error.request or {}).get("cmd", "?") if isinstance(error.request, dict) else "?"
        return Deviation(f"{verdict} {command}", verdict, None, error.message, index, _plan_json(plan),
                         gave_up.trace.steps, stderr=error.stderr[-2000:] if error.stderr else "")
    return None


def _plan_json(plan: GamePlan) -> dict[str, Any]:
    data = asdict(plan)
    data["choices"] = list(plan.choices)
    return data


def _small(value: Any, limit: int = 4000) -> Any:
    """Keep reports and state files small: a huge expected/actual is cut to its text."""
    text = repr(value)
    return value if len(text) <= limit else text[:limit] + "..."


def trace_of(deviation: Deviation) -> Trace:
    return Trace(deviation.game_plan(), list(deviation.steps))
