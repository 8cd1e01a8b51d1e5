"""Scenario language extensions: checks between steps, list lengths, refused new games, filtered legal moves.

Each is tested through the parser, the loader (errors located in the YAML file), the runner (on the reference
engine and on small faulty engines) and the JSON export.
"""

from __future__ import annotations

import pytest

from azul_conformance.engines.base import Rejected
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.scenario import (
    ScenarioContentError, ScenarioSyntaxError, export_scenarios, load_text, parse_expect, parse_position,
    run_scenario,
)
from azul_conformance.scenario.checks import matches
from azul_conformance.scenario.export import export_problems
from azul_conformance.scenario.model import Check, Rejection

HEAD = """\
- id: offer-example
  title: an example
  rules: [OFFER-1]
  level: rule
  given: |
"""


def load(body: str, given: str = "    new game  players: 3  start: 1\n"):
    return load_text(HEAD + given + body, "f.yaml")


def run(body: str, given: str = "    new game  players: 3  start: 1\n", engine=None):
    (scenario,) = load(body, given)
    return run_scenario(engine or ReferenceEngine(seed=0), scenario)


# -- checks between steps ---------------------------------------------------------------------------------

# Start player 1 of 3: seat 1 takes, then 2, then 0 (clockwise from the start player).
INTERLEAVED = """\
  steps:
    - expect: |
        phase = deal
        turn = 1
    - "deal 1: BBBB  2: YYYY  3: RRRR  4: KKKK  5: WWWW  6: BBYY  7: RRKK"
    - 1B1
    - expect: turn = 2
    - 2Y2
    - expect: [turn = 0, "board 2 line 2 = Y Y"]
  expect: board 1 line 1 = B
"""


def test_check_items_are_placed_between_the_steps():
    (scenario,) = load(INTERLEAVED)
    assert [s.text for s in scenario.steps] == ["deal 1: BBBB  2: YYYY  3: RRRR  4: KKKK  5: WWWW  6: BBYY  7: RRKK",
                                                "1B1", "2Y2"]
    assert [(c.after, c.where, len(c.expect)) for c in scenario.checkpoints] == [
        (0, "f.yaml:8", 2), (2, "f.yaml:13", 1), (3, "f.yaml:15", 2)]
    assert scenario.checkpoints[0].expect[1].where == "f.yaml:10"
    assert scenario.checkpoints[2].expect[1].checks == (Check("equals", "/boards/2/lines/1", "YY"),)


def test_checks_between_steps_pass_on_the_reference_engine():
    assert run(INTERLEAVED).verdict == "pass"


def test_a_failing_check_between_steps_ends_the_run_and_says_after_which_step():
    result = run(INTERLEAVED.replace("expect: turn = 2", "expect: turn = 0"))
    assert result.verdict == "fail"
    assert result.message == "1 of 1 assertions failed after step '1B1' (f.yaml:13)"
    assert result.expected == 0 and result.actual == 2 and "f.yaml:13: turn = 0" in result.diff
    at_start = run(INTERLEAVED.replace("phase = deal", "phase = offer"))
    assert at_start.verdict == "fail" and "after the start (f.yaml:8)" in at_start.message


def test_an_error_inside_a_check_item_is_located_in_the_file():
    with pytest.raises(ScenarioSyntaxError) as caught:
        load(INTERLEAVED.replace("        turn = 1\n", "        trun = 1\n"))
    assert (caught.value.line, caught.value.column) == (10, 9) and "did you mean 'turn'" in str(caught.value)
    with pytest.raises(ScenarioContentError) as caught:
        load(INTERLEAVED.replace("expect: turn = 2", "expect: turn = 5"))
    assert (caught.value.line, caught.value.column) == (13, 22)


def test_a_check_item_holds_only_expect():
    with pytest.raises(ScenarioContentError) as caught:
        load(INTERLEAVED.replace("- expect: turn = 2", "- check: turn = 2"))
    assert caught.value.line == 13 and "steps.3" in str(caught.value)


def test_export_keeps_the_check_items_in_place():
    document = export_scenarios(load(INTERLEAVED))
    assert export_problems(document) == []
    steps = document["scenarios"][0]["steps"]
    assert [step["kind"] for step in steps] == ["expect", "deal", "move", "expect", "move", "expect"]
    assert steps[3] == {"kind": "expect", "where": "f.yaml:13", "expect": [
        {"text": "turn = 2", "where": "f.yaml:13", "checks": [{"kind": "equals", "path": "/turn", "value": 2}]}]}


# -- list lengths -----------------------------------------------------------------------------------------

def test_factories_and_boards_count_compile_to_length_checks():
    assert parse_expect("factories count = 7", players=3)[0].checks == (Check("length", "/factories", 7),)
    assert parse_expect("boards count = 3")[0].checks == (Check("length", "/boards", 3),)
    assert parse_expect("factory 2 count = 4")[0].checks == (Check("count", "/factories/1", 4),)  # tiles


@pytest.mark.parametrize("players, factories", [(2, 5), (3, 7), (4, 9)])
def test_factory_count_of_a_new_game(players, factories):
    body = f"  expect: |\n    factories count = {factories}\n    boards count = {players}\n"
    assert run(body, f"    new game  players: {players}\n").verdict == "pass"
    wrong = run(body.replace(f"= {factories}", f"= {factories + 1}"), f"    new game  players: {players}\n")
    assert wrong.verdict == "fail" and "(number of items): expected" in wrong.diff


