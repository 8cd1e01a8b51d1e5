"""Worker processes, started and supervised in one place: every process of ours that does the suite's work runs
through here (tests/test_import_graph.py holds every other module of conformance/ to that).

A `Worker` is one process running `target(pipe, *args)`, talking to this process through a pipe of its own:
started with fork where the platform allows it (Linux: ready in milliseconds, the modules already imported,
the arguments not pickled), else spawned; killed when it overruns; and a worker that gave no answer (it died,
or it overran and was killed) is reported as data, an `Ended`, never as an exception. Three uses:

- `each_in_a_process`: a process per work item, a few at a time, each within a time limit (`azul mutants`,
  the diagnosis, benchmarks/generated_mutants.py). A process per item isolates what an item may break in it (a
  mutant patches the reference engine; a wrong reading may loop or exhaust the stack). Always forked: the work
  function is a closure over the caller's data, which reaches the child without pickling.
- `Crew`: long-lived workers started alike, each replaced when it dies or overruns; what they are handed and
  when is the caller's policy (`azul conform -j`, harness/parallel.py, hands each worker cases for its engine).
- `Pool`: a crew that calls the module-level functions it is handed, one at a time a worker, and gives back
  each call's result as a `Pending` (fuzz/run.py's LocalExecutor: `azul fuzz -j`, `azul replay -j`, `azul
  import -j`; fuzz's other executor, on a Dask cluster, is Dask's own).

A worker is asked to stop with None on its pipe; one that is busy is sent SIGTERM as well (a fuzz block and a
conform worker then close their engine), and one that has not gone within the grace given is killed.
"""

from __future__ import annotations

import collections
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, TypeVar

Item = TypeVar("Item")

START_METHOD = "fork" if sys.platform == "linux" else "spawn"  # fork: see the module's docstring
GRACE = 2.0  # seconds a worker asked to stop has before it is killed

_PARENT_ENDS: set = set()  # this process's ends of its workers' pipes: a forked worker closes its copies


@dataclass(frozen=True)
class Ended:
    """A worker process that gave no answer: it died, or it overran its limit and was killed."""

    overran: bool
    exit_code: int | None
    seconds: float


class Worker:
    """One worker process running target(pipe, *args) (with `count`, a 64-bit integer shared with this process:
    target(pipe, count, *args)); `send` it messages, `receive` its answers."""

    def __init__(self, target: Callable[..., None], args: tuple = (), name: str = "azul-worker",
                 method: str | None = None, counted: bool = False) -> None:
        method = method or START_METHOD
        context = multiprocessing.get_context(method)
        self.conn, theirs = context.Pipe()
        self.count = context.Value("q", 0, lock=False) if counted else None
        # a forked worker closes its copies of the pipes' ends held here, so that each worker (and this one)
        # sees EOF when this process goes
        others = tuple(_PARENT_ENDS | {self.conn}) if method == "fork" else ()
        self.process = context.Process(target=_run, name=name, daemon=True,
                                       args=(target, theirs, others, (self.count,) * counted + tuple(args)))
        self.process.start()
        theirs.close()
        _PARENT_ENDS.add(self.conn)
        self.started = time.monotonic()

    @property
    def sentinel(self) -> int:
        return self.process.sentinel

    @property
    def exit_code(self) -> int | None:
        return self.process.exitcode

    def seconds(self) -> float:
        return round(time.monotonic() - self.started, 2)

    def send(self, message: Any) -> bool:
        """False when the worker can no longer be told anything (its pipe is closed)."""
        try:
            self.conn.send(message)
            return True
        except (OSError, ValueError):
            return False

    def receive(self) -> Any:
        """Its next message (waiting for it), or an Ended when it has gone without one."""
        if not self.conn.poll(0) and self.process.exitcode is not None:
            return Ended(False, self.process.exitcode, self.seconds())
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            self.process.join(5)
            return Ended(False, self.process.exitcode, self.seconds())

    def sent(self) -> list:
        """The messages it has sent that are not read yet, without waiting: what an interrupted run keeps."""
        messages = []
        try:
            while self.conn.poll(0):
                messages.append(self.conn.recv())
        except Exception:  # noqa: BLE001 - a pipe cut mid-message (by an interrupt): keep what was read
            pass
        return messages

    def kill(self, limit: float) -> Ended:
        """End it now: it overran `limit` seconds."""
        self.process.kill()
        self.process.join(5)
        self.close()
        return Ended(True, self.process.exitcode, round(limit, 2))

    def close(self) -> None:
        _PARENT_ENDS.discard(self.conn)
        self.conn.close()


