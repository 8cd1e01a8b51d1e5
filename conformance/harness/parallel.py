"""`azul conform -j N`: the cases shared among N worker processes, each with its own engine.

Each worker is a process of its own with its own engine (a process for a command, an in-process engine for
`py:` factories and the bundled reference), running the cases it is handed one at a time with the same options
as a run on one engine, so a case gets the same verdict on any worker. Workers are forked where the platform
allows it (Linux): they inherit the collected cases and the imported modules and are ready in milliseconds;
elsewhere they are spawned and collect the cases again (collection is deterministic; the ids are checked).

The main process hands the cases out longest first: the properties (each plays many games) before the
scenarios (a few requests each), so that no worker is left with a long case at the end while the others idle.
Results are passed on in the order of the cases, so the reports read as those of `-j 1`; the progress display
hears of each case as it starts and ends.

Isolation: a crash or a hang is that case's verdict and the worker restarts its engine (harness/runner.py's
Lane); a worker whose engine cannot be restarted reports the cases it is handed as not_run. A worker process
that dies is replaced, its case an error. A case that overruns its budget by more than GRACE plus the engine's
`--timeout` (a call into an in-process engine that never returns cannot be cut between requests) ends its
worker, which is replaced; the case is out_of_time with nothing kept.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..budget import run_budget_text
from ..engines.base import EngineError, EngineInfo
from ..results import CaseKind, CaseResult, Verdict
from .cases import Case
from .runner import Lane, RunOptions, _result

GRACE = 2.0  # seconds beyond a budget (and the engine's --timeout) before a worker is ended
TICK = 0.25  # seconds between the main process's checks of the budgets
START_METHOD = "fork" if sys.platform == "linux" else "spawn"  # fork: see the module's docstring


def default_jobs() -> int:
    """The number of cores this process may run on."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def schedule(cases: list[Case] | tuple[Case, ...]) -> list[int]:
    """The order in which cases are handed out: the properties (many games each) first, then the scenarios with
    the most steps; stable, so that the order is the same in every run."""
    def cost(index: int) -> tuple[int, int]:
        case = cases[index]
        if case.kind is CaseKind.PROPERTY:
            return (0, 0)
        payload = case.payload
        return (1, -len(getattr(payload, "steps", ()) or ()))
    return sorted(range(len(cases)), key=cost)


# -- a worker process ------------------------------------------------------------------------------------------

def _worker(conn, session, ids: tuple[str, ...], cases, options: RunOptions, moves, others=()) -> None:
    """Open the engine, say which it is (or why it cannot start), then run each case index received. `others`:
    the main process's ends of the other workers' pipes, inherited by a fork, closed so that each worker sees
    the main process go."""
    from .session import collect, open_engine

    for other in others:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # ended by the main process: close the engine first
    engine = None
    try:
        if cases is None:  # spawned: collect again
            cases = collect(session).cases
            if tuple(case.id for case in cases) != ids:  # never expected: collection is deterministic
                conn.send(("dead", "a worker collected other cases than the session", ""))
                return
        try:
            engine = open_engine(session)
        except EngineError as error:
            conn.send(("dead", error.message, error.stderr))
            return
        conn.send(("ready", engine.info))
        lane = Lane(engine, options, moves)
        while (index := conn.recv()) is not None:
            conn.send(("result", index, lane.run(cases[index])))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the main process has gone or ended the run
    finally:
        if engine is not None:
            engine.close()


@dataclass
class _Worker:
    process: Any
    conn: Any
    moves: Any
    index: int | None = None  # the case it is running
    since: float = 0.0  # monotonic time it started that case
    ready: bool = False
    info: EngineInfo | None = None


class EngineWontStart(EngineError):
    """No worker could start the engine: the run's setup error."""


