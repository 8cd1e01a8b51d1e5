"""One hostile engine per mode (`python hostile.py MODE [ARG]`), for the harness's robustness tests.

    hello JSON        answers hello with the given JSON object merged over a correct hello reply
    hello-deep        answers hello with an object nested 100,000 levels deep
    fork-exit FILE    forks a child that keeps stdout open and sleeps (its pid written to FILE), then exits 3
    bare-helper       starts a helper in a session of its own with its environment cleared (no mark reaches it)
                      that sleeps for an hour, then serves the reference
    hang-pid FILE     writes its pid to FILE, answers hello, then never answers again
    stderr-flood MB   answers hello, then writes MB megabytes to stderr without a newline and exits 4
    odd-answers       answers an unknown command with a line that is not JSON, a request without id with a list
    close-stdin       answers new_game, then closes its standard input and sleeps
    bent-state HOW    every state it replies with is bent: extra-key, no-floor, nan-score, unsorted
    odd-move          lists a move with a terminal escape among its legal moves
    rude              refuses every move with a message full of markup, escapes and a lone surrogate
"""
import json
import os
import subprocess
import sys
import time

from _common import serve

mode, arg = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")


if mode == "bare-helper":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True, env={},
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def hook(request, reply, server):
    if request.get("cmd") == "hello":
        if mode == "hello":
            return {**reply, **json.loads(arg)}
        if mode == "hello-deep":
            return '{"id": %d, "ok": true, "name": %s}' % (request["id"], "[" * 100_000 + "]" * 100_000)
        return reply
    if mode == "fork-exit":
        if os.fork() == 0:  # the child keeps the inherited stdout open and outlives its parent
            with open(arg, "w") as handle:
                handle.write(str(os.getpid()))
            time.sleep(3600)
            os._exit(0)
        time.sleep(0.2)
        os._exit(3)
    if mode == "hang-pid":
        time.sleep(3600)
    if mode == "odd-answers" and request.get("cmd") == "fly_to_the_moon":
        return "\x1b[31mwhat?"
    if mode == "odd-answers" and "id" not in request:
        return "[1, 2]"
    if mode == "close-stdin" and request.get("cmd") == "new_game":
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        os.close(0)
        time.sleep(3600)
    if mode == "stderr-flood":
        block = b"x" * (1 << 20)
        for _ in range(int(arg)):
            sys.stderr.buffer.write(block)
        sys.stderr.buffer.write(b"the end of a long line")
        sys.stderr.flush()
        os._exit(4)
    if mode == "rude" and request.get("cmd") == "play":
        return ('{"id": %d, "ok": false, "error": {"code": "illegal_move", "message": '
                '"<script>alert(1)</script> ```\\n# heading | [link](x) \\ud800 \\u001b[2J \\u0007 [bold]rich[/]"}}'
                % request["id"])
    if mode == "odd-move" and request.get("cmd") == "legal_moves":
        return {**reply, "moves": reply["moves"] + ["1B1\x1b[2J"]}
    if mode == "bent-state" and isinstance(reply.get("state"), dict):
        state = reply["state"]
        if arg == "extra-key":
            state["engine_notes"] = "mine"
        elif arg == "no-floor":
            del state["boards"][0]["floor"]
        elif arg == "nan-score":
            return json.dumps(reply).replace('"score": 0', '"score": NaN', 1)
        elif arg == "unsorted":
            state["bag"] = state["bag"][::-1]
    return reply


if mode == "hang-pid":
    with open(arg, "w") as handle:
        handle.write(str(os.getpid()))
sys.exit(serve(hook))
