"""From failing cases to findings: the level each result is judged at, and the deviations behind the failures.

A deviation is one cause and the failing cases it explains. The causes are found by experiment
(conformance/diagnosis: the misreading of the rules that reproduces what the engine did); this module holds
what a deviation is, and the grouping that stands where no misreading explains a failure: a failure's
symptom is the first state field it finds wrong, in the order of FIELDS, and the kind of difference
(`winners: absent`, `bag: fewer`, `refusal: accepted`); it is filed under the rule that decides that field at
the step it follows (properties/deciding.py: the scenario runner's `decided_by`, the properties' and the fuzz's
rule), and failing cases with the same symptom after the same kind of step under the same rule form one
undiagnosed deviation, whichever other cases the run judged. Crashes, timeouts, refused queries and
impossible positions are engine faults, grouped by kind.
A failure is judged at the strictest level (rule, ruling, implementation-defined) of the rules it depends on:
the case's rules of the field's chapters, or the rule the failure names. Where that is implementation-defined,
the verdict is `differs`, never `fail`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..results import CaseKind, CaseResult, Level, Verdict
from ..spec_data import SpecError, load_spec, rule_key

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
# The only rules that decide a field, the first where a case names none of them: who wins is END-5 to END-7's,
# never END-1's (when the game ends) nor a bonus's.
ONLY_DECIDING: dict[str, tuple[str, ...]] = {"winners": ("END-5", "END-6", "END-7")}
STRICTNESS = {level: index for index, level in enumerate(Level)}


@lru_cache(maxsize=1)
def rule_levels() -> dict[str, str]:
    try:
        return {rule.id: rule.level for rule in load_spec(translations=False).rules}
    except SpecError:
        return {}


def differences(result: CaseResult) -> list[tuple[str, str]]:
    """Every (field, kind) a failing result found, in the order it found them."""
    found = [tuple(d) for entry in result.failures for d in entry.get("differences", ())]
    found += [tuple(d) for d in result.details.get("differences", ())]
    if found or result.kind not in (CaseKind.PROPERTY, CaseKind.FUZZ):  # a fuzz finding is a property's game
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
    field = (result.symptom or key(result)).partition(":")[0]
    decided = decided_rule(result, field)
    if decided:
        return [decided]
    # a report written before the scenarios said which rule decides a field: the case's rules of its chapters
    if field in ONLY_DECIDING:
        return [r for r in result.rules if r in ONLY_DECIDING[field]] or [ONLY_DECIDING[field][0]]
    chapters, never = FIELDS.get(field, ()), NOT_DECIDING.get(field, frozenset())
    return [r for r in result.rules if r.split("-")[0] in chapters and r not in never] or list(result.rules)


def decided_rule(result: CaseResult, field: str) -> str | None:
    """The rule that decides `field` at the step the failing assertions follow (the scenario runner's
    `decided_by`, properties/deciding.py's `deciding_rule`), for the first failing check of that field."""
    for entry in result.failures:
        for (found, _), rule in zip(entry.get("differences", ()), entry.get("decided_by") or ()):
            if found == field and rule:
                return rule
    return None


def strictest(rules: list[str] | tuple[str, ...]) -> Level:
    levels = [Level(rule_levels()[r]) for r in rules if rule_levels().get(r) in set(Level)]
    return min(levels, key=STRICTNESS.__getitem__, default=Level.RULE)


UNSUPPORTED_OFFERED = "request: unsupported"  # `unsupported` to what the engine's hello offers (Capabilities.offers)


def judge(result: CaseResult, tag: str | None = None, size: int | None = None) -> CaseResult:
    """The result with its level and deviation key; a failure on implementation-defined behaviour `differs`.
    `tag` is the scenario's own level: an implementation-defined scenario's expectations are one choice."""
    details = dict(result.details, size=size) if size is not None else result.details
    result = dataclasses.replace(result, details=details)
    result = dataclasses.replace(result, symptom=key(result))
    if result.verdict is Verdict.FAIL and not result.rule:
        # filed under the rule that decides the first field found wrong, and counted there only (report.by_rule)
        decided = decided_rule(result, result.symptom.partition(":")[0])
        result = dataclasses.replace(result, rule=decided) if decided else result
    if result.symptom == UNSUPPORTED_OFFERED:  # a broken promise of the hello: no choice the rules leave
        level = Level.RULE
    elif tag == Level.IMPLEMENTATION_DEFINED:
        level = Level.IMPLEMENTATION_DEFINED
    elif result.bad:
        level = strictest(failing_rules(result))
        if level is Level.IMPLEMENTATION_DEFINED and tag in set(Level):
            # a scenario of a rule or a ruling whose first wrong field an implementation-defined rule decides (the
            # order of grey placements) still fails: its expectations are no choice (as refiled() keeps them)
            level = Level(tag)
    else:
        level = Level(tag) if tag in set(Level) else strictest(result.rules)
    verdict = Verdict.DIFFERS if result.verdict is Verdict.FAIL and level is Level.IMPLEMENTATION_DEFINED \
        else result.verdict
    return dataclasses.replace(result, level=level, verdict=verdict)


def refiled(result: CaseResult, rules: tuple[str, ...]) -> CaseResult:
    """A failing case explained by a misreading of `rules` (the first is the one it is filed under), counted there:
    the rule-by-rule table, the matrix and the scores by level count it once, under the misreading, not as a
    second broken rule (an END-6 tie-break read wrong also fails END-1's cases). Its level becomes the
    misreading's (a ruling's misreading does not count against the rules as written), but never
    implementation-defined: the failure stays one. What it was filed under is kept in details["filed_from"],
    so that a report diagnosed again starts from the case itself (`unfiled`)."""
    if not rules or result.main_rule in rules:
        return result
    level = strictest(rules)
    if level is Level.IMPLEMENTATION_DEFINED:
        level = Level(result.level) if result.level in set(Level) else Level.RULE
    details = dict(result.details, filed_from={"rule": result.rule, "level": result.level})
    return dataclasses.replace(result, rule=rules[0], level=str(level), details=details)


def unfiled(result: CaseResult) -> CaseResult:
    """The case as its run judged it, before a diagnosis filed it under another rule's misreading (`refiled`)."""
    filed_from = result.details.get("filed_from")
    if not isinstance(filed_from, dict):
        return result
    details = {k: v for k, v in result.details.items() if k != "filed_from"}
    return dataclasses.replace(result, rule=filed_from.get("rule"), level=filed_from.get("level") or "",
                               details=details)


@dataclass(frozen=True)
class Misreading:
    """A wrong reading of the rules from the catalogue (conformance/mutants), or two at once (ids joined by +)."""

    id: str
    rules: tuple[str, ...]
    description: str
    sources: tuple[str, ...] = ()

    @property
    def heading(self) -> str:
        """`FLOOR-3: the first floor space costs nothing.`; a pair: `both at once: END-6: ... / FLOOR-4: ...`."""
        return f"{self.rules[0]}: {self.description}" if len(self.rules) == 1 else f"both at once: {self.description}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rules": list(self.rules), "description": self.description}


