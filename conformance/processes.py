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

Nothing of ours outlives the run, however it ends:
- a worker dies with the process that started it, even one killed with SIGKILL (Linux: PR_SET_PDEATHSIG, set as
  the worker starts; elsewhere a thread of the worker sees its parent gone within a second and ends it), so it
  can hold no lock (harness/folder_lock.py) and play no game for a run that is over;
- an engine process dies with the process that started it (`child_dies_with_us`, given to its Popen);
- what an engine starts in turn (a wrapper's child, a server it started in a session of its own) is found by a
  mark in its environment (`marked_environment`: each process that starts engines has its own, inherited by
  everything they start) and killed (`sweep`) when that process ends: by the worker itself as it ends, by this
  process when a worker died without doing so, and at the exit of a process that ran engines itself;
- what an engine leaves behind with no mark (a helper in a session of its own, its environment cleared) is
  adopted: a process that starts engines or workers is a child subreaper (Linux, `adopt_orphans`), so such an
  orphan becomes its child when its parent ends, not init's, and is killed when the engine ends
  (`end_adopted`). Elsewhere there is no such mechanism: the mark alone finds them.
"""

from __future__ import annotations

import atexit
import collections
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import secrets
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, TypeVar

Item = TypeVar("Item")

START_METHOD = "fork" if sys.platform == "linux" else "spawn"  # fork: see the module's docstring
GRACE = 2.0  # seconds a worker asked to stop has before it is killed

_PARENT_ENDS: set = set()  # this process's ends of its workers' pipes: a forked worker closes its copies
MARK = "AZUL_PROCESS_MARKS"  # the environment variable holding the marks of the processes that started a process
WATCH = 0.5  # seconds between a worker's looks at its parent, where the kernel cannot tell it of its death
_PR_SET_PDEATHSIG = 1  # prctl(2)
_PR_SET_CHILD_SUBREAPER = 36  # prctl(2), Linux 3.4+


def default_jobs() -> int:
    """The number of cores this process may run on."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Ended:
    """A worker process that gave no answer: it died, or it overran its limit and was killed."""

    overran: bool
    exit_code: int | None
    seconds: float


class Worker:
    """One worker process running target(pipe, *args) (with `count`, a 64-bit integer shared with this process:
    target(pipe, count, *args); with `due` too, a float: target(pipe, count, due, *args)); `send` it messages,
    `receive` its answers."""

    def __init__(self, target: Callable[..., None], args: tuple = (), name: str = "azul-worker",
                 method: str | None = None, counted: bool = False, timed: bool = False) -> None:
        method = method or START_METHOD
        context = multiprocessing.get_context(method)
        self.conn, theirs = context.Pipe()
        self.count = context.Value("q", 0, lock=False) if counted else None
        self.due = context.Value("d", 0.0, lock=False) if timed else None
        shared = (self.count,) * counted + (self.due,) * timed
        # a forked worker closes its copies of the pipes' ends held here, so that each worker (and this one)
        # sees EOF when this process goes
        others = tuple(_PARENT_ENDS | {self.conn}) if method == "fork" else ()
        self.mark = _new_mark()  # what the worker's engines carry: swept here if the worker dies without doing so
        # the kernel's death signal comes when the *thread* that started the worker ends: only the main thread's
        # lasts as long as this process
        kernel = threading.current_thread() is threading.main_thread()
        bond = (os.getpid(), kernel, self.mark)
        adopt_orphans()  # what a worker that dies leaves behind comes here, to be ended in `close`
        self.process = context.Process(target=_run, name=name, daemon=True,
                                       args=(target, theirs, others, bond, shared + tuple(args)))
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
        if self.process.exitcode not in (0, None):  # it died (killed, crashed): it could not end what it started
            sweep([self.mark])
            end_adopted()


def _run(target: Callable[..., None], conn, others: tuple, bond: tuple, args: tuple) -> None:
    global _mark, _marked
    parent, kernel, mark = bond
    _bind_to(parent, kernel)
    for other in others:
        other.close()
    _PARENT_ENDS.clear()  # a forked copy of the parent's: this process has no workers of its own yet
    # this worker's own mark (not a copy of its parent's), on everything it starts
    _mark, _marked = mark, False
    os.environ[MARK] = _marks_with(os.environ.get(MARK), mark)
    try:
        target(conn, *args)
    finally:
        if _marked:  # it started engines: nothing they started outlives it
            sweep([mark])
            end_adopted()


# -- nothing outlives the run ---------------------------------------------------------------------------------

def _prctl():
    """prctl(2), or None off Linux."""
    if sys.platform != "linux":
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _bind_to(parent: int, kernel: bool) -> None:
    """Die with the process `parent` (this worker's): at once by the kernel's hand where it can (Linux, a worker
    started by the main thread), else within WATCH seconds of a thread's look."""
    prctl = _prctl() if kernel else None
    if prctl is None or prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        threading.Thread(target=_watch, args=(parent,), name="azul-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # it died before the bond was made: nobody would have told us
        os._exit(1)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH)
    if _marked:
        sweep([_mark])
        end_adopted()
    os._exit(1)


def child_dies_with_us() -> Callable[[], None] | None:
    """For a Popen's preexec_fn: the child is killed when the thread starting it ends (Linux; None elsewhere, or
    off the main thread, whose end would kill it while it is still in use). It makes one system call, through a
    function looked up here beforehand: nothing in the child waits for a lock another thread may hold."""
    prctl = _prctl() if threading.current_thread() is threading.main_thread() else None
    if prctl is None:
        return None
    parent = os.getpid()

    def bind() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the bond was made
            os._exit(1)
    return bind


_mark: str | None = None  # this process's mark, carried by the processes it starts (a worker's: given to it)
_marked = False  # given to a process to start: swept when this process ends


def _new_mark() -> str:
    return f"{os.getpid()}-{secrets.token_hex(6)}"


def _marks_with(marks: str | None, mark: str) -> str:
    """`marks` (a process's own, inherited) and `mark`: a process started by an engine that is itself a harness
    carries both, and either sweep finds it."""
    return mark if not marks else marks if mark in marks.split() else f"{marks} {mark}"


def marked_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """`env` (None: this process's) with this process's mark, for a process to start: `sweep` finds it, and
    whatever it starts that keeps its environment, wherever they are (a session of their own, adopted by init)
    once this process ends."""
    global _mark, _marked
    if _mark is None:
        _mark = _new_mark()
    if not _marked:
        _marked = True
        adopt_orphans()
        atexit.register(_sweep_own)  # a worker sweeps as it ends instead (it leaves by os._exit, not atexit)
    env = dict(os.environ if env is None else env)
    env[MARK] = _marks_with(env.get(MARK), _mark)
    return env


def _sweep_own() -> None:
    if _marked and _mark is not None:
        sweep([_mark])
        end_adopted()


# -- orphans adopted --------------------------------------------------------------------------------------------

_adopting = False  # this process is a child subreaper
_own: set[int] = set()  # the engines this process started itself (children in sessions of their own, not adopted)
_own_lock = threading.Lock()


def _forked() -> None:
    global _adopting
    _adopting = False  # a forked child is no subreaper (the kernel does not pass it on), and started no engine
    _own.clear()


if hasattr(os, "register_at_fork"):  # (POSIX; where there is no fork there is nothing to reset)
    os.register_at_fork(after_in_child=_forked)


def adopt_orphans() -> bool:
    """Make this process a child subreaper (Linux: prctl PR_SET_CHILD_SUBREAPER): a process that one it started
    leaves behind (an engine's helper in a session of its own, its environment cleared: no mark reaches it)
    becomes this process's child when its parent ends, instead of init's, for `end_adopted` to end. False where
    there is no such mechanism (off Linux: such a process is found by its mark only)."""
    global _adopting
    if not _adopting:
        prctl = _prctl()
        _adopting = prctl is not None and prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _adopting


@contextmanager
def starting_engine() -> Iterator[Callable[[int], None]]:
    """Around the start of an engine process in a session of its own: yields the function to call with its pid,
    which `end_adopted` then leaves alone (until `engine_ended`); held against an `end_adopted` in another
    thread, which would otherwise take the new engine, not yet named, for an orphan."""
    with _own_lock:
        yield _own.add


def engine_ended(pid: int) -> list[int]:
    """The engine `pid`, started under `starting_engine`, has ended: what it left behind is ended too."""
    with _own_lock:
        _own.discard(pid)
    return end_adopted()


def end_adopted(rounds: int = 5) -> list[int]:
    """Kill (SIGKILL) and reap every process this process adopted as a subreaper (its children in a session
    other than its own, not engines it started: nothing of ours starts any other kind; an engine's whole
    descendance is in sessions other than ours); the pids ended. A few rounds: what an adopted process started
    is adopted in turn as it dies. Nothing where this process adopts nothing."""
    if not _adopting:
        return []
    ended: list[int] = []
    with _own_lock:
        for _ in range(rounds):
            found = [pid for pid in _adopted() if pid not in _own]
            if not found:
                break
            for pid in found:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for pid in found:
                _reap(pid)
            ended += [pid for pid in found if pid not in ended]
    return ended


def _adopted() -> list[int]:
    """This process's children in a session other than its own (from /proc: pid, parent, session)."""
    me, session = os.getpid(), os.getsid(0)
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                text = file.read()
        except OSError:
            continue
        fields = text[text.rindex(b")") + 2:].split()  # after the name, which may hold spaces and brackets
        if int(fields[1]) == me and int(fields[3]) != session:
            found.append(int(name))
    return found


def _reap(pid: int, seconds: float = 2.0) -> None:
    """Collect the exit of `pid`, killed, within `seconds` (a process stuck in the kernel is left)."""
    ends = time.monotonic() + seconds
    while True:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done or time.monotonic() > ends:
            return
        time.sleep(0.01)


def sweep(marks: Iterable[str], rounds: int = 3) -> list[int]:
    """Kill (SIGKILL) every process but this one whose environment carries one of `marks`; the pids killed.
    Linux (/proc); elsewhere nothing is found. A few rounds: a process may start another as it is killed."""
    wanted = {mark.encode() for mark in marks}
    prefix = MARK.encode() + b"="
    me = os.getpid()
    killed: list[int] = []
    for _ in range(rounds):
        try:
            names = os.listdir("/proc")
        except OSError:
            return killed
        found = []
        for name in names:
            if not name.isdigit() or int(name) == me:
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as file:
                    environment = file.read()
            except OSError:  # gone, or not ours to read
                continue
            if prefix in environment and any(entry.startswith(prefix) and wanted & set(entry[len(prefix):].split())
                                             for entry in environment.split(b"\0")):
                found.append(int(name))
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        killed += [pid for pid in found if pid not in killed]
        if not found:
            break
    return killed


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
    try:
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
    finally:  # left by an interrupt or an error of on_answer: the items still running are of no use now
        for worker in running:
            worker.kill(0)
    return waiting


def _answer(connection, work: Callable[[Any], Any], item: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle (it ends the items running)
    connection.send(work(item))
    connection.close()


# -- long-lived workers -------------------------------------------------------------------------------------------

class Crew:
    """Long-lived workers all running target(pipe, *args), `jobs` of them at the start; the caller hands them
    work and decides when one is retired or replaced."""

    def __init__(self, target: Callable[..., None], args: tuple, jobs: int, name: str = "azul-worker",
                 method: str | None = None, counted: bool = False, timed: bool = False) -> None:
        self.target, self.args, self.name, self.method = target, args, name, method
        self.counted, self.timed = counted, timed
        self.workers: list[Worker] = []
        for _ in range(jobs):
            self.start()

    def start(self) -> Worker:
        """One more worker."""
        worker = Worker(self.target, self.args, self.name, self.method, self.counted, self.timed)
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
