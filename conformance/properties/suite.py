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
from ..engines.base import Capabilities, Engine, EngineError, Rejected
from ..engines.reference import ReferenceEngine
from ..notation import PLAYER_COUNTS, VARIANTS
from ..results import CaseKind, CaseResult, Verdict, engine_trouble
from . import checks, targeted
from .counterexample import write_counterexample
from .declared import rules_of
from .deciding import STEPS
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


class _Answered(BaseException):
    """The engine answered a request with a refusal that judges nothing (`unsupported`: skip; `internal` or a
    refused query: error); a BaseException, so that hypothesis does not shrink it."""

    def __init__(self, error: Rejected) -> None:
        super().__init__(str(error))
        self.error = error


def result(prop: Property, verdict: Verdict, message: str = "", **fields: Any) -> CaseResult:
    """A CaseResult about `prop`."""
    return CaseResult(prop.id, CaseKind.PROPERTY, verdict, title=prop.title, rules=prop.rules,
                      where=f"property {prop.id}", message=message, **fields)


def run_property(engine: Engine, prop: Property, capabilities: Capabilities, examples: int = DEFAULT_EXAMPLES,
                 seed: int = 0, reference: Engine | None = None,
                 counterexample_dir: str | Path | None = None) -> CaseResult:
    """Run one property for `examples` games, on the player counts and walls the engine offers. A failure
    carries the minimal failing game (`details["game"]`), written as a scenario into `counterexample_dir` when
    one is given; the games left in the budget then look for other failures, the ones found already ending
    the games that meet them again, so a first bug does not hide a second: each further distinct failure
    (another rule or deviation key) is in `details["distinct"]`. A crash or a hang ends the property at once,
    with the game that led to it. Another choice where the rules leave one (GREY-5) is no failure: it is
    noted in `details["choices"]` and, alone, makes the property a failure under that implementation-defined
    rule (judged `differs`)."""
    unplayable = _unplayable(capabilities)
    if unplayable:
        return result(prop, Verdict.SKIP, unplayable)
    if reference is None and (prop.needs_reference or counterexample_dir):
        reference = ReferenceEngine(seed)
    give_deals = capabilities.deal and not prop.own_deals
    watchers = prop.watchers(engine, capabilities, reference)
    examples = min(examples, prop.games) if prop.games else examples
    found: list[PropertyFailure] = []  # the distinct failures, the first one first
    first: CaseResult | None = None
    count = capped = 0
    smallest: PropertyFailure | None = None  # the last failure hypothesis saw: the smallest so far when shrinking
    generated = 0  # games generated (not shrinking) before the failure of this search
    tolerant = [_Tolerant(watcher, found) for watcher in watchers]
    for watcher in watchers:
        if isinstance(watcher, Differential):
            watcher.known = lambda rule, key: any((f.rule, deviation_of(f)) == (rule, key) for f in found)

    def one_game(plan) -> None:
        nonlocal count, capped, smallest, generated
        count += 1
        generated += smallest is None
        try:
            capped += walk(engine, plan, tolerant, give_deals).capped
        except PropertyFailure as failure:
            if _known(failure, found):
                return  # a failure reported already ends the game that meets it again
            smallest = failure
            if not give_deals:
                raise _Escape(failure) from None
            raise
        except Rejected as error:  # unsupported or internal: nothing to shrink, the property ends here
            raise _Answered(error) from None

    phases = (Phase.explicit, Phase.generate, Phase.shrink) if give_deals else (Phase.generate,)
    budget, search, stopped = examples, 0, ""
    while budget > 0:
        smallest, generated = None, 0
        test = settings(max_examples=budget, deadline=None, database=None, phases=phases, print_blob=False,
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        report_multiple_bugs=False)(
            given(game_plans(capabilities, prop.players, prop.variants))(one_game))
        try:
            with _no_local_constants():
                hypothesis_seed(seed + search)(test)()
        except (PropertyFailure, _Escape) as error:
            failure = error.failure if isinstance(error, _Escape) else error
            if first is None:  # now, while the engine is still in the failing game's position
                first = _failed(engine, prop, failure, count, reference, counterexample_dir)
            found.append(failure)
            budget, search = budget - max(generated, 1), search + 1
            continue
        except _Answered as answered:  # unsupported or internal, on any request of the walk or of a check
            error = answered.error
            verdict = Verdict.SKIP if error.code == "unsupported" else Verdict.ERROR
            said = f"the engine answered {error.code} to {_said_request(error.request)}: {error.message}"
            offered = capabilities.offers(error.request) if error.code == "unsupported" else ""
            if offered:  # what its hello offers: no skip
                verdict, said = Verdict.FAIL, f"{said}; but its hello offers {offered}, so `unsupported` is no skip"
            if first is None:
                return result(prop, verdict, said[:2000], details=dict(
                    _details(count), **({"differences": [["request", "unsupported"]]} if offered else {})))
            stopped = f"; the search for other failures stopped: {said}"[:300]
        except EngineGaveUp as gave_up:
            if first is None:
                return result(prop, details=_details(count, gave_up.trace), **engine_trouble(gave_up.error))
            stopped = f"; the search for other failures stopped: {gave_up.error}"
        except OutOfTime as cut:  # a time budget (budget.py): keep the failures found so far, or the games played
            if first is None and smallest is not None:
                failed = _failed(engine, prop, smallest, count - 1, reference, counterexample_dir)
                return dataclasses.replace(failed, message=f"{failed.message}; shrinking stopped: {cut.message}")
            if first is None:
                return result(prop, Verdict.OUT_OF_TIME, f"{cut.message} during game {count}: {count - 1} games "
                              "played in full, no failure found", details=dict(_details(count - 1), capped=capped))
            if smallest is not None and not _known(smallest, found):
                found.append(smallest)
            stopped = f"; the search for other failures stopped: {cut.message}"
        except Exception as error:  # noqa: BLE001 - an adapter bug or a flaky engine becomes a verdict
            if first is None:
                return result(prop, Verdict.ERROR, f"{type(error).__name__}: {error}"[:2000], details=_details(count))
            stopped = f"; the search for other failures stopped: {type(error).__name__}: {error}"[:300]
        break
    choices = sorted({note for watcher in watchers for note in getattr(watcher, "choices", ())})
    if first is not None:
        details = dict(first.details, examples=count)
        if len(found) > 1:
            details["distinct"] = [_distinct(failure) for failure in found[1:]]
        if choices:
            details["choices"] = choices
        more = f"; {len(found) - 1} other distinct failure(s) in details" if len(found) > 1 else ""
        return dataclasses.replace(first, message=first.message + more + stopped, details=details)
    limit = f"; {capped} stopped at the harness's cap of {MAX_ROUNDS} rounds (a limit of the harness, not a " \
            "verdict on the engine)" if capped else ""
    steers = [w for w in watchers if isinstance(w, targeted.Steer)]
    reach = "".join(f"; {w.branch} reached in {w.reached} of {w.games}" for w in steers)
    details = dict(_details(count), capped=capped, **({"reached": sum(w.reached for w in steers)} if steers else {}))
    if choices:  # no failure, but another implementation-defined choice than ours: `differs` once judged
        return result(prop, Verdict.FAIL, f"{count} games; another choice where the rules let an engine choose: "
                      f"{'; '.join(choices)}{reach}{limit}", rule=CHOICE_RULE, details=dict(details, choices=choices,
                      differences=[["grey tiling", "another choice"]]))
    return result(prop, Verdict.PASS, f"{count} games{reach}{limit}", details=details)