def _run(target: Callable[..., None], conn, others: tuple, args: tuple) -> None:
    for other in others:
        other.close()
    _PARENT_ENDS.clear()  # a forked copy of the parent's: this process has no workers of its own yet
    target(conn, *args)


def wait(workers: Iterable[Worker], timeout: float | None) -> list[Worker]:
    """The workers with a message to read or gone, waiting up to `timeout` seconds for the first."""
    workers = list(workers)
    ready = set(multiprocessing.connection.wait([w.conn for w in workers] + [w.sentinel for w in workers],
                                                timeout=timeout))
    return [w for w in workers if w.conn in ready or w.sentinel in ready]


def stop(workers: Iterable[Worker], busy: Iterable[Worker] = (), grace: float = GRACE) -> None:
    """Ask each worker to stop (None on its pipe), those `busy` with SIGTERM too; wait `grace` seconds for all
    of them together, then kill those still there."""
    workers, busy = list(workers), set(busy)
    for worker in workers:
        worker.send(None)
        if worker in busy:
            worker.process.terminate()
    ends = time.monotonic() + grace
    for worker in workers:
        worker.process.join(max(ends - time.monotonic(), 0))
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.close()


# -- a process per item ---------------------------------------------------------------------------------------

def each_in_a_process(items: Iterable[Item], work: Callable[[Item], Any], on_answer: Callable[[Item, Any], None],
                      jobs: int = 0, limit: float = 300.0, budget: float | None = None) -> list[Item]:
    """Call work(item) in a forked process for each item, `jobs` at a time (0: one per core), and
    on_answer(item, its return value or an Ended) here as each ends. No item is started once `budget` seconds
    have gone; those are returned, in order (empty when every item ran)."""
    waiting = list(items)
    jobs = jobs or os.cpu_count() or 1
    running: dict[Worker, Item] = {}
    began = time.perf_counter()
    while waiting or running:
        while waiting and len(running) < jobs and (budget is None or time.perf_counter() - began < budget):
            item = waiting.pop(0)
            running[Worker(_answer, (work, item), method="fork")] = item  # fork: work is a closure (docstring)
        if not running:
            break
        deadline = min(worker.started + limit for worker in running)
        for worker in wait(running, max(0.0, deadline - time.monotonic())):
            answer = worker.receive()
            worker.process.join(5)
            worker.close()
            on_answer(running.pop(worker), answer)
        for worker in [w for w in running if time.monotonic() - w.started > limit]:
            on_answer(running.pop(worker), worker.kill(limit))
    return waiting


def _answer(connection, work: Callable[[Any], Any], item: Any) -> None:
    connection.send(work(item))
    connection.close()


# -- long-lived workers -------------------------------------------------------------------------------------------

class Crew:
    """Long-lived workers all running target(pipe, *args), `jobs` of them at the start; the caller hands them
    work and decides when one is retired or replaced."""

    def __init__(self, target: Callable[..., None], args: tuple, jobs: int, name: str = "azul-worker",
                 method: str | None = None, counted: bool = False) -> None:
        self.target, self.args, self.name, self.method, self.counted = target, args, name, method, counted
        self.workers: list[Worker] = []
        for _ in range(jobs):
            self.start()

    def start(self) -> Worker:
        """One more worker."""
        worker = Worker(self.target, self.args, self.name, self.method, self.counted)
        self.workers.append(worker)
        return worker

    def wait(self, timeout: float | None) -> list[Worker]:
        return wait(self.workers, timeout)

    def retire(self, worker: Worker, busy: bool = False, replace: bool = False,
               grace: float = GRACE) -> Worker | None:
        """End a worker (sent SIGTERM too when `busy`) and drop it; with `replace`, start another in its place."""
        stop([worker], [worker] if busy else (), grace)
        self.workers.remove(worker)
        return self.start() if replace else None

    def close(self, busy: Iterable[Worker] = (), grace: float = GRACE) -> None:
        stop(self.workers, busy, grace)
        self.workers = []


class WorkerLost(RuntimeError):
    """The worker process running a call died (a crash, memory exhausted, a signal) before it answered."""

    def __init__(self, ended: Ended) -> None:
        super().__init__(f"the worker process running it died (exit status {ended.exit_code}) after "
                         f"{ended.seconds:g} s")
        self.ended = ended


