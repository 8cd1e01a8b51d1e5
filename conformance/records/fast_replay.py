"""The fast replay of a record: the coloured-wall game on the reference engine's fast path, no state documents.

`replay_fast(record)` gives (moves, claims checked) when the record replays to the end with every claim true
and its Result right, and None otherwise: the grey wall (its placements are the readable Game's), a step the
engine refuses, a false claim, a record that stops where a step is due or goes on after the game. None is not a
verdict: the caller then replays the record with replay.replay on the readable engine, which says what is
wrong, where, and which rule decides (batch.replay_text). So a record that agrees agrees on both paths, with the
same counts, and every failure a user sees is the readable replay's (tests/test_records_fast_replay.py).
"""

from __future__ import annotations

from ..engines.reference import TAKE_OF_TEXT, FastReplayGame
from .claims import claim_mismatch
from .model import DECLARATIONS, Claim, Note, Record

__all__ = ["replay_fast"]


class _Wrong(Exception):
    """A claim does not hold here (or needs the readable replay to say so)."""


def _check(notes: tuple[Note, ...], game: FastReplayGame) -> int:
    checked = 0
    for note in notes:
        if type(note) is not Claim or note.kind in DECLARATIONS:
            continue
        kind, args = note.kind, note.args
        if kind == "score":
            holds = list(args) == game.scores
        elif kind == "final":
            holds = game.phase == "over" and list(args) == game.scores
        elif kind == "winners":
            holds = game.phase == "over" and sorted(args) == sorted(game.winners or ())
        elif kind == "start":
            holds = args[0] == game.start_player
        else:  # a board's wall, lines or floor, the centre: read from the state document (seldom claimed)
            holds = claim_mismatch(note, game.state()) is None
        if not holds:
            raise _Wrong
        checked += 1
    return checked


def replay_fast(record: Record) -> tuple[int, int] | None:
    """(moves, claims checked) of a record that agrees with our rules, or None: replay it with replay.replay."""
    if record.variant != "colour":
        return None
    try:
        game = FastReplayGame(record.players, record.start_player)
        fast, takes = game.game, TAKE_OF_TEXT  # the engine itself, once per record: a take is its inner loop
        claims = _check(record.notes, game)
        moves = 0
        for round_ in record.rounds:
            if game.phase != "deal" or round_.placements:
                return None
            deal = round_.deal
            game.deal(deal.factories)
            if deal.notes:
                claims += _check(deal.notes, game)
            for ply in round_.plies:
                if fast.phase != "offer":
                    return None
                move = takes.get(ply.move)
                if move is None:  # not a take of the notation: the readable replay says what it is
                    return None
                fast.play(move)
                if ply.notes:
                    claims += _check(ply.notes, game)
            moves += len(round_.plies)
        result = record.header("Result")
        if result is not None and result != "*":
            if game.phase != "over":
                return None
            winners = set(game.winners or ())
            if result != "-".join("1" if seat in winners else "0" for seat in range(record.players)):
                return None
    except Exception:  # noqa: BLE001 - a refusal (or anything else): the readable replay gives the verdict
        return None
    return moves, claims
