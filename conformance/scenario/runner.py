"""The runner: one scenario against any Engine, judged as a verdict (never a traceback).

    run_scenario(engine, scenario) -> CaseResult
Verdicts: pass; fail (the engine disagrees with the scenario: a wrong value, a legal move refused, an
illegal one accepted, a wrong error code or rule, a state changed by a refused move); skip (a capability
is missing, or the engine answered `unsupported`; the reason is always given); error (the engine answered
`internal`, or the adapter raised something unexpected); crash and timeout (from the adapter).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from ..engines.base import Capabilities, Engine, EngineCrash, EngineError, EngineTimeout, Rejected
from . import checks as judge
from .model import Scenario, Step

VERDICTS = ("pass", "fail", "error", "skip", "crash", "timeout")


@dataclass(frozen=True)
class CaseResult:
    id: str
    where: str  # file:line of the scenario (or of the step/assertion that failed, in `failures`)
    verdict: str
    message: str = ""
    rules: tuple[str, ...] = ()
    expected: Any = None  # the first failing check's expected value (or the expected rejection)
    actual: Any = None
    diff: str = ""  # every failure, ready to print
    failures: tuple[dict[str, Any], ...] = ()
    state: dict[str, Any] | None = field(default=None, compare=False)  # the engine's last state

    @property
    def ok(self) -> bool:
        return self.verdict in ("pass", "skip")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "where": self.where, "verdict": self.verdict, "message": self.message,
                "rules": list(self.rules), "expected": self.expected, "actual": self.actual, "diff": self.diff,
                "failures": list(self.failures)}


class _Verdict(Exception):
    """Stops a run early with a verdict."""

    def __init__(self, verdict: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.verdict, self.message, self.details = verdict, message, details


def capabilities_of(engine: Engine) -> Capabilities:
    info = getattr(engine, "info", None)
    return info.capabilities if info is not None else engine.hello().capabilities


def run_scenario(engine: Engine, scenario: Scenario, capabilities: Capabilities | None = None,
                 strict_rules: bool = True) -> CaseResult:
    """Run one scenario. `strict_rules`: a rejection naming another rule than expected fails (an engine
    that names no rule is not judged on it)."""
    base = {"id": scenario.id, "where": scenario.where, "rules": scenario.rules}
    missing = (capabilities or capabilities_of(engine)).missing(scenario.needs)
    if missing:
        return CaseResult(verdict="skip", message=f"the engine does not offer {', '.join(missing)}", **base)
    state: dict[str, Any] | None = None
    try:
        _start(engine, scenario)
        for step in scenario.steps:
            _step(engine, step, strict_rules)
        state = engine.state()
        moves = engine.legal_moves() if any(a.needs_moves for a in scenario.expect) else None
    except _Verdict as stop:
        return CaseResult(verdict=stop.verdict, message=stop.message, state=state, **base, **stop.details)
    except EngineTimeout as error:
        return CaseResult(verdict="timeout", message=error.message, **base)
    except EngineCrash as error:
        return CaseResult(verdict="crash", message=error.message, diff=error.stderr, **base)
    except Rejected as error:  # asked for the state or the moves, and refused
        return CaseResult(verdict="error", message=f"engine refused a query: {_said(error)}", **base)
    except (EngineError, Exception) as error:  # noqa: BLE001 - an adapter bug becomes a verdict
        return CaseResult(verdict="error", message=f"{type(error).__name__}: {error}", **base)
    return _judge(scenario, state, moves, base)


def _start(engine: Engine, scenario: Scenario) -> None:
    given = scenario.given
    try:
        if given.new_game is not None:
            game = given.new_game
            engine.new_game(game.players, game.variant, game.start_player)
        else:
            engine.load_state(given.state)
    except Rejected as error:
        what = "a new game" if given.new_game else "the given position"
        raise _refused(error, f"the engine refused {what} ({given.where})") from None


def _refused(error: Rejected, what: str) -> _Verdict:
    if error.code == "unsupported":
        return _Verdict("skip", f"{what}: unsupported: {error.message}")
    if error.code == "internal":
        return _Verdict("error", f"{what}: {_said(error)}")
    return _Verdict("fail", f"{what}: {_said(error)}", actual=_rejection(error))


def _said(error: Rejected) -> str:
    return f"{error.code}{' ' + error.rule if error.rule else ''}: {error.message}"


def _rejection(error: Rejected) -> dict[str, Any]:
    return {"code": error.code, "rule": error.rule, "message": error.message}


def _apply(engine: Engine, step: Step) -> None:
    if step.kind == "move":
        engine.play(step.move)
    elif step.kind == "deal":
        engine.deal(list(step.factories or ()))
    else:
        engine.deal(None)


def _step(engine: Engine, step: Step, strict_rules: bool) -> None:
    if step.reject is None:
        try:
            _apply(engine, step)
        except Rejected as error:
            raise _refused(error, f"step {step.text!r} ({step.where}) was refused") from None
        return
    before = engine.state()
    expected = {"code": step.reject.code, "rule": step.reject.rule}
    try:
        _apply(engine, step)
    except Rejected as error:
        _judge_rejection(error, step, expected, strict_rules)
    else:
        raise _Verdict("fail", f"step {step.text!r} ({step.where}) was accepted, expected a refusal",
                       expected=expected, actual="accepted")
    after = engine.state()
    if after != before:
        raise _Verdict("fail", f"step {step.text!r} ({step.where}) was refused but changed the state",
                       diff=_json_diff(before, after), expected=before, actual=after)


def _judge_rejection(error: Rejected, step: Step, expected: dict[str, Any], strict_rules: bool) -> None:
    here = f"step {step.text!r} ({step.where})"
    if error.code == "unsupported" and step.reject.code != "unsupported":
        raise _Verdict("skip", f"{here}: unsupported: {error.message}")
    if error.code != step.reject.code:
        raise _Verdict("fail", f"{here}: expected {step.reject.code}, got {_said(error)}",
                       expected=expected, actual=_rejection(error))
    if strict_rules and step.reject.rule and error.rule and error.rule != step.reject.rule:
        raise _Verdict("fail", f"{here}: refused under rule {error.rule}, expected {step.reject.rule}",
                       expected=expected, actual=_rejection(error))


def _json_diff(before: Any, after: Any) -> str:
    a = json.dumps(before, indent=1, sort_keys=True).splitlines()
    b = json.dumps(after, indent=1, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "before", "after", lineterm="", n=2))


def _judge(scenario: Scenario, state: dict[str, Any], moves: list[str] | None, base: dict) -> CaseResult:
    failed, report = [], []
    for assertion in scenario.expect:
        found = judge.failures(assertion, state, moves)
        if not found:
            continue
        problems = [judge.describe(check, actual) for check, actual in found]
        failed.append({"assertion": assertion.text, "where": assertion.where, "problems": problems,
                       "expected": [c.value for c, _ in found],
                       "actual": [None if a is judge.MISSING else a for _, a in found]})
        report.append(f"{assertion.where}: {assertion.text}".replace("\n", "\n    "))
        report += [f"    {problem}" for problem in problems]
        if assertion.board is not None:
            drawing = judge.board_diff(assertion, state)
            report += ["    " + line for line in drawing.splitlines()]
    if not failed:
        return CaseResult(verdict="pass", state=state, **base)
    first = failed[0]
    return CaseResult(verdict="fail", message=f"{len(failed)} of {len(scenario.expect)} assertions failed",
                      expected=first["expected"][0], actual=first["actual"][0], diff="\n".join(report),
                      failures=tuple(failed), state=state, **base)


def run_scenarios(engine: Engine, scenarios: list[Scenario], **options: Any) -> list[CaseResult]:
    """Run many scenarios on one engine; a crash restarts the engine and the run goes on."""
    results = []
    for scenario in scenarios:
        result = run_scenario(engine, scenario, **options)
        results.append(result)
        if result.verdict in ("crash", "timeout"):
            engine.restart()
    return results
