"""Ctrl-C and SIGTERM held off while a result is handed to the reporters, so that an interrupt never falls
between two of them (a case in the terminal's summary but not in report.jsonl) or in the middle of the last
lines of an interrupted run's reports.

    with held():
        for reporter in outputs:
            reporter.case(result)
    # a signal that came meanwhile is delivered here, to the handler it was meant for

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
def held() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    before = {number: signal.signal(number, lambda number, _frame: came.append(number)) for number in SIGNALS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    for number in dict.fromkeys(came):  # delivered again, now to the handler it was meant for
        signal.raise_signal(number)
