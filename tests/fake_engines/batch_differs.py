"""Plays every single request as the reference does, but its play_game answer gives the last state with one
point too many on the first board: a deviation that only the batched request shows."""
import sys

from _common import serve


def hook(request, reply, session):
    if request.get("cmd") == "play_game" and reply.get("ok") and reply.get("states"):
        reply["states"][-1]["boards"][0]["score"] += 1
    return reply


sys.exit(serve(hook))
