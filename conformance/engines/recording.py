"""Recorded engine sessions: an engine that records any engine, and an engine that plays a recording back.

A recording (`azul conform --record FILE`) is gzipped JSON lines, written while the run goes:

    {"format": "azul-engine-recording/1", "suite_version": ..., "command": ..., "hello": {...}, "seed": 0,
     "examples": 10, "date": "2026-12-03T08:00:00+00:00", "upstream": ..., "commit": ...}
    {"case": "floor-overflow", "request": {"cmd": "load_state", "state": {...}}, "reply": {"state": {...}}}
    {"case": "floor-overflow", "request": {"cmd": "play", "move": "1B3"}, "error": {"kind": "rejected", ...}}
    {"case": "floor-overflow", "ended": 2}

one line per exchange (the request as protocol v1 words it, without its id, and the engine's reply, or its
refusal, crash or timeout), each naming its case, and a last line per case with the number of its exchanges.
A case's lines are written together when it ends, as one gzip member appended under a file lock (waited for
LOCK_WAIT seconds at most), so `-j N` worker processes record into one file and a killed run leaves every case
it finished. A file that cannot be written raises RecordingError naming it: the harness's failure, not the
engine's (harness/record_file.py keeps a second run from recording into the same file).

Played back (`azul conform --recording FILE`), the recording is the engine: a case whose requests are exactly
those recorded gets the recorded replies, and so the verdict the live engine got; a case that asks anything
else (another request, one more, one fewer), or that the recording does not hold, is `not_run`, saying which
request differs and in which field. It is never judged on answers the engine did not give. A recording is read
within what the suite can ask at its header's examples (the bounds below), each case's lines in one buffer,
and its header must belong to its exchanges (its hello offers every request a case asked).
"""

from __future__ import annotations

import array
import datetime
import gzip
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..notation import PLAYER_COUNTS, VARIANTS
from ..readers import InputError, JsonError, file_lines, json_document, public_text, safe_text
from . import messages as msg
from .base import (CanonicalState, Capabilities, Engine, EngineCrash, EngineError, EngineInfo, EngineTimeout,
                   GameRun, Rejected)

FORMAT = "azul-engine-recording/1"
MAX_LINE = 64 << 20  # one exchange: a play_game reply of a long game with its states is a few megabytes
# What the suite can ask, so what a recording may hold (inflated bytes, lines): the scenarios' share, and each
# property example's. Measured: the whole suite at --examples 10 records at most 60 MB in 99,000 lines (myzul-ts,
# whose adapter plays every game as single requests); the bounds are four times that, and MAX_TOTAL over all.
BYTES_BASE, BYTES_PER_EXAMPLE = 64 << 20, 24 << 20
LINES_BASE, LINES_PER_EXAMPLE = 100_000, 40_000
MAX_TOTAL = 1 << 30
EXAMPLES = (1, 10 ** 6)  # azul conform --examples
SEEDS = (-(2 ** 63), 2 ** 63 - 1)  # azul conform --seed
MAX_HEADER_TEXT = 4_096  # one text of the header (a command line, an upstream's address): far past a real one
SHOWN = 200  # characters of a header's text shown on the terminal
CMDS = ("hello", "restart", *msg.REQUESTS)  # restart: a fresh process after a crash, answered by its hello

try:  # a lock between the worker processes of `-j N` appending to one file
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: -j 1 needs none
    fcntl = None


class NotInRecording(BaseException):
    """A request the recording does not hold for this case. A BaseException, as budget.OutOfTime, so that no
    property (nor hypothesis) takes it for an engine's failure: the case ends, and is not judged."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RecordingError(ValueError):
    """A file that cannot be played back: `str()` names the file and line (FILE:LINE: reason)."""


# -- the words of an exchange --------------------------------------------------------------------------------

def request_of(cmd: str, **fields: Any) -> dict[str, Any]:
    """A request as it is recorded: protocol v1's words (messages.py), without the id."""
    if cmd in ("hello", "restart"):
        return {"cmd": cmd}
    return msg.REQUESTS[cmd](**fields).to_json(None)


