"""conformance/processes.py: worker processes started and supervised in one place. A worker that dies or
overruns is reported as an Ended (a process per item) or as the call's WorkerLost (a pool), and the work goes on."""

from __future__ import annotations

import os
import time

import pytest

from azul_conformance.processes import Crew, Ended, Pool, WorkerLost, each_in_a_process, stop


def square(number: int) -> int:
    return number * number


def refuse(number: int) -> int:
    raise ValueError(f"no {number}")


def die(code: int) -> None:
    os._exit(code)


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_each_item_answers_in_its_own_process_and_one_that_dies_or_overruns_is_an_ended():
    answers: dict = {}

    def work(item):
        if item == "dies":
            os._exit(3)
        if item == "hangs":
            time.sleep(60)
        return item, os.getpid()

    started = time.monotonic()
    left = each_in_a_process(["a", "dies", "hangs", "b"], work, answers.__setitem__, jobs=2, limit=1.5)
    assert left == [] and time.monotonic() - started < 20  # the hanging one was killed, not waited out
    assert answers["dies"] == Ended(False, 3, answers["dies"].seconds)
    assert answers["hangs"] == Ended(True, -9, 1.5)
    assert answers["a"][0] == "a" and answers["b"][0] == "b"
    assert len({answers["a"][1], answers["b"][1], os.getpid()}) == 3  # a process of its own each


def test_no_item_is_started_once_the_budget_is_spent():
    answers: dict = {}
    naps = [0.3, 0.31, 0.32, 0.33]
    left = each_in_a_process(naps, nap, answers.__setitem__, jobs=1, budget=0.5)
    assert 1 <= len(answers) <= 2 and list(answers) + left == naps


def test_a_pool_gives_back_each_call_s_value_or_its_error_and_outlives_a_worker_that_dies():
    pool = Pool(2)
    try:
        values = [pool.submit(square, n) for n in range(10)]
        refused = pool.submit(refuse, 7)
        lost = pool.submit(die, 5)
        after = pool.submit(square, 12)
        assert [pending.result() for pending in values] == [n * n for n in range(10)]
        with pytest.raises(ValueError, match="no 7"):
            refused.result()
        with pytest.raises(WorkerLost, match="exit status 5") as caught:
            lost.result()
        assert caught.value.ended.exit_code == 5
        assert after.result() == 144 and len(pool.crew.workers) == 2  # the dead worker was replaced
        done = pool.wait([pool.submit(nap, 5), quick := pool.submit(nap, 0)])
        assert done == [quick]
    finally:
        started = time.monotonic()
        pool.close(grace=1)
    assert time.monotonic() - started < 5  # the sleeping call's worker was ended, not waited for


def test_a_pool_call_not_handed_out_yet_can_be_cancelled():
    pool = Pool(1)
    try:
        running, waiting = pool.submit(nap, 0.5), pool.submit(square, 3)
        assert waiting.cancel() and not running.cancel()
        assert running.result() == 0.5
        with pytest.raises(RuntimeError, match="cancelled"):
            waiting.result()
    finally:
        pool.close()


def talk(conn, count) -> None:
    """A crew's worker: answers each number with its square, counting them."""
    while (number := conn.recv()) is not None:
        count.value += 1
        conn.send(number * number)


def test_a_crew_worker_is_replaced_and_each_is_ended_on_close():
    crew = Crew(talk, (), 2, counted=True)
    first, second = crew.workers
    assert first.send(4) and first.receive() == 16 and first.count.value == 1
    first.process.kill()
    assert crew.wait(5) == [first] and isinstance(first.receive(), Ended)
    replacement = crew.retire(first, replace=True)
    assert crew.workers == [second, replacement] and replacement.send(5) and replacement.receive() == 25
    processes = [worker.process for worker in crew.workers]
    crew.close()
    assert not any(process.is_alive() for process in processes)
    stop([])  # nothing to stop: nothing waited for
