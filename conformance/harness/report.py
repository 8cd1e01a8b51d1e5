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
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from ..notation import PLAYER_COUNTS, VARIANTS
from ..markup import code, fenced, md
from ..readers import InputError, JsonError, clipped, json_document, read_file, safe_text
from ..results import VERDICTS, CaseKind, CaseResult, Level, Verdict, tally, worst
from ..spec_data import rule_key
from .findings import LEVEL_NAMES, Deviation, closeness_text, deviations, rule_text, score_text, scores
from .outputs import write_atomically

FORMAT = "azul-conformance-report/1"


@dataclass(frozen=True)
class RunReport:
    """A JSON Lines report read back."""

    header: dict[str, Any]
    results: tuple[CaseResult, ...]
    footer: dict[str, Any] | None
    problems: tuple[str, ...] = ()
    deviations: tuple[dict[str, Any], ...] = ()  # the deviation rows, as written (Deviation.to_json)
    # what was read but not kept: unfit case rows, header and footer fields, damaged lines (a torn last line,
    # as a killed run leaves it, is not counted: it was never a row). A rewrite would lose them.
    left_out: int = 0

    @property
    def interrupted(self) -> bool:
        return self.footer is None or bool(self.footer.get("interrupted"))


def engine_title(header: dict[str, Any]) -> str:
    """The engine a report judged, as `name version` from its header ("" when the header does not say)."""
    engine = header.get("engine")
    if not isinstance(engine, dict):
        return str(engine or "")
    return " ".join(str(engine[key]) for key in ("name", "version") if engine.get(key))


MAX_REPORT_BYTES = 256 << 20  # a report of the whole suite is under a megabyte


def read_report(path: str | Path) -> RunReport:
    """Read a JSON Lines report, even one cut short (no footer, a torn last line). Every value is checked for
    its type and range (the FIELDS tables below): an unfit case row is left out, so is an unfit header or footer
    field, each named in `problems` with its file and line."""
    try:
        text = read_file(path, MAX_REPORT_BYTES).decode("utf-8")  # a regular file, bounded: a FIFO is not waited on
    except InputError as error:
        return RunReport({}, (), None, (f"{path}: cannot be read: {error}",))
    except UnicodeDecodeError as error:
        return RunReport({}, (), None, (f"{path}: not UTF-8 text (byte {error.start}): not a report",))
    lines = text.splitlines()
    reading = _Reading()
    for number, line in enumerate(lines, 1):
        if line.strip():
            reading.line(line, f"{path}:{number}", torn=number == len(lines) and not text.endswith("\n"))
    return RunReport(reading.header, tuple(reading.results), reading.footer, tuple(reading.problems),
                     tuple(reading.found), reading.left_out)


