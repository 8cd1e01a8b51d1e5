"""Reliability IV: what a run writes stays in the folder given and stays small, and what it cannot do it says.

Links planted in a report folder (report.jsonl, counterexamples/, a `.partial` file) are replaced, never written
through; an engine's text (a refusal of 2 MB) is clipped, saying so; a state naming seat 7 of a two-player table
is an impossible position, not an IndexError; `azul serve --misreading` refuses what it cannot serve; a full
disk names the report file and leaves no `.partial` file.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli import main
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness.report import read_report
from azul_conformance.properties.counterexample import write_counterexample
from azul_conformance.properties.play import GamePlan, Trace
from azul_conformance.results import CaseKind, CaseResult, Verdict

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fake_engines"
SERVE = f"{sys.executable} -c 'from azul_conformance.cli import main; main()' serve"


def conform(*args: str):
    return CliRunner().invoke(main, ["conform", "--no-diagnose", *args])


# -- 1. links in a report folder ---------------------------------------------------------------------------------

def test_links_planted_in_a_report_folder_are_replaced_never_written_through(tmp_path):
    """report.jsonl linked to a file outside got the run's rows; counterexamples/ linked to a folder outside got
    the shrunk games. Every link (a `.partial` name too) is now replaced by a file or folder of the run's own."""
    reports, outside = tmp_path / "reports", tmp_path / "outside"
    reports.mkdir()
    outside.mkdir()
    (outside / "mine.txt").write_text("keep")
    (reports / "report.jsonl").symlink_to(outside / "mine.txt")
    (reports / "counterexamples").symlink_to(outside)
    for name in ("report.jsonl.partial", "report.md.partial", "junit.xml.partial"):
        (reports / name).symlink_to(outside / name)
    result = conform("--engine", f"{SERVE} --misreading floor-penalties-flat", "--only", "differential-tiling",
                     "--examples", "5", "-j", "1", "--report-dir", str(reports))
    assert result.exit_code == 1, result.output  # the misreading fails the property: a counterexample is written
    assert sorted(p.name for p in outside.iterdir()) == ["mine.txt"] and (outside / "mine.txt").read_text() == "keep"
    assert not (reports / "report.jsonl").is_symlink() and read_report(reports / "report.jsonl").footer
    folder = reports / "counterexamples"
    assert not folder.is_symlink() and [p.name for p in folder.iterdir()] == ["differential-tiling.yaml"]
    assert sorted(p.name for p in reports.iterdir() if p.name != ".azul-lock") == \
        ["counterexamples", "junit.xml", "report.jsonl", "report.md"]


def test_a_counterexample_is_never_written_through_a_link(tmp_path):
    """A folder that is a link is refused; a link at the file's own name is replaced, its target untouched."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.yaml").write_text("keep")
    trace = Trace(GamePlan(), [])
    linked = tmp_path / "linked"
    linked.symlink_to(outside)
    with pytest.raises(ValueError, match="symbolic link"):
        write_counterexample(linked, "some-case", None, "why", trace, ReferenceEngine(0))
    folder = tmp_path / "counterexamples"
    folder.mkdir()
    (folder / "some-case.yaml").symlink_to(outside / "target.yaml")
    path = write_counterexample(folder, "some-case", None, "why", trace, ReferenceEngine(0))
    assert not path.is_symlink() and "some-case" in path.read_text()
    assert (outside / "target.yaml").read_text() == "keep"


# -- 2. an engine's text, clipped --------------------------------------------------------------------------------

def test_refusals_of_two_megabytes_leave_a_small_report_folder(tmp_path):
    """Every refusal's 2 MB message was stored whole: 121 MB of reports for --only SETUP."""
    engine = f"{sys.executable} {FAKES / 'huge_refusal.py'}"
    result = conform("--engine", engine, "--only", "SETUP", "--examples", "3", "-j", "1",
                     "--report-dir", str(tmp_path))
    assert result.exit_code == 1, result.output[-2000:]
    size = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert size < 2 * 2**20, size
    assert len(result.output) < 100_000
    report = read_report(tmp_path / "report.jsonl")
    said = [r.message for r in report.results if "no no no" in r.message]
    assert said and all(len(m) < 2_100 and re.search(r"\.\.\. \(2,097,\d{3} characters, clipped\)$", m) for m in said)
    for written in (tmp_path / "counterexamples").glob("*.yaml"):
        assert written.stat().st_size < 10_000 and "characters, clipped" in written.read_text()


