"""Markdown for the rule chapters, the rule list and the divergence register, in each language of the site
(docgen_i18n), from the spec as azul_conformance.spec_data loads it.

A link is written from a page: `where` is either the page's folder relative to the docs root ("../", as the
English-only pages pass it) or a docgen_i18n.Links for the page, which also knows the page's language."""

from __future__ import annotations

import re
from collections import defaultdict

from azul_conformance import markup
from azul_conformance.render_svg import describe_changes
from azul_conformance.spec_data import VERSIONS, Chapter, Citation, Rule, Source, Spec
from docgen_i18n import DEFAULT, UI, Links, Texts, english, page_url

FORM_LABEL = {"states": "states it", "printed": "states it, board prints it", "partly": "states part of it",
              "example": "example only", "diverges": "diverges", "silent": "silent", "missing": "not recorded"}


LEVELS = ("rule", "ruling", "implementation-defined")


def cell(text: object) -> str:
    """Text of ours (the spec's) safe inside a Markdown table cell; its own Markdown is kept. Text from outside
    (an engine's, a report's, a scenario's) goes through azul_conformance.markup instead."""
    return " ".join(str(text or "").split()).replace("|", "\\|")


def badge(kind: str, text: str) -> str:
    return f'<span class="azul-badge azul-{kind}">{text}</span>'


def level_badge(level: str, t: Texts | None = None) -> str:
    shown = t.ui(f"level_{level}") if t is not None and level in LEVELS else level
    return badge(f"level-{level or 'unknown'}", shown or "no level")


def md_link(where: str | Links, text: str, target: str, title: str | None = None) -> str:
    """A link to `target` (a docs path, e.g. rules/offer.md#OFFER-5) from the page `where` stands for."""
    if isinstance(where, Links):
        return where.md(text, target, title)
    titled = f' "{title}"' if title else ""
    return f"[{text}]({where}{target}{titled})"


def rules_by_id(spec: Spec) -> dict[str, Rule]:
    return {rule.id: rule for rule in spec.rules}


def rule_link(spec: Spec, rule_id: str, from_dir: str | Links) -> str:
    rule = rules_by_id(spec).get(rule_id)
    if rule is None:
        return f"`{rule_id}`"
    return md_link(from_dir, rule_id, f"rules/{rule.chapter}.md#{rule_id}")


class ClauseIndex:
    """Where each rulebook line is described: (file, line) -> (version, first line of its clause)."""

    def __init__(self, spec: Spec) -> None:
        self.anchor: dict[tuple[str, int], tuple[str, int]] = {}
        for name, clauses in spec.clauses.items():
            for clause in clauses:
                for line in range(clause.first, clause.last + 1):
                    self.anchor[(name, line)] = (clause.version or "", clause.first)

    def link(self, citation: Citation, version: str, from_dir: str | Links) -> str:
        first, last = citation.first, citation.last
        lines = f"l. {first}" if first == last else f"l. {first}–{last}"
        found = self.anchor.get((citation.file, first))
        if found and found[0]:
            target = f"clauses/{found[0]}.md#L{found[1]}"
        else:
            target = f"clauses/{version}.md" if version in VERSIONS else "clauses/index.md"
        return md_link(from_dir, lines, target, str(citation))


def own_words(source: Source, clauses: ClauseIndex, from_dir: str | Links) -> str:
    """Each cited line range with the version's own words from it: «fragment» (l. 60, linked to its clause)."""
    parts = []
    for citation, fragment in source.quoted():
        link = clauses.link(citation, source.version, from_dir)
        parts.append(f"«{cell(fragment)}» ({link})" if fragment else link)
    return "<br>".join(parts)


