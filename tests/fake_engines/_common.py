"""Shared plumbing of the fake engines: the reference protocol server with a hook that bends one behaviour.

Each fake engine is its own process (`python tests/fake_engines/<name>.py`), speaking protocol v1 like
`azul serve` except where its hook says otherwise. The hook gets the request and the reply the reference would
give, and returns the line to write (or None to write nothing); it may also exit or sleep. A `play_game`
request is answered by playing its steps as single requests through the same hook, so a fake engine bends the
batched request exactly as it bends the single ones; the hook then sees the play_game reply too.

`--delay SECONDS` on any fake's command line makes it a slow engine too: it waits that long before answering
each `play` (the budgets' tests: `python lose_tiles.py --delay 0.05`).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Callable

from azul_reference.protocol import Server, reply_to

Hook = Callable[[dict[str, Any], dict[str, Any], Server], "dict | str | None"]


def serve(hook: Hook, before: Callable[[dict, Server], "dict | None"] | None = None) -> int:
    server = Server(seed=1)
    delay = float(sys.argv[sys.argv.index("--delay") + 1]) if "--delay" in sys.argv else 0.0

    def answer(request: dict, raw: bytes | None = None) -> "dict | str | None":
        early = before(request, server) if before else None
        reply = early if early is not None else reply_to(server, raw or json.dumps(request).encode())
        out = hook(request, reply, server)
        if delay and request.get("cmd") == "play":
            time.sleep(delay)
        return out

    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        request = json.loads(raw)
        if request.get("cmd") == "quit":
            return 0
        if request.get("cmd") == "play_game":
            out = play_game(request, answer)
            out = hook(request, out, server) if isinstance(out, dict) else out
        else:
            out = answer(request, raw)
        if out is None:
            continue
        sys.stdout.write((out if isinstance(out, str) else json.dumps(out)) + "\n")
        sys.stdout.flush()
    return 0



def play_game(request: dict, answer: Callable[[dict], "dict | str | None"]) -> "dict | str | None":
    """protocol v1's play_game, made of single requests (new_game, deal, legal_moves, play) through `answer`."""
    def ask(cmd: str, **fields: Any) -> "dict | str | None":
        out = answer({"id": request.get("id"), "cmd": cmd, **fields})
        if isinstance(out, dict) and out.get("id") != request.get("id"):
            return "a reply with the wrong id"  # the fake's fault shows in the one reply it gives
        return out

    out = ask("new_game", players=request.get("players"), variant=request.get("variant", "colour"),
              start_player=request.get("start_player", 0))
    if not isinstance(out, dict) or not out.get("ok"):
        return out
    wanted = set(request.get("states", []))
    reply: dict[str, Any] = {"id": request.get("id"), "ok": True, "played": 0,
                             "states": [out["state"]] if 0 in wanted else []}
    lists = []
    for step in request.get("steps", []):
        if isinstance(step, list):
            out = ask("deal", factories=step)
        else:
            if request.get("moves"):
                listed = ask("legal_moves")
                if not isinstance(listed, dict) or not listed.get("ok"):
                    return listed
                lists.append(" ".join(listed["moves"]))
            out = ask("play", move=step)
        if not isinstance(out, dict):
            return out
        if not out.get("ok"):
            reply["refused"] = out["error"]
            break
        reply["played"] += 1
        if reply["played"] in wanted:
            reply["states"].append(out["state"])
    if request.get("moves"):
        reply["moves"] = lists
    return reply
