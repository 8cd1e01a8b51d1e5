"""Running a campaign's blocks: in this process, on local worker processes, or on a Dask cluster.

Each executor runs `campaign.run_block` somewhere and hands back its Block. Only the blocks in flight are
held (a few per worker), and each finished block goes straight to the state file, so memory stays flat
however long the campaign runs. On a Dask cluster a worker that dies takes its blocks with it; the scheduler
runs them again elsewhere and the campaign sees each block's result once. The local processes are a
processes.Pool, started and supervised where every worker process of ours is (conformance/processes.py).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..processes import Pending, Pool, WorkerLost
from .campaign import Block, CampaignError, CampaignSpec, missing_blocks, run_block
from .state import StateFile

IN_FLIGHT_PER_WORKER = 2
CLOSE_GRACE = 10.0  # seconds a block cut short on close has to finish its game before its worker is killed


class LocalExecutor:
    """Blocks run one after another in this process (workers=1) or on `workers` processes of this machine (a
    processes.Pool)."""

    balance_tail = True  # a block costs the pool well under a millisecond: the last ones may as well be small

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.pool = None
        self.interrupted = False  # in this process: a block was cut short by Ctrl-C or SIGTERM
        if workers > 1:
            # spawned: a block's function and its arguments are named and pickled as on a Dask cluster, and a
            # fresh interpreter inherits none of this one's engines or threads
            self.pool = Pool(workers, method="spawn")

    def submit_blocks(self, function: Callable, spec: CampaignSpec, blocks: list[tuple[int, int]],
                      deadline: float | None) -> list:
        """A Pending for function(spec, first, count, deadline) of each block."""
        return [self.submit(function, spec, first, count, deadline) for first, count in blocks]

    def submit(self, function: Callable, *args: Any) -> Pending:
        if self.pool is not None:
            return self.pool.submit(function, *args)
        if self.interrupted:  # a block before it was interrupted: the blocks handed out with it are not played
            return Pending.done_with(Block(args[1], 0, interrupted=True))
        try:
            value = function(*args)
        except Exception as error:  # noqa: BLE001 - handed back through its Pending, as the pool does
            return Pending.done_with(error=error)
        self.interrupted = getattr(value, "interrupted", False)
        return Pending.done_with(value)

    def finished(self, futures: list, deadline: float | None = None) -> list[tuple[Any, Block]]:
        """The calls done (waiting for the first), each with its block; a worker process that died running a
        block is the campaign's error. (`deadline`: the blocks keep it themselves.)"""
        done = self.pool.wait(futures) if self.pool is not None else [f for f in futures if f.done()]
        try:
            return [(future, future.result()) for future in done]
        except WorkerLost as lost:
            raise CampaignError(f"a worker process died playing a block of games: {lost}") from None

    def result(self, pending: Pending) -> Any:
        return pending.result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close(CLOSE_GRACE)


