"""One door to every kind of engine, from the `--engine` option's text."""

from __future__ import annotations

import functools
from typing import Any

from .base import Engine
from .inprocess import InProcessEngine, load_factory
from .recording import Playback, Recorder, Recording, read_recording
from .reference import ReferenceEngine
from .subprocess import ProcessEngine

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
