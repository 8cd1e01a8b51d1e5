"""Refuses every move with illegal_move (yet lists the legal moves)."""
import sys

from _common import serve


def hook(request, reply, server):
    if request.get("cmd") == "play":
        return {"id": request.get("id"), "ok": False,
                "error": {"code": "illegal_move", "message": "no moves today"}}
    return reply


sys.exit(serve(hook))
