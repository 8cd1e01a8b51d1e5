"""Errors of the scenario language and the scenario files.

Which stage raises which error:
    ScenarioSyntaxError   loader (YAML that does not parse), parser (text the Lark grammar refuses)
    ScenarioContentError  loader (a field the JSON Schema refuses), position builder and assertion builder
                          (well-formed text that says something impossible: 21 blue tiles, a sixth factory...)
Both derive from ScenarioError, a LocatedError (azul_conformance.located): the file, line and column inside the
YAML file, the offending line with a caret under the span, plus a hint ("did you mean 'centre'?") when one helps.
Engine trouble is never raised from here: the runner turns it into a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..located import LocatedError, Span


@dataclass(frozen=True)
class Origin:
    """Where a piece of scenario text sits in its file, so that positions in the text map to the file.

    `line` and `column` (1-based) are where the text's first character stands. For a YAML literal block
    (`|`), `indent` is the block's indentation: text line n then starts at file line `line + n - 1`,
    column `indent + 1`. For a one-line scalar, `indent` is None and columns shift by `column - 1`.
    """

    file: str = "<text>"
    line: int = 1
    column: int = 1
    indent: int | None = None
    source: str | None = None  # the whole file, to show the offending line

    def span(self, line: int = 1, column: int = 1, width: int = 1) -> Span:
        """The file span of `width` characters at a (1-based) line and column inside the text."""
        if self.indent is not None:
            file_line, file_column = self.line + line - 1, self.indent + column
        elif line == 1:
            file_line, file_column = self.line, self.column + column - 1
        else:
            file_line, file_column = self.line + line - 1, column
        return Span.at(self.file, file_line, file_column, width)

    def where(self, line: int = 1) -> str:
        return f"{self.file}:{self.span(line).line}"


class ScenarioError(LocatedError):
    """A problem in a scenario file, located in that file."""

    @classmethod
    def at(cls, message: str, origin: Origin, line: int = 1, column: int = 1, width: int = 1,
           hint: str | None = None) -> "ScenarioError":
        """An error at a position of a text that came from `origin`."""
        return cls(message, origin.span(line, column, width), origin.source, hint)


class ScenarioSyntaxError(ScenarioError):
    """Text that is not in the scenario language (or YAML that does not parse)."""


class ScenarioContentError(ScenarioError):
    """Well-formed text that states something impossible or unknown."""