def version_table(sources: dict[str, Source], clauses: ClauseIndex, from_dir: str | Links,
                  versions: tuple[str, ...] = VERSIONS, t: Texts | None = None, owner: str = "") -> list[str]:
    """What each version does with a rule or divergence (`owner`, its ID: our notes in the page's language
    are kept by it)."""
    t = t or Texts(None)  # English: the texts of no spec are needed
    rows = [f"| {t.ui('version')} | {t.ui('what_it_does')} | {t.ui('own_words')} | {t.ui('our_note')} |",
            "| --- | --- | --- | --- |"]
    for version in versions:
        source = sources.get(version)
        form = source.form if source else "missing"
        words = own_words(source, clauses, from_dir) if source is not None else ""
        detail = cell(t.source_note(owner, version, source.note or "") if source else "")
        if not words:
            words = "—"
        if not detail and form == "states":
            detail = f'<span class="azul-note">{t.ui("as_above")}</span>'
        name = f"**{version}** {t.version_name(version)}"
        rows.append(f"| {name} | {badge('form-' + form, t.ui(form))} | {words} | {detail} |")
    return rows


def basis_block(rule: Rule, from_dir: str | Links, t: Texts | None = None) -> list[str]:
    """Why the rule's level is right: who states it, and why each diverging version does not decide."""
    t = t or Texts(None)
    if rule.basis is None:
        return []
    level = t.ui(f"level_{rule.level}", plain=True) if rule.level in LEVELS else rule.level
    colon = t.ui("colon")
    out = [f'!!! info "{t.ui("why_level")}{colon} {cell(level)}"', "", f"    {t.basis(rule)}", ""]
    for version in rule.basis.set_aside:
        why = t.set_aside(rule, version)
        out += [f"    - **{md_link(from_dir, version, f'versions/{version}.md')}** "
                f"{t.ui('diverges_not_decide')}{colon} {why}"]
    return out + [""] if rule.basis.set_aside else out


def _ruling(rule: Rule, t: Texts) -> list[str]:
    ruling = rule.ruling
    colon = t.ui("colon")
    authority = t.ui(f"authority_{ruling.authority}") if f"authority_{ruling.authority}" in UI["en"] \
        else ruling.authority
    confidence = t.ui(f"confidence_{ruling.confidence}") if f"confidence_{ruling.confidence}" in UI["en"] \
        else ruling.confidence
    title = f"{t.ui('ruling')} — {t.ui('authority')}{colon} {authority}; {t.ui('confidence')}{colon} {confidence}"
    out = [f'!!! abstract "{cell(title)}"', ""]
    for label, part in (("question", "question"), ("decision", "decision"), ("why", "reasoning")):
        if getattr(ruling, part):
            out += [f"    **{t.ui(label)}.** {t.ruling(rule, part)}", ""]
    return out


def _divergence_notes(spec: Spec, rule: Rule, from_dir: str | Links, t: Texts) -> list[str]:
    out = []
    by_id = {d.id: d for d in spec.divergences}
    for div_id in rule.divergences:
        div = by_id.get(div_id)
        if div is None:  # reported by the spec checker (check_links); a link here would only fail twice
            continue
        out += [f'!!! warning "{t.ui("disagree")}{t.ui("colon")} {cell(t.divergence_title(div))}"', "",
                f"    {t.divergence_summary(div)}",
                f"    {t.ui('see_register', link=md_link(from_dir, div_id, f'divergences.md#{div_id}'))}", ""]
    diverging = [v for v in VERSIONS if v in rule.sources and rule.sources[v].form == "diverges"]
    if diverging and not rule.divergences:
        out += [f'!!! warning "{t.ui("disagree")}"', "",
                f"    {t.ui('state_different', versions=', '.join(diverging))}", ""]
    return out


def _plain(text: str) -> str:
    """A text for a navigation title, which holds no markup: the English marking dropped."""
    return re.sub(r"</?(span|div)[^>]*>", "", text)


