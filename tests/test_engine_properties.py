"""Invariants of the reference engine over random games (2-4 players, both walls), driven by hypothesis seeds.

Each example plays one whole game with a random policy: moves picked uniformly among the legal ones, deals
drawn either by the engine or by this file's own reading of DEAL-1..3 (given to the engine as a deal).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_reference import Game, IllegalMove, from_state, problems, to_state

COLOURS = "BYRKW"
NOTATION = ([f"{source}{colour}{line}" for source in "123456789C" for colour in COLOURS for line in "12345F"]
            + [f"{line}@{column}" for line in range(1, 6) for column in range(1, 6)])
MAX_ROUNDS = 100  # a cap of the test, not of the rules: a game from which no row can be won goes on for ever

GAMES = dict(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from(["colour", "grey"]),
             seed=st.integers(0, 2**32 - 1))
SETTINGS = settings(max_examples=50, deadline=None)


def drawable_deal(state: dict, rng: random.Random) -> list[str]:
    """A deal drawn as the rules say: 4 tiles per factory in turn from the bag, the lid poured in when the bag
    is empty, stopping when both are empty."""
    bag, lid = list(state["bag"]), list(state["lid"])
    rng.shuffle(bag)
    factories = []
    for _ in state["factories"]:
        drawn = ""
        for _ in range(4):
            if not bag:
                bag, lid = lid, []
                rng.shuffle(bag)
                if not bag:
                    break
            drawn += bag.pop()
        factories.append(drawn)
    return factories


def play(players: int, variant: str, seed: int, after_step: Callable[[Game, dict, random.Random], None]) -> Game:
    """One random game to its end (END-1, or END-8 when a deal would find no tile), or stopped before the deal
    of a round past MAX_ROUNDS (the rules let a game from which no row can be won go on); `after_step(game,
    state, rng)` runs after every step."""
    rng = random.Random(seed)
    game = Game(players, variant, start_player=rng.randrange(players))
    after_step(game, to_state(game), rng)
    while not game.is_over():
        state = to_state(game)
        if game.phase == "deal":
            if game.round > MAX_ROUNDS:
                break
            if rng.random() < 0.5:
                game.deal(rng=rng)
            else:
                game.deal(drawable_deal(state, rng))
        else:
            game.play(rng.choice(game.legal_moves()))
        after_step(game, to_state(game), rng)
    return game


def check_position(game: Game, state: dict, rng: random.Random) -> None:
    assert problems(state) == []
    counts = Counter(letter for text in _tile_places(state) for letter in text if letter in COLOURS)
    assert counts == Counter({colour: 20 for colour in COLOURS})  # SETUP-4: 100 tiles, 20 per colour, always
    for b in state["boards"]:
        assert b["score"] >= 0  # SCORE-5
        for r, (line, row) in enumerate(zip(b["lines"], b["wall"])):
            assert len(line) <= r + 1 and len(set(line)) <= 1  # OFFER-7, OFFER-8
            assert not line or line[0] not in row  # OFFER-9
            assert len(row.replace(".", "")) == len(set(row.replace(".", "")))
        for c in range(5):
            column = [row[c] for row in b["wall"] if row[c] != "."]
            assert len(column) == len(set(column))  # GREY-2 (and WALL-1 on the coloured wall)
        assert len(b["floor"]) <= 7  # FLOOR-1
    assert to_state(from_state(json.loads(json.dumps(state)))) == state


def _tile_places(state: dict) -> list[str]:
    places = state["factories"] + [state["centre"], state["bag"], state["lid"]]
    for b in state["boards"]:
        places += b["lines"] + b["wall"] + [b["floor"]]
    return places


def check_legal_moves(game: Game, state: dict, rng: random.Random) -> None:
    moves = [str(move) for move in game.legal_moves()]
    assert len(moves) == len(set(moves))
    if state["phase"] in ("offer", "tiling"):
        assert moves, f"no legal move in phase {state['phase']}"
        assert all(("@" in move) == (state["phase"] == "tiling") for move in moves)
    else:
        assert moves == []
    for move in rng.sample(moves, min(3, len(moves))):  # each listed move is accepted as it is printed
        game.copy().play(move)


def check_illegal_moves(game: Game, state: dict, rng: random.Random) -> None:
    legal = {str(move) for move in game.legal_moves()}
    for move in rng.sample(NOTATION, 6):
        if move in legal:
            continue
        with pytest.raises(IllegalMove) as caught:
            game.play(move)
        assert caught.value.rule, f"{move}: refused without naming a rule"
        assert to_state(game) == state, f"{move}: refused, yet the state changed"


@SETTINGS
@given(**GAMES)
def test_every_position_of_a_game_is_valid_and_round_trips(players, variant, seed):
    play(players, variant, seed, check_position)


@SETTINGS
@given(**GAMES)
def test_legal_moves_are_a_set_and_never_empty_while_someone_must_move(players, variant, seed):
    play(players, variant, seed, check_legal_moves)


@SETTINGS
@given(**GAMES)
def test_illegal_moves_are_refused_with_a_rule_and_change_nothing(players, variant, seed):
    play(players, variant, seed, check_illegal_moves)


@SETTINGS
@given(**GAMES)
def test_rounds_count_up_and_finished_games_name_their_winners(players, variant, seed):
    rounds_seen = []
    game = play(players, variant, seed, lambda g, s, r: rounds_seen.append(s["round"]))
    assert rounds_seen == sorted(rounds_seen)  # ROUND-1: the counter only goes up, one at a time
    assert set(rounds_seen) == set(range(1, rounds_seen[-1] + 1))
    if game.is_over():
        scores = game.scores()
        assert game.winners and all(scores[w] == max(scores) for w in game.winners)
