"""Two deviations that depend on the position only, so a fuzz campaign finds them the same way however its
games are split: the legal moves never list `CWF` (the centre's white tiles to the floor, OFFER-11) while
the centre holds 6 white tiles or more, and once
a board has 10 points or more, every round's tiling adds 1 point too many to it (SCORE)."""
import sys

from _common import serve

from azul_reference import to_state


def hook(request, reply, server):
    if not isinstance(reply, dict) or not reply.get("ok"):
        return reply
    if request.get("cmd") == "legal_moves" and server.game.centre[4] >= 6:
        reply["moves"] = [move for move in reply["moves"] if move != "CWF"]
    state = reply.get("state")
    if request.get("cmd") == "play" and state and state["phase"] == "deal":
        for board in server.game.boards:
            if board.score >= 10:
                board.score += 1
        reply["state"] = to_state(server.game)
    return reply


sys.exit(serve(hook))
