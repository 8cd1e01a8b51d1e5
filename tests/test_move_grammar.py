"""The move notation has one formal grammar (spec/grammar/move.lark); the engine's parser, the protocol schema
and the scenario and record grammars accept exactly the moves it accepts, and parse -> str round-trips."""

from __future__ import annotations

import itertools
import json
import re
from importlib import resources

import pytest
from lark import Lark, LarkError

from azul_reference import NotationError, parse_move

GRAMMARS = resources.files("azul_spec") / "grammar"
ALPHABET = "0123456789CFBYRKWM@ c"
CANDIDATES = ["", *ALPHABET, *("".join(p) for n in (2, 3, 4) for p in itertools.product("01569CFBKM@", repeat=n)),
              *("".join(p) for p in itertools.product("159C", "BYRKWM", "15F@"))]


@pytest.fixture(scope="module")
def grammar() -> Lark:
    return Lark((GRAMMARS / "move.lark").read_text(encoding="utf-8"), parser="lalr")


def accepted_by_grammar(grammar: Lark, text: str) -> bool:
    try:
        grammar.parse(text)
    except LarkError:
        return False
    return True


def accepted_by_engine(text: str) -> bool:
    try:
        return str(parse_move(text)) == text
    except NotationError:
        return False


def test_the_grammar_accepts_325_moves_and_the_engine_the_same():
    every = {"".join(p) for p in itertools.product("123456789C", "BYRKW", "12345F")}
    every |= {f"{line}@{column}" for line in range(1, 6) for column in range(1, 6)}
    assert len(every) == 325
    assert all(accepted_by_engine(move) for move in every)


def test_engine_and_grammar_agree_on_every_candidate(grammar):
    for text in CANDIDATES:
        assert accepted_by_grammar(grammar, text) == accepted_by_engine(text), repr(text)


def test_the_protocol_schema_and_the_other_grammars_use_the_same_patterns(grammar):
    patterns = {t.name: t.pattern.value for t in grammar.terminals if t.name in ("TAKE", "PLACEMENT")}
    schema = json.loads((resources.files("azul_spec") / "schema" / "protocol.schema.json").read_text("utf-8"))
    move_pattern = re.compile(schema["$defs"]["move"]["pattern"])
    scenario = (GRAMMARS / "scenario.lark").read_text(encoding="utf-8")
    for text in CANDIDATES:
        expected = any(re.fullmatch(p, text) for p in patterns.values())
        assert bool(move_pattern.fullmatch(text)) == expected, repr(text)
    for pattern in patterns.values():
        assert f"/{pattern}/" in scenario
