"""The property checks that need no second engine: invariants, the legal-move list, acceptance of listed
moves, refusal of unlisted ones (state unchanged), drawable deals, the end of the game, load_state round trips.
"""

from __future__ import annotations

from ..engines.base import Engine, Rejected
from .canonical import candidate_moves, deal_problems, state_diff
from .invariants import moves_problems, state_problems
from .play import PropertyFailure, Watcher

ILLEGAL_TRIES = 3  # unlisted moves tried per position
LISTED_TRIES = 2  # listed moves tried (and undone with load_state) per position


def _fail(problems: list[tuple[str, str]], actual=None, difference: tuple[str, str] | None = None) -> None:
    if problems:
        rule, message = problems[0]
        more = f" (and {len(problems) - 1} more: {'; '.join(m for _, m in problems[1:4])})" if len(problems) > 1 else ""
        raise PropertyFailure(rule, message + more, actual=actual, difference=difference)


class Invariants(Watcher):
    """Every position: 100 tiles, scores >= 0, pattern lines, floor and wall constraints, phase and winners."""

    def on_start(self, engine, state):
        _fail(state_problems(state))
        if state["phase"] != "deal" or any(b["score"] for b in state["boards"]) or len(state["bag"]) != 100:
            raise PropertyFailure("SETUP-4", "a new game starts in phase 'deal', all 100 tiles in the bag, "
                                  "every score 0", expected={"phase": "deal", "bag": 100},
                                  actual={"phase": state["phase"], "bag": len(state["bag"])})

    def on_deal(self, engine, before, after, given):
        _fail(state_problems(after))

    def on_move(self, engine, before, move, after):
        _fail(state_problems(after))
        for seat, (b, a) in enumerate(zip(before["boards"], after["boards"])):
            if before["phase"] == "offer" and after["phase"] == "offer" and a["score"] != b["score"]:
                raise PropertyFailure("SCORE-3", f"board {seat}'s score changed from {b['score']} to {a['score']} "
                                      f"during the offer ({move}); scores change only at the tiling",
                                      expected=b["score"], actual=a["score"])


class LegalMoveList(Watcher):
    """The legal-move list is a set of moves of this table, non-empty while someone must move, empty otherwise."""

    def on_position(self, engine, state, moves, chooser):
        _fail(moves_problems(state, moves), actual=sorted(moves)[:20])

    def on_move(self, engine, before, move, after):
        if after["phase"] == "deal":  # a deal is due: nobody can move
            _fail(moves_problems(after, engine.legal_moves()))

    def on_end(self, engine, state):
        _fail(moves_problems(state, engine.legal_moves()))


class ListedMovesAccepted(Watcher):
    """Listed moves are accepted: a few per position are played and undone (needs load_state); the move the
    walk chooses is always played, and its refusal fails the walk itself."""

    def __init__(self, can_load: bool) -> None:
        self.can_load = can_load

    def on_position(self, engine, state, moves, chooser):
        if not self.can_load or not moves:
            return
        for _ in range(LISTED_TRIES):
            move = chooser.pick(sorted(moves))
            try:
                engine.play(move)
            except Rejected as error:
                raise PropertyFailure.listed_move_refused(move, error) from None
            engine.load_state(state)


class IllegalMovesRefused(Watcher):
    """Moves the notation can write but the engine does not list are refused with illegal_move, and the
    state is unchanged after the refusal."""

    def __init__(self, reference: Engine | None = None) -> None:
        self.reference = reference

    def on_position(self, engine, state, moves, chooser):
        listed = set(moves)
        unlisted = [m for m in candidate_moves(state) if m not in listed]
        for _ in range(min(ILLEGAL_TRIES, len(unlisted))):
            self._try(engine, state, chooser.pick(unlisted))

    def _try(self, engine, state, move):
        step = {"kind": "move", "move": move, "reject": "illegal_move"}
        try:
            engine.play(move)
        except Rejected as error:
            if error.code != "illegal_move":
                raise PropertyFailure(self._rule(state, move), f"{move} (not listed) was refused with "
                                      f"{error.code}, expected illegal_move", expected="illegal_move",
                                      actual=error.code, step=step) from None
        else:
            raise PropertyFailure(self._rule(state, move), f"{move} is not listed as legal, yet it was accepted",
                                  expected="illegal_move", actual="accepted", step=step)
        after = engine.state()
        diff = state_diff(state, after)
        if diff:
            raise PropertyFailure(self._rule(state, move), f"{move} was refused but changed the state "
                                  f"({', '.join(p for p, _, _ in diff[:5])})", expected=state, actual=after,
                                  step=step)

    def _rule(self, state, move) -> str:
        """The rule the move breaks, as the reference engine names it (a bridge through the Engine interface)."""
        if self.reference is None:
            return "OFFER-15"
        try:
            self.reference.load_state(state)
            self.reference.play(move)
        except Rejected as error:
            return error.rule or "OFFER-15"
        return "OFFER-15"  # the reference accepts it: the engine's list misses a legal move


UNDRAWABLE = ("deal", "not drawable")  # the grouping key of a deal the bag and lid cannot give (differential too)


class DealsDrawable(Watcher):
    """The engine's own deals: four tiles per factory from the bag, then the lid, as far as tiles exist."""

    def on_deal(self, engine, before, after, given):
        _fail(deal_problems(before, after), actual=after["factories"], difference=UNDRAWABLE)
        if after["phase"] not in ("offer", "over"):
            raise PropertyFailure("DEAL-1", f"after the deal the phase is {after['phase']!r}, expected 'offer'",
                                  expected="offer", actual=after["phase"])
        if given is not None and list(after["factories"]) != list(given):
            raise PropertyFailure("DEAL-1", "the engine dealt other tiles than the deal it was given",
                                  expected=given, actual=after["factories"])


class GameEnds(Watcher):
    """The game reaches `over`; then no move is listed or accepted, and the winners are the best seats."""

    def on_stall(self, engine, state, moves):
        raise PropertyFailure("OFFER-14", f"round {state['round']} is still in the offer after {moves} moves "
                              f"(every take removes at least one tile, so a round ends after at most "
                              f"{4 * len(state['factories'])} takes; moves that take no tile keep it going); "
                              f"on offer: factories {state['factories']}, centre {state['centre']!r}",
                              expected="the offer phase ends", actual=state["phase"])

    def on_end(self, engine, state):
        moves = engine.legal_moves()
        if moves:
            raise PropertyFailure("OFFER-15", f"the game is over but {sorted(moves)[:5]} are listed as legal",
                                  expected=[], actual=sorted(moves))
        try:
            engine.play("CBF")
        except Rejected:
            pass
        else:
            raise PropertyFailure("OFFER-15", "a move was accepted after the end of the game",
                                  expected="illegal_move", actual="accepted",
                                  step={"kind": "move", "move": "CBF", "reject": "illegal_move"})


class LoadStateRoundTrip(Watcher):
    """load_state(s) answers s, and `state` then answers s too (capability load_state)."""

    def _check(self, engine, state):
        loaded = engine.load_state(state)
        again = engine.state()
        for what, got in (("load_state's reply", loaded), ("the state after load_state", again)):
            diff = state_diff(state, got)
            if diff:
                raise PropertyFailure(None, f"{what} differs from the state loaded at "
                                      f"{', '.join(p for p, _, _ in diff[:5])}", expected=state, actual=got)

    def on_start(self, engine, state):
        self._check(engine, state)

    def on_deal(self, engine, before, after, given):
        self._check(engine, after)

    def on_move(self, engine, before, move, after):
        self._check(engine, after)
