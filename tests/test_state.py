"""The canonical state azul-state/1: to_state/from_state round trip, and problems() naming every fault."""

from __future__ import annotations

import copy
import json
import random
from importlib.resources import files

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import board, coloured_row, position

from azul_reference import Game, InvalidState, from_state, problems, to_state

SCHEMA = json.loads(files("azul_spec").joinpath("schema/state.schema.json").read_text(encoding="utf-8"))


def played_states(players: int, variant: str, seed: int) -> list[dict]:
    g, picks = Game(players, variant, start_player=seed % players), random.Random(seed)
    states = [to_state(g)]
    while not g.is_over() and g.round <= 40:
        if g.phase == "deal":
            g.deal(rng=picks)
        else:
            g.play(picks.choice(g.legal_moves()))
        states.append(to_state(g))
    return states


# -- round trip ------------------------------------------------------------------------------------------------

POSITIONS = {
    "new game": position(phase="deal"),
    "offer with the marker taken": position(factories=["BBRK", "", "YYYW", "", ""], centre="RW", marker=1, turn=1,
                                            boards=[board(score=7, lines={2: "R", 4: "KKK"},
                                                          wall={1: "B....", 3: coloured_row(3, "B")}),
                                                    board(floor="MY")]),
    "grey tiling pending": position(variant="grey", phase="tiling", start_player=1, turn=1, marker=0,
                                    boards=[board(floor="MR"), board(lines={3: "KKK"}, wall={1: "K...."})]),
    "over": position(phase="over", winners=[1], boards=[board(score=3, wall={2: coloured_row(2, "B")}),
                                                        board(score=9, wall={1: "BYRKW"})]),
    "four players": position(players=4, factories=["BYRK"] * 9, start_player=2, turn=2),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_to_state_of_from_state_is_the_document(name):
    doc = POSITIONS[name]
    assert problems(doc) == []
    assert to_state(from_state(doc)) == doc


@pytest.mark.parametrize(("players", "variant"), [(2, "colour"), (3, "grey"), (4, "colour")])
def test_every_state_of_a_game_round_trips_through_json_and_fits_the_schema(players, variant):
    for state in played_states(players, variant, seed=players):
        assert problems(state) == []
        jsonschema.validate(state, SCHEMA)
        text = json.dumps(state)
        assert to_state(from_state(json.loads(text))) == state


def test_a_loaded_game_plays_on_like_the_original():
    g = Game(2)
    g.deal(rng=random.Random(9))
    twin = from_state(json.loads(json.dumps(to_state(g))))
    for _ in range(6):
        move = g.legal_moves()[-1]
        assert [str(m) for m in twin.legal_moves()] == [str(m) for m in g.legal_moves()]
        g.play(move)
        twin.play(str(move))
    assert to_state(twin) == to_state(g)


# -- problems(): each names the field ----------------------------------------------------------------------------

def broken(edit) -> list[str]:
    doc = copy.deepcopy(POSITIONS["offer with the marker taken"])
    edit(doc)
    return problems(doc)


def names(found: list[str], field: str, *words: str) -> bool:
    return any(p.startswith(field) and all(w in p for w in words) for p in found)


def test_problems_wrong_tile_total():
    found = broken(lambda d: d.update(bag=d["bag"][1:], lid="YY"))  # one blue fewer, two yellow more
    assert names(found, "tiles", "19 B") and names(found, "tiles", "22 Y")
    assert len(found) == 2


def test_problems_a_colour_off_its_coloured_wall_column():
    def edit(d):
        d["boards"][1]["wall"][0] = ".B..."
        d["bag"] = d["bag"][1:]
    assert names(broken(edit), "boards[1].wall[0]", "B", "WALL-1")


def test_problems_grey_wall_accepts_any_column_but_not_a_colour_twice_in_a_column():
    doc = position(variant="grey", factories=["YYYY", "", "", "", ""],
                   boards=[board(wall={1: ".B...", 2: ".B..."}), board()])
    found = problems(doc)
    assert names(found, "boards[0].wall", "column 2")
    assert len(found) == 1


def test_problems_a_colour_twice_in_a_wall_row():
    doc = position(variant="grey", boards=[board(wall={1: "BB..."}), board()])
    assert names(problems(doc), "boards[0].wall[0]")


def test_problems_a_mixed_pattern_line():
    found = broken(lambda d: d["boards"][0]["lines"].__setitem__(3, "KKY"))
    found = [p for p in found if not p.startswith("tiles")]
    assert names(found, "boards[0].lines[3]", "OFFER-8")


def test_problems_a_pattern_line_colour_already_on_its_wall_row():
    doc = position(boards=[board(lines={1: "B"}, wall={1: "B...."}), board()])
    assert names(problems(doc), "boards[0].lines[0]", "OFFER-9")


def test_problems_an_overfull_pattern_line():
    doc = position(boards=[board(lines={2: "BBB"}), board()])
    assert names(problems(doc), "boards[0].lines[1]")


def test_problems_a_floor_of_eight():
    doc = position(boards=[board(floor="BBBBRRRR"), board()])
    assert names(problems(doc), "boards[0].floor")


def test_problems_marker_in_the_centre_yet_on_a_floor():
    doc = position(factories=["BBBB", "", "", "", ""], boards=[board(), board(floor="M")])
    assert names(problems(doc), "boards[1].floor")


def test_problems_marker_taken_yet_missing_from_a_floor_with_room():
    doc = position(factories=["BBBB", "", "", "", ""], marker=1)
    assert names(problems(doc), "boards[1].floor", "FLOOR-5")


def test_problems_marker_on_the_wrong_floor():
    doc = position(factories=["BBBB", "", "", "", ""], marker=0, boards=[board(floor="M"), board(floor="M")])
    assert names(problems(doc), "marker")


def test_problems_marker_out_during_the_deal():
    doc = position(phase="deal", marker=0, boards=[board(floor="M"), board()])
    assert names(problems(doc), "marker")


def test_problems_winners_that_are_not_the_winners():
    boards = [board(score=10, wall={1: "BYRKW"}), board(score=9, wall={2: coloured_row(2, "B")})]
    assert names(problems(position(phase="over", winners=[1], boards=boards)), "winners")
    assert names(problems(position(phase="over", winners=[0, 1], boards=boards)), "winners")
    assert names(problems(position(phase="over", winners=None, boards=boards)), "winners")
    assert problems(position(phase="over", winners=[0], boards=boards)) == []


def test_problems_winners_before_the_end():
    assert names(problems(position(factories=["B", "", "", "", ""], winners=[0])), "winners")


def test_problems_phase_and_table_disagree():
    assert names(problems(position(phase="offer")), "phase", "OFFER-14")  # nothing on offer
    assert names(problems(position(phase="deal", factories=["BBBB", "", "", "", ""])), "phase")
    complete_row = [board(wall={1: "BYRKW"}), board()]
    assert names(problems(position(factories=["B", "", "", "", ""], boards=complete_row)), "phase", "END-1")


def test_problems_tiling_only_on_the_grey_wall_with_a_choice_to_make():
    assert names(problems(position(phase="tiling", boards=[board(lines={1: "B"}), board()])), "phase")
    assert names(problems(position(variant="grey", phase="tiling")), "phase")


def test_problems_lists_every_problem_at_once():
    """Once the document is well formed, every rule it breaks is listed, not just the first."""
    doc = position(boards=[board(lines={2: "BY"}, wall={1: ".B..."}), board(lines={1: "R"}, wall={1: "..R.."})],
                   phase="deal", marker=1, winners=[0])
    found = problems(doc)
    assert names(found, "boards[0].lines[1]", "OFFER-8")
    assert names(found, "boards[0].wall[0]", "WALL-1")
    assert names(found, "boards[1].lines[0]", "OFFER-9")
    assert names(found, "marker")
    assert names(found, "winners")
    with pytest.raises(InvalidState) as caught:
        from_state(doc)
    assert caught.value.problems == found
    assert caught.value.code == "bad_request"


# Positions no game can reach, though each part of them looks fine on its own.
UNREACHABLE = {
    "deal phase with a floor and a complete line left from the tiling": position(
        phase="deal", boards=[board(lines={1: "B"}, floor="RR"), board()]),
    "grey tiling of seat 1 while seat 0, tiled first, still has a complete line and a floor": position(
        variant="grey", phase="tiling", turn=1, boards=[board(lines={1: "B"}, floor="RR"), board(lines={1: "Y"})]),
    "game over with tiles on a factory and no complete row": position(
        phase="over", winners=[0], factories=["BBBB", "", "", "", ""], boards=[board(score=1), board()]),
}


@pytest.mark.parametrize("name", UNREACHABLE)
def test_problems_of_positions_no_game_reaches(name):
    assert problems(UNREACHABLE[name]) != []


# -- positions whose history no game has (issue 16, item 8): each refused with the rule it breaks ----------------

FULL = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]  # a fresh deal: nobody has taken yet
HISTORY = {
    # one crafted position per check
    "a wall row with more tiles than tilings so far": (
        position(round=2, factories=["BBBB", "", "", "", ""], boards=[board(wall={1: "BY..."}), board()]),
        "boards[0].wall[0]", "TILING-1"),
    "a score above 10 points per wall tile": (
        position(round=2, factories=["BBBB", "", "", "", ""], boards=[board(score=11, wall={1: "B...."}), board()]),
        "boards[0].score", "11 is more"),
    "phase over with every wall empty": (
        position(round=5, phase="over", winners=[0, 1]), "phase", "every wall is empty"),
    "phase over with no complete row and tiles left to deal": (
        position(round=3, phase="over", winners=[0, 1], boards=[board(wall={1: "B...."}), board()]),
        "phase", "END-8"),
    "round-1 deal with tiles on a pattern line": (
        position(phase="deal", boards=[board(lines={2: "R"}), board()]), "boards", "SETUP-4"),
    "round-1 deal with tiles in the lid": (position(phase="deal", lid="RRKW"), "lid", "SETUP-4"),
    "round-1 offer with a lid but no full floor": (
        position(factories=["BBBB", "", "", "", ""], lid="RR"), "lid", "FLOOR-2"),
    "every factory full yet tiles in the centre": (position(factories=FULL, centre="R"), "centre", "OFFER-2"),
    "every factory full yet the marker taken": (
        position(factories=FULL, marker=1, boards=[board(), board(floor="M")]), "marker", "OFFER-2"),
    "every factory full yet the turn not the start player's": (position(factories=FULL, turn=1), "turn", "OFFER-1"),
    "every factory full yet a floor holds tiles": (
        position(round=2, factories=FULL, boards=[board(floor="R"), board()]), "boards", "floor line"),
    "a factory dealt short while the bag holds tiles": (
        position(factories=["B", "", "", "", ""]), "factories", "DEAL-3"),
    # the 15 crafted positions of the issue
    "over with empty walls, round 1": (position(phase="over", winners=[0, 1]), "phase", "END-1"),
    "over with empty walls, round 9": (position(round=9, phase="over", winners=[0, 1]), "phase", "END-1"),
    "over in round 1 with a wall tile per seat": (
        position(phase="over", winners=[0, 1], boards=[board(wall={1: "B...."}), board(wall={2: ".B..."})]),
        "phase", "END-1"),
    "round-1 deal with tiles on a wall": (
        position(phase="deal", boards=[board(wall={1: "B...."}), board()], round=1), "boards[0].wall[0]", "TILING-1"),
    "round-1 deal with tiles on the pattern lines of both seats": (
        position(phase="deal", boards=[board(lines={1: "B"}), board(lines={5: "KK"})]), "boards", "SETUP-4"),
    "a positive score with an empty wall": (
        position(factories=["BBBB", "", "", "", ""], boards=[board(score=1), board()]), "boards[0].score", "SCORE-1"),
    "a score of 10^4000": (
        position(round=5, factories=["BBBB", "", "", "", ""], boards=[board(score=10 ** 4000, wall={1: "B...."}),
                                                                      board()]),
        "boards[0].score", "more than 30 digits"),
    "every factory full, tiles in the centre": (position(factories=FULL, centre="YY"), "centre", "nobody"),
    "every factory full, tiles in the centre and the marker taken": (
        position(factories=FULL, centre="YY", marker=0, boards=[board(floor="M"), board()]), "marker", "nobody"),
    "every factory full, the turn not the start player's (three players)": (
        position(players=3, factories=FULL + ["BYRK", "BYRK"], start_player=2, turn=0), "turn", "OFFER-1"),
    "every factory full, four players, seat 3 to move after seat 1 started": (
        position(players=4, factories=["BYRK"] * 9, start_player=1, turn=3), "turn", "OFFER-1"),
    "round-1 offer with all tiles in the lid": (
        position(factories=["BBBB", "", "", "", ""], bag="", lid="B" * 16 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20),
        "lid", "FLOOR-2"),
    "round-1 offer with the rest of the tiles in the lid, a floor not full": (
        position(factories=["BBBB", "", "", "", ""], bag="", boards=[board(floor="YYY"), board()],
                 lid="B" * 16 + "Y" * 17 + "R" * 20 + "K" * 20 + "W" * 20), "lid", "FLOOR-2"),
    "a one-tile factory while the bag is full": (
        position(factories=["B", "BBBB", "YYYY", "RRRR", "KKKK"]), "factories", "DEAL-3"),
    "a three-tile factory while the bag holds tiles, later round": (
        position(round=3, factories=["BYR", "", "", "", ""], boards=[board(wall={1: "B...."}), board()]),
        "factories", "DEAL-3"),
}


