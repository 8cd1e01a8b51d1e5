"""Properties of records over simulated games: write/parse round trips and replay gives back every state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.records import (
    Comment, Ply, RecordError, Round, parse_record, record_from_states, replay, sample_paths, write_record,
)

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def simulate(players: int, variant: str, seed: int) -> tuple[list[dict], list[str | None]]:
    """One game on the reference engine: its own seeded deals, moves chosen by a seeded random generator."""
    engine, rng = ReferenceEngine(seed), random.Random(seed)
    states, moves = [engine.new_game(players, variant, seed % players)], []
    while states[-1]["phase"] != "over":
        if states[-1]["phase"] == "deal":
            states.append(engine.deal())
            moves.append(None)
        else:
            move = rng.choice(sorted(engine.legal_moves()))
            states.append(engine.play(move))
            moves.append(move)
    return states, moves


games = st.tuples(st.sampled_from([2, 3, 4]), st.sampled_from(["colour", "grey"]), st.integers(0, 10_000))
comment_text = st.text(st.characters(blacklist_characters="}", blacklist_categories=["Cs"]), max_size=30)


@SETTINGS
@given(games)
def test_write_parse_write_is_a_fixed_point_and_replay_gives_the_same_states(game):
    states, moves = simulate(*game)
    record = record_from_states(states, moves, {"Event": "property", "Seed": str(game[2])})
    text = write_record(record)
    parsed = parse_record(text)
    assert parsed == record
    assert write_record(parsed) == text
    result = replay(parsed, text=text)
    assert result.states == states
    assert result.claims_checked == states[-1]["round"] + 1  # a %score per round, %final and %winners at the end


@SETTINGS
@given(games, st.data())
def test_comments_and_annotations_survive_the_round_trip(game, data):
    states, moves = simulate(*game)
    record = record_from_states(states, moves, claims=False)
    rounds = []
    for round_ in record.rounds:
        plies = tuple(Ply(p.move, data.draw(st.sampled_from(["", "!", "?", "!!", "??", "!?", "?!"])),
                          tuple(Comment(t) for t in data.draw(st.lists(comment_text, max_size=2))), p.seat)
                      for p in round_.plies)
        rounds.append(Round(round_.number, round_.deal, plies, round_.placements))
    annotated = type(record)(record.headers, tuple(rounds), (Comment("start"),))
    text = write_record(annotated)
    assert parse_record(text) == annotated
    assert write_record(parse_record(text)) == text


sample_text = next(p for p in sample_paths() if p.name == "two-player.azr").read_text(encoding="utf-8")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(sample_text)), st.integers(0, 40), st.text(max_size=8))
def test_a_damaged_record_gives_a_record_error_or_replays(start, length, insert):
    """Cut and splice the sample anywhere: the only outcomes are a clean replay or a located RecordError."""
    text = sample_text[:start] + insert + sample_text[start + length:]
    try:
        replay(parse_record(text, "damaged.azr"), text=text)
    except RecordError as error:
        assert str(error).startswith("damaged.azr")
