"""`azul conform -j N`: the cases shared among N worker processes, each with its own engine process.

Each worker collects the same cases as the session (collection is deterministic) and runs the ones it is
handed, by index, with the same options as a run on one engine, so a case gets the same verdict on any worker;
results are handed on in the order of the cases, so the reports read as those of `-j 1`. A crash or a hang is
isolated as on one engine: that case's verdict, then the worker's engine is restarted; a worker whose engine
cannot be restarted reports its remaining cases as not_run.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import multiprocessing.util
from typing import Callable

from ..engines.base import EngineError
from ..results import CaseResult, Verdict
from .cases import Case
from .runner import RunOptions, _restart, _result, run_case

_WORKER: dict = {}  # this worker process's engine, cases and state


def _start_worker(session, ids: tuple[str, ...]) -> None:
    from .session import collect, open_engine

    cases = collect(session).cases
    if tuple(case.id for case in cases) != ids:  # never expected: collection is deterministic
        raise RuntimeError("a worker collected other cases than the session")
    _WORKER.update(session=session, cases=cases, dead=None)
    try:
        _WORKER["engine"] = open_engine(session)
    except EngineError as error:
        _WORKER["engine"], _WORKER["dead"] = None, f"the engine could not be started: {error.message}"
    else:  # end the engine when the worker ends (a pool's worker exits without running atexit)
        multiprocessing.util.Finalize(None, _WORKER["engine"].close, exitpriority=10)


def _run_one(index: int, options: RunOptions) -> CaseResult:
    case: Case = _WORKER["cases"][index]
    if _WORKER["dead"]:
        return _result(case, Verdict.NOT_RUN, f"not run: {_WORKER['dead']}")
    engine = _WORKER["engine"]
    result = run_case(engine, case, engine.info.capabilities, options)
    if result.verdict in (Verdict.CRASH, Verdict.TIMEOUT):
        _WORKER["dead"] = _restart(engine)
    return result


def run_cases_parallel(session, cases: list[Case], options: RunOptions, jobs: int,
                       on_result: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    """Run `cases` (the session's collected cases) on `jobs` worker processes; results in case order."""
    ids = tuple(case.id for case in cases)
    results: list[CaseResult | None] = [None] * len(cases)
    handed = 0  # results before this index have gone to on_result
    with cf.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                initializer=_start_worker, initargs=(session, ids)) as pool:
        futures = {pool.submit(_run_one, index, options): index for index in range(len(cases))}
        try:
            for future in cf.as_completed(futures):
                index = futures[future]
                try:
                    results[index] = future.result()
                except Exception as error:  # noqa: BLE001 - a worker that died: its case is an error
                    results[index] = _result(cases[index], Verdict.ERROR,
                                             f"the worker process running this case failed: "
                                             f"{type(error).__name__}: {error}")
                while handed < len(cases) and results[handed] is not None:
                    if on_result:
                        on_result(results[handed])
                    handed += 1
        finally:
            for future in futures:
                future.cancel()
    return [r for r in results if r is not None]
