"""The factory offer (OFFER-1..15): takes from factories and the centre, the marker, pattern lines, refusals."""

from __future__ import annotations

import random

import pytest
from positions import board, coloured_row, game, refused

from azul_reference import Game, NotationError, to_state

TWO_FACTORIES = ["BBRK", "YYYW", "", "", ""]



# -- OFFER-2..5: what a take moves --------------------------------------------------------------------------

def test_offer_2_3_factory_take_moves_the_rest_to_the_centre():
    g = game(factories=TWO_FACTORIES, centre="RW")
    g.play("1B2")
    state = to_state(g)
    assert state["boards"][0]["lines"] == ["", "BB", "", "", ""]
    assert state["factories"] == ["", "YYYW", "", "", ""]
    assert state["centre"] == "RRKW"
    assert state["boards"][0]["floor"] == "" and state["marker"] == "centre"
    assert state["turn"] == 1


def test_offer_4_5_first_centre_take_brings_the_marker_later_ones_do_not():
    g = game(factories=TWO_FACTORIES, centre="RW")
    g.play("1B2")                 # centre now RRKW
    g.play("CR3")                 # seat 1: the first take from the centre
    state = to_state(g)
    assert state["boards"][1]["lines"] == ["", "", "RR", "", ""]
    assert state["boards"][1]["floor"] == "M"
    assert state["marker"] == 1
    assert state["centre"] == "KW"
    g.play("CK1")                 # seat 0: a later take from the centre, no marker
    state = to_state(g)
    assert state["boards"][0]["lines"] == ["K", "BB", "", "", ""]
    assert state["boards"][0]["floor"] == ""
    assert state["boards"][1]["floor"] == "M" and state["marker"] == 1
    assert state["centre"] == "W"


def test_offer_5_marker_takes_the_leftmost_free_floor_space_before_the_tiles():
    g = game(factories=["BBBB", "", "", "", ""], centre="RRRR", boards=[board(floor="YY"), board()])
    g.play("CR1")                 # 1 red on line 1, 3 overflow after the marker
    state = to_state(g)
    assert state["boards"][0]["lines"][0] == "R"
    assert state["boards"][0]["floor"] == "YYMRRR"
    assert state["centre"] == "" and state["marker"] == 0


def test_offer_5_11_marker_comes_first_when_all_go_to_the_floor():
    g = game(factories=["BBBB", "", "", "", ""], centre="RRRR")
    g.play("CRF")
    assert to_state(g)["boards"][0]["floor"] == "MRRRR"


# -- OFFER-7, 10, 11, 13: where the taken tiles go ----------------------------------------------------------

def test_offer_7_tiles_join_a_line_of_their_colour():
    g = game(factories=["RRBB", "", "", "", ""], centre="Y", boards=[board(lines={3: "R"}), board()])
    g.play("1R3")
    state = to_state(g)
    assert state["boards"][0]["lines"][2] == "RRR"
    assert state["boards"][0]["floor"] == ""


def test_offer_10_tiles_beyond_the_line_go_to_the_floor():
    g = game(factories=["BBBK", "", "", "", ""])
    g.play("1B1")
    state = to_state(g)
    assert state["boards"][0]["lines"][0] == "B"
    assert state["boards"][0]["floor"] == "BB"
    assert state["centre"] == "K"


def test_offer_10_a_partly_filled_line_overflows_too():
    g = game(factories=["RRRB", "", "", "", ""], boards=[board(lines={3: "R"}), board()])
    g.play("1R3")
    state = to_state(g)
    assert state["boards"][0]["lines"][2] == "RRR"
    assert state["boards"][0]["floor"] == "R"


def test_offer_11_all_tiles_to_the_floor_by_choice():
    g = game(factories=["BBBK", "", "", "", ""])
    g.play("1BF")
    state = to_state(g)
    assert state["boards"][0]["lines"] == [""] * 5
    assert state["boards"][0]["floor"] == "BBB"


def test_offer_13_one_colour_on_several_lines():
    g = game(factories=["BBBK", "", "", "", ""], boards=[board(lines={2: "B"}), board()])
    assert "1B3" in map(str, g.legal_moves())
    g.play("1B3")
    assert to_state(g)["boards"][0]["lines"] == ["", "B", "BBB", "", ""]


# -- OFFER-1, 14: turns and the end of the offer -------------------------------------------------------------