@dataclass(frozen=True)
class Evidence:
    """What the smallest case shows: what the rules give there, what the engine did, and (for a misreading)
    that the reference reading the rule that way does the same."""

    case: str
    where: str
    expected: Any
    actual: Any
    text: str

    @classmethod
    def of(cls, result: CaseResult, reading: "Misreading | None" = None) -> "Evidence":
        where, expected, actual = _first_difference(result)
        if expected is None and actual is None and result.message:
            # an error or a crash compares no values: what the engine said is the evidence
            said = result.message if len(result.message) <= 300 else result.message[:297] + "..."
            return cls(result.id, where, expected, actual, f"{result.id} ({where}): {said}")
        both = _set_difference(expected, actual)
        text = f"{result.id} ({where}): " + (
            both or f"the rules give {_shown(expected)}, the engine {_shown(actual)}")
        if reading is not None:
            text += ("; with this misreading the reference does the same" if both else
                     f"; with this misreading the reference gives {_shown(actual)} too")
        return cls(result.id, where, expected, actual, text)

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case, "where": self.where, "expected": self.expected, "actual": self.actual,
                "text": self.text}


def _first_difference(result: CaseResult) -> tuple[str, Any, Any]:
    for entry in result.failures:
        if entry.get("where"):
            problems = entry.get("problems") or [""]
            assertion = str(entry.get("assertion", "")).splitlines()[0:1] or [""]
            return f"{entry['where']}: {assertion[0]}".strip(), _one(entry.get("expected")), \
                _one(entry.get("actual")) if problems else None
    where = result.details.get("at") or (_said(result.request) if result.request else result.where)
    return where, result.expected, result.actual


