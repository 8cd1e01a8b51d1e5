"""The rules that are numbers, fitted to an engine's answers: a value no catalogued reading holds is found and
named by the diagnosis, and a value the engine's passing scenarios refute is not."""

from __future__ import annotations

import dataclasses

import pytest

from azul_conformance.diagnosis import diagnose
from azul_conformance.harness.runner import RunOptions, run_cases
from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants.catalogue import BY_ID, reading
from azul_conformance.mutants.families import BY_STEM, FAMILIES
from azul_conformance.mutants.patching import MutantEngine
from azul_conformance.results import Verdict


def judged(engine, only: tuple[str, ...], examples: int = 5):
    cases = collect(Session(only=only, examples=examples)).cases
    results = run_cases(engine, list(cases), RunOptions(examples=examples))
    return results, {case.id: case for case in cases}


def test_each_value_of_a_family_is_built_again_from_its_id_and_the_rules_value_is_no_reading():
    for family in FAMILIES:
        values = family.values()
        assert values and family.rules not in values
        for found in values:
            built = family.reading(found)
            assert built.id not in BY_ID, f"{built.id}: a fitted id must not shadow a catalogued one"
            again = reading(built.id)
            assert again is not None and again.id == built.id and again.rule == family.rule
        assert reading(family.reading(values[0]).id.replace(family.stem, family.stem + "x")) is None
    rules_table = BY_STEM["floor-penalties"]
    assert reading("floor-penalties-" + "-".join(map(str, rules_table.rules))) is None  # the rules' own table
    assert reading("floor-penalties-1-1-2") is None and reading("end-column-bonus-seven") is None


def test_the_families_values_change_the_game_as_their_ids_say():
    # a floor of three tiles costs 1 + 1 + 2 by the rules; with the first space free, 0 + 1 + 2
    from azul_reference.board import Board
    from azul_conformance.mutants.patching import applied

    board = Board()
    board.floor = [0, 0, 0]
    assert board.floor_penalty() == 4
    with applied(reading("floor-penalties-0-1-2-2-2-3-3")):
        assert board.floor_penalty() == 3
    assert board.floor_penalty() == 4


@pytest.mark.parametrize("served, only", [
    ("floor-penalties-1-1-2-3-3-3-3", ("FLOOR", "SCORE")),  # the fourth space costs 3: a table no reading holds
    ("end-column-bonus-8", ("END",)),
    ("wall-layout-2-1-0", ("WALL", "TILING")),  # colour c of row r at column 2c + r: a wall no reading draws
])
def test_a_number_no_catalogued_reading_holds_is_fitted_and_named_by_its_value(served, only):
    mutant = reading(served)
    assert served not in BY_ID and not any(m.patches == mutant.patches for m in BY_ID.values())
    results, cases = judged(MutantEngine(mutant), only)
    failing = {r.id for r in results if r.bad}
    assert len(failing) >= 2
    found = diagnose(results, cases).deviations
    named = [d for d in found if d.kind == "misreading"]
    assert [d.id for d in named] == [served], [d.title for d in found]
    assert {c.id for c in named[0].cases} == failing
    assert named[0].rule == mutant.rule and named[0].misreading.sources == ("fitted",)
    assert named[0].misreading.description.startswith(mutant.description.split(":")[0])


def test_a_value_a_scenario_the_engine_passed_refutes_is_not_named():
    # the same engine, but one of the scenarios that the value fails is said to have passed: no value of the
    # family both explains the failures and passes it, so nothing is named for the failures it leaves
    mutant = reading("end-column-bonus-8")
    results, cases = judged(MutantEngine(mutant), ("END",))
    failing = sorted(r.id for r in results if r.bad and r.kind.value == "scenario")
    passed = failing[0]
    results = [dataclasses.replace(r, verdict=Verdict.PASS) if r.id == passed else r for r in results]
    found = diagnose(results, cases).deviations
    assert not any(d.id == "end-column-bonus-8" for d in found), [d.title for d in found]


def test_a_fitted_reading_is_listed_by_its_family_and_served_by_its_id():
    from click.testing import CliRunner

    from azul_conformance.cli.mutants import mutants as mutants_command
    from azul_conformance.cli.serve import serve

    listed = CliRunner().invoke(mutants_command, ["--list", "--only", "FLOOR-3"])
    assert listed.exit_code == 0 and "floor-penalties-..." in listed.output and "fitted" in listed.output
    assert "end-column-bonus" not in listed.output
    hello = '{"id":1,"cmd":"hello","protocol":1}\n{"id":2,"cmd":"new_game","players":2}\n{"cmd":"quit"}\n'
    served = CliRunner().invoke(serve, ["--misreading", "setup-scores-start-at-3"], input=hello)
    assert served.exit_code == 0, served.output
    assert '"score":3' in served.output.replace(" ", "")  # the new game's boards start at 3, as the id says
    refused = CliRunner().invoke(serve, ["--misreading", "floor-penalties-1-1-2-2-2-3-3"])  # the rules' own table
    assert refused.exit_code == 2 and "not in the catalogue" in refused.output
