"""Protocol v1 (docs/reference/protocol.md): the reference engine as a JSON-lines process on stdin and stdout.

One request per line, one reply per line, flushed. stdout carries replies only; diagnostics go to stderr.
Nothing a client sends can stop the server except `quit` or the end of input: bad input gets a
`bad_request` reply and the server reads on.
"""

from __future__ import annotations

import json
import random
import sys
import traceback
from typing import Any, BinaryIO, Callable, TextIO

from .errors import AzulError
from .game import VARIANTS, Game
from .state import from_state, to_state

PROTOCOL = 1
MAX_LINE = 1 << 20  # a request longer than 1 MiB is refused (a state is under 2 KiB)
NAME = "azul-reference"


class BadRequest(Exception):
    pass


class Server:
    """The server's memory between requests: the game, and the generator for deals it draws itself."""

    def __init__(self, seed: int | None = None) -> None:
        self.game: Game | None = None
        self.rng = random.Random(seed)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        handler: Callable[[dict], dict] | None = getattr(self, f"cmd_{command}", None) \
            if isinstance(command, str) and command.isidentifier() else None
        if handler is None:
            raise BadRequest(f"unknown cmd {command!r}: expected one of hello, new_game, deal, load_state, "
                             "legal_moves, play, state, play_game, quit")
        return handler(request)

    def _need_game(self) -> Game:
        if self.game is None:
            raise BadRequest("no game yet: send new_game or load_state first")
        return self.game

    def cmd_hello(self, request: dict) -> dict:
        from . import __version__
        protocol = request.get("protocol", PROTOCOL)
        # `true` and `1.0` compare equal to 1 in Python, but they are not the integer the schema asks for.
        if type(protocol) is not int or protocol != PROTOCOL:
            raise BadRequest(f"this engine speaks protocol {PROTOCOL}, not {json.dumps(protocol)}")
        return {"name": NAME, "version": __version__, "protocol": PROTOCOL,
                "capabilities": {"players": [2, 3, 4], "variants": list(VARIANTS), "load_state": True,
                                 "deal": True, "play_game": True}}

    def cmd_new_game(self, request: dict) -> dict:
        players = _field(request, "players", int)
        variant = _field(request, "variant", str, default="colour")
        start = _field(request, "start_player", int, default=0)
        self.game = Game(players, variant, start)
        return {"state": to_state(self.game)}

    def cmd_deal(self, request: dict) -> dict:
        game = self._need_game()
        factories = request.get("factories")
        if factories is not None and not (isinstance(factories, list) and all(isinstance(f, str) for f in factories)):
            raise BadRequest(f"factories: expected a list of strings, got {factories!r}")
        game.deal(factories, rng=self.rng)
        return {"state": to_state(game)}

    def cmd_load_state(self, request: dict) -> dict:
        self.game = from_state(request.get("state"))
        return {"state": to_state(self.game)}

    def cmd_legal_moves(self, request: dict) -> dict:
        return {"moves": [move.text for move in self._need_game().legal_moves()]}

    def cmd_play(self, request: dict) -> dict:
        game = self._need_game()
        game.play(_field(request, "move", str))
        return {"state": to_state(game)}

    def cmd_state(self, request: dict) -> dict:
        return {"state": to_state(self._need_game())}

    def cmd_play_game(self, request: dict) -> dict:
        """A whole game in one request: new_game, then the steps in order up to the first refused one."""
        steps = request.get("steps")
        if not isinstance(steps, list) or not all(isinstance(s, str) or _is_deal(s) for s in steps):
            raise BadRequest("steps: expected a list of moves (strings) and deals (lists of strings)")
        counts = request.get("states", [])
        if not isinstance(counts, list) or not all(type(n) is int and n >= 0 for n in counts):
            raise BadRequest("states: expected a list of step counts (integers from 0)")
        moves = request.get("moves", False)
        if not isinstance(moves, bool):
            raise BadRequest(f"moves: expected true or false, got {moves!r}")
        self.cmd_new_game(request)
        game, wanted = self.game, set(counts)
        states = [to_state(game)] if 0 in wanted else []
        lists: list[str] = []  # one string of space-separated moves per move step: far cheaper to parse
        reply: dict[str, Any] = {"played": 0, "states": states}
        for step in steps:
            try:
                if isinstance(step, list):
                    game.deal(step, rng=self.rng)
                else:
                    if moves:
                        lists.append(" ".join([move.text for move in game.legal_moves()]))
                    game.play(step)
            except AzulError as error:
                reply["refused"] = _error(None, error.code, error.message, error.rule)["error"]
                break
            reply["played"] += 1
            if reply["played"] in wanted:
                states.append(to_state(game))
        if moves:
            reply["moves"] = lists
        return reply


def _field(request: dict, name: str, kind: type, default: Any = ...) -> Any:
    value = request.get(name, default)
    if value is ...:
        raise BadRequest(f"{name}: missing")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRequest(f"{name}: expected {kind.__name__}, got {value!r}")
    return value


def _is_deal(step: Any) -> bool:
    return isinstance(step, list) and all(isinstance(factory, str) for factory in step)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON value")


def reply_to(server: Server, line: bytes) -> dict[str, Any] | None:
    """The reply to one request line (None for quit)."""
    request_id = None
    try:
        try:  # NaN and Infinity are no JSON: echoed back as an id, they would make our reply invalid too
            request = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:  # RecursionError: nesting deeper than the parser goes
            raise BadRequest(f"not JSON: {error}") from None
        if not isinstance(request, dict):
            raise BadRequest(f"expected a JSON object, got {type(request).__name__}")
        if request.get("cmd") == "quit":
            return None
        if "id" not in request:
            raise BadRequest("id: missing (every request but quit carries one)")
        if not _is_id(request["id"]):  # echoing a list, an object, a boolean or 1e400 (inf) would break our reply
            raise BadRequest(f"id: expected an integer or a string, got {_clip(json.dumps(request['id']))}")
        request_id = request["id"]
        return {"id": request_id, "ok": True, **server.handle(request)}
    except BadRequest as error:
        return _error(request_id, "bad_request", str(error))
    except AzulError as error:
        return _error(request_id, error.code, error.message, error.rule)
    except Exception as error:  # never a traceback on stdout: report it, log it, keep serving
        traceback.print_exc(file=sys.stderr)
        return _error(request_id, "internal", f"{type(error).__name__}: {error}")


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or type(value) is int


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _error(request_id: Any, code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if rule:
        error["rule"] = rule
    return {"id": request_id, "ok": False, "error": error}


def _encode(reply: dict[str, Any]) -> str:
    """Strict JSON only: a reply that would need NaN or Infinity is replaced by an `internal` error."""
    try:
        return json.dumps(reply, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        return json.dumps(_error(reply.get("id"), "internal", f"unencodable reply: {error}"), separators=(",", ":"))


def serve(stdin: BinaryIO | None = None, stdout: TextIO | None = None, seed: int | None = None) -> int:
    """Answer requests until `quit` or the end of input; returns the exit status."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    server = Server(seed)
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return 0
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := stdin.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass  # skip the remainder of the oversized line
            reply: dict | None = _error(None, "bad_request", f"request longer than {MAX_LINE} bytes")
        elif not line.strip():
            continue
        else:
            reply = reply_to(server, line)
            if reply is None:
                return 0
        stdout.write(_encode(reply) + "\n")
        stdout.flush()