def rule_section(spec: Spec, rule: Rule, clauses: ClauseIndex, scenarios: dict, t: Texts | None = None,
                 links: str | Links = "../", failing: dict | None = None, pictures: dict | None = None) -> list[str]:
    """A rule's section; `failing` (docgen_reports.failing_by_rule), when given, adds the engines of the matrix
    that fail the rule, each linked to its failing case, and the command that runs the rule's cases; `pictures`
    (rule ID -> its smallest scenario's id, title and pictures, see generate.py) the boards before and after."""
    t = t or Texts(spec)
    out = [f"## {rule.id} · {cell(t.rule_title(rule))} {{#{rule.id}}}", "", level_badge(rule.level, t), "",
           t.statement(rule), ""]
    out += version_table(dict(rule.sources), clauses, links, t=t, owner=rule.id) + [""]
    out += basis_block(rule, links, t)
    notes = _divergence_notes(spec, rule, links, t)
    if notes:  # searched on the register's page, where each is its own section; here it would drown the rule
        out += ['<div data-search-exclude markdown>', ""] + notes + ["</div>", ""]
    if rule.ruling:
        out += _ruling(rule, t)
    colon = t.ui("colon")
    if rule.examples:
        examples = ", ".join(clauses.link(e, "", links) for e in rule.examples)
        out += [f"**{t.ui('worked_examples')}{colon}** {examples}", ""]
    if pictures and rule.id in pictures and isinstance(links, Links):
        out += _boards(rule, pictures[rule.id], links, t)
    checked = scenarios.get(rule.id, [])
    about = [(sid, url, title) for sid, url, title, main in checked if main == rule.id]
    if about:  # each outcome in words, then its scenario; not searched: a scenario's ID finds the scenario
        out += [f"**{t.ui('outcomes')}{colon}**", "", "<div data-search-exclude markdown>", ""]
        out += [f"- {t.scenario_title(sid, markup.prose(title))} ({md_link(links, markup.md(sid), url)})"
                for sid, url, title in about]
        out += ["", "</div>", ""]
    passing = [(sid, url, main) for sid, url, _, main in checked if main != rule.id]
    if passing:  # their titles state the outcomes of the rules they are about: named, not titled, here
        named = ", ".join(f"{md_link(links, markup.md(sid), url)} ({t.ui('about_rule')} "
                          f"{rule_link(spec, main, links)})" for sid, url, main in passing)
        out += ['<div data-search-exclude markdown>', "", f"**{t.ui('also_checked')}{colon}** {named}", "",
                "</div>", ""]
    if not checked:
        out += [f'<p class="azul-unchecked">{t.ui("unchecked")}</p>', ""]
    if failing is not None:
        engines = failing.get(rule.id, [])
        if engines:
            found = ", ".join(f"{md_link(links, markup.md(engine), target)} ({markup.code(case)})"
                              for engine, target, case in engines)
            out += [f"**{t.ui('failing_engines')}{colon}** {found}", ""]
        else:
            out += [f"**{t.ui('failing_engines')}{colon}** {t.ui('none_fail')}", ""]
    if checked:
        out += [f"**{t.ui('run_it')}{colon}**", "", "```sh",
                f'azul conform --engine "./my-engine" --only {rule.id}', "```", ""]
    return out


def _boards(rule: Rule, picture: tuple[str, str, str, str, str, tuple], links: Links, t: Texts) -> list[str]:
    """The boards of the rule's smallest scenario before and after its steps (the scenario page's pictures),
    each a link to itself (opened alone, it can be enlarged on a phone), and the scenario named and linked;
    where the pictures outline the places its steps changed, the line below says so and their alt text names
    them, in the page's language."""
    scenario_id, url, title, given, after, marked = picture
    depth = len(page_url(links.page).strip("/").split("/")) + (links.lang != DEFAULT)
    up = "../" * depth
    shown = t.scenario_title(scenario_id, markup.prose(title))
    plain = re.sub(r"<[^>]+>|\\(?=.)", "", shown)  # alt text: no markup
    out = ['<div class="azul-boards azul-rule-boards">']
    def word(key: str, **values: object) -> str:
        return t.ui(f"place_{key}", plain=True, **values)

    changed = t.ui("board_changed") if marked else ""
    named = f" {t.ui('changed_places', plain=True, places=describe_changes(marked, word))}" if marked else ""
    for path, label in ((given, t.ui("board_before")), (after, t.ui("board_after"))):
        alt = markup.html_text(f"{label}: {plain}." + named if marked else f"{label}: {plain}")
        out += [f'<figure class="azul-board"><a href="{up}{path}"><img src="{up}{path}" alt="{alt}" '
                f'loading="lazy"></a><figcaption>{label}</figcaption></figure>']
    out += ["</div>", "", f"{t.ui('smallest')}{t.ui('colon')} {shown} ({md_link(links, markup.md(scenario_id), url)})"
            + (f". {changed}" if changed else ""), ""]
    return out


