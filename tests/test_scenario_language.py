"""The scenario language: positions, steps, assertions, errors located inside the YAML file, formatting."""

from __future__ import annotations

import pytest

from azul_conformance.engines.reference import new_reference_game_states
from azul_conformance.scenario import (
    ScenarioContentError, ScenarioSyntaxError, format_position, load_text, parse_expect, parse_position,
    parse_steps,
)
from azul_conformance.scenario.model import Check, Rejection


def tiles_in_play(state: dict) -> dict[str, int]:
    text = "".join(state["factories"]) + state["centre"] + state["bag"] + state["lid"]
    for board in state["boards"]:
        text += "".join(board["lines"]) + "".join(board["wall"]) + board["floor"]
    return {colour: text.count(colour) for colour in "BYRKW"}


# -- positions ----------------------------------------------------------------------------------------------

def test_empty_position_takes_every_default():
    state = parse_position("").state
    assert state["players"] == 2 and state["variant"] == "colour" and state["round"] == 1
    assert state["phase"] == "offer" and state["turn"] == 0 and state["start_player"] == 0
    assert state["marker"] == "centre" and state["winners"] is None
    assert state["factories"] == [""] * 5 and state["centre"] == "" and state["lid"] == ""
    assert state["bag"] == "B" * 20 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20
    assert state["boards"][1] == {"score": 0, "lines": [""] * 5, "wall": ["....."] * 5, "floor": ""}


def test_bag_is_filled_so_that_100_tiles_are_in_play():
    state = parse_position("""
players: 3
factories: 1: BBRK  7: KKKK
centre: M YYW
lid: RRKW
board 2: score: 4
          . | B . . . .
        R R | . . . . .
      . . . | . . . . .
      K K K | . . . . .
  . . . . . | . . . . .
  floor: B
""").state
    assert tiles_in_play(state) == dict.fromkeys("BYRKW", 20)
    assert state["bag"].count("B") == 20 - 2 - 1 - 1  # factory 1, wall, floor
    assert state["factories"][6] == "KKKK" and len(state["factories"]) == 7
    assert state["boards"][2]["lines"] == ["", "RR", "", "KKK", ""]  # left cells may be left out
    assert state["boards"][2]["wall"][0] == "B...."


def test_settings_share_lines_and_factories_go_one_per_line():
    state = parse_position("round: 2  phase: offer  start: 1\nfactories:\n  1: BBRK\n  3: 4K\n").state
    assert state["round"] == 2 and state["start_player"] == 1 and state["turn"] == 1  # turn follows start
    assert state["factories"][:3] == ["BBRK", "", "KKKK"]


def test_marker_is_where_m_is_drawn():
    assert parse_position("board 1: floor: R M").state["marker"] == 1
    assert parse_position("centre: M BB").state["marker"] == "centre"
    full = parse_position("marker: 0\ncentre: RR\nboard 0: floor: BBBBYYY").state  # FLOOR-5: set aside
    assert full["marker"] == 0 and full["boards"][0]["floor"] == "BBBBYYY"


@pytest.mark.parametrize("text, message", [
    ("centre: YYW", "the centre shows M"),
    ("marker: 1\nboard 0: floor: M", "M is drawn on board 0"),
    ("centre: M\nboard 0: floor: M", "drawn in 2 places"),
    ("factories: 1: BBBB 2: BBBB 3: BBBB 4: BBBB 5: BBBB\nlid: B", "21 B tiles"),
    ("factories: 6: BBBB", "no factory 6"),
    ("board 2: score: 1", "board 2 does not exist with 2 players"),
    ("board 0:\n . | .....\n .. | .....\n R . R | .....\n ....|.....\n .....|.....", "fills from the right"),
    ("board 0:\n . | .....\n .. | .....", "the drawing has 2 rows"),
    ("board 0: floor: BBBBBBBB", "7 spaces"),
    ("phase: over", "names its winners"),
    ("winners: 0", "only known once the game is over"),
    ("bag: auto\nlid: auto", "only one of bag and lid"),
    ("lid: M", "cannot hold the marker"),
    ("players: 5", "2, 3 or 4 players"),
    ("round: 2\nround: 3", "round is stated twice"),
])
def test_impossible_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(ScenarioContentError, match=message):
        parse_position(text)


def test_empty_bag_and_lid_auto():
    state = parse_position("phase: deal\nbag: -\nlid: auto").state
    assert state["bag"] == "" and len(state["lid"]) == 100


def test_new_game():
    given = parse_position("new game  players: 4  variant: grey  start: 3")
    assert given.state is None and given.new_game.players == 4 and given.new_game.start_player == 3
    with pytest.raises(ScenarioContentError, match="only players, variant and start"):
        parse_position("new game\nround: 2")


