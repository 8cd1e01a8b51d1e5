"""What a long run shows while it runs: cases done of all, failures so far, the case (or cases, with -j N) being
run, the engine's speed and the time spent.

On a terminal it is one live line, redrawn a few times a second and gone when the run ends (the summary follows
as before), made to fit the terminal's width as it is now: parts that do not fit are left out whole (the
running cases first, then the time, then the speeds), never cut in the middle, so an id is always whole and can
be copied. Elsewhere (a CI log, a file) it is a plain line with everything every PLAIN_EVERY seconds, never
broken by us.

    conform ━━━━━━━━━━━╸━━━━━━━━━━━━━━━━  90/212  1 failure  10.7 cases/s  1,981 moves/s  0:00:08  differential-tiling
    conform: 90/212 cases, 1 failure, 10.7 cases/s, 1,981 moves/s, 0:00:08; running differential-tiling

`azul fuzz` shows its campaign with the same display: games for cases, distinct deviations for failures, counted
a block at a time (`count`), without a total for a campaign bounded by time only, and its speed counted from
the games this session played (a resumed campaign's earlier games are in the count, not in the speed).

    fuzz: 12400/100000 games, 2 deviations, 1,230.4 games/s, 0:00:10
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from rich.console import Console
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

PLAIN_EVERY = 10.0  # seconds between progress lines when the output is not a terminal
BAR = (10, 40)  # the bar's narrowest and widest, in columns


def plural(count: int, noun: str) -> str:
    """`1 case`, `2 cases`, `1,024 games`."""
    return f"{count:,} {noun}{'s' if count != 1 else ''}"


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


class RunProgress:
    """Fed by the runner (`started`, `finished`) from one thread; draws on its own (a live display's refresh, or
    a ticker thread for plain lines). `moves` gives the moves played so far by every engine of the run."""

    def __init__(self, console: Console, total: int | None, *, label: str = "conform", unit: str = "case",
                 bad_unit: str = "failure", moves: Callable[[], int] | None = None,
                 plain_every: float | None = None, already: int = 0) -> None:
        self.console, self.total, self.label, self.unit, self.bad_unit = console, total, label, unit, bad_unit
        self.moves = moves
        self.plain_every = PLAIN_EVERY if plain_every is None else plain_every
        self.done, self.bad = already, 0
        self.already = already  # done before this run: counted, but not in the speed
        self.running: list[str] = []  # in the order they started
        self.started_at = time.perf_counter()
        self._live: Live | None = None
        self._ticker: threading.Thread | None = None
        self._stop = threading.Event()

    # -- what the run tells it ---------------------------------------------------------------------------------

    def started(self, case_id: str) -> None:
        self.running.append(case_id)

    def finished(self, case_id: str, bad: bool) -> None:
        if case_id in self.running:
            self.running.remove(case_id)
        self.done += 1
        self.bad += bool(bad)

    def count(self, done: int, bad: int) -> None:
        """The counts so far, for a run that learns them a batch at a time (a fuzz campaign's blocks)."""
        self.done, self.bad = done, bad

    # -- showing it --------------------------------------------------------------------------------------------

    def start(self) -> "RunProgress":
        self.started_at = time.perf_counter()
        if self.console.is_terminal:
            self._live = Live(console=self.console, get_renderable=self._render, refresh_per_second=4,
                              transient=True, redirect_stdout=False, redirect_stderr=False)
            self._live.start()
        elif self.plain_every > 0:
            self._ticker = threading.Thread(target=self._tick, name="azul-progress", daemon=True)
            self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._live is not None:
            self._live.stop()
            self._live = None
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None

    def __enter__(self) -> "RunProgress":
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _tick(self) -> None:
        while not self._stop.wait(self.plain_every):
            self.console.print(self.plain_line(), soft_wrap=True, highlight=False, markup=False)

    def _parts(self) -> tuple[list[str], str, str, list[str]]:
        """What must show (done of all, failures), the speed, the time spent, the cases running."""
        elapsed = max(time.perf_counter() - self.started_at, 1e-9)
        done = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
        must = [done] + ([plural(self.bad, self.bad_unit)] if self.bad else [])
        moves = self.moves() if self.moves else 0
        speed = f"{moves / elapsed:,.0f} moves/s" if moves else f"{self._rate(elapsed):,.1f} {self.unit}s/s"
        return must, speed, _clock(elapsed), list(self.running)

    def _rate(self, elapsed: float) -> float:
        return (self.done - self.already) / elapsed

    def plain_line(self) -> str:
        """A log line with everything, never broken by us (a log has no width; its viewer wraps at spaces)."""
        must, speed, clock, running = self._parts()
        elapsed = max(time.perf_counter() - self.started_at, 1e-9)
        rates = [f"{self._rate(elapsed):,.1f} {self.unit}s/s"] + ([speed] if "moves" in speed else [])
        line = f"{self.label}: {must[0]} {self.unit}s, " + ", ".join(must[1:] + rates + [clock])
        return line + (f"; running {', '.join(running)}" if running else "")

    def _render(self):
        width = self.console.width
        parts = self._parts()
        room = width - len(self.label) - 2 - BAR[0]  # the label, the bar at its narrowest, a space each side
        text = _fit(*parts, room)
        bar_width = max(min(width - len(self.label) - 2 - len(text), BAR[1]), 0)
        if bar_width < BAR[0]:  # too narrow for a bar: the text alone
            return self._styled(_fit(*parts, width))
        grid = Table.grid(padding=(0, 1))
        grid.add_row(Text(self.label, style="bold"), ProgressBar(total=self.total or None, completed=self.done,
                                                                  width=bar_width), self._styled(text))
        return grid

    def _styled(self, text: str) -> Text:
        out = Text(text, no_wrap=True, overflow="crop")
        if self.bad:
            out.highlight_regex(rf"\d[\d,]* {self.bad_unit}s?", "bold red")
        return out


def _fit(must: list[str], speed: str, clock: str, running: list[str], width: int) -> str:
    """The longest line that fits `width`, leaving out whole parts, in this order: the cases running but the
    first (the last started first), the time spent, the speed, the first case running. What must show shows."""
    shown = [", ".join(running[:n]) for n in range(len(running), 0, -1)]
    candidates = [must + [speed, clock, cases] for cases in shown]
    if shown:  # (nothing running, as between a fuzz campaign's blocks: the time is next)
        candidates += [must + [speed] + shown[-1:], must + shown[-1:]]
    candidates += [must + [speed, clock], must + [speed], must]
    lines = ["  ".join(parts) for parts in candidates]
    return next((line for line in lines if len(line) <= width), lines[-1])
