"""Replaying a record through the Engine interface, checking every step and every claim.

The replay starts a game from the headers, deals each round's recorded factories (the engine refuses a deal
that is not drawable), plays each take and placement (the engine refuses an illegal one), and compares each
claim with the state where it stands. The first failure stops the replay with a ReplayError naming the step
or claim, its line:column, why, and the state at that point; where the record and our rules part ways (a
refused step, a false claim, a game that goes on after ours ended), the error carries the Disagreement: the
step where they part, the rule that decides it and both sides' values, marked `declared` when the record
names that rule in a `[%differs ...]` before its first round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..engines.base import Engine, EngineError, Rejected
from ..engines.reference import ReferenceEngine
from ..located import Span
from .claims import claim_mismatch
from .errors import ReplayError
from .explain import Disagreement, explain_claim, explain_game_over, explain_refusal
from .model import Claim, DECLARATIONS, Deal, Note, Ply, Record, Round

__all__ = ["Step", "ReplayResult", "replay"]


@dataclass(frozen=True)
class Step:
    """One step of the replay and the state after it. `kind`: start, deal, take or placement."""

    kind: str
    round: int
    label: str
    state: dict[str, Any]
    item: Deal | Ply | None = None


@dataclass
class ReplayResult:
    steps: list[Step] = field(default_factory=list)
    claims_checked: int = 0
    declared: dict[str, str] = field(default_factory=dict)  # rule ID -> how the source differs (%differs)

    @property
    def states(self) -> list[dict[str, Any]]:
        return [step.state for step in self.steps]

    @property
    def final(self) -> dict[str, Any]:
        return self.steps[-1].state


class _Replayer:
    def __init__(self, record: Record, engine: Engine, text: str,
                 on_step: Callable[[Step], None] | None, judges_engine: bool = False) -> None:
        self.record, self.engine, self.text, self.on_step = record, engine, text, on_step
        # judging an engine (replay --engine), the record is the side that is right: a refusal or an early end
        # is the engine's, and a false claim is explained by engine_replay, from the engine's value
        self.judges_engine = judges_engine
        self.result = ReplayResult()
        self.state: dict[str, Any] = {}
        self.failed_claim: Claim | None = None

    def fail(self, pos: Span | None, message: str, rule: str | None = None,
             disagreement: Disagreement | None = None) -> ReplayError:
        return ReplayError(message, source=self.record.source, pos=pos, text=self.text, rule=rule,
                           state=self.state or None, disagreement=disagreement)

    def record_step(self, kind: str, round_number: int, label: str, item: Deal | Ply | None) -> None:
        step = Step(kind, round_number, label, self.state, item)
        self.result.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)

    def ask(self, pos: Span | None, what: str, call: Callable[[], dict[str, Any]], record_side: str = "") -> None:
        try:
            self.state = call()
        except Rejected as error:
            found = explain_refusal(what, error.rule, error.message, record_side, pos, self.result.declared) \
                if record_side else None
            if found is not None and self.judges_engine:
                found = replace(found, ours=f"the record {record_side}, as our rules allow",
                                record=found.ours, declared=None, side="engine")
            raise self.fail(pos, f"{what} is refused by the engine: {error.message}", error.rule, found) from None
        except EngineError as error:
            raise self.fail(pos, f"the engine failed on {what}: {error.message}") from None

    def check_notes(self, notes: tuple[Note, ...], after: str) -> None:
        for note in notes:
            if isinstance(note, Claim) and note.kind not in DECLARATIONS:
                wrong = claim_mismatch(note, self.state)
                self.result.claims_checked += 1  # checked, true or false
                if wrong is not None:
                    self.failed_claim = note
                    found = None if self.judges_engine else explain_claim(note, self.result.steps,
                                                                           self.result.declared)
                    verdict = "does not hold on the engine" if self.judges_engine else "is wrong"
                    raise self.fail(note.pos, f"claim {note} after {after} {verdict}: {wrong}", disagreement=found)

    def run(self) -> ReplayResult:
        record = self.record
        self.result.declared = {note.args[0]: note.args[1] for note in record.notes
                                if isinstance(note, Claim) and note.kind == "differs"}
        header_pos = next((h.pos for h in record.headers if h.name == "Players"), None)
        self.ask(header_pos, f"a new {record.players}-player game ({record.variant} wall)",
                 lambda: self.engine.new_game(record.players, record.variant, record.start_player))
        self.record_step("start", 0, "start", None)
        self.check_notes(record.notes, "the start")
        for round_ in record.rounds:
            self.play_round(round_)
        self.check_end()
        return self.result

    def play_round(self, round_: Round) -> None:
        deal = round_.deal
        phase = self.state.get("phase")
        if phase == "over":
            found = explain_game_over(self.state, round_.number, deal.pos, self.result.declared)
            if self.judges_engine:
                found = replace(found, ours=found.record + ", as our rules have it", record=found.ours,
                                declared=None, side="engine")
            raise self.fail(deal.pos, f"round {round_.number}: the game is already over "
                                      f"(it ended in round {self.state.get('round')})", found.rule, found)
        if phase != "deal":
            seat = self.state.get("turn")
            raise self.fail(deal.pos, f"round {round_.number} starts, but round {round_.number - 1} is not over: "
                                      f"seat {seat} still has to {'take' if phase == 'offer' else 'place'} "
                                      f"(legal: {self.legal()})")
        self.ask(deal.pos, f"the deal of round {round_.number} ({' '.join(f or '-' for f in deal.factories)})",
                 lambda: self.engine.deal(list(deal.factories)), "deals it")
        self.record_step("deal", round_.number, "deal", deal)
        self.check_notes(deal.notes, f"the deal of round {round_.number}")
        for index, ply in enumerate(round_.plies, 1):
            self.play_take(round_.number, index, ply)
        for ply in round_.placements:
            self.play_placement(round_.number, ply)

    def legal(self) -> str:
        try:
            moves = sorted(self.engine.legal_moves())
        except EngineError:
            return "unknown"
        return " ".join(moves[:12]) + (" ..." if len(moves) > 12 else "") if moves else "none"

    def play_take(self, number: int, index: int, ply: Ply) -> None:
        seat = self.state.get("turn")
        what = f"take {ply} (round {number}, take {index}, seat {seat})"
        if self.state.get("phase") != "offer":
            raise self.fail(ply.pos, f"{what}: the offer phase is over ({self.phase_text()})")
        self.ask(ply.pos, what, lambda: self.engine.play(ply.move), "plays it")
        self.record_step("take", number, ply.move, ply)
        self.check_notes(ply.notes, f"{ply}")

    def play_placement(self, number: int, ply: Ply) -> None:
        what = f"placement {ply} (round {number}, seat {ply.seat})"
        if self.state.get("phase") != "tiling":
            raise self.fail(ply.pos, f"{what}: no placement is pending ({self.phase_text()})")
        if self.state.get("turn") != ply.seat:
            raise self.fail(ply.pos, f"{what}: it is seat {self.state.get('turn')} that places a tile here, "
                                     f"not seat {ply.seat}")
        self.ask(ply.pos, what, lambda: self.engine.play(ply.move), "places it")
        self.record_step("placement", number, ply.move, ply)
        self.check_notes(ply.notes, f"{ply}")

    def phase_text(self) -> str:
        phase = self.state.get("phase")
        if phase == "tiling":
            return f"seat {self.state.get('turn')} must place a tile first (legal: {self.legal()})"
        if phase == "deal":
            return "the round has ended; the next round needs its deal"
        return "the game is over" if phase == "over" else f"phase {phase!r}"

    def check_end(self) -> None:
        result = next((h for h in self.record.headers if h.name == "Result"), None)
        if result is None or result.value == "*":
            return
        if self.state.get("phase") != "over":
            raise self.fail(result.pos, f"Result {result.value!r} is given, but the record stops before the game "
                                        f"is over (round {self.state.get('round')}, phase {self.state.get('phase')!r})")
        winners = set(self.state.get("winners") or [])
        actual = "-".join("1" if seat in winners else "0" for seat in range(self.record.players))
        if actual != result.value:
            raise self.fail(result.pos, f"Result {result.value!r} is wrong: the game gives {actual!r} "
                                        f"(winners: {', '.join(f'seat {s}' for s in sorted(winners))})")


def replay(record: Record, engine: Engine | None = None, *, text: str = "",
           on_step: Callable[[Step], None] | None = None) -> ReplayResult:
    """Replay `record` on `engine` (default: the in-process reference engine); ReplayError on the first failure.

    `text` is the record's source text, used to show the failing line with a caret; `on_step` is called with
    every Step as it happens (the CLI draws the table from it).
    """
    if engine is None:
        engine = ReferenceEngine()
    replayer = _Replayer(record, engine, text, on_step)
    try:
        return replayer.run()
    except ReplayError as error:
        error.result = replayer.result  # what was replayed and checked before the failure
        raise
