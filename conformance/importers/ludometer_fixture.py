"""Format `ludometer`: the recorded games of ludometer's parity fixture (web/player/test/fixtures/games.json.gz).

One gzipped JSON object; its `games` are complete two-player games, each a list of `moves` with the full
state before the move (`round`, `first_player`, `current_player`, `factories`, `scores`), the legal actions
and the action played, then the final `scores`, `outcome` (+1 seat 0 won, -1 seat 1, 0 shared) and `rounds`.
Its `cases` start from hand-made positions, which a record (always from a new game) cannot express: skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..readers import GZIP_MAGIC, InputError, JsonError, inflate_gzip, json_document, read_file
from .game import ImportedGame, ImportedRound, ImportProblem, integer, is_integer
from .ludometer_encoding import PLAYERS, RULE_DIFFERENCES, Rounds, deal

NAME = "ludometer"
SUMMARY = "ludometer's recorded games (games.json.gz: every state, legal move list, move and score)"
OUTCOME_WINNERS = {1: (0,), -1: (1,), 0: (0, 1)}
MAX_FIXTURE = 64 * 2**20  # inflated: one JSON document, read whole (the fixture's 30 games are 3 MB)


SUFFIXES = (".json", ".json.gz")


def read(path: Path) -> Iterator[ImportedGame | ImportProblem]:
    try:
        data = read_file(path, MAX_FIXTURE)
    except OSError as error:
        yield ImportProblem(path.name, "(file)", f"cannot be read: {error.strerror or error}")
        return
    except InputError as error:
        yield ImportProblem(path.name, "(file)", f"not a readable JSON or gzipped JSON file: {error}")
        return
    yield from read_data(path.name, data)


def read_data(name: str, data: bytes) -> Iterator[ImportedGame | ImportProblem]:
    """The games of a fixture file's bytes, gzipped or not (inflated under MAX_FIXTURE)."""
    try:
        document = json_document(inflate_gzip(data, MAX_FIXTURE) if data[:2] == GZIP_MAGIC else data)
    except (InputError, JsonError) as error:
        yield ImportProblem(name, "(file)", f"not a readable JSON or gzipped JSON file: {error}")
        return
    games = document.get("games") if isinstance(document, dict) else None
    if not isinstance(games, list):
        yield ImportProblem(name, "games", "missing: the file holds no list of games")
        return
    for number, game in enumerate(games, 1):
        label = f"{name}, game {number}"
        try:
            yield _game(label, game, number, len(games), name)
        except ImportProblem as problem:
            yield problem


def _field(obj: Any, key: str, name: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ImportProblem(name, where + key if not where else f"{where}.{key}", "missing")
    return obj[key]


def _scores(value: Any, name: str, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != PLAYERS:
        raise ImportProblem(name, where, f"expected {PLAYERS} scores, found {value!r}")
    return tuple(integer(s, name, where) for s in value)


def _same_integers(value: Any, scores: tuple[int, ...]) -> bool:
    return isinstance(value, list) and all(map(is_integer, value)) and tuple(value) == scores


def _game(name: str, game: Any, number: int, total: int, file_name: str) -> ImportedGame:
    moves = _field(game, "moves", name, "")
    if not isinstance(moves, list) or not moves:
        raise ImportProblem(name, "moves", "no moves: nothing to replay")
    rounds, current = Rounds(name), -1
    for index, move in enumerate(moves):
        where = f"moves[{index}]"
        state = _field(move, "state", name, where)
        round_index = integer(_field(state, "round", name, f"{where}.state"), name, f"{where}.state.round")
        if round_index != current:
            if rounds.offer is not None and not rounds.offer.empty:
                raise ImportProblem(name, f"{where}.state.round", f"round {round_index + 1} begins while tiles "
                                    f"of round {current + 1} are still on offer")
            if round_index != current + 1:
                raise ImportProblem(name, f"{where}.state.round", f"round index {round_index} follows "
                                    f"{current}: a round is missing")
            if rounds.offer is not None:
                rounds.close(_scores(_field(state, "scores", name, f"{where}.state"), name, f"{where}.state.scores"))
            current = round_index
            rounds.begin(deal(_field(state, "factories", name, f"{where}.state"), name, f"{where}.state.factories"),
                         integer(_field(state, "first_player", name, f"{where}.state"), name,
                                 f"{where}.state.first_player", 0, PLAYERS - 1))
        mover = integer(_field(state, "current_player", name, f"{where}.state"), name,
                        f"{where}.state.current_player", 0, PLAYERS - 1)
        action = _field(move, "action", name, where)
        rounds.take(mover, action, where, f"{where}.state.current_player")
        legal = move.get("legal")
        if isinstance(legal, list) and not any(is_integer(a) and a == action for a in legal):
            raise ImportProblem(name, f"{where}.action", f"{action} ({rounds.takes[-1]}) is not among the legal "
                                f"actions the record lists for this position")
    if not rounds.offer.empty:
        raise ImportProblem(name, f"moves[{len(moves) - 1}]", "the last round stops with tiles still on offer")
    rounds.close()
    return _finish(name, game, rounds.done, number, total, file_name)


def _finish(name: str, game: dict, rounds: list[ImportedRound], number: int, total: int,
            file_name: str) -> ImportedGame:
    terminal = game.get("is_terminal", True)
    if terminal is not True:
        raise ImportProblem(name, "is_terminal", f"{terminal!r}: the game was not played to the end (true expected)")
    final = _scores(_field(game, "scores", name, ""), name, "scores")
    final_state = game.get("final_state")
    if isinstance(final_state, dict) and "scores" in final_state and \
            not _same_integers(final_state["scores"], final):
        raise ImportProblem(name, "final_state.scores", f"{final_state['scores']} contradicts scores {list(final)}")
    outcome = _field(game, "outcome", name, "")
    # a number (the fixture writes 1.0), never a boolean: True == 1 would read `true` as "seat 0 won"
    winners = OUTCOME_WINNERS.get(outcome) if type(outcome) in (int, float) else None
    if winners is None:
        raise ImportProblem(name, "outcome", f"expected 1, -1 or 0, found {outcome!r}")
    best = max(final)
    if any(final[seat] != best for seat in winners):
        raise ImportProblem(name, "outcome", f"{outcome} names seat(s) {list(winners)} the winner(s), but the "
                                             f"final scores are {list(final)}")
    if "rounds" in game and (not is_integer(game["rounds"]) or game["rounds"] != len(rounds)):
        raise ImportProblem(name, "rounds", f"{game['rounds']}, but the moves span {len(rounds)} rounds")
    headers = {"Event": "ludometer parity fixture", "Source": f"ludometer {file_name}, game {number} of {total}",
               "Seat0": "uniform random", "Seat1": "uniform random"}
    if is_integer(game.get("seed")):
        headers["Seed"] = str(game["seed"])
    if is_integer(game.get("move_seed")):
        headers["X-MoveSeed"] = str(game["move_seed"])
    comments = ["Played to the end by a uniform random move picker on ludometer's Python engine and recorded "
                "with every state; imported by `azul import ludometer`. The scores after each round, the final "
                "scores and the winners are the source's."]
    if game.get("exhausted"):
        comments.append("The source ended this game because no tile was left to deal.")
    return ImportedGame(name, PLAYERS, tuple(rounds), headers, final, winners, RULE_DIFFERENCES, tuple(comments))
