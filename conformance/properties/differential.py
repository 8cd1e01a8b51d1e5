"""Differential play: the engine under test and the reference engine, step by step from the same position.

Before every step the reference is put in the engine's position (load_state), so each step is judged on its
own and one deviation does not hide the next. A `focus` picks which steps and which parts of the state a
property judges, so the report names the rule: the legal-move set, the effect of a take, the tiling and
scores, the passage to the next round, the deal, the end of the game.

`Differential.following(reference, plan)` is the same observer in lockstep (`azul fuzz`): the reference plays
the game alongside from the plan's new game, without load_state, and every step and every part of the state is
judged; each failure also says where it is (`failure.where`, the step's kind and the path without indices) so
that a campaign can count one deviation however many games show it.
"""

from __future__ import annotations

import re
from typing import Callable

from ..engines.base import Engine, Rejected
from .canonical import CanonicalState, state_diff
from .checks import UNDRAWABLE
from .deciding import deciding_rule, field_rule, step_kind
from .play import GamePlan, PropertyFailure, Watcher

FOCUSES = ("legal-moves", "takes", "tiling", "next-round", "deals", "end")
EVERYTHING = "all"  # the lockstep focus: every step, every part of the state


class Differential(Watcher):
    def __init__(self, reference: Engine, focus: str, plan: GamePlan | None = None) -> None:
        assert focus in FOCUSES or (focus == EVERYTHING and plan is not None), focus
        self.reference, self.focus, self.plan = reference, focus, plan
        self.ref_moves: list[str] | None = None
        # (rule, deviation key) -> reported already: set by the property runner once a failure is found, so that
        # a step with that difference and another shows the other (a first bug does not hide a second)
        self.known: Callable[[str, str], bool] | None = None
        self._tiling: _Tiling | None = None  # the grey-wall tiling under way
        self.choices: set[str] = set()  # other implementation-defined choices than ours the engine made (GREY-5)
        # A document of the position the reference is in: the state last loaded into it, or its own answer to
        # the last step. Loading a state costs more than the rest of a step, and the reference's position is
        # whole in its document (from_state(to_state(game)) is the same game), so an equal state is not loaded
        # again: after a step whose result the engine shares, the next position is already in place.
        self._at: CanonicalState | None = None

    @classmethod
    def following(cls, reference: Engine, plan: GamePlan) -> "Differential":
        """The lockstep observer: the reference plays `plan`'s game alongside the engine."""
        return cls(reference, EVERYTHING, plan)

    @property
    def position(self) -> CanonicalState | None:
        """The reference's position after the last step it played or was put in (None: not known), where the
        lockstep fuzz puts the engine back after a difference (fuzz/games.py)."""
        return self._at

    def _judges(self, focus: str) -> bool:
        return self.focus in (focus, EVERYTHING)

    def _sync(self, engine: Engine, state: CanonicalState) -> bool:
        if self.focus == EVERYTHING:
            return True  # the reference followed every step: it is in the engine's position already
        if engine is not self.reference and self._at is not None and state == self._at:
            return True
        try:
            self.reference.load_state(state)
        except Rejected:
            self._at = None
            return False
        self._at = state
        return True

    def _step(self, step) -> CanonicalState:
        """A play or a deal on the reference; its answer is the position it is in after it."""
        self._at = None
        self._at = step()
        return self._at

    # -- the legal moves ---------------------------------------------------------------------------------------

    def on_start(self, engine, state):
        if self.focus == EVERYTHING:
            plan = self.plan
            expected = self.reference.new_game(plan.players, plan.variant, plan.start_player)
            self._at = expected
            self._compare(expected, state, "deal", expected, "new_game")

    def on_position(self, engine, state, moves, chooser):
        if self._tiling is not None and self._tiling.other_choice:
            self.ref_moves = None  # the engine tiles in its own order: its pending choice is not ours to list
            return
        self.ref_moves = self.reference.legal_moves() if self._sync(engine, state) else None
        if not self._judges("legal-moves") or self.ref_moves is None:
            return
        extra = sorted(set(moves) - set(self.ref_moves))
        missing = sorted(set(self.ref_moves) - set(moves))
        if not extra and not missing:
            return
        rule = self._refusal_rule(engine, state, extra[0]) if extra else _missing_rule(missing)
        parts = ([f"listed but illegal: {', '.join(extra[:8])}"] if extra else []) + \
                ([f"legal but not listed: {', '.join(missing[:8])}"] if missing else [])
        raise PropertyFailure(rule, "; ".join(parts), expected=sorted(self.ref_moves), actual=sorted(moves))

    def narrow(self, state, moves):
        if self.ref_moves is None:
            return moves
        listed = set(self.ref_moves)
        both = [m for m in moves if m in listed]
        return both or moves

    def _refusal_rule(self, engine: Engine, state: CanonicalState, move: str) -> str:
        self._sync(engine, state)
        try:
            self._step(lambda: self.reference.play(move))
        except Rejected as error:
            return error.rule or "OFFER-15"
        return "OFFER-15"

    # -- the effect of a move ----------------------------------------------------------------------------------

    def on_move(self, engine, before, move, after):
        span = self._follow_tiling(before, move, after)
        if span is not None and span.other_choice:
            if after["phase"] != "tiling":
                self._judge_whole(span, after)
            return
        # The reference plays along even where this focus judges nothing: its answer is then, in a conforming
        # engine's game, the next position, which need not be loaded again.
        if not self._sync(engine, before):
            return
        try:
            expected = self._step(lambda: self.reference.play(move))
        except Rejected:
            return  # a move the reference refuses: the legal-moves property judges that
        if span is not None and _another_choice(expected, after):
            span.other_choice = _choice_shown(expected, after)
            if after["phase"] != "tiling":
                self._judge_whole(span, after)
            return
        context = step_kind(before, after)
        if self.focus not in _FOCUS_OF[context] + (EVERYTHING,):
            return
        if self.focus != EVERYTHING and context != "take" and move[0] == "C" and before["marker"] == "centre":
            return  # the marker's take and the tiling in one step: a difference could be either (takes judges it)
        self._compare(expected, after, context, before, move)

    # -- the grey wall's tiling, where the order of the placements is the engine's choice (GREY-5) ---------------

    def _follow_tiling(self, before, move, after) -> "_Tiling | None":
        """The grey-wall tiling under way (from the take that ends the offer to the round's end), or None."""
        if before["variant"] != "grey" or self.focus not in ("tiling", "next-round", "end", EVERYTHING):
            self._tiling = None
        elif before["phase"] == "offer" and after["phase"] != "offer":
            self._tiling = _Tiling(before, move)
        elif before["phase"] == "tiling" and self._tiling is not None:
            self._tiling.placements.append((before["turn"], move))
        else:
            self._tiling = None
        return self._tiling

    def _judge_whole(self, span: "_Tiling", after: CanonicalState) -> None:
        """An engine that tiles in another order or scores the floors at another moment than ours (GREY-5): its
        steps in between cannot be compared with ours, but boards do not act on one another during the tiling,
        so its outcome can. The reference plays the same take, then the engine's own placement for each line as
        its turn comes (a forced one the engine made by itself, too), and the round's end is compared. Equal: the
        engine made another choice, noted in `choices` (no failure). Else the failure, as at any round's end."""
        self._tiling = None
        try:
            self.reference.load_state(span.start)
            expected = self._step(lambda: self.reference.play(span.take))
            while expected["phase"] == "tiling":
                seat = expected["turn"]
                line = next(i for i, text in enumerate(expected["boards"][seat]["lines"]) if len(text) == i + 1)
                placed = [m for s, m in span.placements if s == seat and m.startswith(f"{line + 1}@")]
                if not placed:
                    columns = self.reference.legal_moves()
                    if len(columns) != 1:
                        raise PropertyFailure("GREY-1", f"seat {seat}'s pattern line {line + 1} went to the wall "
                                              f"without a placement move, while {', '.join(sorted(columns))} were "
                                              "open: the owner chooses the space", expected=sorted(columns),
                                              actual="no placement asked", difference=("grey placement", "not asked"))
                    placed = columns  # the only space: an engine may place it itself (GREY-5)
                expected = self._step(lambda move=placed[0]: self.reference.play(move))
        except Rejected:
            self._at = None
            return  # a position or a placement the reference cannot follow: the legal-move checks judge it
        context = "end" if after["phase"] == "over" else "round"
        if self.focus not in _FOCUS_OF[context] + (EVERYTHING,):
            self.choices.add(f"GREY-5: {span.other_choice}")
            return
        if context == "end":  # who acted last in the final tiling follows the order of the boards
            expected = dict(expected, turn=after["turn"])
        try:
            self._compare(expected, after, context, span.start, span.take)
        except PropertyFailure as failure:
            judged = PropertyFailure(failure.rule, f"the tiling of round {span.start['round']} judged whole, as "
                                     f"the engine tiles in another order than ours ({span.other_choice}; GREY-5): "
                                     f"{failure.message}", expected=failure.expected, actual=failure.actual)
            judged.where = failure.where
            raise judged from None
        self.choices.add(f"GREY-5: {span.other_choice}")

    def on_deal(self, engine, before, after, given):
        if not self._sync(engine, before):
            return
        try:
            expected = self._step(lambda: self.reference.deal(list(after["factories"])))
        except Rejected as error:
            if not self._judges("deals"):
                return
            raise PropertyFailure(error.rule or "DEAL-1", f"the engine dealt {after['factories']}, which cannot be "
                                  f"drawn from bag {before['bag']!r} and lid {before['lid']!r}: {error.message}",
                                  expected="a drawable deal", actual=after["factories"],
                                  difference=UNDRAWABLE) from None
        if self._judges("deals"):
            self._compare(expected, after, "deal", before, "deal")

    def _compare(self, expected: CanonicalState, actual: CanonicalState, context: str, before: CanonicalState,
                 step: str) -> None:
        if expected == actual:
            return
        diff = state_diff(expected, actual)
        if self.focus != EVERYTHING:
            diff = [d for d in diff if field_rule(context, d[0]) is not None]
        if self.focus == "next-round":
            diff = [d for d in diff if d[0].split("/")[1] in _ROUND_FIELDS]
        elif self.focus == "tiling":
            diff = [d for d in diff if d[0].split("/")[1] not in _ROUND_FIELDS]
        if not diff:
            return
        rules = [deciding_rule(context, path, before, expected, got, step) for path, _, got in diff]
        if self.known is not None:  # the failures reported already pass, so the next difference shows
            kept = [i for i, (path, _, _) in enumerate(diff) if not self.known(rules[i], _field_key(path))]
            diff, rules = [diff[i] for i in kept], [rules[i] for i in kept]
            if not diff:
                return
        failure = _difference(rules[0], _where(context, diff[0][0]), step, diff)
        # every other kind of difference of the same step, so that a lockstep walk that goes on after it files
        # each (fuzz/games.py): a start player and a score wrong at one round's end are two bugs
        kinds = dict.fromkeys((_where(context, path), rule) for (path, _, _), rule in zip(diff, rules))
        failure.also = [_difference(rule, where, step, [d for d, r in zip(diff, rules)
                                                        if (_where(context, d[0]), r) == (where, rule)])
                        for where, rule in list(kinds)[1:]]
        raise failure


