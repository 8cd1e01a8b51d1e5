"""The runner: one scenario against any Engine, judged as a verdict (never a traceback).

    run_scenario(engine, scenario) -> CaseResult
Checks between steps (`Scenario.checkpoints`) are judged as the steps reach them; the first that fails
ends the run. A refused new game (`Given.reject`) is judged on the refusal alone.
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
from .model import Assertion, Rejection, Scenario, Step

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
        if scenario.given.reject is not None:
            _refused_start(engine, scenario, strict_rules)
            return CaseResult(verdict="pass", **base)
        _start(engine, scenario)
        _checkpoints(engine, scenario, 0)
        for number, step in enumerate(scenario.steps, start=1):
            _step(engine, step, strict_rules)
            _checkpoints(engine, scenario, number)
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


def _refused_start(engine: Engine, scenario: Scenario, strict_rules: bool) -> None:
    game, reject = scenario.given.new_game, scenario.given.reject
    here = f"a new game of {game.players} players, variant {game.variant!r}, start {game.start_player}"
    expected = {"code": reject.code, "rule": reject.rule}
    try:
        engine.new_game(game.players, game.variant, game.start_player)
    except Rejected as error:
        _judge_rejection(error, reject, f"{here} ({scenario.given.where})", expected, strict_rules)
        return
    raise _Verdict("fail", f"{here} ({scenario.given.where}) was accepted, expected a refusal",
                   expected=expected, actual="accepted")


def _checkpoints(engine: Engine, scenario: Scenario, played: int) -> None:
    """Judge the checks placed after `played` steps; the first failing one ends the run with `fail`."""
    for checkpoint in scenario.checkpoints:
        if checkpoint.after != played:
            continue
        state = engine.state()
        moves = engine.legal_moves() if checkpoint.needs_moves else None
        failed, report = _failures(checkpoint.expect, state, moves)
        if failed:
            after = f"step {scenario.steps[played - 1].text!r}" if played else "the start"
            raise _Verdict("fail", f"{len(failed)} of {len(checkpoint.expect)} assertions failed after {after} "
                                   f"({checkpoint.where})", expected=failed[0]["expected"][0],
                           actual=failed[0]["actual"][0], diff="\n".join(report), failures=tuple(failed))


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
        _judge_rejection(error, step.reject, f"step {step.text!r} ({step.where})", expected, strict_rules)
    else:
        raise _Verdict("fail", f"step {step.text!r} ({step.where}) was accepted, expected a refusal",
                       expected=expected, actual="accepted")
    after = engine.state()
    if after != before:
        raise _Verdict("fail", f"step {step.text!r} ({step.where}) was refused but changed the state",
                       diff=_json_diff(before, after), expected=before, actual=after)


def _judge_rejection(error: Rejected, reject: Rejection, here: str, expected: dict[str, Any],
                     strict_rules: bool) -> None:
    if error.code == "unsupported" and reject.code != "unsupported":
        raise _Verdict("skip", f"{here}: unsupported: {error.message}")
    if error.code != reject.code:
        raise _Verdict("fail", f"{here}: expected {reject.code}, got {_said(error)}",
                       expected=expected, actual=_rejection(error))
    if strict_rules and reject.rule and error.rule and error.rule != reject.rule:
        raise _Verdict("fail", f"{here}: refused under rule {error.rule}, expected {reject.rule}",
                       expected=expected, actual=_rejection(error))


def _json_diff(before: Any, after: Any) -> str:
    a = json.dumps(before, indent=1, sort_keys=True).splitlines()
    b = json.dumps(after, indent=1, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "before", "after", lineterm="", n=2))


def _failures(assertions: tuple[Assertion, ...], state: dict[str, Any],
              moves: list[str] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The failing assertions (as CaseResult.failures entries) and the report lines describing them."""
    failed: list[dict[str, Any]] = []
    report: list[str] = []
    for assertion in assertions:
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
    return failed, report


def _judge(scenario: Scenario, state: dict[str, Any], moves: list[str] | None, base: dict) -> CaseResult:
    failed, report = _failures(scenario.expect, state, moves)
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
