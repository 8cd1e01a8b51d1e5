#!/usr/bin/env python3
"""A minimal protocol-v1 adapter: wraps an Azul engine (here the bundled reference engine, as a stand-in for
yours) and answers one JSON request per line on stdin with one JSON reply per line on stdout.

Try it:  azul smoke --engine "python3 docs/examples/minimal_adapter.py"
"""
import json
import random
import sys

from azul_reference import AzulError, Game, from_state, to_state  # swap in your own engine here

game, rng = None, random.Random(1)


def handle(request):
    global game
    cmd = request.get("cmd")
    if cmd == "hello":
        if type(request.get("protocol")) is not int or request["protocol"] != 1:
            raise ValueError(f"this adapter speaks protocol 1, not {request.get('protocol')!r}")
        return {"name": "minimal-adapter", "version": "1.0", "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour", "grey"],
                                 "load_state": True, "deal": True}}
    if cmd == "new_game":
        game = Game(request["players"], request.get("variant", "colour"), request.get("start_player", 0))
    elif cmd == "load_state":
        game = from_state(request["state"])
    elif game is None:
        raise ValueError("no game yet: send new_game or load_state first")
    elif cmd == "deal":
        game.deal(request.get("factories"), rng=rng)
    elif cmd == "play":
        game.play(request["move"])
    elif cmd == "legal_moves":
        return {"moves": [str(move) for move in game.legal_moves()]}
    elif cmd != "state":
        raise ValueError(f"unknown cmd {cmd!r}")
    return {"state": to_state(game)}


def request_id(request):
    """The id to echo: an integer or a string; anything else (or none) is answered with null."""
    value = request.get("id") if isinstance(request, dict) else None
    return value if isinstance(value, str) or type(value) is int else None


for line in sys.stdin:
    request = {}
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("a request is a JSON object")
        if request.get("cmd") == "quit":
            break
        if request_id(request) is None:
            raise ValueError("id: missing, or not an integer or a string")
        reply = {"id": request["id"], "ok": True, **handle(request)}
    except AzulError as error:  # the engine refused: pass on its code and the rule it names, if any
        refusal = {"code": error.code, "message": error.message}
        if error.rule:  # `rule` is a rule ID or left out, never null
            refusal["rule"] = error.rule
        reply = {"id": request_id(request), "ok": False, "error": refusal}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        reply = {"id": request_id(request), "ok": False, "error": {"code": "bad_request", "message": str(error)}}
    print(json.dumps(reply), flush=True)
