"""One door to every kind of engine, from the `--engine` option's text."""

from __future__ import annotations

import functools
import shlex
from typing import Any

from .base import Engine
from .inprocess import InProcessEngine, load_factory
from .recording import Playback, Recorder, Recording, read_recording
from .reference import ReferenceEngine
from .subprocess import ProcessEngine

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


def open_engine(spec: str | None, timeout: float = 5.0, seed: int = 0, *, record: str | None = None,
                about: dict[str, Any] | None = None, recording: str | None = None) -> Engine:
    """None: the reference engine; `py:...`: a Python factory, in-process; anything else: a command. With
    `record`, every exchange is also written to that file (begun by recording.start_recording); `recording`
    plays a recorded session back instead of any engine.
    Raises EngineError (never a traceback) when the engine cannot be started, RecordingError for a recording
    that cannot be played back."""
    if recording is not None:
        return Playback(load_recording(recording))
    if spec is None:
        engine: Engine = ReferenceEngine(seed)
    elif spec.startswith("py:"):
        engine = InProcessEngine(load_factory(spec), label=spec, timeout=timeout)
    else:
        engine = ProcessEngine(spec, timeout=timeout)
    return engine if record is None else Recorder(engine, record, about or {})


@functools.lru_cache(maxsize=1)
def load_recording(path: str) -> Recording:
    """The recording at `path`, read once per process (a worker forked after the main process read it has it)."""
    return read_recording(path)
