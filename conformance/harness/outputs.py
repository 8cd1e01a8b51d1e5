"""What every report format is given: the run's output places (Output), the whole run at its end (Finished),
and the Reporter interface each format implements (reporters.py names them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from ..results import CaseResult
from .findings import Deviation, deviations


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


