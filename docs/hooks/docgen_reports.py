"""The conformance matrix (from committed reports) and the CLI reference (from the commands' own --help)."""

from __future__ import annotations

import importlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from docgen_data import Spec
from docgen_rules import cell, rule_link

FAILING = ("fail", "error", "crash", "timeout")
REPORT_FORMAT = """\
A report is one JSON object, or JSON Lines (one object per line, a header first and a footer last).
The page reads:

- the engine: `engine` (a name, or an object with `name` and `version`) in the object or the header line;
- the cases: the objects of a `cases` list, or every line holding a `verdict`; each case has an `id`,
  a `verdict` (`pass`, `fail`, `error`, `crash`, `timeout`, `skip`, `not_run`) and its `rules` (rule IDs).
"""


def _records(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        cases = data.get("cases") or data.get("results") or []
        return [{k: v for k, v in data.items() if k not in ("cases", "results")}] + list(cases)
    return [d for d in data if isinstance(d, dict)]


def _engine_name(records: list[dict], path: Path) -> str:
    for record in records:
        engine = record.get("engine")
        if isinstance(engine, dict):
            return " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or path.stem
        if isinstance(engine, str) and "verdict" not in record:
            return engine
    return path.stem


def load_reports(folder: Path, problems: list[str]) -> list[tuple[str, str, list[dict]]]:
    """(engine, file name, cases) for every report in `folder`."""
    reports = []
    paths = sorted(folder.glob("*.json*")) + sorted(folder.glob("*/report.jsonl")) if folder.is_dir() else []
    for path in paths:
        try:
            records = _records(path)
        except (OSError, json.JSONDecodeError) as error:
            problems.append(f"{path}: not a readable report: {error}")
            continue
        cases = [r for r in records if "verdict" in r]
        reports.append((_engine_name(records, path), path.relative_to(folder).as_posix(), cases))
    return reports


def _cell(verdicts: Counter) -> str:
    if not verdicts:
        return "—"
    total = sum(verdicts.values())
    bad = sum(verdicts[v] for v in FAILING)
    passed = verdicts["pass"]
    if bad:
        return f'<span class="azul-badge azul-verdict-fail">{bad} of {total} fail</span>'
    if passed:
        return f'<span class="azul-badge azul-verdict-pass">{passed} of {total} pass</span>'
    return f'<span class="azul-badge azul-verdict-skip">{total} skipped</span>'


def matrix_page(spec: Spec, folder: Path, problems: list[str]) -> str:
    reports = load_reports(folder, problems)
    out = ["# Conformance matrix", "",
           "Which engine passes which rule, from the conformance reports committed under `docs/reports/`. "
           "A rule passes for an engine when every scenario that checks it passes; skipped scenarios "
           "(a capability the engine does not offer) never count as passes.", ""]
    if not reports:
        return "\n".join(out + ['!!! note "No report yet"', "",
                                "    No report is committed under `docs/reports/`. Run `azul conform` with a "
                                "JSON report and commit it there to fill this page.", "",
                                '??? info "Report format this page reads"', ""]
                         + ["    " + line for line in REPORT_FORMAT.splitlines()]) + "\n"
    per_rule: list[dict[str, Counter]] = []
    for _, _, cases in reports:
        counts: dict[str, Counter] = {}
        for case in cases:
            for rule_id in case.get("rules") or []:
                counts.setdefault(str(rule_id), Counter())[str(case.get("verdict"))] += 1
        per_rule.append(counts)
    out += ["| Engine | Report | Cases | Pass | Fail/error | Skip |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for engine, name, cases in reports:
        v = Counter(str(c.get("verdict")) for c in cases)
        out.append(f"| {cell(engine)} | `{name}` | {len(cases)} | {v['pass']} | "
                   f"{sum(v[k] for k in FAILING)} | {v['skip'] + v['not_run']} |")
    out += ["", "## Rule by rule", "", "| Rule | " + " | ".join(cell(e) for e, _, _ in reports) + " |",
            "| --- |" + " --- |" * len(reports)]
    rule_ids = [r.get("id") for c in spec.chapters for r in c.get("rules") or []] \
        or sorted({r for counts in per_rule for r in counts})
    for rule_id in rule_ids:
        cells = [_cell(counts.get(rule_id, Counter())) for counts in per_rule]
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
    out = ["# Command-line reference", "",
           "Everything is one command, `azul`. This page is generated from the commands' own `--help`, "
           "so it always matches the installed version.", ""]
    try:
        cli = importlib.import_module("azul_conformance.cli")
    except ImportError as error:
        return "\n".join(out + [f"The CLI could not be imported ({cell(error)})."]) + "\n"
    out += ["```text", _help_text(cli.main, "azul"), "```", ""]
    for name, (target, summary) in sorted(cli.COMMANDS.items()):
        module_name, attribute = target.split(":")
        try:
            command = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as error:
            out += [f"## `azul {name}`", "", f"{summary}", "",
                    '!!! note "Not in this build"', "", f"    `{module_name}` is not available ({cell(error)}).", ""]
            continue
        out += _command_sections(command, f"azul {name}", 2)
    return "\n".join(out) + "\n"
