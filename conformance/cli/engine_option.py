"""The `--engine` option, one for every command that starts an engine: its type (a value that can start none
(empty, an unclosed quote, a NUL) is a usage error naming the option, before anything is started) and its help.
Nothing here starts an engine, so a command's --help does not load the engines."""

from __future__ import annotations

import shlex

import click

from ..readers import clipped, safe_text

ENGINE_HELP = ("The engine under test: a command that speaks protocol v1 on stdin/stdout (split like a shell line, "
               "run without a shell), or py:MODULE:FACTORY / py:FILE.py:FACTORY for a Python engine run in-process "
               "(the factory returns an azul_conformance.engines.Engine). Default: the bundled reference engine, "
               "in-process.")
RECORD_HELP = ("Record the whole session with the engine into FILE (gzipped JSON lines, written as the run goes): "
               "every request and the engine's reply, refusal, crash or timeout, each under its case. "
               "azul conform --recording FILE judges it again, anywhere, without the engine.")
RECORDING_HELP = ("Judge a recorded session (made with --record) instead of a live engine: each case whose requests "
                  "are exactly those recorded gets the recorded replies; any other case is not_run, saying which "
                  "request differs. The seed and property examples default to the recording's.")


def engine_spec_problem(spec: str) -> str | None:
    """What is wrong with an --engine value before anything is started (None: nothing): empty, not splittable
    like a shell line, a NUL character (no command can hold one), a py: engine without its module."""
    if "\x00" in spec:
        return "contains a NUL character, which no command can hold"
    if spec.startswith("py:"):
        return None if spec[3:].strip() else "names no module: expected py:MODULE:FACTORY or py:FILE.py:FACTORY"
    try:
        argv = shlex.split(spec)
    except ValueError as error:  # shlex's own words: "No closing quotation", "No escaped character"
        return f"cannot be split like a shell line ({str(error).lower()})"
    if not argv or not argv[0]:
        return "is empty: expected a command (./my-engine --flag) or py:MODULE:FACTORY"
    return None


class EngineSpec(click.ParamType):
    name = "engine"

    def convert(self, value, param, ctx):
        problem = engine_spec_problem(value) if isinstance(value, str) else None
        if problem:
            self.fail(f"{clipped(safe_text(value), 200)!r} {problem}", param, ctx)
        return value


ENGINE = EngineSpec()
