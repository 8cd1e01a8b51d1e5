"""Exits with status 3 on its fourth `play`, after a line on stderr."""
import sys

from _common import serve

plays = 0


def hook(request, reply, server):
    global plays
    if request.get("cmd") == "play":
        plays += 1
        if plays == 4:
            print("fatal: the factory fell off the table", file=sys.stderr, flush=True)
            sys.exit(3)
    return reply


sys.exit(serve(hook))
