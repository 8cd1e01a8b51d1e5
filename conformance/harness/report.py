"""The report formats as data: reading a JSON Lines report back, JUnit XML, the Markdown matrix, comparing runs.

The JSON Lines report is written as the run goes (reporters.py): a header, one line per case (flushed), a
footer; a run killed half-way still leaves every finished case readable, and `read_report` says it was
interrupted. JUnit XML and Markdown (a rule-by-rule matrix) are written from the results at the end.

Report format `azul-conformance-report/1`, one JSON object per line:
    {"type": "header", "format": ..., "engine": {...}, "command": ..., "started": ..., "seed": ..., "cases": N}
    {"type": "case", "id": ..., "kind": ..., "verdict": ..., "rules": [...], "message": ..., ...}
    {"type": "deviation", "id": ..., "rule": ..., "level": ..., "misreading": ..., "kind": ..., "cases": [...]}
    {"type": "footer", "finished": ..., "seconds": ..., "counts": {"pass": n, ...}, "summary": ...}
At the end of a run the file is written again whole, each case row carrying its deviation's id; a deviation
is a misreading of the rules that reproduces its cases, a symptom nothing explains (`undiagnosed`), or an
engine fault (harness/findings.py, conformance/diagnosis).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from ..readers import JsonError, json_document, safe_text
from ..results import VERDICTS, CaseResult, Verdict, tally, worst
from ..spec_data import rule_key
from .findings import LEVEL_NAMES, Deviation, deviations, rule_text, score_text, scores

FORMAT = "azul-conformance-report/1"


@dataclass(frozen=True)
class RunReport:
    """A JSON Lines report read back."""

    header: dict[str, Any]
    results: tuple[CaseResult, ...]
    footer: dict[str, Any] | None
    problems: tuple[str, ...] = ()
    deviations: tuple[dict[str, Any], ...] = ()  # the deviation rows, as written (Deviation.to_json)

    @property
    def interrupted(self) -> bool:
        return self.footer is None or bool(self.footer.get("interrupted"))


def engine_title(header: dict[str, Any]) -> str:
    """The engine a report judged, as `name version` from its header ("" when the header does not say)."""
    engine = header.get("engine")
    if not isinstance(engine, dict):
        return str(engine or "")
    return " ".join(str(engine[key]) for key in ("name", "version") if engine.get(key))


def read_report(path: str | Path) -> RunReport:
    """Read a JSON Lines report, even one cut short (no footer, a torn last line)."""
    header: dict[str, Any] = {}
    footer = None
    results, problems, found = [], [], []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return RunReport({}, (), None, (f"{path}: not UTF-8 text (byte {error.start}): not a report",))
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json_document(line)
        except JsonError as error:
            problems.append(f"{path}:{number}: {error.message} (the run was probably killed while writing it)")
            continue
        kind = data.pop("type", None) if isinstance(data, dict) else None
        if kind == "header":
            header = data
        elif kind == "footer":
            footer = data
        elif kind == "deviation":
            found.append(data)
        elif kind == "case":
            try:
                results.append(CaseResult.from_json(data))
            except (TypeError, ValueError, KeyError) as error:  # a field of the wrong type, an unknown verdict
                problems.append(f"{path}:{number}: not a case of a report: {error}"[:300])
        else:
            problems.append(f"{path}:{number}: not a line of a conformance report (no \"type\")")
    return RunReport(header, tuple(results), footer, tuple(problems), tuple(found))


# -- JUnit XML ---------------------------------------------------------------------------------------------------

def misreadings(found: tuple[Deviation, ...] | list[Deviation]) -> list[str]:
    """The catalogue's misreadings behind the deviations, each once (a pair's two count as two)."""
    return list(dict.fromkeys(part for d in found if d.misreading for part in d.misreading.id.split("+")))


def lead_line(found: tuple[Deviation, ...] | list[Deviation]) -> str:
    """What a report leads with: `3 misreadings, 1 engine fault behind 12 failing cases` (and what is not
    diagnosed, when some is not)."""
    kinds = Counter(d.kind for d in found)
    failing = sum(len(d.cases) for d in found)
    if not found:
        return "no failing case"
    readings = len(misreadings(found))
    parts = [f"{readings} misreading{'s' * (readings != 1)}"]
    if kinds["undiagnosed"]:
        parts.append(f"{kinds['undiagnosed']} not diagnosed")
    parts.append(f"{kinds['engine-fault']} engine fault{'s' * (kinds['engine-fault'] != 1)}")
    return f"{', '.join(parts)} behind {failing} failing case{'s' * (failing != 1)}"


def write_junit(path: str | Path, results: list[CaseResult], name: str = "azul-conformance",
                interrupted: bool = False, found: tuple[Deviation, ...] = ()) -> None:
    counts = tally(results)
    if interrupted:
        name += " (interrupted: not every case was run)"
    by_element = {element: sum(counts[v] for v in VERDICTS if v.junit == element)
                  for element in ("failure", "error", "skipped")}
    suite = ET.Element("testsuite", name=name, tests=str(len(results)), failures=str(by_element["failure"]),
                       errors=str(by_element["error"]), skipped=str(by_element["skipped"]),
                       time=f"{sum(r.seconds for r in results):.3f}")
    titles = {d.id: d.title for d in found}
    if found:
        ET.SubElement(ET.SubElement(suite, "properties"), "property", name="summary", value=lead_line(found))
    for result in results:
        case = ET.SubElement(suite, "testcase", classname=f"{result.kind}.{result.main_rule}", name=result.id,
                             file=result.where.split(":")[0], time=f"{result.seconds:.3f}")
        element = result.verdict.junit
        if element == "skipped":
            ET.SubElement(case, element, message=_clean(result.message))
        elif element:
            kind = result.rule or result.verdict if element == "failure" else result.verdict
            cause = f"{titles[result.deviation]}\n" if result.deviation in titles else ""
            ET.SubElement(case, element, message=_clean(result.message), type=str(kind)).text = \
                _clean(cause) + _detail(result)
    if found:
        ET.SubElement(suite, "system-out").text = _clean("\n".join(
            [lead_line(found)] + [f"{d.id}: {d.title} ({len(d.cases)} cases)" for d in found]))
    root = ET.Element("testsuites", name=name)
    root.append(suite)
    ET.indent(root)
    write_atomically(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def write_atomically(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: a killed run never leaves half a report (or a file of 0 bytes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8", errors="replace")
    os.replace(partial, path)


def _clean(text: str) -> str:
    """Text XML 1.0 can hold: no control characters but tab and newlines, no lone surrogates."""
    return safe_text(re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "?", text or ""))[:1000]


def _detail(result: CaseResult) -> str:
    parts = [f"where: {result.where}", f"rules: {', '.join(result.rules)}"]
    if result.rule:
        parts.append(f"broken rule: {result.rule}")
    for name in ("expected", "actual"):
        value = getattr(result, name)
        if value is not None:
            parts.append(f"{name}: {json.dumps(value, default=str)[:2000]}")
    if result.diff:
        parts.append(result.diff)
    if result.request is not None:
        parts.append(f"request: {json.dumps(result.request, default=str)[:1000]}")
    if result.exit_code is not None:
        parts.append(f"exit status: {result.exit_code}")
    if result.stderr:
        parts.append("stderr (tail):\n" + result.stderr)
    if result.counterexample:
        parts.append(f"minimal failing game: {result.counterexample}")
    return _clean("\n".join(parts))


# -- Markdown ----------------------------------------------------------------------------------------------------

def by_rule(results: list[CaseResult]) -> dict[str, list[CaseResult]]:
    """Each result under every rule it exercises, but a bad one only under the rule it is filed under (the
    broken rule when known, else the case's main rule): a failing case does not mark all its rules broken."""
    rules: dict[str, list[CaseResult]] = {}
    for result in results:
        targets = [result.main_rule] if result.bad else (result.rules or ["protocol"])
        for rule in targets:
            rules.setdefault(rule, []).append(result)
    return dict(sorted(rules.items(), key=lambda item: rule_key(item[0])))


def rule_status(results: list[CaseResult]) -> str:
    return worst({r.verdict for r in results})


def write_markdown(path: str | Path, header: dict[str, Any], results: list[CaseResult],
                   known_rules: list[str] | None = None, found: tuple[Deviation, ...] | None = None) -> None:
    write_atomically(path, markdown(header, results, known_rules, found))


def md(text: Any) -> str:
    """Engine text inside Markdown (report.md is published on the docs site): HTML and the characters that
    would start Markdown of their own are escaped, and it stays on one line (a table cell, a heading)."""
    text = safe_text(str(text)).replace("\n", " ")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|#])", r"\\\1", text)


def fenced(text: str) -> list[str]:
    """A code block that no run of backticks inside `text` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, text, fence]


def suite_line(header: dict[str, Any]) -> str:
    """The suite that judged the engine, and its published catch power (azul_conformance.mutants.published),
    as a report's header gives them."""
    text = f"Suite: {header.get('suite_version')}"
    score = header.get("mutation_score")
    if isinstance(score, dict) and isinstance(score.get("killed"), int) and isinstance(score.get("total"), int) \
            and score["total"] > 0:
        text += (f"; mutation score {score['killed'] / score['total']:.1%} ({score['killed']} of {score['total']} "
                 f"rule-level mutants killed, measured on suite {score.get('measured_on')})")
    return text


def recording_line(header: dict[str, Any]) -> str:
    """How a report made from a recorded session says so ("" for a live run)."""
    recording = header.get("recording")
    if not isinstance(recording, dict):
        return ""
    text = (f"Judged from the recording {recording.get('file', '?')}, made {str(recording.get('date', '?'))[:10]} "
            f"by suite {recording.get('suite_version', '?')}")
    if recording.get("upstream"):
        text += f", of {recording['upstream']}" + (f" at {recording['commit']}" if recording.get("commit") else "")
    return text + ": no engine ran; a case whose requests differ from the recorded ones is not_run"


def markdown(header: dict[str, Any], results: list[CaseResult], known_rules: list[str] | None = None,
             found: tuple[Deviation, ...] | None = None) -> str:
    found = list(deviations(results) if found is None else found)
    engine = header.get("engine") or {}
    counts = tally(results)
    lines = [f"# Conformance report: {md(engine_title(header) or '?')}", "",
             *(["**This run was interrupted: not every case was run.**", ""] if header.get("interrupted") else []),
             *([f"**No case was run: {md(header['problem'])}**", ""] if header.get("problem") else []),
             *([f"**{md(recording_line(header))}**", ""] if recording_line(header) else []),
             f"Command: {md(header.get('command', '?'))}  ",
             f"Capabilities: `{json.dumps(engine.get('capabilities', {}))}`  ",
             f"Seed: {header.get('seed')}, property examples: {header.get('examples')}  ",
             *([md(suite_line(header))] if header.get("suite_version") else []), "",
             f"**{md(lead_line(found))}**", "",
             " | ".join(f"{v}: {counts[v]}" for v in VERDICTS), ""]
    lines += _findings(results, found) + ["## Rule by rule", "",
             "| rule | status | " + " | ".join(VERDICTS) + " | cases |",
             "| --- | --- | " + " | ".join("---:" for _ in VERDICTS) + " | --- |"]
    grouped = by_rule(results)
    for rule in sorted(set(grouped) | set(known_rules or []), key=rule_key):
        cases = grouped.get(rule, [])
        row = tally(cases)
        names = ", ".join(sorted({c.id for c in cases if c.bad}))[:300]
        status = rule_status(cases) if cases else "no case"
        lines.append(f"| {rule} | {status} | " + " | ".join(str(row[v] or "") for v in VERDICTS) + f" | {names} |")
    lines += _details(results)
    return "\n".join(lines) + "\n"


def _findings(results: list[CaseResult], found: list[Deviation]) -> list[str]:
    """Scores by level, then the deviations behind the failures: each cause with its evidence and cases."""
    lines = ["## Scores by level", "", "| level | judged | pass | fail | differs |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for level, row in scores(results).items():
        lines.append(f"| {LEVEL_NAMES[level]} | {row['judged']} | {row['pass']} | {row['fail']} | {row['differs']} |")
    lines += ["", "; ".join(score_text(level, row) for level, row in scores(results).items() if row["judged"]), ""]
    lines += [f"## Deviations: {md(lead_line(found))}", ""]
    for number, deviation in enumerate(found, 1):
        lines += [f"### {number}. {md(deviation.title)}", "", *_deviation_lines(deviation), ""]
    differing = [r for r in results if r.verdict is Verdict.DIFFERS]
    if differing:
        lines += ["## Differs where the rules let an engine choose", ""]
        lines += [f"- {md(r.id)} ({md(r.where)}): {md(r.message)}" for r in differing] + [""]
    return lines


def _deviation_lines(deviation: Deviation) -> list[str]:
    count = len(deviation.cases)
    lines = [f"{deviation.kind}, level {deviation.level}, {count} case{'s' * (count != 1)} "
             f"(`{md(deviation.id)}`)  ", md(rule_text(deviation.rule)), ""]
    evidence = deviation.shown_evidence
    lines += [f"Evidence: {md(evidence.text)}", ""]
    if deviation.alike:
        lines += ["Indistinguishable on these cases: " + "; ".join(md(m.heading) for m in deviation.alike), ""]
    if deviation.nearest:
        lines += ["Nearest misreadings: " + "; ".join(f"{md(m.heading)} ({score:.0%})"
                                                    for m, score in deviation.nearest), ""]
    if count > 1:
        lines += ["Cases: " + ", ".join(md(c.id) for c in deviation.cases), ""]
    return lines


def _details(results: list[CaseResult]) -> list[str]:
    lines = []
    bad = [r for r in results if r.bad]
    if bad:
        lines += ["", "## What went wrong", ""]
        for result in sorted(bad, key=lambda r: rule_key(r.main_rule)):
            lines += [f"### {result.main_rule}: `{result.id}` ({result.verdict})", "",
                      md(f"{result.where}: {result.message}".strip()), "", *fenced(_detail(result)), ""]
    skipped = [r for r in results if not r.verdict.judged]
    if skipped:
        lines += ["", "## Not judged", "", "| case | verdict | why |", "| --- | --- | --- |"]
        lines += [f"| {r.id} | {r.verdict} | {md(r.message)} |" for r in skipped]
    return lines


# -- comparing two runs ------------------------------------------------------------------------------------------

@dataclass
class Comparison:
    fixed: list[tuple[str, str, str]] = field(default_factory=list)  # (id, old verdict, new verdict)
    broken: list[tuple[str, str, str]] = field(default_factory=list)
    still_bad: list[tuple[str, str, str]] = field(default_factory=list)
    new_cases: list[str] = field(default_factory=list)
    gone_cases: list[str] = field(default_factory=list)


def compare(old: list[CaseResult] | tuple[CaseResult, ...], new: list[CaseResult]) -> Comparison:
    before = {r.id: r for r in old}
    after = {r.id: r for r in new}
    out = Comparison()
    for case_id, result in after.items():
        previous = before.get(case_id)
        if previous is None:
            out.new_cases.append(case_id)
            if result.bad:
                out.broken.append((case_id, "absent", result.verdict))
        elif previous.bad and not result.bad and result.verdict is Verdict.PASS:
            out.fixed.append((case_id, previous.verdict, result.verdict))
        elif result.bad and not previous.bad:
            out.broken.append((case_id, previous.verdict, result.verdict))
        elif result.bad:
            out.still_bad.append((case_id, previous.verdict, result.verdict))
    out.gone_cases = sorted(set(before) - set(after))
    return out
