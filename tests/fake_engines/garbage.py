"""Prints a debugging line instead of the reply to `legal_moves`."""
import sys

from _common import serve


def hook(request, reply, server):
    if request.get("cmd") == "legal_moves":
        return "DEBUG: generating moves..."
    return reply


sys.exit(serve(hook))
