"""The conformance matrix (from the committed reports, read and counted by azul_conformance.harness.report, as
report.md counts them) and the CLI reference (from the commands' own --help)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

from azul_conformance import markup
from azul_conformance.harness.findings import KINDS, deviations, scores
from azul_conformance.harness.report import RunReport, by_rule, engine_title, read_report
from azul_conformance.harness.publish import PublishError, read_published
from azul_conformance.render_svg import render_state
from azul_conformance.results import CaseResult, Verdict
from azul_conformance.spec_data import Spec
from docgen_rules import cell, rule_link, rules_by_id


def load_reports(folder: Path, problems: list[str]) -> list[tuple[str, RunReport]]:
    """(file name, report) for every JSON Lines report in `folder` (`*.jsonl`, `*/report.jsonl`)."""
    paths = sorted(folder.glob("*.jsonl")) + sorted(folder.glob("*/report.jsonl")) if folder.is_dir() else []
    reports = []
    for path in paths:
        report = read_report(path)
        problems += list(report.problems)
        if not report.header and not report.results:
            problems.append(f"{path}: not a conformance report (no header, no case)")
            continue
        reports.append((path.relative_to(folder).as_posix(), report))
    return reports


def failing_by_rule(folder: Path) -> dict[str, list[tuple[str, str, str]]]:
    """For each rule, the engines of the matrix that fail it: (engine, its report page under the docs root
    with the anchor of its first failing case there, that case's id); only reports with a page (*/report.md),
    and cases their page has a section of."""
    failing: dict[str, list[tuple[str, str, str]]] = {}
    for name, report in load_reports(folder, []):  # problems: reported once, by the matrix page
        page = folder / name.replace(".jsonl", ".md")
        if not name.endswith("/report.jsonl") or not page.is_file():
            continue
        shown = {case.replace("\\", "") for case in CASE_HEADING_ANYWHERE.findall(page.read_text(encoding="utf-8"))}
        engine = name.split("/")[0]
        for rule_id, results in by_rule(list(report.results)).items():
            case = next((r.id for r in results if r.bad and r.id in shown), None)
            if case:
                failing.setdefault(rule_id, []).append(
                    (engine, f"reports/{engine}/report.md#{case_anchor(case)}", case))
    return failing


# Worst first, from each verdict's own line in results.py: the bad ones, then the judged ones, then the rest.
VERDICT_ORDER = [str(v) for v in sorted(Verdict, key=lambda v: (not v.bad, not v.judged, -v.severity))]


def counts_cell(results: list[CaseResult]) -> str:
    """One rule or chapter for one engine: how many of the cases filed under it end in each verdict (as
    report.md's row counts them), worst first, the worst as a coloured badge."""
    if not results:
        return "—"
    tally = {verdict: sum(str(r.verdict) == verdict for r in results) for verdict in VERDICT_ORDER}
    parts = [f"{count} {verdict.replace('_', ' ')}" for verdict, count in tally.items() if count]
    worst = next(verdict for verdict, count in tally.items() if count)
    verdict = Verdict(worst)
    colour = "fail" if verdict.bad else worst if verdict.judged else "skip"  # the badge colours: azul.css
    return " ".join([f'<span class="azul-badge azul-verdict-{colour}">{parts[0]}</span>', " · ".join(parts[1:])]
                    ).strip()


def write_up(folder: Path, name: str) -> str | None:
    """The engine's own write-up beside its report folder: docs/reports/<name>.md, or one page for engines that
    share an upstream (ludometer-py and ludometer-js: ludometer.md)."""
    stem = name.split("/")[0]
    for candidate in (stem, stem.rsplit("-", 1)[0]):
        if (folder / f"{candidate}.md").is_file():
            return f"{candidate}.md"
    return None


def judged_cell(folder: Path, name: str, report: RunReport, problems: list[str] | None = None) -> str:
    """How the engine is judged: from a recording committed beside its report (when it was made, from which
    upstream commit, how many of the report's cases it holds), or live (installed from a registry, in CI).
    A recording that cannot be read is a problem of the build (`problems`), naming its file and line."""
    recording = (folder / name).parent / "recording.jsonl.gz"
    about = published(folder, name, problems if problems is not None else [])
    if about is not None:  # `azul publish`: its author's run, which CI does not judge again
        return (f"published {markup.md(about.get('published', '?'))} by its author, not judged in CI"
                + ("; recording committed" if recording.is_file() else ""))
    if not name.endswith("/report.jsonl") or not recording.is_file():
        return "live, in CI"
    number = 1
    try:
        with gzip.open(recording, "rt", encoding="utf-8") as handle:
            header = json.loads(handle.readline())
            if not isinstance(header, dict):
                raise ValueError(f"its first line is a JSON {type(header).__name__}, not the recording's header "
                                 "(an object)")
            recorded, number = 0, 2
            for line in handle:  # (a line that cannot be read raises before it is counted: `number` is it)
                recorded += bool(ENDED.search(line))
                number += 1
    except (OSError, EOFError, ValueError) as error:
        said = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__
        (problems if problems is not None else []).append(f"{recording}:{number}: the recording cannot be read: "
                                                          f"{said}")
        return "recording unreadable"
    commit = str(header.get("commit") or "")[:7]
    return (f"recording of {markup.md(str(header.get('date', '?'))[:10])}"
            + (f", commit {markup.code(commit)}" if commit else "") + f"; {recorded} of {len(report.results)} cases")


def published(folder: Path, name: str, problems: list[str]) -> dict[str, str] | None:
    """What `azul publish` wrote beside a report (its published.yaml), None for an adapter's report; a damaged
    one is a problem of the build."""
    if not name.endswith("/report.jsonl"):
        return None
    try:
        return read_published((folder / name).parent)
    except PublishError as error:
        problems.append(str(error))
        return None


ENDED = re.compile(r'^\{"case":"[^"]*","ended":\d+\}$')


def _link(folder: Path, link: str | None, target: str | None, text: str) -> str:
    """A link to `target` (a file under the reports folder) when the page's reports are the docs' own."""
    return f"[{text}]({link}{target})" if link is not None and target and (folder / target).is_file() else text


def by_chapter(spec: Spec, results: list[CaseResult]) -> dict[str, list[CaseResult]]:
    """Each result under the chapters of the rules by_rule files it under, once per chapter."""
    chapter_of = {rule.id: rule.chapter for rule in spec.rules}
    chapters: dict[str, dict[str, CaseResult]] = {}
    for rule, cases in by_rule(results).items():
        chapter = chapter_of.get(rule, rule.split("-")[0].lower())
        for case in cases:
            chapters.setdefault(chapter, {})[case.id] = case
    return {chapter: list(cases.values()) for chapter, cases in chapters.items()}


def causes(report: RunReport) -> dict[str, int]:
    """How many misreadings (a pair's two counted as two), rulings of ours decided otherwise, undiagnosed groups
    and engine faults a report's diagnosis found; a report written before diagnosis is counted by symptom (every
    group undiagnosed)."""
    rows = list(report.deviations) or [{"kind": d.kind, "misreading": None} for d in deviations(report.results)]
    counts = dict.fromkeys(CAUSES, 0)
    readings = {part for row in rows if row.get("misreading") and not row.get("ruling")
                for part in str(row["misreading"]).split("+")}
    for row in rows:
        if row.get("ruling"):  # a ruling of ours decided otherwise: not a misreading of the rules
            counts["ruling"] += 1
        elif row.get("kind") in counts and row.get("kind") != "misreading":
            counts[row["kind"]] += 1
    counts["misreading"] = len(readings)
    return counts


# The columns of the causes: the kinds of deviation, a difference from one of our rulings apart from misreadings.
CAUSES = ("misreading", "ruling", *(kind for kind in KINDS if kind != "misreading"))


def misreading_sections(reports: list[tuple[str, RunReport]]) -> list[str]:
    """Engine by engine, the causes its report's diagnosis found, largest first."""
    out = ["", "## What each engine gets wrong", "",
           "Each heading is a deviation of the engine's report: the rule it misreads and the wrong reading, in "
           "words, with the number of failing cases it explains.", ""]
    for name, report in reports:
        rows = [row for row in report.deviations if isinstance(row.get("cases"), list)]
        if not rows:
            continue
        out += [f"### {markup.md(engine_title(report.header) or name)}", ""]
        for row in rows:
            what = markup.md(row.get("description", ""))  # not diagnosed, engine faults: their title
            rules = [markup.md(rule) for rule in (row.get("rules") if isinstance(row.get("rules"), list)
                                                  else [row.get("rule")])]
            label = what if row.get("kind") != "misreading" else f"differs from our ruling {rules[0]}: {what}" \
                if row.get("ruling") else f"both at once: {what}" if len(rules) > 1 else f"{rules[0]}: {what}"
            count = len(row["cases"])
            out.append(f"- **{label}** ({count} case{'s' * (count != 1)})")
        out.append("")
    return out


def twins(reports: list[tuple[str, RunReport]]) -> list[tuple[tuple[str, RunReport], tuple[str, RunReport]]]:
    """Pairs of reports on the same engine in two languages: their engine names agree before the parenthesis
    ("ludometer (Python, via adapter)", "ludometer (JavaScript port, via adapter)")."""
    def upstream(item: tuple[str, RunReport]) -> str:
        return (engine_title(item[1].header) or item[0]).split("(")[0].strip()

    pairs = []
    for index, first in enumerate(reports):
        pairs += [(first, second) for second in reports[index + 1:] if upstream(first) == upstream(second)]
    return pairs


def side_by_side(pair) -> list[str]:
    (name_a, a), (name_b, b) = pair
    title_a, title_b = engine_title(a.header) or name_a, engine_title(b.header) or name_b
    verdicts_a = {r.id: str(r.verdict) for r in a.results}
    verdicts_b = {r.id: str(r.verdict) for r in b.results}
    shared = sorted(set(verdicts_a) & set(verdicts_b))
    differ = [case for case in shared if verdicts_a[case] != verdicts_b[case]]
    out = ["", f"### {markup.md(title_a)} and {markup.md(title_b)}", ""]
    if not shared:
        return out + ["The two reports have no case in common."]
    out += [f"{len(shared) - len(differ)} of {len(shared)} cases have the same verdict on both"
            + (":" if not differ else f"; {len(differ)} differ:"), ""]
    if differ:
        out += ["| Case | " + markup.md(title_a) + " | " + markup.md(title_b) + " |", "| --- | --- | --- |"]
        out += [f"| {markup.code(case)} | {verdicts_a[case]} | {verdicts_b[case]} |" for case in differ]
    else:
        tally = {v: sum(verdict == v for verdict in verdicts_a.values()) for v in VERDICT_ORDER}
        out.append(", ".join(f"{count} {verdict}" for verdict, count in tally.items() if count) + " on each.")
    return out


def matrix_page(spec: Spec, folder: Path, problems: list[str], link: str | None = None) -> str:
    """The matrix page; `link` is the path from the page to `folder` ("reports/" for the docs' own reports),
    None to link nothing (a folder outside the docs)."""
    reports = load_reports(folder, problems)
    # The page's tables have a column per engine: without the side bars they fit a 1280-pixel window.
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "", "# Conformance matrix", "",
           "Which engine passes which rule, from the conformance reports committed under `docs/reports/`, "
           "counted as each report's own `report.md` counts them: a passing case counts under every rule it "
           "checks, a failing case only under the rule it breaks. Skipped scenarios (a capability the engine "
           "does not offer) never count as passes. The scores are by level: the rulebooks' own rules, our "
           "rulings where they are silent or disagree, and implementation-defined behaviour (where an engine "
           "that chose otherwise `differs`, never fails). Each failure is diagnosed: a **misreading** is a wrong "
           "reading of a rule, from the suite's catalogue, that reproduces what the engine did in the failing "
           "cases; what no misreading reproduces is counted as **not diagnosed**, and crashes, timeouts, refused "
           "queries and impossible positions as **engine faults**. Each engine's write-up adds what a machine "
           "cannot tell. **Judged** says how CI judges each engine on every change of the suite: live, for an "
           "engine installed from a package registry, or from the recording of a session with the engine (made "
           "where the engine is; this project holds no engine's code from a code host), whose cases are judged "
           "again on the recorded answers. CI fails when a verdict changes, or when the suite asks more than 5% of "
           "an engine's cases something its recording does not hold.", ""]
    if not reports:
        return "\n".join(out + ['!!! note "No report yet"', "",
                                "    No report is committed under `docs/reports/`. Run `azul conform --report-dir` "
                                "and commit its `report.jsonl` there to fill this page."]) + "\n"
    out += ["| Engine | Judged | Cases | Pass | Fail | Skip | Pass by level: rules · rulings · impl.-defined | "
            "Misreadings | Our rulings decided otherwise | Not diagnosed | Engine faults |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
    for name, report in reports:
        results = report.results
        levels = " · ".join(f"{row['pass']}/{row['judged']}" + (f" ({row['differs']} differ)" if row["differs"]
                                                                 else "") for row in scores(results).values())
        about = published(folder, name, [])  # (its problems are judged_cell's to say, once)
        shown = about["name"] if about else engine_title(report.header) or name
        title = _link(folder, link, write_up(folder, name), markup.md(shown))
        full = _link(folder, link, name.replace(".jsonl", ".md"), "report") if name.endswith("/report.jsonl") \
            else markup.code(name)
        kinds = causes(report)
        out.append(f"| {title} ({full}) | {judged_cell(folder, name, report, problems)} | {len(results)} | "
                   f"{sum(r.verdict is Verdict.PASS for r in results)} | {sum(r.bad for r in results)} | "
                   f"{sum(not r.verdict.judged for r in results)} | {levels} | "
                   + " | ".join(str(kinds[kind]) for kind in CAUSES) + " |")
    out += misreading_sections(reports)
    # A column per engine, named by its report folder and linked to its report; each cell links to the rule by
    # rule table of that report. The tables scroll inside a box whose header row and first column stay in view
    # (azul.css: .azul-matrix), so they read at any width, a phone's included.
    pages = [name.replace(".jsonl", ".md") if name.endswith("/report.jsonl") else None for name, _ in reports]
    heads = " | ".join(_link(folder, link, page, markup.md(name.split("/")[0].removesuffix(".jsonl")))
                       for (name, _), page in zip(reports, pages))
    key = "Columns: " + "; ".join(f"**{markup.md(name.split('/')[0].removesuffix('.jsonl'))}** "
                                  f"{markup.md(engine_title(report.header) or name)}" for name, report in reports) + "."

    def linked(cells: list[str], cases: list[str | None] | None = None) -> list[str]:
        """Each cell a link to its report: to the section of `cases`' failing case where it has one, else to
        its rule-by-rule table."""
        anchors = [f"#{case_anchor(case)}" if case else "#rule-by-rule" for case in cases or [None] * len(cells)]
        return [_link(folder, link, page, text).replace(".md)", f".md{anchor})", 1) if page else text
                for text, page, anchor in zip(cells, pages, anchors)]

    # the failing cases each report page has a section of (a report.md may leave some out)
    sections = [{case.replace("\\", "") for case in
                 CASE_HEADING_ANYWHERE.findall((folder / page).read_text(encoding="utf-8"))}
                if page and (folder / page).is_file() else set() for page in pages]

    def first_failing(results: list[CaseResult], shown: set[str]) -> str | None:
        return next((r.id for r in results if r.bad and r.id in shown), None)
    chapters = [by_chapter(spec, list(report.results)) for _, report in reports]
    titles = {chapter.name: chapter.title for chapter in spec.chapters}
    names = [chapter.name for chapter in spec.chapters] + sorted({c for rows in chapters for c in rows} - set(titles))
    out += ["", "## Chapter by chapter", "",
            "Each case once per chapter, under the rules it is filed under. " + key, "",
            '<div class="azul-matrix" markdown>', "",
            "| Chapter | " + heads + " |", "| --- |" + " --- |" * len(reports)]
    for chapter in names:
        if any(chapter in rows for rows in chapters):
            label = f"[{cell(titles[chapter])}](rules/{chapter}.md)" if chapter in titles else markup.code(chapter)
            out.append(f"| {label} | " + " | ".join(linked([counts_cell(rows.get(chapter, [])) for rows in chapters]))
                       + " |")
    out += ["", "</div>"]
    grouped = [by_rule(list(report.results)) for _, report in reports]
    out += ["", "## Rule by rule", "", key, "", '<div class="azul-matrix" markdown>', "",
            "| Rule | " + heads + " |", "| --- |" + " --- |" * len(reports)]
    rule_ids = [rule.id for rule in spec.rules] or sorted({rule for rules in grouped for rule in rules})
    for rule_id in rule_ids + sorted({rule for rules in grouped for rule in rules} - set(rule_ids)):
        cells = linked([counts_cell(rules.get(rule_id, [])) for rules in grouped],
                       [first_failing(rules.get(rule_id, []), shown) for rules, shown in zip(grouped, sections)])
        rule = rules_by_id(spec).get(rule_id)
        label = rule_link(spec, rule_id, '') + (f" {cell(rule.title)}" if rule else "")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += ["", "</div>"]
    pairs = twins(reports)
    if pairs:
        out += ["", "## One engine, two languages",
                "", "Engines ported from one to another should agree case by case (the properties play different "
                "random games on each when their random generators differ)."]
        for pair in pairs:
            out += side_by_side(pair)
    return "\n".join(out) + "\n"


# --- CLI reference ---------------------------------------------------------------------------------------

def _help_text(command: Any, name: str) -> str:
    import click

    with click.Context(command, info_name=name, max_content_width=100, terminal_width=100) as ctx:
        return command.get_help(ctx)


def _command_sections(command: Any, name: str, level: int) -> list[str]:
    import click

    out = [f"{'#' * level} `{name}`", "", "```text", _help_text(command, name), "```", ""]
    if isinstance(command, click.Group):
        for sub in command.list_commands(click.Context(command)):
            child = command.get_command(click.Context(command), sub)
            if child is not None:
                out += _command_sections(child, f"{name} {sub}", min(level + 1, 4))
    return out


def cli_page() -> str:
    from azul_conformance import cli

    out = ["# Command-line reference", "",
           "Everything is one command, `azul`. This page is generated from the commands' own `--help`, "
           "so it always matches the installed version.", "", "```text", _help_text(cli.main, "azul"), "```", ""]
    for name in sorted(cli.COMMANDS):
        out += _command_sections(cli.main.get_command(None, name), f"azul {name}", 2)
    return "\n".join(out) + "\n"


# -- a report's own page: every case a link to its scenario, every rule to its page -------------------------------

CASE_HEADING = re.compile(r"^### (?P<rule>[A-Z][A-Z0-9]*-\d+|protocol): `(?P<case>[^`]+)` \((?P<verdict>[a-z_]+)\)$")
DEVIATION_HEADING = re.compile(r"^### (?P<number>\d+\. (?:differs from our ruling )?)(?P<rule>[A-Z][A-Z0-9]*-\d+)"
                               r"(?P<rest>: .*)$")
EVIDENCE = re.compile(r"^Evidence: (?P<case>[^ ]+) (?P<rest>\(.*)$")
DIFFERING = re.compile(r"^- (?P<case>[^ ]+) (?P<rest>\(.*)$")
RULE_ROW = re.compile(r"^\| (?P<rule>[A-Z][A-Z0-9]*-\d+) \|(?P<middle>(?: [^|]* \|)+) (?P<cases>[^|]*) \|$")
SKIPPED_ROW = re.compile(r"^\| (?P<case>[a-z0-9][^ |]*) \| (?P<rest>(?:skip|not_run|out_of_time) \|.*)$")
CASE_HEADING_ANYWHERE = re.compile(r"^### (?:[A-Z][A-Z0-9]*-\d+|protocol): `([^`]+)` \([a-z_]+\)$", re.MULTILINE)
# A counterexample written beside the report, as a case's block in report.md names it
COUNTEREXAMPLE = re.compile(r"^minimal failing game: (?:\S*/)?(?P<path>counterexamples/[A-Za-z0-9_.-]+\.ya?ml)$")
CORPUS_PATH = re.compile(r"conformance/scenarios/[A-Za-z0-9_./\\-]+\.yaml:\d+")


def case_anchor(case_id: str) -> str:
    """The anchor of a failing case's section on its engine's report page (the matrix links each cell to it)."""
    return "case-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", case_id)


def linked_report(text: str, spec: Spec, scenarios: list[Any], urls: dict[str, str],
                  boards: dict[str, tuple[str, str | None]] | None = None, folder: Path | None = None,
                  about: dict[str, str] | None = None) -> str:
    """A report.md as its page on the site (docs/reports/<engine>/report.md): each case a link to its scenario's
    section (its Given board and expected result drawn there), each rule to its rule's section, and each place in
    the corpus (file:line) a link to the scenario that holds it, instead of bare names and repository paths.
    Properties (random games, no page of their own) stay names; what is inside code blocks stays as written.
    `scenarios`: the corpus (each with its file, line and id), `urls`: a scenario's page by id, `boards`: by case
    id, the pictures (paths beside the page) of the engine's boards when a failing case was judged and of the
    reference engine's at the same point (None where no scenario gives them). Each failing case's heading has an
    anchor (case_anchor); a counterexample published beside the report in `folder` is linked below the block that
    names it. `about`: what `azul publish` wrote beside the report (its published.yaml), shown above it."""
    boards = boards or {}
    up = "../../"  # from reports/<engine>/report.md to the docs root
    starts: dict[str, list[tuple[int, str]]] = {}
    for scenario in scenarios:
        starts.setdefault(_corpus_path(scenario.file), []).append((scenario.line, scenario.id))

    def case(name: str, code: bool = True) -> str:
        plain = name.replace("\\", "")  # report.md escapes Markdown's characters (md())
        shown = markup.code(plain) if code else name
        return f"[{shown}]({up}{urls[plain]})" if plain in urls else shown

    def rule(rule_id: str) -> str:
        return rule_link(spec, rule_id, up) if rule_id != "protocol" else rule_id

    def place(found: re.Match) -> str:  # the scenario holding file:line: the last one to start at or before it
        file, _, number = found[0].replace("\\", "").rpartition(":")
        name = max(((start, n) for start, n in starts.get(file, ()) if start <= int(number)), default=(0, ""))[1]
        return f"[`{file}:{number}`]({up}{urls[name]})" if name in urls else f"`{file}:{number}`"

    out: list[str] = []
    fence = ""  # the fence of the code block the line is in: closed by a line of as many backticks or more
    found: list[str] = []  # the counterexamples the block names
    for line in text.split("\n"):
        opening = re.match(r"`{3,}", line)
        if fence or opening:
            fence = "" if fence and opening and line.strip() == opening[0] and len(opening[0]) >= len(fence) \
                else fence or opening[0]
            out.append(line)
            if fence and (match := COUNTEREXAMPLE.match(line)) and folder and (folder / match["path"]).is_file():
                found.append(match["path"])
            if not fence and found:
                out += [""] + [f"Minimal failing game: [{markup.code(path)}]({path})" for path in found]
                found = []
            continue
        # places first, outside inline code: the links made below hold code of their own
        line = "`".join(CORPUS_PATH.sub(place, part) if i % 2 == 0 else part
                        for i, part in enumerate(line.split("`")))
        if match := CASE_HEADING.match(line):
            current = match["case"].replace("\\", "")
            line = f"### {rule(match['rule'])}: {case(match['case'])} ({match['verdict']}) {{#{case_anchor(current)}}}"
            if current in boards:
                line += "\n\n" + "\n".join(_boards_side_by_side(current, *boards[current]))
                if current in urls:  # Markdown outside the figures, so that the link renders
                    line += f"\n\nThe scenario, its Given board and its steps: {case(current, code=False)}."
        elif match := DEVIATION_HEADING.match(line):
            line = f"### {match['number']}{rule(match['rule'])}{match['rest']}"
        elif match := EVIDENCE.match(line):
            line = f"Evidence: {case(match['case'], code=False)} {match['rest']}"
        elif match := DIFFERING.match(line):
            line = f"- {case(match['case'], code=False)} {match['rest']}"
        elif line.startswith("Cases: "):
            line = "Cases: " + ", ".join(case(name, code=False) for name in line[len("Cases: "):].split(", "))
        elif match := RULE_ROW.match(line):
            names = [case(name, code=False) for name in match["cases"].split(", ") if name]
            line = f"| {rule(match['rule'])} |{match['middle']} {', '.join(names)} |"
        elif match := SKIPPED_ROW.match(line):
            line = f"| {case(match['case'], code=False)} | {match['rest']}"
        out.append(line)
    # Not in the search index: a report's headings name rules and cases by the hundred, and a search for a rule's
    # ID must find the rule's own section first (its page is boosted, tests/test_docs_site.py)
    if about:
        out[1:1] = ["", _about(about)]  # under the report's own title
    return "---\nsearch:\n  exclude: true\n---\n\n" + "\n".join(out)


def _about(about: dict[str, str]) -> str:
    """One line on a published report: who the engine is, as its author said (`azul publish`)."""
    parts = [f"Published by its author on {markup.md(about.get('published', '?'))} as **{markup.md(about['name'])}**"]
    parts += [f"{label} {markup.code(about[key])}" for key, label in (("engine", "engine"), ("version", "version"))
              if about.get(key)]
    parts += [f"{label} {markup.md(about[key])}" for key, label in (("upstream", "home"), ("licence", "licence"))
              if about.get(key)]
    return "; ".join(parts) + ". Not judged again in CI: the verdicts are those of the author's run."


def _boards_side_by_side(case_id: str, engine: str, expected: str | None) -> list[str]:
    """The engine's boards when a case failed and, beside them, the reference engine's at the same point; each
    picture links to itself (opened alone, it can be enlarged on a phone), its alt text names the case."""
    out = ['<div class="azul-boards" markdown>', ""]
    for picture, whose, caption in (
            (engine, "The engine's boards", "The engine's boards when the case failed"),
            (expected, "The reference engine's boards", "Expected: the reference engine's boards at the same point")):
        if picture:
            out += ['<figure class="azul-board" markdown="span">',
                    f"[![{whose} when {markup.md(case_id)} failed]({picture}){{ loading=lazy }}]({picture})",
                    f"<figcaption>{caption}</figcaption>", "</figure>", ""]
    return out + ["</div>"]


def _corpus_path(file: str) -> str:
    """A scenario file as report.md names it (conformance/scenarios/...), from wherever it was loaded."""
    path = Path(file).resolve().as_posix()
    return "conformance/scenarios/" + path.split("/conformance/scenarios/", 1)[1] if "/conformance/scenarios/" \
        in path else path


def engine_boards(path: Path, problems: list[str], expected: Any = None) -> dict[str, tuple[str, str | None]]:
    """Each failing scenario of a report: the engine's boards (SVG), from the state it held when judged, and the
    reference engine's at the same point (`expected(case id, message)`: that state, None where there is none)."""
    if not path.is_file():
        return {}
    drawn = {}
    for result in read_report(path).results:
        state = result.details.get("state") if result.bad else None
        if isinstance(state, dict):
            try:
                engine = render_state(state)
            except (KeyError, TypeError, ValueError, IndexError) as error:  # a state no board can show
                problems.append(f"{path}: {result.id}: the engine's state cannot be drawn ({error})")
                continue
            reference = expected(result.id, result.message) if expected else None
            drawn[result.id] = (engine, render_state(reference) if reference is not None else None)
    return drawn
