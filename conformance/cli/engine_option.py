"""The `--engine` option's type, one for every command that starts an engine: a value that can start none (empty,
an unclosed quote, a NUL) is a usage error naming the option, before anything is started."""

from __future__ import annotations

import click

from ..engines.opening import engine_spec_problem
from ..readers import clipped, safe_text


class EngineSpec(click.ParamType):
    name = "engine"

    def convert(self, value, param, ctx):
        problem = engine_spec_problem(value) if isinstance(value, str) else None
        if problem:
            self.fail(f"{clipped(safe_text(value), 200)!r} {problem}", param, ctx)
        return value


ENGINE = EngineSpec()
