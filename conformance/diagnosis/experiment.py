"""The experiment: a failing case run again on an engine that reads the rules in a known way.

`reproduce(engine, case, seen)` gives what `engine` does in the case, as an Observation comparable with the
one the engine under test showed (`seen`): a scenario is run again whole (the same runner, the same
assertions); a property's game is replayed (its deals and moves, one `play_game` request) up to the request
that differed, and the engine's answer there is read at the same paths, as the same kind of answer. None: the
engine does nothing this kind of observation can show (it passes the scenario, refuses an earlier step of
the game, answers a refusal where the engine under test gave values).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..engines.base import CanonicalState, Engine, EngineError, Rejected
from ..engines.reference import ReferenceEngine
from ..mutants.catalogue import Mutant
from ..mutants.patching import MutantEngine
from ..harness.cases import Case
from ..results import CaseKind, CaseResult
from ..properties.canonical import state_diff
from ..scenario import Scenario, run_scenario
from .observe import Observation, _canon, observation


def reproduce(engine: Engine, case: Case | None, seen: Observation) -> Observation | None:
    """`case`: the scenario to run again; None for a game to replay (a property's, a fuzz finding's)."""
    try:
        if case is not None and case.kind is CaseKind.SCENARIO:
            return observation(run_again(engine, case.payload, draws=dict(seen.draws)))
        return _replay(engine, seen)
    except Exception:  # noqa: BLE001 - a misreading can break the reference's own bookkeeping: no reproduction
        return None


def run_again(engine: Engine, scenario: Scenario, strict_rules: bool = True,
              draws: Mapping[int, Sequence[str]] | None = None) -> CaseResult:
    """A scenario run as an experiment. A deal the engine under test drew itself (`draws`: the step's number ->
    its factories) is dealt again as it drew it, where the reading can deal it: whether a take succeeds can hang
    on the colours drawn. Any other random deal on the reference (a reading applied) is drawn again from its
    seed, the same whatever cases ran on it before (in any order, in any share of processes)."""
    if isinstance(engine, ReferenceEngine):
        engine.restart_draws()
    return run_scenario(engine, scenario, strict_rules=strict_rules, draws=draws)


def fails(engine: Engine, case: Case) -> bool:
    """Whether `engine` fails a scenario judged without the rule a refusal names (no part of a reading: a refusal's
    rule counts only where it is the finding, observe.py)."""
    try:
        return run_again(engine, case.payload, strict_rules=False).verdict.bad
    except Exception:  # noqa: BLE001 - a misreading that breaks the reference fails the scenario
        return True


def _replay(engine: Engine, seen: Observation) -> Observation | None:
    if seen.plan is None:
        return None
    if seen.kind == "refused" and seen.position is not None:
        judged = _refused_at(engine, seen)
        if judged is not _UNKNOWN_POSITION:
            return judged
    players, variant, start = seen.plan
    steps: list[Any] = [list(step) if isinstance(step, tuple) else step for step in seen.steps]
    refused = seen.kind == "refused"
    try:
        run = engine.play_game(players, variant, start, steps,
                               states=[len(steps) - 1] if refused and seen.position else [len(steps)])
    except (Rejected, EngineError):
        return None
    if refused:
        if run.refused is None or run.played != len(steps) - 1:
            return None
        if seen.position is not None and (not run.states or state_diff(json.loads(seen.position), run.states[-1])):
            # the reading refuses the step, but from another position than the engine's (the other seat on
            # move, a marker elsewhere): it does not explain the refusal, it changes what came before
            return None
        return Observation("refused", frozenset({("code", _canon(run.refused.code))}), seen.steps, seen.plan)
    if run.refused is not None or not run.states:
        return None
    state = run.states[-1]
    if seen.kind == "accepted":
        return Observation("accepted", frozenset({("accepted", _canon(seen.steps[-1]))}), seen.steps, seen.plan)
    if seen.kind == "state":
        return Observation("state", frozenset({("state", _canon(state))}), seen.steps, seen.plan)
    if seen.kind == "dealt":
        return Observation("dealt", frozenset({("dealt", _canon(list(state["factories"])))}), seen.steps, seen.plan)
    if seen.kind == "moves":
        try:
            moves = engine.legal_moves()
        except (Rejected, EngineError):
            return None
        return Observation("moves", frozenset({("moves", _canon(sorted(set(moves))))}), seen.steps, seen.plan)
    if seen.whole and not _agrees_elsewhere(state, seen):
        return None
    items = set()
    for path, _ in seen.items:
        found = _at(state, path)
        if path.endswith("winners") and isinstance(found, list):
            found = sorted(found)  # a set of seats, as state_diff compares it
        items.add((path, _canon(found) if found is not _ABSENT else "absent"))
    return Observation("paths", frozenset(items), seen.steps, seen.plan)


_ABSENT = object()
_UNKNOWN_POSITION = object()


def _agrees_elsewhere(state: CanonicalState, seen: Observation) -> bool:
    """Whether `state` differs from the rules' only at the paths where the engine did (a lockstep game: the engine
    agreed with the rules everywhere else)."""
    rules = _rules_state(seen.plan, seen.steps)
    if rules is None:
        return True
    differing = {path for path, _ in seen.items}
    return all(path in differing for path, _, _ in state_diff(rules, state))


@lru_cache(maxsize=64)
def _rules_state(plan: tuple[int, str, int], steps: tuple[Any, ...]) -> CanonicalState | None:
    """The reference's position after a game's steps (one replay a case, shared by every reading tried on it)."""
    players, variant, start = plan
    try:
        run = ReferenceEngine(0).play_game(players, variant, start,
                                           [list(s) if isinstance(s, tuple) else s for s in steps],
                                           states=[len(steps)])
    except (Rejected, EngineError):
        return None
    return run.states[-1] if run.refused is None and run.states else None


def _refused_at(engine: Engine, seen: Observation) -> Observation | None | object:
    """The refused step asked again at the position where the engine refused it. The property chose that step
    for the engine's position (a deal drawn from its bag and lid, a move it listed), which a game replayed from
    the start need not reach: the misreading's bag and lid are only as the engine's where the misreading is
    the engine's down to the order of its tiles (the half-poured lid). _UNKNOWN_POSITION where the rules know
    no such position: the game is replayed instead."""
    try:
        engine.load_state(json.loads(seen.position))
    except (Rejected, EngineError, ValueError):
        return _UNKNOWN_POSITION
    step = seen.steps[-1]
    try:
        if isinstance(step, str):
            engine.play(step)
        else:
            engine.deal(list(step))
    except Rejected as error:
        return Observation("refused", frozenset({("code", _canon(error.code))}), seen.steps, seen.plan)
    except EngineError:
        return None
    return Observation("accepted", frozenset({("accepted", _canon(step))}), seen.steps, seen.plan)


def _at(state: Any, path: str) -> Any:
    """The value at a state path (`/boards/0/score`), as state_diff names them; _ABSENT where there is none."""
    value = state
    for part in path.strip("/").split("/"):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _ABSENT
    return value


def reproducing(players: int, variant: str, start: int, steps: list[Any],
                holds: Callable[[CanonicalState], bool], catalogue: Sequence[Mutant]) -> list[Mutant]:
    """The misreadings of `catalogue` under which the game `steps` (play_game steps) is played through and
    ends in a state where `holds` (a record's claim, say) is true: replay's explanations of a record that parts
    ways with our rules, by the same experiment as the diagnosis of a failing case."""
    found = []
    for mutant in catalogue:
        engine = MutantEngine(mutant)
        try:
            run = engine.play_game(players, variant, start, steps, states=[len(steps)])
            if run.refused is None and run.states and holds(run.states[-1]):
                found.append(mutant)
        except Exception:  # noqa: BLE001 - a misreading can break the reference's own bookkeeping
            continue
    return found
