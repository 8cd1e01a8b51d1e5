"""`azul conform`, `azul smoke` and `azul perft` from the command line, and --compare."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.conform import conform
from azul_conformance.cli.perft import perft
from azul_conformance.harness.report import read_report

ROOT = Path(__file__).resolve().parents[1]
SERVE = f"{sys.executable} -c 'from azul_conformance.cli import main; main()' serve"
# pyenv's Python 3.12 where no python3.12 is on the PATH (its shim may exist without the version selected)
THIRD_PARTY_PYTHONS = [os.environ.get("PYTHON312", ""), shutil.which("python3.12") or "",
                       *map(str, sorted(Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
                                        .glob("versions/3.12*/bin/python3.12")))]


def test_help_teaches_with_examples():
    result = CliRunner().invoke(conform, ["--help"])
    assert result.exit_code == 0 and "Examples:" in result.output and "--compare" in result.output


def test_reference_in_process_passes_everything(tmp_path):
    result = CliRunner().invoke(conform, ["--report-dir", str(tmp_path), "--examples", "5"])
    report = read_report(tmp_path / "report.jsonl")
    assert result.exit_code == 0, result.output
    assert report.footer["counts"]["pass"] == len(report.results) > 20


def test_reference_as_a_subprocess_passes_everything(tmp_path):
    result = CliRunner().invoke(conform, ["--engine", SERVE, "--report-dir", str(tmp_path), "--examples", "5"])
    assert result.exit_code == 0, result.output
    assert "# Conformance report: azul-reference" in (tmp_path / "report.md").read_text()


def test_compare_shows_fixed_and_newly_failing(tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(json.dumps(x) for x in [
        {"type": "header"},
        {"type": "case", "id": "property-invariants", "kind": "property", "verdict": "fail", "message": "x"},
        {"type": "footer"}]) + "\n")
    result = CliRunner().invoke(conform, ["--only", "property-invariants,SETUP-3", "--examples", "3",
                                          "--compare", str(old)])
    assert result.exit_code == 0
    assert "fixed: 1" in result.output and "property-invariants: fail -> pass" in result.output
    assert "newly failing: 0" in result.output


def test_only_selects_by_rule_and_exit_status_is_non_zero_on_failure(tmp_path):
    fake = ROOT / "tests" / "fake_engines" / "reject_all.py"
    result = CliRunner().invoke(conform, ["--engine", f"{sys.executable} {fake}", "--only", "property-invariants",
                                          "--examples", "3", "--report-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert [r.id for r in read_report(tmp_path / "report.jsonl").results] == ["property-invariants"]


def test_perft_command():
    result = CliRunner().invoke(perft, ["--depth", "1"])
    assert result.exit_code == 0 and result.output.startswith("perft(1) = ")


def _python312() -> str | None:
    for candidate in THIRD_PARTY_PYTHONS:
        if candidate and subprocess.run([candidate, "--version"], capture_output=True, timeout=20).returncode == 0:
            return candidate
    return None


@pytest.mark.third_party
def test_the_third_party_engine_is_judged_and_its_deviations_found(tmp_path):
    if _python312() is None and not os.environ.get("CI"):
        pytest.skip("python3.12 is absent (needed by azul-game-engine); CI runs this test")
    folder = ROOT / "adapters" / "azul-game-engine"
    subprocess.run([str(folder / "build")], check=True, timeout=900, capture_output=True)
    command = f"{folder / '.build' / 'venv' / 'bin' / 'python'} {folder / 'adapter.py'}"
    result = CliRunner().invoke(conform, ["--engine", command, "--examples", "3",
                                          "--report-dir", str(tmp_path), "--only", "OFFER,ROUND-2,differential-*"])
    assert result.exit_code == 1  # the engine deviates
    report = read_report(tmp_path / "report.jsonl")
    broken = {r.rule or r.rules[0] for r in report.results if r.verdict == "fail"}
    assert {"OFFER-6", "ROUND-2"} <= broken, broken
    assert (tmp_path / "report.md").exists()


def test_only_that_selects_nothing_is_an_error_not_a_clean_run(tmp_path):
    result = CliRunner().invoke(conform, ["--only", "NOPE-1", "--report-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "selects no case" in result.output


def test_compare_with_something_that_is_no_report_stops_before_the_run(tmp_path):
    junk = tmp_path / "old.jsonl"
    junk.write_text("not json\n", encoding="utf-8")
    result = CliRunner().invoke(conform, ["--compare", str(junk)])
    output = " ".join(result.output.split())  # the terminal wraps long lines
    assert result.exit_code == 2
    assert "not a conformance report" in output and "old.jsonl:1: not valid JSON" in output
    assert "cases over" not in output  # nothing was run
