"""The one result model: every case of a run, scenario or property, ends as one frozen CaseResult.

A verdict is one member of `Verdict`, and everything the suite does with a verdict (is it bad, was the engine
judged, how severe, its colour in the terminal, its JUnit element) is said in that member's line: adding a
verdict means adding one line here.

    pass      the engine did what the case expects
    differs   it did something else where the rules let an engine choose (implementation-defined): no failure
    fail      it did something else (a wrong value, an illegal move accepted, a legal one refused...)
    error     the engine answered `internal`, refused a query, or its adapter raised something unexpected
    crash     the process exited, wrote something that is not a reply, or answered with the wrong id
    timeout   no reply before the deadline
    skip      the case needs a capability the engine does not offer (never a pass; the reason is given)
    out_of_time  the case's time budget (--case-timeout) or the run's (--budget) ran out during the case: what it
              checked so far is kept (never a pass, never a failure: a limit the user set, not a verdict on the rules)
    not_run   the run stopped before the case (the engine could not be restarted, the run's budget ran out, or
              the run was interrupted)

An engine that crashes or hangs raises EngineCrash or EngineTimeout (engines/base.py); `engine_trouble` is the
one place where such an error becomes a verdict, with the request, the stderr tail and the exit code.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from .engines.base import EngineCrash, EngineError, EngineTimeout
from .readers import clipped as clip
from .readers import safe_text


class Verdict(StrEnum):
    """A verdict, with what follows from it: `bad` (the run exits non-zero), `judged` (the engine was tried),
    `severity` (the worst verdict of a group is its status), `style` (rich) and `junit` (the XML element)."""

    bad: bool
    judged: bool
    severity: int
    style: str
    junit: str | None

    def __new__(cls, value: str, bad: bool, judged: bool, severity: int, style: str, junit: str | None):
        member = str.__new__(cls, value)
        member._value_ = value
        member.bad, member.judged, member.severity, member.style, member.junit = bad, judged, severity, style, junit
        return member

    PASS = "pass", False, True, 2, "green", None
    DIFFERS = "differs", False, True, 3, "cyan", None  # implementation-defined behaviour other than ours
    FAIL = "fail", True, True, 4, "bold red", "failure"
    ERROR = "error", True, True, 5, "red", "error"
    CRASH = "crash", True, True, 7, "bold magenta", "error"
    TIMEOUT = "timeout", True, True, 6, "magenta", "error"
    SKIP = "skip", False, False, 1, "yellow", "skipped"
    OUT_OF_TIME = "out_of_time", False, False, 1, "dark_orange", "skipped"  # a budget ran out (harness/budget.py)
    NOT_RUN = "not_run", False, False, 0, "dim", "skipped"


class Level(StrEnum):
    """What a result is judged against, strictest first: the rulebooks' text, our rulings where they are
    silent or disagree, behaviour the rules leave to the engine."""

    RULE = "rule"
    RULING = "ruling"
    IMPLEMENTATION_DEFINED = "implementation-defined"


class CaseKind(StrEnum):
    SCENARIO = "scenario"
    PROPERTY = "property"
    FUZZ = "fuzz"  # a distinct deviation found by `azul fuzz`


VERDICTS: tuple[Verdict, ...] = tuple(Verdict)


@dataclass(frozen=True)
class CaseResult:
    id: str
    kind: CaseKind
    verdict: Verdict
    title: str = ""
    rules: tuple[str, ...] = ()
    rule: str | None = None  # the rule the failure breaks, when known more precisely than `rules`
    where: str = ""  # file:line of the scenario, or the property's name
    message: str = ""
    expected: Any = None
    actual: Any = None
    diff: str = ""  # every failing assertion, where it is, and what was found: ready to print
    request: Any = None  # crash/timeout: the request that got no proper reply
    stderr: str = ""  # crash/timeout: the tail of the engine's stderr
    exit_code: int | None = None
    counterexample: str | None = None  # path of the minimal failing case written as a scenario
    seconds: float = 0.0
    level: str = ""  # a Level: of the strictest rule a failure depends on, else of what the case checks
    symptom: str = ""  # a failure's key (state field: kind of difference), what it is grouped by undiagnosed
    deviation: str = ""  # the id of the deviation the failure belongs to, once the run is diagnosed
    # failures and the engine's own draws (scenarios), examples and game (properties)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Coerce once here, so that every runner (and a report read back) builds the same thing.
        if not isinstance(self.id, str) or not self.id:  # a report read back: ids are compared and sorted
            raise TypeError(f"a case's id must be a non-empty string, not {self.id!r}"[:200])
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        object.__setattr__(self, "kind", CaseKind(self.kind))
        object.__setattr__(self, "rules", tuple(self.rules))
        # Every result passes here on its way to a report or the terminal: the one place an engine's text (a
        # refusal's message, a state's strings, its stderr) is made safe (readers.safe_text: no control or
        # bidirectional characters) and clipped, however it got in (a report read back included).
        object.__setattr__(self, "id", _safe(self.id))  # not clipped: ids are compared (a report bounds them)
        for name in ("title", "where", "symptom", "deviation", "message"):
            if isinstance(getattr(self, name), str):
                object.__setattr__(self, name, clipped(getattr(self, name)))
        if isinstance(self.diff, str):
            object.__setattr__(self, "diff", clipped(self.diff, DIFF_LIMIT))
        if isinstance(self.stderr, str):
            object.__setattr__(self, "stderr", clipped(self.stderr, STDERR_LIMIT, tail=True))
        for name in ("expected", "actual", "request", "details"):
            object.__setattr__(self, name, _clipped_within(getattr(self, name)))
        if self.verdict is Verdict.SKIP and not self.message:
            raise ValueError(f"{self.id}: a skip must say why")

    @property
    def bad(self) -> bool:
        return self.verdict.bad

    @property
    def main_rule(self) -> str:
        """The rule this result is filed under in rule-by-rule reports."""
        return self.rule or (self.rules[0] if self.rules else "protocol")

    @property
    def failures(self) -> list[dict[str, Any]]:
        """A failing scenario's failing assertions (each with its file:line, expected and actual values)."""
        return list(self.details.get("failures") or [])

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rules"] = list(self.rules)
        return {k: v for k, v in data.items() if v not in (None, "", [], {}) or k in ("id", "verdict")}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CaseResult:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known.setdefault("kind", CaseKind.SCENARIO)
        return cls(**known)


