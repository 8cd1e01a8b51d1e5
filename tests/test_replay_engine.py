"""`azul replay --engine`: a record judges an engine under test, claim by claim, through protocol v1 or in-process.

The engines are the reference served as a process (`azul serve`), the same with a catalogued misreading planted
(`azul serve --misreading ID`), and fake engines that hang or crash (tests/fake_engines)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.records import sample_paths

SERVE = f"{sys.executable} -c 'import sys; from azul_conformance.cli import main; sys.exit(main())' serve"
FAKES = Path(__file__).parent / "fake_engines"
INPROCESS = Path(__file__).parent / "inprocess_engines" / "engines.py"
SAMPLE = next(p for p in sample_paths() if p.name == "two-player.azr")


def _run(*args: str):
    result = CliRunner().invoke(replay_command, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def _first_line_with(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_the_reference_served_as_a_process_agrees_with_every_claim():
    result = _run(SAMPLE, "--engine", SERVE, "-q")
    assert result.exit_code == 0, result.output
    assert "20 claims checked on azul-reference" in result.output and "all correct" in result.output


def test_an_in_process_engine_is_judged_the_same_way():
    result = _run(SAMPLE, "--engine", f"py:{INPROCESS}:make_engine", "-q")
    assert result.exit_code == 0, result.output
    assert "20 claims checked on" in result.output


def test_a_planted_scoring_bug_is_found_at_the_first_score_claim_with_its_rule():
    # score-lone-tile-2: a tile with no neighbour scores 2. Round 1, Ana: B alone (2), W under it (a column
    # of 2: 2), B alone on row 3 (2), one floor tile (-1) = 5 where the rules give 3; Ben: K and Y alone
    # (2 + 2), floor M K K (-4) = 0 as the rules' 0. No claim before the first [%score] reads a score.
    result = _run(SAMPLE, "--engine", f"{SERVE} --misreading score-lone-tile-2", "-q")
    assert result.exit_code == 1
    line = _first_line_with(SAMPLE, "[%score")
    assert result.output.startswith(f"{SAMPLE}:{line}:1: claim [%score 3 0]"), result.output[:300]
    assert "does not hold on the engine" in result.output
    assert "rule:   SCORE-1" in result.output
    assert "ours:   3 0" in result.output and "engine: 5 0" in result.output
    assert "The table at that point:" in result.output and "score 5" in result.output


def test_a_planted_refusal_is_the_engine_refusing_a_legal_take_at_its_line():
    # offer-last-space-refused: a line with one free space left refuses tiles. Round 2, Ben's 5R3 puts the one
    # red of factory 5 (YRKW) on his line 3, which holds the 2 reds of his CR3 in round 1: its last space.
    result = _run(SAMPLE, "--engine", f"{SERVE} --misreading offer-last-space-refused", "-q")
    assert result.exit_code == 1
    line = _first_line_with(SAMPLE, "3. 5R3")
    assert result.output.startswith(f"{SAMPLE}:{line}:4: take 5R3"), result.output[:300]
    assert "is refused by the engine" in result.output and "rule:   OFFER-12" in result.output
    assert "ours:   the record plays it, as our rules allow" in result.output


def test_an_engine_that_hangs_is_cut_at_the_timeout_and_said_so():
    result = _run(SAMPLE, "--engine", f"{sys.executable} {FAKES / 'hang.py'}", "--timeout", "0.5", "-q")
    assert result.exit_code == 1
    line = _first_line_with(SAMPLE, "1. 4B3")
    assert result.output.startswith(f"{SAMPLE}:{line}:4: the engine failed on take 4B3"), result.output[:300]
    assert "no reply within 0.5 s" in result.output and "thinking very hard..." in result.output


def test_an_engine_that_crashes_is_said_to_have_crashed_with_its_stderr():
    result = _run(SAMPLE, "--engine", f"{sys.executable} {FAKES / 'crash_midgame.py'}", "-q")
    assert result.exit_code == 1
    assert "the engine failed on take 3R4" in result.output and "exit status 3" in result.output
    assert "fatal: the factory fell off the table" in result.output


def test_an_engine_that_cannot_start_is_a_clear_error():
    result = _run(SAMPLE, "--engine", "./no-such-engine-here", "-q")
    assert result.exit_code == 1
    assert "cannot start engine './no-such-engine-here'" in result.output


def test_a_record_that_parts_ways_with_our_rules_cannot_judge_an_engine(tmp_path):
    path = tmp_path / "wrong.azr"
    text = SAMPLE.read_text(encoding="utf-8").replace("[%score 3 0]", "[%score 4 0]", 1)
    path.write_text(text, encoding="utf-8")
    result = _run(path, "--engine", f"{sys.executable} {FAKES / 'hang.py'}", "--timeout", "0.5", "-q")
    assert result.exit_code == 1
    assert result.output.startswith("The record itself parts ways with our rules")
    assert "claim [%score 4 0]" in result.output and "is wrong" in result.output
    assert "no reply" not in result.output  # the engine, which hangs on its first move, was not asked to play


@pytest.mark.parametrize("paths", [[SAMPLE.parent], [SAMPLE, SAMPLE]], ids=["folder", "two files"])
def test_the_engine_option_takes_one_record(paths):
    result = CliRunner().invoke(replay_command, [*map(str, paths), "--engine", SERVE])
    assert result.exit_code == 2 and "--engine work on one record" in result.output
