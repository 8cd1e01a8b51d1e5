"""Errors of the scenario language and the scenario files.

Which stage raises which error:
    ScenarioSyntaxError   loader (YAML that does not parse), parser (text the Lark grammar refuses)
    ScenarioContentError  loader (a field the JSON Schema refuses), position builder and assertion builder
                          (well-formed text that says something impossible: 21 blue tiles, a sixth factory...)
Both derive from ScenarioError, a ValueError that knows the file, line and column inside the YAML file and
renders the offending line with a caret under the span, plus a hint ("did you mean 'centre'?") when one helps.
Engine trouble is never raised from here: the runner turns it into a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def locate(self, line: int, column: int) -> tuple[int, int]:
        """The file line and column of a (1-based) line and column inside the text."""
        if self.indent is not None:
            return self.line + line - 1, self.indent + column
        if line == 1:
            return self.line, self.column + column - 1
        return self.line + line - 1, column

    def where(self, line: int = 1) -> str:
        return f"{self.file}:{self.locate(line, 1)[0]}"


class ScenarioError(ValueError):
    """A problem in a scenario file, located in that file."""

    kind = "error"

    def __init__(self, message: str, *, file: str = "<text>", line: int | None = None,
                 column: int | None = None, span: int = 1, source: str | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.file, self.line, self.column = message, file, line, column
        self.span, self.source, self.hint = max(span, 1), source, hint

    @classmethod
    def at(cls, message: str, origin: Origin, line: int = 1, column: int = 1, span: int = 1,
           hint: str | None = None) -> "ScenarioError":
        """An error at a position of a text that came from `origin`."""
        file_line, file_column = origin.locate(line, column)
        return cls(message, file=origin.file, line=file_line, column=file_column, span=span,
                   source=origin.source, hint=hint)

    @property
    def location(self) -> str:
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        excerpt = self._excerpt()
        if excerpt:
            text += "\n" + excerpt
        if self.hint:
            text += f"\n  {self.hint}"
        return text

    def _excerpt(self) -> str:
        if self.source is None or self.line is None:
            return ""
        lines = self.source.splitlines()
        if not 1 <= self.line <= len(lines):
            return ""
        number = f"{self.line:>5} | "
        shown = lines[self.line - 1]
        if not self.column:
            return number + shown
        caret = " " * (len(number) - 2) + "| " + " " * (self.column - 1) + "^" * self.span
        return f"{number}{shown}\n{caret}"


class ScenarioSyntaxError(ScenarioError):
    """Text that is not in the scenario language (or YAML that does not parse)."""

    kind = "syntax error"


class ScenarioContentError(ScenarioError):
    """Well-formed text that states something impossible or unknown."""

    kind = "content error"
