"""Answers `play` with the wrong id."""
import sys

from _common import serve


def hook(request, reply, server):
    if request.get("cmd") == "play":
        reply["id"] = (request.get("id") or 0) + 1000
    return reply


sys.exit(serve(hook))
