"""The fast paths of reading and replaying records (fast_parse, fast_replay, FastGame.deal_given) against the
readable ones (the Lark grammar, the readable engine): the same records, the same verdicts and counts, on every
sample, the imported corpus, simulated games and mutated texts; and the fast paths do take the common record."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azul_reference import Game
from azul_reference.errors import AzulError
from azul_reference.fast import FastGame

from azul_conformance.importers import import_file
from azul_conformance.records import (
    Comment, Ply, RecordSyntaxError, Round, parse_record, record_from_states, replay, sample_paths, write_record,
)
from azul_conformance.records.batch import judge, judge_readably
from azul_conformance.records.fast_parse import parse_fast
from azul_conformance.records.fast_replay import replay_fast
from hostile_files import mutations
from test_importers import FIXTURE, SAMPLE, ludometer_games
from test_records_properties import simulate

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def readable_counts(text: str) -> tuple[int, int]:
    result = replay(parse_record(text), text=text)
    return sum(step.kind in ("take", "placement") for step in result.steps), result.claims_checked


def assert_same_reading(text: str) -> None:
    """Both readers accept the same text and give equal records (the fast one may defer: None)."""
    fast = parse_fast(text)
    try:
        slow = parse_record(text)
    except RecordSyntaxError:
        assert fast is None
        return
    assert fast is None or fast == slow


def corpus() -> list[str]:
    texts = [path.read_text(encoding="utf-8") for path in sample_paths()]
    for name, path in (("ludometer", FIXTURE), ("faience", SAMPLE)):
        if not path.exists():
            continue  # ../shared is not beside this checkout: the tests that count its games skip, saying so
        texts += [write_record(record) for record, _ in import_file(name, path) if record is not None]
    return texts


CORPUS = corpus()


def test_the_fast_reader_takes_every_coloured_wall_sample_and_imported_game_as_the_grammar_does():
    ludometer_games()
    assert len(CORPUS) == 3 + 30 + 3
    for text in CORPUS:
        fast = parse_fast(text)
        if "grey" in parse_record(text).variant:
            assert fast is None  # tiling placements: the grammar reads them
            continue
        assert fast is not None and fast == parse_record(text)


def test_the_fast_replay_gives_the_readable_counts_or_defers_on_every_sample_and_imported_game():
    ludometer_games()
    taken = 0
    for text in CORPUS:
        quick = replay_fast(parse_record(text))
        verdict = judge_readably("r.azr", text)
        if quick is not None:
            taken += 1
            assert verdict.verdict == "agrees" and quick == (verdict.moves, verdict.claims)
        assert judge("r.azr", text.encode("utf-8")) == verdict
    assert taken >= 33 - 1  # all but the grey wall sample and the faience tie (explained: END-6)


games = st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 10_000))
comment_text = st.text(st.characters(blacklist_characters="}", blacklist_categories=["Cs"]), max_size=12)


@SETTINGS
@given(games, st.data())
def test_simulated_games_with_comments_and_annotations_read_and_replay_the_same_on_both_paths(game, data):
    players, seed = game
    states, moves = simulate(players, "colour", seed)
    record = record_from_states(states, moves, {"Event": "fast", "Seed": str(seed)})
    rounds = []
    for round_ in record.rounds:
        plies = tuple(Ply(p.move, data.draw(st.sampled_from(["", "!", "?!", "??"])),
                          p.notes + tuple(Comment(t) for t in data.draw(st.lists(comment_text, max_size=1))))
                      for p in round_.plies)
        rounds.append(Round(round_.number, round_.deal, plies))
    text = write_record(type(record)(record.headers, tuple(rounds), record.notes))
    fast = parse_fast(text)
    assert fast is not None and fast == parse_record(text)
    assert replay_fast(fast) == readable_counts(text)


@SETTINGS
@given(st.sampled_from(CORPUS).flatmap(mutations))
def test_mutated_records_are_read_and_judged_the_same_on_both_paths(text):
    assert_same_reading(text)
    data = text.encode("utf-8", "surrogatepass")
    verdict = judge("m.azr", data)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        assert verdict.verdict == "invalid" and "UTF-8" in verdict.details["message"]
        return
    assert verdict == judge_readably("m.azr", decoded)


@pytest.mark.parametrize("edit, why", [
    (lambda t: t.replace("[%score ", "[%score 1", 1), "a false score"),
    (lambda t: t.replace('[Result "1-0"]', '[Result "0-1"]').replace('[Result "0-1"]', '[Result "1-1"]'),
     "a wrong result"),
    (lambda t: t[: t.rindex("round ")], "the record stops before the end with a result"),
    (lambda t: t + f"\nround {len(parse_record(t).rounds) + 1} deal BBBB BBBB BBBB BBBB BBBB\n",
     "a round after the end"),
    (lambda t: re.sub(r"\n1\. \S+", "\n1. 6K1", t, count=1), "a take from a factory the game lacks"),
])
def test_a_wrong_record_is_left_to_the_readable_replay_which_gives_the_verdict(edit, why):
    ludometer_games()
    text = edit(next(t for t in CORPUS if "ludometer" in t))
    record = parse_fast(text) or parse_record(text)
    assert replay_fast(record) is None, why
    assert judge("w.azr", text.encode("utf-8")) == judge_readably("w.azr", text)
    assert judge("w.azr", text.encode("utf-8")).verdict != "agrees", why


def test_the_fast_reader_defers_on_what_it_does_not_read_by_hand():
    ludometer_games()
    text = next(t for t in CORPUS if "ludometer" in t)
    for variant in (text.replace("\n1. ", "\n1.\n", 1), text.replace("[%start 0]", "[%start\n0]", 1),
                    text.replace('[Event "', '[ Event "', 1), text.replace("round 1 ", "round 01 ", 1)):
        assert parse_fast(variant) is None or parse_fast(variant) == parse_record(variant)
    assert parse_fast(text.replace("\n1. ", "\n1.", 1)) is None  # `1.5W3`: the grammar reads it
    assert parse_fast(text.replace("round 2 ", "round 3 ", 1)) is None
    with pytest.raises(RecordSyntaxError, match="this is round 2, not round 3"):
        parse_record(text.replace("round 2 ", "round 3 ", 1))


def random_game_deals(seed: int) -> list[tuple[list[list[int]], list[str]]]:
    """The deals and takes of a random 2-player game on Game, the bag running out and the lid poured in."""
    game, rng = Game(2), random.Random(seed)
    rounds = []
    while not game.is_over():
        game.deal(rng=rng)
        factories, takes = [f[:] for f in game.factories], []
        while game.phase == "offer":
            move = rng.choice(game.legal_moves())
            takes.append(str(move))
            game.play(move)
        rounds.append((factories, takes))
    return rounds


@pytest.mark.parametrize("seed", range(40))
def test_a_recorded_deal_on_fastgame_is_the_same_as_on_game_every_round(seed):
    game, fast = Game(2), FastGame(2)
    for factories, takes in random_game_deals(seed):
        texts = [game._text(f) for f in factories]
        game.deal(texts)
        fast.deal_given(factories)
        assert _fields(fast.to_game()) == _fields(game)
        for move in takes:
            game.play(move)
            fast.play(move)
    assert game.is_over() and fast.is_over() and fast.scores() == game.scores()


def _fields(game: Game) -> dict:
    from azul_reference import to_state

    return to_state(game)


@pytest.mark.parametrize("bag, lid, deal", [
    ([2, 20, 20, 20, 20], [0] * 5, ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]),  # DEAL-1: no such tiles in the bag
    ([20] * 5, [0] * 5, ["BBB", "YYYY", "RRRR", "KKKK", "WWWW"]),  # DEAL-1: a factory of 3 while tiles last
    ([20] * 5, [0] * 5, ["BBBB", "YYYY", "RRRR", "KKKK"]),  # not a deal of this game: a factory missing
    ([4, 4, 0, 0, 0], [0, 0, 12, 0, 0], ["RRRR", "BBBB", "YYYY", "RRRR", "RRRR"]),  # DEAL-2: the bag first
    ([1, 1, 0, 0, 0], [0, 0, 20, 20, 0], ["RRRR", "BYRR", "KKKK", "KKKK", "RRRR"]),  # DEAL-2: bag's 2 drawn first
    ([1, 1, 0, 0, 0], [0, 0, 9, 20, 0], ["BYRR", "RRRR", "KKKK", "KKKK", "RRRR"]),  # DEAL-2: the lid has 9 red
    ([5, 0, 0, 0, 0], [0, 0, 20, 20, 0], ["BBBB", "RRRR", "BRRR", "KKKK", "KKKK"]),  # DEAL-2: 5th blue too late
])
def test_a_deal_fastgame_refuses_is_refused_with_games_message_and_rule(bag, lid, deal):
    game, fast = Game(2), FastGame(2)
    game.bag, game.lid, fast.bag, fast.lid = bag[:], lid[:], bag[:], lid[:]
    with pytest.raises(AzulError) as slow:
        game.deal(deal)
    with pytest.raises(type(slow.value)) as quick:
        fast.deal_given([[text.count(c) for c in "BYRKW"] for text in deal])
    assert str(quick.value) == str(slow.value) and quick.value.rule == slow.value.rule


HEADERS = '[Players "3"]\n[Variant "colour"]\n[StartPlayer "2"]\n[Seat2 "Ana"]\n[Result "*"]\n\n'
DEAL = "round 1 deal BYKK RKWW BBWW YYKW YKWW BBBB RRRR\n"


@pytest.mark.parametrize("headers, deal", [
    # StartPlayer 2 and Seat2, checked before for 3 players, are wrong for 2 (the deal fits 2 players)
    (HEADERS.replace('[Players "3"]', '[Players "2"]'), DEAL.replace(" BBBB RRRR", "")),
    (HEADERS + '[Seat2 "Bo"]\n', DEAL),  # a header given twice, each already checked alone
    (HEADERS.replace('[Variant "colour"]\n', ""), DEAL),  # a required header missing
])
def test_headers_checked_before_are_checked_again_in_another_record(headers, deal):
    # the fast reader keeps the headers it has checked; a record whose headers are wrong together is refused
    # all the same (left to the grammar, which says why)
    two = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "1"]\n[Result "*"]\n\n' + DEAL.replace(" BBBB RRRR", "")
    for valid in (HEADERS + DEAL, two):  # every header of the cases below seen in a valid record
        assert parse_fast(valid) == parse_record(valid)
    assert parse_fast(headers + deal) is None
    with pytest.raises(RecordSyntaxError):
        parse_record(headers + deal)
    if '[Players "2"]' in headers:  # and with those headers right, it is read (not refused for its deal)
        fixed = headers.replace('[StartPlayer "2"]\n[Seat2 "Ana"]\n', '[StartPlayer "1"]\n')
        assert parse_fast(fixed + deal) == parse_record(fixed + deal)
