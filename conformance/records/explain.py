"""Why a record and our rules part ways: the step where they do, the rule that decides it, both sides' values.

When a claim is false, the replay asks `explain_claim`: it goes back to the step that made the disputed value
(the tiling that changed the scores, the deal that named the start player, the end of the game), itemizes
what our rules did there, each item with its rule, and replays the record on the reference with each
misreading of the suite's catalogue applied (conformance/mutants: the one the diagnosis of `azul conform`
uses): a misreading under which the record plays through to a true claim names the rule, in its words. When
none does, the itemized account still shows where our value comes from. A step the engine refuses is
explained by the rule it names.

The itemization is a reading of the canonical states our engine produced, checked against them: where it
does not add up to the engine's own score it is left out rather than shown wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..located import Span
from ..tiling_account import Account as _Account, accounts
from .model import Claim

__all__ = ["Disagreement", "explain_claim", "explain_refusal", "explain_game_over"]


@dataclass(frozen=True)
class Disagreement:
    """Where the record and our rules part ways. `declared` is the record's own %differs text for `rule`."""

    where: str
    rule: str | None
    ours: str
    record: str
    detail: tuple[str, ...] = ()
    pos: Span | None = None
    declared: str | None = None
    side: str = "record"  # whose value `record` holds: the record's, or an engine's under test (replay --engine)

    def lines(self, titles: Mapping[str, str] | None = None) -> list[str]:
        title = (titles or {}).get(self.rule or "", "")
        rule = f"{self.rule} ({title})" if self.rule and title else (self.rule or (
            "not identified: no single other reading of the rules gives the record's values; our value is "
            "itemized below, rule by rule"))
        where = f"{self.where} (line {self.pos.line})" if self.pos else self.where
        out = [f"The {self.side} and our rules part ways at {where}.", f"  rule:   {rule}",
               f"  ours:   {self.ours}", f"  {self.side + ':':<7} {self.record}"]
        out += [f"    {line}" for line in self.detail]
        if self.declared:
            out.append(f"  explained: the record declares that its source differs on {self.rule}: {self.declared}")
        return out


# -- a finished step the engine refused, or a game that goes on too long ---------------------------------------

def explain_refusal(where: str, rule: str | None, message: str, record_side: str, pos: Span | None,
                    declared: Mapping[str, str]) -> Disagreement:
    return Disagreement(where, rule, f"refused: {message}", record_side, pos=pos,
                        declared=declared.get(rule or ""))


def explain_game_over(state: dict[str, Any], round_number: int, pos: Span | None,
                      declared: Mapping[str, str]) -> Disagreement:
    rows = [sum(1 for row in b["wall"] if "." not in row) for b in state["boards"]]
    if any(rows):
        complete = ", ".join(f"seat {s}: {n}" for s, n in enumerate(rows) if n)
        rule, why = "END-1", f"a complete wall row ({complete})"
    else:
        rule, why = "END-8", "no tile was left to deal (bag and lid empty)"
    ours = f"the game ended after round {state['round']}: {why}"
    return Disagreement(f"the deal of round {round_number}", rule, ours, f"round {round_number} is dealt and played",
                        pos=pos, declared=declared.get(rule))


# -- a false claim ----------------------------------------------------------------------------------------------

def explain_claim(claim: Claim, steps: Sequence[Any], declared: Mapping[str, str]) -> Disagreement | None:
    """The disagreement behind a false claim that follows steps[-1] (steps: the replay's Steps so far)."""
    state = steps[-1].state
    try:
        if claim.kind in ("final", "winners") and state["phase"] != "over":
            found = _explain_not_over(state)
        elif claim.kind in ("score", "final"):
            found = _explain_scores(claim, steps)
        elif claim.kind == "winners":
            found = _explain_winners(claim, state)
        elif claim.kind == "start":
            found = _explain_start(claim, steps)
        else:
            found = _explain_board(claim, steps)
    except (KeyError, IndexError, TypeError, ValueError):
        return None  # a state we cannot read: the claim's own message still stands
    if found is None:
        return None
    # a misreading of the rule the itemized account names comes first; the others are listed
    readings = sorted(_misreadings(claim, steps), key=lambda m: m.rule != found.rule)
    if readings:
        first, *others = readings
        detail = found.detail + (f"misreading: {first.rule}: {first.description}",)
        if others:
            detail += ("other misreadings that give the record's values too: "
                       + "; ".join(f"{m.rule}: {m.description}" for m in others),)
        found = replace(found, rule=first.rule, detail=detail)
    return replace(found, declared=declared.get(found.rule or ""))


def _misreadings(claim: Claim, steps: Sequence[Any]) -> list[Any]:
    """The catalogued misreadings under which the record plays through to this claim and the claim is true."""
    start = steps[0].state
    game = tuple(tuple(step.state["factories"]) if step.kind == "deal" else step.label for step in steps[1:])
    return list(_reproducing(start["players"], start["variant"], start["start_player"], game, claim.kind,
                             claim.args))


@lru_cache(maxsize=256)
def _reproducing(players: int, variant: str, start: int, game: tuple[Any, ...], kind: str,
                 args: tuple[int | str, ...]) -> tuple[Any, ...]:
    """Every reading of the catalogue tried on one game: a dataset that holds one wrong game many times (copies,
    or games that part at the same claim after the same moves) pays for it once a process."""
    # deferred: the catalogue and its experiment load the suite's harness, which only a false claim needs
    from ..diagnosis import CATALOGUE
    from ..diagnosis.experiment import reproducing
    from .claims import claim_mismatch

    claim = Claim(kind, args)
    steps = [list(step) if isinstance(step, tuple) else step for step in game]
    return tuple(reproducing(players, variant, start, steps, lambda state: claim_mismatch(claim, state) is None,
                             CATALOGUE))


