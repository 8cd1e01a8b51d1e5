"""Shared plumbing of the fake engines: the reference protocol server with a hook that bends one behaviour.

Each fake engine is its own process (`python tests/fake_engines/<name>.py`), speaking protocol v1 like
`azul serve` except where its hook says otherwise. The hook gets the request and the reply the reference would
give, and returns the line to write (or None to write nothing); it may also exit or sleep.

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
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        request = json.loads(raw)
        if request.get("cmd") == "quit":
            return 0
        early = before(request, server) if before else None
        reply = early if early is not None else reply_to(server, raw)
        out = hook(request, reply, server)
        if delay and request.get("cmd") == "play":
            time.sleep(delay)
        if out is None:
            continue
        sys.stdout.write((out if isinstance(out, str) else json.dumps(out)) + "\n")
        sys.stdout.flush()
    return 0

