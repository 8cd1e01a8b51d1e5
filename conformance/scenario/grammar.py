"""The Lark parser of the scenario language, and the translation of Lark's errors into ours.

The grammar is a data file (azul_spec/grammar/scenario.lark); it is read once and parsed with positions on,
so every statement knows its line and column inside the text, and through the Origin, inside the YAML file.
"""

from __future__ import annotations

import difflib
import functools
import re
from importlib import resources

from lark import Lark, Tree, UnexpectedInput

from ..located import TooLarge, check_digits, grammar_failure, shortened
from ..notation import COLOUR_NAMES, COLOURS, ERROR_CODES, MARKER, VARIANTS
from .errors import Origin, ScenarioSyntaxError

START_RULES = ("position", "steps", "expect")

# How Lark's terminal names read to a scenario writer.
FRIENDLY = {
    "INT": "a number", "MOVE": "a move such as 3K4, CBF or 2@4", "TILES": "tile letters (B Y R K W, M)",
    "COUNTED": "a count of tiles such as 18B", "CELLS": "cells (B Y R K W, or . for empty)",
    "DASH": "- (nothing)", "BAR": "| (between pattern line and wall)", "ARROW": "->",
    "ERROR_CODE": f"an error code ({', '.join(ERROR_CODES)})",
    "RULE_ID": "a rule ID such as OFFER-9", "CENTRE": "centre", "AUTO": "auto", "_NL": "the end of the line",
    "$END": "the end of the text", "MOVE_PATTERN": "a move pattern such as 1Y? (? is any one character)",
    "WORD": "a word",
}

# A word that is close to one of these may be a misspelt keyword.
SPELLINGS = {"center": "centre", "color": "colour", "gray": "grey", "factory": "factories"}


# Words of the language that are values, not keys.
VALUE_WORDS = {
    word: f"{word!r} is a value: write `variant: {word}` in a position, `variant = {word}` in an assertion"
    for word in VARIANTS
} | {
    word: f"{word!r} is a value: write `phase: {word}` in a position, `phase = {word}` in an assertion"
    for word in ("offer", "tiling", "over")
}


MAX_TILES = 100  # a game has 100 tiles: `400000000B` is refused as it is read, never made into letters


def _check_counted(token):
    digits = token[:-1].lstrip("0")
    if len(digits) > 3 or int(digits or 0) > MAX_TILES:
        raise TooLarge(token, f"{shortened(token)} tiles: a game has {MAX_TILES} tiles in all")
    return token


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    text = resources.files("azul_spec").joinpath("grammar/scenario.lark").read_text(encoding="utf-8")
    return Lark(text, start=list(START_RULES), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, lexer_callbacks={"COUNTED": _check_counted, "INT": check_digits})


@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every lower-case word of the language (for "did you mean")."""
    words = set()
    for terminal in parser().terminals:
        value = getattr(terminal.pattern, "value", "")
        if terminal.pattern.type == "str" and value.replace("_", "").isalpha():
            words.add(value)
    words.update(ERROR_CODES)
    return tuple(sorted(words))


def parse(text: str, start: str, origin: Origin) -> Tree:
    """Parse `text` from rule `start`; a refusal becomes a ScenarioSyntaxError located in the file."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput as error:
        raise _translate(error, text, start, origin) from None
    except TooLarge as error:
        raise ScenarioSyntaxError.at(error.message, origin, error.token.line, error.token.column,
                                     width=len(error.token)) from None


def _translate(error: UnexpectedInput, text: str, start: str, origin: Origin) -> ScenarioSyntaxError:
    failure = grammar_failure(error, text, WORD)
    word, hint = failure.word, _hint(failure.word)
    if failure.at_end:
        message = "the text ends too early"
    elif not failure.token_type:  # a character no token starts with
        shown = word or text[error.pos_in_stream:error.pos_in_stream + 1]
        message = f"{shown!r} is not part of the scenario language here"
    elif failure.token_type == "_NL":
        message, word = "unexpected end of line", ""
    else:
        message = f"unexpected {max(failure.token, word, key=len)!r}"
    expected = _expected(failure.expected)
    if expected:
        message += f" in {_START_NAMES[start]}; expected {expected}"
    return ScenarioSyntaxError.at(message, origin, failure.line, failure.column, len(word) or 1, hint)


_START_NAMES = {"position": "a position", "steps": "the steps", "expect": "the assertions"}
WORD = re.compile(r"[A-Za-z_@0-9.\-]+|\S")  # one word, for the caret's extent and "did you mean"


def _hint(word: str) -> str | None:
    low = word.lower().rstrip(":")
    if not low or not low[0].isalpha():
        return _move_hint(word)
    if low in VALUE_WORDS:
        return VALUE_WORDS[low]
    if low in SPELLINGS:
        return f"did you mean {SPELLINGS[low]!r}?"
    close = difflib.get_close_matches(low, keywords(), n=1, cutoff=0.7)
    if close and close[0] != low:
        return f"did you mean {close[0]!r}?"
    if word.isupper() and any(ch not in COLOURS + MARKER + "." for ch in word):
        return (f"tiles are {' '.join(f'{c} ({COLOUR_NAMES[c]})' for c in COLOURS)}; "
                f"{MARKER} is the {COLOUR_NAMES[MARKER]}")
    return None


def _move_hint(word: str) -> str | None:
    if re.fullmatch(r"[0-9C][A-Z][0-9F]", word or ""):
        return ("a take is <source><colour><destination>: source 1-9 or C, colour B Y R K W, "
                "destination pattern line 1-5 or F (floor)")
    if re.fullmatch(r"[0-9]@[0-9]", word or ""):
        return "a placement is <pattern line 1-5>@<wall column 1-5>"
    return None


def _expected(names) -> str:
    readable = []
    for name in sorted(set(names)):
        if name in FRIENDLY:
            readable.append(FRIENDLY[name])
            continue
        try:
            pattern = parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            readable.append(repr(pattern.value))
    readable = sorted(set(readable))
    if len(readable) > 8:
        return "one of " + ", ".join(readable[:8]) + ", ..."
    return "one of " + ", ".join(readable) if len(readable) > 1 else "".join(readable)
