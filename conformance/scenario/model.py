"""The scenario model: frozen dataclasses built by the parser and loader, read by the runner and export.

A Scenario holds its `given` (a canonical azul-state/1 dict, or a fresh game), its steps and its
assertions; every assertion is compiled to Checks, small JSON-ready tests on the resulting state and
legal moves, so that the runner and the JSON export share one meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..notation import PLAYER_COUNTS, VARIANTS

# Check kinds (the JSON export's `kind` values, listed in spec/schema/scenario-export.schema.json):
#   equals         the value at `path` equals `value`
#   multiset       the tiles at `path` (a string) equal `value` in any order
#   set            the list at `path` equals `value` in any order (winners)
#   count          the tiles at `path` (string, or list of strings; `.` not counted) number `value`
#   moves_equal / moves_include / moves_exclude    the legal moves against `value` (a list of moves)
#   moves_count    the number of legal moves is `value`
#   length         the list at `path` has `value` items (`factories count = 7`: factories, not tiles)
# A moves_* check with a `pattern` (`1Y?`, `?` = any one character) looks only at the legal moves matching it.


@dataclass(frozen=True)
class Check:
    kind: str
    path: str  # a JSON pointer into the state (`/boards/0/floor`); "" for the legal-move checks
    value: Any
    pattern: str | None = None  # moves_* only: judge just the legal moves matching it (`?`: any character)

    def to_json(self) -> dict[str, Any]:
        data = {"kind": self.kind, "path": self.path, "value": self.value}
        if self.pattern is not None:
            data["pattern"] = self.pattern
        return data


@dataclass(frozen=True)
class Assertion:
    text: str  # as written (a whole board block for board assertions)
    where: str  # file:line
    checks: tuple[Check, ...]
    board: int | None = None  # the seat, when this is a whole-board block (drawn as on the table)

    @property
    def needs_moves(self) -> bool:
        return any(check.kind.startswith("moves_") for check in self.checks)


@dataclass(frozen=True)
class Rejection:
    code: str
    rule: str | None = None
    either: tuple[str, ...] = ()  # other rules that forbid the same step: an engine may name any of them

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule an engine may name for this refusal (none: any or none)."""
        return (self.rule, *self.either) if self.rule else ()


@dataclass(frozen=True)
class Step:
    """One deal or move. `kind` is "move", "deal" (given factories) or "deal_random" (the engine draws)."""

    kind: str
    text: str
    where: str
    move: str | None = None
    factories: tuple[str, ...] | None = None
    reject: Rejection | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == "move":
            data["move"] = self.move
        elif self.kind == "deal":
            data["factories"] = list(self.factories or ())
        if self.reject is not None:
            data["reject"] = {"code": self.reject.code, "rule": self.reject.rule,
                              **({"either": list(self.reject.either)} if self.reject.either else {})}
        return data


@dataclass(frozen=True)
class Checkpoint:
    """Assertions judged between steps: `after` is how many steps have been played (0: on the given)."""

    after: int
    where: str  # file:line of the check item
    expect: tuple[Assertion, ...]

    @property
    def needs_moves(self) -> bool:
        return any(assertion.needs_moves for assertion in self.expect)


@dataclass(frozen=True)
class NewGame:
    players: int = 2
    variant: str = "colour"
    start_player: int = 0


@dataclass(frozen=True)
class Given:
    """The starting point: a position to load (`state`) or a fresh game (`new_game`). With `reject`, the
    fresh game cannot be set up (5 players, say): `new_game` must be refused, and the scenario ends there."""

    text: str
    where: str
    state: dict[str, Any] | None = None
    new_game: NewGame | None = None
    reject: Rejection | None = None

    @property
    def players(self) -> int:
        return self.new_game.players if self.new_game else self.state["players"]

    @property
    def variant(self) -> str:
        return self.new_game.variant if self.new_game else self.state["variant"]


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    rules: tuple[str, ...]
    sources: tuple[str, ...]
    level: str
    requires: tuple[str, ...]
    given: Given
    steps: tuple[Step, ...] = ()
    expect: tuple[Assertion, ...] = ()
    file: str = "<text>"
    line: int = 1
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    checkpoints: tuple[Checkpoint, ...] = ()  # checks between the steps (`- expect: ...` items of `steps`)
    walls: tuple[str, ...] = ()  # `walls: [colour, grey]`: run on each wall (empty: the given's variant alone)

    @property
    def variants(self) -> tuple[str, ...]:
        """The walls the scenario runs on: those of `walls`, else the given's variant."""
        return self.walls or (self.given.variant,)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def needs(self) -> tuple[str, ...]:
        """Every capability the scenario needs: the stated ones plus those its content implies (for a game
        that must be refused, only its possible parts: 5 players is no capability). A scenario on several
        walls needs none of them in particular: it runs on those the engine offers (at least one)."""
        needs = list(self.requires)
        implied = [v for v in self.variants if v in VARIANTS] if len(self.variants) == 1 else []
        if self.given.players in PLAYER_COUNTS:
            implied.append(f"players:{self.given.players}")
        if self.given.state is not None:
            implied.append("load_state")
        if any(step.kind == "deal" for step in self.steps):
            implied.append("deal")
        for need in implied:
            if need not in needs:
                needs.append(need)
        return tuple(needs)
