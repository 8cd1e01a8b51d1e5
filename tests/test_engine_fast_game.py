"""The fast path (azul_reference.fast.FastGame) held equal to the readable engine (Game), step by step.

FastGame is the same game on flat tables. These tests play the two side by side, dealing from generators with the
same seed and playing the same random take, and after every step they compare everything:
    - the legal moves, the same Take objects in the same order;
    - every field of the Game that FastGame.to_game() gives, the boards' open lines (the cache that listing
      reads) included, and its state document.
They do this over seeded games with 2-4 players from every start seat, and over random games continued from
every coloured-wall position of the scenario corpus. The corpus positions hold the edge cases: a full floor, the
marker onto a full floor, a bag that runs out in the middle of a deal, an empty lid, a game that END-8 ends.
A take that Game refuses, FastGame refuses too, with the same rule, and is left unchanged.

tests/test_engine_fast_build.py runs the same lockstep on the module compiled with mypyc.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_conformance.scenario.loader import load_scenarios
from azul_reference import DEAL, OFFER, Game, IllegalDeal, IllegalMove, InvalidSetup, from_state, to_state
from azul_reference import fast as fast_module
from azul_reference.board import Board
from azul_reference.fast import FastGame
from azul_reference.moves import TAKES

MAX_ROUNDS = 60  # random play can reach a game that never ends (benchmarks/README.md): stop comparing there


def fields(game: Game) -> dict:
    """Every field of a Game and of its boards (their __slots__), for a comparison that misses nothing."""
    found = {name: getattr(game, name) for name in Game.__slots__ if name != "boards"}
    found["boards"] = [{name: getattr(board, name) for name in Board.__slots__} for board in game.boards]
    return found


def assert_same(fast: FastGame, game: Game, where: str) -> None:
    as_game = fast.to_game()
    assert fields(as_game) == fields(game), where
    assert to_state(as_game) == to_state(game), where
    assert fast.legal_moves() == game.legal_moves(), where
    assert (fast.phase, fast.is_over(), fast.scores(), fast.winners) == \
           (game.phase, game.is_over(), game.scores(), game.winners), where


def lockstep(game: Game, seed: int, label: str, refusals: int = 0) -> int:
    """Play `game` and a FastGame of it to the end (or MAX_ROUNDS) side by side; returns the steps played.
    With `refusals`, also try that many takes that Game refuses at each position."""
    fast = FastGame.from_game(game)
    deals, fast_deals, picks = random.Random(seed), random.Random(seed), random.Random(~seed)
    steps = 0
    while not game.is_over() and game.round <= MAX_ROUNDS:
        where = f"{label}, seed {seed}, step {steps}"
        assert_same(fast, game, where)
        if game.phase == DEAL:
            game.deal(rng=deals)
            fast.deal(fast_deals)
            assert fast_deals.getstate() == deals.getstate(), where
        else:
            legal = game.legal_moves()
            if refusals:
                check_refusals(fast, game, legal, picks, refusals, where)
            move = legal[picks.randrange(len(legal))]
            game.play(move)
            fast.play(move)
        steps += 1
    assert_same(fast, game, f"{label}, seed {seed}, the end")
    return steps


def check_refusals(fast: FastGame, game: Game, legal: list, picks: random.Random, count: int, where: str) -> None:
    """Takes Game refuses (no such tile, a line that does not accept the colour, a factory this game lacks):
    FastGame raises the same IllegalMove, with the same rule and message, and stays as it was."""
    listed = set(legal)
    others = [take for by_colour in TAKES for by_line in by_colour for take in by_line if take not in listed]
    before = to_state(fast.to_game())
    for take in picks.sample(others, min(count, len(others))):
        with pytest.raises(IllegalMove) as by_game:
            game.copy().play(take)
        with pytest.raises(IllegalMove) as by_fast:
            fast.play(take)
        assert (by_fast.value.rule, str(by_fast.value)) == (by_game.value.rule, str(by_game.value)), where
    assert to_state(fast.to_game()) == before, where


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_from_every_start_seat_are_the_same_game(players):
    for start in range(players):
        for seed in range(8):
            assert lockstep(Game(players, "colour", start), seed, f"{players} players from seat {start}") > 40


@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**63))
@settings(max_examples=25, deadline=None)
def test_random_games_are_the_same_game(players, seed):
    lockstep(Game(players), seed, f"{players} players")


def corpus_positions() -> list[tuple[str, dict]]:
    """Every coloured-wall position a scenario starts from, in the offer or before a deal."""
    positions = []
    for scenario in load_scenarios():
        state = scenario.given.state
        if state is not None and state["variant"] == "colour" and state["phase"] in ("offer", "deal"):
            positions.append((scenario.id, state))
    return positions


def test_games_continued_from_every_corpus_position_are_the_same_game():
    positions = corpus_positions()
    assert len(positions) > 60  # the corpus holds this many: a loader change that drops them must not pass
    phases = set()
    for name, state in positions:
        for seed in range(2):
            game = from_state(state)
            phases.add(game.phase)
            lockstep(game, seed, name, refusals=2)
    assert phases == {DEAL, OFFER}


def test_a_take_given_as_text_is_the_same_take():
    game = Game(3)
    game.deal(rng=random.Random(5))
    fast = FastGame.from_game(game)
    move = game.legal_moves()[7]
    fast.play(str(move))
    game.play(move)
    assert_same(fast, game, "a take as text")
    with pytest.raises(IllegalMove) as refused:
        fast.play("1@1")  # a placement on the coloured wall
    assert refused.value.rule == "OFFER-15"


def test_from_game_and_to_game_give_back_the_same_position():
    game = Game(4, "colour", 2)
    deals, picks = random.Random(11), random.Random(12)
    while game.round < 3:
        if game.phase == DEAL:
            game.deal(rng=deals)
        else:
            legal = game.legal_moves()
            game.play(legal[picks.randrange(len(legal))])
    again = FastGame.from_game(game).to_game()
    assert fields(again) == fields(game)


def play_on(fast: FastGame, seed: int, steps: int | None = None) -> None:
    """Random play from here: to the end (or MAX_ROUNDS), or `steps` steps."""
    deals, picks = random.Random(seed), random.Random(~seed)
    while not fast.is_over() and fast.round <= MAX_ROUNDS and steps != 0:
        if fast.phase == DEAL:
            fast.deal(deals)
        else:
            legal = fast.legal_moves()
            fast.play(legal[picks.randrange(len(legal))])
        steps = None if steps is None else steps - 1


def test_a_copy_plays_on_alone():
    """FastGame.copy: the copy plays on as the same position rebuilt from its Game does, and the original is
    left as it was."""
    for seed in range(6):
        fast = FastGame(3)
        for _ in range(12):
            play_on(fast, seed, steps=9)
            before = fields(fast.to_game())
            copy, twin = fast.copy(), FastGame.from_game(fast.to_game())
            play_on(copy, seed + 100)
            play_on(twin, seed + 100)
            assert fields(copy.to_game()) == fields(twin.to_game()), seed
            assert fields(fast.to_game()) == before, seed


def test_what_it_does_not_play_it_refuses_with_the_rule():
    with pytest.raises(InvalidSetup) as grey:
        FastGame.from_game(Game(2, "grey"))
    assert grey.value.rule == "SETUP-1"
    with pytest.raises(InvalidSetup) as five:
        FastGame(5)
    assert five.value.rule == "SETUP-6"
    fast = FastGame(2)
    with pytest.raises(IllegalMove) as early:  # before the deal
        fast.play(TAKES[1][0][1])
    assert early.value.rule == "OFFER-15"
    fast.deal(random.Random(1))
    with pytest.raises(IllegalDeal) as twice:
        fast.deal(random.Random(1))
    assert twice.value.rule == "DEAL-1"


def test_the_module_under_test_is_the_one_expected():
    """tests/test_engine_fast_build.py runs this file again on the module compiled with mypyc, and says so with
    AZUL_FAST_COMPILED=1: a build that quietly left the module interpreted must not pass for compiled."""
    compiled = not fast_module.__file__.endswith(".py")
    assert compiled == (os.environ.get("AZUL_FAST_COMPILED") == "1"), fast_module.__file__
