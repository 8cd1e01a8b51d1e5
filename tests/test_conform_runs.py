"""Runs of `azul conform` never lose or mix results: an interrupted `-j 2` run keeps every case judged, two runs
cannot share a report folder, a damaged `--compare` report is refused before the run, and a run without
--report-dir writes its counterexamples to a private temporary folder it names.

The interrupts are real signals sent to a real `azul conform -j 2` against a slow engine
(tests/fake_engines/slow.py), and the report is read back afterwards.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from azul_conformance.harness import read_report
from azul_conformance.readers import public_text
from hostile_runs import DAMAGED_REPORTS

AZUL = str(Path(sys.executable).parent / "azul")
FAKES = Path(__file__).parent / "fake_engines"
SLOW = shlex.join([sys.executable, str(FAKES / "slow.py"), "--delay", "0.05"])
SCENARIOS = 40  # enough cases that an interrupt falls mid-run


def start(*args: str) -> subprocess.Popen:
    # SIGINT as a terminal's Ctrl-C delivers it: a test runner started in the background may ignore it
    return subprocess.Popen([AZUL, "conform", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def judged_lines(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text(errors="replace").splitlines() if '"type":"case"' in line)


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_parallel_run_keeps_every_case_judged(tmp_path, sent):
    run = start("--engine", SLOW, "-j", "2", "--no-properties", "--report-dir", str(tmp_path), "--timeout", "30")
    try:
        deadline = time.monotonic() + 120
        # until the run is well under way: its progress line says cases are done
        while time.monotonic() < deadline and not (tmp_path / "report.jsonl").exists():
            time.sleep(0.05)
        time.sleep(6)
        run.send_signal(sent)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    report = read_report(tmp_path / "report.jsonl")
    assert "Traceback" not in err, err
    assert run.returncode == 1  # as an interrupted -j 1 run: click's "Aborted!"
    assert report.interrupted and report.footer is not None and not report.problems
    ids = [r.id for r in report.results]
    assert len(ids) == len(set(ids)) == report.header["cases"]  # every case once, none lost, none twice
    verdicts = [r.verdict for r in report.results]
    judged = [v for v in verdicts if v != "not_run"]
    assert judged and set(judged) == {"pass"}, verdicts  # what was judged before the signal is kept
    assert "not_run" in verdicts and all(r.message == "not run: the run was interrupted"
                                         for r in report.results if r.verdict == "not_run")
    assert "interrupted" in (tmp_path / "junit.xml").read_text()
    assert not (tmp_path / ".azul-lock").exists()


def test_a_second_run_on_a_report_folder_refuses_at_once_naming_it(tmp_path):
    first = start("--engine", SLOW, "-j", "1", "--no-properties", "--report-dir", str(tmp_path),
                  "--only", "offer-*")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and judged_lines(tmp_path / "report.jsonl") < 2:
            time.sleep(0.05)
        second = subprocess.run([AZUL, "conform", "--report-dir", str(tmp_path), "--no-properties"],
                                capture_output=True, text=True, timeout=60)
        out, err = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
    text = " ".join(second.stdout.split())
    assert second.returncode == 2 and f"is using the report folder {tmp_path}" in text, second.stdout
    assert f"pid {first.pid}" in text and "Traceback" not in second.stderr
    assert first.returncode == 0, out + err
    report = read_report(tmp_path / "report.jsonl")  # the first run's report, whole and unmixed
    assert not report.interrupted and not report.problems and len(report.results) == report.header["cases"]
    assert b"\0" not in (tmp_path / "report.jsonl").read_bytes()
    assert report.header["command"] == public_text(SLOW)  # paths in the repository relative to it


def test_the_lock_of_a_crashed_run_is_released(tmp_path):
    code = ("import sys, time; from azul_conformance.harness.folder_lock import take; "
            "take(sys.argv[1], 'x'); print('held', flush=True); time.sleep(120)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / ".azul-lock")], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout.readline().strip() == "held"
    refused = subprocess.run([AZUL, "conform", "--report-dir", str(tmp_path), "--only", "SETUP-6"],
                             capture_output=True, text=True, timeout=60)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    assert refused.returncode == 2 and not (tmp_path / "report.jsonl").exists()
    after = subprocess.run([AZUL, "conform", "--report-dir", str(tmp_path), "--only", "SETUP-6"],
                           capture_output=True, text=True, timeout=120)
    assert after.returncode == 0, after.stdout + after.stderr


@pytest.mark.parametrize("name", sorted(DAMAGED_REPORTS))
def test_a_damaged_compare_report_is_refused_at_its_line_before_the_run(tmp_path, name):
    from click.testing import CliRunner

    from azul_conformance.cli.conform import conform

    old = tmp_path / "old.jsonl"
    old.write_bytes(DAMAGED_REPORTS[name]())
    result = CliRunner().invoke(conform, ["--compare", str(old), "--only", "SETUP-6"])
    text = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert f"--compare {old}: damaged: {old}:" in text and "cases over" not in text  # no case was run
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_compare_report_cut_short_by_a_kill_is_still_compared(tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli.conform import conform

    old = tmp_path / "old.jsonl"
    header = {"type": "header", "format": "azul-conformance-report/1", "cases": 2}
    case = {"type": "case", "id": "setup-four-players-accepted", "verdict": "fail"}
    old.write_text(json.dumps(header) + "\n" + json.dumps(case) + '\n{"type": "case", "id": "b", "verd')
    result = CliRunner().invoke(conform, ["--compare", str(old), "--only", "SETUP-6"])
    assert result.exit_code == 0, result.output
    assert "fixed: 1" in result.output


def test_a_compare_path_that_is_a_device_is_refused(tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli.conform import conform

    result = CliRunner().invoke(conform, ["--compare", "/dev/zero", "--only", "SETUP-6"])
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_counterexamples_without_a_report_folder_go_to_a_private_folder_it_names(tmp_path):
    planted = Path("/tmp/azul-counterexamples")  # where they used to go, whoever had made it first
    buggy = shlex.join([sys.executable, str(FAKES / "two_bugs.py")])
    run = subprocess.run([AZUL, "conform", "--engine", buggy, "--only", "differential-legal-moves", "--examples", "5",
                          "-j", "1"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    said = [line for line in run.stdout.splitlines() if line.startswith("counterexamples: ")]
    assert run.returncode == 1 and said, run.stdout
    folder = Path(said[0].split(": ", 1)[1].rstrip("/"))
    assert folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith("azul-counterexamples-")
    assert oct(folder.stat().st_mode & 0o777) == "0o700" and list(folder.glob("*.yaml"))
    assert folder != planted and planted not in folder.parents
    assert list(tmp_path.iterdir()) == []


def test_a_run_without_counterexamples_leaves_no_temporary_folder(tmp_path):
    # a temporary folder of its own: other test processes' runs make and remove theirs in the shared one meanwhile
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    run = subprocess.run([AZUL, "conform", "--only", "SETUP-6"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TMPDIR": str(temporary)})
    assert run.returncode == 0 and "counterexamples:" not in run.stdout
    assert list(temporary.glob("azul-counterexamples-*")) == []
