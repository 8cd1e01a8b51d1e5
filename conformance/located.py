"""Where bad input is, and how it is shown: one span type, one excerpt with a caret, one base error.

Every reader of the suite (scenario files, game records, state files, the rule specification) reports a
problem the same way, so a user learns one shape:

    f.yaml:7:5: unknown word 'center'
        7 |     center: M RK
          |     ^^^^^^
      did you mean 'centre'?

Lark's refusals are translated here once (`grammar_failure`, and `TooLarge` for numbers past any game's);
each language then words them in its own terms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

import yaml
from lark import Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .readers import clipped


@dataclass(frozen=True)
class Span:
    """A stretch of a text: 1-based line and column of its first character and of the character after its last.

    `file` names the text when the span stands on its own; positions kept inside a game record leave it out
    (the record knows its source). A span without a line is the whole file; without a column, the whole line.
    """

    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    file: str | None = None

    @classmethod
    def at(cls, file: str | None, line: int | None, column: int | None = None, width: int = 1) -> Span:
        """A span of `width` characters on one line."""
        end = column + max(width, 1) if column is not None else None
        return cls(line, column, line if end is not None else None, end, file)

    @classmethod
    def of(cls, node: Token | Tree | None) -> Span:
        """Where a Lark token or tree (parsed with positions on) stands; an empty span when it has no position."""
        meta = node if isinstance(node, Token) else node.meta if isinstance(node, Tree) else None
        if meta is None or getattr(meta, "empty", False):
            return cls()
        return cls(meta.line, meta.column, meta.end_line, meta.end_column)

    def in_file(self, file: str) -> Span:
        return replace(self, file=file)

    @property
    def width(self) -> int:
        """How many columns the caret covers: the span's own when it stays on one line, else one."""
        if self.column and self.end_line == self.line and self.end_column and self.end_column > self.column:
            return self.end_column - self.column
        return 1

    def __str__(self) -> str:
        parts = [self.file] if self.file else []
        if self.line is not None:
            parts.append(str(self.line))
            if self.column:
                parts.append(str(self.column))
        return ":".join(parts)


def _printable(line: str) -> str:
    """The line with control and unprintable characters shown as U+FFFD, one column each (keeps the caret aligned)."""
    return "".join(ch if ch == "\t" or unicodedata.category(ch)[0] != "C" else "\ufffd" for ch in line)


MESSAGE_LIMIT = 500  # characters of a located error's message before it is clipped
EXCERPT_WIDTH = 100  # characters of a long line shown around the span (a hostile file's line can be megabytes)


