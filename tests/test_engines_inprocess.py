"""`--engine py:...`: a Python engine in the suite's own process, judged like one behind the protocol."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from azul_conformance.cli.conform import conform
from azul_conformance.engines import EngineCrash, EngineTimeout, open_engine
from azul_conformance.engines.inprocess import InProcessEngine, load_factory
from azul_conformance.harness import Session, read_report, run_session

ENGINES = Path(__file__).parent / "inprocess_engines" / "engines.py"
ONLY = ("setup-new-game-three-players", "setup-two-players-five-factories", "offer-refuse-absent-colour",
        "property-listed-moves-accepted")


def run(spec: str, tmp_path: Path, only=ONLY, timeout: float = 5.0):
    session = Session(engine_command=spec, report_dir=str(tmp_path), only=only, examples=3, seed=1, timeout=timeout)
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    return {r.id: r for r in results}, status


def test_a_factory_by_file_gives_the_verdicts_of_the_reference_engine(tmp_path):
    inproc, status = run(f"py:{ENGINES}:make_engine", tmp_path / "a")
    reference, _ = run(None, tmp_path / "b")
    assert status == 0 and {k: r.verdict for k, r in inproc.items()} == {k: r.verdict for k, r in reference.items()}
    assert set(r.verdict for r in inproc.values()) == {"pass"}


def test_a_factory_by_module_name_and_the_default_factory_name(monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES.parent))
    for spec in ("py:engines:make_engine", "py:engines", f"py:{ENGINES}"):
        engine = open_engine(spec)
        assert isinstance(engine, InProcessEngine) and engine.info.name == "azul-reference"
        assert engine.new_game(2)["phase"] == "deal"


def test_an_exception_in_the_engine_is_a_crash_verdict_and_the_run_goes_on(tmp_path):
    results, status = run(f"py:{ENGINES}:exploding", tmp_path, only=("property-invariants",
                                                                       "property-listed-moves-accepted"))
    crashed = results["property-invariants"]
    assert status == 1 and crashed.verdict == "crash"
    assert "ZeroDivisionError: fell off the table" in crashed.message and "Traceback" in crashed.stderr
    assert crashed.request["cmd"] == "play"
    assert results["property-listed-moves-accepted"].verdict == "pass"  # a fresh engine from the factory


def test_sys_exit_and_a_malformed_state_are_crashes_too(tmp_path):
    results, _ = run(f"py:{ENGINES}:exiting", tmp_path / "a", only=("property-invariants",))
    assert results["property-invariants"].verdict == "crash" and "SystemExit" in results["property-invariants"].message
    results, _ = run(f"py:{ENGINES}:babbling", tmp_path / "b", only=("setup-two-players-five-factories",))
    assert results["setup-two-players-five-factories"].verdict == "crash"
    assert "malformed" in results["setup-two-players-five-factories"].message


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_keyboard_interrupt_raised_by_the_engine_is_its_crash_on_every_jobs(tmp_path, jobs):
    """It stopped a -j 1 run (every case after it not run) and killed a -j 2 worker (`error`)."""
    session = Session(engine_command=f"py:{ENGINES}:interrupting", report_dir=str(tmp_path), jobs=jobs,
                      only=("property-listed-moves-accepted", "setup-two-players-five-factories"), examples=3,
                      seed=1)
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    verdicts = {r.id: r for r in results}
    crashed = verdicts["property-listed-moves-accepted"]
    assert status == 1 and crashed.verdict == "crash" and "KeyboardInterrupt" in crashed.message
    assert crashed.request["cmd"] == "legal_moves"
    assert verdicts["setup-two-players-five-factories"].verdict == "pass"  # a fresh engine; the run went on


def test_ctrl_c_during_an_in_process_engines_call_still_stops_the_run(tmp_path):
    """The user's Ctrl-C lands in the engine's call (its deals take 1.5 s): the run stops, keeping what it judged."""
    run = subprocess.Popen([str(Path(sys.executable).parent / "azul"), "conform", "--engine",
                            f"py:{ENGINES}:slow", "--timeout", "10", "--no-properties", "--no-diagnose",
                            "--report-dir", str(tmp_path), "--only", "offer-*"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and '"type":"case"' not in _text(tmp_path / "report.jsonl"):
            time.sleep(0.05)
        time.sleep(0.5)  # inside the next case's deal
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    report = read_report(tmp_path / "report.jsonl")
    assert run.returncode == 1 and report.interrupted, out + err
    assert "not_run" in {r.verdict for r in report.results} and "crash" not in {r.verdict for r in report.results}


def _text(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def test_an_answer_after_the_deadline_is_a_timeout():
    engine = open_engine(f"py:{ENGINES}:slow", timeout=1.0)  # a second for new_game, however loaded the machine
    engine.new_game(2)
    with pytest.raises(EngineTimeout):
        engine.deal()
    engine.restart()
    assert engine.new_game(2)["phase"] == "deal"


def test_states_are_copies_both_ways():
    engine = open_engine(f"py:{ENGINES}:make_engine")
    state = engine.new_game(2)
    state["boards"][0]["score"] = 99
    assert engine.state()["boards"][0]["score"] == 0


@pytest.mark.parametrize("spec, words", [
    ("py:no_such_module_anywhere:make", "No module named 'no_such_module_anywhere'"),
    (f"py:{ENGINES}:nothing_here", "has no callable 'nothing_here'"),
    (f"py:{ENGINES}:not_an_engine", "not an Engine"),
    (f"py:{ENGINES}:broken_factory", "RuntimeError: no table today"),
    ("py:missing/file.py:make", "no file missing/file.py"),
    ("py:", "expected py:MODULE:FACTORY"),
])
def test_a_factory_that_cannot_be_used_is_named_with_the_reason(spec, words):
    with pytest.raises(EngineCrash) as caught:
        InProcessEngine(load_factory(spec))
    assert words in caught.value.message


def test_the_cli_refuses_a_bad_factory_without_a_traceback():
    result = CliRunner().invoke(conform, ["--engine", "py:no_such_module_anywhere:make"])
    assert result.exit_code == 2 and "cannot start the engine" in result.output
    assert "Traceback" not in result.output


def test_the_help_names_the_python_form():
    output = " ".join(CliRunner().invoke(conform, ["--help"]).output.split())
    assert "py:MODULE:FACTORY" in output


def test_smoke_explains_that_an_in_process_engine_has_no_protocol_to_check():
    from azul_conformance.cli.smoke import smoke

    result = CliRunner().invoke(smoke, ["--engine", f"py:{ENGINES}:make_engine"])
    assert result.exit_code == 2 and "needs no protocol" in " ".join(result.output.split())
