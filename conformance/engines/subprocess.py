"""An engine in any language, run as a child process speaking protocol v1 (docs/reference/protocol.md) on its
stdin and stdout.

Every request gets a deadline; every reply is checked (a JSON object, the request's id echoed, `ok` a boolean,
`state` or `moves` present and well typed). Whatever goes wrong becomes one of the typed errors of base.py,
carrying the request, the raw line (truncated) and the tail of the engine's stderr:
    EngineCrash     the process exited (with its exit code), wrote a line that is no reply, or the wrong id
    EngineTimeout   no complete reply before the deadline (the process is killed)
    Rejected        a well-formed `ok: false` reply
After a crash or a timeout the process is gone; `restart()` starts a fresh one.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
import weakref
from typing import Any, Callable

from .. import processes
from ..readers import JsonError, json_document, safe_text
from . import messages as msg
from .base import Capabilities, Engine, EngineCrash, EngineInfo, EngineTimeout, GameRun, Rejected, CanonicalState

DEFAULT_TIMEOUT = 5.0
MAX_REPLY = 8 << 20  # a reply longer than this is babbling, not a state
STDERR_KEEP = 64 << 10  # bytes of the engine's stderr kept (the tail); the rest is read and dropped
STDERR_REPORT = 4 << 10  # at most this much of that tail goes into a report
STDERR_LINE = 400  # characters of one stderr line in a report
START_TIMEOUT = 10.0  # seconds for the first reply (hello) of a fresh process, at least
GAME_TIMEOUTS = 12  # a play_game reply gets at most this many request timeouts (a minute at the default 5 s);
# a hang is then found by the single requests
POLL = 0.05  # seconds between checks that the engine is still alive while waiting for a reply

_live: "weakref.WeakSet[ProcessEngine]" = weakref.WeakSet()


@atexit.register
def _end_all() -> None:
    """No engine outlives the harness, whatever ended it."""
    for engine in list(_live):
        engine._kill()


class ProcessEngine(Engine):
    """`ProcessEngine("./my-engine --flag")`: spawn the command (no shell) and say hello."""

    def __init__(self, command: str | list[str], timeout: float = DEFAULT_TIMEOUT,
                 cwd: str | None = None, env: dict[str, str] | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.timeout = timeout
        self.cwd, self.env = cwd, env
        self.process: subprocess.Popen | None = None
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        self._buffer = b""
        self._next_id = 0
        self.requests = 0
        self.start()

    # -- the process -------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Spawn the engine and say hello (which fills `info`)."""
        try:
            # A session of its own: the engine and everything it starts (a wrapper shell, a forked child) form
            # one process group, which _kill ends as a whole. It dies with the process (the worker) that started
            # it, however that ends; what it starts in a session of its own is found by the mark in its
            # environment and killed when that process ends, and what it leaves there with its environment
            # cleared is adopted by this process and killed when the engine ends (processes.py).
            env = processes.marked_environment(self.env)
            with processes.starting_engine() as own:
                self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.PIPE, cwd=self.cwd, env=env, bufsize=0,
                                                start_new_session=True, preexec_fn=processes.child_dies_with_us())
                own(self.process.pid)
        except (OSError, ValueError) as error:
            raise EngineCrash(f"cannot start engine {self.command!r}: {error}") from None
        _live.add(self)
        self._buffer = b""
        with self._stderr_lock:
            self._stderr.clear()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, args=(self.process.stderr,), daemon=True)
        self._stderr_reader.start()
        self.hello()

    def _drain_stderr(self, stream) -> None:
        """Read stderr in blocks (never a byte per system call), keeping only a bounded tail."""
        fd = stream.fileno()
        while True:
            try:
                block = os.read(fd, 1 << 16)
            except OSError:
                return
            if not block:
                return
            with self._stderr_lock:
                self._stderr += block
                if len(self._stderr) > STDERR_KEEP:
                    del self._stderr[:len(self._stderr) - STDERR_KEEP]

    def restart(self) -> None:
        self._kill()
        self.start()

    def close(self) -> None:
        """Send quit, give the engine a moment to exit by itself, then kill it."""
        process = self.process
        if process is None or process.poll() is not None:
            self.process = None
            return
        try:
            process.stdin.write(b'{"cmd":"quit"}\n')
            process.stdin.flush()
            process.stdin.close()
            process.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:  # the whole group: children the engine forked, or the engine under a wrapper shell
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if process.poll() is None:
            process.kill()
        try:
            process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            pass
        processes.engine_ended(process.pid)  # what it left in sessions of their own, its environment cleared
        _live.discard(self)
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def stderr_tail(self, lines: int = 20) -> str:
        """The last `lines` lines of stderr, each clipped, at most STDERR_REPORT characters in all."""
        with self._stderr_lock:
            tail = bytes(self._stderr[-STDERR_REPORT:])
        kept = [_clip_start(line, STDERR_LINE) for line in tail.decode("utf-8", "replace").splitlines()[-lines:]]
        return "\n".join(kept)[-STDERR_REPORT:]

    @property
    def exit_code(self) -> int | None:
        return None if self.process is None else self.process.poll()

    # -- one request, one reply --------------------------------------------------------------------------------

    def request(self, message: msg.Request, timeout: float | None = None) -> dict[str, Any]:
        """Send one request and return its checked `ok: true` reply (Rejected for `ok: false`)."""
        return self._receive(self._send(message), message.reply, timeout)

    def _send(self, message: msg.Request) -> dict[str, Any]:
        """Write one request; its reply is read by _receive (replies come in the order of the requests)."""
        self._next_id += 1
        request = message.to_json(self._next_id)
        process = self.process
        if process is None:
            raise EngineCrash("the engine is not running (it crashed or timed out before): restart it",
                              request=request, stderr=self.stderr_tail())
        self.requests += 1
        try:
            process.stdin.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
            process.stdin.flush()
        except OSError:
            self._crash(request, "the engine closed its input (it has exited)")
        return request

    def _receive(self, request: dict[str, Any], kind: str, timeout: float | None = None) -> dict[str, Any]:
        """The checked `ok: true` reply to `request` (its deadline counts from now)."""
        if self.process is None:
            raise EngineCrash("the engine is not running (it crashed or timed out before): restart it",
                              request=request, stderr=self.stderr_tail())
        timeout = timeout or self.timeout
        line = self._read_line(request, time.monotonic() + timeout, timeout)
        try:
            reply = json_document(line)
        except JsonError:
            self._crash(request, f"the engine wrote a line that is not strict JSON: {_clip(line)!r}")
        problem = msg.check_reply(reply, request, kind)
        if problem:
            self._crash(request, f"malformed reply ({problem}): {_clip(line)!r}")
        if not reply["ok"]:
            error = reply["error"]
            raise Rejected(error["code"], error.get("message") or "", error.get("rule"), request=request,
                           stderr=self.stderr_tail())
        return reply

    def _read_line(self, request: dict, deadline: float, timeout: float) -> bytes:
        process = self.process
        fd = process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill()
                raise EngineTimeout(f"no reply within {timeout:g} s", request=request, stderr=self.stderr_tail())
            if not select.select([fd], [], [], min(left, POLL))[0]:
                # An engine that exited while a child it forked still holds stdout open never gives end-of-file:
                # its exit is a crash, not a timeout.
                if process.poll() is not None:
                    self._crash(request, "the engine exited" + (f"; it wrote {_clip(self._buffer)!r} without a "
                                                                "newline" if self._buffer.strip() else ""))
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._crash(request, "the engine exited" + (f"; it wrote {_clip(self._buffer)!r} without a newline"
                                                            if self._buffer.strip() else ""))
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                self._crash(request, f"a reply longer than {MAX_REPLY} bytes: {_clip(self._buffer)!r}")
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _crash(self, request: dict, message: str) -> None:
        process = self.process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                code = None
        self._kill()
        self._stderr_reader.join(timeout=0.5)  # the last lines: the pipe closes once the group is gone
        if code is not None:
            message += f" (exit status {code})"
        raise EngineCrash(message, exit_code=code, request=request, stderr=self.stderr_tail())

    # -- the Engine interface ----------------------------------------------------------------------------------

    def hello(self) -> EngineInfo:
        # Starting a process (an interpreter, a JIT, a loaded machine) may take longer than answering a move.
        reply = self.request(msg.Hello(), timeout=max(self.timeout, START_TIMEOUT))
        # The whole published schema here (once per process, so its cost does not matter): a hello that
        # claims another protocol, or capabilities of the wrong shape, means the engine cannot be talked to.
        problems = msg.schema_problems(reply, "hello_reply")
        if problems:
            self._crash({"id": reply.get("id"), "cmd": "hello"},
                        "the hello reply breaks the protocol schema: " + "; ".join(_clip(p, 200) for p in problems[:3]))
        self.info = EngineInfo(safe_text(reply["name"], 100), safe_text(reply["version"], 100), reply["protocol"],
                               Capabilities.from_json(reply["capabilities"]))
        return self.info

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        return self.request(msg.NewGame(players, variant, start_player))["state"]

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        return self.request(msg.Deal(None if factories is None else list(factories)))["state"]

    def load_state(self, state: CanonicalState) -> CanonicalState:
        return self.request(msg.LoadState(state))["state"]

    def legal_moves(self) -> list[str]:
        return self.request(msg.LegalMoves())["moves"]

    def play(self, move: str) -> CanonicalState:
        return self.request(msg.Play(move))["state"]

    def state(self) -> CanonicalState:
        return self.request(msg.State())["state"]

    def send_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> Callable[[], GameRun]:
        """One `play_game` request when the engine offers it, its reply read when the answer is asked for (so
        the harness prepares the next game meanwhile; its deadline counts from then); else the single requests."""
        if not self.info.capabilities.play_game:
            return super().send_game(players, variant, start_player, steps, states, moves)
        request = self._send(msg.PlayGame(players, variant, start_player, list(steps), list(states), moves))
        # the time of the single requests it stands for (a step, and a legal_moves before a move), up to a cap
        timeout = self.timeout * min(1 + 2 * len(steps), GAME_TIMEOUTS)
        return lambda: _game_run(self._receive(request, "game", timeout))

    def play_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> GameRun:
        return self.send_game(players, variant, start_player, steps, states, moves)()

    def send_raw(self, line: bytes, timeout: float | None = None) -> bytes:
        """Write one raw line and read one raw line back (for the smoke test's bad request)."""
        request = {"raw": line.decode("utf-8", "replace")}
        if self.process is None:
            raise EngineCrash("the engine is not running", request=request)
        try:
            self.process.stdin.write(line.rstrip(b"\n") + b"\n")
            self.process.stdin.flush()
        except OSError:
            self._crash(request, "the engine closed its input (it has exited)")
        return self._read_line(request, time.monotonic() + (timeout or self.timeout), timeout or self.timeout)

    def __repr__(self) -> str:
        return f"ProcessEngine({self.command!r})"


def _game_run(reply: dict[str, Any]) -> GameRun:
    refused = reply.get("refused")
    return GameRun(reply["played"], reply["states"], reply.get("moves", []),
                   None if refused is None else Rejected(refused["code"], refused.get("message") or "",
                                                         refused.get("rule")))


def _clip_start(text: str, limit: int) -> str:
    """The end of a long stderr line (what the engine said last), marked as cut."""
    return text if len(text) <= limit else f"...({len(text)} characters) " + text[-limit:]


def _clip(data: bytes | str, limit: int = 300) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"
