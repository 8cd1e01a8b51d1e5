"""Refuses every request with a message of 2 MB (`python huge_refusal.py [--hello]`): the reports must clip an
engine's text, not store it whole in every row. The hello is answered, unless --hello is given."""
import sys

from _common import serve

MESSAGE = ("no " * 700_000)[:2 * 1024 * 1024]


def hook(request, reply, server):
    if request.get("cmd") == "hello" and "--hello" not in sys.argv:
        return reply
    return {"id": request.get("id"), "ok": False, "error": {"code": "illegal_move", "message": MESSAGE}}


sys.exit(serve(hook))
