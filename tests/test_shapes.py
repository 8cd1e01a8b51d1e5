"""The catalogue's readings by shape: every rule of spec/rules has each shape of slip considered, and every reading
written from that table is in it, under its own rule, and killed by a scenario a 2-player engine runs."""

from __future__ import annotations

from functools import cache

import pytest

from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants import published
from azul_conformance.mutants.catalogue import BY_ID, MUTANTS
from azul_conformance.mutants.shapes import SHAPES, TABLE, WHERE, shapes_of
from azul_conformance.results import CaseKind
from azul_conformance.spec_data import load_spec

FROM_SHAPES = [mutant for mutant in MUTANTS if mutant.source == "shape"]


def test_every_rule_has_every_shape_considered():
    rules = [rule.id for rule in load_spec().rules]
    assert sorted(TABLE) == sorted(rules)
    for rule, row in TABLE.items():
        # each shape, in the same order; then, where the clean room wrote readings of it, where the rule is applied
        assert list(row) in (list(SHAPES), [*SHAPES, WHERE]), rule
        for shape, cell in row.items():
            if isinstance(cell, str):
                assert cell.startswith("n/a: ") and len(cell) > len("n/a: ") + 10, (rule, shape, cell)
            else:
                assert cell and all(reading in BY_ID for reading in cell), (rule, shape, cell)


def test_the_readings_written_from_the_table_are_in_it_under_their_own_rule():
    assert len(FROM_SHAPES) >= 25
    for mutant in FROM_SHAPES:
        assert mutant.rule in {rule for rule, _ in shapes_of(mutant.id)}, mutant.id


def _two_players(case, wall: str) -> bool:
    """A case that a 2-player engine offering only `wall` runs (both walls' scenarios run on either)."""
    other = "grey" if wall == "colour" else "colour"
    return not any(need.startswith("players:") and need != "players:2" for need in case.requires) \
        and other not in case.requires


# Readings no 2-player engine can show, with the reason.
NOT_FOR_TWO = {
    "setup-four-players-refused": "a game of four players is what it refuses",
}
GREY_ONLY = {"offer-row-limit-printed-space", "grey-column-checked-from-row-2", "grey-single-space-unfit",
             "grey-placement-asked-of-start-player"}


@cache
def _killers() -> dict[str, list[str]]:
    results = published.load()
    assert results is not None
    return {entry["id"]: entry["killed_by"] for entry in results["mutants"]}


@cache
def _scenarios() -> dict:
    # read once for the file: collected again for each of some 340 readings, it took most of this file's time
    return {case.id: case for case in collect(Session(properties=False)).cases if case.kind is CaseKind.SCENARIO}


@pytest.mark.parametrize("mutant", FROM_SHAPES, ids=[m.id for m in FROM_SHAPES])
def test_each_reading_from_the_table_is_killed_by_a_scenario_a_two_player_engine_runs(mutant):
    if mutant.id in NOT_FOR_TWO:
        pytest.skip(NOT_FOR_TWO[mutant.id])
    killers, cases = _killers()[mutant.id], _scenarios()
    # a reading of a grey-wall rule: a 2-player engine offering the grey wall runs a killer
    wall = "grey" if mutant.id in GREY_ONLY or mutant.rule.startswith("GREY-") else "colour"
    assert any(_two_players(cases[killer], wall) for killer in killers if killer in cases), mutant.id


def test_the_catch_power_page_shows_the_table():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "hooks"))
    import docgen_mutation

    lines = docgen_mutation.shapes_section(load_spec())
    text = "\n".join(lines)
    rows = [line for line in lines if line.startswith("| [")]
    assert len(rows) == len(TABLE) and all(row.count(" | ") == len(SHAPES) + 1 for row in rows)
    assert all(f"`{mutant.id}`" in text for mutant in FROM_SHAPES)
    assert "n/a: the rule compares nothing" in text


def test_the_readings_written_from_the_rules_text_alone_are_shapes_prompted_by_no_engine_and_in_their_cells():
    from azul_conformance.mutants.clean_room import cells, readings

    written = readings()
    assert len(written) >= 100 and all(m.source == "shape" and m.prompted_by == () for m in written)
    assert all(BY_ID[m.id] is m for m in written)  # in the catalogue, under ids of their own
    listed = {reading for row in cells().values() for ids in row.values() for reading in ids}
    assert listed <= {m.id for m in written} and {m.id for m in written} <= listed
    assert all(set(row) <= set(SHAPES) | {"list", "check", "both"} for row in cells().values())
    for mutant in written:  # under its own rule at least (a reading may fill a neighbour rule's cell too)
        assert any(mutant.id in ids for ids in cells().get(mutant.rule, {}).values()), mutant.id