class Pending:
    """A call handed to a Pool (or done already, `Pending.done_with`): its result() once it has come back."""

    def __init__(self, pool: Pool | None, function: Callable, args: tuple) -> None:
        self.pool, self.function, self.args = pool, function, args
        self.outcome: tuple[bool, Any] | None = None  # (ok, its value or the exception it raised)
        self.cancelled = False

    @classmethod
    def done_with(cls, value: Any = None, error: BaseException | None = None) -> Pending:
        pending = cls(None, lambda: None, ())
        pending.outcome = (error is None, value if error is None else error)
        return pending

    def done(self) -> bool:
        return self.outcome is not None or self.cancelled

    def result(self) -> Any:
        """Its value (waiting for it), or the exception the call raised; WorkerLost when its worker died."""
        while self.outcome is None:
            if self.cancelled or self.pool is None:
                raise RuntimeError("the call was cancelled")
            self.pool.take_in(None)
        ok, value = self.outcome
        if not ok:
            raise value
        return value

    def cancel(self) -> bool:
        """Not run after all, when it has not been handed to a worker yet."""
        if self.pool is not None and self.outcome is None and self in self.pool.queue:
            self.pool.queue.remove(self)
            self.cancelled = True
        return self.cancelled


class Pool:
    """`jobs` workers that each call the functions they are handed, one at a time; the function and its arguments
    go through the pipe (module-level functions and picklable arguments). A call is handed to a worker only when
    it is idle, so that neither side ever waits on a full pipe while the other does; a worker that dies is
    replaced and its call's result() raises WorkerLost."""

    def __init__(self, jobs: int, method: str | None = None) -> None:
        self.jobs = jobs
        self.crew = Crew(_call_each, (), jobs, name="azul-pool-worker", method=method)
        self.queue: collections.deque[Pending] = collections.deque()
        self.running: dict[Worker, Pending] = {}

    def submit(self, function: Callable, *args: Any) -> Pending:
        pending = Pending(self, function, args)
        self.queue.append(pending)
        self._hand()
        return pending

    def wait(self, pendings: Iterable[Pending]) -> list[Pending]:
        """Those of `pendings` done, waiting for the first."""
        pendings = list(pendings)
        while not (done := [p for p in pendings if p.done()]):
            self.take_in(None)
        return done

    def take_in(self, timeout: float | None) -> None:
        """What the workers answered (waiting up to `timeout` seconds for the first); the next calls handed out."""
        if not self.crew.workers:
            raise RuntimeError("the pool has no worker process left (closed, or each died as it started)")
        for worker in self.crew.wait(timeout):
            pending = self.running.pop(worker, None)
            answer = worker.receive()
            if isinstance(answer, Ended):
                self.crew.workers.remove(worker)
                worker.close()
                if pending is not None:  # its call took it down: another in its place (one gone idle: not)
                    self.crew.start()
                    answer = (False, WorkerLost(answer))
            if pending is not None:
                pending.outcome = answer
        self._hand()

    def _hand(self) -> None:
        for worker in self.crew.workers:
            if not self.queue:
                return
            if worker not in self.running:
                pending = self.queue.popleft()
                if worker.send((pending.function, pending.args)):
                    self.running[worker] = pending
                else:
                    self.queue.appendleft(pending)

    def close(self, grace: float = GRACE) -> None:
        """Stop the workers: the calls not handed out are not run; those running are sent SIGTERM."""
        for pending in self.queue:
            pending.cancelled = True
        self.queue.clear()
        stop(self.crew.workers, list(self.running), grace)
        self.crew.workers = []
        self.running = {}


def _call_each(conn) -> None:
    """A pool's worker: call each (function, arguments) received and send back (True, its value) or (False, the
    exception it raised), until None or the pool's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the pool's owner's to handle; a call may hold it
    try:
        while (task := conn.recv()) is not None:
            function, args = task
            try:
                answer: tuple[bool, Any] = (True, function(*args))
            except Exception as error:  # noqa: BLE001 - handed back to the caller, raised by its result()
                answer = (False, error)
            try:
                conn.send(answer)
            except Exception as error:  # noqa: BLE001 - a value or an exception that cannot be pickled
                conn.send((False, RuntimeError(f"{function.__name__}'s answer cannot be sent back: {error}")))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the pool's owner has gone or ended the run
