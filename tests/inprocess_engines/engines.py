"""Python engines for the in-process tests: the reference engine behind a factory, and ways to misbehave."""

from __future__ import annotations

import dataclasses
import sys
import time

from azul_conformance.engines import Engine
from azul_conformance.engines.reference import ReferenceEngine

# The factories are named in --engine py:...:NAME strings, never called by name in Python.
__all__ = ["make_engine", "exploding", "exiting", "interrupting", "babbling", "slow", "stuck", "not_an_engine",
           "broken_factory", "no_wall"]


def make_engine() -> Engine:
    return ReferenceEngine(0)


class Exploding(ReferenceEngine):
    """Raises on its tenth move, the way a buggy engine does; the engines made after it play on."""

    exploded = False

    def __init__(self, seed):
        super().__init__(seed)
        self.moves = 0

    def play(self, move):
        self.moves += 1
        if self.moves == 10 and not Exploding.exploded:
            Exploding.exploded = True
            raise ZeroDivisionError("fell off the table")
        return super().play(move)


class Exiting(ReferenceEngine):
    def legal_moves(self):
        sys.exit(3)


class Interrupting(ReferenceEngine):
    """Raises KeyboardInterrupt when asked its legal moves, as an engine that catches Ctrl-C badly may: its
    exception, not the user's."""

    def legal_moves(self):
        raise KeyboardInterrupt


class Babbling(ReferenceEngine):
    """Answers a state that is no state."""

    def deal(self, factories=None):
        super().deal(factories)
        return {"phase": "offer"}


class Slow(ReferenceEngine):
    """Deals after 1.5 s: over a 1 s timeout whatever the load, while its other answers come at once."""

    def deal(self, factories=None):
        time.sleep(1.5)
        return super().deal(factories)


def exploding() -> Engine:
    return Exploding(0)


def exiting() -> Engine:
    return Exiting(0)


def interrupting() -> Engine:
    return Interrupting(0)


def babbling() -> Engine:
    return Babbling(0)


def slow() -> Engine:
    return Slow(0)


def not_an_engine():
    return object()


def broken_factory():
    raise RuntimeError("no table today")


class Stuck(ReferenceEngine):
    """Never returns from its fifth move (an endless loop in an engine): no request deadline can cut it."""

    def __init__(self, seed):
        super().__init__(seed)
        self.moves = 0

    def play(self, move):
        self.moves += 1
        while self.moves >= 5:
            time.sleep(1)
        return super().play(move)


def stuck() -> Engine:
    return Stuck(0)


class NoWall(ReferenceEngine):
    """The reference engine, but its hello offers no wall: it can play no game at all."""

    def hello(self):
        info = super().hello()
        return dataclasses.replace(info, capabilities=dataclasses.replace(info.capabilities, variants=()))


def no_wall() -> Engine:
    return NoWall(0)
