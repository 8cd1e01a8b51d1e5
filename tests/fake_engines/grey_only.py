"""A correct engine that offers the grey wall only: the reference, whose hello names `grey` alone and which
answers `unsupported` to a coloured-wall game (new_game, load_state, play_game), as protocol v1 asks of an
engine that cannot play a possible set-up. `python grey_only.py --bonus-every-round` is the same engine with
a scoring bug: it adds the end-of-game bonuses (END-2..4) at the end of every round, not once at the end."""
import sys

from _common import serve

from azul_reference import to_state

BONUS_EVERY_ROUND = "--bonus-every-round" in sys.argv


def before(request, server):
    """The coloured wall refused before the reference sees the request."""
    cmd = request.get("cmd")
    variant = request.get("state", {}).get("variant") if cmd == "load_state" and isinstance(
        request.get("state"), dict) else request.get("variant") if cmd in ("new_game", "play_game") else None
    if variant == "colour":
        return {"id": request.get("id"), "ok": False,
                "error": {"code": "unsupported", "message": "this engine plays the grey wall only"}}
    return None


def hook(request, reply, server):
    if not isinstance(reply, dict) or not reply.get("ok"):
        return reply
    if request.get("cmd") == "hello":
        reply["capabilities"]["variants"] = ["grey"]
    state = reply.get("state")
    if BONUS_EVERY_ROUND and request.get("cmd") == "play" and state and state["phase"] == "deal":
        for board in server.game.boards:  # the round's tiling is over and the game goes on
            board.score += board.end_bonus()
        reply["state"] = to_state(server.game)
    return reply


sys.exit(serve(hook, before))
