"""What a run produces, as reporters: each gets `start` before the first case, `case` after each one (as it is
judged, so that a killed run leaves what it had), `finish` with the whole run, and `close` in every case.

Adding a report format means writing one Reporter and naming it in REPORTERS.
"""

from __future__ import annotations

import datetime
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from ..results import CaseResult, tally
from .findings import deviations, scores
from .report import FORMAT, write_junit, write_markdown


@dataclass(frozen=True)
class Finished:
    """A whole run, as the reporters see it at the end."""

    header: dict[str, Any]
    results: tuple[CaseResult, ...]
    seconds: float
    problems: tuple[str, ...] = ()
    interrupted: bool = False  # stopped before every case was run (Ctrl-C, SIGTERM): the reports say so


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


class JsonLinesReporter(Reporter):
    """report.jsonl, written as the run goes: a header, a line per case (flushed), a footer."""

    def start(self, header: dict[str, Any]) -> None:
        path = self.output.folder / "report.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w", encoding="utf-8")
        self.started = time.perf_counter()
        self._line({"type": "header", "format": FORMAT, "started": _now(), **header})

    def case(self, result: CaseResult) -> None:
        self._line({"type": "case", **result.to_json()})

    def finish(self, run: Finished) -> None:
        footer = {"type": "footer", "finished": _now(), "seconds": round(time.perf_counter() - self.started, 2),
                  "counts": tally(run.results), "scores": scores(run.results),
                  "deviations": len(deviations(run.results)), "problems": list(run.problems)}
        if run.interrupted:
            footer["interrupted"] = True
        self._line(footer)

    def close(self) -> None:
        if getattr(self, "file", None) is not None:
            self.file.close()

    def _line(self, data: dict[str, Any]) -> None:
        self.file.write(strict_json(data) + "\n")
        self.file.flush()


class _FileAtEnd(Reporter):
    """A report written whole at the end, atomically; an older one is removed at the start, so that an
    interrupted run never leaves the previous run's file beside its own report.jsonl."""

    name = ""

    def start(self, header: dict[str, Any]) -> None:
        (self.output.folder / self.name).unlink(missing_ok=True)


class JUnitReporter(_FileAtEnd):
    name = "junit.xml"

    def finish(self, run: Finished) -> None:
        write_junit(self.output.folder / self.name, list(run.results), interrupted=run.interrupted)


class MarkdownReporter(_FileAtEnd):
    name = "report.md"

    def finish(self, run: Finished) -> None:
        from ..scenario.corpus import known_rules

        # with no spec at hand, the matrix lists the rules the cases name
        header = {**run.header, "interrupted": True} if run.interrupted else run.header
        write_markdown(self.output.folder / self.name, header, list(run.results), sorted(known_rules() or {}))


def _terminal(output: Output) -> Reporter:
    from .terminal import TerminalReporter

    return TerminalReporter(output)


REPORTERS: dict[str, Callable[[Output], Reporter]] = {
    "terminal": _terminal,
    "jsonl": JsonLinesReporter,
    "junit": JUnitReporter,
    "markdown": MarkdownReporter,
}


def reporters(formats: tuple[str, ...], output: Output) -> list[Reporter]:
    """The reporters of `formats` that can be made (file reports need a folder)."""
    made = [REPORTERS[name](output) for name in formats]
    return [r for r in made if output.folder is not None or not r.needs_folder]


def strict_json(data: Any) -> str:
    """One line of strict JSON whatever the data holds (NaN or infinity become strings: readers that follow
    the JSON standard reject them as numbers)."""
    try:
        return json.dumps(data, default=str, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return json.dumps(_no_nan(data), default=str, separators=(",", ":"), allow_nan=False)


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value)
    if isinstance(value, dict):
        return {key: _no_nan(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_no_nan(item) for item in value]
    return value


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
