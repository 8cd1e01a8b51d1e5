"""From failing cases to findings: the level each result is judged at, and the deviations behind the failures.

A failure's key is the first state field it finds wrong, in the order of FIELDS, and the kind of difference
(`winners: absent`, `bag: fewer`, `refusal: accepted`). Failing cases with the same key form one deviation,
named by the rule that field belongs to (the rule most of its cases break), shown by its smallest case.
A failure is judged at the strictest level (rule, ruling, implementation-defined) of the rules it depends on:
the case's rules of the field's chapters, or the rule the failure names. Where that is implementation-defined,
the verdict is `differs`, never `fail`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..results import CaseKind, CaseResult, Level, Verdict
from .report import rule_key

# Where a difference shows, in the order that picks a case's key (causes before their consequences).
FIELDS: dict[str, tuple[str, ...]] = {
    "state": (), "new game": ("SETUP",), "refusal": ("OFFER",), "refusal rule": ("OFFER",), "move": ("OFFER",),
    "refused move": ("OFFER",), "deal": ("DEAL",), "legal moves": ("OFFER", "GREY"),
    "phase": ("END", "ROUND", "OFFER", "TILING"),
    "round": ("ROUND",), "start_player": ("ROUND",), "turn": ("OFFER", "ROUND"), "marker": ("OFFER", "ROUND"),
    "factories": ("DEAL", "OFFER"), "centre": ("OFFER",), "bag": ("DEAL", "SETUP"), "lid": ("FLOOR", "DEAL"),
    "boards/lines": ("OFFER", "TILING"), "boards/floor": ("FLOOR", "OFFER"), "boards/wall": ("TILING", "WALL", "GREY"),
    "boards/score": ("SCORE", "FLOOR", "END"), "winners": ("END",),
}
ORDER = {name: index for index, name in enumerate(FIELDS)}
# Rules of a field's chapters that never decide that field: the end bonuses and the winners (END-2 to END-7)
# come after the game has ended, so a wrong phase is END-1's or END-8's, never theirs.
NOT_DECIDING: dict[str, frozenset[str]] = {"phase": frozenset(f"END-{n}" for n in range(2, 8))}
STRICTNESS = {level: index for index, level in enumerate(Level)}


@lru_cache(maxsize=1)
def rule_levels() -> dict[str, str]:
    from ..spec_data import SpecError, load_spec

    try:
        return {rule.id: rule.level for rule in load_spec().rules}
    except SpecError:
        return {}


def differences(result: CaseResult) -> list[tuple[str, str]]:
    """Every (field, kind) a failing result found, in the order it found them."""
    found = [tuple(d) for entry in result.failures for d in entry.get("differences", ())]
    found += [tuple(d) for d in result.details.get("differences", ())]
    if found or result.kind is not CaseKind.PROPERTY:
        return found
    expected, actual = result.expected, result.actual
    if isinstance(expected, dict) and expected and all(str(k).startswith("/") for k in expected):
        return [("/".join(p for p in k.strip("/").split("/") if not p.isdigit()), "differs") for k in expected]
    if isinstance(expected, list) and isinstance(actual, list):
        return [("legal moves", "extra" if set(actual) - set(expected) else "missing")]
    return [(f"property {result.id}", "fails")]


def key(result: CaseResult) -> str:
    """The deviation key of a failing result ('' for a result that is not a failure)."""
    if result.verdict not in (Verdict.FAIL, Verdict.DIFFERS):
        return str(result.verdict) if result.bad else ""
    found = differences(result)
    if not found:
        return "other: differs"
    field, kind = min(found, key=lambda d: (ORDER.get(d[0], len(ORDER)), found.index(d)))
    return f"{field}: {kind}"


def failing_rules(result: CaseResult) -> list[str]:
    """The rules a failure depends on: the one it names, else those the moves it found wrongly listed break,
    else the case's rules of the failing field's chapters."""
    named = [entry["rule"] for entry in result.failures if entry.get("rule")]
    if result.rule or named:
        return [result.rule or named[0]]
    broken = [rule for entry in result.failures for rule in entry.get("broken_rules", ())]
    # The rulebooks' rules first: they name a deviation that breaks both a rule and a ruling. A refusal the
    # reference files under an implementation-defined rule (GREY-5, the order of grey placements, also refuses
    # a lower line placed first, which TILING-1 forbids) never turns a scenario's failure into `differs`.
    if broken and Level.IMPLEMENTATION_DEFINED not in {rule_levels().get(r) for r in broken}:
        return sorted(dict.fromkeys(broken), key=lambda r: STRICTNESS.get(rule_levels().get(r), 0))
    field = result.deviation.partition(":")[0]
    chapters, never = FIELDS.get(field, ()), NOT_DECIDING.get(field, frozenset())
    return [r for r in result.rules if r.split("-")[0] in chapters and r not in never] or list(result.rules)


def strictest(rules: list[str] | tuple[str, ...]) -> Level:
    levels = [Level(rule_levels()[r]) for r in rules if rule_levels().get(r) in set(Level)]
    return min(levels, key=STRICTNESS.__getitem__, default=Level.RULE)


def judge(result: CaseResult, tag: str | None = None, size: int | None = None) -> CaseResult:
    """The result with its level and deviation key; a failure on implementation-defined behaviour `differs`.
    `tag` is the scenario's own level: an implementation-defined scenario's expectations are one choice."""
    details = dict(result.details, size=size) if size is not None else result.details
    result = dataclasses.replace(result, details=details)
    result = dataclasses.replace(result, deviation=key(result))
    if tag == Level.IMPLEMENTATION_DEFINED:
        level = Level.IMPLEMENTATION_DEFINED
    elif result.bad:
        level = strictest(failing_rules(result))
    else:
        level = Level(tag) if tag in set(Level) else strictest(result.rules)
    verdict = Verdict.DIFFERS if result.verdict is Verdict.FAIL and level is Level.IMPLEMENTATION_DEFINED \
        else result.verdict
    return dataclasses.replace(result, level=level, verdict=verdict)


@dataclass(frozen=True)
class Deviation:
    key: str
    rule: str
    level: str
    cases: tuple[CaseResult, ...]  # the smallest first

    @property
    def smallest(self) -> CaseResult:
        return self.cases[0]


def deviations(results: list[CaseResult] | tuple[CaseResult, ...]) -> list[Deviation]:
    """The failures grouped by key and level, the largest group first; `differs` results are left out. The
    level splits a key: the same field found wrong where the rulebooks decide and where only our ruling does
    (the start player after a round with and without a centre take) are two findings, reported apart."""
    groups: dict[tuple[str, Level], list[CaseResult]] = {}
    for result in results:
        if result.bad:
            level = Level(result.level) if result.level in set(Level) else Level.RULE
            groups.setdefault((result.deviation or key(result), level), []).append(result)
    found = []
    for (name, level), cases in groups.items():
        votes = Counter(rule for case in cases for rule in failing_rules(case))  # ties: the first a case names
        first = list(votes)
        rule = min(votes, key=lambda r: (-votes[r], first.index(r))) if votes else "protocol"
        ordered = tuple(sorted(cases, key=lambda c: (_size(c), c.id)))
        found.append(Deviation(name, rule, level, ordered))
    return sorted(found, key=lambda d: (STRICTNESS[d.level], -len(d.cases), rule_key(d.rule), d.key))


def _size(result: CaseResult) -> int:
    size = result.details.get("size")
    return size if isinstance(size, int) else 10**6


def scores(results: list[CaseResult] | tuple[CaseResult, ...]) -> dict[str, dict[str, int]]:
    """For each level: cases judged, passed, failed (bad) and differing; skipped cases are not judged."""
    table = {str(level): {"judged": 0, "pass": 0, "fail": 0, "differs": 0} for level in Level}
    for result in results:
        if not result.verdict.judged:
            continue
        row = table[result.level if result.level in table else Level.RULE]
        row["judged"] += 1
        row["pass" if result.verdict is Verdict.PASS else "differs" if result.verdict is Verdict.DIFFERS
            else "fail"] += 1
    return table


def score_text(level: str, row: dict[str, int]) -> str:
    name = LEVEL_NAMES[level]
    if level == Level.IMPLEMENTATION_DEFINED:
        return f"{name}: {row['pass']} of {row['judged']} as ours, {row['differs']} differ, {row['fail']} bad"
    return f"{name}: {row['pass']} of {row['judged']} pass"


LEVEL_NAMES = {Level.RULE: "rules as written", Level.RULING: "our rulings",
               Level.IMPLEMENTATION_DEFINED: "implementation-defined"}


def failing(results: list[CaseResult], rules_only: bool = False) -> list[CaseResult]:
    """The results that make the run fail: bad ones at level rule, and at level ruling unless `rules_only`."""
    levels = {Level.RULE} if rules_only else {Level.RULE, Level.RULING}
    return [r for r in results if r.bad and (r.level in levels or r.level not in set(Level))]


def rule_text(rule_id: str) -> str:
    """`OFFER-6 (ruling): statement. Authority: ... (file:line)`, for the reports."""
    rule = _rules().get(rule_id)
    if rule is None:
        return rule_id
    text = f"{rule.id} ({rule.level}): {rule.statement}"
    if rule.ruling is not None:
        text += f" Ruling's authority: {rule.ruling.authority}, confidence {rule.ruling.confidence} ({rule.location})."
    return text


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    from ..spec_data import SpecError, load_spec

    try:
        return {rule.id: rule for rule in load_spec().rules}
    except SpecError:
        return {}