@pytest.mark.parametrize("name", HISTORY)
def test_problems_of_a_history_no_game_has(name):
    doc, field, words = HISTORY[name]
    found = problems(doc)
    assert names(found, field, words), found
    with pytest.raises(InvalidState):
        from_state(doc)


def test_the_history_checks_accept_what_a_game_reaches():
    # a score of 10 per wall tile, a fresh deal of round 2 from the start player, a short deal from an empty bag
    assert problems(position(round=2, factories=FULL, boards=[board(score=10, wall={1: "B...."}), board()])) == []
    assert problems(position(round=2, factories=["B", "", "", "", ""], bag="",
                             lid="B" * 18 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20,
                             boards=[board(wall={1: "B...."}), board()])) == []


@pytest.mark.parametrize(("edit", "field"), [
    (lambda d: d.pop("lid"), "lid"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d.update(format="azul-state/2"), "format"),
    (lambda d: d.update(players=5), "players"),
    (lambda d: d.update(players=[2]), "players"),
    (lambda d: d.update(players=True), "players"),
    (lambda d: d.update(round=0), "round"),
    (lambda d: d.update(turn=2), "turn"),
    (lambda d: d.update(marker="M"), "marker"),
    (lambda d: d.update(factories=["B"] * 4), "factories"),
    (lambda d: d.update(centre="BxY"), "centre"),
    (lambda d: d["boards"].pop(), "boards"),
    (lambda d: d["boards"][0].update(score=-1), "boards[0].score"),
    (lambda d: d["boards"][0].update(wall=["....."] * 4), "boards[0].wall"),
])
def test_problems_of_shape_name_the_field(edit, field):
    assert names(broken(edit), field)


def test_problems_of_something_that_is_not_an_object():
    assert problems([1, 2]) and problems(None) and problems("azul-state/1")


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 10) | st.text("BYRKWM.xc", max_size=9),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner,
                                                                                  max_size=4),
                    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), value=JSON)
def test_problems_never_raises_whatever_a_field_holds(data, value):
    doc = copy.deepcopy(POSITIONS["offer with the marker taken"])
    target = doc
    path = data.draw(st.sampled_from(["format", "variant", "players", "round", "phase", "turn", "start_player",
                                      "marker", "factories", "centre", "bag", "lid", "boards", "winners",
                                      "boards.0", "boards.1.score", "boards.1.lines", "boards.0.wall",
                                      "boards.1.floor", "factories.2"]))
    *parents, last = path.split(".")
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    found = problems(doc)
    assert isinstance(found, list) and all(isinstance(p, str) for p in found)
    if found:
        with pytest.raises(InvalidState):
            from_state(doc)
