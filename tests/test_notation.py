"""The suite's notation constants (azul_conformance.notation) agree with every other place that must state them:
the reference engine (which keeps its own, depending on nothing of ours), the published schemas and grammar,
and the third-party adapter (a stand-alone program)."""

from __future__ import annotations

import ast
import json
import re
from importlib import resources
from pathlib import Path

from azul_reference import game as ref_game
from azul_reference import tiles as ref_tiles

from azul_conformance import notation

ROOT = Path(__file__).resolve().parents[1]


def test_the_engine_states_the_same_notation():
    assert notation.COLOURS == ref_tiles.COLOURS
    assert notation.MARKER == ref_tiles.MARKER_LETTER
    assert notation.TILES_PER_COLOUR == ref_tiles.TILES_PER_COLOUR
    assert notation.FACTORIES_BY_PLAYERS == ref_tiles.FACTORIES_BY_PLAYERS
    assert notation.FLOOR_PENALTIES == ref_tiles.FLOOR_PENALTIES
    assert notation.VARIANTS == ref_game.VARIANTS
    # The engine's wall holds colour indices; the notation's holds letters: the same layout.
    assert [[notation.wall_colour(r, c) for c in range(5)] for r in range(5)] == \
        [[ref_tiles.COLOURS[ref_tiles.wall_colour(r, c)] for c in range(5)] for r in range(5)]


def test_the_coloured_wall_is_the_printed_one():
    # WALL-1: the first row reads B Y R K W, and each row below shifts one space to the right.
    assert "".join(notation.wall_colour(0, c) for c in range(5)) == "BYRKW"
    assert "".join(notation.wall_colour(1, c) for c in range(5)) == "WBYRK"
    assert "".join(notation.wall_colour(4, c) for c in range(5)) == "YRKWB"


def test_the_protocol_schema_states_the_same_notation():
    schema = json.loads(resources.files("azul_spec").joinpath("schema/protocol.schema.json").read_text("utf-8"))
    reply = schema["$defs"]["error_reply"]["properties"]["error"]["properties"]
    assert tuple(reply["code"]["enum"]) == notation.ERROR_CODES
    text = json.dumps(schema)
    assert f'"enum": {json.dumps(list(notation.PLAYER_COUNTS))}' in text
    assert f'"enum": {json.dumps(list(notation.VARIANTS))}' in text
    assert f"[1-9C][{notation.COLOURS}][1-5F]" in text


def test_the_scenario_grammar_states_the_same_error_codes():
    grammar = resources.files("azul_spec").joinpath("grammar/scenario.lark").read_text("utf-8")
    line = re.search(r"^ERROR_CODE:(.*)$", grammar, re.M).group(1)
    assert tuple(re.findall(r'"(\w+)"', line)) == notation.ERROR_CODES


def test_the_adapter_states_the_same_colours():
    # The adapter runs in the third-party engine's own environment and imports nothing of ours.
    tree = ast.parse((ROOT / "adapters" / "azul-game-engine" / "adapter.py").read_text("utf-8"))
    assigned = [node for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)]
    colours = [ast.literal_eval(node.value) for node in assigned if node.targets[0].id == "COLOURS"]
    assert colours == [notation.COLOURS]
