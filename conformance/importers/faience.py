"""Format `faience`: the Faïence dataset's JSON Lines records (`faience-game/1`, ludometer's web player).

One game per line (web/ingest/DATASET.md and verify.js in ludometer): `seed`, `human_seat`, `moves`
(`ply`, `player`, `action` in ludometer's encoding), `deals` (per round: `round` from 0, five `factories` as
colour counts, `bag` and `lid` counts after the deal) and `final` (`finished`, `scores`, `outcome` one of
human/ai/draw, `rounds`). The records carry no running scores: only the final scores and outcome are claims.
A game abandoned before its end (`finished: false`) becomes a record that stops early, its result `*`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..readers import InputError, JsonError, data_lines, file_lines, json_document, strip_bom
from .game import ImportedGame, ImportedRound, ImportProblem, integer, is_integer
from .ludometer_encoding import PLAYERS, RULE_DIFFERENCES, Rounds, deal

NAME = "faience"
SUMMARY = "the Faïence dataset of human-vs-net games (faience-game/1 JSON Lines, one game per line)"
FORMAT = "faience-game/1"
DIFFERENCES = RULE_DIFFERENCES + (
    ("END-6", "the dataset's outcome compares scores only: equal scores are recorded as a draw even when one "
              "player has more complete rows"),
)


SUFFIXES = (".jsonl", ".jsonl.gz")


def read(path: Path) -> Iterator[ImportedGame | ImportProblem]:
    """Line by line (JSON Lines: split on \\n alone), so that memory stays at one game however big the file."""
    return _games(path.name, file_lines(path))


def read_data(name: str, data: bytes) -> Iterator[ImportedGame | ImportProblem]:
    """The same for a file's bytes (a member of an archive)."""
    return _games(name, data_lines(data))


def _games(file_name: str, lines: Iterator[bytes]) -> Iterator[ImportedGame | ImportProblem]:
    number = 0
    try:
        for number, data in enumerate(lines, 1):
            yield from _line(file_name, number, data)
    except OSError as error:
        yield ImportProblem(file_name, "(file)", f"cannot be read: {error.strerror or error}")
    except InputError as error:
        yield ImportProblem(f"{file_name}, line {number + 1}" if number else file_name, "(file)", str(error))


def read_line(file_name: str, number: int, data: bytes) -> Iterator[ImportedGame | ImportProblem]:
    """The game of line `number` of a file (its bytes without the newline): for the import on N processes."""
    return _line(file_name, number, data)


def _line(file_name: str, number: int, data: bytes) -> Iterator[ImportedGame | ImportProblem]:
    name = f"{file_name}, line {number}"
    try:
        line = data.decode("utf-8")
    except UnicodeDecodeError as error:
        yield ImportProblem(name, "(line)", f"not UTF-8 text: byte {error.start + 1} of the line")
        return
    if number == 1:
        line = strip_bom(line)
    if not line.strip():
        return
    try:
        raw = json_document(line)
    except JsonError as error:
        where = f" at column {error.column}" if error.column else ""
        yield ImportProblem(name, "(line)", f"not a JSON object: {error}{where} (a truncated line?)")
        return
    try:
        yield _game(name, raw, file_name, number)
    except ImportProblem as problem:
        yield problem


def _get(obj: Any, path: str, name: str) -> Any:
    value = obj
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            raise ImportProblem(name, path, "missing")
        value = value[key]
    return value


def _clean(value: Any, limit: int = 64) -> str:
    """A source string fit for a header: printable, one line, bounded."""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", str(value))[:limit].strip()


def _rounds(raw: dict, name: str) -> list[ImportedRound]:
    deals = _get(raw, "deals", name)
    if not isinstance(deals, list) or not deals:
        raise ImportProblem(name, "deals", "no deals: a replay needs every round's factories")
    dealt = [_deal(deals, index, name) for index in range(len(deals))]
    moves = _get(raw, "moves", name)
    if not isinstance(moves, list) or not moves:
        raise ImportProblem(name, "moves", "no moves: nothing to replay")
    rounds = Rounds(name)
    rounds.begin(dealt[0])
    for index, move in enumerate(moves):
        where = f"moves[{index}]"
        if rounds.offer.empty:
            rounds.close()
            if len(rounds.done) == len(deals):
                raise ImportProblem(name, "deals", f"{len(deals)} deals, but the takes from {where} on need another")
            rounds.begin(dealt[len(rounds.done)])
        if not isinstance(move, dict):
            raise ImportProblem(name, where, f"expected an object with ply, player and action, found {move!r}")
        if not is_integer(move.get("ply")) or move.get("ply") != index + 1:
            raise ImportProblem(name, f"{where}.ply", f"expected ply {index + 1}, found {move.get('ply')!r}")
        rounds.take(integer(move.get("player"), name, f"{where}.player", 0, PLAYERS - 1), move.get("action"), where,
                    f"{where}.player")
    rounds.close()
    if len(rounds.done) != len(deals):
        raise ImportProblem(name, "deals", f"{len(deals)} deals, but the takes span {len(rounds.done)} rounds")
    return rounds.done


