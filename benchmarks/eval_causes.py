#!/usr/bin/env python3
"""The diagnosis of the published engines' reports, scored against their hand-made causes.

    python benchmarks/eval_causes.py            # each engine, then all of them

Each engine's `docs/reports/<engine>/causes.yaml` says, from its write-up and its code, which cause is behind
each failing case of its committed report (tests/test_causes.py keeps it whole). The report's own deviations
say what the diagnosis found. A case counts as **named right** when its deviation names the misreading its
cause is (or lists it as indistinguishable, or names it in a pair); an engine fault (a bug that is no reading
of the rules) is named right when no misreading is blamed for it.

- precision: of the cases the diagnosis gives a misreading, how many get the right one;
- recall: of the cases whose cause is a catalogued misreading, how many are given it;
- causes found: of the causes that are misreadings, how many some deviation names (on one of their cases).

Goals: precision and recall of at least 90% (issue 23); over every engine of the matrix, precision at least 95% and
recall at least 90%, every case missed or misnamed explained by its cause's note (issue 39). With --json, each
engine's write-up gets its scores and its misses written again (between its two diagnosis-misses markers).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "docs" / "reports"
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_reports  # noqa: E402  (the docs' own lookup of an engine's write-up)


@dataclass
class Score:
    engine: str
    named: int = 0  # cases given a misreading by the diagnosis
    right: int = 0  # of those, the right one
    due: int = 0  # cases whose cause is a catalogued misreading
    found: int = 0  # of those, given it
    faults: int = 0  # engine-fault cases
    faults_right: int = 0
    causes: int = 0  # misreading causes
    causes_found: int = 0

    def add(self, other: "Score") -> None:
        for name in ("named", "right", "due", "found", "faults", "faults_right", "causes", "causes_found"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def precision(self) -> float:
        return self.right / self.named if self.named else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.due if self.due else 1.0


def engines() -> list[str]:
    return sorted(path.parent.name for path in REPORTS.glob("*/causes.yaml"))


def _cases(engine: str):
    """Each case of the engine's causes.yaml: (its cause, the case, the report's deviation for it or None, the
    misreadings that deviation names, the misreadings of the causes its `also` notes beside it)."""
    rows = [json.loads(line) for line in (REPORTS / engine / "report.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    deviations = {row["id"]: row for row in rows if row.get("type") == "deviation"}
    given = {row["id"]: deviations.get(row.get("deviation")) for row in rows if row.get("type") == "case"}
    truth = yaml.safe_load((REPORTS / engine / "causes.yaml").read_text(encoding="utf-8"))
    for cause in truth:
        also = cause.get("also") or {}
        for case in cause["cases"]:
            deviation = given.get(case)
            others = {m for other in also.get(case, ()) for m in _mutant_of(truth, other)}
            yield cause, case, deviation, _names(deviation), others


def score(engine: str) -> Score:
    out = Score(engine)
    seen: dict[str, bool] = {}  # each misreading cause: whether some deviation names it
    for cause, _, _, names, others in _cases(engine):
        mutant = cause.get("mutant")
        if cause["kind"] == "misreading" and mutant:
            out.due += 1
            hit = mutant in names
            out.found += hit
            seen[cause["cause"]] = seen.get(cause["cause"], False) or hit
        elif cause["kind"] == "engine-fault":
            out.faults += 1
            out.faults_right += not names  # an engine fault is named right when no misreading is blamed
        if names:
            out.named += 1
            out.right += bool(names & ({mutant} | others))
    out.causes, out.causes_found = len(seen), sum(seen.values())
    return out


def misses(engine: str) -> list[dict]:
    """Each case the diagnosis misses (a misreading cause not named) or misnames (a misreading named that is not
    its cause's, nor one of its `also` causes'), with what the report gives it instead and the cause's note."""
    out = []
    for cause, case, deviation, names, others in _cases(engine):
        mutant = cause.get("mutant")
        missed = cause["kind"] == "misreading" and mutant and mutant not in names
        wrong = names and not names & ({mutant} | others)
        if missed or wrong:
            deviation = deviation or {}
            instead = (f"named `{deviation['misreading']}`" if names else "not diagnosed"
                       if deviation.get("kind") == "undiagnosed" else str(deviation.get("kind") or "no deviation")
                       .replace("-", " "))
            out.append({"cause": cause["cause"], "rule": cause["rule"], "mutant": mutant, "case": case,
                        "instead": instead, "note": " ".join(str(cause.get("note") or "").split())})
    return out


START, END = "<!-- diagnosis-misses:{}:start -->", "<!-- diagnosis-misses:{}:end -->"


def misses_block(engine: str) -> str:
    """The write-up's account of the diagnosis on this engine: its scores and every case it misses, with why."""
    one = score(engine)
    lines = [f"Scored against [causes.yaml]({engine}/causes.yaml) by `benchmarks/eval_causes.py`: precision "
             f"{one.precision:.0%} ({one.right} of {one.named} cases given a misreading get the right one), recall "
             f"{one.recall:.0%} ({one.found} of {one.due} cases whose cause is a catalogued misreading are given "
             "it)."]
    missed = misses(engine)
    if not missed:
        return "\n".join(lines + ["", "Every case's cause is named right."])
    lines += ["", "Every case missed or misnamed, by cause, and why:", ""]
    for cause in dict.fromkeys(m["cause"] for m in missed):
        these = [m for m in missed if m["cause"] == cause]
        what = f"the catalogue's `{these[0]['mutant']}`" if these[0]["mutant"] else "an engine fault"
        cases = ", ".join(f"`{m['case']}` ({m['instead']})" for m in these)
        lines.append(f"- **{cause}** ({these[0]['rule']}; {what}), {len(these)} case{'s' * (len(these) != 1)}: "
                     f"{cases}. {these[0]['note']}".rstrip())
    return "\n".join(lines)


def write_up_with_misses(engine: str, text: str) -> str:
    """The write-up's text with this engine's block (between its two markers) written again."""
    start, end = START.format(engine), END.format(engine)
    head, found, rest = text.partition(start)
    _, closed, tail = rest.partition(end)
    if not found or not closed:
        raise SystemExit(f"{engine}: its write-up has no {start} ... {end} block")
    return f"{head}{start}\n{misses_block(engine)}\n{end}{tail}"


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


def _mutant_of(truth: list[dict], cause_id: str) -> set[str]:
    return {c["mutant"] for c in truth if c["cause"] == cause_id and c.get("mutant")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None, help="write the scores here (the Catch power page reads "
                        "docs/reports/diagnosis/causes.json), and each engine's misses into its write-up")
    args = parser.parse_args()
    total = Score("all")
    rows = []
    print(f"{'engine':20} {'precision':>10} {'recall':>8} {'causes found':>13} {'engine faults':>14}")
    for engine in engines():
        one = score(engine)
        total.add(one)
        rows.append(one)
        print(f"{engine:20} {one.precision:>10.0%} {one.recall:>8.0%} "
              f"{one.causes_found:>6}/{one.causes:<6} {one.faults_right:>7}/{one.faults:<6}")
    print(f"{'all':20} {total.precision:>10.0%} {total.recall:>8.0%} "
          f"{total.causes_found:>6}/{total.causes:<6} {total.faults_right:>7}/{total.faults:<6}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([{**vars(one), "precision": round(one.precision, 4),
                                          "recall": round(one.recall, 4)} for one in rows + [total]], indent=1)
                             + "\n", encoding="utf-8")
        for engine in engines():
            page = write_up(engine)
            page.write_text(write_up_with_misses(engine, page.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
