"""`azul conform -j N`: the cases shared among N worker processes, each with its own engine.

Each worker is a process of its own with its own engine (a process for a command, an in-process engine for
`py:` factories and the bundled reference), running the cases it is handed one at a time with the same options
as a run on one engine, so a case gets the same verdict on any worker. The processes are a processes.Crew:
started (forked where the platform allows it, else spawned), ended and replaced there; this module is the policy
of which cases go to which worker, and when a worker is given up.

The work is handed out longest first: the properties (each plays many games) before the scenarios (a few
requests each), so that no worker is left with a long case at the end while the others idle. The properties
are handed out as soon as the workers start, while this process is still loading the scenario files, so that
loading them costs no time of the workers'. Each worker has up to DEPTH cases waiting, so that it never waits
for this process between two cases. Results are passed on in the order of the cases, so the reports read as
those of `-j 1`; the progress display hears of each case as it starts and ends.

Isolation: a crash or a hang is that case's verdict and the worker restarts its engine (harness/runner.py's
Lane); a worker whose engine cannot be restarted reports the cases it is handed as not_run. A worker process
that dies is replaced, its case an error, the cases waiting for it handed to others. A case that overruns its
budget by more than GRACE plus the engine's `--timeout` (a call into an in-process engine that never returns
cannot be cut between requests) ends its worker, which is replaced; the case is out_of_time with nothing kept.
"""

from __future__ import annotations

import collections
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..budget import run_budget_text
from ..engines.base import EngineError, EngineInfo
from ..processes import Crew, Ended, Worker
from ..results import CaseKind, CaseResult, Verdict
from .cases import Case, property_cases
from .runner import Lane, RunOptions, _result

GRACE = 2.0  # seconds beyond a budget (and the engine's --timeout) before a worker is ended
TICK = 0.25  # seconds between the main process's checks of the budgets
DEPTH = 2  # cases handed to a worker ahead: the one it runs and the next


def default_jobs() -> int:
    """The number of cores this process may run on."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def schedule(cases: list[Case] | tuple[Case, ...]) -> list[Case]:
    """The order in which cases are handed out: the properties (many games each) first, then the scenarios with
    the most steps; stable, so that the order is the same in every run."""
    def cost(case: Case) -> tuple[int, int]:
        if case.kind is CaseKind.PROPERTY:
            return (0, 0)
        return (1, -len(getattr(case.payload, "steps", ()) or ()))
    return sorted(cases, key=cost)


# -- a worker process ------------------------------------------------------------------------------------------

def _worker(conn, moves, session, options: RunOptions) -> None:
    """Open the engine, say which it is (or why it cannot start), then run each case received: a scenario's
    Case, or a property's id (its checks are code, found here by id). `moves`: the moves its engine played."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # ended by the main process: close the engine first
    engine = None
    try:
        try:
            engine = session.open_engine()
        except EngineError as error:
            conn.send(("dead", error.message, error.stderr))
            return
        conn.send(("ready", engine.info))
        lane = Lane(engine, options, moves)
        properties = {case.id: case for case in property_cases()}
        while (task := conn.recv()) is not None:
            key, case = task
            conn.send(("result", key, lane.run(properties[case] if isinstance(case, str) else case)))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the main process has gone or ended the run
    finally:
        if engine is not None:
            engine.close()


@dataclass
class _Worker:
    process: Worker
    queue: collections.deque = field(default_factory=collections.deque)  # keys handed, the first running
    since: float = 0.0  # monotonic time its first key started
    ready: bool = False
    info: EngineInfo | None = None


class EngineWontStart(EngineError):
    """No worker could start the engine: the run's setup error."""


