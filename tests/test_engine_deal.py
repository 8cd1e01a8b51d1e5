"""The deal (DEAL-1..4): the engine's own draw, given deals, an empty bag, bag and lid both empty."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from positions import board, coloured_row, game

from azul_reference import Game, IllegalDeal, MalformedDeal, to_state

COLOURS = "BYRKW"


def refused(g: Game, factories, rule: str, error: type = IllegalDeal) -> None:
    """The deal is refused (illegal_move, or bad_request for a malformed one) naming `rule`, and the game is
    exactly as before."""
    before = to_state(g)
    with pytest.raises(error) as caught:
        g.deal(factories)
    assert caught.value.rule == rule, caught.value.message
    assert to_state(g) == before


def tiles(*texts: str) -> Counter:
    return Counter("".join(texts))


# -- DEAL-1: four tiles per factory -------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_1_engine_draw_fills_every_factory_with_four(players):
    g = Game(players, start_player=players - 1)
    g.deal(rng=random.Random(11))
    state = to_state(g)
    assert [len(f) for f in state["factories"]] == [4] * {2: 5, 3: 7, 4: 9}[players]
    assert len(state["bag"]) == 100 - 4 * len(state["factories"])
    assert tiles(state["bag"], *state["factories"]) == Counter({c: 20 for c in COLOURS})
    assert (state["phase"], state["turn"]) == ("offer", players - 1)  # OFFER-1: the start player moves first


def test_deal_1_the_draw_is_reproducible_from_its_seed():
    first, second = Game(2), Game(2)
    first.deal(rng=random.Random(5))
    second.deal(rng=random.Random(5))
    assert to_state(first) == to_state(second)


def test_deal_1_a_given_deal_is_taken_from_the_bag():
    g = Game(2)
    g.deal(["BBBB", "BBBB", "BBYY", "RKWW", "YRKW"])
    state = to_state(g)
    assert state["factories"] == ["BBBB", "BBBB", "BBYY", "RKWW", "YRKW"]
    assert tiles(state["bag"]) == Counter(B=10, Y=17, R=18, K=18, W=17)
    assert state["phase"] == "offer"


def test_deal_1_factory_contents_may_be_written_in_any_order():
    g = Game(2)
    g.deal(["KRBB", "WWWW", "YYYY", "RRRR", "BBBB"])
    assert to_state(g)["factories"][0] == "BBRK"


def test_deal_1_refuses_a_factory_short_while_the_bag_is_full():
    refused(Game(2), ["BBB", "BBBB", "BBBB", "BBBB", "BBBB"], "DEAL-1")


@pytest.mark.parametrize("factories", [
    ["BBBBB", "BBB", "BBBB", "BBBB", "BBBB"],      # five tiles on one factory
    ["BBBX", "BBBB", "BBBB", "BBBB", "BBBB"],      # no such colour
    ["BBBM", "BBBB", "BBBB", "BBBB", "BBBB"],      # the marker is no tile
    ["BBBB", "BBBB", "BBBB", "BBBB", 7],           # not a string
])
def test_a_factory_the_protocol_schema_forbids_is_a_malformed_deal(factories):
    refused(Game(2), factories, "DEAL-1", MalformedDeal)
    g = game(factories=["BBBB", "", "", "", ""])
    refused(g, factories, "DEAL-1", MalformedDeal)  # malformed comes first, even when no deal is due
    assert MalformedDeal.code == "bad_request"


def test_deal_1_refuses_more_tiles_of_a_colour_than_the_bag_holds():
    refused(Game(3), ["BBBB"] * 6 + ["YYYY"], "DEAL-1")  # 24 blue tiles out of 20


def test_deal_1_refuses_a_tile_that_is_in_the_lid_while_the_bag_still_has_enough():
    # 20 tiles in the bag (10 B, 10 Y), everything else in the lid: a red tile cannot be drawn yet.
    g = game(round=2, phase="deal", lid="B" * 10 + "Y" * 10 + "R" * 20 + "K" * 20 + "W" * 20)
    refused(g, ["BBBB", "BBBB", "BBYY", "YYYY", "YYYR"], "DEAL-1")


def test_setup_3_a_deal_names_every_factory():
    refused(Game(2), ["BBBB"] * 7, "SETUP-3")  # 7 factories is a well-formed deal, for 3 players
    refused(Game(2), ["BBBB"] * 4, "SETUP-3", MalformedDeal)  # fewer than 5: no deal in protocol v1
    refused(Game(2), "BBBB", "SETUP-3", MalformedDeal)


def test_deal_1_no_deal_outside_the_deal_phase():
    g = game(factories=["BBBB", "", "", "", ""])
    refused(g, ["BBBB", "", "", "", ""], "DEAL-1")
    with pytest.raises(IllegalDeal):
        g.deal(rng=random.Random(1))


# -- DEAL-2: the lid is poured into an empty bag, and only then -----------------------------------------------

LID_94 = "B" * 14 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20  # leaves BBBBBB (6 tiles) in the bag


def test_deal_2_a_bag_that_is_exactly_enough_leaves_the_lid_alone():
    lid = "B" * 10 + "Y" * 10 + "R" * 20 + "K" * 20 + "W" * 20
    g = game(round=2, phase="deal", lid=lid)
    g.deal(["BBBB", "BBBB", "BBYY", "YYYY", "YYYY"])
    state = to_state(g)
    assert state["bag"] == "" and state["lid"] == lid


def test_deal_2_engine_draw_with_exactly_enough_leaves_the_lid_alone():
    lid = "B" * 10 + "Y" * 10 + "R" * 20 + "K" * 20 + "W" * 20
    g = game(round=2, phase="deal", lid=lid)
    g.deal(rng=random.Random(3))
    state = to_state(g)
    assert tiles(*state["factories"]) == Counter(B=10, Y=10)
    assert state["bag"] == "" and state["lid"] == lid


def test_deal_2_given_deal_takes_the_whole_bag_then_the_poured_lid():
    g = game(round=2, phase="deal", lid=LID_94)
    assert to_state(g)["bag"] == "BBBBBB"
    g.deal(["BBBB", "BBYY", "YYYY", "RRRR", "KKKK"])
    state = to_state(g)
    # The lid (94 tiles) went into the bag; 14 of them were dealt: Y6 R4 K4.
    assert state["lid"] == ""
    assert tiles(state["bag"]) == Counter(B=14, Y=14, R=16, K=16, W=20)


def test_deal_2_refuses_a_deal_that_leaves_bag_tiles_behind():
    # Only 5 of the bag's 6 blue tiles are dealt, yet lid tiles are: the lid cannot have been poured in.
    refused(game(round=2, phase="deal", lid=LID_94), ["BBBB", "BYYY", "YYYY", "RRRR", "KKKK"], "DEAL-2")


def test_deal_2_refuses_lid_tiles_on_a_factory_filled_before_the_bag_ran_out():
    # Factories are filled in turn: factory 1 and half of factory 2 come from the bag (6 blue tiles).
    refused(game(round=2, phase="deal", lid=LID_94), ["YYYY", "BBBB", "BBRR", "RRKK", "KKWW"], "DEAL-2")


def test_deal_2_engine_draw_empties_the_bag_before_pouring_the_lid():
    g = game(round=2, phase="deal", lid=LID_94)
    g.deal(rng=random.Random(8))
    state = to_state(g)
    assert state["factories"][0] == "BBBB"  # the first four draws: the bag holds only blue
    assert state["factories"][1].count("B") >= 2
    assert state["lid"] == "" and len(state["bag"]) == 80
    assert tiles(state["bag"], *state["factories"]) == Counter({c: 20 for c in COLOURS})  # bag and lid held all 100


# -- DEAL-3: bag and lid both run out ----------------------------------------------------------------

def four_player_boards(lines: list[dict[int, str]], scores=(0, 0, 0, 0)) -> list[dict]:
    """Four boards whose walls each miss one colour per row: board b's row r (0-4) lacks colour (r + b) mod 5.

    So each wall holds 4 tiles of every colour (16 per colour on the table), no row, column or colour is
    complete, and pattern line r + 1 of board b may only hold colour (r + b) mod 5.
    """
    boards = []
    for b in range(4):
        wall = [coloured_row(r + 1, COLOURS.replace(COLOURS[(r + b) % 5], "")) for r in range(5)]
        boards.append(board(score=scores[b], wall=wall, lines=lines[b]))
    return boards


# 4 leftover tiles of each colour: on pattern lines that accept them, except 10 (B4 Y4 R2) left for bag and lid.
TEN_LEFT = [{4: "KKK", 5: "WWWW"}, {}, {2: "K"}, {5: "RR"}]


def test_deal_3_bag_and_lid_run_out_partly_filled_and_empty_factories():
    g = game(players=4, phase="deal", boards=four_player_boards(TEN_LEFT), lid="YYYY")
    assert to_state(g)["bag"] == "BBBBRR"
    g.deal(["BBBB", "RRYY", "YY", "", "", "", "", "", ""])
    state = to_state(g)
    assert state["factories"] == ["BBBB", "YYRR", "YY"] + [""] * 6
    assert (state["bag"], state["lid"], state["phase"]) == ("", "", "offer")


def test_deal_3_engine_draw_stops_when_bag_and_lid_are_empty():
    g = game(players=4, phase="deal", boards=four_player_boards(TEN_LEFT), lid="YYYY")
    g.deal(rng=random.Random(2))
    state = to_state(g)
    assert [len(f) for f in state["factories"]] == [4, 4, 2, 0, 0, 0, 0, 0, 0]
    assert set(state["factories"][0]) <= {"B", "R"}  # drawn before the bag ran out
    assert tiles(*state["factories"]) == Counter(B=4, R=2, Y=4)
    assert (state["bag"], state["lid"]) == ("", "")


@pytest.mark.parametrize("given", [["BBBB", "YYYY", "RR", "", "", "", "", "", ""], None])
def test_deal_2_3_an_empty_bag_is_refilled_before_the_first_draw(given):
    g = game(players=4, phase="deal", boards=four_player_boards(TEN_LEFT), bag="", lid="BBBBYYYYRR")
    g.deal(given, rng=random.Random(6))
    state = to_state(g)
    assert [len(f) for f in state["factories"]] == [4, 4, 2] + [0] * 6
    assert tiles(*state["factories"]) == Counter(B=4, Y=4, R=2)
    assert (state["bag"], state["lid"]) == ("", "")


@pytest.mark.parametrize("factories", [
    ["BBBB", "RRYY", "Y", "Y", "", "", "", "", ""],   # factories are filled in turn, four at a time
    ["BBBB", "RRYY", "", "", "", "", "", "", ""],     # two tiles left undealt
    ["BBBB", "RRYY", "YYYY", "", "", "", "", "", ""],  # more than there is
])
def test_deal_3_refuses_a_deal_that_is_not_the_whole_remainder_in_order(factories):
    g = game(players=4, phase="deal", boards=four_player_boards(TEN_LEFT), lid="YYYY")
    refused(g, factories, "DEAL-3")


# -- DEAL-4: discards go to the lid, never to the bag ------------------------------------------------------------

def test_deal_4_discards_go_to_the_lid_not_the_bag():
    # Seat 0 completes line 2 (one leftover) and drops 2 red tiles on the floor with the last take of the round.
    g = game(centre="RR", boards=[board(lines={2: "BB"}), board()])  # the marker goes with them, never to the lid
    bag_before = to_state(g)["bag"]
    g.play("CRF")
    state = to_state(g)
    assert state["phase"] == "deal"
    assert state["bag"] == bag_before
    assert state["lid"] == "BRR"