def error_json(error: EngineError) -> dict[str, Any]:
    if isinstance(error, Rejected):
        data = {"kind": "rejected", "code": error.code, "message": error.message}
        if error.rule is not None:
            data["rule"] = error.rule
    elif isinstance(error, EngineTimeout):
        data = {"kind": "timeout", "message": error.message}
    else:
        data = {"kind": "crash", "message": error.message,
                "exit_code": getattr(error, "exit_code", None)}
    if error.stderr:  # a recording is published: the engine's words without the machine's folders in them
        data["stderr"] = public_text(error.stderr)
    return data


def error_from(data: dict[str, Any], request: dict[str, Any]) -> EngineError:
    stderr = data.get("stderr") or ""
    if data["kind"] == "rejected":
        return Rejected(data["code"], data.get("message") or "", data.get("rule"), request=request, stderr=stderr)
    if data["kind"] == "timeout":
        return EngineTimeout(data["message"], request=request, stderr=stderr)
    return EngineCrash(data["message"], exit_code=data.get("exit_code"), request=request, stderr=stderr)


def hello_json(info: EngineInfo) -> dict[str, Any]:
    return {"name": info.name, "version": info.version, "protocol": info.protocol,
            "capabilities": info.capabilities.to_json()}


def info_from(data: dict[str, Any]) -> EngineInfo:
    return EngineInfo(safe_text(data["name"], 100), safe_text(data["version"], 100), data["protocol"],
                      Capabilities.from_json(data["capabilities"]))


def game_json(run: GameRun) -> dict[str, Any]:
    return {"played": run.played, "states": run.states, "moves": run.moves,
            "refused": None if run.refused is None else error_json(run.refused)}


def game_from(data: dict[str, Any], request: dict[str, Any]) -> GameRun:
    refused = data.get("refused")
    return GameRun(data["played"], data["states"], data.get("moves", []),
                   None if refused is None else error_from(refused, request))


# -- recording -----------------------------------------------------------------------------------------------

def start_recording(path: str) -> None:
    """An empty recording at `path` (what was there is replaced); a link is refused, never followed."""
    if os.path.islink(path):
        raise RecordingError(f"{path}: a symbolic link; give the recording's own path")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as error:
        raise RecordingError(f"{path}: cannot be written: {error.strerror}") from None
    os.close(fd)


class Recorder(Engine):
    """Any engine, each exchange written to `path` (begun by start_recording) under the case that asked it.
    `about`: the header's fields besides the engine's hello (the suite version, the command, the seed...)."""

    def __init__(self, engine: Engine, path: str, about: dict[str, Any]) -> None:
        self.engine, self.path, self.about = engine, path, about
        self.info = engine.info
        self.case: str | None = None
        self.lines: list[dict[str, Any]] = []
        self.cut = False  # the case was interrupted (Ctrl-C, SIGTERM) in the middle of an exchange

    # the case's exchanges, written as one block when it ends
    def begin_case(self, case_id: str) -> None:
        self._flush()
        self.case, self.lines, self.cut = case_id, [], False

    def end_case(self) -> str | None:
        whole = self._whole()
        if self.case is not None and not self.cut and len(whole) == len(self.lines):
            self.lines.append({"case": self.case, "ended": len(self.lines)})
        self._flush()
        return None

    def _whole(self) -> list[dict[str, Any]]:
        """The case's exchanges up to the first left without its reply or error (interrupted while the engine
        was answering, or a game sent and never read): what follows it could not be played back in order."""
        for index, line in enumerate(self.lines):
            if "reply" not in line and "error" not in line and "ended" not in line:
                return self.lines[:index]
        return self.lines

    def _flush(self) -> None:
        lines, self.lines, self.case = self._whole(), [], None
        if lines:
            append(self.path, lambda: {"format": FORMAT, **self.about, "hello": hello_json(self.info)}, lines)

    def _record(self, request: dict[str, Any]) -> dict[str, Any]:
        """A new exchange's line, kept in the case's lines unless the case was interrupted: nothing asked after
        an interrupt is recorded (its reply would be stale, or out of order)."""
        line: dict[str, Any] = {"case": self.case, "request": request}
        if not self.cut:
            self.lines.append(line)
        return line

    def _exchange(self, request: dict[str, Any], call: Callable[[], Any], reply: Callable[[Any], dict]) -> Any:
        line = self._record(request)
        try:
            answer = call()
        except EngineError as error:
            line["error"] = error_json(error)
            raise
        except BaseException:  # an interrupt (KeyboardInterrupt, SystemExit): the exchange has no answer
            self.cut = True
            raise
        line["reply"] = reply(answer)
        return answer

    def hello(self) -> EngineInfo:
        self.info = self._exchange(request_of("hello"), self.engine.hello, hello_json)
        return self.info

    def restart(self) -> None:
        def again() -> EngineInfo:
            self.engine.restart()
            return self.engine.info
        self.info = self._exchange(request_of("restart"), again, hello_json)

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        return self._exchange(request_of("new_game", players=players, variant=variant, start_player=start_player),
                              lambda: self.engine.new_game(players, variant, start_player), _state)

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        return self._exchange(request_of("deal", factories=None if factories is None else list(factories)),
                              lambda: self.engine.deal(factories), _state)

    def load_state(self, state: CanonicalState) -> CanonicalState:
        return self._exchange(request_of("load_state", state=state), lambda: self.engine.load_state(state), _state)

    def legal_moves(self) -> list[str]:
        return self._exchange(request_of("legal_moves"), self.engine.legal_moves, lambda moves: {"moves": moves})

    def play(self, move: str) -> CanonicalState:
        return self._exchange(request_of("play", move=move), lambda: self.engine.play(move), _state)

    def state(self) -> CanonicalState:
        return self._exchange(request_of("state"), self.engine.state, _state)

    def send_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> Callable[[], GameRun]:
        request = _game_request(players, variant, start_player, steps, states, moves)
        line = self._record(request)  # in the order asked; the reply is filled in when it is read
        try:
            answer = self.engine.send_game(players, variant, start_player, steps, states, moves)
        except EngineError as error:
            line["error"] = error_json(error)
            raise
        except BaseException:
            self.cut = True
            raise

        def read() -> GameRun:
            try:
                run = answer()
            except EngineError as error:
                line["error"] = error_json(error)
                raise
            except BaseException:
                self.cut = True
                raise
            line["reply"] = game_json(run)
            return run
        return read

    def play_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> GameRun:
        return self.send_game(players, variant, start_player, steps, states, moves)()

    def close(self) -> None:
        try:
            self._flush()  # an interrupted case: what it asked and was answered so far, without its end
        finally:
            self.engine.close()

    def stderr_tail(self) -> str:
        return self.engine.stderr_tail()

    def __getattr__(self, name: str) -> Any:  # an adapter's own extras (its timeout, its command...)
        return getattr(self.engine, name)


