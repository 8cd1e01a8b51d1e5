"""The property-based conformance cases, and how hypothesis runs one against an engine.

Each Property is one case of the suite (its own verdict in the report): a set of checks riding along random
games. On failure hypothesis shrinks the game (when the engine takes our deals, so games replay exactly) and
the result carries the minimal game; a crash or a hang stops the property at once.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings

from ..budget import OutOfTime
from ..engines.base import Capabilities, Engine, EngineError
from ..engines.reference import ReferenceEngine
from ..results import CaseKind, CaseResult, Verdict, engine_trouble
from . import checks, targeted
from .counterexample import write_counterexample
from .declared import rules_of
from .differential import Differential
from .play import EngineGaveUp, MAX_ROUNDS, PropertyFailure, Trace, Watcher, walk
from .strategies import game_plans

DEFAULT_EXAMPLES = 20
TARGETED_GAMES = 10


@dataclass(frozen=True)
class Property:
    id: str
    title: str
    watchers: Callable[[Engine, Capabilities, Engine | None], list[Watcher]]
    requires: tuple[str, ...] = ()
    needs_reference: bool = False
    own_deals: bool = False  # the engine deals by itself (its deals are what is judged)
    players: tuple[int, ...] = (2, 3, 4)  # the counts and walls played (those the engine offers among them)
    variants: tuple[str, ...] = ("colour", "grey")
    games: int | None = None  # at most this many games, whatever the run's --examples (targeted: short games)
    rules: tuple[str, ...] = field(init=False)  # the rules it judges: the spec's (spec/properties.yaml)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", rules_of(self.id))


def _steered(steer: type, focus: str) -> Callable[[Engine, Capabilities, Engine | None], list[Watcher]]:
    """A targeted property: a Steer (targeted.py) heads each game for its branch, a Differential judges it."""
    return lambda engine, caps, ref: [steer(), Differential(ref, focus)]


def _diff(focus: str) -> Callable[[Engine, Capabilities, Engine | None], list[Watcher]]:
    return lambda engine, caps, ref: [Differential(ref, focus)]


PROPERTIES: tuple[Property, ...] = (
    Property("property-invariants", "Every position keeps 100 tiles, scores >= 0, and the board constraints",
             lambda e, c, r: [checks.Invariants()]),
    Property("property-legal-move-list", "The legal moves are a set, non-empty exactly when a move is due",
             lambda e, c, r: [checks.LegalMoveList()]),
    Property("property-listed-moves-accepted", "Every listed move is accepted",
             lambda e, c, r: [checks.ListedMovesAccepted(c.load_state)]),
    Property("property-illegal-moves-refused", "Unlisted moves are refused with illegal_move, the state unchanged",
             lambda e, c, r: [checks.IllegalMovesRefused(r)], needs_reference=True),
    Property("property-deals-drawable", "The engine's own deals are drawable from the bag, then the lid",
             lambda e, c, r: [checks.DealsDrawable()], own_deals=True),
    Property("property-game-ends", "Games end; afterwards no move is listed or accepted",
             lambda e, c, r: [checks.GameEnds()]),
    Property("property-load-state-round-trip", "load_state answers the position it was given",
             lambda e, c, r: [checks.LoadStateRoundTrip()], requires=("load_state",)),
    Property("differential-legal-moves", "The same legal moves as the reference, in every position",
             _diff("legal-moves"), needs_reference=True),
    Property("differential-takes", "Each take has the reference's effect on the table and the board", _diff("takes"),
             needs_reference=True),
    Property("differential-tiling", "Wall tiling, scores and floor penalties as the reference's", _diff("tiling"),
             needs_reference=True),
    Property("differential-next-round", "The next round starts as the reference's (marker, start player)",
             _diff("next-round"), needs_reference=True),
    Property("differential-deals", "The engine's deals, replayed on the reference, give the same state",
             _diff("deals"), needs_reference=True, own_deals=True),
    Property("differential-end", "Final scores, bonuses and winners as the reference's", _diff("end"),
             needs_reference=True),
    # Targeted: random games steered into rare branches (conformance/properties/targeted.py), a few short games.
    # They need nothing more than the others: an engine that deals by itself or lacks the grey wall plays them
    # unsteered there (they still judge it; the branch is reached less often).
    Property("targeted-no-centre-take", "A round in which nobody takes from the centre: the same start player",
             _steered(targeted.NoCentreTake, "next-round"), needs_reference=True, games=TARGETED_GAMES),
    Property("targeted-full-floor-marker", "The marker taken by a player whose floor line is full",
             _steered(targeted.FullFloor, "takes"), needs_reference=True, games=TARGETED_GAMES),
    Property("targeted-bag-runs-out", "The bag runs out in the middle of a deal: the lid is poured in",
             _steered(targeted.BagRunsOut, "deals"), needs_reference=True, players=(3, 4), games=TARGETED_GAMES),
    Property("targeted-end-ties", "Games that end in a tie on points: the tie-break and the shared win",
             _steered(targeted.EndTies, "end"), needs_reference=True, variants=("colour",), games=TARGETED_GAMES),
    Property("targeted-grey-unfit-line", "A complete grey-wall line whose colour fits no free column",
             _steered(targeted.GreyUnfit, "tiling"), needs_reference=True, variants=("grey",), games=TARGETED_GAMES),
)


class _Escape(BaseException):
    """Leaves hypothesis at the first failure when games cannot be replayed (the engine deals by itself)."""

    def __init__(self, failure: PropertyFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


def result(prop: Property, verdict: Verdict, message: str = "", **fields: Any) -> CaseResult:
    """A CaseResult about `prop`."""
    return CaseResult(prop.id, CaseKind.PROPERTY, verdict, title=prop.title, rules=prop.rules,
                      where=f"property {prop.id}", message=message, **fields)


def run_property(engine: Engine, prop: Property, capabilities: Capabilities, examples: int = DEFAULT_EXAMPLES,
                 seed: int = 0, reference: Engine | None = None,
                 counterexample_dir: str | Path | None = None) -> CaseResult:
    """Run one property for `examples` games (fewer if it fails). A failure carries the minimal failing game
    (`details["game"]`), written as a scenario into `counterexample_dir` when one is given. A crash or a hang
    ends the property at once, with the game that led to it."""
    if reference is None and (prop.needs_reference or counterexample_dir):
        reference = ReferenceEngine(seed)
    give_deals = capabilities.deal and not prop.own_deals
    watchers = prop.watchers(engine, capabilities, reference)
    examples = min(examples, prop.games) if prop.games else examples
    count = capped = 0
    smallest: PropertyFailure | None = None  # the last failure hypothesis saw: the smallest so far when shrinking

    def one_game(plan) -> None:
        nonlocal count, capped, smallest
        count += 1
        try:
            capped += walk(engine, plan, watchers, give_deals).capped
        except PropertyFailure as failure:
            smallest = failure
            if not give_deals:
                raise _Escape(failure) from None
            raise

    phases = (Phase.explicit, Phase.generate, Phase.shrink) if give_deals else (Phase.generate,)
    test = settings(max_examples=examples, deadline=None, database=None, phases=phases, print_blob=False,
                    suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                    report_multiple_bugs=False)(given(game_plans(capabilities, prop.players, prop.variants))(one_game))
    try:
        with _no_local_constants():
            hypothesis_seed(seed)(test)()
    except (PropertyFailure, _Escape) as error:
        failure = error.failure if isinstance(error, _Escape) else error
        return _failed(engine, prop, failure, count, reference, counterexample_dir)
    except EngineGaveUp as gave_up:
        return result(prop, details=_details(count, gave_up.trace), **engine_trouble(gave_up.error))
    except OutOfTime as cut:  # a time budget (budget.py): keep the failure found so far, or the games played
        if smallest is not None:
            failed = _failed(engine, prop, smallest, count - 1, reference, counterexample_dir)
            return dataclasses.replace(failed, message=f"{failed.message}; shrinking stopped: {cut.message}")
        return result(prop, Verdict.OUT_OF_TIME, f"{cut.message} during game {count}: {count - 1} games played "
                      "in full, no failure found", details=dict(_details(count - 1), capped=capped))
    except Exception as error:  # noqa: BLE001 - an adapter bug or a flaky engine becomes a verdict
        return result(prop, Verdict.ERROR, f"{type(error).__name__}: {error}"[:2000], details=_details(count))
    limit = f"; {capped} stopped at the harness's cap of {MAX_ROUNDS} rounds (a limit of the harness, not a " \
            "verdict on the engine)" if capped else ""
    steers = [w for w in watchers if isinstance(w, targeted.Steer)]
    reach = "".join(f"; {w.branch} reached in {w.reached} of {w.games}" for w in steers)
    return result(prop, Verdict.PASS, f"{count} games{reach}{limit}",
                  details=dict(_details(count), capped=capped, **({"reached": sum(w.reached for w in steers)}
                                                                  if steers else {})))


def _details(examples: int, trace: Trace | None = None) -> dict[str, Any]:
    details: dict[str, Any] = {"examples": examples}
    if trace is not None:
        details["game"] = {"plan": vars(trace.plan), "steps": trace.steps}
    return details


@contextmanager
def _no_local_constants() -> Iterator[None]:
    """The same games for the same seed, wherever the suite runs. Recent hypothesis (the pinned version among them)
    now and then draws a literal constant found in the "local" modules loaded at the time, those outside
    site-packages: which they are depends on how the suite is installed (`pip install -e` or not) and on what the
    run has imported so far (after a failure, for one), so the games a property plays, and so an engine's
    verdicts, depended on both. Its pool of local constants is empty while a property runs. A private part of
    hypothesis: where a version lacks it, there is nothing to empty."""
    try:
        # deferred: a private part of hypothesis, absent from some versions
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants

        found = providers._get_local_constants, providers.CONSTANTS_CACHE  # noqa: SLF001
    except (ImportError, AttributeError):
        yield
        return
    original, cache = found
    providers._get_local_constants = Constants  # an empty pool  # noqa: SLF001
    cache.cache.clear()  # what was drawn from the local pool before, by anyone, is forgotten
    try:
        yield
    finally:
        providers._get_local_constants = original  # noqa: SLF001
        cache.cache.clear()


def _failed(engine: Engine, prop: Property, failure: PropertyFailure, count: int, reference: Engine | None,
            folder: str | Path | None) -> CaseResult:
    """A failure that names the request refused or answered wrong, and the game it was in."""
    written = None
    if folder is not None and failure.trace is not None and reference is not None:
        written = _write(engine, prop, failure, reference, folder)
    request, game = _request(failure.trace), _game(failure.trace)
    message = failure.message + (f" (request: {_said(request)}, {game})" if request else f" ({game})" if game else "")
    details = _details(count, failure.trace)
    if failure.difference is not None:
        details["differences"] = [list(failure.difference)]
    if failure.trace is not None and not isinstance(failure.actual, dict):
        # where the failure names no state paths, the engine's position at the end of the game is what a
        # misreading must reproduce to explain it (conformance/diagnosis)
        details["state"] = _engine_state(engine)
    return result(prop, Verdict.FAIL, message, rule=failure.rule, expected=failure.expected, actual=failure.actual,
                  request=request, counterexample=written, details=details)


def _request(trace: Trace | None) -> dict[str, Any] | None:
    """The last step of the game, as the protocol request that made it."""
    if trace is None or not trace.steps:
        return None
    step = trace.steps[-1]
    if step["kind"] == "deal":
        return {"cmd": "deal", "factories": step["factories"]}
    return {"cmd": "play", "move": step["move"]}


def _said(request: dict[str, Any]) -> str:
    return f"play {request['move']}" if request["cmd"] == "play" else "deal " + " ".join(
        f"{i}: {tiles or '-'}" for i, tiles in enumerate(request["factories"] or [], 1))


def _game(trace: Trace | None) -> str:
    if trace is None:
        return ""
    plan = trace.plan
    return (f"step {len(trace.steps)} of a {plan.players}-player {plan.variant} game, start player "
            f"{plan.start_player}, deal seed {plan.deal_seed}")


def _write(engine: Engine, prop: Property, failure: PropertyFailure, reference: Engine, folder: str | Path) -> str:
    """The minimal failing game as a scenario file; its path, or why it could not be written."""
    try:
        actual = failure.actual if isinstance(failure.actual, dict) and "format" in failure.actual else None
        path = write_counterexample(folder, prop.id, failure.rule, failure.message, failure.trace,
                                    reference, actual or _engine_state(engine))
    except (OSError, EngineError, ValueError) as error:
        return f"(not written: {error})"
    return str(path)


def _engine_state(engine: Engine):
    try:
        return engine.state()
    except EngineError:
        return None