def _explain_not_over(state: dict[str, Any]) -> Disagreement:
    return Disagreement(f"the end of round {state['round'] - 1 if state['phase'] == 'deal' else state['round']}",
                        "END-1", "no player has a complete wall row, so the game goes on (ROUND-1)",
                        "the game is over")


def _explain_winners(claim: Claim, state: dict[str, Any]) -> Disagreement:
    ranks = [(b["score"], sum(1 for row in b["wall"] if "." not in row)) for b in state["boards"]]
    ours = sorted(state["winners"])
    said = sorted(claim.args)
    top = max(score for score, _ in ranks)
    on_points = [s for s, (score, _) in enumerate(ranks) if score == top]
    if said == on_points and len(on_points) > 1:
        rule = "END-6"
    elif len(ours) > 1 and set(said) < set(ours):
        rule = "END-7"
    else:
        rule = "END-5"
    text = "; ".join(f"seat {s}: {score} points, {rows} complete rows" for s, (score, rows) in enumerate(ranks))
    return Disagreement("the end of the game", rule, "winners " + " ".join(f"seat {s}" for s in ours),
                        "winners " + " ".join(f"seat {s}" for s in said), (text,))


def _explain_start(claim: Claim, steps: Sequence[Any]) -> Disagreement:
    state = steps[-1].state
    ours = state["start_player"]
    number = state["round"]
    where = f"the start of round {number}"
    values = (f"seat {ours} starts round {number}", f"seat {claim.args[0]} starts round {number}")
    ends = [i for i in range(1, len(steps)) if _ends_round(steps, i)]
    if not ends:
        return Disagreement(where, "SETUP-5", *values, ("the StartPlayer header names round 1's start player",))
    before = steps[ends[-1] - 1].state
    if before.get("marker") == "centre":
        return Disagreement(where, "ROUND-3", *values, (f"nobody took the marker in round {number - 1}: its start "
                                                        f"player, seat {ours}, starts again",))
    return Disagreement(where, "ROUND-2", *values, (f"seat {ours} took the marker in round {number - 1}",))


_BOARD_RULES = {"wall": "TILING-1", "lines": "OFFER-7", "floor": "FLOOR-1", "centre": "OFFER-3"}


def _explain_board(claim: Claim, steps: Sequence[Any]) -> Disagreement:
    def value(state: dict[str, Any]) -> str:
        if claim.kind == "centre":
            return "".join(sorted(state["centre"])) or "-"
        board = state["boards"][claim.args[0]]
        return {"wall": "|".join(board["wall"]), "lines": "|".join(x or "-" for x in board["lines"]),
                "floor": board["floor"] or "-"}[claim.kind]

    index = len(steps) - 1
    while index > 0 and value(steps[index - 1].state) == value(steps[index].state):
        index -= 1
    step = steps[index]
    where = f"{step.kind} {step.label} of round {step.round}" if step.kind != "start" else "the start"
    return Disagreement(where, _BOARD_RULES[claim.kind], value(steps[-1].state), str(claim.args[-1]),
                        pos=getattr(step.item, "pos", None))


# -- scores: itemize the tiling, then try the other readings ----------------------------------------------------

def _ends_round(steps: Sequence[Any], index: int) -> bool:
    return (steps[index].kind in ("take", "placement") and steps[index].state["phase"] in ("deal", "over")
            and steps[index - 1].state["phase"] in ("offer", "tiling"))


def _explain_scores(claim: Claim, steps: Sequence[Any]) -> Disagreement | None:
    said = list(claim.args)
    ours = [b["score"] for b in steps[-1].state["boards"]]
    ends = [i for i in range(1, len(steps)) if _ends_round(steps, i)]
    if not ends:
        return Disagreement("the start of the game", "SETUP-2", " ".join(map(str, ours)), " ".join(map(str, said)))
    end = ends[-1]
    first = end
    while steps[first].kind == "placement":
        first -= 1  # grey wall: back to the take that ended the offer, before the placements
    accounts = _accounts(steps, first - 1, end)
    number = steps[end].round
    over = steps[end].state["phase"] == "over"
    where = f"the tiling of round {number}" + (" and the end of the game" if over else "")
    pos = getattr(steps[first].item, "pos", None)
    values = (" ".join(map(str, ours)), " ".join(map(str, said)))
    if accounts is None:
        return Disagreement(where, None, *values, pos=pos)
    detail = tuple(line for seat, account in enumerate(accounts) if said[seat] != ours[seat]
                   for line in account.lines(seat))
    unchecked = _rounds_without_score_claims(steps[:first], number)
    if unchecked:
        # The scores may have parted in an earlier tiling that the record claims nothing about.
        where = (f"the tiling of round {number} or an earlier one (the record claims no score after round"
                 f"{'s' if len(unchecked) > 1 else ''} {', '.join(map(str, unchecked))})")
    return Disagreement(where, None, *values, detail, pos)


def _rounds_without_score_claims(steps: Sequence[Any], number: int) -> list[int]:
    """The rounds before round `number` whose scores no claim checked (the records of the Faïence dataset, for
    one, claim only the final scores)."""
    claimed = {step.round for step in steps for note in getattr(step.item, "notes", ())
               if isinstance(note, Claim) and note.kind in ("score", "final")}
    checked = max(claimed, default=0)
    return [r for r in range(1, number) if r > checked]


def _accounts(steps: Sequence[Any], before_index: int, end: int) -> list[_Account] | None:
    """Each seat's account of the tiling between steps[before_index] (the last take's position) and steps[end];
    None unless every account adds up to the score our engine gave."""
    return accounts(steps[before_index].state, steps[before_index + 1].label, steps[end].state)
