"""Protocol v1, one class per message: the request a client sends and the reply it must get back.

The wire name of a request is derived from its class (`NewGame` -> `new_game`), so the table in
docs/reference/protocol.md, the
JSON Schema in spec/schema/protocol.schema.json and this module cannot drift apart silently: the tests validate
every request built here and every reply the reference server gives against that schema.

`check_reply` is the check the subprocess adapter applies to every reply: the reply's structure by hand (cheap),
and every state against the published state schema, compiled once (about 0.1 ms a state; jsonschema's full
validator would take 2 ms). It returns a problem description or None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar

import fastjsonschema
from fastjsonschema import JsonSchemaValueException

from ..notation import ERROR_CODES
from ..schemas import notation_only, schema, validator as schema_validator

PROTOCOL = 1
STATE_FIELDS = {"format": str, "variant": str, "players": int, "round": int, "phase": str, "turn": int,
                "start_player": int, "factories": list, "centre": str, "bag": str, "lid": str, "boards": list}


def wire_name(cls: type) -> str:
    """`NewGame` -> `new_game`, `LegalMoves` -> `legal_moves`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


@dataclass(frozen=True)
class Request:
    """A protocol-v1 request; subclasses are the commands, their fields the request's fields."""

    reply: ClassVar[str] = "none"  # what an ok reply carries: hello, state, moves or none

    @classmethod
    def cmd(cls) -> str:
        return wire_name(cls)

    def to_json(self, request_id: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {} if request_id is None else {"id": request_id}
        data["cmd"] = self.cmd()
        # shallow (not dataclasses.asdict, which deep-copies a whole game's steps for nothing)
        data.update({f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None})
        return data


@dataclass(frozen=True)
class Hello(Request):
    protocol: int = PROTOCOL
    reply: ClassVar[str] = "hello"


@dataclass(frozen=True)
class NewGame(Request):
    players: int = 2
    variant: str = "colour"
    start_player: int = 0
    reply: ClassVar[str] = "state"


@dataclass(frozen=True)
class Deal(Request):
    factories: list[str] | None = None  # None: the engine draws the deal itself
    reply: ClassVar[str] = "state"


@dataclass(frozen=True)
class LoadState(Request):
    state: dict[str, Any] | None = None
    reply: ClassVar[str] = "state"


@dataclass(frozen=True)
class LegalMoves(Request):
    reply: ClassVar[str] = "moves"


@dataclass(frozen=True)
class Play(Request):
    move: str = ""
    reply: ClassVar[str] = "state"


@dataclass(frozen=True)
class State(Request):
    reply: ClassVar[str] = "state"


@dataclass(frozen=True)
class PlayGame(Request):
    """Optional (capability play_game): a new game and its steps (moves, and deals as lists) in one request."""

    players: int = 2
    variant: str = "colour"
    start_player: int = 0
    steps: list | None = None
    states: list[int] | None = None  # step counts after which the reply gives the state (0: the new game)
    moves: bool = False
    reply: ClassVar[str] = "game"


@dataclass(frozen=True)
class Quit(Request):
    """The one request without an id and without a reply: the engine exits with status 0."""


REQUESTS: dict[str, type[Request]] = {cls.cmd(): cls for cls in (Hello, NewGame, Deal, LoadState, LegalMoves,
                                                                  Play, State, PlayGame, Quit)}


# -- the cheap structural check of a reply ------------------------------------------------------------------

def check_reply(reply: Any, request: dict[str, Any], kind: str) -> str | None:
    """What is wrong with `reply` as the answer to `request` (None when it is well formed)."""
    if not isinstance(reply, dict):
        return f"expected a JSON object, got {type(reply).__name__}"
    if "id" not in reply or reply["id"] != request.get("id") or isinstance(reply["id"], bool):
        return f"reply id {reply.get('id')!r} does not echo the request id {request.get('id')!r}"
    ok = reply.get("ok")
    if not isinstance(ok, bool):
        return f"`ok` must be true or false, got {ok!r}"
    if not ok:
        return _error_problem(reply.get("error"))
    return _ok_problem(reply, kind)


def _error_problem(error: Any) -> str | None:
    if not isinstance(error, dict) or not isinstance(error.get("code"), str):
        return f"`ok: false` needs an `error` object with a `code`, got {error!r}"
    if error["code"] not in ERROR_CODES:
        return f"error code {error['code']!r} is not one of {', '.join(ERROR_CODES)}"
    for name in ("message", "rule"):  # optional, but never null (protocol.schema.json)
        if name in error and not isinstance(error[name], str):
            return f"error.{name} must be a string when present (leave it out otherwise), got {error[name]!r}"
    return None


def _ok_problem(reply: dict, kind: str) -> str | None:
    if kind == "state":
        return state_shape_problem(reply.get("state")) or state_schema_problem(reply["state"])
    if kind == "moves":
        moves = reply.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            return f"`moves` must be a list of strings, got {moves!r}"[:300]
        odd = [m for m in moves if not move_pattern().match(m)]
        if odd:
            return f"`moves` holds {odd[0]!r}, which is not a move in the notation (3K4, CBF, 2@4)"[:300]
        return None
    if kind == "game":
        return game_shape_problem(reply)
    if kind == "hello":
        for name, kind_ in (("name", str), ("version", str), ("protocol", int), ("capabilities", dict)):
            if not isinstance(reply.get(name), kind_):
                return f"hello reply: `{name}` must be a {kind_.__name__}, got {reply.get(name)!r}"
    return None


def game_shape_problem(reply: dict) -> str | None:
    """The shape of a play_game reply. Its states and move lists are not checked here: the fuzz harness compares
    them with the reference's, and only a state that differs is checked against the schema (one equal to the
    reference's conforms)."""
    played, states, moves = reply.get("played"), reply.get("states"), reply.get("moves", [])
    if type(played) is not int or played < 0:
        return f"`played` must be a count of steps, got {played!r}"[:300]
    if not isinstance(states, list) or not all(isinstance(state, dict) for state in states):
        return "`states` must be a list of azul-state/1 objects"
    if not isinstance(moves, list) or not all(isinstance(listed, str) for listed in moves):
        return "`moves` must be a list of strings (each the legal moves of a position, separated by spaces)"
    refused = reply.get("refused")
    if refused is not None:
        return _error_problem(refused)
    return None


def state_shape_problem(state: Any) -> str | None:
    """The top-level shape of an azul-state/1 document: every field present with its JSON type."""
    if not isinstance(state, dict):
        return f"`state` must be an azul-state/1 object, got {type(state).__name__}"
    for name, kind in STATE_FIELDS.items():
        value = state.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"state.{name} must be a {kind.__name__}, got {value!r}"[:300]
    for name in ("marker", "winners"):
        if name not in state:
            return f"state.{name}: missing"
    if not all(isinstance(board, dict) for board in state["boards"]):
        return "state.boards must hold one object per seat"
    return None


def state_schema_problem(state: dict) -> str | None:
    """How `state` breaks the published state schema's notation (an unknown key, a board without `floor`, tiles
    out of order...), or None; the rules' bounds (x-rule: a score below 0, five players) are left to the suite.
    Compiled once (fastjsonschema), so checking every reply costs about 0.1 ms."""
    try:
        state_validator()(state)
    except JsonSchemaValueException as error:
        where = error.name.replace("data", "state", 1)
        return f"{error.message.replace(error.name, where, 1)} (spec/schema/state.schema.json)"[:300]
    return None


@lru_cache(maxsize=1)
def move_pattern() -> re.Pattern:
    """The notation's move, as the protocol schema defines it."""
    return re.compile(schemas()[0]["$defs"]["move"]["pattern"])


@lru_cache(maxsize=1)
def state_validator():
    # the notation's checks only: a bound that is a rule (x-rule) is judged by the suite, not taken for a crash
    return fastjsonschema.compile(notation_only(schemas()[1]))


# -- the published JSON Schemas ------------------------------------------------------------------------------

def schemas() -> tuple[dict, dict]:
    """The protocol and state schemas (spec/schema), as data."""
    return schema("protocol.schema.json"), schema("state.schema.json")


def validator(definition: str):
    """A jsonschema validator for one definition of the protocol schema (`request`, `reply`, `hello_reply`...)."""
    return schema_validator("protocol.schema.json", definition)


def schema_problems(document: Any, definition: str) -> list[str]:
    """Every way `document` breaks the protocol schema's `definition` (empty when it conforms)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in validator(definition).iter_errors(document)]
