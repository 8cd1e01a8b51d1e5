"""Accepts every move: a legal one is played, an illegal one answered `ok` with the state as it is."""
import sys

from _common import serve


def hook(request, reply, server):
    if request.get("cmd") == "play" and not reply.get("ok"):
        return {"id": request.get("id"), "ok": True, "state": reply_state(server)}
    return reply


def reply_state(server):
    from azul_reference.state import to_state

    return to_state(server.game)


sys.exit(serve(hook))
