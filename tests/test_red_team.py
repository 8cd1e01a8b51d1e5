"""What a red-team pass over the CLI found after the reliability work (issue 26), each with a clear error now:
a state read from a device without end, a fuzz state file that is also a report, a lock file planted as a symlink,
a scheduler address Dask cannot read, an interrupted campaign reported as a clean pass.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli import main
from azul_conformance.harness import read_report

AZUL = str(Path(sys.executable).parent / "azul")


@pytest.mark.parametrize("args", [["render", "/dev/zero"], ["perft", "--state", "/dev/zero", "--depth", "1"]])
def test_a_state_read_from_a_device_without_end_is_refused_not_read_into_memory(args):
    run = subprocess.run([AZUL, *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "/dev/zero: cannot be read: a device, not a regular file" in run.stderr


@pytest.mark.parametrize("name", ["report.jsonl", "junit.xml", "report.md"])
def test_a_fuzz_state_file_that_a_report_would_overwrite_is_refused(tmp_path, name):
    result = CliRunner().invoke(main, ["fuzz", "--games", "2", "--report-dir", str(tmp_path),
                                       "--state", str(tmp_path / name)])
    assert result.exit_code == 2 and "is written there at the end" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_lock_file_planted_as_a_symlink_is_not_followed(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / ".azul-lock").symlink_to(tmp_path / "target")
    run = subprocess.run([AZUL, "conform", "--only", "SETUP-6", "--report-dir", str(tmp_path / "reports")],
                         capture_output=True, text=True, timeout=120)
    # refused before anything runs, as a report folder in use is (exit 2), naming the lock file on conform's
    # console (its refusals are printed there, as the FIFO's is)
    assert run.returncode == 2 and "Traceback" not in run.stderr + run.stdout
    assert ".azul-lock" in run.stdout.replace("\n", "") and "a symbolic link" in run.stdout.replace("\n", "")
    assert not (tmp_path / "target").exists() and not (tmp_path / "reports" / "report.jsonl").exists()


@pytest.mark.parametrize("address", ["garbage", "tcp://[::1"])
def test_a_scheduler_address_dask_cannot_read_is_a_clear_error(tmp_path, address):
    pytest.importorskip("distributed")
    run = subprocess.run([AZUL, "fuzz", "--games", "2", "--scheduler", address, "--report-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert f"cannot reach the scheduler {address!r}" in run.stdout
    assert not (tmp_path / ".azul-lock").exists()  # released on the way out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_campaign_keeps_the_games_of_its_block_and_is_never_a_clean_pass(tmp_path, sent):
    """One block of 100,000 games, interrupted a few seconds in: the games it played are recorded (they were lost
    with the block), and the campaign is reported as interrupted (it was a clean pass of "0 games", exit 0)."""
    campaign = subprocess.Popen([AZUL, "fuzz", "--games", "1000000", "--block", "100000", "--report-dir",
                                 str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    state = tmp_path / "fuzz-state.jsonl"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not state.exists() or cpu_seconds(campaign.pid) < 6):
            time.sleep(0.05)  # until it has played for a while (on a loaded machine, wall time says little)
        campaign.send_signal(sent)
        out, err = campaign.communicate(timeout=60)
    finally:
        if campaign.poll() is None:
            campaign.kill()
    assert campaign.returncode == 1 and "Traceback" not in err, out + err
    report = read_report(tmp_path / "report.jsonl")
    assert report.interrupted and "interrupted" in (tmp_path / "junit.xml").read_text()
    blocks = [json.loads(line) for line in state.read_text().splitlines()[1:]]
    assert len(blocks) == 1 and 0 < blocks[0]["games"] < 100_000, (blocks, out, err)
    assert f"{blocks[0]['games']} games in all" in out
