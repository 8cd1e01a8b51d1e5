"""The runner: one scenario against any Engine, judged as a verdict (never a traceback).

    run_scenario(engine, scenario) -> CaseResult
Checks between steps (`Scenario.checkpoints`) are judged as the steps reach them; the first that fails
ends the run. A refused new game (`Given.reject`) is judged on the refusal alone.
Verdicts: pass; fail (the engine disagrees with the scenario: a wrong value, a legal move refused, an
illegal one accepted, a wrong error code or rule, a state changed by a refused move); skip (a capability
is missing, or the engine answered `unsupported`; the reason is always given); error (the engine answered
`internal`, or refused a query). A crash or a hang is raised (EngineCrash, EngineTimeout) for the harness.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engines.base import Capabilities, Engine, Rejected
from ..engines.reference import ReferenceEngine
from ..notation import wall_colour
from ..properties.canonical import state_diff
from ..properties.deciding import deciding_rule, step_kind
from ..properties.invariants import seat_problems, state_problems
from ..properties.play import GREY_PLACEMENTS
from ..results import CaseKind, CaseResult, Verdict
from . import checks as judge
from .model import Assertion, Rejection, Scenario, Step


# a scenario's deals drawn by the engine itself: the step's number (from 1) -> the factories it dealt
Draws = Mapping[int, Sequence[str]]


class _Verdict(Exception):
    """Stops a run early with a verdict."""

    def __init__(self, verdict: Verdict, message: str, refusal: Rejected | None = None, at: str = "",
                 rule: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.verdict, self.message, self.details = verdict, message, details
        # an `unsupported` skip: the refusal, where it was (file:line) and the rule the step's refusal names
        self.refusal, self.at, self.rule = refusal, at, rule
        if rule is not None and verdict is not Verdict.SKIP:
            self.details["rule"] = rule

    def offered(self, capabilities: Capabilities) -> "_Verdict":
        """This verdict, unless it skips on an `unsupported` to what the hello offers: then a failure."""
        offered = capabilities.offers(self.refusal.request) if self.refusal is not None else ""
        if not offered:
            return self
        return _Verdict(Verdict.FAIL, f"{self.message}; but its hello offers {offered}, so `unsupported` is "
                                      "no skip", actual=_rejection(self.refusal), rule=self.rule,
                        details=_difference("request", "unsupported", self.at))


def result(scenario: Scenario, verdict: Verdict, message: str = "", **fields: Any) -> CaseResult:
    """A CaseResult about `scenario`."""
    return CaseResult(scenario.id, CaseKind.SCENARIO, verdict, title=scenario.title, rules=scenario.rules,
                      where=scenario.where, message=message, **fields)


def run_scenario(engine: Engine, scenario: Scenario, capabilities: Capabilities | None = None,
                 strict_rules: bool = True, draws: Draws | None = None) -> CaseResult:
    """Run one scenario. `strict_rules`: a rejection naming another rule than expected fails (an engine
    that names no rule is not judged on it). An engine that crashes or hangs raises EngineCrash or
    EngineTimeout: the harness turns them into verdicts, with their context. A scenario on several walls
    (`walls: [colour, grey]`) runs on each the engine offers; the first that does not pass gives the verdict.
    A failure after a deal the engine drew itself carries what it drew (details["draws"]: each such step's
    number and factories); `draws` gives those of another engine to deal again at the same steps (the
    diagnosis's experiments), where this engine can deal them."""
    capabilities = capabilities or engine.info.capabilities
    missing = capabilities.missing(scenario.needs)
    if missing:
        return result(scenario, Verdict.SKIP, f"the engine does not offer {', '.join(missing)}")
    if len(scenario.variants) == 1:
        return _run(engine, scenario, None, strict_rules, capabilities, draws)
    walls = [wall for wall in scenario.variants if wall in capabilities.variants]
    if not walls:
        return result(scenario, Verdict.SKIP, f"the engine does not offer {' or '.join(scenario.variants)}")
    for wall in walls:
        found = _run(engine, scenario, wall, strict_rules, capabilities, draws)
        if found.verdict is not Verdict.PASS:
            return dataclasses.replace(found, message=f"on the {wall} wall: {found.message}")
    absent = [wall for wall in scenario.variants if wall not in walls]
    return result(scenario, Verdict.PASS, f"run on the {walls[0]} wall only: the engine does not offer "
                  f"{' or '.join(absent)}" if absent else "")


def run_on_wall(engine: Engine, scenario: Scenario, wall: str | None, strict_rules: bool = True) -> CaseResult:
    """The scenario on its own wall (`wall` None) or on `wall`, one of its `walls`: the engine's state is then
    the position after its steps on that wall (the docs draw each wall's boards from it)."""
    return _run(engine, scenario, wall, strict_rules, engine.info.capabilities)


def _run(engine: Engine, scenario: Scenario, wall: str | None, strict_rules: bool,
         capabilities: Capabilities, replay: Draws | None = None) -> CaseResult:
    """The scenario on its own wall (`wall` None) or on `wall`, one of its `walls`."""
    draws: dict[int, list[str]] = {}
    found = _steps(engine, scenario, wall, strict_rules, capabilities, replay or {}, draws)
    if draws and found.verdict is Verdict.FAIL:
        # what the engine drew: another engine reproduces its failure from the same tiles, not from its own
        # random draw (with nine factories, whether factory 8 holds blue decides how a take from it fails)
        found = dataclasses.replace(found, details={**found.details,
                                                    "draws": {str(n): f for n, f in sorted(draws.items())}})
    return found


def _steps(engine: Engine, scenario: Scenario, wall: str | None, strict_rules: bool, capabilities: Capabilities,
           replay: Draws, draws: dict[int, list[str]]) -> CaseResult:
    try:
        if scenario.given.reject is not None:
            _refused_start(engine, scenario, strict_rules, wall)
            return result(scenario, Verdict.PASS)
        _start(engine, scenario, wall)
        _checkpoints(engine, scenario, 0, wall)
        drawn = False  # a deal the engine drew itself came before the step
        for number, step in enumerate(scenario.steps, start=1):
            after = _step(engine, step, strict_rules, drawn, replay.get(number))
            if step.kind == "deal_random" and isinstance(after, dict) and isinstance(after.get("factories"), list):
                draws[number] = list(after["factories"])
            drawn = drawn or step.kind == "deal_random"
            if wall == "grey" and step.kind == "move" and step.reject is None:
                _place_as_printed(engine, step)
            _checkpoints(engine, scenario, number, wall)
        state = engine.state()
        moves = engine.legal_moves() if any(a.needs_moves for a in scenario.expect) else None
    except _Verdict as stop:
        stop = stop.offered(capabilities)
        return result(scenario, stop.verdict, stop.message, **stop.details)
    except Rejected as error:  # asked for the state or the moves, and refused
        verdict = Verdict.SKIP if error.code == "unsupported" else Verdict.ERROR  # (a query is never offered)
        return result(scenario, verdict, f"engine refused a query: {_said(error)}")
    return _judge(scenario, state, moves, wall)


def _start(engine: Engine, scenario: Scenario, wall: str | None = None) -> None:
    given = scenario.given
    try:
        if given.new_game is not None:
            game = given.new_game
            engine.new_game(game.players, wall or game.variant, game.start_player)
        else:
            engine.load_state(dict(given.state, variant=wall) if wall else given.state)
    except Rejected as error:
        what = "a new game" if given.new_game else "the given position"
        raise _refused(error, f"the engine refused {what} ({given.where})", given.where) from None


def _place_as_printed(engine: Engine, step: Step) -> None:
    """A scenario of several walls on the grey wall: each pending placement goes to the column the coloured
    wall prints for its tile (a legal grey placement, the printed layout being a Latin square), so the tiling
    ends as it would on the coloured wall. GREY_PLACEMENTS bounds an engine that stays in the tiling."""
    for _ in range(GREY_PLACEMENTS):
        state = engine.state()
        if state.get("phase") != "tiling":
            return
        _seated(state, f"after step {step.text!r} ({step.where})", step.where)
        board = state["boards"][state["turn"]]
        line = next((i for i, text in enumerate(board["lines"]) if len(text) == i + 1), None)
        if line is None:
            return  # nothing to place: the expectations judge the state the engine is in
        move = f"{line + 1}@{printed_column(line, board['lines'][line][0]) + 1}"
        try:
            engine.play(move)
        except Rejected as error:
            raise _refused(error, f"on the grey wall, after step {step.text!r} ({step.where}), the placement "
                                  f"{move} (the printed column) was refused", step.where) from None


def _seated(state: dict[str, Any], when: str, at: str) -> None:
    """A state whose turn (start player, marker, winners) names no seat of its table is an impossible position,
    judged so before its board is read by seat (else an IndexError would stand as the verdict)."""
    problems = seat_problems(state)
    if problems:
        texts = [f"{rule}: {text}" for rule, text in problems]
        raise _Verdict(Verdict.FAIL, f"{when}, the engine replied with a position no game can reach: {texts[0]}",
                       rule=problems[0][0], expected="a possible position", actual=texts[0],
                       details=_difference("state", "impossible", at))


def printed_column(row: int, colour: str) -> int:
    """The 0-based column where the coloured wall prints `colour` in 0-based `row` (WALL-1)."""
    return next(column for column in range(5) if wall_colour(row, column) == colour)


def _refused_start(engine: Engine, scenario: Scenario, strict_rules: bool, wall: str | None = None) -> None:
    game, reject = scenario.given.new_game, scenario.given.reject
    variant = wall or game.variant
    here = (f"a new game of {game.players} player{'' if game.players == 1 else 's'}, variant {variant!r}, "
            f"start {game.start_player}")
    expected = {"code": reject.code, "rule": reject.rule}
    try:
        accepted = engine.new_game(game.players, variant, game.start_player)
    except Rejected as error:
        _judge_rejection(error, reject, f"{here} ({scenario.given.where})", expected, strict_rules,
                         scenario.given.where)
        return
    # the game it set up tells the readings apart: five players taken as five, or brought down to four
    raise _Verdict(Verdict.FAIL, f"{here} ({scenario.given.where}) was accepted, expected a refusal",
                   expected=expected, actual="accepted", rule=reject.rule,
                   details={**_difference("new game", "accepted", scenario.given.where),
                            "accepted_state": accepted})


def _checkpoints(engine: Engine, scenario: Scenario, played: int, wall: str | None = None) -> None:
    """Judge the checks placed after `played` steps; the first failing one ends the run with `fail`."""
    for checkpoint in scenario.checkpoints:
        if checkpoint.after != played:
            continue
        state = engine.state()
        moves = engine.legal_moves() if checkpoint.needs_moves else None
        failed, report = _failures(checkpoint.expect, state, moves, lambda: _rules_step(scenario, wall, played))
        if failed:
            after = f"step {scenario.steps[played - 1].text!r}" if played else "the start"
            raise _Verdict(Verdict.FAIL, f"{_count(failed)} of {len(checkpoint.expect)} assertions failed after "
                                         f"{after} "
                                   f"({checkpoint.where})", expected=_first(failed)["expected"][0],
                           actual=_first(failed)["actual"][0], diff="\n".join(report),
                           details={"failures": failed, "state": state})  # the engine's boards, for the report


def _refused(error: Rejected, what: str, at: str) -> _Verdict:
    if error.code == "unsupported":
        return _Verdict(Verdict.SKIP, f"{what}: unsupported: {error.message}", refusal=error, at=at)
    if error.code == "internal":
        return _Verdict(Verdict.ERROR, f"{what}: {_said(error)}")
    return _Verdict(Verdict.FAIL, f"{what}: {_said(error)}", actual=_rejection(error),
                   details=_difference("move", "refused", at))


def _said(error: Rejected) -> str:
    return f"{error.code}{' ' + error.rule if error.rule else ''}: {error.message}"


def _rejection(error: Rejected) -> dict[str, Any]:
    return {"code": error.code, "rule": error.rule, "message": error.message}


def _apply(engine: Engine, step: Step, replayed: Sequence[str] | None = None) -> dict[str, Any]:
    """The step played; the engine's state after it. `replayed`: for a deal the engine draws itself, another
    engine's draw to deal instead, if this engine can deal it (else it draws its own)."""
    if step.kind == "move":
        return engine.play(step.move)
    if step.kind == "deal":
        return engine.deal(list(step.factories or ()))
    if replayed is not None:
        try:
            return engine.deal(list(replayed))
        except Rejected:
            pass  # a deal this engine would never draw (more factories than it has): it draws its own
    return engine.deal(None)


# the fields of a position that no draw decides: after a deal the engine drew itself, the tiles anywhere (and how
# many a take moved) are its own random draw's, which no other engine makes, so a misreading is held to these only
UNDRAWN_FIELDS = ("format", "variant", "players", "phase", "round", "turn", "start_player", "marker", "winners")


def undrawn(state: Any) -> Any:
    """What of a state an engine's own random draw earlier in the scenario does not decide: the fields above
    and how many factories it has."""
    if not isinstance(state, dict):
        return state
    kept = {key: state[key] for key in UNDRAWN_FIELDS if key in state}
    if isinstance(state.get("factories"), list):
        kept["factories"] = len(state["factories"])
    return kept


def _step(engine: Engine, step: Step, strict_rules: bool, drawn: bool = False,
          replayed: Sequence[str] | None = None) -> dict[str, Any] | None:
    """One step, judged; the state after it where it was played. `drawn`: a deal the engine drew itself came
    earlier in the scenario (what it leads to is held to what no draw decides). `replayed`: another engine's
    draw, for this step's deal."""
    held = undrawn if drawn else (lambda state: state)
    if step.reject is None:
        try:
            return _apply(engine, step, replayed)
        except Rejected as error:
            raise _refused(error, f"step {step.text!r} ({step.where}) was refused", step.where) from None
    before = engine.state()
    expected = {"code": step.reject.code, "rule": step.reject.rule}
    try:
        accepted = _apply(engine, step, replayed)
    except Rejected as error:
        _judge_rejection(error, step.reject, f"step {step.text!r} ({step.where})", expected, strict_rules,
                         step.where)
    else:
        # the state it gave after the step: what a misreading must reproduce to explain the acceptance (not
        # after a deal the engine drew itself: no other engine draws the same tiles)
        details = _difference("refusal", "accepted", step.where)
        if step.kind != "deal_random":
            details["accepted_state"] = held(accepted)
        raise _Verdict(Verdict.FAIL, f"step {step.text!r} ({step.where}) was accepted, expected a refusal",
                       expected=expected, actual="accepted", rule=step.reject.rule, details=details)
    after = engine.state()
    if state_diff(before, after):  # (the fields free in its phase aside)
        raise _Verdict(Verdict.FAIL, f"step {step.text!r} ({step.where}) was refused but changed the state",
                       diff=_json_diff(before, after), expected=held(before), actual=held(after),
                       details=_difference("refused move", "state changed", step.where))
    return None


def _judge_rejection(error: Rejected, reject: Rejection, here: str, expected: dict[str, Any],
                     strict_rules: bool, at: str) -> None:
    if error.code == "unsupported" and reject.code != "unsupported":
        raise _Verdict(Verdict.SKIP, f"{here}: unsupported: {error.message}", refusal=error, at=at,
                       rule=reject.rule)
    if error.code != reject.code:
        raise _Verdict(Verdict.FAIL, f"{here}: expected {reject.code}, got {_said(error)}",
                       expected=expected, actual=_rejection(error), rule=reject.rule,
                       details=_difference("refusal", "other code", at))
    if strict_rules and reject.rule and error.rule and error.rule not in reject.rules:
        raise _Verdict(Verdict.FAIL, f"{here}: refused under rule {error.rule}, expected {' or '.join(reject.rules)}",
                       expected=expected, actual=_rejection(error), rule=reject.rule,
                       details=_difference("refusal rule", "differs", at))


def _json_diff(before: Any, after: Any) -> str:
    a = json.dumps(before, indent=1, sort_keys=True).splitlines()
    b = json.dumps(after, indent=1, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "before", "after", lineterm="", n=2))