# A rule page (and a scenario page) ranks first for its IDs, in every language: the theme's search splits
# OFFER-5 into "offer" and "5", which the rule's heading holds both of; at 2 the guide's "5.5 ..." sections
# still came first, at 10 the rule's own section does (the browser test, tests/test_docs_site.py).
SEARCH_BOOST = 10


def front_matter(boost: float) -> list[str]:
    return ["---", "search:", f"  boost: {boost}", "---", ""]


def chapter_page(spec: Spec, chapter: Chapter, scenarios: dict, t: Texts | None = None,
                 links: Links | None = None, failing: dict | None = None, pictures: dict | None = None) -> str:
    t = t or Texts(spec)
    links = links or Links(f"rules/{chapter.name}.md")
    clauses = ClauseIndex(spec)
    file = chapter.location.file.rsplit("/", 1)[-1]
    generated = t.ui("generated", file="spec/rules/" + file, chapter=chapter.name)
    out = front_matter(SEARCH_BOOST) + [f"# {cell(t.chapter_title(chapter))}", "", t.chapter_intro(chapter), "",
                              f'<p class="azul-generated">{generated}</p>', ""]
    for rule in chapter.rules:
        out += rule_section(spec, rule, clauses, scenarios, t, links, failing, pictures)
    return "\n".join(out) + "\n"


def rules_index_page(spec: Spec, scenarios: dict, t: Texts | None = None, links: Links | None = None) -> str:
    t = t or Texts(spec)
    links = links or Links("rules/index.md")
    intro = ["Every rule of Azul as one testable statement, in our own words, with a stable ID. "
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
             f"{md_link(links, 'clause index', 'clauses/index.md')}; each rule says why its level is right, and "
             f"{md_link(links, 'one page per version', 'versions/index.md')} lists where that version differs "
             f"from the rules and why. To read the game straight through, see "
             f"{md_link(links, 'the rules on one page', 'rules/all.md')}."]
    out = [f"# {t.ui('rules_title')}", ""]
    own = t.intro("rules", _badges(t), lambda text, target: md_link(links, text, target))
    out += (intro if t.lang == "en" else [own or english("\n".join(intro), block=True)]) + [""]
    if not spec.chapters:
        return "\n".join(out + ['!!! note "Not written yet"', "",
                                "    The rule chapters (spec/rules/*.yaml) are not in this build yet."]) + "\n"
    out += [f"| {t.ui('id')} | {t.ui('rule')} | {t.ui('level')} | {t.ui('scenarios')} |", "| --- | --- | --- | --- |"]
    for chapter in spec.chapters:
        out.append(f"| **{md_link(links, cell(t.chapter_title(chapter)), f'rules/{chapter.name}.md')}** | | | |")
        for rule in chapter.rules:
            target = f"rules/{chapter.name}.md#{rule.id}"
            out.append(f"| {md_link(links, rule.id, target)} | {cell(t.rule_title(rule))} | "
                       f"{level_badge(rule.level, t)} | {len(scenarios.get(rule.id, []))} |")
    return "\n".join(out) + "\n"


