"""Running the cases against one engine, each isolated: a crash or a hang becomes that case's verdict (with the
request, the stderr tail and the exit code), the engine is restarted, and the run goes on. If the engine cannot
be restarted, the remaining cases are `not_run`, with the reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..engines.base import Capabilities, Engine, EngineCrash, EngineError, EngineTimeout
from .cases import Case
from .verdicts import CaseResult


@dataclass
class RunOptions:
    examples: int = 50
    seed: int = 0
    counterexample_dir: str | None = None  # where minimal failing games are written as scenarios


def run_cases(engine: Engine, cases: list[Case], options: RunOptions | None = None,
              on_result: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    options = options or RunOptions()
    capabilities = engine.info.capabilities
    results: list[CaseResult] = []
    dead: str | None = None  # why the engine cannot go on
    for case in cases:
        if dead:
            result = _base(case, "not_run", f"not run: {dead}")
        else:
            result = run_case(engine, case, capabilities, options)
            if result.verdict in ("crash", "timeout"):
                dead = _restart(engine)
        results.append(result)
        if on_result:
            on_result(result)
    return results


def _restart(engine: Engine) -> str | None:
    try:
        engine.restart()
    except EngineError as error:
        return f"the engine could not be restarted after a crash: {error.message}"
    return None


def run_case(engine: Engine, case: Case, capabilities: Capabilities, options: RunOptions) -> CaseResult:
    missing = case.missing(capabilities)
    if missing:
        return _base(case, "skip", f"the engine does not offer {', '.join(missing)}")
    started = time.perf_counter()
    try:
        if case.kind == "scenario":
            result = _scenario(engine, case)
        else:
            result = _property(engine, case, capabilities, options)
    except (EngineCrash, EngineTimeout) as error:
        result = _engine_trouble(case, error)
    except Exception as error:  # noqa: BLE001 - a bug anywhere still ends as a verdict
        result = _base(case, "error", f"{type(error).__name__}: {error}")
    result.seconds = round(time.perf_counter() - started, 4)
    return result


def _base(case: Case, verdict: str, message: str = "", **more) -> CaseResult:
    return CaseResult(case.id, case.kind, verdict, title=case.title, rules=list(case.rules), where=case.where,
                      message=message, **more)


def _engine_trouble(case: Case, error: EngineError, message: str | None = None) -> CaseResult:
    verdict = "timeout" if isinstance(error, EngineTimeout) else "crash"
    return _base(case, verdict, message or error.message, request=error.request, stderr=error.stderr,
                 exit_code=getattr(error, "exit_code", None))


def _scenario(engine: Engine, case: Case) -> CaseResult:
    from ..scenario import run_scenario

    outcome = run_scenario(engine, case.payload)
    if outcome.verdict in ("crash", "timeout"):
        error = getattr(engine, "last_error", None)
        if error is not None:
            return _engine_trouble(case, error, outcome.message)
        return _base(case, outcome.verdict, outcome.message, stderr=outcome.diff)
    return _base(case, outcome.verdict, outcome.message or ("" if outcome.verdict != "skip" else "skipped"),
                 expected=outcome.expected, actual=outcome.actual, diff=outcome.diff,
                 details={"failures": list(outcome.failures)} if outcome.failures else {})


def _property(engine: Engine, case: Case, capabilities: Capabilities, options: RunOptions) -> CaseResult:
    from ..engines.reference import ReferenceEngine
    from ..properties.suite import run_property

    prop = case.payload
    reference = ReferenceEngine(options.seed) if prop.needs_reference or options.counterexample_dir else None
    outcome = run_property(engine, prop, capabilities, options.examples, options.seed, reference)
    details = {"examples": outcome.examples}
    if outcome.trace is not None:
        details["game"] = {"plan": vars(outcome.trace.plan), "steps": outcome.trace.steps}
    if outcome.engine_error is not None:
        result = _engine_trouble(case, outcome.engine_error)
        result.details = details
        return result
    result = _base(case, outcome.verdict, outcome.message, rule=outcome.rule, expected=outcome.expected,
                   actual=outcome.actual, details=details)
    if outcome.verdict == "fail" and outcome.trace is not None and options.counterexample_dir:
        result.counterexample = _write(case, outcome, reference, engine, options.counterexample_dir)
    return result


def _write(case: Case, outcome, reference: Engine, engine: Engine, folder: str) -> str | None:
    from ..properties.counterexample import write_counterexample

    try:
        actual = outcome.actual if isinstance(outcome.actual, dict) and "format" in outcome.actual else None
        path = write_counterexample(folder, case.id, outcome.rule, outcome.message, outcome.trace,
                                    reference, actual or _engine_state(engine))
    except (OSError, EngineError, ValueError) as error:
        return f"(not written: {error})"
    return str(Path(path))


def _engine_state(engine: Engine):
    try:
        return engine.state()
    except EngineError:
        return None
