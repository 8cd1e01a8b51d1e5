"""Long text from outside never makes a command's output slow: a recording's header fields and a report's case ids
are bounded when read (over the bound: an error naming the file, the line and the field), and what is printed is
clipped first, saying how long it was. Printed whole, a 100 KB recording header field took 44-84 s (300 KB: more
than 5 minutes) and two 100 KB case ids took `azul diagnose` 82 s, in the terminal's highlighter."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.conform import conform
from azul_conformance.cli.diagnose import diagnose
from azul_conformance.harness.report import read_report, recording_line

CASE = "floor-overflow-to-lid"
LONG = 300_000


def timed(command, args: list[str]) -> tuple[int, str, float]:
    started = time.monotonic()
    result = CliRunner().invoke(command, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output[-3000:]
    return result.exit_code, result.output, time.monotonic() - started


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("recorded")
    status, output, _ = timed(conform, ["--only", CASE, "--report-dir", str(folder / "live"),
                                        "--record", str(folder / "session.jsonl.gz")])
    assert status == 0, output
    with gzip.open(folder / "session.jsonl.gz", "rt", encoding="utf-8") as handle:
        return folder, [json.loads(line) for line in handle]


def recording_with(folder: Path, lines: list[dict], **header: str) -> Path:
    path = folder / f"with-{len(json.dumps(header))}.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in [{**lines[0], **header}, *lines[1:]])
    return path


def test_a_recording_header_field_past_the_bound_is_refused_naming_file_line_and_field(recorded, tmp_path):
    folder, lines = recorded
    path = recording_with(folder, lines, upstream="u" * LONG)
    status, output, seconds = timed(conform, ["--only", CASE, "--report-dir", str(tmp_path), "--recording", str(path)])
    assert status != 0 and seconds < 20
    assert f"{path}:1: the header's field 'upstream' holds 300,000 characters (at most 4,096)" in output
    assert len(output) < 2_000


def test_a_recording_header_field_name_past_the_bound_is_refused(recorded, tmp_path):
    folder, lines = recorded
    path = recording_with(folder, lines, **{"n" * LONG: "x"})
    status, output, seconds = timed(conform, ["--only", CASE, "--report-dir", str(tmp_path), "--recording", str(path)])
    assert status != 0 and seconds < 20
    assert f"{path}:1: the header's a field named in 300,000 characters (at most 200)" in output


def test_a_long_recording_header_field_within_the_bound_is_printed_clipped(recorded, tmp_path):
    folder, lines = recorded
    path = recording_with(folder, lines, upstream="u" * 4_000, commit="c" * 4_000)
    status, output, seconds = timed(conform, ["--only", CASE, "--report-dir", str(tmp_path), "--recording", str(path)])
    assert status == 0 and seconds < 20, output
    assert "u" * 200 + "... (4,000 characters, clipped)" in output and "u" * 201 not in output
    assert "c" * 201 not in output
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "u" * 201 not in text and "(4,000 characters, clipped)" in text


def test_long_case_ids_of_a_report_are_left_out_naming_file_and_line(tmp_path):
    engine = {"name": "n" * LONG, "version": "1", "protocol": 1, "capabilities": {}}
    rows = [{"type": "header", "engine": engine, "command": "c" * LONG, "cases": 3},
            *({"type": "case", "id": f"{'a' * LONG}{i}", "kind": "scenario", "rules": ["OFFER-5"], "verdict": "fail",
               "message": "m"} for i in range(2)),
            {"type": "case", "id": "offer-marker-first-centre-take", "kind": "scenario", "rules": ["OFFER-5"],
             "verdict": "pass"},
            {"type": "footer"}]
    (tmp_path / "report.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    status, output, seconds = timed(diagnose, [str(tmp_path), "-j", "1"])
    assert seconds < 20 and len(output) < 5_000, output[:3000]
    for line in (2, 3):
        assert f"{tmp_path / 'report.jsonl'}:{line}: not a case of a report: case {'a' * 60}... (300,001 characters, " \
               "clipped): id must be a case id (1 to 200 characters)" in output
    report = read_report(tmp_path / "report.jsonl")
    assert [r.id for r in report.results] == ["offer-marker-first-centre-take"]
    assert "engine" not in report.header and "command" not in report.header  # left out, each named
    assert any(":1: header: engine must be" in problem for problem in report.problems)
    assert any("command must be a text of at most 4,096 characters" in problem for problem in report.problems)


def test_a_report_s_recording_line_is_clipped():
    header = {"recording": {"file": "f" * LONG, "upstream": "u" * LONG, "commit": "c" * LONG, "date": "2026-12-06"}}
    line = recording_line(header)
    assert len(line) < 1_000 and line.count("300,000 characters, clipped") == 3
