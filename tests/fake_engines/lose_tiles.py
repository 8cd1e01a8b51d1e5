"""Loses a tile at every tiling: the lid never receives the first discarded tile of a round (its state shows
one tile fewer from then on)."""
import sys

from _common import serve

lost = 0


def hook(request, reply, server):
    global lost
    state = reply.get("state") if isinstance(reply, dict) else None
    if state is None:
        return reply
    if request.get("cmd") in ("new_game", "load_state"):
        lost = 0
    if request.get("cmd") == "play" and state["phase"] in ("deal", "over") and state["lid"] and lost < 5:
        server.game.lid[[c for c in range(5) if server.game.lid[c]][0]] -= 1
        lost += 1
        from azul_reference.state import to_state

        reply["state"] = to_state(server.game)
    return reply


sys.exit(serve(hook))
