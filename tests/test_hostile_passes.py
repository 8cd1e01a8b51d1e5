"""What the hostile passes found (docs/reference/hostile-passes.md), each held to a clear error or a correct
result: files that are not regular files (a FIFO nobody writes to, /dev/zero), given where a state, a scenario
file or a report is read. Each command runs in its own process under a timeout, since the failure was a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

AZUL = [sys.executable, "-c", "from azul_conformance.cli import main; main()"]
NO_FIFOS = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def azul(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """`azul ARGS` in `cwd`, its output as text; a hang fails the test (TimeoutExpired) instead of blocking it."""
    return subprocess.run([*AZUL, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@NO_FIFOS
@pytest.mark.parametrize("args", [
    ["render", "{}"], ["perft", "--depth", "1", "--state", "{}"],
    ["conform", "--no-properties", "--scenarios", "{}"], ["scenarios", "run", "{}"],
    ["diagnose", "{}"],
], ids=lambda args: " ".join(args[:2]))
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_is_refused_by_name_without_waiting_or_reading(args, kind, tmp_path):
    # render and perft --state waited for ever on a FIFO; conform --scenarios and scenarios run too (the suite's
    # fingerprint read every scenario file whole), and read /dev/zero until memory ran out.
    path = tmp_path / "pipe"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    result = azul(*[str(path) if arg == "{}" else arg for arg in args], cwd=tmp_path, timeout=30)
    assert result.returncode == 1, result.stdout + result.stderr
    said = result.stdout + result.stderr
    assert f"a {'FIFO' if kind == 'fifo' else 'device'}, not a regular file" in said \
        or "not a regular file" in said, said
    assert "Traceback" not in said


def test_a_state_larger_than_any_state_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20))
    for args in (["render", str(big)], ["perft", "--depth", "1", "--state", str(big)]):
        result = azul(*args, cwd=tmp_path)
        assert result.returncode == 1 and "larger than 1 MB: not read" in result.stderr, result.stderr


BUGGY = f"{sys.executable} {Path(__file__).parent / 'fake_engines' / 'two_bugs.py'}"


def test_fuzz_never_writes_its_state_or_counterexamples_through_a_link_out_of_the_report_folder(tmp_path):
    # The state file was appended to through a link planted at reports/fuzz-state.jsonl, outside the folder.
    reports, outside = tmp_path / "reports", tmp_path / "outside"
    reports.mkdir()
    (outside / "counterexamples").mkdir(parents=True)
    (reports / "fuzz-state.jsonl").symlink_to(outside / "state.jsonl")
    (reports / "counterexamples").symlink_to(outside / "counterexamples")
    args = ["fuzz", "--engine", BUGGY, "--games", "20", "--shrink-seconds", "0", "--report-dir", str(reports)]
    result = azul(*args, cwd=tmp_path)
    assert result.returncode == 1 and "fuzz-state.jsonl: a symbolic link" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (outside / "state.jsonl").exists()
    (reports / "fuzz-state.jsonl").unlink()  # the state file alone: the counterexamples' link is replaced
    result = azul(*args, cwd=tmp_path)
    assert result.returncode == 1 and "distinct deviations" in result.stdout, result.stdout + result.stderr
    assert sorted(p.name for p in outside.rglob("*")) == ["counterexamples"]  # nothing written out there
    assert not (reports / "counterexamples").is_symlink()
    assert list((reports / "counterexamples").glob("fuzz-*.yaml"))
