"""Errors of the game-record tools, and where in the text they happened.

Which stage raises which error:
    RecordSyntaxError   reading the text: bad encoding, a token the grammar does not allow, or a well-formed
                        piece that says something impossible (a header value, a deal with the wrong number
                        of factories, a move number out of step, a claim of the wrong form)
    ReplayError         replaying a record that parsed: the engine refused a deal or a move, a claim does not
                        match the state, the record ends too early or goes on after the game is over
Both are ValueErrors carrying the source name, the line and column (1-based), and a caret under the span.
A ReplayError also carries the canonical state at the point where the replay stopped, and the rule the
engine named when it refused a step.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pos:
    """A span of the record text: 1-based line and column of its first and one-past-last characters."""

    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


def _printable(line: str) -> str:
    """The line with control and unprintable characters shown as U+FFFD, one column each (keeps the caret aligned)."""
    return "".join(ch if ch == "\t" or unicodedata.category(ch)[0] != "C" else "\ufffd" for ch in line)


def excerpt(text: str, pos: Pos) -> str:
    """The source line of `pos` with a caret under the span (or under its first character)."""
    lines = text.splitlines() or [""]
    if not 1 <= pos.line <= len(lines):
        return ""
    line = _printable(lines[pos.line - 1].rstrip("\r\n"))
    width = 1
    if pos.end_line == pos.line and pos.end_column and pos.end_column > pos.column:
        width = pos.end_column - pos.column
    width = max(1, min(width, len(line) - pos.column + 1))
    gutter = f"{pos.line:>5} | "
    pad = "".join("\t" if ch == "\t" else " " for ch in line[:pos.column - 1])
    return f"{gutter}{line}\n{' ' * (len(gutter) - 2)}| {pad}{'^' * width}"


class RecordError(ValueError):
    """A problem with a game record, located in its text."""

    def __init__(self, message: str, *, source: str = "<record>", pos: Pos | None = None, text: str = "",
                 rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.pos = pos
        self.rule = rule
        self.excerpt = excerpt(text, pos) if pos is not None and text else ""

    @property
    def where(self) -> str:
        return f"{self.source}:{self.pos}" if self.pos is not None else self.source

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        head = f"{self.where}: {self.message}{rule}"
        return f"{head}\n{self.excerpt}" if self.excerpt else head


class RecordSyntaxError(RecordError):
    """The text is not a well-formed record."""


class ReplayError(RecordError):
    """Replaying the record on an engine failed at a deal, a move, a claim or the result."""

    def __init__(self, message: str, *, state: dict[str, Any] | None = None, disagreement: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.state = state
        self.disagreement = disagreement  # an explain.Disagreement: where the record and our rules part ways
        self.result: Any = None  # the ReplayResult up to the failure (set by replay())


@dataclass(frozen=True)
class Repair:
    """A fix the lenient reader made, and where."""

    pos: Pos
    message: str

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"
