"""The "Who checks what" page says what the comparison of states does: every field of the state schema, marked
free exactly in the phases FREE_FIELDS declares, and every request of protocol v1."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_checks  # noqa: E402

from azul_conformance.properties.canonical import FREE_FIELDS  # noqa: E402


def rows() -> dict[str, list[str]]:
    table = {}
    for line in docgen_checks.page().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 2 + len(docgen_checks.PHASES):
            table[cells[0].strip("`")] = cells[1:1 + len(docgen_checks.PHASES)]
    return table


def test_every_state_field_is_listed_with_the_phases_it_is_compared_in():
    schema = json.loads((ROOT / "spec" / "schema" / "state.schema.json").read_text(encoding="utf-8"))
    table = rows()
    assert set(table) == set(schema["properties"])
    for field, marks in table.items():
        free = {phase for phase, mark in zip(docgen_checks.PHASES, marks) if mark == "—"}
        assert free == {phase for phase, names in FREE_FIELDS.items() if field in names}, field
    assert table["turn"][docgen_checks.PHASES.index("over")] == "—"
    assert table["score" if "score" in table else "round"][docgen_checks.PHASES.index("over")] == "✓"


def test_every_request_of_the_protocol_has_its_row():
    schema = json.loads((ROOT / "spec" / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
    text = json.dumps(schema)
    page = docgen_checks.page()
    for name, _, _ in docgen_checks.REQUESTS:
        assert f'"{name}"' in text, f"{name} is no request of protocol v1"
        assert f"| `{name}` |" in page
    named = {"hello", "new_game", "deal", "legal_moves", "play", "load_state", "state", "play_game"}
    assert named == {name for name, _, _ in docgen_checks.REQUESTS}