def _where(context: str, path: str) -> str:
    """Where a difference is, in words that do not depend on the game: the step's kind and the path without
    indices (/boards/1/lines/3: boards/*/lines/*)."""
    return f"{context} {re.sub(r'/[0-9]+', '/*', path)}"


def _difference(rule: str, where: str, step: str, diff: list[tuple[str, object, object]]) -> PropertyFailure:
    shown = "; ".join(f"{p}: expected {e!r}, got {a!r}" for p, e, a in diff[:6])
    failure = PropertyFailure(rule, f"after {step}: {shown}",
                              expected={p: e for p, e, _ in diff}, actual={p: a for p, _, a in diff})
    failure.where = where
    return failure


def _field_key(path: str) -> str:
    """The deviation key of a difference at `path`: its field without indices (/boards/1/score: boards/score)."""
    return "/".join(p for p in path.strip("/").split("/") if not p.isdigit()) + ": differs"


class _Tiling:
    """A grey-wall tiling followed step by step: the position before the take that ended the offer, that take,
    the placements made since (seat, move), and what showed another choice than ours ('' while none has)."""

    def __init__(self, start: CanonicalState, take: str) -> None:
        self.start, self.take = start, take
        self.placements: list[tuple[int, str]] = []
        self.other_choice = ""


def _another_choice(expected: CanonicalState, actual: CanonicalState) -> bool:
    """During a grey tiling: the engine waits on another seat or phase, or has taken a board's floor at
    another moment (GREY-5 leaves both to it)."""
    return (expected["phase"], expected["turn"]) != (actual["phase"], actual["turn"]) or any(
        a["floor"] != b["floor"] for a, b in zip(expected["boards"], actual["boards"]))


def _choice_shown(expected: CanonicalState, actual: CanonicalState) -> str:
    """The choice, in words that do not depend on the game (so that each is noted once)."""
    if expected["phase"] != actual["phase"]:
        return "a placement with a single legal space is made without asking for it"
    if expected["turn"] != actual["turn"]:
        return "the boards are tiled in another order than seat by seat from the round's start player"
    return "a board's floor is scored at another moment than as soon as that board's tiling is done"


_ROUND_FIELDS = {"phase", "round", "turn", "start_player", "marker"}
_FOCUS_OF = {"take": ("takes",), "round": ("tiling", "next-round"), "end": ("end",), "tiling": ("tiling",)}


def _missing_rule(missing: list[str]) -> str:
    if all("@" in m for m in missing):
        return "GREY-1"
    if all(m.endswith("F") for m in missing):
        return "OFFER-11"
    return "OFFER-7"