def _set_difference(expected: Any, actual: Any) -> str | None:
    """Two lists of names (legal moves, say) told by what one has and the other lacks: two lists of 60 moves
    cut at 160 characters would show the same first moves and hide the difference."""
    if not (isinstance(expected, list) and isinstance(actual, list) and len(expected) + len(actual) > 6
            and all(isinstance(v, str) for v in expected + actual)) or set(expected) == set(actual):
        return None
    extra, lacking = sorted(set(actual) - set(expected)), sorted(set(expected) - set(actual))
    parts = [f"the rules give {len(expected)}, the engine {len(actual)}"]
    if extra:
        parts.append(f"the engine adds {_listed(extra)}")
    if lacking:
        parts.append(f"the engine lacks {_listed(lacking)}")
    return ", ".join(parts)


def _listed(names: list[str], most: int = 8) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _one(values: Any) -> Any:
    return values[0] if isinstance(values, list) and len(values) == 1 else values


def _said(request: Any) -> str:
    if isinstance(request, dict) and request.get("cmd") == "play":
        return f"play {request.get('move')}"
    if isinstance(request, dict) and request.get("cmd") == "deal":
        return "deal " + " ".join(str(f) or "-" for f in request.get("factories") or [])
    return str(request)


def _shown(value: Any) -> str:
    """A value in running text: a string as it is, unless it is empty or blank (`""`, `" "`: never nothing)."""
    text = value if isinstance(value, str) and value.strip() else json.dumps(value, default=str, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


# The kinds of deviation, in the order reports give them.
KINDS = ("misreading", "undiagnosed", "engine-fault")


def closeness_text(score: float) -> str:
    """How near a misreading shown beside cases nothing explains came: a share, or, where it reproduces every one
    of them (the diagnosis dropped it: other cases of the run rule it out), that, so that "100%" beside "not
    diagnosed" does not read as a contradiction."""
    if score >= 1.0:
        return "reproduces these cases exactly, but other cases of this run rule it out"
    return f"{score:.0%}"


@dataclass(frozen=True)
class Deviation:
    """Failing cases with one cause: a misreading of the rules that reproduces them (`misreading`), or, where
    none does, the same symptom (`undiagnosed`: the first state field found wrong in the same way), or the
    engine's own trouble (`engine-fault`: crashes, timeouts, refused queries, impossible positions)."""

    id: str
    kind: str
    rule: str
    level: str
    cases: tuple[CaseResult, ...]  # the smallest first
    key: str = ""  # the symptom (undiagnosed, engine faults)
    misreading: Misreading | None = None
    alike: tuple[Misreading, ...] = ()  # other misreadings that explain every one of its cases as well
    nearest: tuple[tuple[Misreading, float], ...] = ()  # undiagnosed: the misreadings that came closest
    evidence: Evidence | None = None

    @property
    def smallest(self) -> CaseResult:
        return self.cases[0]

    @property
    def of_ruling(self) -> bool:
        """A difference from one of our rulings (a rule the rulebooks leave open or disagree on, decided by this
        project with its authority), not a misreading of the rules: reported in a section of its own."""
        return self.misreading is not None and set(self.misreading.sources) == {"ruling"}

    @property
    def title(self) -> str:
        """The heading: the misreading in words (a ruling taken otherwise said so), or the symptom and the rule
        it is filed under."""
        if self.of_ruling:
            return f"differs from our ruling {self.rule}: {self.misreading.description}"
        if self.misreading is not None:
            return self.misreading.heading
        if self.kind == "engine-fault":
            return f"engine fault: {self.key}"
        return f"not diagnosed: {self.key} (filed under {self.rule})"

    @property
    def shown_evidence(self) -> Evidence:
        """The evidence: the diagnosis's, else what the smallest case shows."""
        return self.evidence or Evidence.of(self.smallest)

    def to_json(self) -> dict[str, Any]:
        evidence = self.shown_evidence
        data = {"type": "deviation", "id": self.id, "rule": self.rule, "level": self.level,
                "misreading": self.misreading.id if self.misreading else None, "kind": self.kind,
                "rules": list(self.misreading.rules) if self.misreading else [self.rule],
                "description": self.misreading.description if self.misreading else self.title,
                "cases": [c.id for c in self.cases], "evidence": evidence.to_json()}
        if self.of_ruling:
            data["ruling"] = True
        if self.key:
            data["symptom"] = self.key
        if self.alike:
            data["alike"] = [m.to_json() for m in self.alike]
        if self.nearest:
            data["nearest"] = [{**m.to_json(), "closeness": score} for m, score in self.nearest]
        return data


FAULTS = {Verdict.CRASH: "crash", Verdict.TIMEOUT: "timeout", Verdict.ERROR: "error"}


def fault_groups(results: list[CaseResult] | tuple[CaseResult, ...]) -> tuple[list[Deviation], list[CaseResult]]:
    """The engine faults among bad results (one deviation per kind of fault), and the rest."""
    groups: dict[str, list[CaseResult]] = {}
    rest = []
    for result in results:
        if not result.bad:
            continue
        kind = FAULTS.get(result.verdict) or ("impossible state" if result.symptom == "state: impossible" else None)
        if kind is None:
            rest.append(result)
        else:
            groups.setdefault(kind, []).append(result)
    faults = []
    for kind, cases in groups.items():
        ordered = tuple(sorted(cases, key=lambda c: (_size(c), c.id)))
        faults.append(Deviation(f"engine-fault-{kind.replace(' ', '-')}", "engine-fault", _filed_under(cases),
                                strictest_level(ordered), ordered, key=kind))
    return faults, rest


def symptom_groups(results: list[CaseResult] | tuple[CaseResult, ...]) -> list[Deviation]:
    """Failures grouped by their first difference (the field, how it differs, the kind of step it follows) and
    the rule that decides that field there, the largest group first. Each case's group is its own (never a vote
    of the others), so that a group's rule is the same whichever cases a run judged (--only, -j, the seed).
    The rule splits a symptom: the same field found wrong where the rulebooks decide and where only our ruling
    does (the start player after a round with and without a centre take) are two findings, reported apart."""
    groups: dict[tuple[str, str, str], list[CaseResult]] = {}
    for result in results:
        if result.bad:
            groups.setdefault(symptom_key(result), []).append(result)
    found = []
    for (name, rule, _), cases in groups.items():
        ordered = tuple(sorted(cases, key=lambda c: (_size(c), c.id)))
        found.append(Deviation(f"undiagnosed-{_slug(rule)}-{_slug(name)}", "undiagnosed", rule,
                               strictest_level(ordered), ordered, key=name))
    return sorted(found, key=lambda d: (STRICTNESS[d.level], -len(d.cases), rule_key(d.rule), d.key))


def symptom_key(result: CaseResult) -> tuple[str, str, str]:
    """A failure's first difference as symptom_groups groups them: (the field and how it differs, with the kind
    of step it follows; the rule that decides it there; the level)."""
    name = result.symptom or key(result)
    step = step_of(result)
    rules = failing_rules(result)
    return (f"{name} after {STEP_WORDS.get(step, step)}" if step else name, rules[0] if rules else "protocol",
            str(result.level))


STEP_WORDS = {"take": "a take", "round": "a round's end", "tiling": "a tiling step", "end": "the game's end",
              "deal": "a deal"}


def step_of(result: CaseResult) -> str:
    """The kind of step the first difference follows (properties/deciding.py's STEPS), where the run said."""
    for entry in result.failures:
        if entry.get("step"):
            return str(entry["step"])
    return str(result.details.get("step") or "")


def deviations(results: list[CaseResult] | tuple[CaseResult, ...]) -> list[Deviation]:
    """Without diagnosis (`--no-diagnose`, a report read back): the failures by symptom, then the engine
    faults; `differs` results are left out."""
    faults, rest = fault_groups(results)
    return symptom_groups(rest) + faults


def with_deviation_ids(results: list[CaseResult] | tuple[CaseResult, ...],
                       found: tuple[Deviation, ...] | list[Deviation]) -> list[CaseResult]:
    """Each result with the id of the deviation it belongs to ("" for one in none)."""
    ids = {case.id: deviation.id for deviation in found for case in deviation.cases}
    return [dataclasses.replace(r, deviation=ids.get(r.id, "")) for r in results]


def _filed_under(cases: list[CaseResult]) -> str:
    """The rule most of the cases' failures depend on (ties: the first a case names)."""
    votes = Counter(rule for case in cases for rule in failing_rules(case))
    first = list(votes)
    return min(votes, key=lambda r: (-votes[r], first.index(r))) if votes else "protocol"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "other"


def strictest_level(results: tuple[CaseResult, ...] | list[CaseResult]) -> str:
    levels = [Level(r.level) for r in results if r.level in set(Level)]
    return min(levels, key=STRICTNESS.__getitem__, default=Level.RULE)


def judge_verdict(result: CaseResult, verdict: Verdict) -> CaseResult:
    """A failure another implementation-defined choice explains: it `differs`, at that level."""
    return dataclasses.replace(result, verdict=verdict, level=Level.IMPLEMENTATION_DEFINED)


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
    try:
        return {rule.id: rule for rule in load_spec(translations=False).rules}
    except SpecError:
        return {}
