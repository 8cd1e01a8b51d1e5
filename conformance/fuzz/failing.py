"""A failing fuzz game as data: what the lockstep walk (games.py) and the one-request fast path (batched.py)
both report, so that each imports it from here and neither imports the other's caller."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..properties.play import GamePlan
from ..results import Verdict


@dataclass
class FailingGame:
    """A game in which the engine failed: a kind of difference from the reference (or its crash or timeout),
    the first step that showed it, and how to find that game again."""

    key: str  # what kind of difference: the same key twice is the same deviation
    verdict: Verdict  # FAIL, CRASH or TIMEOUT
    rule: str | None
    message: str
    index: int  # the game's index in the campaign
    plan: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    expected: Any = None
    actual: Any = None
    stderr: str = ""
    put_back: int = 0  # the differences before it in its game, after each of which the engine was put back

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "FailingGame":
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**{**fields, "verdict": Verdict(fields["verdict"])})

    def game_plan(self) -> GamePlan:
        plan = dict(self.plan)
        plan["choices"] = tuple(plan.get("choices", ()))
        return GamePlan(**plan)


def plan_json(plan: GamePlan) -> dict[str, Any]:
    data = asdict(plan)
    data["choices"] = list(plan.choices)
    return data