def _state(state: CanonicalState) -> dict[str, Any]:
    return {"state": state}


def _game_request(players, variant, start_player, steps, states, moves) -> dict[str, Any]:
    return request_of("play_game", players=players, variant=variant, start_player=start_player,
                      steps=[s if isinstance(s, str) else list(s) for s in steps], states=list(states), moves=moves)


def append(path: str, header: Callable[[], dict[str, Any]], lines: list[dict[str, Any]]) -> None:
    """One gzip member holding `lines`, appended to `path` under an exclusive lock; the header first when the
    file is still empty. One write: a process killed meanwhile leaves whole members before it, at worst a torn
    last one (which the reader reports and stops at). RecordingError naming the file when it cannot be written
    (a full disk, a lock held past LOCK_WAIT): the harness's own failure, which stops the run."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise RecordingError(f"{path}: the recording cannot be written: {error.strerror}") from None
    try:
        _lock(fd, path)
        if os.fstat(fd).st_size == 0:
            lines = [header(), *lines]
        text = "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines)
        data = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
        written = os.write(fd, data)
        if written != len(data):
            raise RecordingError(f"{path}: the recording cannot be written: only {written} of {len(data)} bytes "
                                 "went in (a full disk, or a file size limit)")
    except OSError as error:
        raise RecordingError(f"{path}: the recording cannot be written: {error.strerror}") from None
    finally:
        os.close(fd)  # releases the lock


LOCK_WAIT = 60.0  # seconds a worker waits for another's append (each takes milliseconds): never for ever


def _lock(fd: int, path: str) -> None:
    """The exclusive lock of the recording, waited for at most LOCK_WAIT seconds."""
    if fcntl is None:
        return
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise RecordingError(f"{path}: another process has held the recording's lock for more than "
                                     f"{LOCK_WAIT:g} s; the run stopped") from None
            time.sleep(0.01)


# -- playing back --------------------------------------------------------------------------------------------

class Tape:
    """A case's exchanges as (line number, raw JSON text), held in one buffer: a recording of a million short
    lines costs its bytes and 16 more a line, not a Python object per line (a tuple, a bytes, an int)."""

    def __init__(self) -> None:
        self.text = bytearray()
        self.ends = array.array("Q")
        self.numbers = array.array("Q")

    def append(self, item: tuple[int, bytes]) -> None:
        number, raw = item
        self.text += raw
        self.ends.append(len(self.text))
        self.numbers.append(number)

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, index: int) -> tuple[int, bytes]:
        start = self.ends[index - 1] if index > 0 else 0
        return self.numbers[index], bytes(self.text[start:self.ends[index]])


@dataclass
class CaseTape:
    """One case's recorded exchanges: (line number, raw JSON text) each, and whether its end was recorded."""

    lines: Tape = field(default_factory=Tape)
    ended: bool = False
    cut_at: int | None = None  # the line of a request left without its reply or error (an interrupted run)