# -- steps ----------------------------------------------------------------------------------------------------

def test_steps_moves_sequences_deals_and_refusals():
    steps = parse_steps("3K4 CBF\n2@4 -> illegal_move GREY-2\ndeal 1: BBRK  5: KKKK\ndeal random\n"
                        "deal 1:RRRR -> illegal_move")
    assert [s.kind for s in steps] == ["move", "move", "move", "deal", "deal_random", "deal"]
    assert [s.move for s in steps[:3]] == ["3K4", "CBF", "2@4"]
    assert steps[2].reject == Rejection("illegal_move", "GREY-2") and steps[0].reject is None
    assert steps[3].factories == ("BBRK", "", "", "", "KKKK")
    assert steps[5].reject == Rejection("illegal_move", None)
    assert steps[2].text == "2@4 -> illegal_move GREY-2" and steps[2].where == "<text>:2"


# -- assertions -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, checks", [
    ("phase = over", [Check("equals", "/phase", "over")]),
    ("turn = 1", [Check("equals", "/turn", 1)]),
    ("start = 1", [Check("equals", "/start_player", 1)]),
    ("marker = centre", [Check("equals", "/marker", "centre")]),
    ("winners = 1, 0", [Check("set", "/winners", [0, 1])]),
    ("winners = -", [Check("equals", "/winners", None)]),
    ("score 1 = 12", [Check("equals", "/boards/1/score", 12)]),
    ("board 1 score = 12", [Check("equals", "/boards/1/score", 12)]),
    ("board 1 floor = M B B", [Check("equals", "/boards/1/floor", "MBB")]),
    ("board 0 line 4 = . K K K", [Check("equals", "/boards/0/lines/3", "KKK")]),
    ("board 0 line 4 = KKK", [Check("equals", "/boards/0/lines/3", "KKK")]),
    ("board 0 wall row 2 = W B . . .", [Check("equals", "/boards/0/wall/1", "WB...")]),
    ("lid = KRR", [Check("multiset", "/lid", "RRK")]),
    ("factory 3 = -", [Check("multiset", "/factories/2", "")]),
    ("centre = RK M", [Check("multiset", "/centre", "RK"), Check("equals", "/marker", "centre")]),
    ("bag count = 52", [Check("count", "/bag", 52)]),
    ("board 0 wall count = 7", [Check("count", "/boards/0/wall", 7)]),
    ("legal moves = {1B2, CBF 1B1}", [Check("moves_equal", "", ["1B1", "1B2", "CBF"])]),
    ("legal moves = {\n  1B1,\n  2@3\n}", [Check("moves_equal", "", ["1B1", "2@3"])]),
    ("legal moves = {}", [Check("moves_equal", "", [])]),
    ("legal moves include 3K4", [Check("moves_include", "", ["3K4"])]),
    ("legal moves exclude {3K4, 3K5}", [Check("moves_exclude", "", ["3K4", "3K5"])]),
    ("legal moves count = 17", [Check("moves_count", "", 17)]),
])
def test_each_assertion_form_compiles_to_its_checks(text, checks):
    (assertion,) = parse_expect(text)
    assert list(assertion.checks) == checks


def test_factories_assertion_covers_every_factory():
    (assertion,) = parse_expect("factories = 2: BB", players=3)
    assert [c.value for c in assertion.checks] == ["", "BB", "", "", "", "", ""]


def test_board_block_is_one_assertion_and_ends_at_the_next_assertion():
    assertions = parse_expect("board 0: score: 3\n          . | B . . . .\n        . . | .....\n"
                              "      . . . | .....\n    . . . . | .....\n  . . . . . | .....\n  floor: M\n"
                              "score 1 = 5\n")
    board, score = assertions
    assert board.board == 0 and len(board.checks) == 1 + 5 + 5 + 1
    assert board.text.startswith("board 0: score: 3") and board.text.endswith("floor: M")
    assert score.checks == (Check("equals", "/boards/1/score", 5),)


# -- errors located inside the YAML file ------------------------------------------------------------------

SCENARIO = """\
- id: offer-example
  title: an example
  rules: [OFFER-2]
  level: rule
  given: |
    factories: 1: BBRK
{given_extra}  steps: {steps}
  expect:
    - board 0 line 2 = B B
    - {last}
"""


def load(given_extra="", steps="1B2", last="turn = 1"):
    return load_text(SCENARIO.format(given_extra=given_extra, steps=steps, last=last), "f.yaml")


