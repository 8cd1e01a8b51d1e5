"""One door to every kind of engine, from the `--engine` option's text."""

from __future__ import annotations

from .base import Engine
from .inprocess import InProcessEngine, load_factory
from .reference import ReferenceEngine
from .subprocess import ProcessEngine

ENGINE_HELP = ("The engine under test: a command that speaks protocol v1 on stdin/stdout (split like a shell line, "
               "run without a shell), or py:MODULE:FACTORY / py:FILE.py:FACTORY for a Python engine run in-process "
               "(the factory returns an azul_conformance.engines.Engine). Default: the bundled reference engine, "
               "in-process.")


def open_engine(spec: str | None, timeout: float = 5.0, seed: int = 0) -> Engine:
    """None: the reference engine; `py:...`: a Python factory, in-process; anything else: a command.
    Raises EngineError (never a traceback) when the engine cannot be started."""
    if spec is None:
        return ReferenceEngine(seed)
    if spec.startswith("py:"):
        return InProcessEngine(load_factory(spec), label=spec, timeout=timeout)

    return ProcessEngine(spec, timeout=timeout)