@dataclass
class _Reading:
    """A report as far as it has been read."""

    header: dict[str, Any] = field(default_factory=dict)
    footer: dict[str, Any] | None = None
    results: list[CaseResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    found: list[dict[str, Any]] = field(default_factory=list)
    left_out: int = 0

    def line(self, line: str, where: str, torn: bool) -> None:
        """`torn`: the last line, without its newline (a run killed while writing it): no row is lost there."""
        try:
            data = json_document(line)
        except JsonError as error:
            self.problems.append(f"{where}: {error.message} (the run was probably killed while writing it)")
            self.left_out += not torn
            return
        kind = data.pop("type", None) if isinstance(data, dict) else None
        if kind == "header":
            self.header, unfit = fitting(data, HEADER_FIELDS, f"{where}: header")
            if isinstance(self.header.get("engine"), str):  # an engine named only: its hello, as runs write it
                self.header["engine"] = {"name": self.header["engine"]}
        elif kind == "footer":
            self.footer, unfit = fitting(data, FOOTER_FIELDS, f"{where}: footer")
        elif kind == "deviation":  # no loss when left out: a diagnosis writes its deviations anew
            wrong = problem(data, DEVIATION, "")
            self.problems += [f"{where}: deviation {wrong}; left out"] if wrong else []
            self.found += [] if wrong else [data]
            return
        elif kind == "case":
            try:
                self.results.append(case_row(data))
                unfit = []
            except (TypeError, ValueError, KeyError) as error:  # a field of the wrong type, an unknown verdict
                unfit = [f"{where}: not a case of a report: {error}"[:300]]
        else:
            unfit = [f"{where}: not a line of a conformance report (no \"type\")"]
        self.problems += unfit
        self.left_out += len(unfit)


# -- what a report may hold --------------------------------------------------------------------------------------
# A report comes from outside (CI, another machine, a hand edit), so every value is checked here, once, for its
# type and range before anything uses it: a rule id given as a number broke the grouping by rule, and
# `players: 1e308` in a game's plan had the diagnosis set up a game of that many boards.

MOST_SECONDS = 10**7  # about four months: longer than any run
MOST_COUNT = 2**53  # a count, a seed or a size: exact in every JSON reader


@dataclass(frozen=True)
class Value:
    """A value that `check` accepts; `what` says which in words (a problem reads `<field> must be <what>`)."""

    check: Callable[[Any], bool]
    what: str


@dataclass(frozen=True)
class Table:
    """An object whose named fields are each as said (others are not looked at), with `needs` present and
    `holds` (a problem in words, or None) true of it as a whole."""

    fields: dict[str, "Shape"]
    needs: tuple[str, ...] = ()
    holds: Callable[[dict[str, Any]], str | None] = lambda _: None
    what: str = "an object"


@dataclass(frozen=True)
class Each:
    """A list of items of one shape (of `size` items, when given)."""

    item: "Shape"
    what: str = "a list"
    size: int | None = None


@dataclass(frozen=True)
class Maybe:
    """Null, or a value of `shape`."""

    shape: "Shape"


@dataclass(frozen=True)
class Rule:
    """A value that `problem` (value, field name) words what is wrong with, or None."""

    problem: Callable[[Any, str], str | None]


Shape = Value | Table | Each | Maybe | Rule


def problem(value: Any, shape: Shape, name: str) -> str | None:
    """What is wrong with `value` (the field `name`), in words naming the innermost field; None if nothing."""
    if isinstance(shape, Maybe):
        return None if value is None else problem(value, shape.shape, name)
    if isinstance(shape, Rule):
        return shape.problem(value, name)
    if isinstance(shape, Value):
        return None if shape.check(value) else f"{name} must be {shape.what}, not {_shown_value(value)}"
    if isinstance(shape, Each):
        if not isinstance(value, list) or len(value) != (shape.size or len(value)):
            return f"{name} must be {shape.what}, not {_shown_value(value)}"
        return next(filter(None, (problem(item, shape.item, f"{name}[{i}]") for i, item in enumerate(value))), None)
    if not isinstance(value, dict):
        return f"{name} must be {shape.what}, not {_shown_value(value)}"
    missing = [field for field in shape.needs if field not in value]
    if missing:
        return f"{name}.{missing[0]}".lstrip(".") + " is missing"
    found = (problem(value[field], inner, f"{name}.{field}".lstrip(".")) for field, inner in shape.fields.items()
             if field in value)
    inner = next(filter(None, found), None)
    if inner:
        return inner
    whole = shape.holds(value)
    return f"{name or 'it'}: {whole}" if whole else None


def _shown_value(value: Any) -> str:
    text = json.dumps(value, default=str)
    return safe_text(text if len(text) <= 60 else text[:57] + "...")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and 0 <= value <= MOST_SECONDS


def _among(values: tuple[str, ...]) -> Value:
    return Value(lambda v: isinstance(v, str) and v in values, " or ".join(values))


def _compared(value: Any, name: str) -> str | None:
    """An expected or actual value as the diagnosis compares it: a list (moves, factories, seats) holds texts or
    whole numbers, not both (it is sorted and made a set); a table of state paths holds such values."""
    if isinstance(value, list):
        if all(isinstance(item, str) for item in value) or all(_whole(item) for item in value):
            return None
        return f"{name} must hold texts or whole numbers, not both, not {_shown_value(value)}"
    if isinstance(value, dict) and value and all(key.startswith("/") for key in value):
        return next(filter(None, (_compared(item, f"{name}.{key}") for key, item in value.items())), None)
    return None


TEXT = Value(lambda v: isinstance(v, str), "a text")
TEXTS = Each(TEXT, "a list of texts")
COUNT = Value(lambda v: _whole(v) and 0 <= v <= MOST_COUNT, f"a whole number from 0 to {MOST_COUNT}")
SECONDS = Value(_seconds, f"a number of seconds from 0 to {MOST_SECONDS}")
FLAG = Value(lambda v: isinstance(v, bool), "true or false")
ANY_OBJECT = Table({})
RULE_ID = Value(lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(-[0-9]{1,6})?", v) is not None,
                "a rule id (FLOOR-3)")
RULE_IDS = Each(RULE_ID, "a list of rule ids")
PAIRS = Each(Each(TEXT, "a [field, kind] pair of texts", size=2), "a list of [field, kind] pairs")
COMPARED = Rule(_compared)

REQUEST = Table({"cmd": TEXT, "move": TEXT, "factories": TEXTS, "id": Value(_whole, "a whole number")},
                what="a request (an object: cmd, move, factories)")
FAILURE = Table({"where": TEXT, "assertion": TEXT, "rule": Maybe(RULE_ID), "broken_rules": RULE_IDS,
                 "differences": PAIRS, "problems": TEXTS, "expected": Value(lambda v: isinstance(v, list), "a list"),
                 "actual": Value(lambda v: isinstance(v, list), "a list")},
                what="a failing assertion (where, expected, actual...)")
STEP = Table({"kind": _among(("move", "deal")), "move": TEXT, "factories": TEXTS}, needs=("kind",),
             holds=lambda step: None if ("move" if step["kind"] == "move" else "factories") in step
             else f"a {step['kind']} step without its {'move' if step['kind'] == 'move' else 'factories'}",
             what="a step (kind: move, with its move; or deal, with its factories)")
PLAN = Table({"players": Value(lambda v: _whole(v) and v in PLAYER_COUNTS, " or ".join(map(str, PLAYER_COUNTS))),
              "variant": _among(VARIANTS),
              "start_player": Value(lambda v: _whole(v) and 0 <= v < max(PLAYER_COUNTS), "a seat (0, 1, 2 or 3)"),
              "deal_seed": COUNT, "choices": Each(COUNT)},
             needs=("players", "variant", "start_player"),
             holds=lambda plan: None if plan["start_player"] < plan["players"] else "start_player is past the seats")
GAME = Table({"plan": PLAN, "steps": Each(STEP)}, needs=("plan",), what="a game (its plan and steps)")
DETAILS = Table({"failures": Each(FAILURE), "differences": PAIRS, "at": TEXT, "size": COUNT, "examples": COUNT,
                 "capped": COUNT, "reached": COUNT, "choices": TEXTS, "state": ANY_OBJECT, "game": GAME,
                 "distinct": Each(ANY_OBJECT),
                 "filed_from": Table({"rule": Maybe(RULE_ID), "level": _among(("", *Level))})})
# Texts a terminal line or a heading shows whole are bounded (their rows or fields are left out, each named):
# printed, a 100 KB id took the terminal's highlighter over a minute.
MAX_ID = 200  # a case id: the suite's are under 80 characters; a recording bounds its case ids alike
MAX_LINE = 4_096  # one text of a header, a footer or a deviation (a command line, an engine's name)
CASE_ID = Value(lambda v: isinstance(v, str) and 0 < len(v) <= MAX_ID, f"a case id (1 to {MAX_ID} characters)")
LINE = Value(lambda v: isinstance(v, str) and len(v) <= MAX_LINE, f"a text of at most {MAX_LINE:,} characters")
CASE = Table({"id": CASE_ID,
              "kind": _among(tuple(CaseKind)), "verdict": _among(VERDICTS),
              "title": TEXT, "where": TEXT, "message": TEXT, "diff": TEXT, "stderr": TEXT, "symptom": TEXT,
              "deviation": TEXT, "rules": RULE_IDS, "rule": Maybe(RULE_ID), "level": _among(("", *Level)),
              "counterexample": Maybe(TEXT),
              "exit_code": Maybe(Value(lambda v: _whole(v) and abs(v) < 2**32, "an exit status")),
              "seconds": SECONDS, "expected": COMPARED, "actual": COMPARED,
              "request": Maybe(REQUEST),
              "details": DETAILS}, needs=("id", "verdict"))
ENGINE = Table({"name": LINE, "version": LINE, "protocol": Value(_whole, "a whole number"),
                "capabilities": ANY_OBJECT}, what="the engine's hello (name, version, capabilities)")
HEADER_FIELDS: dict[str, Shape] = {
    "format": LINE, "started": LINE, "command": LINE, "suite_version": LINE, "recorded_to": LINE, "problem": LINE,
    "seed": Value(lambda v: _whole(v) and abs(v) <= 2**63, "a 64-bit whole number"),
    "examples": Maybe(COUNT), "timeout": Maybe(SECONDS), "cases": COUNT, "only": Each(CASE_ID, "a list of case ids"),
    "interrupted": FLAG,
    "engine": Value(lambda v: LINE.check(v) or problem(v, ENGINE, "") is None, ENGINE.what),
    "mutation_score": ANY_OBJECT,
    "recording": Table({name: Maybe(LINE) for name in ("file", "date", "suite_version", "command", "upstream",
                                                       "commit")}, what="the recording's header")}
FOOTER_FIELDS: dict[str, Shape] = {
    "finished": LINE, "summary": LINE, "seconds": SECONDS, "problems": Each(LINE, "a list of texts"),
    "interrupted": FLAG, "deviations": COUNT, "compared": ANY_OBJECT}
DEVIATION = Table({"id": LINE, "kind": LINE, "rule": LINE, "level": LINE, "misreading": Maybe(LINE),
                   "ruling": FLAG, "description": LINE, "rules": Each(LINE, "a list of texts"),
                   "cases": Each(CASE_ID, "a list of case ids")})


def case_row(data: dict[str, Any]) -> CaseResult:
    """A case row of a report as a CaseResult, every field checked (ValueError naming the first unfit one)."""
    wrong = problem(data, CASE, "")
    if wrong:
        raise ValueError(f"case {clipped(data['id'], 60)}: {wrong}" if isinstance(data.get("id"), str) else wrong)
    return CaseResult.from_json(data)


def fitting(data: dict[str, Any], fields: dict[str, Shape], where: str) -> tuple[dict[str, Any], list[str]]:
    """`data` without its unfit fields, and a problem for each (`where`: the file and line, and the row)."""
    wrong = {name: problem(data[name], shape, name) for name, shape in fields.items() if name in data}
    wrong = {name: text for name, text in wrong.items() if text}
    return ({key: value for key, value in data.items() if key not in wrong},
            [f"{where}: {text}; left out" for text in wrong.values()])


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
    readings = len(misreadings([d for d in found if not d.of_ruling]))
    rulings = sum(d.of_ruling for d in found)
    parts = [f"{readings} misreading{'s' * (readings != 1)}"]
    if rulings:
        parts.append(f"{rulings} difference{'s' * (rulings != 1)} from our rulings")
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
                   known_rules: list[str] | None = None, found: tuple[Deviation, ...] | None = None,
                   compared: dict[str, Any] | None = None) -> None:
    write_atomically(path, markdown(header, results, known_rules, found, compared))


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
    def said(name: str) -> str:  # a recording's header, from a report made elsewhere: clipped before it is shown
        return clipped(safe_text(recording.get(name) or "?"), 200)
    text = f"Judged from the recording {said('file')}, made {said('date')[:10]} by suite {said('suite_version')}"
    if recording.get("upstream"):
        text += f", of {said('upstream')}" + (f" at {said('commit')}" if recording.get("commit") else "")
    return text + ": no engine ran; a case whose requests differ from the recorded ones is not_run"


