"""One door to every kind of engine, from the `--engine` option's text."""

from __future__ import annotations

import functools
from dataclasses import dataclass
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


@dataclass(frozen=True)
class EngineSource:
    """How a run opens its engine, once in each process that runs cases (this one, or each worker of -j N):
    the --engine text (None: the reference), its timeout and seed, and a recording to write or to play back."""

    command: str | None = None
    timeout: float = 5.0
    seed: int = 0
    record: str | None = None
    about: dict[str, Any] | None = None
    recording: str | None = None

    def open(self) -> Engine:
        return open_engine(self.command, timeout=self.timeout, seed=self.seed, record=self.record, about=self.about,
                           recording=self.recording)

    @property
    def in_process(self) -> bool:
        """Its calls answer in the caller's own process (a `py:` factory or the reference), so a call may never
        return. (A command's engine is cut at its timeout; a recording played back answers at once.)"""
        return self.recording is None and (self.command or "py:").startswith("py:")