def test_offer_1_turns_pass_in_seat_order_from_the_start_player_and_wrap():
    g = Game(3, start_player=1)
    g.deal(rng=random.Random(4))
    seats = []
    for _ in range(4):
        seats.append(g.turn)
        g.play(g.legal_moves()[0])
    assert seats == [1, 2, 0, 1]


def test_offer_14_the_offer_goes_on_while_the_centre_holds_tiles():
    g = game(centre="BY", marker=1, boards=[board(), board(floor="M")])
    g.play("CB5")
    state = to_state(g)
    assert (state["phase"], state["turn"], state["centre"]) == ("offer", 1, "Y")


def test_offer_14_the_offer_ends_when_factories_and_centre_are_empty():
    g = game(factories=["BBBB", "", "", "", ""], round=3)
    g.play("1B5")
    state = to_state(g)
    assert state["phase"] == "deal" and state["round"] == 4
    assert state["boards"][0]["lines"][4] == "BBBB"  # incomplete: it stays (TILING-3)


# -- refusals ----------------------------------------------------------------------------------------------

def test_offer_6_an_empty_factory_cannot_be_taken_from():
    refused(game(factories=TWO_FACTORIES), "3B1", "OFFER-6")


def test_offer_6_an_absent_colour_cannot_be_taken():
    refused(game(factories=TWO_FACTORIES), "1W1", "OFFER-6")
    refused(game(factories=TWO_FACTORIES, centre="R"), "CB1", "OFFER-6")


def test_offer_6_a_centre_holding_only_the_marker_cannot_be_taken_from():
    g = game(factories=TWO_FACTORIES)  # the marker is in the centre, no tile is
    refused(g, "CB1", "OFFER-6")
    assert not any(str(move).startswith("C") for move in g.legal_moves())


def test_setup_3_no_factory_beyond_the_player_count():
    refused(game(factories=TWO_FACTORIES), "6B1", "SETUP-3")


def test_offer_8_a_line_holding_another_colour_is_refused():
    refused(game(factories=TWO_FACTORIES, boards=[board(lines={4: "KK"}), board()]), "1B4", "OFFER-8")


def test_offer_9_a_colour_already_on_the_wall_row_is_refused():
    g = game(factories=TWO_FACTORIES, boards=[board(wall={2: coloured_row(2, "B")}), board()])
    refused(g, "1B2", "OFFER-9")


def test_offer_12_a_full_line_is_refused():
    refused(game(factories=TWO_FACTORIES, boards=[board(lines={2: "BB"}), board()]), "1B2", "OFFER-12")


def test_offer_15_no_placement_in_the_offer_phase():
    refused(game(factories=TWO_FACTORIES), "1@1", "OFFER-15")


def test_offer_15_no_take_during_the_deal():
    refused(Game(2), "1B1", "OFFER-15")


@pytest.mark.parametrize("text", ["1B6", "0B1", "CXF", "ZZZ", "", "1b1", " 1B1"])
def test_malformed_moves_are_notation_errors(text):
    g = game(factories=TWO_FACTORIES)
    before = to_state(g)
    with pytest.raises(NotationError):
        g.play(text)
    assert to_state(g) == before


# -- the whole legal-move set of a small position, worked out by hand ---------------------------------------

def test_exact_legal_moves_of_a_small_position():
    """OFFER-6..13 together. Seat 0: line 2 full of blue, line 4 holds 2 black; wall row 1 has red, row 3 yellow.

    Factory 1 offers B, R, K; the centre offers Y. Lines that accept each colour:
      B: 1, 3, 5 (line 2 full, line 4 black)        R: 3, 5 (row 1 has red)
      K: 1, 3, 4, 5 (line 4 is black with room)     Y: 1, 5 (row 3 has yellow)
    and the floor for every colour.
    """
    g = game(factories=["BBRK", "", "", "", ""], centre="Y",
             boards=[board(lines={2: "BB", 4: "KK"}, wall={1: coloured_row(1, "R"), 3: coloured_row(3, "Y")}),
                     board()])
    moves = [str(move) for move in g.legal_moves()]
    assert len(moves) == len(set(moves))
    assert set(moves) == {"1B1", "1B3", "1B5", "1BF", "1R3", "1R5", "1RF",
                          "1K1", "1K3", "1K4", "1K5", "1KF", "CY1", "CY5", "CYF"}
