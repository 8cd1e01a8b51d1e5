"""The floor line (FLOOR-1..6): seven spaces, overflow to the lid, penalties, the marker on the floor."""

from __future__ import annotations

import pytest
from positions import board, coloured_row, game, position

from azul_reference import problems, to_state

# FLOOR-3: points lost per occupied space, left to right: -1 -1 -2 -2 -2 -3 -3. Cumulative by tiles on the floor:
LOSS = {0: 0, 1: 1, 2: 2, 3: 4, 4: 6, 5: 8, 6: 11, 7: 14}
# Wall tiles from earlier rounds, so that a score of 10 (one tile) or 20 (two) is one a game can reach (at most
# 10 points per wall tile); none of them touches what a case does.
ONE_TILE = {1: "B...."}
TWO_TILES = {1: "B....", 3: coloured_row(3, "Y")}


def test_floor_1_tiles_fill_the_floor_left_to_right():
    g = game(factories=["RRRK", "BBBB", "", "", ""], boards=[board(floor="BB"), board()])
    g.play("1RF")
    assert to_state(g)["boards"][0]["floor"] == "BBRRR"


def test_floor_2_tiles_beyond_seven_spaces_go_to_the_lid():
    g = game(factories=["YYYK", "BBBB", "", "", ""], boards=[board(floor="BBBBBB"), board()])
    g.play("1YF")
    state = to_state(g)
    assert state["boards"][0]["floor"] == "BBBBBBY"
    assert state["lid"] == "YY"
    assert state["phase"] == "offer"


def test_floor_2_overflow_from_a_pattern_line_also_reaches_the_lid():
    g = game(factories=["YYYK", "BBBB", "", "", ""], boards=[board(floor="BBBBBRR"), board()])
    g.play("1Y1")  # one on line 1, two for a full floor
    state = to_state(g)
    assert state["boards"][0]["lines"][0] == "Y"
    assert state["boards"][0]["floor"] == "BBBBBRR"
    assert state["lid"] == "YY"


@pytest.mark.parametrize("already", range(8))
def test_floor_3_penalties_by_space(already):
    """The last take of the round puts one more tile on a floor already holding `already` tiles (the lone tile
    left in the centre; seat 1 took the marker earlier)."""
    g = game(centre="B", marker=1, boards=[board(score=20, floor="R" * already, wall=TWO_TILES), board(floor="M")])
    g.play("CBF")
    state = to_state(g)
    on_floor = min(already + 1, 7)
    assert state["phase"] == "deal"
    assert state["boards"][0]["score"] == 20 - LOSS[on_floor]
    assert state["boards"][0]["floor"] == ""
    assert state["lid"] == "B" + "R" * already  # FLOOR-6: every floor tile, and the overflow, to the lid


def test_floor_3_4_spanish_example_four_tiles_and_the_marker_cost_eight():
    """ES 002_78cb4839c43a4ac6.txt:127: four tiles and the marker on the floor lose 8 points."""
    g = game(centre="B", start_player=1, marker=0,
             boards=[board(score=10, floor="MRRR", wall=ONE_TILE), board()])
    g.play("CBF")
    state = to_state(g)
    assert state["boards"][0]["score"] == 2
    assert state["lid"] == "BRRR"  # FLOOR-6: the marker is no tile: it never reaches the lid
    assert state["start_player"] == 0 and state["marker"] == "centre"  # ROUND-2: its holder starts


def test_floor_4_the_marker_alone_costs_one_point():
    g = game(centre="B", marker=0, boards=[board(score=10, floor="M", wall=ONE_TILE), board()])
    g.play("CB5")
    state = to_state(g)
    assert state["boards"][0]["score"] == 9
    assert state["lid"] == ""


def test_floor_5_marker_with_a_full_floor_takes_no_space_and_costs_nothing():
    g = game(factories=["YYYY", "", "", "", ""], centre="RR", start_player=1, turn=0,
             boards=[board(score=20, floor="BBBBBBB", wall=TWO_TILES), board()])
    g.play("CRF")
    state = to_state(g)
    assert state["marker"] == 0  # taken all the same
    assert state["boards"][0]["floor"] == "BBBBBBB"
    assert state["lid"] == "RR"
    assert problems(state) == []
    g.play("1Y5")  # seat 1 ends the round (4 yellow tiles on line 5: not complete)
    state = to_state(g)
    assert state["boards"][0]["score"] == 20 - 14
    assert state["start_player"] == 0 and state["turn"] == 0  # the holder still starts
    assert state["lid"] == "BBBBBBBRR"


def test_floor_6_floors_are_emptied_into_the_lid_for_every_player():
    g = game(centre="B", marker=1,
             boards=[board(score=5, floor="KK", wall=ONE_TILE), board(score=5, floor="MWY", wall=ONE_TILE)])
    g.play("CB5")
    state = to_state(g)
    assert [b["floor"] for b in state["boards"]] == ["", ""]
    assert [b["score"] for b in state["boards"]] == [5 - 2, 5 - 4]
    assert state["lid"] == "YKKW"


def test_score_5_floor_penalties_never_take_a_score_below_zero():
    g = game(centre="B", marker=1, boards=[board(score=3, floor="RRRR", wall=ONE_TILE), board(floor="M")])
    g.play("CBF")
    assert to_state(g)["boards"][0]["score"] == 0


def test_position_helper_fills_the_bag_to_twenty_per_colour():
    doc = position(factories=["B", "", "", "", ""], boards=[board(floor="RRRR"), board()])
    assert doc["bag"].count("B") == 19 and doc["bag"].count("R") == 16 and len(doc["bag"]) == 95