def markdown(header: dict[str, Any], results: list[CaseResult], known_rules: list[str] | None = None,
             found: tuple[Deviation, ...] | None = None, compared: dict[str, Any] | None = None) -> str:
    """report.md; `compared`: the comparison with an earlier report (Comparison.to_json), when asked."""
    found = list(deviations(results) if found is None else found)
    engine = header.get("engine") or {}
    counts = tally(results)
    lines = [f"# Conformance report: {md(engine_title(header) or '?')}", "",
             *(["**This run was interrupted: not every case was run.**", ""] if header.get("interrupted") else []),
             *([f"**No case was run: {md(header['problem'])}**", ""] if header.get("problem") else []),
             *([f"**{md(recording_line(header))}**", ""] if recording_line(header) else []),
             f"Command: {md(header.get('command', '?'))}  ",
             f"Capabilities: {code(json.dumps(engine.get('capabilities', {})))}  ",
             f"Seed: {header.get('seed')}, property examples: {header.get('examples')}  ",
             *([md(suite_line(header))] if header.get("suite_version") else []), "",
             f"**{md(lead_line(found))}**", "",
             " | ".join(f"{v}: {counts[v]}" for v in VERDICTS), ""]
    lines += _findings(results, found) + ["## Rule by rule", "",
             "| rule | status | " + " | ".join(VERDICTS) + " | cases |",
             "| --- | --- | " + " | ".join("---:" for _ in VERDICTS) + " | --- |"]
    grouped = by_rule(results)
    for rule in sorted(grouped, key=rule_key):
        cases = grouped[rule]
        row = tally(cases)
        names = md(", ".join(sorted({c.id for c in cases if c.bad})), 300)
        lines.append(f"| {rule} | {rule_status(cases)} | " + " | ".join(str(row[v] or "") for v in VERDICTS)
                     + f" | {names} |")
    unseen = sorted(set(known_rules or []) - set(grouped), key=rule_key)
    if unseen:  # one line, not a row each: a run of a few cases (a fuzz campaign) would list every rule
        lines += ["", f"No case of this run checks {len(unseen)} rule{'s' * (len(unseen) != 1)}: "
                  f"{', '.join(unseen)}."]
    lines += comparison_markdown(compared) if compared else []
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
    rulings = [d for d in found if d.of_ruling]
    for number, deviation in enumerate([d for d in found if not d.of_ruling], 1):
        lines += [f"### {number}. {md(deviation.title)}", "", *_deviation_lines(deviation), ""]
    if rulings:
        lines += ["## Differs from our rulings", "", RULINGS_NOTE, ""]
        for number, deviation in enumerate(rulings, len(found) - len(rulings) + 1):
            lines += [f"### {number}. {md(deviation.title)}", "", *_deviation_lines(deviation), ""]
    differing = [r for r in results if r.verdict is Verdict.DIFFERS]
    if differing:
        lines += ["## Differs where the rules let an engine choose", ""]
        lines += [f"- {md(r.id)} ({md(r.where)}): {md(r.message)}" for r in differing] + [""]
    return lines


