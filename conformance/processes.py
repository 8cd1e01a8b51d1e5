"""Work items each in a forked process of its own, a few at a time, each within a time limit: what `azul
mutants` does with the catalogue (mutants/run.py) and benchmarks/generated_mutants.py with generated mutants.

A process per item isolates what an item may break in its process (a mutant patches the reference engine; a
wrong reading may loop or exhaust the stack), and a process that overruns `limit` seconds is killed. Fork: the
work function and its data reach the child without pickling; only the answer comes back, through a pipe.

(`azul conform -j`, harness/parallel.py, keeps long-lived workers, each with its engine, that are handed case
after case; `azul fuzz -j`, fuzz/run.py, hands blocks to a concurrent.futures pool or to a Dask cluster behind
one executor interface. Neither is a process per item.)
"""

from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable, TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Ended:
    """An item's process that gave no answer: it died, or it overran its limit and was killed."""

    overran: bool
    exit_code: int | None
    seconds: float


def each_in_a_process(items: Iterable[Item], work: Callable[[Item], Any], on_answer: Callable[[Item, Any], None],
                      jobs: int = 0, limit: float = 300.0, budget: float | None = None) -> list[Item]:
    """Call work(item) in a forked process for each item, `jobs` at a time (0: one per core), and
    on_answer(item, its return value or an Ended) here as each ends. No item is started once `budget` seconds
    have gone; those are returned, in order (empty when every item ran)."""
    context = multiprocessing.get_context("fork")
    waiting = list(items)
    jobs = jobs or os.cpu_count() or 1
    running: dict = {}  # connection -> (process, item, started)
    began = time.perf_counter()
    while waiting or running:
        while waiting and len(running) < jobs and (budget is None or time.perf_counter() - began < budget):
            item = waiting.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_answer, args=(sender, work, item), daemon=True)
            process.start()
            sender.close()
            running[receiver] = (process, item, time.perf_counter())
        if not running:
            break
        deadline = min(started + limit for _, _, started in running.values())
        for receiver in wait(list(running), timeout=max(0.0, deadline - time.perf_counter())):
            process, item, started = running.pop(receiver)
            try:
                answer = receiver.recv()
            except EOFError:  # the process died before answering
                process.join(5)
                answer = Ended(False, process.exitcode, round(time.perf_counter() - started, 2))
            process.join(5)
            on_answer(item, answer)
        for receiver, (process, item, started) in list(running.items()):
            if time.perf_counter() - started > limit:
                process.kill()
                process.join(5)
                del running[receiver]
                on_answer(item, Ended(True, process.exitcode, round(limit, 2)))
    return waiting


def _answer(connection, work: Callable[[Any], Any], item: Any) -> None:
    connection.send(work(item))
    connection.close()