def _failures(assertions: tuple[Assertion, ...], state: dict[str, Any], moves: list[str] | None,
              rules_step: Callable[[], "RulesStep | None"] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """The failing assertions (as CaseResult.failures entries) and the report lines describing them. Each
    entry's `decided_by`: for each failing check of a state field, the rule that decides that field at the step
    the assertion follows (properties/deciding.py), as the rules take that step (`rules_step`)."""
    failed: list[dict[str, Any]] = []
    report: list[str] = []
    taken: list[RulesStep | None] = []
    for assertion in assertions:
        found = judge.failures(assertion, state, moves)
        if not found:
            continue
        problems = [judge.describe(check, actual) for check, actual in found]
        entry = {"assertion": assertion.text, "where": assertion.where, "problems": problems,
                 "differences": [list(judge.difference(c, a)) for c, a in found],
                 "expected": [c.value for c, _ in found],
                 "actual": [None if a is judge.MISSING else a for _, a in found]}
        broken = _rules_of_extra_moves(state, [m for c, a in found for m in judge.extra_moves(c, a)])
        if broken:
            entry["broken_rules"] = broken
        if rules_step is not None and any(not c.kind.startswith("moves_") for c, _ in found):
            if not taken:
                taken.append(rules_step())
            decided = [_decided(taken[0], c, a) for c, a in found]
            if any(decided):
                entry["decided_by"], entry["step"] = decided, taken[0].kind
        failed.append(entry)
        report.append(f"{assertion.where}: {assertion.text}".replace("\n", "\n    "))
        report += [f"    {problem}" for problem in problems]
        if assertion.board is not None:
            drawing = judge.board_diff(assertion, state)
            report += ["    " + line for line in drawing.splitlines()]
    if failed:
        _impossible(state, failed, report)
    return failed, report


@dataclasses.dataclass(frozen=True)
class RulesStep:
    """The step an assertion follows, as the rules take it: its kind (properties/deciding.py's STEPS), the
    positions before and after it, and the move played ("deal" for a deal)."""

    kind: str
    before: dict[str, Any]
    after: dict[str, Any]
    step: str


def _rules_step(scenario: Scenario, wall: str | None, played: int) -> RulesStep | None:
    """The last step of the scenario's first `played` that the rules take (a step they refuse changes nothing),
    taken by the reference engine; None where there is none, or the reference cannot follow the scenario."""
    if scenario.given.reject is not None:
        return None
    reference = ReferenceEngine()
    taken = None
    try:
        _start(reference, scenario, wall)
        for step in scenario.steps[:played]:
            before = reference.state()
            _step(reference, step, strict_rules=False)
            if wall == "grey" and step.kind == "move" and step.reject is None:
                _place_as_printed(reference, step)
            if step.reject is None:
                taken = (before, reference.state(), step)
    except (_Verdict, Rejected):
        return None
    if taken is None:
        return None
    before, after, step = taken
    dealt = step.kind != "move"
    return RulesStep(step_kind(before, after, dealt), before, after, "deal" if dealt else step.move)


def with_deciding_rules(scenario: Scenario, failures: list[dict[str, Any]],
                        state: dict[str, Any]) -> list[dict[str, Any]]:
    """A failing run's assertion entries (CaseResult.failures) with the `decided_by` and `step` this runner gives
    them now, worked out again from the engine's state they were judged on: for a report written before the
    runner gave them (`azul diagnose` files its failures as a new run would). Entries it cannot place are
    returned as they are."""
    wall = state.get("variant") if len(scenario.variants) > 1 else None
    after = {a.where: len(scenario.steps) for a in scenario.expect}
    after.update({a.where: point.after for point in scenario.checkpoints for a in point.expect})
    assertions = {a.where: a for a in scenario.expect + tuple(a for p in scenario.checkpoints for a in p.expect)}
    taken: dict[int, RulesStep | None] = {}
    out = []
    for entry in failures:
        assertion = assertions.get(entry.get("where"))
        moves = any(list(d)[:1] == ["legal moves"] for d in entry.get("differences", ()))
        if assertion is None or "decided_by" in entry or moves:  # (the moves are not in the report)
            out.append(entry)
            continue
        played = after[assertion.where]
        if played not in taken:
            taken[played] = _rules_step(scenario, wall, played)
        try:
            found = judge.failures(assertion, state, None)
        except (KeyError, TypeError, ValueError, IndexError):  # a state of a shape the checks cannot read
            found = []
        decided = [_decided(taken[played], c, a) for c, a in found]
        kinds = [list(judge.difference(c, a)) for c, a in found]
        if any(decided) and kinds == entry.get("differences"):
            entry = dict(entry, decided_by=decided, step=taken[played].kind)
        out.append(entry)
    return out


def _decided(taken: RulesStep | None, check: Any, actual: Any) -> str | None:
    """The rule that decides the field a failing check is about, at the step it follows."""
    if taken is None or check.kind.startswith("moves_") or not check.path.startswith("/") or actual is judge.MISSING:
        return None
    return deciding_rule(taken.kind, check.path, taken.before, taken.after, actual, taken.step)


def _rules_of_extra_moves(state: dict[str, Any], extra: list[str]) -> list[str]:
    """The rules the moves an engine lists wrongly break, as the reference engine names them when it is put in
    the engine's position: the report files a wrong move list under those rules, not under every rule the
    scenario is about (an empty take is our ruling OFFER-6; a colour already in the wall row, the rulebooks'
    OFFER-9). Nothing when the position cannot be loaded or the reference accepts the moves."""
    if not extra:
        return []

    reference, rules = ReferenceEngine(), set()
    try:
        reference.load_state(state)
    except (Rejected, KeyError, TypeError, ValueError, IndexError):  # a position the reference cannot hold
        return []
    for move in set(extra):  # a refused move leaves the reference where it was: one load serves them all
        try:
            reference.play(move)
        except Rejected as error:
            if error.code == "bad_request" or error.rule is None:
                return []  # a move the reference cannot judge
            rules.add(error.rule)
        else:
            return []  # the reference takes the move: the engine's position, not its list, is what differs
    return sorted(rules)


def _difference(field: str, kind: str, at: str) -> dict[str, Any]:
    """A step's finding: its grouping key, and the step (file:line) where it is, for the diagnosis."""
    return {"differences": [[field, kind]], "at": at}


WINNER_RULES = ("END-5", "END-6", "END-7")  # wrong winners: a possible game, answered wrong


def _first(failed: list[dict[str, Any]]) -> dict[str, Any]:
    """The first failing assertion (an impossible-state finding comes before it, but asserts nothing)."""
    return next(entry for entry in failed if entry["where"])


def _count(failed: list[dict[str, Any]]) -> int:
    return sum(1 for entry in failed if entry["where"])  # the impossible-state finding is no assertion


def _impossible(state: dict[str, Any], failed: list[dict[str, Any]], report: list[str]) -> None:
    """A reply no game can reach (an offer with nothing to take, 99 tiles) is a finding of its own, put first:
    the failing assertions may only be its consequences."""
    try:
        problems = [p for p in state_problems(state) if p[0] not in WINNER_RULES]
    except (KeyError, TypeError, ValueError, IndexError):  # a shape the protocol check let through
        return
    if problems:
        texts = [f"{rule}: {text}" for rule, text in problems]
        failed.insert(0, {"assertion": "the engine's state is a position a game can reach", "where": "",
                          "problems": texts, "differences": [["state", "impossible"]], "rule": problems[0][0],
                          "expected": ["a possible position"], "actual": [texts[0]]})
        report[:0] = ["the engine replied with a position no game can reach:"] + [f"    {t}" for t in texts]


def _judge(scenario: Scenario, state: dict[str, Any], moves: list[str] | None, wall: str | None = None) -> CaseResult:
    failed, report = _failures(scenario.expect, state, moves, lambda: _rules_step(scenario, wall, len(scenario.steps)))
    if not failed:
        return result(scenario, Verdict.PASS)
    first = _first(failed)
    return result(scenario, Verdict.FAIL, f"{_count(failed)} of {len(scenario.expect)} assertions failed",
                  expected=first["expected"][0], actual=first["actual"][0], diff="\n".join(report),
                  details={"failures": failed, "state": state})  # the engine's boards, for the report