RULINGS_NOTE = ("Where the rulebooks are silent or disagree, this project rules (each ruling with its authority, "
                "on the rule's page). An engine that decides such a point otherwise does not misread the rules: it "
                "is counted under our rulings, never under the rules as written (`--rules-only` does not fail it).")


def _deviation_lines(deviation: Deviation) -> list[str]:
    count = len(deviation.cases)
    lines = [f"{deviation.kind}, level {deviation.level}, {count} case{'s' * (count != 1)} "
             f"(`{md(deviation.id)}`)  ", md(rule_text(deviation.rule)), ""]
    evidence = deviation.shown_evidence
    lines += [f"Evidence: {md(evidence.text)}", ""]
    if deviation.alike:
        lines += ["Indistinguishable on these cases: " + "; ".join(md(m.heading) for m in deviation.alike), ""]
    if deviation.nearest:
        lines += ["Nearest misreadings: " + "; ".join(f"{md(m.heading)} ({closeness_text(score)})"
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
            lines += [f"### {result.main_rule}: {code(result.id)} ({result.verdict})", "",
                      md(f"{result.where}: {result.message}".strip()), "", *fenced(_detail(result)), ""]
    skipped = [r for r in results if not r.verdict.judged]
    if skipped:
        lines += ["", "## Not judged", "", "| case | verdict | why |", "| --- | --- | --- |"]
        lines += [f"| {md(r.id)} | {r.verdict} | {md(r.message)} |" for r in skipped]
    return lines


# -- comparing two runs ------------------------------------------------------------------------------------------

@dataclass
class Change:
    """What became of one deviation (one bug) between two runs: `gone`, `still` there, or `new`; its cases
    before and now (matched by the deviation's id, which names the misreading or the symptom)."""

    id: str
    rule: str
    description: str
    status: str
    before: int
    now: int

    @property
    def text(self) -> str:
        """`END-1 (boards tiled seat by seat): gone, 21 cases`."""
        cases = (f"{self.before} case{'s' * (self.before != 1)}" if self.status == "gone" else
                 f"{self.now} case{'s' * (self.now != 1)}" + (f" (was {self.before})" if self.status == "still"
                                                                 and self.before != self.now else ""))
        return f"{self.rule} ({clipped(self.description, 80)}): {self.status}, {cases}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rule": self.rule, "description": self.description, "status": self.status,
                "before": self.before, "now": self.now}


@dataclass
class Comparison:
    fixed: list[tuple[str, str, str]] = field(default_factory=list)  # (id, old verdict, new verdict)
    broken: list[tuple[str, str, str]] = field(default_factory=list)
    still_bad: list[tuple[str, str, str]] = field(default_factory=list)
    unjudged: list[tuple[str, str, str]] = field(default_factory=list)  # judged before, now skip/not_run/out_of_time
    new_cases: list[str] = field(default_factory=list)
    gone_cases: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)  # per deviation: gone, still, new (what a rerun leads with)
    drift: list[str] = field(default_factory=list)  # why a level's count of judged cases changed, level by level

    def lists(self) -> tuple[tuple[str, str, list[tuple[str, str, str]]], ...]:
        """(title, JSON key, rows) of the four lists every case judged before falls in when it changed."""
        return (("fixed", "fixed", self.fixed), ("newly failing", "newly_failing", self.broken),
                ("still failing", "still_failing", self.still_bad),
                ("no longer judged", "no_longer_judged", self.unjudged))

    def lead(self) -> list[str]:
        """The deviations' changes, gone first, then still there, then new (`new: none` when none is)."""
        order = {"gone": 0, "still": 1, "new": 2}
        lines = [change.text for change in sorted(self.changes, key=lambda c: (order[c.status], rule_key(c.rule)))]
        return lines + ([] if any(c.status == "new" for c in self.changes) else ["new: none"])

    def to_json(self, old_path: str) -> dict[str, Any]:
        data: dict[str, Any] = {"with": old_path, "deviations": [c.to_json() for c in self.changes],
                                "judged_drift": list(self.drift)}
        for _, name, rows in self.lists():
            data[name] = [{"id": case_id, "before": str(old), "now": str(new)} for case_id, old, new in rows]
        return dict(data, new_cases=len(self.new_cases), gone_cases=len(self.gone_cases))


