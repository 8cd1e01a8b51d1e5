"""The one interface through which the suite reaches any engine, the reference included.

An adapter speaks in protocol-v1 terms: canonical `azul-state/1` dicts and compact move strings.
The in-process reference adapter and the subprocess adapter both implement `Engine`, so nothing in the
suite can depend on the reference engine's internals.

Which stage raises what:
    Rejected         the engine answered `ok: false` (illegal_move, bad_request, unsupported, internal)
    EngineCrash      the process exited, printed non-JSON, or answered with the wrong id
    EngineTimeout    no answer before the request's deadline
All three derive from EngineError; a verdict is built from them, never a traceback.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable

from ..notation import PLAYER_COUNTS, VARIANTS
from ..readers import safe_text

MESSAGE_LIMIT = 1000  # characters of an engine's message kept (clipped, saying so): inside a case's message too
STDERR_LIMIT = 4096  # characters of the tail of an engine's stderr kept
CanonicalState = dict[str, Any]  # an azul-state/1 document (docs/reference/state.md), as JSON gives it


class EngineError(Exception):
    """Something an engine did (or failed to do) while answering a request."""

    def __init__(self, message: str, *, request: dict | None = None, stderr: str = "") -> None:
        # bounded here, where an engine's words enter the suite (a 2 MB refusal of hello is clipped too)
        message, stderr = safe_text(message, MESSAGE_LIMIT), safe_text(stderr[-STDERR_LIMIT:])
        super().__init__(message)
        self.message = message
        self.request = request
        self.stderr = stderr


class Rejected(EngineError):
    """The engine refused a request (`ok: false`): the error code and the rule it names."""

    def __init__(self, code: str, message: str = "", rule: str | None = None, **kwargs: Any) -> None:
        super().__init__(message or code, **kwargs)
        self.code = safe_text(code, 40)
        self.rule = None if rule is None else safe_text(rule, 40)


class EngineCrash(EngineError):
    """The engine exited, printed something that is not a protocol reply, or broke the protocol."""

    def __init__(self, message: str, *, exit_code: int | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.exit_code = exit_code


class EngineTimeout(EngineError):
    """The engine did not answer before the deadline."""


@dataclass(frozen=True)
class Capabilities:
    players: tuple[int, ...] = PLAYER_COUNTS
    variants: tuple[str, ...] = VARIANTS
    load_state: bool = True
    deal: bool = True
    play_game: bool = True  # optional in protocol v1: a whole game in one request (Engine.play_game)

    @classmethod
    def from_json(cls, data: dict) -> "Capabilities":
        return cls(
            players=tuple(data.get("players", ())),
            variants=tuple(data.get("variants", ())),
            load_state=bool(data.get("load_state", False)),
            deal=bool(data.get("deal", False)),
            play_game=bool(data.get("play_game", False)),
        )

    def to_json(self) -> dict:
        data = {"players": list(self.players), "variants": list(self.variants),
                "load_state": self.load_state, "deal": self.deal}
        if self.play_game:  # optional in the protocol: named only when offered
            data["play_game"] = True
        return data

    def missing(self, requires: list[str] | tuple[str, ...], players: int | None = None,
                variant: str | None = None) -> list[str]:
        """What of `requires` (capability names such as "grey", "load_state", "deal", "players:3") is not offered."""
        absent = []
        for need in requires:
            if need in VARIANTS:
                ok = need in self.variants
            elif need.startswith("players:"):
                ok = int(need.split(":", 1)[1]) in self.players
            else:
                ok = bool(getattr(self, need, False))
            if not ok:
                absent.append(need)
        if players is not None and players not in self.players:
            absent.append(f"players:{players}")
        if variant is not None and variant not in self.variants:
            absent.append(variant)
        return absent

    def lacking(self) -> str:
        """What makes the hello offer no game at all ("no player count", "no wall"), or "": refused at start,
        since every case would be skipped and the run would judge nothing."""
        return " and ".join(what for what, offered in (("no player count", self.players), ("no wall", self.variants))
                            if not offered)

    def offers(self, request: dict | None) -> str:
        """What of its own hello `request` asks, worded ("a game of 2 players on the colour wall"), or "" when
        the request asks something the hello does not promise (protocol.md's `unsupported` table): a player
        count or wall not offered, given factories without `deal`, a loader without `load_state`, a position
        outside phase offer (an engine may not hold one: bkase-azul-rs deals only inside its own flow), or a
        query (an adapter may be unable to follow its engine). `unsupported` to what the hello offers is no
        skip: the engine said it could."""
        if not isinstance(request, dict):
            return ""
        cmd = request.get("cmd")
        if cmd in ("new_game", "play_game"):
            players, wall = request.get("players"), request.get("variant", "colour")
            if players in self.players and wall in self.variants and (cmd == "new_game" or self.play_game):
                return f"{cmd} for {players} players on the {wall} wall"
        elif cmd == "deal" and request.get("factories") is None:
            return "a deal without factories (every engine deals by itself)"
        elif cmd == "deal" and self.deal:
            return "a deal of given factories (its hello offers deal)"
        elif cmd == "load_state" and self.load_state:
            state = request.get("state")
            boards = state.get("boards") if isinstance(state, dict) else None
            players = len(boards) if isinstance(boards, list) else None
            wall = state.get("variant", "colour") if isinstance(state, dict) else None
            if players in self.players and wall in self.variants and state.get("phase") == "offer":
                return f"load_state of a position in phase {state['phase']}, {players} players on the {wall} wall"
        return ""


@dataclass
class GameRun:
    """An engine's answer to a whole game (Engine.play_game)."""

    played: int  # steps played: all of them, or those before the refused one
    states: list[CanonicalState]  # after each asked step count reached, in order
    moves: list[str]  # the legal moves before each move step tried (when asked), space-separated
    refused: Rejected | None = None  # why step `played` was refused


@dataclass
class EngineInfo:
    name: str
    version: str
    protocol: int
    capabilities: Capabilities = field(default_factory=Capabilities)


class Engine(ABC):
    """An Azul engine as the suite sees it. Every method maps to one protocol-v1 request."""

    info: EngineInfo

    @abstractmethod
    def hello(self) -> EngineInfo: ...

    @abstractmethod
    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState: ...

    @abstractmethod
    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        """Fill the factories: with the given contents, or (None) by the engine's own draw."""

    @abstractmethod
    def load_state(self, state: CanonicalState) -> CanonicalState: ...

    @abstractmethod
    def legal_moves(self) -> list[str]: ...

    @abstractmethod
    def play(self, move: str) -> CanonicalState:
        """Play a take (`3K4`) or a grey-wall placement (`2@4`); raises Rejected when it is refused."""

    @abstractmethod
    def state(self) -> CanonicalState: ...

    def play_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> GameRun:
        """A whole game at once: a new game, then each step (a move, or a deal as its list of factories) until one
        is refused; the state after each step count in `states` (0: the new game), and with `moves` the legal
        moves before each move step tried (one string each, the moves separated by spaces). This is the
        protocol's optional `play_game` request; here, for an engine without it, the same answer built from the
        single requests."""
        wanted = set(states)
        state = self.new_game(players, variant, start_player)
        run = GameRun(0, [state] if 0 in wanted else [], [])
        for step in steps:
            try:
                if isinstance(step, str):
                    if moves:
                        run.moves.append(" ".join(self.legal_moves()))
                    state = self.play(step)
                else:
                    state = self.deal(list(step))
            except Rejected as error:
                run.refused = error
                break
            run.played += 1
            if run.played in wanted:
                run.states.append(state)
        return run

    def send_game(self, players: int, variant: str, start_player: int, steps: list[str | list[str]],
                  states: list[int] = (), moves: bool = False) -> Callable[[], GameRun]:
        """play_game, with its answer given by the function returned: a subprocess engine plays the game while
        its caller prepares the next one. Here the game is played at once (an error is raised when the answer
        is asked for, as it would be then)."""
        try:
            run = self.play_game(players, variant, start_player, steps, states, moves)
        except EngineError as error:
            failure = error  # `error` itself is unbound when the except clause ends

            def fail() -> GameRun:
                raise failure
            return fail
        return lambda: run

    def begin_case(self, case_id: str) -> None:
        """A case starts: the requests until end_case are its own (a recorded session files them under it)."""

    def end_case(self) -> str | None:
        """The case has ended: why it cannot be judged from what this engine answered (a recording played back
        that does not hold the case's requests), or None."""
        return None

    def restart(self) -> None:
        """Start afresh after a crash (subprocess adapters); in-process adapters need nothing."""

    def close(self) -> None:
        """Release the engine (end the process)."""

    def stderr_tail(self) -> str:
        """The last lines the engine wrote on stderr, for reports."""
        return ""

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