# -- refused new games ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, players, variant, start, rule", [
    ("new game  players: 5 -> bad_request SETUP-6", 5, "colour", 0, "SETUP-6"),
    ("new game  players: 1  variant: hexagonal -> bad_request", 1, "hexagonal", 0, None),
    ("new game\nplayers: 2  start: 2 -> bad_request SETUP-5", 2, "colour", 2, "SETUP-5"),
])
def test_a_refused_new_game_is_parsed(text, players, variant, start, rule):
    given = parse_position(text)
    assert (given.new_game.players, given.new_game.variant, given.new_game.start_player) == (players, variant, start)
    assert given.reject == Rejection("bad_request", rule) and given.state is None


@pytest.mark.parametrize("text, message", [
    ("new game  players: 5", "2, 3 or 4 players, not 5"),
    ("new game  variant: hexagonal", "not 'hexagonal'"),
    ("variant: hexagonal", "not 'hexagonal'"),
    ("new game  start: 2", "start 2 is no seat"),
    ("new game  players: 3 -> bad_request", "can be set up"),
    ("new game  players: 5 -> illegal_move", "refused with bad_request, not illegal_move"),
    ("new game  players: 5 -> bad_request\nstart: 1", "the refusal ends the new game"),
    ("new game  players: 5  players: 6 -> bad_request", "players is stated twice"),
])
def test_out_of_range_values_only_in_the_refused_form(text, message):
    with pytest.raises(ScenarioContentError, match=message):
        parse_position(text)


REFUSED = "    new game  players: 5 -> bad_request SETUP-6\n"


def test_a_refused_new_game_has_nothing_after_it():
    with pytest.raises(ScenarioContentError) as caught:
        load("  steps: deal random\n", REFUSED)
    assert caught.value.line == 7 and "has no `steps`" in str(caught.value)


def test_a_refused_new_game_needs_only_its_possible_parts():
    (scenario,) = load("", REFUSED)
    assert scenario.needs == ("colour",)
    (odd,) = load("", "    new game  players: 3  variant: hexagonal -> bad_request\n")
    assert odd.needs == ("players:3",)


class Lenient(ReferenceEngine):
    """Sets up a game of any size (as a two-player game): a broken engine."""

    def new_game(self, players, variant="colour", start_player=0):
        return super().new_game(2)


class Refusing(ReferenceEngine):
    def __init__(self, error):
        super().__init__(seed=0)
        self.error = error

    def new_game(self, players, variant="colour", start_player=0):
        raise self.error


def test_the_runner_judges_the_refusal_of_a_new_game():
    assert run("", REFUSED).verdict == "pass"  # the reference engine names no rule: not judged on it
    accepted = run("", REFUSED, Lenient(seed=0))
    assert accepted.verdict == "fail"
    assert "a new game of 5 players" in accepted.message and "accepted" in accepted.message
    assert accepted.expected == {"code": "bad_request", "rule": "SETUP-6"}
    other_rule = run("", REFUSED, Refusing(Rejected("bad_request", "no", "SETUP-3")))
    assert other_rule.verdict == "fail" and "SETUP-3, expected SETUP-6" in other_rule.message
    other_code = run("", REFUSED, Refusing(Rejected("internal", "boom")))
    assert other_code.verdict == "fail" and other_code.actual["code"] == "internal"
    unsupported = run("", REFUSED, Refusing(Rejected("unsupported", "two players only")))
    assert unsupported.verdict == "skip" and "two players only" in unsupported.message


def test_export_of_a_refused_new_game():
    document = export_scenarios(load("", REFUSED))
    assert export_problems(document) == []
    assert document["scenarios"][0]["given"] == {
        "new_game": {"players": 5, "variant": "colour", "start_player": 0},
        "reject": {"code": "bad_request", "rule": "SETUP-6"}}


# -- filtered legal moves ---------------------------------------------------------------------------------

def test_move_patterns():
    assert matches("1Y5", "1Y?") and matches("1YF", "1Y?") and not matches("2Y5", "1Y?")
    assert matches("2@4", "?@4") and not matches("2@4", "2@3") and not matches("1Y5", "1Y")


def test_matching_compiles_to_filtered_move_checks():
    (exact,) = parse_expect("legal moves matching 1Y? = {1YF, 1Y1 1Y5}")
    assert exact.checks == (Check("moves_equal", "", ["1Y1", "1Y5", "1YF"], pattern="1Y?"),)
    (count,) = parse_expect("legal moves matching ?@4 count = 2")
    assert count.checks == (Check("moves_count", "", 2, pattern="?@4"),)
    assert count.checks[0].to_json() == {"kind": "moves_count", "path": "", "value": 2, "pattern": "?@4"}


def test_a_listed_move_must_fit_the_pattern():
    with pytest.raises(ScenarioContentError, match="1R1 cannot be among the moves matching 1Y?"):
        parse_expect("legal moves matching 1Y? = {1Y1, 1R1}")


ANDREA = """\
    factories: 1: YYRK  2: BBWW
    centre: M
    board 0:
              . | . . . . .
            . . | . . Y . .
          . . . | . . . Y .
        . . . B | . . . . .
      . . . . . | . . . . .
"""


def test_the_filtered_set_is_judged_exactly():
    # Yellow from factory 1: line 1 (one fits, one overflows), line 5, the floor; lines 2 and 3 have yellow
    # on their wall rows, line 4 holds blue.
    body = "  expect: |\n    legal moves matching 1Y? = {1Y1, 1Y5, 1YF}\n    legal moves matching C?? count = 0\n"
    assert run(body, ANDREA).verdict == "pass"
    wrong = run(body.replace("1Y5, ", ""), ANDREA)
    assert wrong.verdict == "fail" and "legal moves matching 1Y?: unexpected 1Y5" in wrong.diff


def test_a_malformed_pattern_is_a_located_syntax_error():
    with pytest.raises(ScenarioSyntaxError) as caught:
        parse_expect("legal moves matching 1YZ = {}")
    assert caught.value.column == 22 and "a move pattern such as 1Y?" in str(caught.value)
