"""What each third-party adapter's test asks of the suite: `azul smoke` passes on the engine, and `azul conform`
on a few cases ends with the verdicts the engine's code explains, read back from the report as a user reads it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from click.testing import CliRunner

from azul_conformance.cli.conform import conform
from azul_conformance.cli.smoke import smoke
from azul_conformance.harness.report import RunReport, read_report


def smoke_output(engine: str) -> str:
    """The output of `azul smoke` on an engine that must pass every check."""
    result = CliRunner().invoke(smoke, ["--engine", engine])
    assert result.exit_code == 0 and "all checks passed" in result.output, result.output
    return result.output


def conform_report(engine: str, only: str, folder: Path, *options: str, exit_code: int = 1) -> RunReport:
    """The report of `azul conform` on the cases `only` picks, after checking its exit code (1: a case failed)."""
    result = CliRunner().invoke(conform, ["--engine", engine, "--only", only, *options, "--report-dir", str(folder)])
    assert result.exit_code == exit_code, result.output
    return read_report(folder / "report.jsonl")


def verdicts(report: RunReport) -> dict[str, str]:
    return {r.id: r.verdict for r in report.results}


def recorded(report: RunReport) -> list:
    """The results but those of cases the suite added after the engine's recording was made (not_run, "not
    recorded": judged again when the engine is recorded again; adapters/run_all.py --check bounds them at 5%)."""
    newer = [r for r in report.results if r.verdict == "not_run" and r.message.startswith("not recorded")]
    assert len(newer) <= 0.05 * len(report.results), [r.id for r in newer]
    return [r for r in report.results if r not in newer]


def live_engine(needs: dict[str, str], command: str) -> str:
    """The engine's live command, its $NAME words from the environment; the test is skipped, saying what to set,
    where the engine is not given (this project holds no code-host engine: whoever has it sets `needs`)."""
    missing = [name for name in needs if not os.environ.get(name)]
    if missing:
        pytest.skip("the engine is not here: set " + "; ".join(f"{name} ({needs[name]})" for name in missing))
    return os.path.expandvars(command)


def engine_or_recording(needs: dict[str, str], command: str, recording: Path) -> list[str]:
    """`--engine COMMAND` where the engine is given, else `--recording` of its committed session: the same cases
    get the same verdicts either way."""
    if all(os.environ.get(name) for name in needs):
        return ["--engine", os.path.expandvars(command)]
    return ["--recording", str(recording)]


def judged_report(source: list[str], only: str, folder: Path, *options: str, exit_code: int = 1) -> RunReport:
    """conform_report for an engine given as `--engine` or `--recording` (engine_or_recording)."""
    result = CliRunner().invoke(conform, [*source, "--only", only, *options, "--report-dir", str(folder)])
    assert result.exit_code == exit_code, result.output
    return read_report(folder / "report.jsonl")
