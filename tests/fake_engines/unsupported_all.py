"""Offers everything in its hello (2-4 players, both walls, load_state, deal), then answers every other
request `unsupported`: an engine that can play nothing it says it can. `--players` sets the hello's player
counts (`--players ""`: none)."""
import sys

from _common import serve

PLAYERS = [int(n) for n in sys.argv[sys.argv.index("--players") + 1].split(",") if n] \
    if "--players" in sys.argv else [2, 3, 4]


def hook(request, reply, server):
    if request.get("cmd") == "hello":
        return dict(reply, capabilities=dict(reply["capabilities"], players=PLAYERS))
    return {"id": request.get("id"), "ok": False, "error": {"code": "unsupported", "message": "not today"}}


sys.exit(serve(hook))