@dataclass
class Recording:
    """A recording read and checked: its header, and each case's exchanges (parsed again when the case runs, so
    that no case can change what another is answered)."""

    path: str
    header: dict[str, Any]
    cases: dict[str, CaseTape]
    problem: str = ""  # a torn end, or cases cut short by an interrupt: what is whole is kept, this says what is not

    @property
    def info(self) -> EngineInfo:
        return info_from(self.header["hello"])

    def describe(self) -> str:
        """`made 2026-12-03 by suite 0.1.0+ab12cd34 from `cmd` (upstream at commit)`."""
        def said(name: str) -> str:  # the header's text, clipped before it is shown
            return safe_text(self.header.get(name) or "?", SHOWN)
        text = f"made {said('date')[:10]} by suite {said('suite_version')} from `{said('command')}`"
        if self.header.get("upstream"):
            text += f" ({said('upstream')}" + (f" at {said('commit')}" if self.header.get("commit") else "") + ")"
        return text


def read_recording(path: str) -> Recording:
    """The recording at `path`, checked line by line: RecordingError (FILE:LINE: reason) for a file that is not
    one, a line that is not an exchange, a case recorded in two places; a file torn at its end (a killed run) is
    read up to the tear, which `problem` names."""
    header: dict[str, Any] | None = None
    cases: dict[str, CaseTape] = {}
    last: str | None = None
    number, total, problem = 0, 0, ""
    most_bytes, most_lines, offered = MAX_TOTAL, LINES_BASE, Capabilities()
    try:
        for number, raw in enumerate(file_lines(path, MAX_LINE), 1):
            total += len(raw) + 1
            if len(raw) > MAX_LINE:  # file_lines bounds a line to MAX_LINE and a block read
                raise RecordingError(f"{path}:{number}: a line longer than {MAX_LINE:,} bytes: not read")
            if total > most_bytes or number > most_lines:
                raise RecordingError(f"{path}:{number}: more than the suite asks "
                                     f"{_asked(header)}: {most_bytes >> 20} MB or {most_lines:,} lines; not read")
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                line = json_document(raw)
            except JsonError as error:
                raise RecordingError(f"{where}:{error.column or 1}: {error.message}") from None
            if header is None:
                header = _checked_header(line, where)
                most_bytes, most_lines = _bounds(header)
                offered = Capabilities.from_json(header["hello"]["capabilities"])
                continue
            case, answered = _checked_line(line, where)
            if "request" in line:
                _offered(offered, line["request"], where, case)
            tape = cases.get(case)
            if tape is None:
                tape = cases[case] = CaseTape()
            elif case != last:
                first = tape.lines[0][0] if tape.lines else number
                raise RecordingError(f"{where}: case {case!r} is recorded again (its first line is {first}): "
                                     "one run's recording holds each case once")
            elif tape.ended:
                raise RecordingError(f"{where}: case {case!r} goes on after its end")
            last = case
            if tape.cut_at is not None or not answered:  # from an unanswered request on: not played back
                tape.cut_at = tape.cut_at or number
            elif "ended" in line:
                if line["ended"] != len(tape.lines):
                    raise RecordingError(f"{where}: case {case!r} ends after {line['ended']} exchanges, but "
                                         f"{len(tape.lines)} are recorded")
                tape.ended = True
            else:
                tape.lines.append((number, raw))
    except InputError as error:
        if "truncated" not in str(error) or header is None:
            raise RecordingError(f"{path}:{number + 1}: {error}") from None
        problem = f"{path}: torn after line {number} ({error}); the cases recorded before are played back"
    except OSError as error:
        raise RecordingError(f"{path}: cannot be read: {error.strerror}") from None
    if header is None:
        raise RecordingError(f"{path}: empty: no recording header (made by azul conform --record FILE)")
    cut = [(name, tape.cut_at) for name, tape in cases.items() if tape.cut_at is not None]
    if cut:
        shown = ", ".join(f"{name} (line {at})" for name, at in cut[:5]) + (f" and {len(cut) - 5} more"
                                                                           if len(cut) > 5 else "")
        problem = "; ".join(filter(None, [problem, f"{path}: {len(cut)} case(s) cut short by an interrupt, a request "
                                                     f"without its reply or error: {shown}; each is played back up "
                                                     "to that request, the cases whole are judged as recorded"]))
    return Recording(path, header, cases, problem)