def comparison_markdown(compared: dict[str, Any]) -> list[str]:
    """report.md's section on the earlier report a run was compared with (the footer's `compared`)."""
    lines = ["", f"## Compared with {md(compared.get('with', '?'))}", ""]
    rows = compared.get("deviations") if isinstance(compared.get("deviations"), list) else []
    changes = [change for row in rows if (change := _change_of(row)) is not None]
    if changes:
        lines += ["By deviation:", ""] + [f"- {md(line)}" for line in Comparison(changes=changes).lead()] + [""]
    drift = [line for line in compared.get("judged_drift") or [] if isinstance(line, str)]
    if drift:
        lines += ["Cases judged:", ""] + [f"- {md(line)}" for line in drift] + [""]
    for title, name, _ in Comparison().lists():
        rows = compared.get(name) or []
        lines.append(f"- {title}: {len(rows)}")
        lines += [f"    - {md(row['id'])}: {md(row['before'])} -> {md(row['now'])}" for row in rows[:30]]
        if len(rows) > 30:
            lines.append(f"    - and {len(rows) - 30} more (report.jsonl's footer lists them all)")
    return lines


def _change_of(row: Any) -> Change | None:
    """A footer's deviation change read back (None: not one; a report is outside text)."""
    if not isinstance(row, dict) or row.get("status") not in ("gone", "still", "new"):
        return None
    counts = [row.get(k) if isinstance(row.get(k), int) and not isinstance(row.get(k), bool) else 0
              for k in ("before", "now")]
    return Change(str(row.get("id", "")), str(row.get("rule", "?")), str(row.get("description", "")),
                  row["status"], *counts)


