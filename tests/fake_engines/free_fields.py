"""A correct engine that writes noise where no rule decides: once the game is over, `turn`, `start_player` and
`marker` mean nothing (docs/reference/state.md), so every state it gives in phase `over` has them at random.
The suite must judge it as it judges the reference (tests/test_free_fields.py)."""
import random
import sys

from _common import serve

noise = random.Random(7)


def hook(request, reply, server):
    state = reply.get("state") if isinstance(reply, dict) else None
    if isinstance(state, dict) and state.get("phase") == "over":
        seats = list(range(state["players"]))
        state["turn"], state["start_player"] = noise.choice(seats), noise.choice(seats)
        state["marker"] = noise.choice(seats + ["centre"])
    return reply


sys.exit(serve(hook))
