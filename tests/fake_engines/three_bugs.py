"""Three independent deviations, one of them in nearly every game, so that a fuzz campaign that stopped each game
at its first difference would find the frequent one and hide the others: every round's end after the first
names the wrong start player for the next round in its reply (ROUND-2, in nearly every game); the legal
moves never list `CWF` while the centre holds 6 white tiles or more (OFFER-11); once a board has 10 points or
more, every round's tiling adds 1 point too many to it (SCORE-2, in later rounds)."""
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
        state = reply["state"] = to_state(server.game)
        if state["round"] >= 2:  # in the reply only: the engine's own game goes on from the right seat
            state["start_player"] = (state["start_player"] + 1) % state["players"]
    return reply


sys.exit(serve(hook))