def excerpt(text: str, span: Span) -> str:
    """The line of `span` with its number, and a caret under the span (none when the span has no column).

    Tabs before the column are repeated in the caret line, so the caret stands under the span however wide
    the terminal draws a tab; the caret never runs past the end of the line. A line longer than EXCERPT_WIDTH
    is shown as the stretch of it around the span, `...` marking what is left out.
    """
    lines = text.splitlines() + ([""] if not text or text.endswith(("\n", "\r")) else [])  # the end is a place too
    if span.line is None or not 1 <= span.line <= len(lines):
        return ""
    line = lines[span.line - 1]
    column = span.column or 1
    start = max(0, min(column - 1 - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
    shown = ("... " if start else "") + _printable(line[start:start + EXCERPT_WIDTH]) \
        + (" ..." if start + EXCERPT_WIDTH < len(line) else "")
    gutter = f"{span.line:>5} | "
    if not span.column:
        return gutter + shown
    width = max(1, min(span.width, len(line) - span.column + 1, start + EXCERPT_WIDTH - span.column + 1))
    pad = ("    " if start else "") + "".join("\t" if ch == "\t" else " " for ch in line[start:span.column - 1])
    return f"{gutter}{shown}\n{' ' * (len(gutter) - 2)}| {pad}{'^' * width}"


class LocatedError(ValueError):
    """Bad input, located: `str()` is `file:line:col: message`, the offending line with a caret, and a hint."""

    def __init__(self, message: str, span: Span, text: str | None = None, hint: str | None = None) -> None:
        # a message can quote the input (a schema error repeats the value it refuses): a 2 MB value is not shown
        message = clipped(message, MESSAGE_LIMIT)
        super().__init__(message)
        self.message, self.span, self.hint = message, span, hint
        self.excerpt = excerpt(text, span) if text else ""

    @property
    def file(self) -> str | None:
        return self.span.file

    @property
    def line(self) -> int | None:
        return self.span.line

    @property
    def column(self) -> int | None:
        return self.span.column

    @property
    def where(self) -> str:
        return str(self.span)

    def headline(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def __str__(self) -> str:
        text = self.headline()
        if self.excerpt:
            text += "\n" + self.excerpt
        if self.hint:
            text += f"\n  {self.hint}"
        return text


def decode_utf8(data: bytes, file: str, error: Callable[[str, Span], LocatedError], what: str) -> str:
    """The text of a file; bytes that are not UTF-8 raise `error(message, span)` at their line and column
    (`what` says the file's kind, e.g. "a record is a UTF-8 text file")."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        before = data[:problem.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise error(f"not UTF-8 text: byte 0x{data[problem.start]:02x} cannot start or continue a character "
                    f"({what})", Span.at(file, line, column)) from None


def yaml_failure(error: yaml.YAMLError, file: str) -> tuple[str, Span]:
    """A YAML refusal (from readers.compose) as our message and the place PyYAML marked."""
    mark = getattr(error, "problem_mark", None)
    span = Span.at(file, mark.line + 1, mark.column + 1) if mark else Span(file=file)
    return f"not valid YAML: {getattr(error, 'problem', None) or error}", span


MAX_DIGITS = 9  # no number of a game (a score, seat, round, count or move number) comes near a billion


class TooLarge(Exception):
    """A number too large for anything in a game, raised by a Lark lexer callback as the text is read, so that
    `400000000B` never becomes 400 million letters and a 5,000-digit number never reaches int() (which refuses
    more than 4,300 digits)."""

    def __init__(self, token: Token, message: str | None = None) -> None:
        self.token = token
        self.message = message or f"the number {shortened(token)} is larger than anything in a game of Azul"
        super().__init__(self.message)

    def span(self, file: str | None = None) -> Span:
        return Span.at(file, self.token.line, self.token.column, len(self.token))


def check_digits(token: Token) -> Token:
    """A Lark lexer callback for number tokens: TooLarge past MAX_DIGITS digits."""
    if len(token.strip("-.").lstrip("0")) > MAX_DIGITS:
        raise TooLarge(token)
    return token


def shortened(text: str) -> str:
    return text if len(text) <= 20 else f"{text[:8]}...{text[-4:]} ({len(text)} characters)"


@dataclass(frozen=True)
class GrammarFailure:
    """A Lark refusal in grammar-neutral terms: where, what stands there, what the grammar would have taken."""

    line: int
    column: int
    word: str  # the reader's word at that point; "" at the end of the text
    token: str  # the token Lark stopped at ("" when no token could start there)
    token_type: str  # its terminal name ("" when no token could start there)
    expected: frozenset[str]  # terminal names
    at_end: bool  # the text ended before the grammar was satisfied

    def span(self, file: str | None) -> Span:
        return Span.at(file, self.line, self.column, len(self.word) or 1)


def grammar_failure(error: UnexpectedInput, text: str, word: re.Pattern[str]) -> GrammarFailure:
    """Translate a Lark error on `text`; `word` matches what a reader of the language calls one word."""
    expected = frozenset(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
    token = error.token if isinstance(error, UnexpectedToken) else None
    line = getattr(error, "line", None)
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END") \
            or not isinstance(line, int) or line < 1:
        lines = text.rstrip("\n").split("\n")
        return GrammarFailure(len(lines), len(lines[-1]) + 1, "", "", "", expected, True)
    match = word.match(text, error.pos_in_stream or 0)
    return GrammarFailure(line, error.column, match.group(0) if match else "", str(token or ""),
                          token.type if token is not None else "", expected, False)
