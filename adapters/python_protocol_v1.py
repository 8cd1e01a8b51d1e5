"""The protocol v1 request loop that every Python adapter of this folder serves its engine through: one JSON
request a line on stdin, one reply a line on stdout (docs/reference/protocol.md).

Part of azul-conformance (MIT), yet it imports nothing of the suite and nothing beyond Python's standard library,
so an adapter stays a program of its own, run by any Python 3.9+ beside its engine. An adapter's table is a
ProtocolTable with hello, new_game, deal, load_state, legal_moves, play and to_state; it raises Refused for what
the protocol refuses, and anything else it raises is the engine's own failure, answered as `internal` while the
loop serves on. The checks here refuse what no engine may accept; pop_order and ArrangedShuffle arrange a given
deal for the engines that draw by popping from the end of a bag. Copy this file with an adapter you take elsewhere.
"""

from __future__ import annotations

import json
import sys


class Refused(Exception):
    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


class ProtocolTable:
    """What every adapter's table of answers shares: its game (a request before there is one is refused), the
    state request and the deal request's checks. An adapter's table adds hello, new_game, load_state,
    legal_moves, play and to_state, a `phase`, and the deal itself: _deal_given(game, factories) for the factories
    asked, _deal_random(game) for the engine's own draw (or a deal request of its own)."""

    game = None

    def state(self) -> dict:
        return {"state": self.to_state()}

    def deal(self, factories=None) -> dict:
        game = self._game()
        if self.phase != "deal":
            raise Refused("illegal_move", "no deal is due", "DEAL-1")
        if factories is not None:
            return self._deal_given(game, factories)
        return self._deal_random(game)

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


def check_factories(factories) -> None:
    """Refuses a deal request's factories that are not 5 to 9 strings of at most 4 letters B Y R K W (the
    protocol's schema), whatever the engine offers; the engine's own factory count is the adapter's to check."""
    if not isinstance(factories, list) or not all(isinstance(f, str) for f in factories):
        raise Refused("bad_request", "factories must be a list of strings")
    if any(set(f) - set("BYRKW") or len(f) > 4 for f in factories) or not 5 <= len(factories) <= 9:
        raise Refused("bad_request", "factories: 5 to 9 strings of at most 4 letters B Y R K W (protocol schema)")


def seat_value(value, players: int) -> bool:
    """Whether a state document's seat (its turn, start player or marker) is a seat of a `players`-player game."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def pop_order(pool: list, wanted: list[list], key=None) -> tuple[list, list]:
    """The pool's tiles ordered so that popping from the end (as the engine's draw does) gives the wanted
    factories (each a multiset of tiles, drawn in turn) as far as the pool holds them, and what the pool lacks: the
    rest of the first factory it cannot complete, then every later factory's tiles. Its own tiles left over follow
    in any order (a deal that then comes out different, and is refused). Two tiles are alike when their `key`s are
    equal (the tiles themselves without one)."""
    same = key or (lambda tile: tile)
    rest = list(pool)
    front: list = []
    for index, factory in enumerate(wanted):
        missing = []
        for tile in factory:
            match = next((i for i, t in enumerate(rest) if same(t) == same(tile)), None)
            if match is not None:
                front.append(rest.pop(match))
            else:
                missing.append(tile)
        if missing:
            return rest + front[::-1], missing + [tile for later in wanted[index + 1:] for tile in later]
    return rest + front[::-1], []


class ArrangedShuffle:
    """Stands in for an engine's random during a given deal whose only shuffle is that of the tiles poured into
    the emptied bag, once every tile the bag held has been drawn: it orders the poured tiles so that the unchanged
    draw (popping from the end) deals the rest of the asked tiles, `remainder` (pop_order's second part)."""

    def __init__(self, remainder: list, key=None) -> None:
        self.remainder, self.key = remainder, key

    def shuffle(self, tiles: list) -> None:
        tiles[:] = pop_order(tiles, [self.remainder], self.key)[0]


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

