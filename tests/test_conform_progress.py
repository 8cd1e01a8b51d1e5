"""The progress display of `azul conform` (harness/progress.py): a live line on a terminal that fits its width
and never cuts an id, plain lines in a log, nothing when the terminal output is not asked for; the summary
after it is the same as without it."""

from __future__ import annotations

import io
import re
import sys
import types
from pathlib import Path

import pytest
from rich.console import Console

from azul_conformance.harness import progress
from azul_conformance.harness.cases import property_cases, scenario_cases
from azul_conformance.harness.progress import RunProgress
from azul_conformance.harness.session import Session, run_session

FAKES = Path(__file__).parent / "fake_engines"
SLOW = f"{sys.executable} {FAKES / 'slow.py'} --delay 0.005"
ONLY = ("OFFER-5", "property-invariants", "differential-takes")
IDS = {case.id for case in scenario_cases().cases} | {case.id for case in property_cases()}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def frames(text: str) -> list[str]:
    """Every line the terminal was shown, live frames included."""
    return [line for line in re.split(r"[\r\n]", ANSI.sub("", text)) if line.strip()]


@pytest.mark.parametrize("width", [24, 40, 60, 100])
def test_the_live_line_fits_the_terminal_and_never_cuts_an_id(width):
    out = io.StringIO()
    results, _ = run_session(Session(engine_command=SLOW, only=ONLY, examples=4, jobs=2),
                             Console(file=out, force_terminal=True, width=width))
    live = [line for line in frames(out.getvalue()) if re.search(r"\d+/%d\b" % len(results), line)]
    assert live, "no progress line was drawn"
    for line in live:
        assert len(line) <= width, line
        for word in re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", line):  # every id shown is whole
            assert word in IDS, (word, line)
    assert any("moves/s" in line for line in live) or width < 40


def test_parts_that_do_not_fit_are_left_out_whole_in_order():
    console = Console(file=io.StringIO(), force_terminal=True, width=200)
    shown = RunProgress(console, 212, moves=lambda: 5000)
    shown.done, shown.bad, shown.running = 90, 2, ["differential-tiling", "floor-overflow-to-lid"]
    lines = {}
    for width in (200, 70, 50, 30, 20):
        console.width = width
        text = io.StringIO()
        Console(file=text, width=width, color_system=None).print(shown._render())
        lines[width] = text.getvalue().rstrip("\n")
    assert "differential-tiling, floor-overflow-to-lid" in lines[200] and "moves/s" in lines[200]
    assert "differential-tiling" in lines[70] and "floor-overflow-to-lid" not in lines[70]
    assert lines[20] == "90/212  2 failures"
    assert all(len(line) <= width for width, line in lines.items())


def test_plain_lines_in_a_log_and_the_summary_unchanged(monkeypatch, tmp_path):
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.3)
    out = io.StringIO()
    results, _ = run_session(Session(engine_command=SLOW, only=ONLY, examples=4, jobs=1), Console(file=out, width=60))
    text = out.getvalue()
    plain = [line for line in text.splitlines() if line.startswith("conform: ")]
    assert plain, "no progress line in the log"
    for line in plain:  # everything, and never broken by us though longer than the console's 60 columns
        assert re.fullmatch(r"conform: \d+/%d cases, ([\d,.]+ \w+/s, )+\d:\d\d:\d\d(; running [a-z0-9, -]+)?"
                            % len(results), line), line
    summary_line = r"\d+ cases over \d+ rules in [\d.]+ s: \d+ pass"
    summary = [line for line in text.splitlines() if re.fullmatch(summary_line, line)]
    assert len(summary) == 1, text  # the summary line is there once, as before progress lines existed
    assert not any(line.startswith("conform: ") for line in text.splitlines()[text.splitlines().index(summary[0]):])

    quiet = io.StringIO()  # no terminal output asked for: no progress lines either
    run_session(Session(engine_command=SLOW, only=ONLY, examples=4, jobs=1, formats=("jsonl",),
                        report_dir=str(tmp_path / "r")), Console(file=quiet, width=60))
    assert "conform: " not in quiet.getvalue()


def test_a_fuzz_campaign_shows_games_by_block_its_speed_from_this_session_and_no_total_when_timed(monkeypatch):
    """`azul fuzz` uses the same display: games counted a block at a time, distinct deviations as the bad
    count, a resumed campaign's earlier games counted but not in the speed, no total for --time alone."""
    now = [1000.0]  # the display's clock, set by the test: what it shows does not depend on the machine's load
    monkeypatch.setattr(progress, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    console = Console(file=io.StringIO(), width=200)
    shown = RunProgress(console, 5000, label="fuzz", unit="game", bad_unit="deviation", already=1000)
    now[0] += 10  # ten seconds into the session
    assert shown.plain_line() == "fuzz: 1000/5000 games, 0.0 games/s, 0:00:10"
    shown.count(1500, 2)
    assert shown.plain_line() == "fuzz: 1500/5000 games, 2 deviations, 50.0 games/s, 0:00:10"
    timed = RunProgress(console, None, label="fuzz", unit="game", bad_unit="deviation")
    timed.count(7, 1)
    assert timed.plain_line().startswith("fuzz: 7 games, 1 deviation, ")
    text = io.StringIO()
    Console(file=text, width=60, color_system=None).print(timed._render())
    assert "7  1 deviation" in text.getvalue() and "None" not in text.getvalue()
