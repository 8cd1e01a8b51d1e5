"""Ctrl-C and SIGTERM held off while a result is handed to the reporters, so that an interrupt never falls
between two of them (a case in the terminal's summary but not in report.jsonl) or in the middle of the last
lines of an interrupted run's reports.

    with held():
        for reporter in outputs:
            reporter.case(result)
    # a signal that came meanwhile is delivered here, to the handler it was meant for

A fuzz block played in this process holds them too, until the game under way ends: then it stops, is recorded
with the games it played, and the campaign ends as interrupted (fuzz/campaign.py's run_block).

(`azul` turns SIGTERM into KeyboardInterrupt, cli/__init__.py, as Python does Ctrl-C.) Outside the main thread
(where signal handlers cannot be set) nothing is held.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def held(deliver: bool = True) -> Iterator[list[int]]:
    """Hold SIGINT and SIGTERM; yields the list of those that came (a caller may look, to stop early). On the way
    out they are delivered (unless `deliver` is False: the caller acts on them itself). A second one while held
    is not held: someone who presses Ctrl-C twice means it, now."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def hold(number: int, _frame) -> None:
        came.append(number)
        if len(came) > 1:
            raise KeyboardInterrupt

    before = {number: signal.signal(number, hold) for number in SIGNALS}
    try:
        yield came
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    for number in dict.fromkeys(came) if deliver else ():  # delivered again, to the handler it was meant for
        signal.raise_signal(number)
