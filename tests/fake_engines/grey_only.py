"""A correct engine that offers the grey wall only: the reference, whose hello names `grey` alone and which
answers `unsupported` to a coloured-wall game (new_game, load_state, play_game), as protocol v1 asks of an
engine that cannot play a possible set-up. `python grey_only.py --bonus-every-round` is the same engine with
a scoring bug: it adds the end-of-game bonuses (END-2..4) at the end of every round, not once at the end;
`--lone-tile-scores-2` a second, commoner bug beside it: a placed tile with no neighbour scores 2 (SCORE-1).
`--both-walls` offers the coloured wall too (the bugs then show on both walls)."""
import sys

from _common import serve

from azul_reference import to_state

BONUS_EVERY_ROUND = "--bonus-every-round" in sys.argv
BOTH_WALLS = "--both-walls" in sys.argv
LONE_TILE_SCORES_2 = "--lone-tile-scores-2" in sys.argv
placing: list = []  # the seat whose placement is being played


def before(request, server):
    """The coloured wall refused before the reference sees the request."""
    cmd = request.get("cmd")
    variant = request.get("state", {}).get("variant") if cmd == "load_state" and isinstance(
        request.get("state"), dict) else request.get("variant") if cmd in ("new_game", "play_game") else None
    if cmd == "play" and "@" in str(request.get("move")) and server.game is not None:
        placing[:] = [server.game.turn]
    if variant == "colour" and not BOTH_WALLS:
        return {"id": request.get("id"), "ok": False,
                "error": {"code": "unsupported", "message": "this engine plays the grey wall only"}}
    return None


def hook(request, reply, server):
    if not isinstance(reply, dict) or not reply.get("ok"):
        return reply
    if request.get("cmd") == "hello" and not BOTH_WALLS:
        reply["capabilities"]["variants"] = ["grey"]
    state = reply.get("state")
    if BONUS_EVERY_ROUND and request.get("cmd") == "play" and state and state["phase"] == "deal":
        for board in server.game.boards:  # the round's tiling is over and the game goes on
            board.score += board.end_bonus()
        reply["state"] = to_state(server.game)
    if LONE_TILE_SCORES_2 and request.get("cmd") == "play" and "@" in request["move"] and placing:
        row, column = int(request["move"][0]) - 1, int(request["move"][2]) - 1
        wall = state["boards"][placing[0]]["wall"]
        near = [(row + dr, column + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        if all(not (0 <= r < 5 and 0 <= c < 5) or wall[r][c] == "." for r, c in near):
            server.game.boards[placing[0]].score += 1
            reply["state"] = to_state(server.game)
    return reply


sys.exit(serve(hook, before))
