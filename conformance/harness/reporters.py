"""What a run produces, as reporters: each gets `start` before the first case, `case` after each one (as it is
judged, so that a killed run leaves what it had), `finish` with the whole run, and `close` in every case.

Adding a report format means writing one Reporter and naming it in REPORTERS.
"""

from __future__ import annotations

import datetime
import json
import time
from typing import Any, Callable

from ..results import CaseResult, tally
from .formats import FORMATS
from ..scenario.corpus import known_rules
from .findings import scores
from .outputs import Finished, Output, Reporter, create, naming, replacing, write_atomically
from .report import FORMAT, lead_line, write_junit, write_markdown
from .terminal import TerminalReporter

__all__ = ["Finished", "Output", "Reporter", "REPORTERS", "reporters_for", "strict_json"]


class JsonLinesReporter(Reporter):
    """report.jsonl, written as the run goes: a header, a line per case (flushed); at the end it is written
    again whole (atomically): the header, each case with its deviation's id, a line per deviation, a footer.
    A new file each run: a report.jsonl that is a link is replaced, never written through."""

    def start(self, header: dict[str, Any]) -> None:
        self.path = self.output.folder / "report.jsonl"
        self.file = create(self.path)
        self.started = time.perf_counter()
        self.header = {"type": "header", "format": FORMAT, "started": _now(), **header}
        self._line(self.header)

    def case(self, result: CaseResult) -> None:
        self._line({"type": "case", **result.to_json()})

    def finish(self, run: Finished) -> None:
        found = run.deviations
        footer = {"type": "footer", "finished": _now(), "seconds": round(time.perf_counter() - self.started, 2),
                  "counts": tally(run.results), "scores": scores(run.results),
                  "deviations": len(found), "summary": lead_line(found), "problems": list(run.problems)}
        if run.diagnosis is not None:
            footer["diagnosis"] = run.diagnosis
        if run.compared is not None:
            footer["compared"] = run.compared
        if run.interrupted:
            footer["interrupted"] = True
            self._line(footer)
            return
        self.close()
        lines = [self.header] + [{"type": "case", **r.to_json()} for r in run.results]
        lines += [d.to_json() for d in found] + [footer]
        write_atomically(self.path, "".join(strict_json(line) + "\n" for line in lines))

    def close(self) -> None:
        if getattr(self, "file", None) is not None:
            file, self.file = self.file, None
            with naming(self.path):  # (closing flushes: a full disk may say so only now)
                file.close()

    def _line(self, data: dict[str, Any]) -> None:
        with naming(self.path):
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
        path = self.output.folder / self.name
        with replacing(path):  # (write_junit writes through junit.xml.partial)
            write_junit(path, list(run.results), interrupted=run.interrupted, found=run.deviations)


class MarkdownReporter(_FileAtEnd):
    name = "report.md"

    def finish(self, run: Finished) -> None:
        # with no spec at hand, the matrix lists the rules the cases name
        header = {**run.header, "interrupted": True} if run.interrupted else run.header
        path = self.output.folder / self.name
        with replacing(path):  # (write_markdown writes through report.md.partial)
            write_markdown(path, header, list(run.results), sorted(known_rules() or {}), run.deviations,
                           run.compared)


REPORTERS: dict[str, Callable[[Output], Reporter]] = dict(zip(
    FORMATS, (TerminalReporter, JsonLinesReporter, JUnitReporter, MarkdownReporter), strict=True))


def reporters_for(formats: tuple[str, ...], output: Output) -> list[Reporter]:
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
