"""Errors of the game-record tools, and where in the text they happened.

Which stage raises which error:
    RecordSyntaxError   reading the text: bad encoding, a token the grammar does not allow, or a well-formed
                        piece that says something impossible (a header value, a deal with the wrong number
                        of factories, a move number out of step, a claim of the wrong form)
    ReplayError         replaying a record that parsed: the engine refused a deal or a move, a claim does not
                        match the state, the record ends too early or goes on after the game is over
Both are LocatedErrors (azul_conformance.located): the source name, line and column, and a caret under the span.
A ReplayError also carries the canonical state at the point where the replay stopped, and the rule the
engine named when it refused a step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..located import LocatedError, Span, excerpt

Pos = Span  # the name the record tools used for a span; kept importable (positions in a record carry no file)

__all__ = ["Pos", "RecordError", "RecordSyntaxError", "Repair", "ReplayError", "Span", "excerpt"]


class RecordError(LocatedError):
    """A problem with a game record, located in its text; `rule` is the rule an engine named, if any."""

    def __init__(self, message: str, *, source: str = "<record>", pos: Span | None = None, text: str = "",
                 rule: str | None = None) -> None:
        super().__init__(message, (pos or Span()).in_file(source), text if pos is not None else None)
        self.source, self.pos, self.rule = source, pos, rule

    def headline(self) -> str:
        return super().headline() + (f" [{self.rule}]" if self.rule else "")


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

    pos: Span
    message: str

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"
