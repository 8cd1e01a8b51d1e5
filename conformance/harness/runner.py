"""Running the cases against one engine, each isolated: a crash or a hang becomes that case's verdict (with the
request, the stderr tail and the exit code), the engine is restarted, and the run goes on. If the engine cannot
be restarted, the remaining cases are `not_run`, with the reason.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

from ..engines.base import Capabilities, Engine, EngineCrash, EngineError, EngineTimeout
from ..results import CaseKind, CaseResult, Verdict, engine_trouble
from .cases import Case
from .findings import judge


@dataclass(frozen=True)
class RunOptions:
    examples: int = 50
    seed: int = 0
    counterexample_dir: str | None = None  # where minimal failing games are written as scenarios
    # An engine that stops answering after hello would cost a full timeout per case: after this many cases in
    # a row end in a timeout, the rest are not run.
    timeouts_in_a_row: int = 3


def run_cases(engine: Engine, cases: list[Case], options: RunOptions | None = None,
              on_result: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    options = options or RunOptions()
    capabilities = engine.info.capabilities
    results: list[CaseResult] = []
    dead: str | None = None  # why the engine cannot go on
    silent = 0  # cases in a row that ended in a timeout
    for case in cases:
        if dead:
            result = _result(case, Verdict.NOT_RUN, f"not run: {dead}")
        else:
            result = run_case(engine, case, capabilities, options)
            silent = silent + 1 if result.verdict is Verdict.TIMEOUT else 0
            if silent >= options.timeouts_in_a_row:
                dead = f"the engine timed out on {silent} cases in a row; the run stopped"
            elif result.verdict in (Verdict.CRASH, Verdict.TIMEOUT):
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
        return _judged(case, _result(case, Verdict.SKIP, f"the engine does not offer {', '.join(missing)}"))
    started = time.perf_counter()
    try:
        result = _run(engine, case, capabilities, options)
    except (EngineCrash, EngineTimeout) as error:
        result = _result(case, **engine_trouble(error))
    except Exception as error:  # noqa: BLE001 - a bug anywhere still ends as a verdict
        result = _result(case, Verdict.ERROR, f"{type(error).__name__}: {error}")
    return _judged(case, dataclasses.replace(result, seconds=round(time.perf_counter() - started, 4)))


def _judged(case: Case, result: CaseResult) -> CaseResult:
    """With its level and deviation key (findings.py); the size ranks the cases of a deviation."""
    if case.kind is CaseKind.SCENARIO:
        scenario = case.payload
        return judge(result, scenario.level, len(scenario.steps) + len(scenario.expect))
    steps = result.details.get("game", {}).get("steps")
    return judge(result, None, len(steps) if steps is not None else None)


def _run(engine: Engine, case: Case, capabilities: Capabilities, options: RunOptions) -> CaseResult:
    if case.kind is CaseKind.SCENARIO:
        from ..scenario import run_scenario

        return run_scenario(engine, case.payload, capabilities)
    from ..properties.suite import run_property

    return run_property(engine, case.payload, capabilities, options.examples, options.seed,
                        counterexample_dir=options.counterexample_dir)


def _result(case: Case, verdict: Verdict, message: str = "", **fields) -> CaseResult:
    return CaseResult(case.id, case.kind, verdict, title=case.title, rules=case.rules, where=case.where,
                      message=message, **fields)
