"""What every report format is given: the run's output places (Output), the whole run at its end (Finished),
and the Reporter interface each format implements (reporters.py names them); and how a file of the report folder
is written: never through a link (a report.jsonl or counterexamples/ planted as a link would send the run's
rows out of the folder given), whole or not at all, and a failure naming the file.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from rich.console import Console

from ..results import CaseResult
from .findings import Deviation, deviations

REPORT_FILES = ("report.jsonl", "junit.xml", "report.md")  # what the reporters write in --report-dir


@dataclass(frozen=True)
class Finished:
    """A whole run, as the reporters see it at the end."""

    header: dict[str, Any]
    results: tuple[CaseResult, ...]
    seconds: float
    problems: tuple[str, ...] = ()
    interrupted: bool = False  # stopped before every case was run (Ctrl-C, SIGTERM): the reports say so
    found: tuple[Deviation, ...] | None = None  # the diagnosed deviations (None: grouped by symptom only)
    diagnosis: dict[str, Any] | None = None  # what the diagnosis tried and how long it took
    compared: dict[str, Any] | None = None  # the comparison with --compare's report (report.Comparison.to_json)

    @property
    def deviations(self) -> tuple[Deviation, ...]:
        return self.found if self.found is not None else tuple(deviations(self.results))


@dataclass(frozen=True)
class Output:
    """Where reports go: the terminal, and a folder for files (None: the terminal only)."""

    console: Console
    folder: Path | None = None
    verbose: bool = False  # the terminal also lists the cases that pass


class Reporter:
    """One output of a run."""

    needs_folder = True  # a file report; without --report-dir it is not made

    def __init__(self, output: Output) -> None:
        self.output = output

    def start(self, header: dict[str, Any]) -> None: ...

    def case(self, result: CaseResult) -> None: ...

    def finish(self, run: Finished) -> None: ...

    def close(self) -> None:
        """Called at the end even when the run was interrupted: release what `start` took."""


# -- writing the files of a report folder ------------------------------------------------------------------------

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@contextmanager
def naming(path: Path, partial: Path | None = None) -> Iterator[None]:
    """An OSError while writing `path` raised again naming it (a full disk says "No space left on device" and no
    file), `partial` (its half-written copy) removed first: nothing half-written is left behind."""
    try:
        yield
    except OSError as error:
        if partial is not None:
            _remove(partial, quietly=True)
        raise OSError(error.errno, error.strerror or str(error), str(path)) from None


def create(path: Path) -> IO[str]:
    """`path` opened for writing as a new file. Whatever was there (an older report, a symbolic or hard link to
    a file elsewhere) is removed first, never written through."""
    path.parent.mkdir(parents=True, exist_ok=True)  # (its errors name the folder)
    with naming(path):
        return _new_file(path)


def write_atomically(path: Path, text: str, make_folder: bool = True) -> None:
    """Write a whole file or nothing (a killed run never leaves half a report), through `<name>.partial`, a
    new file (a link planted at that name is removed, not followed); an OSError names `path` and leaves no
    partial file. `make_folder`: its folder is made when missing (a report folder); a file named on the command
    line (`azul render -o`) is written only into a folder that exists."""
    partial = path.with_name(path.name + ".partial")
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True)
    with naming(path, partial):
        with _new_file(partial, errors="replace") as handle:  # (replace: a lone surrogate cannot be encoded)
            handle.write(text)
        os.replace(partial, path)  # (a link at `path` is itself replaced: rename never follows one)


@contextmanager
def replacing(path: Path) -> Iterator[None]:
    """Around a writer of report.py that writes `path` through `<name>.partial` (write_junit, write_markdown):
    what is at that name is removed first (a link there would be written through), and on an OSError the error
    names `path` and no partial file is left."""
    partial = path.with_name(path.name + ".partial")
    with naming(path, partial):
        _remove(partial)
        yield


def own_folder(path: Path) -> Path:
    """`path`, a folder of the report folder (counterexamples/), with a symbolic link there removed, not its
    target: a link would send what the run writes out of the folder given. The folder itself is made by
    whatever first writes in it."""
    if path.is_symlink():
        with naming(path):
            path.unlink()
    return path


def _new_file(path: Path, errors: str = "strict") -> IO[str]:
    _remove(path)
    # O_EXCL and O_NOFOLLOW: a link planted between the removal and the opening is refused, not followed
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    return os.fdopen(fd, "w", encoding="utf-8", errors=errors)


def _remove(path: Path, quietly: bool = False) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:
        if not quietly:
            raise
