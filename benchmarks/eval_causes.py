#!/usr/bin/env python3
"""The diagnosis of the published engines' reports, scored against their hand-made causes, held out and in-sample.

    python benchmarks/eval_causes.py            # each engine, then all of them
    python benchmarks/eval_causes.py --json docs/reports/diagnosis/causes.json

Each engine's `docs/reports/<engine>/causes.yaml` says, from its write-up and its code, which cause is behind
each failing case of its committed report (tests/test_causes.py keeps it whole). Two diagnoses of each report
are scored against it:

- **held out** (leave one engine out): the report diagnosed again (as `azul diagnose` does, in-process) without
  the readings that this engine's own failures prompted (`Mutant.prompted_by`: written after meeting it). This
  is the score on an engine the catalogue was not fitted to, the one to quote.
- **held out, first clean-room round only**: the same, without the later clean-room rounds' readings as well
  (clean_room.later_rounds(): written from the rules' text alone, but from angles chosen by people who had seen
  the held-out misses) and no rule that is a number fitted to the engine (mutants/families.py: a rule's whole
  range of values, chosen so too), so that what those add can be told apart.
- **in-sample**: the committed report's own deviations, diagnosed with the whole catalogue, which holds readings
  written after meeting the engine they explain; so it flatters.

A case counts as **named right** when its deviation names the misreading its cause is (or lists it as
indistinguishable, or names it in a pair), or the misreading of one of its `also` causes, or a reading at least
as exact as the cause's reading on the cause's cases: run again on the reference with each, it reproduces every
case of the cause that the cause's reading reproduces (at least one). (A reading that also reproduces cases of the
cause that the cause's reading misses is a more exact account of the same bug, not another one.) An engine fault
(a bug that is no reading of the rules) is named right when no misreading is blamed for it.

- precision: of the cases the diagnosis gives a misreading, how many get the right one;
- recall: of the cases whose cause is a catalogued misreading, how many are given it;
- causes found: of the causes that are misreadings, how many some deviation names (on one of their cases);
- split by whether the catalogue the diagnosis had still holds the cause's reading (held out, the engine's own
  readings are taken out): where it does, precision and recall as above (`covered_*`: how well the diagnosis finds
  a reading it has); where it holds none (the reading was taken out, or the cause is an engine fault), how many are
  given one all the same, how many of those a right one (a reading as exact, written from the rules' text alone),
  and the share given a wrong one (`false_heading`: a heading where the honest answer is "not diagnosed").

Goals: precision and recall of at least 90% (issue 23); over every engine of the matrix, precision at least 95% and
recall at least 90%, every case missed or misnamed explained by its cause's note (issue 39); the same held out,
precision at least 95% and recall at least 85% (issue 45). With --json, each engine's write-up gets both its scores
and its misses written again (between its two diagnosis-misses markers), and README.md the totals (between its
diagnosis-scores markers).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from azul_conformance.diagnosis import diagnose
from azul_conformance.diagnosis.cover import CATALOGUE, decided
from azul_conformance.diagnosis.experiment import reproduce
from azul_conformance.diagnosis.observe import observation
from azul_conformance.harness.cases import Case, property_cases, scenario_cases
from azul_conformance.harness.findings import unfiled
from azul_conformance.harness.report import read_report
from azul_conformance.mutants.catalogue import Mutant, reading as reading_of
from azul_conformance.mutants.families import FAMILIES
from azul_conformance.mutants.clean_room import readings as from_the_text, later_rounds
from azul_conformance.mutants.patching import MutantEngine

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "docs" / "reports"
PUBLISHED = REPORTS / "diagnosis" / "causes.json"
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_reports  # noqa: E402  (the docs' own lookup of an engine's write-up)

HELD_OUT, FIRST_ROUND, IN_SAMPLE = "held_out", "held_out_first_round", "in_sample"
ABOUT = {
    HELD_OUT: "leave one engine out: each engine's report diagnosed again without the readings its own failures "
              "prompted (written after meeting it), then scored against its causes.yaml",
    FIRST_ROUND: "held out as above, and without the later clean-room rounds' readings (written from the rules' "
                 "text alone, from angles chosen with the held-out misses in view) or the rules that are numbers "
                 "fitted to the engine (mutants/families.py, chosen so too)",
    IN_SAMPLE: "each engine's committed report, diagnosed with the whole catalogue (readings written after meeting "
               "the engine they explain included), scored against its causes.yaml",
}


@dataclass
class Score:
    engine: str
    named: int = 0  # cases given a misreading by the diagnosis
    right: int = 0  # of those, the right one
    right_rule: int = 0  # of those, one of the right rule (the blind score's measure: the author reads that rule)
    due: int = 0  # cases whose cause is a catalogued misreading
    found: int = 0  # of those, given it
    found_rule: int = 0  # of those, given a misreading of its rule
    faults: int = 0  # engine-fault cases
    faults_right: int = 0
    causes: int = 0  # misreading causes
    causes_found: int = 0
    # split by whether the catalogue the diagnosis had holds the cause's reading (held out, an engine's own
    # readings are taken out): where it does, how well the diagnosis finds it; where it does not (the reading was
    # taken out, or the cause is an engine fault), how often it names some reading all the same
    covered: int = 0  # failing cases whose cause's reading the catalogue held
    covered_named: int = 0
    covered_right: int = 0
    covered_found: int = 0
    uncovered: int = 0  # failing cases whose cause has no reading in the catalogue the diagnosis had
    uncovered_named: int = 0  # of those, given a misreading all the same
    uncovered_right: int = 0  # of those, given one as exact as the cause's (one written from the rules' text)
    uncovered_right_rule: int = 0  # of those, one of the cause's rule
    held_out: list[str] = field(default_factory=list)  # the readings taken out of the catalogue
    missed: list[str] = field(default_factory=list)  # the misreading causes no deviation names

    COUNTS = ("named", "right", "right_rule", "due", "found", "found_rule", "faults", "faults_right", "causes",
              "causes_found", "covered", "covered_named", "covered_right", "covered_found", "uncovered",
              "uncovered_named", "uncovered_right", "uncovered_right_rule")

    def add(self, other: "Score") -> None:
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.held_out += [m for m in other.held_out if m not in self.held_out]
        self.missed += [f"{other.engine}: {cause}" for cause in other.missed]

    @property
    def precision(self) -> float:
        return self.right / self.named if self.named else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.due if self.due else 1.0

    @property
    def covered_precision(self) -> float:
        return self.covered_right / self.covered_named if self.covered_named else 1.0

    @property
    def covered_recall(self) -> float:
        return self.covered_found / self.covered if self.covered else 1.0

    @property
    def false_heading(self) -> float:
        """Of the failing cases whose cause's reading the catalogue lacked, the share given a wrong one (a reading
        as exact as the one taken out, written from the rules' text alone, is no false heading)."""
        return (self.uncovered_named - self.uncovered_right) / self.uncovered if self.uncovered else 0.0

    @property
    def rule_precision(self) -> float:
        return self.right_rule / self.named if self.named else 1.0

    @property
    def rule_recall(self) -> float:
        return self.found_rule / self.due if self.due else 1.0

    def row(self) -> dict:
        return {**{name: getattr(self, name) for name in ("engine",) + self.COUNTS},
                "precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "rule_precision": round(self.rule_precision, 4), "rule_recall": round(self.rule_recall, 4),
                "covered_precision": round(self.covered_precision, 4),
                "covered_recall": round(self.covered_recall, 4), "false_heading": round(self.false_heading, 4),
                "held_out": self.held_out, "missed": self.missed}


