"""The rule pages in each language of the site: which texts a page of one language shows, and how it links.

The rule texts come from spec/i18n/<lang>/ (spec_data.Spec.translations); the generated pages' own words
(table headings, labels, the short home page) are below, per language. Whatever a language does not have yet
is shown in English inside an element marked lang="en", never mixed in silently.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from azul_conformance import markup
from azul_conformance.spec_data import (I18N_FOLDER, LANGUAGES, SITE_FILE, Chapter, Divergence, Rule, Spec,
                                        default_spec_root, read_document, shown_path)
from azul_conformance.spec_data import VERSION_NAMES as ENGLISH_VERSION_NAMES

DEFAULT = "en"
# The site's languages in the order the switcher lists them, each with its name in itself.
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano", "uk": "Українська",
         "es": "Español", "pt": "Português"}
assert set(NAMES) == {DEFAULT, *LANGUAGES}

# The generated pages' own words, as data: spec/i18n/site.yaml (English, the source language) and
# spec/i18n/<lang>/site.yaml (`ui`: the same keys; `intros`: the rule list's, the one-page rulebook's and the
# register's introductions, {rule}... the badges and [[path|text]] a link; `versions`: the versions' names).
# `azul spec check` holds every language to the English keys. A key a language lacks is shown in English, marked.


def _site_words(root: Path) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """(UI, INTROS, VERSION_NAMES) from the site.yaml files; a file that cannot be read raises SpecError naming
    it."""
    ui, intros, versions = {}, {}, {}
    english = root / I18N_FOLDER / SITE_FILE
    ui[DEFAULT] = read_document(english, shown_path(root, english)).data["ui"]
    for lang in LANGUAGES:
        path = root / I18N_FOLDER / lang / SITE_FILE
        if path.is_file():
            data = read_document(path, shown_path(root, path)).data
            ui[lang], intros[lang], versions[lang] = data["ui"], data.get("intros", {}), data.get("versions", {})
    return ui, intros, versions


UI, INTROS, VERSION_NAMES = _site_words(default_spec_root())


def english(text: str, block: bool = False) -> str:
    """English shown on a page of another language: marked, so that readers and tools know. (Single quotes:
    the marking may stand inside an admonition's quoted title.)"""
    tag = "div" if block else "span"
    extra = " markdown='span'" if block else ""
    return f"<{tag} lang='en'{extra}>{text}</{tag}>"


@dataclass(frozen=True)
class Texts:
    """What a page in one language says: our rule texts in it, or English, marked."""

    spec: Spec
    lang: str = DEFAULT

    def ui(self, key: str, plain: bool = False, **values: str) -> str:
        """The page's own words for `key` in the language; `plain`: no marking (a navigation title)."""
        own = UI.get(self.lang, {}).get(key)
        text = (own if own is not None else UI[DEFAULT][key]).format(**values)
        return text if own is not None or self.lang == DEFAULT or plain else english(text)

    def scenario_title(self, scenario_id: str, title: str) -> str:
        """A scenario's title (the outcome it checks): the corpus is written in English; a language gives its
        own in spec/i18n/<lang>/scenarios.yaml by scenario ID, else the English, marked. `title` is escaped."""
        own = self._translation().scenario_titles.get(scenario_id) if self._translation() else None
        return self._pick(markup.prose(own) if own else None, title)

    def source_note(self, owner: str, version: str, note: str) -> str:
        """Our note beside one version's entry of a rule or divergence (`owner`, its ID)."""
        own = self._translation().notes.get(owner, {}).get(version) if self._translation() else None
        return self._pick(own, note) if note else ""

    def basis(self, rule: Rule) -> str:
        """Who states the rule: the first line of why its level is right."""
        own = self._translation().bases.get(rule.id, (None, {}))[0] if self._translation() else None
        return self._pick(own, rule.basis.stated_by)

    def set_aside(self, rule: Rule, version: str) -> str:
        """Why a diverging version does not decide the rule: the kind of text it is, then our note."""
        aside = rule.basis.set_aside[version]
        own = self._translation().bases.get(rule.id, (None, {}))[1].get(version) if self._translation() else None
        kind = self.ui(f"because_{aside.because}") if f"because_{aside.because}" in UI[DEFAULT] else aside.because
        return f"{kind}; {self._pick(own, aside.note)}"

    def _pick(self, translated: str | None, original: str) -> str:
        if self.lang == DEFAULT:
            return original
        return translated if translated else english(original)

    def _translation(self):
        return self.spec.translations.get(self.lang)

    def rule_title(self, rule: Rule) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        return self._pick(text.title if text else None, rule.title)

    def statement(self, rule: Rule) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        return self._pick(text.statement if text else None, rule.statement)

    def ruling(self, rule: Rule, part: str) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        original = " ".join(getattr(rule.ruling, part).split())
        return self._pick(text.ruling.get(part) if text else None, original)

    def chapter_title(self, chapter: Chapter) -> str:
        title = self._translation().chapters.get(chapter.name, (None, None))[0] if self._translation() else None
        return self._pick(title, chapter.title)

    def chapter_intro(self, chapter: Chapter) -> str:
        intro = self._translation().chapters.get(chapter.name, (None, None))[1] if self._translation() else None
        return self._pick(intro, " ".join(chapter.intro.split()))

    def divergence_title(self, divergence: Divergence) -> str:
        text = self._translation().divergences.get(divergence.id) if self._translation() else None
        return self._pick(text[0] if text else None, divergence.title)

    def divergence_summary(self, divergence: Divergence) -> str:
        text = self._translation().divergences.get(divergence.id) if self._translation() else None
        return self._pick(text[1] if text else None, divergence.summary)

    def intro(self, key: str, values: dict[str, str], link) -> str | None:
        """A page's introduction in the language (INTROS), its [[path|text]] made links by `link`; None
        where the language has none."""
        template = INTROS.get(self.lang, {}).get(key)
        if template is None:
            return None
        return re.sub(r"\[\[(\S+?)\|(.+?)\]\]", lambda m: link(m[2], m[1]), template.format(**values))

    def version_name(self, version: str) -> str:
        own = VERSION_NAMES.get(self.lang, {}).get(version)
        return own or self.note(ENGLISH_VERSION_NAMES.get(version, ""))

    def note(self, text: str) -> str:
        """Our English notes that no language has yet (a source's note, a rule's basis)."""
        return text if self.lang == DEFAULT or not text else english(text)


# The pages every language has; every other page is in English only.
TRANSLATED_PAGES = ("index.md", "rules/index.md", "rules/all.md", "divergences.md", "try/index.md")


def translated_pages(spec: Spec) -> frozenset[str]:
    return frozenset(TRANSLATED_PAGES + tuple(f"rules/{chapter.name}.md" for chapter in spec.chapters))


def page_url(src_uri: str) -> str:
    """The URL of a page under the site's root, as mkdocs makes it (directory URLs)."""
    stem = src_uri[:-3] if src_uri.endswith(".md") else src_uri
    if stem == "index" or stem.endswith("/index"):
        stem = stem[:-len("index")]
    return stem if not stem or stem.endswith("/") else stem + "/"


@dataclass(frozen=True)
class Links:
    """Links from one generated page: relative Markdown links (checked by mkdocs) to the pages of its own
    language, and, from a page of another language, HTML links marked hreflang="en" to the English-only pages
    (the scenarios, the clause index, the versions), which that language's build does not hold."""

    page: str  # the page's src_uri, e.g. rules/offer.md
    lang: str = DEFAULT
    local: frozenset[str] = frozenset()

    def md(self, text: str, target: str, title: str | None = None, english_site: bool = False) -> str:
        """A link to `target` (a docs path and anchor); `english_site`: to the English page even where this
        language has its own."""
        path, _, anchor = target.partition("#")
        titled = f' "{title}"' if title else ""
        if self.lang == DEFAULT or (path in self.local and not english_site):
            relative = posixpath.relpath(path, posixpath.dirname(self.page) or ".")
            return f"[{text}]({relative}{'#' + anchor if anchor else ''}{titled})"
        depth = len(page_url(self.page).strip("/").split("/")) if page_url(self.page) else 0
        href = "../" * (depth + 1) + page_url(path) + (f"#{anchor}" if anchor else "")
        title_attr = f' title="{title}"' if title else ""
        return f'<a href="{href}" hreflang="en"{title_attr}>{text}</a>'
