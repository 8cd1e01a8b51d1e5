"""Writing game records: a Record as text, and a Record made from a played game.

The layout is fixed, so writing, reading and writing again gives the same text: headers one per line, a
blank line, the notes before the first round, then each round as `round N deal ...`, one line per turn of
takes (`1. 3K4 CBF`), the tiling placements (`tiling 0: 2@4 1: 1@5`), and the notes that close the round
(typically `[%score 12 7]`) one per line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .model import Claim, Deal, Header, Note, Ply, Record, Round

__all__ = ["write_record", "record_from_states", "HEADER_ORDER"]

HEADER_ORDER = ("Event", "Site", "Date", "Annotator", "Source", "Players", "Seat0", "Seat1", "Seat2", "Seat3",
                "Variant", "StartPlayer", "Seed", "Result")


def _inline(notes: Sequence[Note]) -> str:
    return "".join(f" {note}" for note in notes)


def _round_lines(round_: Round, players: int) -> list[str]:
    closing = round_.steps()[-1].notes
    deal_notes = round_.deal.notes if round_.plies or round_.placements else ()
    lines = [f"round {round_.number} {round_.deal}{_inline(deal_notes)}"]
    for index, ply in enumerate(round_.plies):
        notes = ply.notes if (index + 1 < len(round_.plies) or round_.placements) else ()
        if index % players == 0:
            lines.append(f"{index // players + 1}.")
        lines[-1] += f" {ply}{_inline(notes)}"
    if round_.placements:
        text, seat = "tiling", None
        for index, ply in enumerate(round_.placements):
            if ply.seat != seat:
                seat = ply.seat
                text += f" {seat}:"
            text += f" {ply}{_inline(ply.notes if index + 1 < len(round_.placements) else ())}"
        lines.append(text)
    lines += [str(note) for note in closing]
    return lines


def write_record(record: Record) -> str:
    """The record's text; `parse_record(write_record(r))` equals r, and writing that again gives the same text."""
    lines = [str(header) for header in record.headers]
    if record.notes:
        lines += [""] + [str(note) for note in record.notes]
    for round_ in record.rounds:
        lines += [""] + _round_lines(round_, record.players)
    return "\n".join(lines) + "\n"


def _headers(first: dict[str, Any], last: dict[str, Any], extra: Mapping[str, str] | None) -> tuple[Header, ...]:
    values = dict(extra or {})
    values.update(Players=str(first["players"]), Variant=first["variant"], StartPlayer=str(first["start_player"]))
    if last.get("phase") == "over":
        winners = set(last.get("winners") or [])
        values["Result"] = "-".join("1" if seat in winners else "0" for seat in range(first["players"]))
    else:
        values.setdefault("Result", "*")
    ordered = sorted(values, key=lambda n: (HEADER_ORDER.index(n) if n in HEADER_ORDER else len(HEADER_ORDER), n))
    return tuple(Header(name, str(values[name])) for name in ordered)


def _closing_claims(state: dict[str, Any]) -> tuple[Note, ...]:
    scores = tuple(board["score"] for board in state["boards"])
    if state.get("phase") == "over":
        return Claim("final", scores), Claim("winners", tuple(state.get("winners") or ()))
    return (Claim("score", scores),)


def record_from_states(states: Sequence[dict[str, Any]], moves: Sequence[str | None],
                       headers: Mapping[str, str] | None = None, *, claims: bool = True) -> Record:
    """The record of a played game.

    `states[0]` is the state `new_game` returned; `states[i + 1]` is the state after step i; `moves[i]` is the
    move string of step i, or None when step i was a deal (its factories are read from `states[i + 1]`).
    `headers` adds headers such as Event, Date, Seat0, Seed (Players, Variant, StartPlayer and Result are
    taken from the states). With `claims`, each round ends with `[%score ...]` and the game with
    `[%final ...] [%winners ...]`, so that replaying the record checks every round's scores.
    """
    if len(states) != len(moves) + 1:
        raise ValueError(f"need one state more than steps: {len(states)} states for {len(moves)} steps")
    rounds: list[Round] = []
    for index, move in enumerate(moves):
        before, after = states[index], states[index + 1]
        if move is None:
            deal = Deal(tuple(after["factories"]))
            rounds.append(Round(len(rounds) + 1, deal))
            continue
        if not rounds:
            raise ValueError(f"step {index} ({move!r}) comes before the first deal")
        current = rounds[-1]
        if "@" in move:
            current = Round(current.number, current.deal, current.plies,
                            current.placements + (Ply(move, seat=before["turn"]),))
        else:
            current = Round(current.number, current.deal, current.plies + (Ply(move),), current.placements)
        rounds[-1] = current
    if claims:
        rounds = _with_round_claims(rounds, states, moves)
    return Record(_headers(states[0], states[-1], headers), tuple(rounds))


def _with_round_claims(rounds: list[Round], states: Sequence[dict[str, Any]],
                       moves: Sequence[str | None]) -> list[Round]:
    """Each round's last step gets the claims of the state that follows it."""
    deal_steps = [i for i, move in enumerate(moves) if move is None] + [len(moves)]
    result = []
    for round_, end in zip(rounds, deal_steps[1:]):
        notes = _closing_claims(states[end])
        if round_.placements:
            last = round_.placements[-1]
            round_ = Round(round_.number, round_.deal, round_.plies,
                           round_.placements[:-1] + (Ply(last.move, last.annotation, notes, last.seat),))
        elif round_.plies:
            last = round_.plies[-1]
            round_ = Round(round_.number, round_.deal, round_.plies[:-1] + (Ply(last.move, last.annotation, notes),))
        else:
            round_ = Round(round_.number, Deal(round_.deal.factories, notes))
        result.append(round_)
    return result
