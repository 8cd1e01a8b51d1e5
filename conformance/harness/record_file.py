"""The file a run records its engine session to (`azul conform --record FILE`): checked and locked before it is
begun, so that no run destroys what another file holds.

    lock = claim(session.record, report_dir=..., compare_with=...)   # RecordingError, or folder_lock.Busy
    ...                                                              # the run, recording
    lock.release()

Refused: a path that is one of the run's other files (the --compare report it reads, the report folder's
reports, its lock, its counterexamples), which the recording would truncate or the run overwrite; and a
recording another run is writing (a lock beside the file, held for the whole run: the second run is refused
at once, naming the first, and never waits).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..engines.recording import RecordingError, start_recording
from . import folder_lock
from .outputs import REPORT_FILES


def lock_path(record: str | Path) -> Path:
    """The lock of a recording: `.NAME.azul-lock` beside it (the recording itself is locked by each append)."""
    path = Path(record)
    return path.parent / f".{path.name}{folder_lock.LOCK_NAME}"


def clash(record: str, report_dir: str | None, compare_with: str | None) -> str:
    """What else of the run `record` would be (then it is refused), or ""."""
    others = []
    if compare_with:
        others.append((Path(compare_with), "the --compare report"))
    if report_dir:
        folder = Path(report_dir)
        others += [(folder / name, f"the report folder's {name}") for name in (*REPORT_FILES, folder_lock.LOCK_NAME)]
        if _same(Path(record).parent, folder / "counterexamples") or _same(Path(record), folder / "counterexamples"):
            return f"inside {folder / 'counterexamples'}, where the run writes its counterexamples"
    for path, what in others:
        if _same(Path(record), path):
            return f"{what} ({path}): the recording would destroy it"
    if Path(record).name.endswith(folder_lock.LOCK_NAME):
        return "a lock file's name: give the recording a name of its own"
    return ""


def _same(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): the same path once resolved
        return one.resolve() == other.resolve()


def claim(record: str, report_dir: str | None, compare_with: str | None) -> folder_lock.Lock:
    """The recording at `record`, locked for the run and begun empty; RecordingError for a path that cannot be
    one (see `clash`), folder_lock.Busy while another run records there."""
    problem = clash(record, report_dir, compare_with)
    if problem:
        raise RecordingError(f"{record}: {problem}")
    if not Path(record).parent.is_dir():
        raise RecordingError(f"{record}: cannot be written: no folder {Path(record).parent}")
    if os.path.exists(record) and not os.path.islink(record) and not os.path.isfile(record):
        raise RecordingError(f"{record}: not a regular file (a device, a FIFO, a folder): a recording is a file "
                             "of its own")
    lock = folder_lock.take(lock_path(record), f"the recording {record}")
    try:
        start_recording(record)
    except RecordingError:
        lock.release()
        raise
    return lock
