"""The engine's speed-ups held equal to the readable rule functions they stand in for.

`Board.open_lines` caches, per colour, which pattern lines accept it; `Game._legal_takes` and `Game._take`
read it instead of calling `Board.accepts` line by line. `Board.complete_rows` counts rows holding all five
colours instead of scanning the cells. Over random games (2-4 players, both walls), at every position, each
cached or shortened answer must equal the one the plain rule gives, and a game rebuilt from its state must
rebuild the cache the same.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_reference import DEAL, OFFER, Game, IllegalMove, from_state, to_state
from azul_reference.board import EMPTY
from azul_reference.moves import CENTRE, FLOOR, Take

SEEDS = st.integers(0, 2**32 - 1)


def takes_by_the_rules(game: Game) -> set[Take]:
    """OFFER-2..12 read plainly: every colour held by a source, to each line Board.accepts, or to the floor."""
    board = game.boards[game.turn]
    sources = [(number, tiles) for number, tiles in enumerate(game.factories, 1)] + [(CENTRE, game.centre)]
    return {Take(source, colour, line)
            for source, tiles in sources for colour in range(5) if tiles[colour]
            for line in [FLOOR] + [n for n in range(1, 6) if board.accepts(n - 1, colour)]}


def check_position(game: Game) -> None:
    for seat, board in enumerate(game.boards):
        for colour in range(5):
            for line in range(5):
                cached = bool(board.open_lines[colour] >> line & 1)
                assert cached == board.accepts(line, colour), (seat, line, colour)
        assert board.complete_rows() == sum(1 for row in board.wall if EMPTY not in row)
    rebuilt = from_state(to_state(game))
    assert [b.open_lines for b in rebuilt.boards] == [b.open_lines for b in game.boards]
    if game.phase == OFFER:
        listed = game.legal_moves()
        assert len(listed) == len(set(listed))
        assert set(listed) == takes_by_the_rules(game)


def play_checked(players: int, variant: str, seed: int) -> None:
    game = Game(players, variant)
    deals, picks = random.Random(seed), random.Random(~seed)
    check_position(game)
    while not game.is_over():
        if game.phase == DEAL:
            game.deal(rng=deals)
        else:
            legal = game.legal_moves()
            game.play(legal[picks.randrange(len(legal))])
        check_position(game)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["colour", "grey"])
def test_fast_paths_agree_with_the_rule_functions_over_seeded_games(players, variant):
    for seed in range(3):
        play_checked(players, variant, seed)


@given(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from(["colour", "grey"]), seed=SEEDS)
@settings(max_examples=15, deadline=None)
def test_fast_paths_agree_with_the_rule_functions_over_random_games(players, variant, seed):
    play_checked(players, variant, seed)


def test_a_refused_line_still_names_its_rule():
    """The cache only decides; the refusal is explained by the rule that applies (here OFFER-8: line 1 holds
    blue, so red cannot go there)."""
    game = Game(2)
    game.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    game.play("1B1")  # seat 0: line 1 full with one blue, three to the floor
    game.play("2Y2")  # seat 1
    with pytest.raises(IllegalMove) as refused:
        game.play("3R1")
    assert refused.value.rule == "OFFER-8"
