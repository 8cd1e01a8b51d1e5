"""Preparing the next round (ROUND-1..3): who starts it, the round counter, the marker back in play."""

from __future__ import annotations

import random

from positions import board, game

from azul_reference import Game, to_state


def test_round_1_without_a_complete_row_the_next_deal_is_due():
    g = game(factories=["BBBB", "", "", "", ""], round=3, boards=[board(lines={1: "Y"}), board()])
    g.play("1B5")
    state = to_state(g)
    assert (state["phase"], state["round"]) == ("deal", 4)
    assert state["factories"] == [""] * 5 and state["centre"] == ""
    assert state["winners"] is None


def test_round_2_the_marker_holder_starts_the_next_round():
    g = game(factories=["BBBB", "", "", "", ""], start_player=0, marker=1, boards=[board(), board(floor="M")])
    g.play("1B5")
    state = to_state(g)
    assert (state["start_player"], state["turn"], state["marker"]) == (1, 1, "centre")
    g.deal(rng=random.Random(1))
    assert g.turn == 1


def test_round_2_with_three_players():
    g = game(players=3, factories=["BBBB"] + [""] * 6, start_player=0, turn=1, marker=2,
             boards=[board(), board(), board(floor="RM")])
    g.play("1BF")
    state = to_state(g)
    assert (state["start_player"], state["turn"]) == (2, 2)


def test_round_3_nobody_took_from_the_centre_same_start_player():
    g = game(factories=["BBBB", "", "", "", ""], start_player=1, turn=0)
    g.play("1B5")
    state = to_state(g)
    assert (state["start_player"], state["turn"], state["marker"]) == (1, 1, "centre")


def test_round_2_a_whole_round_from_a_deal():
    """Whoever takes from the centre first starts round 2, whatever the moves."""
    for seed in range(20):
        g = Game(2, start_player=seed % 2)
        g.deal(rng=random.Random(seed))
        picks = random.Random(seed)
        first_from_centre = None
        while g.phase == "offer":
            seat = g.turn
            move = picks.choice(g.legal_moves())
            if first_from_centre is None and str(move).startswith("C"):
                first_from_centre = seat
            g.play(move)
        assert (g.phase, g.round) == ("deal", 2)  # round 1 cannot end the game: no wall row can be full yet
        expected = seed % 2 if first_from_centre is None else first_from_centre
        assert (g.start_player, g.turn) == (expected, expected)
