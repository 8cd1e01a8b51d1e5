"""The in-process adapter for the reference engine: the one bridge from the suite to azul_reference.

Everything else in azul_conformance reaches the reference engine only through this `Engine`.
"""

from __future__ import annotations

import random
from typing import Any

import azul_reference as ref
from azul_reference.fast import FastGame
from azul_reference.moves import TAKE_OF_TEXT
from azul_reference.tiles import text_to_counts
from azul_reference.protocol import BadRequest, Server
from azul_reference.protocol import serve as serve_protocol

from .base import Capabilities, Engine, EngineInfo, GameRun, Rejected, CanonicalState

__all__ = ["ReferenceEngine", "TAKE_OF_TEXT", "serve_protocol", "new_reference_game_states", "play_logged_game",
           "play_random_game"]


class ReferenceEngine(Engine):
    def __init__(self, seed: int | None = None) -> None:
        self.game: ref.Game | None = None
        self.seed = seed
        self.rng = random.Random(seed)
        self.info = EngineInfo("azul-reference", ref.__version__, 1, Capabilities())

    def hello(self) -> EngineInfo:
        return self.info

    def restart_draws(self) -> None:
        """Its random deals drawn again from its seed: a case run on it draws the same tiles whatever ran
        before (the diagnosis's experiments, in any order and any share of processes)."""
        self.rng = random.Random(self.seed)

    def _game(self) -> ref.Game:
        if self.game is None:
            raise Rejected("bad_request", "no game yet: call new_game or load_state first")
        return self.game

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        try:
            self.game = ref.Game(players, variant, start_player)
        except ref.AzulError as error:
            raise Rejected(error.code, error.message, error.rule) from None
        return ref.to_state(self.game)

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        game = self._game()
        try:
            game.deal(factories, rng=self.rng)
        except ref.AzulError as error:
            raise Rejected(error.code, error.message, error.rule) from None
        return ref.to_state(game)

    def load_state(self, state: CanonicalState) -> CanonicalState:
        try:
            self.game = ref.from_state(state)
        except ref.AzulError as error:
            raise Rejected(error.code, error.message, error.rule) from None
        return ref.to_state(self.game)

    def legal_moves(self) -> list[str]:
        return [move.text for move in self._game().legal_moves()]

    def play(self, move: str) -> CanonicalState:
        game = self._game()
        try:
            game.play(move)
        except ref.AzulError as error:
            raise Rejected(error.code, error.message, error.rule) from None
        return ref.to_state(game)

    def state(self) -> CanonicalState:
        return ref.to_state(self._game())

    def play_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> GameRun:
        """The protocol server's own `play_game` (one implementation), in this process."""
        server = Server()
        server.rng = self.rng
        try:
            reply = server.cmd_play_game({"players": players, "variant": variant, "start_player": start_player,
                                           "steps": list(steps), "states": list(states), "moves": moves})
        except ref.AzulError as error:
            raise Rejected(error.code, error.message, error.rule) from None
        except BadRequest as error:
            raise Rejected("bad_request", str(error)) from None
        self.game = server.game
        refused = reply.get("refused")
        return GameRun(reply["played"], reply["states"], reply.get("moves", []),
                       None if refused is None else Rejected(refused["code"], refused["message"], refused.get("rule")))

    # -- the reference's own walk for a fuzz game: no state document but where one is asked for ----------------

    def play_quietly(self, move: str) -> tuple[str, int]:
        """Play a move the reference lists as legal; the phase and round after it (no state document)."""
        game = self._game()
        game.play(move)
        return game.phase, game.round

    def deal_quietly(self, factories: list[str]) -> tuple[str, int]:
        """Deal a drawable deal; the phase and round after it (no state document)."""
        game = self._game()
        game.deal(factories, rng=self.rng)
        return game.phase, game.round


def play_logged_game(players: int, variant: str, seed: int,
                     max_rounds: int = 100) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The same game as play_random_game(players, variant, seed), with its log: every state (from new_game
    on) and every step's move (None for a deal). For game records and docs."""
    engine = ReferenceEngine(seed)  # deals from random.Random(seed), as in play_random_game
    picks = random.Random(f"{seed}/moves")
    states, moves = [engine.new_game(players, variant)], []
    while states[-1]["phase"] != "over":
        if states[-1]["phase"] == "deal":
            if states[-1]["round"] > max_rounds:
                break
            states.append(engine.deal())
            moves.append(None)
        else:
            legal = engine.legal_moves()
            moves.append(legal[picks.randrange(len(legal))])
            states.append(engine.play(moves[-1]))
    return states, moves


def new_reference_game_states(players: int, variant: str, seed: int) -> list[dict[str, Any]]:
    """The states of one random game on the reference engine (for examples and docs)."""
    return play_logged_game(players, variant, seed)[0]


def play_random_game(players: int, variant: str, seed: int, max_rounds: int = 100) -> dict[str, Any]:
    """One whole game on the reference engine, fast (no state documents on the way), for `azul simulate`.

    The engine deals with a generator seeded by `seed`; each move is picked uniformly among the legal moves
    by a second generator derived from it. The game stops early, unfinished, before a deal of a round past
    `max_rounds`. The coloured wall is played on the engine's fast path (azul_reference.fast), the same game
    (tests/test_engine_fast_game.py), in about two thirds of the time.
    """
    game = FastGame(players) if variant == "colour" else ref.Game(players, variant)
    deals, picks = random.Random(seed), random.Random(f"{seed}/moves")
    moves = 0
    while not game.is_over():
        if game.phase == ref.DEAL:
            if game.round > max_rounds:
                break
            game.deal(rng=deals)
        else:
            legal = game.legal_moves()
            game.play(legal[picks.randrange(len(legal))])
            moves += 1
    return {"scores": game.scores(), "winners": game.winners, "rounds": game.round, "moves": moves,
            "finished": game.is_over()}


_COUNTS: dict[str, list[int]] = {}  # a factory's text -> its tiles counted by colour (a few hundred texts)


class FastReplayGame:
    """A coloured-wall game on the reference engine's fast path (azul_reference.fast.FastGame), driven by recorded
    deals and takes, for replaying recorded games in bulk (records/fast_replay.py). It raises whatever the engine
    raises for a step the rules refuse; the caller then replays the record on ReferenceEngine for the verdict."""

    __slots__ = ("game",)

    def __init__(self, players: int, start_player: int) -> None:
        self.game = FastGame(players, start_player)

    def deal(self, factories: tuple[str, ...]) -> None:
        counts = []
        for text in factories:
            tiles = _COUNTS.get(text)
            if tiles is None:
                tiles = text_to_counts(text)  # (KeyError for a letter that is no colour: refused)
                if len(_COUNTS) < 4096:  # bounded: 625 texts of up to 4 tiles, and whatever a record makes up
                    _COUNTS[text] = tiles
            counts.append(tiles)
        self.game.deal_given(counts)  # (the lists are read, never changed)

    def play(self, move: str) -> None:
        self.game.play(ref.Take.parse(move))

    @property
    def phase(self) -> str:
        return self.game.phase

    @property
    def scores(self) -> list[int]:
        return self.game.score

    @property
    def winners(self) -> list[int] | None:
        return self.game.winners

    @property
    def start_player(self) -> int:
        return self.game.start_player

    def state(self) -> CanonicalState:
        """The canonical state (for a claim that needs more than scores, winners or the start player)."""
        return ref.to_state(self.game.to_game())