class DaskExecutor:
    """Blocks run as tasks on a Dask distributed cluster (`tcp://HOST:PORT`, or a Client given by a caller).

    A cluster with no worker runs nothing, and Dask waits for one for ever: here a wait for results looks at
    the cluster every TICK seconds, says once that it has no worker (`say`), and gives up (CampaignError) when
    none has come for NO_WORKER seconds or the campaign's deadline has passed meanwhile. A task that killed
    every worker it ran on (Dask's KilledWorker, after its allowed failures) is a CampaignError too."""

    # Each block costs the cluster a few milliseconds of task handling (the scheduler's and the client's work,
    # the worker's hand-over from one task to the next), and the blocks smaller than --block cost more than the
    # even finish they buy: bench_fuzz's 2-worker cluster was slower with them in every interleaved run.
    balance_tail = False
    TICK = 1.0  # seconds between looks at the cluster while no result comes
    NO_WORKER = 60.0  # seconds without a worker before the work is given up

    def __init__(self, scheduler: str | None = None, client: Any = None,
                 say: Callable[[str], None] | None = None) -> None:
        try:
            import distributed  # deferred: Dask distributed is optional (azul-conformance[cluster])
        except ImportError:
            raise SystemExit("the cluster mode needs Dask distributed: pip install 'azul-conformance[cluster]'")
        self.distributed = distributed
        self.own = client is None
        self.say = say or (lambda _: None)
        try:
            self.client = client or distributed.Client(scheduler, timeout=30)
        except (ValueError, TypeError, OSError) as error:  # an address Dask cannot read, or nobody answering
            raise CampaignError(f"cannot reach the scheduler {scheduler!r}: {error}") from None
        self.where = f"the cluster at {scheduler}" if scheduler else "the cluster"
        from .dask_worker import QuietWorker  # deferred: imports distributed, which is optional

        self.client.register_plugin(QuietWorker())  # every worker, those that join later too
        self.present = self._workers()
        self.workers = max(1, self.present)  # what the blocks in flight are sized by
        self.alone_since: float | None = None

    def _workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def submit_blocks(self, function: Callable, spec: CampaignSpec, blocks: list[tuple[int, int]],
                      deadline: float | None) -> list:
        """The blocks in one message to the scheduler: submitted one by one, all but the first would wait for
        the client's next batched send (every 10 ms), and a campaign's second worker would start that much
        later. pure=False: two blocks with the same arguments (a resumed campaign) are still two tasks."""
        firsts, counts = zip(*blocks)
        return self.client.map(function, [spec] * len(blocks), firsts, counts, [deadline] * len(blocks),
                               pure=False, retries=0)

    def submit(self, function: Callable, *args: Any):
        return self.client.submit(function, *args, pure=False, retries=0)

    def finished(self, futures: list, deadline: float | None = None) -> list[tuple[Any, Block]]:
        done = self._ready(futures, "FIRST_COMPLETED", deadline)
        good = [future for future in done if future.status == "finished"]
        if good:  # one round trip for the blocks that came back together: recorded before any failed block
            return list(zip(good, self.client.gather(good)))  # (which is done still: it raises on the next call)
        return [(future, self._value(future)) for future in done]

    def result(self, future: Any) -> Any:
        """The value of one task, waited for as `finished` waits."""
        self._ready([future], "ALL_COMPLETED", None)
        return self._value(future)

    def _ready(self, futures: list, return_when: str, deadline: float | None) -> set:
        while True:
            try:
                return self.distributed.wait(futures, timeout=self.TICK, return_when=return_when).done
            except TimeoutError:  # (asyncio's and Dask's are the built-in one)
                self._look(deadline)

    def _look(self, deadline: float | None) -> None:
        """Nothing came back within a tick: give up if the cluster has had no worker too long."""
        if self._workers():
            self.alone_since = None
            return
        now = time.monotonic()
        if self.alone_since is None:
            self.alone_since = now
            self.say(f"{self.where} has no worker: waiting up to {self.NO_WORKER:g} s for one")
        if deadline is not None and time.time() >= deadline:
            raise CampaignError(f"{self.where} had no worker when the time given ran out: nothing more played")
        if now - self.alone_since >= self.NO_WORKER:
            raise CampaignError(f"{self.where} has had no worker for {self.NO_WORKER:g} s: giving up")

    def _value(self, future: Any) -> Any:
        try:
            return future.result()
        except self.distributed.KilledWorker as error:
            raise CampaignError(f"a task killed every worker of {self.where} it was run on (Dask gave up on it: "
                                f"{error})") from None

    def close(self) -> None:
        if self.own:
            self.client.close()


def play_campaign(spec: CampaignSpec, state: StateFile, executor, games: int | None, seconds: float | None,
                  block_size: int, on_block: Callable[[Block], None] | None = None,
                  block_function: Callable = run_block) -> bool:
    """Play every game of [0, games) (or on until `seconds` have passed) that the state file does not
    record; returns False when the time ran out first."""
    deadline = time.time() + seconds if seconds is not None else None
    todo = missing_blocks(state.findings.done, block_size, games, executor.workers if executor.balance_tail else 1)
    in_flight: dict = {}
    limit = max(1, executor.workers * IN_FLIGHT_PER_WORKER)
    exhausted = False
    try:
        while True:
            blocks = []
            while not exhausted and len(in_flight) + len(blocks) < limit and \
                    (deadline is None or time.time() < deadline):
                block = next(todo, None)
                if block is None:
                    exhausted = True
                    break
                blocks.append(block)
            if blocks:
                in_flight.update(zip(executor.submit_blocks(block_function, spec, blocks, deadline), blocks))
            if not in_flight:
                break
            interrupted = False
            for future, result in executor.finished(list(in_flight), deadline):
                del in_flight[future]
                if result.games or result.deviations:  # (a block not played after an interrupt: nothing)
                    state.record(result)
                if on_block:
                    on_block(result)
                interrupted = interrupted or result.interrupted
            if interrupted:  # every block finished is recorded: now the interrupt ends the campaign
                raise KeyboardInterrupt
    finally:
        for future in in_flight:
            future.cancel()
    return exhausted