class Workers:
    """N worker processes; `add` the cases as they are known (the properties first), `run` gathers the results
    in the order of all the cases."""

    def __init__(self, session: Any, options: RunOptions, jobs: int) -> None:
        self.session, self.options = session, options
        self.crew = Crew(_worker, (session, options), jobs, name="azul-conform-worker", counted=True)
        self._workers = [_Worker(process) for process in self.crew.workers]
        self._retired_moves = 0  # moves of workers ended and replaced
        self.tasks: list[Case] = []  # every case added; a task's key is its place here
        self.waiting: collections.deque[int] = collections.deque()  # keys not handed yet, in handing order
        self.results: dict[int, CaseResult] = {}
        self.on_start: Callable[[Case], None] | None = None
        self.problem: EngineError | None = None  # why a worker could not start the engine
        self.on_done: Callable[[CaseResult], None] | None = None

    def add(self, cases: list[Case]) -> None:
        """Cases to run, handed out longest first after those added before; to idle workers at once."""
        for case in schedule(cases):
            self.waiting.append(len(self.tasks))
            self.tasks.append(case)
        self._hand()

    def moves(self) -> int:
        return self._retired_moves + sum(worker.process.count.value for worker in self._workers)

    def engine_info(self) -> EngineInfo:
        """The engine's hello, from the first worker ready; EngineWontStart when none can start it."""
        while True:
            for worker in self._workers:
                if worker.ready:
                    return worker.info
            if not self._workers:
                raise self.problem or EngineWontStart("the worker processes ended before the engine started")
            self._wait()

    # -- handing out and gathering ---------------------------------------------------------------------------

    def _hand(self) -> None:
        if self.options.run_over():
            while self.waiting:
                key = self.waiting.popleft()
                self._settle(key, _result(self.tasks[key], Verdict.NOT_RUN,
                                          f"not run: {run_budget_text(self.options.budget or 0)} before this case"))
            return
        for worker in self._workers:
            while worker.ready and len(worker.queue) < DEPTH and self.waiting:
                key = self.waiting.popleft()
                case = self.tasks[key]
                worker.process.send((key, case.id if case.kind is CaseKind.PROPERTY else case))
                worker.queue.append(key)
                if len(worker.queue) == 1:
                    self._begin(worker)

    def _begin(self, worker: _Worker) -> None:
        worker.since = time.monotonic()
        if self.on_start:
            self.on_start(self.tasks[worker.queue[0]])

    def _settle(self, key: int, result: CaseResult) -> None:
        self.results[key] = result
        if self.on_done:
            self.on_done(result)

    def _wait(self) -> None:
        """Take in what the workers said within TICK seconds; end those dead or stuck past their budget."""
        ready = self.crew.wait(TICK)
        for worker in list(self._workers):
            if worker.process in ready:
                message = worker.process.receive()
                if isinstance(message, Ended):
                    self._lose(worker, "the worker process running this case died")
                elif message[0] == "ready":
                    worker.ready, worker.info = True, message[1]
                elif message[0] == "result":
                    worker.queue.popleft()
                    self._settle(message[1], message[2])
                    if worker.queue:
                        self._begin(worker)
                elif message[0] == "dead":  # the engine could not be started
                    self.problem = EngineWontStart(message[1], stderr=message[2])
                    self._retire(worker)
            elif worker.queue and self._overdue(worker):
                self._lose(worker, None)
        self._hand()

    def run(self, order: list[Case], on_result: Callable[[CaseResult], None] | None = None,
            on_start: Callable[[Case], None] | None = None,
            on_done: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
        """Every case of `order` (all of them added), the results passed to `on_result` in that order."""
        self.on_start, self.on_done = on_start, on_done
        for key in (w.queue[0] for w in self._workers if w.queue):  # already running: tell the display
            if on_start:
                on_start(self.tasks[key])
        for result in self.results.values():  # already judged
            if on_done:
                on_done(result)
        key_of = {id(case): key for key, case in enumerate(self.tasks)}
        keys = [key_of[id(case)] for case in order]
        handed = 0
        while handed < len(keys):
            while handed < len(keys) and keys[handed] in self.results:
                if on_result:
                    on_result(self.results[keys[handed]])
                handed += 1
            if handed == len(keys):
                break
            if not self._workers:  # none left (none can start the engine again)
                why = f"not run: {self.problem.message if self.problem else 'no worker process is left'}"
                while self.waiting:
                    key = self.waiting.popleft()
                    self._settle(key, _result(self.tasks[key], Verdict.NOT_RUN, why))
                continue
            self._wait()
        return [self.results[key] for key in keys]

    def judged(self) -> dict[int, CaseResult]:
        """Every result in hand, by id() of its case, those not yet passed on included, and those the workers
        have sent but this process not yet read: what an interrupted run keeps."""
        for worker in self._workers:
            for message in worker.process.sent():
                if message[0] == "result":
                    self.results[message[1]] = message[2]
        return {id(self.tasks[key]): result for key, result in self.results.items()}

    def _overdue(self, worker: _Worker) -> bool:
        deadline, _ = self.options.deadline(worker.since)
        return deadline is not None and time.monotonic() > deadline + GRACE + (self.session.timeout or 0)

    def _lose(self, worker: _Worker, why: str | None) -> None:
        """End a worker (dead, or stuck past its case's budget), judge its case, hand back the cases waiting for
        it, and start another worker in its place."""
        keys = list(worker.queue)
        self._retire(worker, replace=worker.ready and not self.options.run_over())  # one that never started: not
        if not keys:
            return
        self.waiting.extendleft(reversed(keys[1:]))
        case = self.tasks[keys[0]]
        if why is None:
            _, budget = self.options.deadline(worker.since)
            result = _result(case, Verdict.OUT_OF_TIME, f"{budget}; the engine did not come back within "
                             f"{GRACE + self.session.timeout:g} s, so its worker process was ended (nothing of the "
                             "case kept)")
        else:
            result = _result(case, Verdict.ERROR, f"{why} (exit status {worker.process.exit_code})")
        self._settle(keys[0], result)

    def _retire(self, worker: _Worker, replace: bool = False) -> None:
        """End a worker (sent SIGTERM too when it is running a case, on which it closes its engine) and drop it;
        with `replace`, another in its place."""
        new = self.crew.retire(worker.process, busy=bool(worker.queue), replace=replace, grace=GRACE)
        self._retired_moves += worker.process.count.value
        self._workers.remove(worker)
        if new is not None:
            self._workers.append(_Worker(new))

    def close(self) -> None:
        """Ask each worker to stop (an idle one closes its engine and exits; a busy one is sent SIGTERM, on which
        it closes its engine too), and wait for all of them together."""
        self.crew.close(busy=[worker.process for worker in self._workers if worker.queue], grace=GRACE)
        self._retired_moves += sum(worker.process.count.value for worker in self._workers)
        self._workers = []
