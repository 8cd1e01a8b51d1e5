"""Hostile engines at the process boundary: a lying hello, forked children, wrapper shells, floods of stderr.

Each engine is a real process (tests/fake_engines/hostile.py MODE); each must end in a typed EngineError with
a clear message, with bounded work and memory, and leave no process behind.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from azul_conformance.engines.base import EngineCrash, EngineTimeout
from azul_conformance.readers import safe_text
from azul_conformance.engines.messages import NewGame
from azul_conformance.engines import subprocess as engines_subprocess
from azul_conformance.engines.subprocess import STDERR_REPORT, ProcessEngine

HOSTILE = Path(__file__).parent / "fake_engines" / "hostile.py"


def command(*args: str) -> str:
    return shlex.join([sys.executable, str(HOSTILE), *args])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def wait_for_pid(path: Path) -> int:
    for _ in range(1000):  # up to 20 s: the harness loads the corpus before it starts the engine
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.02)
    raise AssertionError(f"no pid in {path}")


def gone(pid: int, seconds: float = 30.0) -> bool:
    """Whether the process ends within `seconds` (a wait, not a speed check: it returns as soon as it has)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("hello, why", [
    ({"capabilities": {"players": 2}}, "capabilities"),
    ({"capabilities": {"players": [2], "variants": None, "load_state": True, "deal": True}}, "variants"),
    ({"capabilities": {"players": [2], "variants": ["colour"], "load_state": "no", "deal": True}}, "load_state"),
    ({"protocol": 2}, "protocol"),
    ({"protocol": True}, "protocol"),
    ({"name": None}, "name"),
])
def test_a_hello_that_breaks_the_schema_is_refused(hello, why):
    with pytest.raises(EngineCrash) as caught:
        ProcessEngine(command("hello", json.dumps(hello)), timeout=5)
    assert "hello" in caught.value.message and why in caught.value.message


def test_a_hello_nested_beyond_the_parser_is_a_crash_not_a_recursion_error():
    with pytest.raises(EngineCrash) as caught:
        ProcessEngine(command("hello-deep"), timeout=5)
    assert "not strict JSON" in caught.value.message


def test_an_engine_that_exits_while_its_child_holds_stdout_is_a_crash_and_the_child_is_ended(tmp_path):
    pidfile = tmp_path / "child.pid"
    engine = ProcessEngine(command("fork-exit", str(pidfile)), timeout=10)
    with pytest.raises(EngineCrash) as caught:  # seen as an exit, not waited out (that would be EngineTimeout)
        engine.request(NewGame(2))
    assert caught.value.exit_code == 3
    assert gone(wait_for_pid(pidfile)), "the forked child outlived the engine"


def test_an_engine_behind_a_wrapper_shell_is_ended_whole_after_a_timeout(tmp_path):
    pidfile = tmp_path / "engine.pid"
    # the shell stays the parent (a second command after the engine stops it from exec-ing)
    wrapper = shlex.join(["sh", "-c", command("hang-pid", str(pidfile)) + "; echo done"])
    engine = ProcessEngine(wrapper, timeout=5)
    pid = wait_for_pid(pidfile)
    with pytest.raises(EngineTimeout):
        engine.request(NewGame(2), timeout=0.3)
    assert gone(pid), "the engine under the wrapper shell was orphaned"


def test_a_flood_of_stderr_is_read_in_blocks_and_reported_bounded(monkeypatch):
    reads = []  # (thread, bytes) of every read of the engine adapter

    class CountingOs:
        def __getattr__(self, name):
            return getattr(os, name)

        def read(self, fd, size):
            block = os.read(fd, size)
            reads.append((threading.current_thread(), len(block)))
            return block

    monkeypatch.setattr(engines_subprocess, "os", CountingOs())
    engine = ProcessEngine(command("stderr-flood", "20"), timeout=20)
    with pytest.raises(EngineCrash) as caught:
        engine.request(NewGame(2))
    drained = [size for thread, size in reads if thread is engine._stderr_reader]
    assert sum(drained) == (20 << 20) + len("the end of a long line")  # read to the end, not waited out
    assert len(drained) <= (20 << 20) // 1024  # in blocks (a pipe hands over pages), never a byte per call
    assert caught.value.exit_code == 4
    assert len(caught.value.stderr) <= STDERR_REPORT
    assert caught.value.stderr.endswith("the end of a long line")