def _bounds(header: dict[str, Any]) -> tuple[int, int]:
    """The most bytes (inflated) and lines a recording made with this header's --examples can hold."""
    examples = header.get("examples") or 0
    return (min(MAX_TOTAL, BYTES_BASE + BYTES_PER_EXAMPLE * examples),
            LINES_BASE + LINES_PER_EXAMPLE * examples)


def _asked(header: dict[str, Any] | None) -> str:
    examples = (header or {}).get("examples")
    return f"at --examples {examples}" if examples else "without properties"


def _offered(offered: Capabilities, request: dict[str, Any], where: str, case: str) -> None:
    """A recorded request the header's hello does not offer: the suite never asks one (a case that needs what
    is not offered is skipped), so the header was changed after the recording was made (which would turn the
    recorded failures into skips). A count or wall the rules forbid (a refusal the suite checks) is no offer."""
    cmd = request.get("cmd")
    missing = []
    if cmd in ("new_game", "play_game"):
        players, wall = request.get("players"), request.get("variant", "colour")
        if players in PLAYER_COUNTS and players not in offered.players:
            missing.append(f"{players} players")
        if wall in VARIANTS and wall not in offered.variants:
            missing.append(f"the {wall} wall")
        if cmd == "play_game" and not offered.play_game:
            missing.append("play_game")
    elif cmd == "load_state" and not offered.load_state:
        missing.append("load_state")
    elif cmd == "deal" and request.get("factories") is not None and not offered.deal:
        missing.append("deal (of given factories)")
    if missing:
        raise RecordingError(f"{where}: case {case!r} asked {cmd} with {' and '.join(missing)}, which the header's "
                             "hello does not offer: the suite never asks that, so the header does not belong to "
                             "these exchanges (edited?)")


def _checked_header(line: Any, where: str) -> dict[str, Any]:
    """The header, checked: its hello a hello reply, its fields of their types and bounded (a 300 KB field took
    minutes to print)."""
    if not isinstance(line, dict) or line.get("format") != FORMAT:
        kind = "a conformance report" if isinstance(line, dict) and line.get("type") == "header" else "not one"
        raise RecordingError(f"{where}: not an engine recording ({kind}): its first line must be the header "
                             f'{{"format": "{FORMAT}", ...}} that azul conform --record writes')
    hello = line.get("hello")
    problems = msg.schema_problems({"id": 1, "ok": True, **hello} if isinstance(hello, dict) else hello,
                                   "hello_reply")
    if problems:
        raise RecordingError(f"{where}: the header's hello is not a hello reply: {problems[0]}")
    for name, kind in (("command", str), ("suite_version", str), ("seed", int), ("examples", int)):
        if name in line and line[name] is not None and (not isinstance(line[name], kind)
                                                         or isinstance(line[name], bool)):
            raise RecordingError(f"{where}: the header's {name} must be a {kind.__name__}, got {line[name]!r}"[:300])
    for name, (low, high) in (("seed", SEEDS), ("examples", EXAMPLES)):
        if line.get(name) is not None and not low <= line[name] <= high:
            raise RecordingError(f"{where}: the header's {name} must be from {low:,} to {high:,} (as azul conform "
                                 f"--{name} takes it), got {line[name]}"[:300])
    for name, value in line.items():
        size = len(value) if isinstance(value, str) else 0
        if len(name) > SHOWN or size > MAX_HEADER_TEXT:
            what = f"a field named in {len(name):,} characters (at most {SHOWN})" if len(name) > SHOWN else \
                f"field {name!r} holds {size:,} characters (at most {MAX_HEADER_TEXT:,})"
            raise RecordingError(f"{where}: the header's {safe_text(what)}: not read")
    return line


