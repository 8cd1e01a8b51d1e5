"""Set-up of a new game (SETUP-1..5): boards, scores, factories, the full bag, the start player."""

from __future__ import annotations

import pytest

from azul_reference import Game, to_state
from azul_reference.errors import InvalidSetup


@pytest.mark.parametrize("variant", ["colour", "grey"])
def test_setup_1_every_board_shows_the_chosen_side(variant):
    """SETUP-1: one variant for the whole table; nothing else exists."""
    assert to_state(Game(3, variant))["variant"] == variant
    with pytest.raises(InvalidSetup, match="variant") as caught:
        Game(2, "purple")
    assert caught.value.rule == "SETUP-1"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_2_scores_start_at_zero_on_empty_boards(players):
    """SETUP-2: score 0; empty pattern lines, wall and floor."""
    state = to_state(Game(players))
    assert [b["score"] for b in state["boards"]] == [0] * players
    for b in state["boards"]:
        assert b["lines"] == [""] * 5
        assert b["wall"] == ["....."] * 5
        assert b["floor"] == ""


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_3_factories_by_player_count(players, factories):
    """SETUP-3: 5, 7 or 9 factories, all empty before the first deal."""
    assert to_state(Game(players))["factories"] == [""] * factories


@pytest.mark.parametrize("players", [0, 1, 5, "2"])
def test_setup_3_only_two_to_four_players(players):
    with pytest.raises(InvalidSetup, match="players") as caught:
        Game(players)
    assert caught.value.rule == "SETUP-6"


def test_setup_4_all_hundred_tiles_start_in_the_bag():
    """SETUP-4: 20 of each colour, all in the bag; centre and lid empty."""
    state = to_state(Game(2))
    assert state["bag"] == "B" * 20 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20
    assert state["centre"] == "" and state["lid"] == ""


@pytest.mark.parametrize(("players", "start"), [(2, 0), (2, 1), (4, 3)])
def test_setup_5_the_chosen_start_player_deals_and_starts(players, start):
    """SETUP-5: the start player is given; the marker goes to the centre with the deal (phase deal, round 1)."""
    state = to_state(Game(players, start_player=start))
    assert (state["phase"], state["round"]) == ("deal", 1)
    assert state["start_player"] == start and state["turn"] == start
    assert state["marker"] == "centre"
    assert state["winners"] is None


@pytest.mark.parametrize("start", [-1, 2, None])
def test_setup_5_start_player_must_be_a_seat(start):
    with pytest.raises(InvalidSetup, match="start_player") as caught:
        Game(2, start_player=start)
    assert caught.value.rule == "SETUP-5"
