"""Time budgets: a case's (`--case-timeout`) and the run's (`--budget`), kept between the engine's requests.

A case runs on a `Metered` engine (harness/runner.py wraps it): it counts the moves played (the progress
display's speed) and, at the first request after the case's deadline, raises `OutOfTime`. The case is thus cut
at a clean point: the engine is between requests (ready for the next case, no restart), and what the case
judged so far is kept: a property keeps the games it played and the smallest failure it had found, any case the
number of requests answered. A request already sent is waited for (at most `--timeout`), so a cut comes at most
that late.

Deadlines are `time.monotonic()` values: one clock for every process on the machine, so a worker process of
`-j N` keeps the run's deadline set by the main process.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from .engines.base import CanonicalState, Engine


class OutOfTime(BaseException):
    """A budget ran out. A BaseException so that hypothesis (and any `except Exception`) lets it through, as
    EngineGaveUp does."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seconds_text(seconds: float) -> str:
    """600 -> '10m', 90 -> '90s', 5400 -> '1h30m': as the options are written."""
    whole = int(seconds)
    if whole != seconds or whole < 60 or whole % 60:
        return f"{seconds:g}s"
    hours, minutes = divmod(whole // 60, 60)
    return (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "")


def case_budget_text(seconds: float) -> str:
    return f"the case's time budget (--case-timeout {seconds_text(seconds)}) ran out"


def run_budget_text(seconds: float) -> str:
    return f"the run's time budget (--budget {seconds_text(seconds)}) ran out"


class Count(Protocol):
    value: int


class Tally:
    """A counter with `.value`, as multiprocessing.Value has (the moves of one process's cases)."""

    def __init__(self) -> None:
        self.value = 0


class Metered(Engine):
    """The engine as one case sees it: every request goes through, counted; after `deadline` the next one raises
    OutOfTime(why) once (later requests, such as writing a counterexample, go through)."""

    def __init__(self, engine: Engine, deadline: float | None = None, why: str = "", moves: Count | None = None):
        self.engine, self.deadline, self.why = engine, deadline, why
        self.moves = moves if moves is not None else Tally()
        self.info = engine.info
        self.requests = 0
        self.cut = False

    def _go(self) -> None:
        if self.deadline is not None and not self.cut and time.monotonic() > self.deadline:
            self.cut = True
            raise OutOfTime(self.why)
        self.requests += 1

    def hello(self):
        self._go()
        return self.engine.hello()

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        self._go()
        return self.engine.new_game(players, variant, start_player)

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        self._go()
        return self.engine.deal(factories)

    def load_state(self, state: CanonicalState) -> CanonicalState:
        self._go()
        return self.engine.load_state(state)

    def legal_moves(self) -> list[str]:
        self._go()
        return self.engine.legal_moves()

    def play(self, move: str) -> CanonicalState:
        self._go()
        after = self.engine.play(move)
        self.moves.value += 1
        return after

    def state(self) -> CanonicalState:
        self._go()
        return self.engine.state()

    def restart(self) -> None:
        self.engine.restart()

    def close(self) -> None:
        self.engine.close()

    def stderr_tail(self) -> str:
        return self.engine.stderr_tail()

    def __getattr__(self, name: str) -> Any:  # an adapter's own extras (its timeout, its command...)
        return getattr(self.engine, name)
