"""Markdown for the rule chapters, the rule list, the divergence register and the per-version clause index,
from the spec as azul_conformance.spec_data loads it."""

from __future__ import annotations

from collections import defaultdict

from azul_conformance.spec_data import VERSION_NAMES, VERSIONS, Chapter, Citation, Rule, Source, Spec

FORM_LABEL = {"states": "states it", "printed": "states it, board prints it", "partly": "states part of it",
              "example": "example only", "diverges": "diverges", "silent": "silent", "missing": "not recorded"}
BECAUSE = {"unofficial-summary": "an unofficial summary", "walk-through": "a walk-through, not a rulebook",
           "misprint": "a slip the publisher's other versions settle", "printed-board": "the printed board settles it",
           "worked-example": "a worked example settles it"}
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


def rules_by_id(spec: Spec) -> dict[str, Rule]:
    return {rule.id: rule for rule in spec.rules}


def rule_link(spec: Spec, rule_id: str, from_dir: str) -> str:
    rule = rules_by_id(spec).get(rule_id)
    if rule is None:
        return f"`{rule_id}`"
    return f"[{rule_id}]({from_dir}rules/{rule.chapter}.md#{rule_id})"


class ClauseIndex:
    """Where each rulebook line is described: (file, line) -> (version, first line of its clause)."""

    def __init__(self, spec: Spec) -> None:
        self.anchor: dict[tuple[str, int], tuple[str, int]] = {}
        for name, clauses in spec.clauses.items():
            for clause in clauses:
                for line in range(clause.first, clause.last + 1):
                    self.anchor[(name, line)] = (clause.version or "", clause.first)

    def link(self, citation: Citation, version: str, from_dir: str) -> str:
        first, last = citation.first, citation.last
        lines = f"l. {first}" if first == last else f"l. {first}–{last}"
        found = self.anchor.get((citation.file, first))
        if found and found[0]:
            target = f"{from_dir}clauses/{found[0]}.md#L{found[1]}"
        else:
            target = f"{from_dir}clauses/{version}.md" if version in VERSIONS else f"{from_dir}clauses/index.md"
        return f'[{lines}]({target} "{citation}")'


def own_words(source: Source, clauses: ClauseIndex, from_dir: str) -> str:
    """Each cited line range with the version's own words from it: «fragment» (l. 60, linked to its clause)."""
    parts = []
    for citation, fragment in source.quoted():
        link = clauses.link(citation, source.version, from_dir)
        parts.append(f"«{cell(fragment)}» ({link})" if fragment else link)
    return "<br>".join(parts)


def version_table(sources: dict[str, Source], clauses: ClauseIndex, from_dir: str,
                  versions: tuple[str, ...] = VERSIONS) -> list[str]:
    rows = ["| Version | What it does | Its own words, where | Our note |", "| --- | --- | --- | --- |"]
    for version in versions:
        source = sources.get(version)
        form = source.form if source else "missing"
        words = own_words(source, clauses, from_dir) if source is not None else ""
        detail = cell(source.note if source else "")
        if not words:
            words = "—"
        if not detail and form == "states":
            detail = '<span class="azul-note">as the rule above</span>'
        name = f"**{version}** {VERSION_NAMES.get(version, '')}"
        rows.append(f"| {name} | {badge('form-' + form, FORM_LABEL[form])} | {words} | {detail} |")
    return rows


def basis_block(rule: Rule, from_dir: str) -> list[str]:
    """Why the rule's level is right: who states it, and why each diverging version does not decide."""
    if rule.basis is None:
        return []
    out = [f'!!! info "Why this level: {cell(rule.level)}"', "", f"    {rule.basis.stated_by}", ""]
    for version, aside in rule.basis.set_aside.items():
        out += [f"    - **[{version}]({from_dir}versions/{version}.md)** diverges, and does not decide: "
                f"{BECAUSE.get(aside.because, aside.because)}; {aside.note}"]
    return out + [""] if rule.basis.set_aside else out


def _ruling(rule: Rule) -> list[str]:
    ruling = rule.ruling
    title = f"Ruling — authority: {AUTHORITY.get(ruling.authority, ruling.authority)}; confidence: {ruling.confidence}"
    out = [f'!!! abstract "{cell(title)}"', ""]
    for label, text in (("Question", ruling.question), ("Decision", ruling.decision), ("Why", ruling.reasoning)):
        if text:
            out += [f"    **{label}.** {' '.join(text.split())}", ""]
    return out


def _divergence_notes(spec: Spec, rule: Rule, from_dir: str) -> list[str]:
    out = []
    by_id = {d.id: d for d in spec.divergences}
    for div_id in rule.divergences:
        div = by_id.get(div_id)
        if div is None:  # reported by the spec checker (check_links); a link here would only fail twice
            continue
        out += [f'!!! warning "Versions disagree: {cell(div.title)}"', "", f"    {div.summary}",
                f"    See [{div_id}]({from_dir}divergences.md#{div_id}) in the divergence register.", ""]
    diverging = [v for v in VERSIONS if v in rule.sources and rule.sources[v].form == "diverges"]
    if diverging and not rule.divergences:
        out += ['!!! warning "Versions disagree"', "",
                f"    {', '.join(diverging)} state something different from this rule: see the table above.", ""]
    return out