def _badges(t: Texts) -> dict[str, str]:
    """The level and version-form badges, labelled in the page's language, for an introduction."""
    levels = {"rule": "rule", "ruling": "ruling", "impl": "implementation-defined"}
    forms = ("states", "printed", "partly", "example", "diverges", "silent")
    return {**{key: level_badge(level, t) for key, level in levels.items()},
            **{form: badge(f"form-{form}", t.ui(form)) for form in forms}}


def one_page_rulebook(spec: Spec, t: Texts | None = None, links: Links | None = None) -> str:
    """Every rule's statement in chapter order: the game as a rulebook reads, each rule linked to its evidence."""
    t = t or Texts(spec)
    links = links or Links("rules/all.md")
    intro = ("All of Azul, rule by rule, as this specification states it: the statements only, in the order of "
             "play. Each ID leads to the rule's page, with what every rulebook version says and, for a "
             f"{level_badge('ruling')}, the authority behind it.")
    own = t.intro("one_page", _badges(t), lambda text, target: md_link(links, text, target))
    out = [f"# {t.ui('one_page')}", "", intro if t.lang == "en" else own or english(intro, block=True), ""]
    for chapter in spec.chapters:
        out += [f"## {cell(t.chapter_title(chapter))}", "", t.chapter_intro(chapter), ""]
        for rule in chapter.rules:
            level = "" if rule.level == "rule" else f" {level_badge(rule.level, t)}"
            target = f"rules/{chapter.name}.md#{rule.id}"
            out += [f"**{md_link(links, rule.id, target)}**{level} {t.statement(rule)}", ""]
    return "\n".join(out) + "\n"


def divergences_page(spec: Spec, t: Texts | None = None, links: Links | None = None) -> str:
    t = t or Texts(spec)
    links = links or Links("divergences.md")
    clauses = ClauseIndex(spec)
    intro = ("The eight rulebook versions do not all say the same thing. Each entry below names what differs, "
             "which versions stand where, and the rule (usually a ruling) that settles it. Which versions are "
             f"official, and why, is on {md_link(links, 'the versions page', 'versions/index.md')}.")
    own = t.intro("divergences", _badges(t), lambda text, target: md_link(links, text, target))
    out = [f"# {t.ui('divergences')}" if t.lang != "en" else "# Where the rulebooks disagree", "",
           intro if t.lang == "en" else own or english(intro, block=True), ""]
    if not spec.divergences:
        return "\n".join(out + ["No divergence is recorded in this build (spec/divergences/*.yaml)."]) + "\n"
    groups = defaultdict(list)
    for div in spec.divergences:
        groups[div.chapter].append(div)
    chapters = {chapter.name: chapter for chapter in spec.chapters}
    for group, items in groups.items():
        heading = t.chapter_title(chapters[group]) if group in chapters and t.lang != "en" else group.capitalize()
        out += [f"## {cell(heading)}", ""]
        for div in items:
            out += [f"### {cell(t.divergence_title(div))} {{#{div.id}}}", "", f"`{div.id}` {badge('kind', div.kind)}",
                    "", t.divergence_summary(div), ""]
            out += version_table(dict(div.versions), clauses, links, versions=tuple(div.versions), t=t, owner=div.id)
            settled = ", ".join(rule_link(spec, r, links) for r in div.rules)
            out += ["", f"**{t.ui('settled_by')}{t.ui('colon')}** {settled or t.ui('no_rule_yet')}", ""]
    return "\n".join(out) + "\n"


def home_page(t: Texts, links: Links) -> str:
    """The home page of a language other than English: what is here, and where the rest is (in English)."""
    out = [f"# {t.ui('home_title')}", "", t.ui("home_intro"), "",
           f"- {md_link(links, t.ui('rules_title'), 'rules/index.md')}",
           f"- {md_link(links, t.ui('one_page'), 'rules/all.md')}",
           f"- {md_link(links, t.ui('divergences'), 'divergences.md')}", "",
           t.ui("home_english", link=links.md(t.ui("english_site"), "index.md", english_site=True)), ""]
    return "\n".join(out) + "\n"
