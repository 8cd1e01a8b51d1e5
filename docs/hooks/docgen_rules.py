"""Markdown for the rule chapters, the rule list, the divergence register and the per-version clause index."""

from __future__ import annotations

from collections import defaultdict

from docgen_data import (VERSION_NAMES, VERSIONS, Spec, as_list, parse_citation, parse_lines,
                         source_form)

FORM_LABEL = {"states": "states it", "example": "example only", "diverges": "diverges", "silent": "silent",
              "missing": "not recorded"}
AUTHORITY = {
    "rulebook-text": "the rulebook text", "rulebook-example": "a worked example in a rulebook",
    "printed-board": "the printed player board", "bga": "the Board Game Arena implementation",
    "tournament": "tournament rules", "community": "community consensus", "project": "this project's own decision",
}


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text or "").split()).replace("|", "\\|")


def badge(kind: str, text: str) -> str:
    return f'<span class="azul-badge azul-{kind}">{text}</span>'


def level_badge(level: str) -> str:
    return badge(f"level-{level or 'unknown'}", level or "no level")


def rule_link(spec: Spec, rule_id: str, from_dir: str) -> str:
    rule = spec.rules.get(rule_id)
    if rule is None:
        return f"`{rule_id}`"
    return f"[{rule_id}]({from_dir}rules/{rule['chapter']}.md#{rule_id})"


class ClauseIndex:
    """Where each rulebook line is described: (file, line) -> (version, first line of its clause)."""

    def __init__(self, spec: Spec) -> None:
        self.anchor: dict[tuple[str, int], tuple[str, int]] = {}
        for name, data in spec.clauses.items():
            for clause in data.get("clauses") or []:
                span = parse_lines(clause.get("lines"))
                if span is None:
                    continue
                for line in range(span[0], span[1] + 1):
                    self.anchor[(name, line)] = (clause.get("version") or "", span[0])

    def link(self, citation: str, version: str, from_dir: str) -> str:
        parsed = parse_citation(citation)
        if parsed is None:
            return f"`{cell(citation)}`"
        name, first, last = parsed
        lines = f"l. {first}" if first == last else f"l. {first}–{last}"
        found = self.anchor.get((name, first))
        if found and found[0]:
            target = f"{from_dir}clauses/{found[0]}.md#L{found[1]}"
        else:
            target = f"{from_dir}clauses/{version}.md" if version in VERSIONS else f"{from_dir}clauses/index.md"
        return f'[{lines}]({target} "{name}:{first}-{last}")'


def version_table(sources: dict, clauses: ClauseIndex, from_dir: str, versions=VERSIONS) -> list[str]:
    rows = ["| Version | What it does | Where | Its words / our note |", "| --- | --- | --- | --- |"]
    for version in versions:
        entry = (sources or {}).get(version)
        if entry is None and versions is not VERSIONS:
            continue
        form, where, note = source_form(entry)
        fragment = entry.get("fragment") if isinstance(entry, dict) else None
        if form == "silent":
            places, detail = "—", cell(where)
        else:
            places = ", ".join(clauses.link(c, version, from_dir) for c in as_list(where)) or "—"
            detail = cell(note)
        if fragment:
            detail = f"«{cell(fragment)}»" + (f" — {detail}" if detail else "")
        if not detail and form == "states":
            detail = '<span class="azul-note">as the rule above</span>'

        name = f"**{version}** {VERSION_NAMES.get(version, '')}"
        rows.append(f"| {name} | {badge('form-' + form, FORM_LABEL[form])} | {places} | {detail} |")
    return rows


def _ruling(rule: dict) -> list[str]:
    ruling = rule.get("ruling") or {}
    authority = ruling.get("authority", "")
    confidence = ruling.get("confidence", "")
    title = f"Ruling — authority: {AUTHORITY.get(authority, authority)}; confidence: {confidence}"
    out = [f'!!! abstract "{cell(title)}"', ""]
    for label, key in (("Question", "question"), ("Decision", "decision"), ("Why", "reasoning")):
        if ruling.get(key):
            out += [f"    **{label}.** {' '.join(str(ruling[key]).split())}", ""]
    return out


def _divergence_notes(spec: Spec, rule: dict, from_dir: str) -> list[str]:
    out = []
    by_id = {d.get("id"): d for d in spec.divergences}
    for div_id in rule.get("divergences") or []:
        div = by_id.get(div_id)
        if div is None:  # reported by check_references; a link here would only fail twice
            continue
        out += [f'!!! warning "Versions disagree: {cell(div.get("title", div_id))}"', "",
                f"    {' '.join(str(div.get('summary', '')).split())}",
                f"    See [{div_id}]({from_dir}divergences.md#{div_id}) in the divergence register.", ""]
    forms = {v: source_form((rule.get("sources") or {}).get(v))[0] for v in VERSIONS}
    diverging = [v for v, f in forms.items() if f == "diverges"]
    if diverging and not rule.get("divergences"):
        out += ['!!! warning "Versions disagree"', "",
                f"    {', '.join(diverging)} state something different from this rule: see the table above.", ""]
    return out


