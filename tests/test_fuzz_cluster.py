"""`azul fuzz --scheduler`: the same campaign on a Dask cluster, here a local one of two worker processes on
the loopback interface, one of which dies in the middle of a block. The dead worker's block is played again
elsewhere; every game is recorded exactly once and the findings are those of a campaign in one process.

Nothing here is timed: each test gets a cluster of its own (none waits for a worker another test killed to be
restarted) and waits for its two workers with a generous timeout, so a heavily loaded machine is only slower."""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
from pathlib import Path

import cloudpickle
import pytest
from distributed import Client, LocalCluster

from azul_conformance.fuzz.campaign import CampaignSpec, close_engines, run_block
from azul_conformance.fuzz.state import StateFile
from azul_conformance.fuzz.run import DaskExecutor, LocalExecutor, play_campaign

FAKES = Path(__file__).parent / "fake_engines"
# Step by step (every move a request): blocks long enough that both workers take some before the doomed one
# dies; with play_game one worker can finish the others first.
SPEC = CampaignSpec(seed=5, engine=f"{sys.executable} {FAKES / 'two_bugs.py'}", batched=False)
GAMES, BLOCK, DOOMED = 40, 5, 10  # the block starting at game 10 kills its worker the first time it runs

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module


def die_once(marker: str, spec, first, count, deadline):
    """run_block, except that the first worker to start the doomed block dies half-way through it."""
    if first == DOOMED:
        try:
            claim = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # only the first run claims it
        except FileExistsError:
            return run_block(spec, first, count, deadline)
        run_block(spec, first, count // 2, deadline)
        os.write(claim, str(os.getpid()).encode())
        os.close(claim)
        os._exit(1)
    return run_block(spec, first, count, deadline)


def findings_summary(findings) -> dict:
    return {"games": findings.games,
            "deviations": {key: (found.index, findings.counts[key]) for key, found in findings.deviations.items()}}


@pytest.fixture
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.CRITICAL) as local:
        with Client(local) as client:
            client.wait_for_workers(2, timeout=600)  # a condition, not a time: generous for a loaded machine
        yield local


def test_a_worker_dying_mid_campaign_loses_nothing_and_counts_nothing_twice(cluster, tmp_path):
    path, marker = tmp_path / "state.jsonl", tmp_path / "died"
    with Client(cluster) as client:
        executor = DaskExecutor(client=client)
        assert executor.workers == 2
        state = StateFile(path, SPEC)
        try:
            play_campaign(SPEC, state, executor, GAMES, None, BLOCK,
                          block_function=functools.partial(die_once, str(marker)))
        finally:
            state.close()
    assert marker.exists() and marker.read_text(), "the doomed block never ran, or its worker did not die"
    blocks = sorted((json.loads(line) for line in path.read_text().splitlines()[1:]), key=lambda b: b["block"])
    ranges = [(b["block"], b["block"] + b["games"]) for b in blocks]
    assert [start for start, _ in ranges] == [0] + [end for _, end in ranges[:-1]]  # every game once, in order
    assert ranges[-1][1] == GAMES and sum(b["games"] for b in blocks) == GAMES
    doomed = [b for b in blocks if b["block"] == DOOMED]
    assert len(doomed) == 1 and not doomed[0]["worker"].endswith(f":{marker.read_text()}")  # played elsewhere

    local_state = StateFile(tmp_path / "local.jsonl", SPEC)
    try:
        play_campaign(SPEC, local_state, LocalExecutor(1), GAMES, None, GAMES)
    finally:
        local_state.close()
        close_engines()
    assert findings_summary(state.findings) == findings_summary(local_state.findings)
    assert len(state.findings.deviations) == 2


def test_azul_fuzz_runs_on_a_scheduler_given_by_address(cluster, tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli import main

    result = CliRunner().invoke(main, ["fuzz", "--games", "30", "--block", "10", "--scheduler",
                                       cluster.scheduler_address, "--report-dir", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "Dask cluster tcp://127.0.0.1" in result.output and "(2 workers)" in result.output
    assert "30 games in all" in result.output and "0 distinct deviations" in result.output
    report = [json.loads(line) for line in (tmp_path / "r" / "report.jsonl").read_text().splitlines()]
    assert report[0]["type"] == "header" and report[0]["fuzz"]["games"] == 30 and report[0]["complete"] is True
    assert report[-1]["type"] == "footer" and report[-1]["counts"]["pass"] == 1
