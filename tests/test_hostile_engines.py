"""Hostile engines at the process boundary: a lying hello, forked children, wrapper shells, floods of stderr.

Each engine is a real process (tests/fake_engines/hostile.py MODE); each must end in a typed EngineError with
a clear message, within bounded time and memory, and leave no process behind.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from azul_conformance.engines.base import EngineCrash, EngineTimeout, engine_text
from azul_conformance.engines.messages import NewGame
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
    for _ in range(200):
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.02)
    raise AssertionError(f"no pid in {path}")


def gone(pid: int, seconds: float = 3.0) -> bool:
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
    started = time.monotonic()
    with pytest.raises(EngineCrash) as caught:
        engine.request(NewGame(2))
    assert time.monotonic() - started < 5  # seen as an exit, not waited out as a timeout
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


def test_a_flood_of_stderr_is_read_in_blocks_and_reported_bounded():
    engine = ProcessEngine(command("stderr-flood", "20"), timeout=20)
    started = time.monotonic()
    with pytest.raises(EngineCrash) as caught:
        engine.request(NewGame(2))
    assert time.monotonic() - started < 10
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


def test_engine_text_is_safe_for_every_output():
    assert engine_text("a\ud800b") == "a?b"  # a lone surrogate cannot be encoded: it would empty a report
    assert engine_text("\x1b[2Jred\x07\x00") == "\\x1b[2Jred\\x07\\x00"
    assert engine_text("line\n\tnext") == "line\n\tnext"
    assert engine_text("x" * 50, 10) == "x" * 10 + "... (50 characters)"
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
