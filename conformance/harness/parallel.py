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
that dies is replaced, its case an error, the cases waiting for it handed to others. A call into an in-process
engine that never returns cannot be cut between requests: each call says by when it must end (the engine's
`--timeout`, one for each request it stands for), and a worker whose call is GRACE past that, or whose case is
GRACE plus `--timeout` past its budget, is ended (SIGTERM, then SIGKILL after GRACE) and replaced; the case is
timeout (out_of_time when its budget had run out), with nothing kept. So every run ends, whatever the engine does.
"""

from __future__ import annotations

import collections
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..budget import run_budget_text
from ..engines.base import Engine, EngineError, EngineInfo
from ..engines.opening import EngineSource
from ..engines.recording import RecordingError
from ..processes import Crew, Ended, Worker
from ..results import CaseKind, CaseResult, Verdict
from .cases import Case, property_cases
from .runner import Lane, RunOptions, _judged, _result

GRACE = 2.0  # seconds beyond a budget (and the engine's --timeout) before a worker is ended
DEFAULT_TIMEOUT = 5.0  # seconds a request is given when the run says none (the engines' default)
TICK = 0.25  # seconds between the main process's checks of the budgets
DEPTH = 2  # cases handed to a worker ahead: the one it runs and the next


def schedule(cases: list[Case] | tuple[Case, ...]) -> list[Case]:
    """The order in which cases are handed out: the properties (many games each) first, then the scenarios with
    the most steps; stable, so that the order is the same in every run."""
    def cost(case: Case) -> tuple[int, int]:
        if case.kind is CaseKind.PROPERTY:
            return (0, 0)
        return (1, -len(getattr(case.payload, "steps", ()) or ()))
    return sorted(cases, key=cost)


# -- a worker process ------------------------------------------------------------------------------------------

def _worker(conn, moves, due, source: EngineSource, options: RunOptions) -> None:
    """Open the engine, say which it is (or why it cannot start), then run each case received: a scenario's
    Case, or a property's id (its checks are code, found here by id). `moves`: the moves its engine played;
    `due`: by when the call into an in-process engine under way must end (0: none)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # ended by the main process: close the engine first
    engine = None
    timeout = source.timeout or DEFAULT_TIMEOUT
    try:
        try:
            if source.in_process:  # a factory that never returns: its call and the hello
                due.value = time.monotonic() + 2 * timeout
            engine = source.open()
        except EngineError as error:
            conn.send(("dead", error.message, error.stderr))
            return
        finally:
            due.value = 0.0
        if source.in_process:
            engine = _Watched(engine, due, timeout)
        conn.send(("ready", engine.info))
        lane = Lane(engine, options, moves)
        properties = {case.id: case for case in property_cases()}
        while (task := conn.recv()) is not None:
            key, case = task
            conn.send(("result", key, lane.run(properties[case] if isinstance(case, str) else case)))
    except RecordingError as error:  # the harness's own file failed (a full disk): the main process stops the run
        conn.send(("fatal", str(error)))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the main process has gone or ended the run
    finally:
        if engine is not None:
            try:
                engine.close()
            except RecordingError:  # said already, or the main process's own close says it
                pass


class _Watched(Engine):
    """An in-process engine whose every call sets `due`, shared with the main process, to the time by which it
    must end: `timeout` for each request it stands for (a whole game: each step and each legal_moves before a
    move, as a subprocess engine's play_game is given). Everything else goes to the engine as it is."""

    def __init__(self, engine: Engine, due, timeout: float) -> None:
        self.engine, self.due, self.timeout = engine, due, timeout

    @property
    def info(self) -> EngineInfo:  # type: ignore[override]
        return self.engine.info

    def _within(self, requests: int, method: Callable[..., Any], *args: Any) -> Any:
        self.due.value = time.monotonic() + requests * self.timeout
        try:
            return method(*args)
        finally:
            self.due.value = 0.0

    def hello(self):
        return self._within(1, self.engine.hello)

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0):
        return self._within(1, self.engine.new_game, players, variant, start_player)

    def deal(self, factories=None):
        return self._within(1, self.engine.deal, factories)

    def load_state(self, state):
        return self._within(1, self.engine.load_state, state)

    def legal_moves(self):
        return self._within(1, self.engine.legal_moves)

    def play(self, move: str):
        return self._within(1, self.engine.play, move)

    def state(self):
        return self._within(1, self.engine.state)

    def play_game(self, players, variant, start_player, steps, states=(), moves=False):
        return self._within(1 + 2 * len(steps), self.engine.play_game, players, variant, start_player, steps,
                            states, moves)

    def send_game(self, players, variant, start_player, steps, states=(), moves=False):
        return self._within(1 + 2 * len(steps), self.engine.send_game, players, variant, start_player, steps,
                            states, moves)

    def restart(self) -> None:
        self._within(2, self.engine.restart)  # the factory again, and the hello

    def begin_case(self, case_id: str) -> None:
        self.engine.begin_case(case_id)

    def end_case(self) -> str | None:
        return self.engine.end_case()

    def close(self) -> None:
        self.engine.close()

    def stderr_tail(self, *args: Any) -> str:
        return self.engine.stderr_tail(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


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

    def __init__(self, source: EngineSource, options: RunOptions, jobs: int) -> None:
        self.source, self.options = source, options
        self.crew = Crew(_worker, (source, options), jobs, name="azul-conform-worker", counted=True, timed=True)
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
                elif message[0] == "fatal":  # a worker's recording could not be written: no engine's fault
                    raise RecordingError(message[1])
                elif message[0] == "dead":  # the engine could not be started
                    self.problem = EngineWontStart(message[1], stderr=message[2])
                    self._retire(worker)
            elif self._stuck(worker) and not worker.ready:
                self.problem = EngineWontStart(f"the engine did not start: its factory or hello did not return "
                                               f"within {2 * self._timeout():g} s")
                self._retire(worker)
            elif worker.queue and (self._overdue(worker) or self._stuck(worker)):
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

    def _timeout(self) -> float:
        return self.source.timeout or DEFAULT_TIMEOUT

    def _overdue(self, worker: _Worker) -> bool:
        deadline, _ = self.options.deadline(worker.since)
        return deadline is not None and time.monotonic() > deadline + GRACE + self._timeout()

    def _stuck(self, worker: _Worker) -> bool:
        """Its in-process engine's call is GRACE past the time it was given: it may never return."""
        due = worker.process.due.value
        return due != 0.0 and time.monotonic() > due + GRACE

    def _lose(self, worker: _Worker, why: str | None) -> None:
        """End a worker (dead, or stuck past its case's budget or in a call), judge its case, hand back the cases
        waiting for it, and start another worker in its place."""
        keys = list(worker.queue)
        deadline, budget = self.options.deadline(worker.since)
        spent = deadline is not None and time.monotonic() >= deadline  # else a call that never returned
        self._retire(worker, replace=worker.ready and not self.options.run_over())  # one that never started: not
        if not keys:
            return
        self.waiting.extendleft(reversed(keys[1:]))
        case = self.tasks[keys[0]]
        if why is None and not spent:
            result = _judged(case, _result(case, Verdict.TIMEOUT, f"no answer within {self._timeout():g} s: the "
                                           "call into the in-process engine did not return, so its worker process "
                                           "was ended (nothing of the case kept)"))
        elif why is None:
            result = _result(case, Verdict.OUT_OF_TIME, f"{budget}; the engine did not come back within "
                             f"{GRACE + self._timeout():g} s, so its worker process was ended (nothing of the "
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