@dataclass
class Workers:
    """N worker processes and the cases they share; `run` hands the cases out and gathers the results."""

    session: Any
    cases: tuple[Case, ...]
    options: RunOptions
    jobs: int
    _workers: list[_Worker] = field(default_factory=list)
    _retired_moves: int = 0  # moves of workers ended and replaced

    def __post_init__(self) -> None:
        self.context = multiprocessing.get_context(START_METHOD)
        self.ids = tuple(case.id for case in self.cases)
        for _ in range(min(self.jobs, len(self.cases))):
            self._workers.append(self._start())

    def _start(self) -> _Worker:
        mine, theirs = self.context.Pipe()
        moves = self.context.Value("q", 0, lock=False)
        forked = START_METHOD == "fork"
        process = self.context.Process(target=_worker, name="azul-conform-worker", daemon=True,
                                       args=(theirs, self.session, self.ids, self.cases if forked else None,
                                             self.options, moves,
                                             [mine] + [w.conn for w in self._workers] if forked else ()))
        process.start()
        theirs.close()
        return _Worker(process, mine, moves)

    def moves(self) -> int:
        return self._retired_moves + sum(worker.moves.value for worker in self._workers)

    def engine_info(self) -> EngineInfo:
        """The engine's hello, from the first worker ready; EngineWontStart when none can start it."""
        problem = None
        while True:
            for worker in self._workers:
                if worker.ready:
                    return worker.info
            live = [w for w in self._workers if w.process.is_alive() or w.conn.poll()]
            if not live:
                raise problem or EngineWontStart("the worker processes ended before the engine started")
            for conn in multiprocessing.connection.wait([w.conn for w in live], timeout=TICK):
                worker = next(w for w in live if w.conn is conn)
                message = self._receive(worker)
                if message and message[0] == "dead":
                    problem = EngineWontStart(message[1], stderr=message[2])
                    self._retire(worker)

    def _receive(self, worker: _Worker):
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            return None
        if message[0] == "ready":
            worker.ready, worker.info = True, message[1]
        return message

    def run(self, on_result: Callable[[CaseResult], None] | None = None,
            on_start: Callable[[Case], None] | None = None,
            on_done: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
        """Every case, handed out longest first; `on_start` and `on_done` hear of each case as it starts and
        ends, `on_result` gets the results in case order."""
        cases, options = self.cases, self.options
        waiting = schedule(cases)
        waiting.reverse()  # popped from the end
        results: list[CaseResult | None] = [None] * len(cases)
        handed = 0  # results before this index have gone to on_result
        lost: str | None = None  # why no worker is left

        def settle(index: int, result: CaseResult) -> None:
            nonlocal handed
            results[index] = result
            if on_done:
                on_done(result)
            while handed < len(cases) and results[handed] is not None:
                if on_result:
                    on_result(results[handed])
                handed += 1

        def not_run(index: int, why: str) -> None:
            settle(index, _result(cases[index], Verdict.NOT_RUN, f"not run: {why}"))

        while handed < len(cases):
            if options.run_over():
                while waiting:
                    not_run(waiting.pop(), f"{run_budget_text(options.budget or 0)} before this case")
            if lost:
                while waiting:
                    not_run(waiting.pop(), lost)
            for worker in self._workers:
                if worker.ready and worker.index is None and waiting:
                    index = waiting.pop()
                    worker.index, worker.since = index, time.monotonic()
                    if on_start:
                        on_start(cases[index])
                    worker.conn.send(index)
            busy = [w for w in self._workers if w.index is not None or not w.ready]
            if not busy:
                if waiting:  # every worker is gone
                    lost = lost or "no worker process is left"
                    continue
                break
            ready = multiprocessing.connection.wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                                                    timeout=TICK)
            for worker in busy:
                if worker.conn in ready:
                    message = self._receive(worker)
                    if message is None:
                        self._lose(worker, settle, "the worker process running this case died")
                    elif message[0] == "result":
                        worker.index = None
                        settle(message[1], message[2])
                    elif message[0] == "dead":  # a replacement that could not start the engine
                        self._retire(worker)
                        if not any(w.ready for w in self._workers):
                            lost = f"the engine could not be started again: {message[1]}"
                elif worker.process.sentinel in ready and not worker.conn.poll():
                    self._lose(worker, settle, "the worker process running this case died")
                elif worker.index is not None and self._overdue(worker):
                    self._lose(worker, settle, None)
        return [r for r in results if r is not None]

    def _overdue(self, worker: _Worker) -> bool:
        slack = GRACE + (self.session.timeout or 0)
        deadline, _ = self.options.deadline(worker.since)
        return deadline is not None and time.monotonic() > deadline + slack

    def _lose(self, worker: _Worker, settle, why: str | None) -> None:
        """End a worker (dead, or stuck past its case's budget), judge its case, start another in its place."""
        index = worker.index
        self._retire(worker)
        if index is not None:
            case = self.cases[index]
            if why is None:
                _, budget = self.options.deadline(worker.since)
                result = _result(case, Verdict.OUT_OF_TIME, f"{budget}; the engine did not come back within "
                                 f"{GRACE + self.session.timeout:g} s, so its worker process was ended (nothing "
                                 "of the case kept)")
            else:
                result = _result(case, Verdict.ERROR, f"{why} (exit status {worker.process.exitcode})")
            settle(index, result)
        if not self.options.run_over():
            self._workers.append(self._start())

    def _retire(self, worker: _Worker) -> None:
        self._end([worker])
        self._retired_moves += worker.moves.value
        self._workers.remove(worker)

    @staticmethod
    def _end(workers: list[_Worker]) -> None:
        """Ask each worker to stop (an idle one closes its engine and exits; a busy one is sent SIGTERM, on which
        it closes its engine too), then wait for all of them together."""
        for worker in workers:
            try:
                worker.conn.send(None)
            except (OSError, ValueError):
                pass
            if worker.index is not None:
                worker.process.terminate()
        ends = time.monotonic() + GRACE
        for worker in workers:
            worker.process.join(max(ends - time.monotonic(), 0))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()

    def close(self) -> None:
        self._end(self._workers)
        self._retired_moves += sum(worker.moves.value for worker in self._workers)
        self._workers = []

