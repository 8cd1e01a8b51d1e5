"""Never answers its first `play` (sleeps)."""
import sys
import time

from _common import serve


def hook(request, reply, server):
    if request.get("cmd") == "play":
        print("thinking very hard...", file=sys.stderr, flush=True)
        time.sleep(3600)
    return reply


sys.exit(serve(hook))