def compare(old: list[CaseResult] | tuple[CaseResult, ...], new: list[CaseResult],
            old_deviations: tuple[dict[str, Any], ...] | list[dict[str, Any]] = (),
            found: tuple[Deviation, ...] | list[Deviation] | None = None) -> Comparison:
    """How a run differs from an earlier one: case by case (the four lists), deviation by deviation (the earlier
    report's deviation rows against this run's, `found`, where both runs were diagnosed), and why a level's count
    of judged cases moved."""
    out = _case_lists(old, new)
    out.drift = judged_drift(old, new)
    if found is not None:
        out.changes = _changes(old_deviations, found)
    return out


def _changes(old_rows, found) -> list[Change]:
    before = {row["id"]: row for row in old_rows if isinstance(row, dict) and isinstance(row.get("id"), str)}
    now = {d.id: d for d in found}
    changes = []
    for dev_id, row in before.items():
        cases = row.get("cases") if isinstance(row.get("cases"), list) else []
        description = str(row.get("description") or row.get("symptom") or dev_id)
        if dev_id in now:
            dev = now[dev_id]
            changes.append(Change(dev_id, dev.rule, _described(dev), "still", len(cases), len(dev.cases)))
        else:
            changes.append(Change(dev_id, str(row.get("rule") or "?"), description, "gone", len(cases), 0))
    changes += [Change(d.id, d.rule, _described(d), "new", 0, len(d.cases)) for d in found if d.id not in before]
    return changes