# Bounds of the text a result keeps. An engine's text can be of any length (a refusal of 2 MB) and a report
# repeats it in several places of every row: kept whole, 2 MB refusals made a report folder of 121 MB.
TEXT_LIMIT = 2_000  # one text: a message, a string inside a value or the details
DIFF_LIMIT = 20_000  # the diff: many lines of ours (every failing assertion, a board drawn), each clipped alike
STDERR_LIMIT = 4_096  # the stderr tail, as the subprocess adapter keeps it (engines/subprocess.py STDERR_REPORT)


def clipped(text: str, limit: int = TEXT_LIMIT, *, tail: bool = False) -> str:
    """readers.safe_text and readers.clipped, at a result's bound unless another is given."""
    return clip(_safe(text), limit, tail=tail)


def _inert(text: str) -> bool:
    """Plain printable ASCII: no control, bidirectional or surrogate character can be in it, nothing to make safe
    (decided without safe_text's encoding and translation: a diagnosis passes some 250,000 strings a report)."""
    return type(text) is str and text.isascii() and text.isprintable()


def _safe(text: str) -> str:
    """readers.safe_text, the same object when nothing needed it (the common case)."""
    if _inert(text):
        return text
    safe = safe_text(text)
    return text if safe == text else safe


_PLAIN = (int, float, bool, type(None))


def _clipped_within(value: Any) -> Any:
    """`value` with every string in it clipped; the same object when nothing needed it (the common case). A
    diagnosis builds thousands of results, each with its states in the details: a container is copied only once
    something in it changed."""
    if isinstance(value, str):
        return value if len(value) <= TEXT_LIMIT and _inert(value) else clipped(value)
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, dict):
        copy = None
        for key, item in value.items():
            new = _clipped_within(item)
            if new is not item:
                copy = dict(value) if copy is None else copy
                copy[key] = new
        return value if copy is None else copy
    if isinstance(value, (list, tuple)):
        items = None
        for index, item in enumerate(value):
            new = _clipped_within(item)
            if new is not item:
                items = list(value) if items is None else items
                items[index] = new
        if items is None:
            return value
        return items if isinstance(value, list) else tuple(items)
    return value


def engine_trouble(error: EngineError) -> dict[str, Any]:
    """The verdict and the context of an engine that crashed or hung: CaseResult fields."""
    verdict = Verdict.TIMEOUT if isinstance(error, EngineTimeout) else Verdict.CRASH
    exit_code = error.exit_code if isinstance(error, EngineCrash) else None
    return {"verdict": verdict, "message": error.message, "request": error.request, "stderr": error.stderr,
            "exit_code": exit_code}


def tally(results: list[CaseResult]) -> dict[str, int]:
    counts = dict.fromkeys(map(str, Verdict), 0)
    for result in results:
        counts[result.verdict] += 1
    return counts


def worst(verdicts: set[Verdict] | list[Verdict]) -> Verdict:
    """The status of a group of results: its most severe verdict."""
    return max(verdicts, key=lambda verdict: verdict.severity, default=Verdict.NOT_RUN)