def _deal(deals: list, index: int, name: str) -> list[tuple[int, ...]]:
    where, dealt = f"deals[{index}]", deals[index]
    if not isinstance(dealt, dict):
        raise ImportProblem(name, where, f"expected an object with round and factories, found {dealt!r}")
    if not is_integer(dealt.get("round")) or dealt.get("round") != index:
        raise ImportProblem(name, f"{where}.round", f"expected round index {index}, found {dealt.get('round')!r}")
    return deal(dealt.get("factories"), name, f"{where}.factories")


def _game(name: str, raw: Any, file_name: str, line: int) -> ImportedGame:
    if not isinstance(raw, dict):
        raise ImportProblem(name, "(line)", "not a JSON object")
    if not isinstance(raw.get("format", FORMAT), str) or raw.get("format", FORMAT) != FORMAT:
        raise ImportProblem(name, "format", f"{raw['format']!r}: this importer reads {FORMAT!r}")
    human = integer(_get(raw, "human_seat", name), name, "human_seat", 0, PLAYERS - 1)
    rounds = _rounds(raw, name)
    finished = _get(raw, "final.finished", name)
    scores = _get(raw, "final.scores", name)
    if not isinstance(scores, list) or len(scores) != PLAYERS or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise ImportProblem(name, "final.scores", f"expected {PLAYERS} integer scores, found {scores!r}")
    scores = tuple(scores)
    final = winners = None
    comments = ["A game between a person and ludometer's net on the Faïence web player, from the public "
                "dataset (CC0); imported by `azul import faience`."]
    if finished is not True and finished is not False:
        raise ImportProblem(name, "final.finished", f"expected true or false, found {finished!r}")
    if finished is True:
        rounds_field = raw["final"].get("rounds")
        if rounds_field is not None and (not is_integer(rounds_field) or rounds_field != len(rounds)):
            raise ImportProblem(name, "final.rounds", f"{rounds_field}, but the deals and takes span {len(rounds)}")
        final = scores
        winners = _winners(raw["final"].get("outcome"), scores, human, name)
    else:
        # Abandoned: the scores stand as they were after the last take (round scores change only at tilings).
        rounds[-1] = ImportedRound(rounds[-1].factories, rounds[-1].start, rounds[-1].takes, scores)
        comments.append("The game was abandoned before its end (final.finished is false).")
    headers = {"Event": "Faïence human-vs-net game", "Source": f"Faïence dataset {file_name}, line {line}",
               f"Seat{human}": "human", f"Seat{1 - human}": "net"}
    net = raw.get("net") if isinstance(raw.get("net"), dict) else {}
    if net.get("run") or net.get("checkpoint"):
        headers[f"Seat{1 - human}"] = _clean(f"net {net.get('run') or ''} {net.get('checkpoint') or ''}")
    if is_integer(raw.get("seed")):
        headers["Seed"] = str(raw["seed"])
    date = re.match(r"(\d{4})-(\d\d)-(\d\d)", str(raw.get("created_at") or raw.get("received_at") or ""))
    if date:
        headers["Date"] = ".".join(date.groups())
    if type(raw.get("think_time_s")) in (int, float):
        headers["X-ThinkTime"] = f"{raw['think_time_s']} s"
    return ImportedGame(name, PLAYERS, tuple(rounds), headers, final, winners, DIFFERENCES, tuple(comments))


def _winners(outcome: Any, scores: tuple[int, ...], human: int, name: str) -> tuple[int, ...]:
    seats = {"human": (human,), "ai": (1 - human,), "draw": (0, 1)}.get(outcome) if isinstance(outcome, str) else None
    if seats is None:
        raise ImportProblem(name, "final.outcome", f"expected human, ai or draw, found {outcome!r}")
    by_scores = {True: (human,), False: (1 - human,)}.get(scores[human] > scores[1 - human]) \
        if scores[0] != scores[1] else (0, 1)
    if seats != by_scores:
        raise ImportProblem(name, "final.outcome", f"{outcome!r} contradicts the final scores {list(scores)} "
                                                   f"(human in seat {human})")
    return seats
