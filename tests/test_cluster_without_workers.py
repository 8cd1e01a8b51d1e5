"""`azul fuzz --scheduler` and `azul replay --scheduler` on a cluster with no worker, or one a task keeps
killing: they said "(1 workers)" and waited for ever (past --time too), or ended in a KilledWorker traceback.
Now they say the cluster has no worker, keep the deadline, give up after a bound (exit status 2) and keep what
was played. Local clusters on the loopback interface; the bound is made short here, and every test ends within
a minute on a loaded machine."""

from __future__ import annotations

import functools
import logging
import os
import sys
import time
from pathlib import Path

import cloudpickle
import dask
import pytest
from click.testing import CliRunner
from distributed import Client, LocalCluster

from azul_conformance.cli import main
from azul_conformance.fuzz.campaign import CampaignError, CampaignSpec, run_block
from azul_conformance.fuzz.run import DaskExecutor, play_campaign
from azul_conformance.fuzz.state import StateFile

SAMPLES = Path(__file__).resolve().parents[1] / "conformance" / "records" / "samples"
FAKES = Path(__file__).parent / "fake_engines"

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module


def cluster(workers: int) -> LocalCluster:
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.CRITICAL)


@pytest.fixture
def empty():
    with cluster(0) as local:
        yield local.scheduler_address


@pytest.fixture
def short_wait(monkeypatch):
    monkeypatch.setattr(DaskExecutor, "TICK", 0.2)
    monkeypatch.setattr(DaskExecutor, "NO_WORKER", 3.0)


@pytest.mark.usefixtures("short_wait")
def test_fuzz_on_a_cluster_with_no_worker_says_so_and_gives_up_keeping_its_state(empty, tmp_path):
    started = time.monotonic()
    result = CliRunner().invoke(main, ["fuzz", "--games", "20", "--scheduler", empty, "--report-dir",
                                       str(tmp_path), "--shrink-seconds", "0"])
    assert result.exit_code == 2, result.output
    assert time.monotonic() - started < 45
    assert "(no worker yet)" in result.output and "1 workers" not in result.output
    assert f"the cluster at {empty} has had no worker for 3 s: giving up" in result.output
    assert (tmp_path / "fuzz-state.jsonl").exists() and "run the same command again to resume" in result.output


def test_fuzz_on_a_cluster_with_no_worker_keeps_its_deadline(empty, monkeypatch, tmp_path):
    monkeypatch.setattr(DaskExecutor, "TICK", 0.2)  # the bound left as it is (60 s): the deadline comes first
    started = time.monotonic()
    result = CliRunner().invoke(main, ["fuzz", "--time", "2s", "--scheduler", empty, "--report-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert time.monotonic() - started < 30
    assert "had no worker when the time given ran out" in result.output


@pytest.mark.usefixtures("short_wait")
def test_replay_on_a_cluster_with_no_worker_gives_up_with_exit_status_2(empty, tmp_path):
    result = CliRunner().invoke(main, ["replay", str(SAMPLES), "--scheduler", empty, "--jsonl",
                                       str(tmp_path / "verdicts.jsonl")])
    assert result.exit_code == 2, result.output
    assert "has no worker: waiting up to 3 s" in result.output and "has had no worker for 3 s" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "verdicts.jsonl").exists()


DOOMED = 10  # the block starting at game 10 kills every worker that runs it


def deadly(spec, first, count, deadline):
    if first == DOOMED:
        os._exit(1)
    return run_block(spec, first, count, deadline)


def test_a_block_that_kills_every_worker_ends_the_campaign_with_an_error_and_keeps_the_blocks_played(tmp_path):
    spec = CampaignSpec(seed=5, engine=f"{sys.executable} {FAKES / 'two_bugs.py'}", batched=False)
    # no retry of a task whose worker died; one task at a time on the worker, so that only the deadly one is
    # lost with it (a task merely waiting there when it dies counts as suspect too)
    settings = {"distributed.scheduler.allowed-failures": 0, "distributed.scheduler.worker-saturation": 1.0}
    with dask.config.set(settings), cluster(1) as local, Client(local) as client:
        client.wait_for_workers(1, timeout=600)
        state = StateFile(tmp_path / "state.jsonl", spec)
        try:
            with pytest.raises(CampaignError, match="killed every worker"):
                play_campaign(spec, state, DaskExecutor(client=client), 20, None, 5,
                              block_function=functools.partial(deadly))
        finally:
            state.close()
    kept = StateFile(tmp_path / "state.jsonl", spec)
    assert kept.findings.games >= DOOMED  # the blocks before the deadly one, recorded
    kept.close()
