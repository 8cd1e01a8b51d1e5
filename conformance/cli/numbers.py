"""The numbers `azul`'s options take: one click type for all of them, so that every command refuses the same way.

    @click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0)
    @click.option("--seed", type=Number(int, *SEEDS), default=0)

A number is finite (click's FloatRange lets `nan` and `inf` through, and `nan` passes every bound, since it
compares false with everything), within its bounds (an upper one too: `--limit 1e300` overflowed the clock
arithmetic it reached, `-j 100000` would start that many processes), whole where a count is meant (`2.5` games
is refused, not cut to 2), and short enough to read (no 5,000-digit integer). A refusal names the option, what
was given, and the range.
"""

from __future__ import annotations

import math
import re

import click

DAY = 86_400.0  # seconds: no request, case or mutant needs more
SEEDS = (-(2 ** 63), 2 ** 63 - 1)  # what any engine's 64-bit integer holds
JOBS = 1024  # processes at once: more is a typo
MAX_SECONDS = 10 ** 8  # about three years: the longest duration (--time, --budget) taken
_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")


class Number(click.ParamType):
    """A finite number from `low` to `high`, an int when `kind` is int."""

    def __init__(self, kind: type = int, low: float | None = None, high: float | None = None) -> None:
        self.kind, self.low, self.high = kind, low, high
        self.name = "integer" if kind is int else "number"

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"{value!r}: expected {self._expected()}", param, ctx)
        if isinstance(value, (int, float)):  # a default, or a value given from Python
            number = value
        else:
            text = str(value).strip().replace("_", "")
            if len(text) > 40:
                self.fail(f"{value[:20]!r}... ({len(value)} characters): expected {self._expected()}", param, ctx)
            try:
                number = int(text) if self.kind is int and _WHOLE.fullmatch(text) else float(text)
            except ValueError:
                self.fail(f"{value!r}: expected {self._expected()}", param, ctx)
        if isinstance(number, float) and not math.isfinite(number):
            self.fail(f"{value!r}: expected {self._expected()} (not NaN or infinity)", param, ctx)
        if self.kind is int:
            if isinstance(number, float):
                if not number.is_integer():
                    self.fail(f"{value!r}: expected {self._expected()}", param, ctx)
                number = int(number)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            self.fail(f"{value!r}: expected {self._expected()}", param, ctx)
        return self.kind(number)

    def _expected(self) -> str:
        what = "a whole number" if self.kind is int else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} from {_shown(self.low)} to {_shown(self.high)}"
        if self.low is not None:
            return f"{what} of at least {_shown(self.low)}"
        return what

    def __repr__(self) -> str:
        return f"Number({self.kind.__name__}, {self.low}, {self.high})"


def _shown(bound: float) -> str:
    if isinstance(bound, float) and bound.is_integer():
        bound = int(bound)
    return f"{bound:,}" if isinstance(bound, int) else f"{bound:g}"


def parse_duration(ctx, param, value: str | None) -> float | None:
    """`90`, `90s`, `15m`, `2h`, `1h30m` -> seconds, at most MAX_SECONDS."""
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) > 20:
        raise click.BadParameter(f"{value[:20]!r}... ({len(value)} characters): expected a duration such as 90s, "
                                 "15m, 2h or 1h30m")
    if re.fullmatch(r"\d+(\.\d+)?", text):
        seconds = float(text)
    else:
        parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
        if not text or parts is None or not any(parts.groups()):
            raise click.BadParameter(f"{value!r}: expected a duration such as 90s, 15m, 2h or 1h30m")
        hours, minutes, whole = (int(g or 0) for g in parts.groups())
        seconds = float(hours * 3600 + minutes * 60 + whole)
    if seconds <= 0:  # a budget of nothing: every case not_run, every campaign 0 games, and nothing judged
        raise click.BadParameter(f"{value!r}: a duration must be more than 0 seconds (none leaves nothing judged)")
    if seconds > MAX_SECONDS:
        raise click.BadParameter(f"{value!r}: longer than {MAX_SECONDS:,} seconds (about three years)")
    return seconds
