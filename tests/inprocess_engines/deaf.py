"""In-process engines that never come back and will not be told (tests/test_reliability_processes.py): only
SIGKILL ends the process that runs them."""

from __future__ import annotations

import signal
import time

from azul_conformance.engines import Engine
from azul_conformance.engines.reference import ReferenceEngine

# The factories are named in --engine py:...:NAME strings, never called by name in Python.
__all__ = ["deaf", "deaf_factory"]


def _forever() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)


class Deaf(ReferenceEngine):
    """Answers everything but a move: play() never returns, and SIGTERM is ignored meanwhile."""

    def play(self, move):
        _forever()


def deaf() -> Engine:
    return Deaf(0)


def deaf_factory() -> Engine:
    """Never makes its engine."""
    _forever()