def _described(deviation: Deviation) -> str:
    return deviation.misreading.description if deviation.misreading else deviation.title


def judged_drift(old, new) -> list[str]:
    """For each level whose count of judged cases moved between two runs, the move and its causes:
    `rules as written: 189 judged, 190 before (-1 no longer judged (now skip))`."""
    def judged(results) -> dict[str, tuple[str, Verdict]]:
        return {r.id: (r.level if r.level in LEVEL_NAMES else Level.RULE, r.verdict) for r in results}

    before, after = judged(old), judged(new)
    lines = []
    for level, name in LEVEL_NAMES.items():
        was = {i for i, (lv, v) in before.items() if lv == level and v.judged}
        now = {i for i, (lv, v) in after.items() if lv == level and v.judged}
        if len(was) == len(now) and was == now:
            continue
        why: Counter[str] = Counter()
        for case_id in now - was:
            earlier = before.get(case_id)
            why["+ new case" if earlier is None else f"+ judged again (was {earlier[1]})" if not earlier[1].judged
                else f"+ moved from {LEVEL_NAMES.get(earlier[0], earlier[0])}"] += 1
        for case_id in was - now:
            later = after.get(case_id)
            why["- no longer run" if later is None else f"- no longer judged (now {later[1]})" if not later[1].judged
                else f"- moved to {LEVEL_NAMES.get(later[0], later[0])}"] += 1
        causes = ", ".join(f"{text[0]}{count} {text[2:]}" for text, count in sorted(why.items()))
        lines.append(f"{name}: {len(now)} judged, {len(was)} before ({causes})")
    return lines


def _case_lists(old: list[CaseResult] | tuple[CaseResult, ...], new: list[CaseResult]) -> Comparison:
    before = {r.id: r for r in old}
    after = {r.id: r for r in new}
    out = Comparison()
    for case_id, result in after.items():
        previous = before.get(case_id)
        if previous is None:
            out.new_cases.append(case_id)
            if result.bad:
                out.broken.append((case_id, "absent", result.verdict))
        elif previous.verdict.judged and not result.verdict.judged:  # a failure that became a skip is no fix
            out.unjudged.append((case_id, previous.verdict, result.verdict))
        elif previous.bad and not result.bad:
            out.fixed.append((case_id, previous.verdict, result.verdict))
        elif result.bad and not previous.bad:
            out.broken.append((case_id, previous.verdict, result.verdict))
        elif result.bad:
            out.still_bad.append((case_id, previous.verdict, result.verdict))
    out.gone_cases = sorted(set(before) - set(after))
    return out