def engines() -> list[str]:
    return sorted(path.parent.name for path in REPORTS.glob("*/causes.yaml"))


def prompted(engine: str) -> list[str]:
    """The readings this engine's own failures prompted (Mutant.prompted_by): out of its held-out diagnosis."""
    return [m.id for m in CATALOGUE if engine in m.prompted_by]


# -- what the diagnosis gave each case ------------------------------------------------------------------------

def committed(engine: str) -> dict[str, dict | None]:
    """Each case of the committed report: its deviation row, or None."""
    rows = [json.loads(line) for line in (REPORTS / engine / "report.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    deviations = {row["id"]: row for row in rows if row.get("type") == "deviation"}
    return {row["id"]: deviations.get(row.get("deviation")) for row in rows if row.get("type") == "case"}


@cache
def _cases() -> dict[str, Case]:
    """The bundled corpus's scenarios and the properties, by id: the cases a committed report's run used."""
    collected = scenario_cases(None)
    return {case.id: case for case in collected.cases + tuple(property_cases())}


def rediagnosed(engine: str, leave_out: tuple[str, ...] = (), fitted: bool = True) -> dict[str, dict | None]:
    """Each case of the committed report diagnosed again, in-process as `azul diagnose` does, with the readings
    `leave_out` taken out of the catalogue (and, unless `fitted`, no rule that is a number fitted to the engine):
    its deviation row (as a report writes it), or None."""
    results = list(read_report(REPORTS / engine / "report.jsonl").results)
    catalogue: list[Mutant] = [m for m in CATALOGUE if m.id not in leave_out]
    found = diagnose(results, _cases(), catalogue=catalogue, jobs=1, families=FAMILIES if fitted else ())
    given: dict[str, dict | None] = {result.id: None for result in results}
    for deviation in found.deviations:
        row = deviation.to_json()
        for case in row["cases"]:
            given[case] = row
    return given


def held_out(engine: str, also: tuple[str, ...] = (), fitted: bool = True) -> dict[str, dict | None]:
    """The report diagnosed again without the readings this engine prompted, and `also` (the later clean-room
    rounds', for the figures without them; those figures fit no number either: `fitted`)."""
    return rediagnosed(engine, tuple(prompted(engine)) + also, fitted)


# -- readings no case of a cause tells apart ----------------------------------------------------------------------

class Experiments:
    """An engine's failing cases run again on the reference with one reading applied: whether it reproduces what
    the engine did (its observation) exactly. The same experiment as the diagnosis's (diagnosis/experiment.py)."""

    def __init__(self, engine: str) -> None:
        # each case as the diagnosis reads it: as it was judged, filed as a new run would file it
        self.results = {r.id: decided(unfiled(r), _cases().get(r.id))
                        for r in read_report(REPORTS / engine / "report.jsonl").results}
        self.seen: dict[tuple[str, str], bool] = {}
        self.engines: dict[str, MutantEngine] = {}

    def explains(self, mutant_id: str, case_id: str) -> bool:
        key = (mutant_id, case_id)
        if key not in self.seen:
            result = self.results.get(case_id)
            seen = observation(result) if result is not None else None
            engine = self.engines.get(mutant_id)
            if engine is None and seen is not None:
                engine = self.engines[mutant_id] = MutantEngine(reading_of(mutant_id), 0)
            self.seen[key] = seen is not None and reproduce(engine, _cases().get(case_id), seen) == seen
        return self.seen[key]

    def as_exact(self, other: str, reading: str, cases: list[str]) -> bool:
        """`other` reproduces the engine on each of `cases` where `reading` does, and `reading` on one at least (a
        reading that reproduces none of them tells nothing); where `reading` does not, `other` may (it then
        accounts for more of the cause)."""
        if reading_of(other) is None or reading_of(reading) is None:
            return False
        mine = [case for case in cases if self.explains(reading, case)]
        return bool(mine) and all(self.explains(other, case) for case in mine)


@cache
def _experiments(engine: str) -> Experiments:
    return Experiments(engine)


def _cases_of(engine: str, given: dict[str, dict | None]):
    """Each case of the engine's causes.yaml: (its cause, the case, the deviation given it or None, the
    misreadings that deviation names, its own reading (its cause's, and any of those named at least as exact on
    its cause's cases), the misreadings of the causes its `also` notes beside it (and those named as exact on
    theirs))."""
    truth = yaml.safe_load((REPORTS / engine / "causes.yaml").read_text(encoding="utf-8"))
    for cause in truth:
        also = cause.get("also") or {}
        mutant = cause.get("mutant")
        for case in cause["cases"]:
            deviation = given.get(case)
            names = _names(deviation)
            others = {m for other in also.get(case, ()) for m in _mutant_of(truth, other)}
            own = {mutant} if mutant else set()
            if mutant and names and mutant not in names:
                own |= {m for m in names if _experiments(engine).as_exact(m, mutant, cause["cases"])}
            if others and names and not names & others:  # the same rule for the causes beside it
                others |= {m for other in also.get(case, ()) for c in truth if c["cause"] == other and c.get("mutant")
                           for m in names if _experiments(engine).as_exact(m, c["mutant"], c["cases"])}
            yield cause, case, deviation, names, own, others


def score(engine: str, given: dict[str, dict | None] | None = None, without: tuple[str, ...] = ()) -> Score:
    """The diagnosis `given` (each case's deviation row; the committed report's by default) scored; `without`:
    the readings it was made without (a cause whose reading is one of them has none in its catalogue)."""
    out = Score(engine)
    seen: dict[str, bool] = {}  # each misreading cause: whether some deviation names it
    for cause, _, _, names, own, others in _cases_of(engine, committed(engine) if given is None else given):
        rules = _rules(names)
        if cause["kind"] == "misreading" and cause.get("mutant"):
            out.due += 1
            hit = bool(names & own)
            out.found += hit
            out.found_rule += bool(rules & _rules(own))
            seen[cause["cause"]] = seen.get(cause["cause"], False) or hit
        elif cause["kind"] == "engine-fault":
            out.faults += 1
            out.faults_right += not names  # an engine fault is named right when no misreading is blamed
        if names:
            out.named += 1
            out.right += bool(names & (own | others))
            out.right_rule += bool(rules & _rules(own | others))
        if cause["kind"] == "misreading" and cause.get("mutant") and cause["mutant"] not in without:
            out.covered += 1
            out.covered_named += bool(names)
            out.covered_right += bool(names & (own | others))
            out.covered_found += bool(names & own)
        elif cause["kind"] in ("misreading", "engine-fault"):
            out.uncovered += 1
            out.uncovered_named += bool(names)
            out.uncovered_right += bool(names & (own | others))
            out.uncovered_right_rule += bool(rules & _rules(own | others))
    out.causes, out.causes_found = len(seen), sum(seen.values())
    out.missed = [cause for cause, hit in seen.items() if not hit]
    return out


def score_held_out(engine: str, also: tuple[str, ...] = (), fitted: bool = True) -> Score:
    """Held out; `also`: readings taken out beside the engine's own (the later clean-room rounds')."""
    out = score(engine, held_out(engine, also, fitted), tuple(prompted(engine)) + also)
    out.held_out = prompted(engine)
    return out


def misses(engine: str, given: dict[str, dict | None] | None = None) -> list[dict]:
    """Each case the diagnosis misses (a misreading cause not named) or misnames (a misreading named that is not
    its cause's, nor one of its `also` causes'), with what it gives it instead and the cause's note."""
    out = []
    for cause, case, deviation, names, own, others in _cases_of(engine, committed(engine) if given is None
                                                                else given):
        mutant = cause.get("mutant")
        missed = cause["kind"] == "misreading" and mutant and not names & own
        wrong = names and not names & (own | others)
        if missed or wrong:
            deviation = deviation or {}
            instead = (f"named `{deviation['misreading']}`" if names else "not diagnosed"
                       if deviation.get("kind") == "undiagnosed" else str(deviation.get("kind") or "no deviation")
                       .replace("-", " "))
            out.append({"cause": cause["cause"], "rule": cause["rule"], "mutant": mutant, "case": case,
                        "instead": instead, "note": " ".join(str(cause.get("note") or "").split())})
    return out


START, END = "<!-- diagnosis-misses:{}:start -->", "<!-- diagnosis-misses:{}:end -->"


def published(kind: str = HELD_OUT) -> dict[str, dict]:
    """The published scores (docs/reports/diagnosis/causes.json) of one kind, by engine."""
    data = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    return {row["engine"]: row for row in data[kind]["engines"]}


def _figures(row: dict) -> str:
    precision = (f"precision {row['precision']:.0%} ({row['right']} of {row['named']} cases given a misreading get "
                 "the right one)" if row["named"] else "no case given a misreading")
    return (f"{precision}, recall {row['recall']:.0%} ({row['found']} of {row['due']} cases whose cause is a "
            f"catalogued misreading are given it), {row['causes_found']} of {row['causes']} misreading causes named; "
            f"by rule, {row['right_rule']} of {row['named']} named and {row['found_rule']} of {row['due']} due are "
            "given a misreading of their cause's rule")


def misses_block(engine: str, held: dict | None = None) -> str:
    """The write-up's account of the diagnosis on this engine: its held-out scores (`held`: its row, by default
    the published one), its in-sample scores, and every case the committed report misses, with why."""
    held = held or published(HELD_OUT)[engine]
    out = held.get("held_out") or []
    taken = (f"the report diagnosed again without the {len(out)} reading{'s' * (len(out) != 1)} its own failures "
             "prompted: " + ", ".join(f"`{m}`" for m in out)) if out else \
        "no reading of the catalogue was prompted by its failures, so none is taken out"
    unnamed = ("; its causes not named held out: " + ", ".join(f"**{c}**" for c in held["missed"])
               if held.get("missed") else "")
    lines = [f"Scored against [causes.yaml]({engine}/causes.yaml) by `benchmarks/eval_causes.py`.", "",
             f"- **Held out**, as on an engine never met: {_figures(held)} ({taken}){unnamed}.",
             f"- **In-sample**, the committed report with the whole catalogue (readings fitted to this engine "
             f"included): {_figures(score(engine).row())}."]
    missed = misses(engine)
    if not missed:
        return "\n".join(lines + ["", "In the committed report every case's cause is named right."])
    lines += ["", "Every case the committed report misses or misnames, by cause, and why:", ""]
    for cause in dict.fromkeys(m["cause"] for m in missed):
        these = [m for m in missed if m["cause"] == cause]
        what = f"the catalogue's `{these[0]['mutant']}`" if these[0]["mutant"] else "an engine fault"
        cases = ", ".join(f"`{m['case']}` ({m['instead']})" for m in these)
        lines.append(f"- **{cause}** ({these[0]['rule']}; {what}), {len(these)} case{'s' * (len(these) != 1)}: "
                     f"{cases}. {these[0]['note']}".rstrip())
    return "\n".join(lines)


def write_up_with_misses(engine: str, text: str, held: dict | None = None) -> str:
    """The write-up's text with this engine's block (between its two markers) written again."""
    start, end = START.format(engine), END.format(engine)
    head, found, rest = text.partition(start)
    _, closed, tail = rest.partition(end)
    if not found or not closed:
        raise SystemExit(f"{engine}: its write-up has no {start} ... {end} block")
    return f"{head}{start}\n{misses_block(engine, held)}\n{end}{tail}"


README = ROOT / "README.md"
README_START, README_END = "<!-- diagnosis-scores:start -->", "<!-- diagnosis-scores:end -->"


def readme_block(held: dict, sample: dict, first: dict | None = None) -> str:
    """README's account of the diagnosis on the engines above: the held-out scores first (`held`: the row of
    all engines), the in-sample ones beside them (`sample`)."""
    return (f"How often the diagnosis names the right misreading on these engines, against the causes worked out "
            f"by hand from their code (`docs/reports/<engine>/causes.yaml`, scored by `benchmarks/eval_causes.py`): "
            f"**held out**, each engine diagnosed without the {len(held['held_out'])} readings its own failures "
            f"prompted (as if we had never met it; the {len(from_the_text())} written from the rules' text alone, in a "
            f"clean room, are never taken out), precision {held['precision']:.1%} ({held['right']} of "
            f"{held['named']} cases given a misreading get the right one) and recall {held['recall']:.1%} "
            f"({held['found']} of {held['due']} cases whose cause is a catalogued misreading are given it), "
            f"{held['causes_found']} of {held['causes']} causes named; by rule (the reading named misreads the rule "
            f"behind the failure, the blind score's measure) precision {held['rule_precision']:.1%} and recall "
            f"{held['rule_recall']:.1%}; split by whether the catalogue still held the cause's reading, where it "
            f"did precision {held['covered_precision']:.1%} and recall {held['covered_recall']:.1%} "
            f"({held['covered_found']} of {held['covered']}), where it held none a reading named all the same for "
            f"{held['uncovered_named']} of {held['uncovered']} cases, {held['uncovered_right']} of them one as exact "
            f"(a wrong one for {held['false_heading']:.1%}); "
            + (f"held out with the first clean-room round only and no number fitted (the later rounds' "
               f"{len(later_rounds())} readings and the {len(FAMILIES)} families of the rules that are numbers, "
               "whose values the diagnosis fits to the engine, were written from angles chosen with these misses "
               "in view), "
               f"precision {first['precision']:.1%} and recall {first['recall']:.1%}, "
               f"{first['causes_found']} of {first['causes']} causes named; "
               if first else "")
            + f"**in-sample**, the committed reports with "
            f"the whole catalogue (readings fitted to these engines included), precision {sample['precision']:.1%} "
            f"and recall {sample['recall']:.1%}, {sample['causes_found']} of {sample['causes']} causes named. "
            "Per engine: the Catch power page and each write-up's \"How the diagnosis did on this engine\".")


def readme_with_scores(text: str, held: dict, sample: dict, first: dict | None = None) -> str:
    """README's text with its diagnosis-scores block written again."""
    head, found, rest = text.partition(README_START)
    _, closed, tail = rest.partition(README_END)
    if not found or not closed:
        raise SystemExit(f"README.md has no {README_START} ... {README_END} block")
    return f"{head}{README_START}\n{readme_block(held, sample, first)}\n{README_END}{tail}"


def write_up(engine: str) -> Path:
    """docs/reports/<engine>.md, or the page two engines of one upstream share, as the matrix links them."""
    page = docgen_reports.write_up(REPORTS, engine)
    if page is None:
        raise SystemExit(f"{engine}: no write-up docs/reports/{engine}.md")
    return REPORTS / page


def _names(deviation: dict | None) -> set[str]:
    if not deviation or deviation.get("kind") != "misreading" or not deviation.get("misreading"):
        return set()
    names = set(str(deviation["misreading"]).split("+"))
    return names | {part for alike in deviation.get("alike") or () for part in str(alike["id"]).split("+")}


def _rules(readings: set[str]) -> set[str]:
    """The rules the readings misread (a pair's part each its own)."""
    return {found.rule for found in map(reading_of, readings) if found is not None}


def _mutant_of(truth: list[dict], cause_id: str) -> set[str]:
    return {c["mutant"] for c in truth if c["cause"] == cause_id and c.get("mutant")}


def _table(title: str, rows: list[Score]) -> None:
    print(f"\n{title}\n{'engine':20} {'precision':>10} {'recall':>8} {'right rule: precision':>22} {'recall':>7} "
          f"{'causes found':>13} {'engine faults':>14}   {'reading held: precision':>24} {'recall':>10}"
          f"   {'no reading: named/right/wrong':>30}")
    for one in rows:
        print(f"{one.engine:20} {one.precision:>10.1%} {one.recall:>8.1%} {one.rule_precision:>22.1%} "
              f"{one.rule_recall:>7.1%} {one.causes_found:>6}/{one.causes:<6} {one.faults_right:>7}/{one.faults:<6}"
              f"   {one.covered_right:>9}/{one.covered_named:<4} {one.covered_precision:>6.1%} "
              f"{one.covered_found:>4}/{one.covered:<4} {one.covered_recall:>6.1%}"
              f"   {one.uncovered_named:>9}/{one.uncovered:<4} {one.uncovered_right:>5} {one.false_heading:>6.1%}")


def _with_total(rows: list[Score]) -> list[Score]:
    total = Score("all")
    for one in rows:
        total.add(one)
    return rows + [total]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None, help="write the scores here (the Catch power page reads "
                        "docs/reports/diagnosis/causes.json), each engine's scores and misses into its write-up, "
                        "and the totals into README.md")
    args = parser.parse_args()
    both = {HELD_OUT: _with_total([score_held_out(engine) for engine in engines()]),
            FIRST_ROUND: _with_total([score_held_out(engine, later_rounds(), fitted=False) for engine in engines()]),
            IN_SAMPLE: _with_total([score(engine) for engine in engines()])}
    _table("held out (each engine without the readings its own failures prompted):", both[HELD_OUT])
    _table("held out, first clean-room round only (without the later rounds' readings and the fitted numbers too):",
           both[FIRST_ROUND])
    _table("in-sample (the committed reports, whole catalogue):", both[IN_SAMPLE])
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({kind: {"about": ABOUT[kind], "engines": [one.row() for one in rows]}
                                         for kind, rows in both.items()}, indent=1) + "\n", encoding="utf-8")
        for one in both[HELD_OUT][:-1]:
            page = write_up(one.engine)
            page.write_text(write_up_with_misses(one.engine, page.read_text(encoding="utf-8"), one.row()),
                            encoding="utf-8")
        README.write_text(readme_with_scores(README.read_text(encoding="utf-8"), both[HELD_OUT][-1].row(),
                                             both[IN_SAMPLE][-1].row(), both[FIRST_ROUND][-1].row()),
                          encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