def test_a_result_clips_every_text_once_and_keeps_the_tail_of_stderr():
    huge = "x" * 2_097_152
    result = CaseResult("c", CaseKind.SCENARIO, Verdict.ERROR, message=huge, stderr="e" * 10_000 + "the end",
                        actual={"code": "illegal_move", "message": huge}, details={"distinct": [{"message": huge}]},
                        diff="d" * 100_000)
    assert result.message == "x" * 2_000 + "... (2,097,152 characters, clipped)"
    assert result.actual["message"] == result.message and result.details["distinct"][0]["message"] == result.message
    assert result.stderr.startswith("(10,007 characters, clipped) ...") and result.stderr.endswith("the end")
    assert len(result.diff) < 20_100
    again = CaseResult.from_json(json.loads(json.dumps(result.to_json())))  # a report read back: clipped once
    assert again == result
    short = {"code": "illegal_move", "message": "no"}
    assert CaseResult("c", CaseKind.SCENARIO, Verdict.FAIL, actual=short).actual is short  # nothing to clip


# -- 3. a seat the table lacks -----------------------------------------------------------------------------------

SEAT_SEVEN = '''
import sys
sys.path.insert(0, {fakes!r})
from _common import serve


def hook(request, reply, server):
    if isinstance(reply.get("state"), dict):
        reply["state"]["turn"] = 7
    return reply


sys.exit(serve(hook))
'''


def test_a_state_naming_seat_seven_of_two_is_an_impossible_position_not_an_index_error(tmp_path):
    """Reading the board of the player to move (a grey-wall placement, the targeted properties) raised
    IndexError, which stood in the report as the verdict's message."""
    fake = tmp_path / "seat_seven.py"
    fake.write_text(SEAT_SEVEN.format(fakes=str(FAKES)))
    reports = tmp_path / "reports"
    result = conform("--engine", f"{sys.executable} {fake}", "--only", "deal-discards-go-to-lid,targeted-end-ties",
                     "--examples", "3", "-j", "1", "--report-dir", str(reports))
    assert result.exit_code == 1, result.output[-2000:]
    text = (reports / "report.jsonl").read_text()
    assert "IndexError" not in text and "IndexError" not in result.output
    report = read_report(reports / "report.jsonl")
    assert {r.id: r.verdict for r in report.results} == {"deal-discards-go-to-lid": "fail",
                                                          "targeted-end-ties": "fail"}
    assert all("turn 7 is not a seat of this 2-player table" in r.message for r in report.results)
    assert [d["id"] for d in report.deviations] == ["engine-fault-impossible-state"]


def test_seat_problems_name_each_seat_the_table_lacks():
    from azul_conformance.properties.invariants import seat_problems

    state = ReferenceEngine(0).new_game(2)
    assert seat_problems(state) == []
    bent = dict(state, turn=7, start_player=-1, marker=2, winners=[0, 9])
    assert [rule for rule, _ in seat_problems(bent)] == ["OFFER-1", "SETUP-5", "OFFER-5", "END-5"]
    assert "winner 9 is not a seat of this 2-player table (seats 0 to 1)" in seat_problems(bent)[-1][1]


# -- 4. azul serve --misreading ----------------------------------------------------------------------------------

@pytest.mark.parametrize("given, said", [
    ("floor-penalties-flat+score-lone-tile-2+score-lone-tile-0", "3 misreadings given: one, or two joined by +"),
    ("floor-penalties-flat+floor-penalties-flat", "floor-penalties-flat twice"),
    ("x" * 100_000, "characters, clipped): not in the catalogue"),
])
def test_serve_refuses_what_it_cannot_serve_and_clips_what_it_echoes(given, said):
    """A+B+C served A+B and dropped C without a word; a 100 KB id was echoed whole."""
    result = CliRunner().invoke(main, ["serve", "--misreading", given], input="")
    assert result.exit_code == 2 and said in result.output, result.output[:500]
    assert len(result.output) < 1_000


# -- 5. a full disk ----------------------------------------------------------------------------------------------

class _FullDisk:
    """A file being written on a full disk: every write fails as write(2) does."""

    def __init__(self, handle) -> None:
        self.handle = handle

    def write(self, _text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None: ...

    def close(self) -> None:
        self.handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *_) -> None:
        self.close()


def full_disk_for(monkeypatch, name: str) -> None:
    """Every file named `name` opened for writing (however: a path, or a descriptor) is on a full disk."""
    real = io.open

    def opened(file, mode="r", *args, **kwargs):
        handle = real(file, mode, *args, **kwargs)
        target = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.fspath(file)
        return _FullDisk(handle) if "w" in mode and os.path.basename(target) == name else handle

    monkeypatch.setattr(io, "open", opened)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a descriptor's file through /proc")
@pytest.mark.parametrize("name, report", [("report.jsonl", "report.jsonl"), ("report.jsonl.partial", "report.jsonl"),
                                          ("report.md.partial", "report.md"), ("junit.xml.partial", "junit.xml")])
def test_a_full_disk_names_the_report_and_leaves_no_partial_file(tmp_path, monkeypatch, name, report):
    """"No space left on device" named no file, and report.jsonl.partial was left behind."""
    full_disk_for(monkeypatch, name)
    result = conform("--only", "SETUP-6", "--no-properties", "-j", "1", "--report-dir", str(tmp_path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{tmp_path / report}: No space left on device" in result.output, result.output[-1000:]
    assert not list(tmp_path.glob("*.partial"))
