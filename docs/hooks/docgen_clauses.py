"""The clause index as a per-version view: what each line of, say, the Ukrainian edition states."""

from __future__ import annotations

from azul_conformance.spec_data import VERSION_NAMES, VERSIONS, Clause, Spec
from docgen_rules import FORM_LABEL, badge, cell, rule_link, rules_by_id

MARK = {"states": "●", "printed": "●", "partly": "◑", "example": "◐", "diverges": "✕", "silent": "○", "missing": "?"}


def _clauses_of(spec: Spec, version: str | None) -> list[tuple[str, Clause]]:
    return [(name, clause) for name, clauses in sorted(spec.clauses.items()) for clause in clauses
            if clause.version == version]


def _clause_row(spec: Spec, clause: Clause) -> str:
    lines = f"{clause.first}" if clause.first == clause.last else f"{clause.first}–{clause.last}"
    anchor = f"[{lines}](#L{clause.first}){{#L{clause.first}}}"
    if not clause.normative:
        return f"| {anchor} | {badge('form-silent', 'not normative')} | {cell(clause.reason)} |"
    rules = rules_by_id(spec)
    said = [f"{rule_link(spec, rule_id, '../')} {cell(rules[rule_id].title if rule_id in rules else '')}"
            for rule_id in clause.rules]
    label = badge("form-example", "worked example") if clause.kind == "example" else badge("form-states", "states")
    return f"| {anchor} | {label} | {'<br>'.join(said)} |"


def version_page(spec: Spec, version: str) -> str:
    clauses = _clauses_of(spec, version)
    files = sorted({name for name, _ in clauses})
    out = [f"# {version}: {VERSION_NAMES.get(version, '')}", "",
           f"Every line of the {VERSION_NAMES.get(version, version)} ({version}), clause by clause "
           f"({', '.join(f'`{f}`' for f in files) or 'no clause index yet'}): what it states, as links to our "
           "rules, or why it states nothing normative (a heading, the story, the list of materials). "
           "We do not reproduce the rulebook's prose: read it beside this page, line numbers in hand.", ""]
    if not clauses:
        return "\n".join(out + ['!!! note "Not indexed yet"', "",
                                f"    No clause of spec/clauses/ belongs to {version} in this build."]) + "\n"
    out += ["| Lines | Kind | What it states |", "| --- | --- | --- |"]
    out += [_clause_row(spec, clause) for _, clause in clauses]
    return "\n".join(out + [""] + _departures(spec, version)) + "\n"


def _departures(spec: Spec, version: str) -> list[str]:
    """The rules this version is silent on or departs from, with our note: what a reader of it would miss."""
    rows = []
    for rule in spec.rules:
        source = rule.sources.get(version)
        if source is not None and source.form in ("silent", "diverges", "example"):
            rows.append(f"| {rule_link(spec, rule.id, '../')} {cell(rule.title)} | "
                        f"{badge('form-' + source.form, FORM_LABEL[source.form])} | {cell(source.note)} |")
    if not rows:
        return []
    return ["## Where this version departs from the rules", "",
            f"Rules that the {VERSION_NAMES.get(version, version)} does not state as written: it is silent, "
            "shows them only in an example, or says something different.", "",
            "| Rule | What it does | Our note |", "| --- | --- | --- |"] + rows


def _coverage_table(spec: Spec) -> list[str]:
    out = ["## Rules by version", "",
           "What each version does with each rule: ● states it (the board may print its numbers), ◑ states part of it, "
           "◐ shows it only in a worked example, "
           "✕ diverges, ○ silent. The rule pages give the lines and notes.", "",
           "| Rule | " + " | ".join(f"[{v}]({v}.md)" for v in VERSIONS) + " |",
           "| --- |" + " :---: |" * len(VERSIONS)]
    for rule in spec.rules:
        marks = [MARK[rule.sources[v].form if v in rule.sources else "missing"] for v in VERSIONS]
        out.append(f"| {rule_link(spec, rule.id, '../')} | " + " | ".join(marks) + " |")
    return out


def index_page(spec: Spec) -> str:
    out = ["# Clause index", "",
           "Each rulebook file is split into clauses, and each clause either states rules or is marked "
           "non-normative with a reason, so that no line goes unaccounted for. One page per version:", ""]
    out += ["| Version | File | Clauses | Stating rules |", "| --- | --- | ---: | ---: |"]
    for version in VERSIONS:
        clauses = _clauses_of(spec, version)
        files = ", ".join(sorted({f"`{name}`" for name, _ in clauses})) or "—"
        normative = sum(1 for _, c in clauses if c.normative)
        out.append(f"| [{version} {VERSION_NAMES[version]}]({version}.md) | {files} | {len(clauses)} | "
                   f"{normative} |")
    shared = _clauses_of(spec, None)
    if shared:
        out += ["", "## Lines of no version", "", "Title lines and language headers.", "",
                "| File | Lines | Reason |", "| --- | --- | --- |"]
        out += [f"| `{name}` | {c.first}-{c.last} | {cell(c.reason)} |" for name, c in shared]
    if spec.chapters:
        out += [""] + _coverage_table(spec)
    return "\n".join(out) + "\n"