def _checked_line(line: Any, where: str) -> tuple[str, bool]:
    """The case of an exchange line (or a case's end), after checking its shape, and whether it is whole: False
    for a request without its reply or error (a run interrupted while the engine was answering)."""
    if not isinstance(line, dict):
        raise RecordingError(f"{where}: an exchange must be a JSON object, got {type(line).__name__}")
    case = line.get("case")
    if not isinstance(case, str) or not case or len(case) > 200:
        raise RecordingError(f"{where}: `case` must be a case id (a string), got {safe_text(repr(case), 80)}")
    if "ended" in line:
        if type(line["ended"]) is not int or line["ended"] < 0 or set(line) != {"case", "ended"}:
            raise RecordingError(f"{where}: a case's end is {{\"case\": ..., \"ended\": N}}, N its exchanges")
        return case, True
    request = line.get("request")
    if not isinstance(request, dict) or request.get("cmd") not in CMDS:
        raise RecordingError(f"{where}: `request` must be an object whose cmd is one of {', '.join(CMDS)}")
    if "reply" in line and "error" in line:
        raise RecordingError(f"{where}: an exchange has either a `reply` or an `error`, not both")
    if "reply" not in line and "error" not in line:
        return case, False
    if "reply" in line:
        problem = _reply_problem(request["cmd"], line["reply"])
    else:
        problem = _error_problem(line["error"])
    if problem:
        raise RecordingError(f"{where}: case {case!r}, {request['cmd']}: {problem}"[:400])
    return case, True


def _reply_problem(cmd: str, reply: Any) -> str | None:
    if not isinstance(reply, dict):
        return "`reply` must be an object"
    if cmd in ("hello", "restart"):
        problems = msg.schema_problems({"id": 1, "ok": True, **reply}, "hello_reply")
        return f"the reply is not a hello: {problems[0]}" if problems else None
    kind = msg.REQUESTS[cmd].reply
    if kind == "state":
        return msg.state_shape_problem(reply.get("state"))
    if kind == "moves":
        moves = reply.get("moves")
        ok = isinstance(moves, list) and all(isinstance(m, str) for m in moves)
        return None if ok else "`reply.moves` must be a list of strings"
    if kind == "game":
        refused = reply.get("refused")
        return msg.game_shape_problem({k: v for k, v in reply.items() if k != "refused"}) or (
            None if refused is None else _error_problem(refused))
    return None


def _error_problem(error: Any) -> str | None:
    if not isinstance(error, dict) or error.get("kind") not in ("rejected", "crash", "timeout"):
        return "`error.kind` must be rejected, crash or timeout"
    if not isinstance(error.get("message", ""), str) or not isinstance(error.get("stderr", ""), str):
        return "`error.message` and `error.stderr` must be strings"
    if error["kind"] == "rejected":
        return msg._error_problem({k: v for k, v in error.items() if k in ("code", "message", "rule")})
    if error["kind"] == "crash" and not (error.get("exit_code") is None or type(error["exit_code"]) is int):
        return "`error.exit_code` must be an integer or null"
    return None


