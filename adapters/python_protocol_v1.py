"""The protocol v1 request loop that every Python adapter of this folder serves its engine through: one JSON
request a line on stdin, one reply a line on stdout (docs/reference/protocol.md).

Part of azul-conformance (MIT), yet it imports nothing of the suite and nothing beyond Python's standard library,
so an adapter stays a program of its own, run by any Python 3.9+ beside its engine. An adapter's table is a
ProtocolTable with hello, new_game, deal, load_state, legal_moves, play and to_state; it raises Refused for what
the protocol refuses, and anything else it raises is the engine's own failure, answered as `internal` while the
loop serves on. Copy this file with an adapter you take elsewhere.
"""

from __future__ import annotations

import json
import sys


class Refused(Exception):
    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


class ProtocolTable:
    """What every adapter's table of answers shares: its game (a request before there is one is refused) and the
    state request. An adapter's table adds hello, new_game, deal, load_state, legal_moves, play and to_state."""

    game = None

    def state(self) -> dict:
        return {"state": self.to_state()}

    def _game(self):
        if self.game is None:
            raise Refused("bad_request", "no game yet: send new_game or load_state first")
        return self.game


def check_new_game(players, variant, start_player) -> None:
    """Refuses a new_game that no engine may accept, whatever it offers: the wrong types, a player count other
    than 2 to 4 (SETUP-6), a variant other than the two walls (SETUP-1), a start player who is no seat (SETUP-5)."""
    if not isinstance(players, int) or isinstance(players, bool) or not isinstance(variant, str) \
            or not isinstance(start_player, int) or isinstance(start_player, bool):
        raise Refused("bad_request", "players and start_player must be integers, variant a string")
    if players not in (2, 3, 4):
        raise Refused("bad_request", f"players must be 2, 3 or 4, not {players}", "SETUP-6")
    if variant not in ("colour", "grey"):
        raise Refused("bad_request", f"no variant {variant!r}", "SETUP-1")
    if not 0 <= start_player < players:
        raise Refused("bad_request", f"start_player {start_player} is no seat of a {players}-player game",
                      "SETUP-5")


def check_state(state) -> int:
    """Refuses what is no azul-state/1 document or has a player count other than 2 to 4 (SETUP-6), whatever the
    engine offers; the document's player count."""
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        raise Refused("bad_request", "state: expected an azul-state/1 object")
    players = state.get("players")
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise Refused("bad_request", f"state: players must be 2, 3 or 4, not {players!r}", "SETUP-6")
    return players


def check_take(move, colours: str = "BYRKW", no_grey: str = "the engine has no grey wall, so no placements") -> None:
    """Refuses a move that is no take in the compact notation (bad_request) and a grey-wall placement, which an
    engine of the coloured wall has none of (illegal_move, saying `no_grey`)."""
    if not isinstance(move, str) or len(move) != 3:
        raise Refused("bad_request", f"move {move!r} is not in the compact notation")
    if move[1] == "@" and move[0] in "12345" and move[2] in "12345":
        raise Refused("illegal_move", f"{move}: {no_grey}")
    if move[0] not in "123456789C" or move[1] not in colours or move[2] not in "12345F":
        raise Refused("bad_request", f"move {move!r} is not in the compact notation")


HANDLERS = {
    "hello": lambda t, r: t.hello() if type(r.get("protocol", 1)) is int and r.get("protocol", 1) == 1
    else _refuse_protocol(r),  # 1, not true or 1.0
    "new_game": lambda t, r: t.new_game(r.get("players"), r.get("variant", "colour"), r.get("start_player", 0)),
    "deal": lambda t, r: t.deal(r.get("factories")),
    "load_state": lambda t, r: t.load_state(r.get("state")),
    "legal_moves": lambda t, r: t.legal_moves(),
    "play": lambda t, r: t.play(r.get("move")),
    "state": lambda t, r: t._game() and t.state(),
}


def _refuse_protocol(request):
    raise Refused("bad_request", f"this adapter speaks protocol 1, not {request.get('protocol')!r}")


def answer(table, line: str) -> dict | None:
    """The reply to one request line (None for quit)."""
    request_id = None
    try:
        try:
            request = json.loads(line)
        except ValueError:
            raise Refused("bad_request", "not JSON") from None
        if not isinstance(request, dict):
            raise Refused("bad_request", "a request is a JSON object")
        if request.get("cmd") == "quit":
            return None
        if "id" not in request or not isinstance(request["id"], (int, str)) or isinstance(request["id"], bool):
            raise Refused("bad_request", "a request needs an id (an integer or a string)")
        request_id = request["id"]
        handler = HANDLERS.get(request.get("cmd"))
        if handler is None:
            raise Refused("bad_request", f"unknown cmd {request.get('cmd')!r}")
        return {"id": request_id, "ok": True, **handler(table, request)}
    except Refused as error:
        return {"id": request_id, "ok": False, "error": {"code": error.code, "message": error.message,
                                                         **({"rule": error.rule} if error.rule else {})}}
    except Exception as error:  # noqa: BLE001 - the engine failed on its own account; serve on
        print(f"internal: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        return {"id": request_id, "ok": False,
                "error": {"code": "internal", "message": f"{type(error).__name__}: {error}"}}


def serve(table) -> int:
    """Answers the requests on stdin until quit or the end of input."""
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(table, line)
        if reply is None:
            return 0
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0

