"""Verdicts are data: every case ends as one CaseResult, whatever the engine did.

    pass      the engine did what the case expects
    fail      it did something else (a wrong value, an illegal move accepted, a legal one refused...)
    error     the engine answered `internal`, or its adapter raised something unexpected
    crash     the process exited, wrote something that is not a reply, or answered with the wrong id
    timeout   no reply before the deadline
    skip      the case needs a capability the engine does not offer (never a pass; the reason is given)
    not_run   the run stopped before the case (the engine could not be restarted, or the run was interrupted)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

VERDICTS = ("pass", "fail", "error", "crash", "timeout", "skip", "not_run")
BAD = ("fail", "error", "crash", "timeout")  # any of these makes `azul conform` exit non-zero


@dataclass
class CaseResult:
    id: str
    kind: str  # scenario or property
    verdict: str
    title: str = ""
    rules: list[str] = field(default_factory=list)
    rule: str | None = None  # the rule the failure breaks, when known more precisely than `rules`
    where: str = ""  # file:line of the scenario, or the property's name
    message: str = ""
    expected: Any = None
    actual: Any = None
    diff: str = ""
    request: Any = None  # crash/timeout: the request that got no proper reply
    stderr: str = ""  # crash/timeout: the tail of the engine's stderr
    exit_code: int | None = None
    counterexample: str | None = None  # path of the minimal failing case written as a scenario
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}; expected one of {', '.join(VERDICTS)}")
        if self.verdict == "skip" and not self.message:
            raise ValueError(f"{self.id}: a skip must say why")

    @property
    def bad(self) -> bool:
        return self.verdict in BAD

    @property
    def main_rule(self) -> str:
        """The rule this result is filed under in rule-by-rule reports."""
        return self.rule or (self.rules[0] if self.rules else "protocol")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {k: v for k, v in data.items() if v not in (None, "", [], {}) or k in ("id", "verdict")}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CaseResult":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known.setdefault("kind", "scenario")
        return cls(**known)


def tally(results: list[CaseResult]) -> dict[str, int]:
    counts = dict.fromkeys(VERDICTS, 0)
    for result in results:
        counts[result.verdict] += 1
    return counts