def test_a_good_file_loads():
    (scenario,) = load()
    assert scenario.id == "offer-example" and scenario.where == "f.yaml:1"
    assert scenario.given.where == "f.yaml:6" and scenario.expect[1].where == "f.yaml:10"
    assert scenario.needs == ("colour", "players:2", "load_state")


def test_error_in_a_block_scalar_points_into_the_file():
    with pytest.raises(ScenarioSyntaxError) as caught:
        load(given_extra="    center: M RK\n")
    error = caught.value
    assert (error.file, error.line, error.column) == ("f.yaml", 7, 5)
    assert "did you mean 'centre'?" in str(error)
    assert "    7 |     center: M RK\n      |     ^^^^^^" in str(error)


def test_error_in_a_plain_scalar_and_in_a_list_item():
    with pytest.raises(ScenarioSyntaxError) as caught:
        load(steps="1B2 1B9")
    assert (caught.value.line, caught.value.column) == (7, 14)
    assert "destination pattern line 1-5 or F" in str(caught.value)
    with pytest.raises(ScenarioSyntaxError) as caught:
        load(last="colour = grey")
    assert (caught.value.line, caught.value.column) == (10, 7)
    assert "write `variant: colour` in a position" in str(caught.value)
    with pytest.raises(ScenarioSyntaxError, match="did you mean 'phase'"):
        load(last="phse = over")


def test_content_error_points_at_the_statement():
    with pytest.raises(ScenarioContentError) as caught:
        load(given_extra="    board 3: score: 2\n")
    assert (caught.value.line, caught.value.column) == (7, 11)


def test_schema_and_yaml_errors_are_located():
    with pytest.raises(ScenarioContentError) as caught:
        load_text(SCENARIO.format(given_extra="", steps="1B2", last="turn = 1").replace("level: rule", "level: law"),
                  "f.yaml")
    assert caught.value.line == 4 and "level" in str(caught.value) and "offer-example" in str(caught.value)
    with pytest.raises(ScenarioSyntaxError) as caught:
        load_text("- id: [unclosed\n", "g.yaml")
    assert caught.value.file == "g.yaml" and caught.value.line is not None


def test_errors_can_be_collected_instead_of_raised():
    errors: list = []
    text = SCENARIO.format(given_extra="", steps="1B2", last="turn = 1")
    bad = text.replace("offer-example", "offer-bad").replace("1B2", "1B9")
    assert [s.id for s in load_text(text + bad, "f.yaml", errors)] == ["offer-example"]
    assert len(errors) == 1 and errors[0].line == 17  # the second scenario starts on line 11


# -- formatting -------------------------------------------------------------------------------------------

TEXTS = [
    "",
    "players: 3  variant: grey\nround: 4  phase: offer  start: 2\nfactories: 1: BBRK 7: YYYY\ncentre: M KK\n"
    "board 1: score: 9\n  . | ....B\n .. | .....\n ... | .....\n .... | .....\n ..... | .....\n floor: B\n",
    "phase: deal\nbag: -\nlid: auto\nboard 0: score: 3",
    "marker: 1\ncentre: RR\nboard 1: floor: BBBBYYY",
    "phase: over\nwinners: 0, 1\nboard 0: score: 17\n W | BYRK.\n.. | .....\n... | .....\n.... | .....\n..... | .....",
]


@pytest.mark.parametrize("text", TEXTS)
def test_parse_format_parse_reaches_a_fixed_point(text):
    state = parse_position(text).state
    formatted = format_position(state)
    assert parse_position(formatted).state == state
    assert format_position(parse_position(formatted).state) == formatted


@pytest.mark.parametrize("players, variant, seed", [(2, "colour", 1), (3, "grey", 2), (4, "colour", 3)])
def test_every_state_of_a_random_game_formats_and_parses_back(players, variant, seed):
    for state in new_reference_game_states(players, variant, seed)[::3]:
        assert parse_position(format_position(state)).state == state, format_position(state)


def test_format_draws_boards_as_a_player_sees_them():
    state = parse_position("round: 2  turn: 1\ncentre: M YYW\nboard 0: score: 7\n . | B....\n R | .....\n"
                           " ... | ..B..\n KKK | .....\n ..... | .....\n floor: R").state
    assert format_position(state) == (  # round 2 is the default: the first round a wall tile allows
        "turn: 1\n"
        "centre: M YYW\n"
        "board 0: score: 7\n"
        "          . | B . . . .\n"
        "        . R | . . . . .\n"
        "      . . . | . . B . .\n"
        "    . K K K | . . . . .\n"
        "  . . . . . | . . . . .\n"
        "  floor: R\n"
    )