def rule_section(spec: Spec, rule: dict, clauses: ClauseIndex, scenarios: dict) -> list[str]:
    rule_id = rule.get("id", "?")
    out = [f"## {rule_id} · {cell(rule.get('title', ''))} {{#{rule_id}}}", "",
           f"{level_badge(rule.get('level', ''))}", "",
           " ".join(str(rule.get("statement", "")).split()), ""]
    out += version_table(rule.get("sources") or {}, clauses, "../") + [""]
    out += _divergence_notes(spec, rule, "../")
    if rule.get("ruling"):
        out += _ruling(rule)
    examples = as_list(rule.get("examples"))
    if examples:
        out += ["**Worked examples:** " + ", ".join(clauses.link(e, "", "../") for e in examples), ""]
    checked = scenarios.get(rule_id, [])
    if checked:
        out += ["**Checked by:** " + ", ".join(f"[{cell(sid)}](../{url})" for sid, url in checked), ""]
    else:
        out += ['<p class="azul-unchecked">No scenario checks this rule yet.</p>', ""]
    return out


def chapter_page(spec: Spec, chapter: dict, scenarios: dict) -> str:
    clauses = ClauseIndex(spec)
    out = [f"# {cell(chapter.get('title', chapter['chapter']))}", "",
           " ".join(str(chapter.get("intro", "")).split()), "",
           '<p class="azul-generated">Generated from <code>spec/rules/' + chapter["file"]
           + "</code>. Each rule keeps its ID for good; link to it as <code>rules/"
           + chapter["chapter"] + "/#ID</code>.</p>", ""]
    for rule in chapter.get("rules") or []:
        out += rule_section(spec, rule, clauses, scenarios)
    return "\n".join(out) + "\n"


def rules_index_page(spec: Spec, scenarios: dict) -> str:
    out = ["# The rules", "",
           "Every rule of Azul as one testable statement, in our own words, with a stable ID. "
           "Its level says how settled it is:", "",
           f"- {level_badge('rule')} every rulebook version that speaks of it agrees;",
           f"- {level_badge('ruling')} the versions disagree or are silent, and we decided, naming the authority;",
           f"- {level_badge('implementation-defined')} an engine may choose, within stated bounds.", "",
           "For each rule, a table shows what each of the eight rulebook versions does with it: "
           f"{badge('form-states', 'states it')}, shows it only in a {badge('form-example', 'example only')}, "
           f"{badge('form-diverges', 'diverges')} from it, or is {badge('form-silent', 'silent')}. "
           "Line numbers lead to the [clause index](../clauses/index.md). To read the game straight "
           "through, see [the rules on one page](all.md).", ""]
    if not spec.chapters:
        return "\n".join(out + ['!!! note "Not written yet"', "",
                                "    The rule chapters (spec/rules/*.yaml) are not in this build yet."]) + "\n"
    out += ["| ID | Rule | Level | Scenarios |", "| --- | --- | --- | --- |"]
    for chapter in spec.chapters:
        out.append(f"| **[{cell(chapter.get('title', chapter['chapter']))}]({chapter['chapter']}.md)** | | | |")
        for rule in chapter.get("rules") or []:
            rid = rule.get("id", "?")
            out.append(f"| [{rid}]({chapter['chapter']}.md#{rid}) | {cell(rule.get('title'))} | "
                       f"{level_badge(rule.get('level', ''))} | {len(scenarios.get(rid, []))} |")
    return "\n".join(out) + "\n"


def one_page_rulebook(spec: Spec) -> str:
    """Every rule's statement in chapter order: the game as a rulebook reads, each rule linked to its evidence."""
    out = ["# The rules on one page", "",
           "All of Azul, rule by rule, as this specification states it: the statements only, in the order of "
           "play. Each ID leads to the rule's page, with what every rulebook version says and, for a "
           f"{level_badge('ruling')}, the authority behind it.", ""]
    for chapter in spec.chapters:
        out += [f"## {cell(chapter.get('title', chapter['chapter']))}", "",
                " ".join(str(chapter.get("intro", "")).split()), ""]
        for rule in chapter.get("rules") or []:
            rid = rule.get("id", "?")
            level = "" if rule.get("level") == "rule" else f" {level_badge(rule.get('level', ''))}"
            statement = " ".join(str(rule.get("statement", "")).split())
            out += [f"**[{rid}]({chapter['chapter']}.md#{rid})**{level} {statement}", ""]
    return "\n".join(out) + "\n"


def divergences_page(spec: Spec) -> str:
    clauses = ClauseIndex(spec)
    out = ["# Where the rulebooks disagree", "",
           "The eight rulebook versions do not all say the same thing. Each entry below names what differs, "
           "which versions stand where, and the rule (usually a ruling) that settles it.", ""]
    if not spec.divergences:
        return "\n".join(out + ["No divergence is recorded in this build (spec/divergences/*.yaml)."]) + "\n"
    groups = defaultdict(list)
    for div in spec.divergences:
        groups[div["group"]].append(div)
    for group, items in groups.items():
        out += [f"## {group.capitalize()}", ""]
        for div in items:
            div_id = div.get("id", "?")
            out += [f"### {cell(div.get('title', div_id))} {{#{div_id}}}", "",
                    f"`{div_id}` {badge('kind', div.get('kind', '?'))}", "",
                    " ".join(str(div.get("summary", "")).split()), ""]
            out += version_table(div.get("versions") or {}, clauses, "", versions=tuple(div.get("versions") or ()))
            settled = ", ".join(rule_link(spec, r, "") for r in div.get("rules") or [])
            out += ["", f"**Settled by:** {settled or 'no rule yet'}", ""]
    return "\n".join(out) + "\n"
