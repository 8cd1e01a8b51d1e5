"""The conformance matrix (from the committed reports, read and counted by azul_conformance.harness.report, as
report.md counts them) and the CLI reference (from the commands' own --help)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from azul_conformance.harness.findings import deviations, scores
from azul_conformance.harness.report import RunReport, by_rule, engine_title, read_report
from azul_conformance.results import CaseResult, Verdict
from azul_conformance.spec_data import Spec
from docgen_rules import cell, rule_link


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


def rule_cell(results: list[CaseResult]) -> str:
    """One rule for one engine: the cases filed under it, as report.md's row counts them."""
    if not results:
        return "—"
    total = len(results)
    bad = sum(r.bad for r in results)
    passed = sum(r.verdict is Verdict.PASS for r in results)
    if bad:
        return f'<span class="azul-badge azul-verdict-fail">{bad} of {total} fail</span>'
    if passed:
        return f'<span class="azul-badge azul-verdict-pass">{passed} of {total} pass</span>'
    return f'<span class="azul-badge azul-verdict-skip">{total} skipped</span>'


def matrix_page(spec: Spec, folder: Path, problems: list[str]) -> str:
    reports = load_reports(folder, problems)
    out = ["# Conformance matrix", "",
           "Which engine passes which rule, from the conformance reports committed under `docs/reports/`, "
           "counted as each report's own `report.md` counts them: a passing case counts under every rule it "
           "checks, a failing case only under the rule it breaks. Skipped scenarios (a capability the engine "
           "does not offer) never count as passes. The scores are by level: the rulebooks' own rules, our "
           "rulings where they are silent or disagree, and implementation-defined behaviour (where an engine "
           "that chose otherwise `differs`, never fails); a deviation is a group of failing cases that find "
           "the same state field wrong in the same way.", ""]
    if not reports:
        return "\n".join(out + ['!!! note "No report yet"', "",
                                "    No report is committed under `docs/reports/`. Run `azul conform --report-dir` "
                                "and commit its `report.jsonl` there to fill this page."]) + "\n"
    out += ["| Engine | Report | Cases | Pass | Fail/error | Skip | Rules as written | Our rulings | "
            "Implementation-defined | Deviations |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |"]
    for name, report in reports:
        results = report.results
        score = scores(results)
        levels = " | ".join(f"{row['pass']} of {row['judged']} pass" + (f", {row['differs']} differ" if row["differs"]
                                                                          else "") for row in score.values())
        out.append(f"| {cell(engine_title(report.header) or name)} | `{name}` | {len(results)} | "
                   f"{sum(r.verdict is Verdict.PASS for r in results)} | {sum(r.bad for r in results)} | "
                   f"{sum(not r.verdict.judged for r in results)} | {levels} | {len(deviations(results))} |")
    grouped = [by_rule(list(report.results)) for _, report in reports]
    out += ["", "## Rule by rule", "",
            "| Rule | " + " | ".join(cell(engine_title(report.header) or name) for name, report in reports) + " |",
            "| --- |" + " --- |" * len(reports)]
    rule_ids = [rule.id for rule in spec.rules] or sorted({rule for rules in grouped for rule in rules})
    for rule_id in rule_ids:
        cells = [rule_cell(rules.get(rule_id, [])) for rules in grouped]
        out.append(f"| {rule_link(spec, rule_id, '')} | " + " | ".join(cells) + " |")
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