def rule_section(spec: Spec, rule: Rule, clauses: ClauseIndex, scenarios: dict) -> list[str]:
    out = [f"## {rule.id} · {cell(rule.title)} {{#{rule.id}}}", "", level_badge(rule.level), "", rule.statement, ""]
    out += version_table(dict(rule.sources), clauses, "../") + [""]
    out += basis_block(rule, "../")
    out += _divergence_notes(spec, rule, "../")
    if rule.ruling:
        out += _ruling(rule)
    if rule.examples:
        out += ["**Worked examples:** " + ", ".join(clauses.link(e, "", "../") for e in rule.examples), ""]
    checked = scenarios.get(rule.id, [])
    if checked:
        out += ["**Checked by:** " + ", ".join(f"[{cell(sid)}](../{url})" for sid, url in checked), ""]
    else:
        out += ['<p class="azul-unchecked">No scenario checks this rule yet.</p>', ""]
    return out


def chapter_page(spec: Spec, chapter: Chapter, scenarios: dict) -> str:
    clauses = ClauseIndex(spec)
    file = chapter.location.file.rsplit("/", 1)[-1]
    out = [f"# {cell(chapter.title)}", "", " ".join(chapter.intro.split()), "",
           f'<p class="azul-generated">Generated from <code>spec/rules/{file}</code>. Each rule keeps its ID for '
           f"good; link to it as <code>rules/{chapter.name}/#ID</code>.</p>", ""]
    for rule in chapter.rules:
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
           f"{badge('form-states', 'states it')} (or {badge('form-printed', 'states it, board prints it')}: "
           f"the text leaves the numbers to the printed board; {badge('form-partly', 'states part of it')}), "
           f"shows it only in a {badge('form-example', 'example only')}, "
           f"{badge('form-diverges', 'diverges')} from it, or is {badge('form-silent', 'silent')}, with a few "
           "of the version's own words from each line it cites, in its own language. Line numbers lead to the "
           "[clause index](../clauses/index.md); each rule says why its level is right, and "
           "[one page per version](../versions/index.md) lists where that version differs from the rules and "
           "why. To read the game straight through, see [the rules on one page](all.md).", ""]
    if not spec.chapters:
        return "\n".join(out + ['!!! note "Not written yet"', "",
                                "    The rule chapters (spec/rules/*.yaml) are not in this build yet."]) + "\n"
    out += ["| ID | Rule | Level | Scenarios |", "| --- | --- | --- | --- |"]
    for chapter in spec.chapters:
        out.append(f"| **[{cell(chapter.title)}]({chapter.name}.md)** | | | |")
        for rule in chapter.rules:
            out.append(f"| [{rule.id}]({chapter.name}.md#{rule.id}) | {cell(rule.title)} | "
                       f"{level_badge(rule.level)} | {len(scenarios.get(rule.id, []))} |")
    return "\n".join(out) + "\n"


def one_page_rulebook(spec: Spec) -> str:
    """Every rule's statement in chapter order: the game as a rulebook reads, each rule linked to its evidence."""
    out = ["# The rules on one page", "",
           "All of Azul, rule by rule, as this specification states it: the statements only, in the order of "
           "play. Each ID leads to the rule's page, with what every rulebook version says and, for a "
           f"{level_badge('ruling')}, the authority behind it.", ""]
    for chapter in spec.chapters:
        out += [f"## {cell(chapter.title)}", "", " ".join(chapter.intro.split()), ""]
        for rule in chapter.rules:
            level = "" if rule.level == "rule" else f" {level_badge(rule.level)}"
            out += [f"**[{rule.id}]({chapter.name}.md#{rule.id})**{level} {rule.statement}", ""]
    return "\n".join(out) + "\n"


def divergences_page(spec: Spec) -> str:
    clauses = ClauseIndex(spec)
    out = ["# Where the rulebooks disagree", "",
           "The eight rulebook versions do not all say the same thing. Each entry below names what differs, "
           "which versions stand where, and the rule (usually a ruling) that settles it. Which versions are "
           "official, and why, is on [the versions page](versions/index.md).", ""]
    if not spec.divergences:
        return "\n".join(out + ["No divergence is recorded in this build (spec/divergences/*.yaml)."]) + "\n"
    groups = defaultdict(list)
    for div in spec.divergences:
        groups[div.chapter].append(div)
    for group, items in groups.items():
        out += [f"## {group.capitalize()}", ""]
        for div in items:
            out += [f"### {cell(div.title)} {{#{div.id}}}", "", f"`{div.id}` {badge('kind', div.kind)}", "",
                    div.summary, ""]
            out += version_table(dict(div.versions), clauses, "", versions=tuple(div.versions))
            settled = ", ".join(rule_link(spec, r, "") for r in div.rules)
            out += ["", f"**Settled by:** {settled or 'no rule yet'}", ""]
    return "\n".join(out) + "\n"
