"""Running the cases against one engine, each isolated: a crash or a hang becomes that case's verdict (with the
request, the stderr tail and the exit code), the engine is restarted, and the run goes on. If the engine cannot
be restarted, the remaining cases are `not_run`, with the reason.

Budgets (budget.py): a case that overruns `case_timeout`, or is running when the run's `budget` runs out, is cut
between two requests and judged `out_of_time` with what it checked so far; cases not started once the run's
budget has run out are `not_run`, saying so.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Callable

from ..budget import Count, Metered, OutOfTime, Tally, case_budget_text, run_budget_text
from ..engines.base import Capabilities, Engine, EngineCrash, EngineError, EngineInfo, EngineTimeout
from ..engines.opening import EngineSource
from ..engines.recording import NotInRecording
from ..results import CaseKind, CaseResult, Verdict, engine_trouble
from ..scenario import run_scenario
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
    case_timeout: float | None = None  # seconds a case may take (--case-timeout)
    budget: float | None = None  # seconds the run may take (--budget), ending at run_deadline
    run_deadline: float | None = None  # a time.monotonic() value: the same clock in every worker process

    def deadline(self, started: float) -> tuple[float | None, str]:
        """When a case started at `started` (monotonic) must stop, and why; (None, "") without a budget."""
        limits = []
        if self.case_timeout is not None:
            limits.append((started + self.case_timeout, case_budget_text(self.case_timeout)))
        if self.run_deadline is not None and self.budget is not None:
            limits.append((self.run_deadline, run_budget_text(self.budget)))
        return min(limits) if limits else (None, "")

    def run_over(self) -> bool:
        return self.run_deadline is not None and time.monotonic() >= self.run_deadline


class Lane:
    """One engine running cases one after another (`-j 1`, or one worker of `-j N`): crash, hang and budget
    bookkeeping between cases. `moves` counts the moves played, for the progress display."""

    def __init__(self, engine: Engine, options: RunOptions, moves: Count | None = None) -> None:
        self.engine, self.options, self.moves = engine, options, moves
        self.dead: str | None = None  # why the engine cannot go on
        self.silent = 0  # cases in a row that ended in a timeout

    def run(self, case: Case) -> CaseResult:
        if self.dead:
            return _result(case, Verdict.NOT_RUN, f"not run: {self.dead}")
        if self.options.run_over():
            return _result(case, Verdict.NOT_RUN, f"not run: {run_budget_text(self.options.budget or 0)} "
                                                  "before this case")
        self.engine.begin_case(case.id)
        result = run_case(self.engine, case, self.engine.info.capabilities, self.options, self.moves)
        self.silent = self.silent + 1 if result.verdict is Verdict.TIMEOUT else 0
        if self.silent >= self.options.timeouts_in_a_row:
            self.dead = f"the engine timed out on {self.silent} cases in a row; the run stopped"
        elif result.verdict in (Verdict.CRASH, Verdict.TIMEOUT):
            self.dead = _restart(self.engine)  # the case's last request: a recording holds it with the case's
        unjudged = self.engine.end_case()
        if unjudged and result.verdict is not Verdict.SKIP:  # a skip asks nothing: the hello decided it
            result = _judged(case, _result(case, Verdict.NOT_RUN, unjudged))
            self.dead = None  # a crash the recording did not hold is no crash of the engine
        if result.verdict is Verdict.NOT_RUN and case.kind is CaseKind.PROPERTY and self.options.counterexample_dir:
            # a failure found on answers the recording did not hold all of: its game stands for nothing
            (Path(self.options.counterexample_dir) / f"{case.id}.yaml").unlink(missing_ok=True)
        return result


class OneLane:
    """A run's cases on this process's one engine, in their order (-j 1): the interface of parallel.Workers,
    so that a session runs its plan the same way on one engine or on N worker processes."""

    def __init__(self, source: EngineSource, options: RunOptions) -> None:
        self.engine = source.open()  # EngineError when it cannot start: the session says so
        self.count = Tally()
        self.lane = Lane(self.engine, options, self.count)
        self.results: dict[int, CaseResult] = {}  # by id() of its case

    def add(self, cases: list[Case]) -> None:
        """Nothing to hand out ahead: the cases run in the order `run` is given."""

    def engine_info(self) -> EngineInfo:
        return self.engine.info

    def moves(self) -> int:
        return self.count.value

    def run(self, order: list[Case], on_result: Callable[[CaseResult], None] | None = None,
            on_start: Callable[[Case], None] | None = None,
            on_done: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
        """Each case of `order` in turn; each hook hears of it as it starts, ends and is passed on."""
        for case in order:
            if on_start:
                on_start(case)
            result = self.results[id(case)] = self.lane.run(case)
            for hook in (on_done, on_result):
                if hook:
                    hook(result)
        return [self.results[id(case)] for case in order]

    def judged(self) -> dict[int, CaseResult]:
        """Every result so far, by id() of its case (each already passed on: one engine judges in order)."""
        return dict(self.results)

    def close(self) -> None:
        self.engine.close()


def run_cases(engine: Engine, cases: list[Case], options: RunOptions | None = None,
              on_result: Callable[[CaseResult], None] | None = None,
              on_start: Callable[[Case], None] | None = None, moves: Count | None = None) -> list[CaseResult]:
    """Each case in turn on `engine`; `on_start` hears of a case as it starts, `on_result` gets each result."""
    lane = Lane(engine, options or RunOptions(), moves)
    results: list[CaseResult] = []
    for case in cases:
        if on_start:
            on_start(case)
        result = lane.run(case)
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


def run_case(engine: Engine, case: Case, capabilities: Capabilities, options: RunOptions,
             moves: Count | None = None) -> CaseResult:
    missing = case.missing(capabilities)
    if missing:
        return _judged(case, _result(case, Verdict.SKIP, f"the engine does not offer {', '.join(missing)}"))
    started = time.perf_counter()
    metered = Metered(engine, *options.deadline(time.monotonic()), moves=moves)
    try:
        result = _run(metered, case, capabilities, options)
    except NotInRecording as stray:  # a recording played back that does not hold this case's requests
        result = _result(case, Verdict.NOT_RUN, stray.message)
    except OutOfTime as cut:  # a scenario (a property says more, itself): the requests it got through
        result = _result(case, Verdict.OUT_OF_TIME, f"{cut.message} after {metered.requests} requests, "
                         "no failure found before", details={"requests": metered.requests})
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
        return run_scenario(engine, case.payload, capabilities)
    # deferred: the properties load hypothesis (0.3 s), which scenarios alone never need
    from ..properties.suite import run_property

    return run_property(engine, case.payload, capabilities, options.examples, options.seed,
                        counterexample_dir=options.counterexample_dir)


def _result(case: Case, verdict: Verdict, message: str = "", **fields) -> CaseResult:
    return CaseResult(case.id, case.kind, verdict, title=case.title, rules=case.rules, where=case.where,
                      message=message, **fields)