class Playback(Engine):
    """A recording as the engine: each case is answered from its own recorded exchanges, in order, as long as
    it asks exactly what was recorded."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording
        self.info = recording.info
        self.case: str | None = None
        self.tape: list[tuple[int, bytes]] = []
        self.used = 0
        self.strayed: str | None = None
        self._stderr = ""

    def begin_case(self, case_id: str) -> None:
        self.case, self.used, self.strayed, self._stderr = case_id, 0, None, ""
        tape = self.recording.cases.get(case_id)
        self.tape = tape.lines if tape is not None else []
        self.known = tape is not None
        self.cut_at = tape.cut_at if tape is not None else None

    def end_case(self) -> str | None:
        """Why the case cannot be judged from the recording, or None: its requests were exactly those recorded."""
        case, self.case = self.case, None
        if self.strayed:
            return self.strayed
        if not self.known:
            return f"not recorded: the recording holds no case {case!r}"
        if self.used < len(self.tape):
            return (f"not recorded: the case asked {self.used} requests, the recording holds {len(self.tape)} "
                    f"(line {self.tape[self.used][0]}: the suite asks less than when it was recorded)")
        if self.cut_at is not None:
            return f"not recorded: {_cut(self.cut_at)}"
        return None

    def _answer(self, request: dict[str, Any]) -> Any:
        """The recorded reply to `request` (or its recorded error, raised); NotInRecording when the recording
        does not hold it as this case's next request."""
        if self.strayed:
            raise NotInRecording(self.strayed)
        if self.case is None:
            self.strayed = f"not recorded: {request['cmd']} asked outside any case"
        elif not self.known:
            self.strayed = f"not recorded: the recording holds no case {self.case!r}"
        elif self.used >= len(self.tape):
            self.strayed = (f"not recorded: request {self.used + 1} ({_said(request)}) comes after the "
                            f"{len(self.tape)} recorded for this case"
                            + (f"; {_cut(self.cut_at)}" if self.cut_at is not None else ""))
        else:
            number, raw = self.tape[self.used]
            line = json.loads(raw)
            difference = first_difference(line["request"], request)
            if difference is not None:
                self.strayed = (f"not recorded: request {self.used + 1} differs from the recording "
                                f"({self.recording.path}:{number}) in {difference}")
        if self.strayed:
            raise NotInRecording(self.strayed)
        self.used += 1
        if "error" in line:
            self._stderr = line["error"].get("stderr") or ""
            raise error_from(line["error"], request)
        return line["reply"]

    def hello(self) -> EngineInfo:
        return self.info  # the header's: every worker of a run says hello outside any case

    def restart(self) -> None:
        self.info = info_from(self._answer(request_of("restart")))

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        return self._answer(request_of("new_game", players=players, variant=variant,
                                       start_player=start_player))["state"]

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        return self._answer(request_of("deal", factories=None if factories is None else list(factories)))["state"]

    def load_state(self, state: CanonicalState) -> CanonicalState:
        return self._answer(request_of("load_state", state=state))["state"]

    def legal_moves(self) -> list[str]:
        return self._answer(request_of("legal_moves"))["moves"]

    def play(self, move: str) -> CanonicalState:
        return self._answer(request_of("play", move=move))["state"]

    def state(self) -> CanonicalState:
        return self._answer(request_of("state"))["state"]

    def send_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> Callable[[], GameRun]:
        request = _game_request(players, variant, start_player, steps, states, moves)
        try:
            run = game_from(self._answer(request), request)
        except EngineError as error:
            failure = error

            def fail() -> GameRun:
                raise failure
            return fail
        return lambda: run

    def play_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> GameRun:
        return self.send_game(players, variant, start_player, steps, states, moves)()

    def stderr_tail(self) -> str:
        return self._stderr

    def __repr__(self) -> str:
        return f"Playback({self.recording.path!r})"


def _cut(line: int) -> str:
    return f"the case was cut short when it was recorded (line {line}: a request without its reply, interrupted)"


def _said(request: dict[str, Any]) -> str:
    words = [request["cmd"]] + [f"{k}={json.dumps(v)}" for k, v in request.items()
                                if k != "cmd" and not isinstance(v, (dict, list))]
    return " ".join(words)[:120]


def first_difference(recorded: Any, asked: Any, path: str = "") -> str | None:
    """Where `asked` first differs from `recorded` (a field's path, and both values), or None when equal."""
    if recorded == asked:
        return None
    if isinstance(recorded, dict) and isinstance(asked, dict):
        for key in list(recorded) + [k for k in asked if k not in recorded]:
            found = first_difference(recorded.get(key, _ABSENT), asked.get(key, _ABSENT),
                                     f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    if isinstance(recorded, list) and isinstance(asked, list) and len(recorded) == len(asked):
        for index, (old, new) in enumerate(zip(recorded, asked)):
            found = first_difference(old, new, f"{path}[{index}]")
            if found is not None:
                return found
    return f"{path or 'the request'}: {_shown(asked)} now, {_shown(recorded)} recorded"


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _shown(value: Any) -> str:
    text = repr(value) if value is _ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def about(*, suite_version: str, command: str, seed: int, examples: int | None, timeout: float,
          notes: dict[str, str] | None = None) -> dict[str, Any]:
    """A recording's header fields besides the hello: what made it and when."""
    return {"suite_version": suite_version, "command": command, "seed": seed, "examples": examples,
            "timeout": timeout, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            **(notes or {})}
