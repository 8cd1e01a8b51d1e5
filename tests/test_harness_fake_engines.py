"""Misbehaving engines, each a separate process, get the right verdict, and the reports are still written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.console import Console

from azul_conformance.harness import Session, read_report, run_session

FAKES = Path(__file__).parent / "fake_engines"
ONLY = ("setup-new-game-three-players", "offer-take-factory-colour-to-line", "property-invariants",
        "property-illegal-moves-refused", "property-listed-moves-accepted", "differential-legal-moves")


def run(fake: str, tmp_path: Path, only=ONLY, timeout: float = 2.0):
    session = Session(engine_command=f"{sys.executable} {FAKES / fake}.py", report_dir=str(tmp_path), only=only,
                      examples=5, seed=3, timeout=timeout)
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    report = read_report(tmp_path / "report.jsonl")
    assert not report.interrupted and len(report.results) == len(results)
    assert (tmp_path / "junit.xml").exists() and (tmp_path / "report.md").exists()
    return {r.id: r for r in results}, status


def verdicts(results, kind=None):
    return {r.verdict for r in results.values() if kind is None or r.kind == kind}


def test_crash_mid_game_is_a_crash_with_context_and_the_run_goes_on(tmp_path):
    results, status = run("crash_midgame", tmp_path)
    crashed = [r for r in results.values() if r.verdict == "crash"]
    assert crashed and status == 1
    first = crashed[0]
    assert first.exit_code == 3 and "fell off the table" in first.stderr
    assert first.request["cmd"] == "play"
    assert len(results) >= 3 and "not_run" not in verdicts(results)  # restarted: later cases were judged


def test_hanging_engine_times_out_and_is_killed(tmp_path):
    results, status = run("hang", tmp_path, only=("property-invariants", "setup-new-game-three-players"),
                          timeout=0.5)
    assert results["property-invariants"].verdict == "timeout"
    assert "thinking" in results["property-invariants"].stderr
    assert results["setup-new-game-three-players"].verdict == "pass"  # after the restart
    assert status == 1


def test_garbage_on_stdout_is_a_crash_quoting_the_line(tmp_path):
    results, _ = run("garbage", tmp_path, only=("property-invariants",))
    result = results["property-invariants"]
    assert result.verdict == "crash" and "DEBUG: generating moves" in result.message


def test_wrong_id_is_a_crash(tmp_path):
    results, _ = run("wrong_id", tmp_path, only=("property-invariants",))
    assert results["property-invariants"].verdict == "crash"
    assert "does not echo the request id" in results["property-invariants"].message


def test_engine_refusing_every_move_fails(tmp_path):
    results, status = run("reject_all", tmp_path)
    assert results["property-listed-moves-accepted"].verdict == "fail"
    assert results["property-invariants"].verdict == "fail"  # the walk's own move is refused
    assert status == 1


def test_engine_accepting_every_move_fails_the_illegal_move_property(tmp_path):
    results, _ = run("accept_all", tmp_path)
    result = results["property-illegal-moves-refused"]
    assert result.verdict == "fail" and "accepted" in result.message
    assert result.rule and result.rule.startswith(("OFFER", "SETUP"))
    assert result.counterexample and Path(result.counterexample).exists()


def test_engine_losing_tiles_breaks_setup_4(tmp_path):
    results, _ = run("lose_tiles", tmp_path, only=("property-invariants",))
    result = results["property-invariants"]
    assert result.verdict == "fail" and result.rule == "SETUP-4"
    text = Path(result.counterexample).read_text()
    assert "counterexample-property-invariants" in text and "deal 1:" in text


def test_unstartable_engine_exits_2(tmp_path):
    session = Session(engine_command=f"{sys.executable} -c 'import sys; sys.exit(7)'", report_dir=str(tmp_path),
                      only=("property-invariants",))
    _, status = run_session(session, Console(file=open("/dev/null", "w")))
    assert status == 2


def test_a_killed_run_leaves_a_readable_report(tmp_path):
    lines = [{"type": "header", "format": "azul-conformance-report/1", "cases": 3},
             {"type": "case", "id": "a", "kind": "scenario", "verdict": "pass"}]
    path = tmp_path / "report.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + '\n{"type": "case", "id": "b", "verd')
    report = read_report(path)
    assert report.interrupted and [r.id for r in report.results] == ["a"] and report.problems