def test_sigterm_to_the_harness_ends_a_hanging_engine(tmp_path):
    pidfile = tmp_path / "engine.pid"
    azul = [str(Path(sys.executable).parent / "azul"), "conform", "--engine", command("hang-pid", str(pidfile)),
            "--only", "setup-new-game-three-players", "--timeout", "60"]
    harness = subprocess.Popen(azul, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        pid = wait_for_pid(pidfile)
        time.sleep(0.5)  # the harness is now waiting for a reply that never comes
        harness.send_signal(signal.SIGTERM)
        _, stderr = harness.communicate(timeout=15)
        assert harness.returncode != 0
        assert b"Traceback" not in stderr
        assert gone(pid), "SIGTERM to the harness left the engine running"
    finally:
        if harness.poll() is None:
            harness.kill()


def smoke(*args: str) -> subprocess.CompletedProcess:
    azul = str(Path(sys.executable).parent / "azul")
    return subprocess.run([azul, "smoke", "--engine", command(*args), "--timeout", "3"], capture_output=True,
                          text=True, timeout=60)


def test_smoke_reports_answers_that_are_no_json_object_without_a_traceback():
    done = smoke("odd-answers")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the answer is not JSON" in done.stdout and "\x1b" not in done.stdout  # the escape is shown, not sent
    assert "the answer is not a JSON object" in done.stdout


def test_smoke_on_an_engine_that_closes_its_input_says_so():
    done = smoke("close-stdin")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "closed its input" in done.stdout


def test_safe_text_is_safe_for_every_output():
    assert safe_text("a\ud800b") == "a?b"  # a lone surrogate cannot be encoded: it would empty a report
    assert safe_text("\x1b[2Jred\x07\x00") == "\\x1b[2Jred\\x07\\x00"
    assert safe_text("line\n\tnext") == "line\n\tnext"
    assert safe_text("x" * 50, 10) == "x" * 10 + "... (50 characters, clipped)"
    error = EngineCrash("bad \ud800\x1b", stderr="\x1b[31m")
    assert error.message == "bad ?\\x1b" and error.stderr == "\\x1b[31m"


@pytest.mark.parametrize("how, why", [
    ("extra-key", "engine_notes"),
    ("no-floor", "floor"),
    ("nan-score", "not strict JSON"),
    ("unsorted", "state.bag must match pattern"),
])
def test_a_state_that_breaks_the_published_schema_is_never_accepted(how, why):
    engine = ProcessEngine(command("bent-state", how), timeout=5)
    with pytest.raises(EngineCrash) as caught:
        engine.request(NewGame(2))
    assert why in caught.value.message
    engine.close()


def test_a_listed_move_outside_the_notation_is_a_protocol_violation():
    from azul_conformance.engines.messages import Deal, LegalMoves

    engine = ProcessEngine(command("odd-move"), timeout=5)
    engine.request(NewGame(2))
    engine.request(Deal())
    with pytest.raises(EngineCrash) as caught:
        engine.request(LegalMoves())
    assert "not a move in the notation" in caught.value.message and "\x1b" not in caught.value.message


# -- the whole run: reports stay valid and bounded whatever the engine does ---------------------------------------

def conform_run(tmp_path: Path, *args: str, only: tuple[str, ...] = ("offer-single-colour-factory-leaves-nothing",),
                timeout: float = 3.0):
    from rich.console import Console

    from azul_conformance.harness import Session, run_session

    session = Session(engine_command=command(*args), report_dir=str(tmp_path), only=only, examples=3,
                      timeout=timeout)
    return run_session(session, Console(file=open(os.devnull, "w")))


def assert_reports_valid(folder: Path) -> str:
    """Every report format parses strictly; returns report.md."""
    from xml.etree import ElementTree

    def refuse(name):
        raise AssertionError(f"non-strict JSON constant {name}")

    for line in (folder / "report.jsonl").read_text(encoding="utf-8").splitlines():
        json.loads(line, parse_constant=refuse)
    ElementTree.parse(folder / "junit.xml")
    return (folder / "report.md").read_text(encoding="utf-8")


def test_safe_text_cannot_inject_markup_into_any_report(tmp_path):
    results, status = conform_run(tmp_path, "rude")
    assert status == 1 and results[0].verdict == "fail"
    report = assert_reports_valid(tmp_path)
    # Inside a code block the text is shown as it is (Markdown renders no HTML there); the block's fence is
    # longer than any run of backticks the engine sent, so nothing escapes it.
    fence = re.search(r"^(`{4,})$", report, re.M).group(1)
    outside = re.sub(rf"^{fence}$.*?^{fence}$", "", report, flags=re.M | re.S)
    assert "<script>" not in outside and "&lt;script&gt;" in outside
    assert "\n# heading" not in outside  # the engine's newline did not start a heading
    assert "\x1b" not in report and "\x07" not in report
    assert "\x1b" not in (tmp_path / "junit.xml").read_text(encoding="utf-8")


def test_an_engine_that_cannot_be_talked_to_exits_2_with_reports_saying_why(tmp_path):
    results, status = conform_run(tmp_path, "hello", json.dumps({"protocol": 2}))
    assert status == 2 and results == []
    report = assert_reports_valid(tmp_path)
    assert "cannot start the engine" in report and "protocol" in report
    assert "protocol" in json.loads((tmp_path / "report.jsonl").read_text().splitlines()[0])["problem"]


def test_an_engine_that_stops_answering_costs_three_timeouts_not_one_per_case(tmp_path):
    pidfile = tmp_path / "engine.pid"
    cases = ("setup-new-game-three-players", "offer-single-colour-factory-leaves-nothing", "offer-overflow-to-floor",
             "offer-wall-row-forbids-colour", "property-invariants", "differential-legal-moves")
    results, status = conform_run(tmp_path, "hang-pid", str(pidfile), only=cases, timeout=0.5)
    verdicts = [r.verdict for r in results]
    assert verdicts[:3] == ["timeout"] * 3 and set(verdicts[3:]) == {"not_run"}, verdicts
    assert "timed out on 3 cases in a row" in results[-1].message
    assert status == 1
    assert_reports_valid(tmp_path)


def test_an_interrupted_run_leaves_every_report_marked_unfinished_and_no_stale_one(tmp_path):
    (tmp_path / "junit.xml").write_text("<old/>")
    (tmp_path / "report.md").write_text("# the previous run")
    pidfile = tmp_path / "engine.pid"
    azul = [str(Path(sys.executable).parent / "azul"), "conform", "--engine", command("hang-pid", str(pidfile)),
            "--only", "setup-new-game-three-players", "--timeout", "60", "--report-dir", str(tmp_path)]
    harness = subprocess.Popen(azul, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_pid(pidfile)
        for _ in range(600):  # until the run is under way: its report begun, the engine asked for a game
            if (tmp_path / "report.jsonl").exists():
                break
            time.sleep(0.05)
        time.sleep(0.5)
        harness.send_signal(signal.SIGTERM)
        harness.communicate(timeout=15)
    finally:
        if harness.poll() is None:
            harness.kill()
    report = assert_reports_valid(tmp_path)
    assert "interrupted" in report and "the previous run" not in report
    assert "interrupted" in (tmp_path / "junit.xml").read_text()
    from azul_conformance.harness import read_report

    assert read_report(tmp_path / "report.jsonl").interrupted


@pytest.mark.parametrize("text", [
    "",
    "not json\n",
    "[1, 2]\n",
    '{"type": "case", "id": "x", "verdict": "splendid"}\n',
    '{"type": "case", "id": 3, "verdict": "pass", "rules": 7}\n',
    "[" * 100_000 + "]" * 100_000 + "\n",
    '{"type": "header", "engine": NaN}\n',
])
def test_a_compare_file_that_is_no_report_stops_the_run_before_it_starts(tmp_path, text):
    from click.testing import CliRunner

    from azul_conformance.cli.conform import conform

    old = tmp_path / "old.jsonl"
    old.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(conform, ["--compare", str(old), "--only", "SETUP-6"])
    assert result.exit_code == 2, result.output
    assert "not a conformance report" in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