CHOICE_RULE = "GREY-5"  # the implementation-defined rule whose other choices the differential follows


def _unplayable(capabilities: Capabilities) -> str:
    """Why no game of the protocol can be played on an engine whose hello offers none ('' if one can)."""
    players = [n for n in PLAYER_COUNTS if n in capabilities.players]
    variants = [v for v in VARIANTS if v in capabilities.variants]
    if players and variants:
        return ""
    return (f"the engine offers no game the property can play: players {list(capabilities.players)}, walls "
            f"{list(capabilities.variants)}")


class _Tolerant(Watcher):
    """A watcher whose failures already reported pass silently, so the game goes on to the next one."""

    def __init__(self, watcher: Watcher, known: list[PropertyFailure]) -> None:
        self.watcher, self.known = watcher, known

    @property
    def finished(self) -> bool:  # type: ignore[override]
        return self.watcher.finished

    def _call(self, hook: str, *args: Any) -> Any:
        try:
            return getattr(self.watcher, hook)(*args)
        except PropertyFailure as failure:
            if _known(failure, self.known):
                return None
            raise

    def on_start(self, engine, state):
        self._call("on_start", engine, state)

    def on_deal(self, engine, before, after, given):
        self._call("on_deal", engine, before, after, given)

    def on_position(self, engine, state, moves, chooser):
        self._call("on_position", engine, state, moves, chooser)

    def on_move(self, engine, before, move, after):
        self._call("on_move", engine, before, move, after)

    def on_end(self, engine, state):
        self._call("on_end", engine, state)

    def on_stall(self, engine, state, moves):
        self._call("on_stall", engine, state, moves)

    def narrow(self, state, moves):
        return self.watcher.narrow(state, moves)

    def arrange(self, state, factories):
        return self.watcher.arrange(state, factories)


def deviation_of(failure: PropertyFailure) -> str:
    """The deviation key of a property's failure, `field: kind`, as the report groups failures
    (harness/findings.py): the field the failure names, else the first state field found wrong."""
    if failure.difference is not None:
        return f"{failure.difference[0]}: {failure.difference[1]}"
    expected, actual = failure.expected, failure.actual
    if isinstance(expected, dict) and expected and all(str(k).startswith("/") for k in expected):
        path = next(iter(expected))
        return "/".join(p for p in path.strip("/").split("/") if not p.isdigit()) + ": differs"
    if isinstance(expected, list) and isinstance(actual, list):
        return f"legal moves: {'extra' if set(actual) - set(expected) else 'missing'}"
    return "property: fails"


def _known(failure: PropertyFailure, found: list[PropertyFailure]) -> bool:
    """Whether a failure of the same rule and deviation key is reported already."""
    mark = (failure.rule, deviation_of(failure))
    return any((f.rule, deviation_of(f)) == mark for f in found)


def _distinct(failure: PropertyFailure) -> dict[str, Any]:
    """A further distinct failure, with the keys of a CaseResult's main fields."""
    request, game = _request(failure.trace), _game(failure.trace)
    where = f" (request: {_said(request)}, {game})" if request else f" ({game})" if game else ""
    entry: dict[str, Any] = {"message": failure.message + where, "expected": failure.expected,
                             "actual": failure.actual, "request": request, "rule": failure.rule,
                             "deviation": deviation_of(failure), "game": None}
    if failure.trace is not None:
        entry["game"] = {"plan": vars(failure.trace.plan), "steps": failure.trace.steps}
    return entry


def _said_request(request: dict[str, Any] | None) -> str:
    if not request:
        return "a request"
    shown = {k: v for k, v in request.items() if k not in ("id", "state")}
    return " ".join(f"{v}" if k == "cmd" else f"{k}={v}" for k, v in shown.items())


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
    step = str(getattr(failure, "where", "") or "").partition(" ")[0]
    if step in STEPS:  # the kind of step the difference follows (a take, a round's end...)
        details["step"] = step
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
