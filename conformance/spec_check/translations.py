"""Translations (spec/i18n/<lang>/): our texts of the rules in each language the site is published in.

For every language folder that holds a glossary:
    glossary    it matches its schema and names its language and that language's version; each word is the
                version's own (it occurs in the lines cited, which lie in that version's rulebook lines), and
                each further form (`also`) occurs in the version's lines
    chapters    each chapter file matches its schema, is named for a chapter and keys only that chapter's rules
                and divergences; a ruling is translated only for a rule that has one
    complete    every rule of the spec has its title and statement in the language
    terms       no translated text names a thing of the game by a word the glossary forbids for it (the words
                of other editions and languages, synonyms that are not the version's)
    own words   no translated text repeats a run of 11 or more words of the version's rulebook lines: the
                rulebooks' prose is quoted only as the short fragments of the citations (at most 10 words)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from jsonschema import Draft202012Validator

from .. import spec_data as sd
from ..schemas import validator
from ..spec_data import SpecError
from .loading import Loaded, _load_document, problem

# Words in a row shared with the version's rulebook lines that make a copy: more than a citation's fragment may
# hold (10 words, rules.schema.json). Fewer would flag our own sentences built of the version's terms
# ("à la fin de la phase de pavage" is 8 words, 3 of them a glossary term).
COPIED_RUN = 11
PROSE_FIELDS = ("title", "statement", "intro", "summary", "question", "decision", "reasoning")


def check_translations(spec: Loaded) -> Iterator[SpecError]:
    schemas = spec.root / "schema" if (spec.root / "schema").is_dir() else sd.default_spec_root() / "schema"
    glossary_schema = validator("glossary.schema.json", folder=schemas)
    chapter_schema = validator("translation.schema.json", folder=schemas)
    for folder in sd.translation_folders(spec.root):
        shown = sd.shown_path(spec.root, folder)
        if folder.name not in sd.LANGUAGES:
            yield problem(shown, None, f"not a language of the site ({', '.join(sd.LANGUAGES)})")
            continue
        glossary_path = folder / sd.GLOSSARY_FILE
        if not glossary_path.is_file():
            yield problem(shown, None, f"no {sd.GLOSSARY_FILE}: the version's words for the game's things come first")
            continue
        problems: list[SpecError] = []
        glossary = _read(spec, glossary_path, glossary_schema, problems)
        yield from problems
        if glossary is None:
            continue
        terms = sd.build_glossary(glossary)
        yield from _check_glossary(spec, folder.name, glossary, terms)
        yield from _check_chapters(spec, folder, terms, chapter_schema)
        yield from _check_notes(spec, folder, terms, schemas)
        yield from _check_site(spec, folder)


def _read(spec: Loaded, path: Path, schema: Draft202012Validator, problems: list[SpecError]) -> sd.Document | None:
    return _load_document(spec, path, schema, problems)


def _check_glossary(spec: Loaded, language: str, document: sd.Document,
                    terms: dict[str, sd.Term]) -> Iterator[SpecError]:
    version = sd.LANGUAGES[language]
    if document.data["language"] != language:
        yield problem(document.shown, document.line(("language",)),
                      f"language {document.data['language']!r} in the folder of {language!r}")
    if document.data["version"] != version:
        yield problem(document.shown, document.line(("version",)),
                      f"{language} takes the words of {version}, not {document.data['version']}")
    if spec.books is None:
        return
    name = sd.VERSION_FILES[version]
    book = spec.books.get(name)
    if book is None:
        return
    own = set(spec.version_lines(version))
    version_text = fold(" ".join(book[n - 1] for n in sorted(own)))
    for key, term in terms.items():
        if term.lines is not None:
            line = document.line(("terms", key, "lines"))
            cited = range(term.lines.first, term.lines.last + 1)
            if term.lines.file != name or not set(cited) <= own:
                yield problem(document.shown, line, f"{key}: {term.lines} is not in {version}'s lines ({name})")
            elif not _has_word(fold(spec.cited_text(term.lines)), fold(term.word)):
                yield problem(document.shown, line, f"{key}: {term.word!r} does not occur in {term.lines}")
        for k, form in enumerate(term.also):
            if not _has_word(version_text, fold(form)):
                yield problem(document.shown, document.line(("terms", key, "also", k)),
                              f"{key}: {form!r} does not occur in {version}'s lines")


def _check_chapters(spec: Loaded, folder: Path, terms: dict[str, sd.Term],
                    schema: Draft202012Validator) -> Iterator[SpecError]:
    language = folder.name
    chapters = {chapter.name: chapter for _, chapter in spec.chapters}
    divergences = {d.id: d for _, _, d in spec.divergences}
    written: dict[str, sd.RuleText] = {}
    version_words = _version_words(spec, sd.LANGUAGES[language])
    for path in sorted(folder.glob("*.yaml")):
        if path.name in (sd.GLOSSARY_FILE, sd.NOTES_FILE, sd.SCENARIO_TITLES_FILE, sd.SITE_FILE):  # below
            continue
        problems: list[SpecError] = []
        document = _read(spec, path, schema, problems)
        yield from problems
        if document is None:
            continue
        chapter = chapters.get(path.stem)
        if chapter is None:
            if not (spec.root / "rules" / path.name).is_file():  # else its own problems are reported: no cascade
                yield problem(document.shown, None, f"no chapter {path.stem!r} in spec/rules/")
            continue
        if document.data["chapter"] != path.stem:
            yield problem(document.shown, document.line(("chapter",)),
                          f"chapter {document.data['chapter']!r} in the file of {path.stem!r}")
        rules = {rule.id: rule for rule in chapter.rules}
        for rule_id, entry in (document.data.get("rules") or {}).items():
            line = document.line(("rules", rule_id))
            if rule_id not in rules:
                yield problem(document.shown, line, f"{rule_id} is not a rule of the chapter {chapter.name}")
                continue
            if "ruling" in entry and rules[rule_id].ruling is None:
                yield problem(document.shown, line, f"{rule_id}: a ruling translated, but the rule has none")
        for div_id in document.data.get("divergences") or {}:
            if divergences.get(div_id) is None or divergences[div_id].chapter != chapter.name:
                yield problem(document.shown, document.line(("divergences", div_id)),
                              f"{div_id} is not a divergence of the chapter {chapter.name}")
        _, chapter_rules, _ = sd.build_chapter_text(document)
        written.update(chapter_rules)
        yield from _wording(document, _prose(document.data), terms, language, version_words)
    shown = sd.shown_path(spec.root, folder)
    for _, chapter in spec.chapters:
        missing = [rule.id for rule in chapter.rules if rule.id not in written]
        if missing:
            yield problem(shown, None, f"{', '.join(missing)}: no title and statement in {language} "
                                       f"({chapter.name}.yaml)")


def _wording(document: sd.Document, texts, terms: dict[str, sd.Term], language: str,
             version_words: set[tuple[str, ...]]) -> Iterator[SpecError]:
    """Each text (path, text) names the game's things by the glossary's words and repeats no run of the
    version's rulebook lines."""
    # each forbidden word folded once, and looked for as a word only where it occurs at all (a check of the whole
    # spec asks some 400,000 such questions)
    forbidden = [(term, word, fold(word)) for term in terms.values() for word in term.forbidden]
    for path_in, text in texts:
        line = document.line(path_in)
        where = ".".join(str(p) for p in path_in)
        folded = fold(text)
        for term, word, folded_word in forbidden:
            if folded_word in folded and _has_word(folded, folded_word):
                    yield problem(document.shown, line, f"{where}: {word!r} is not {sd.LANGUAGES[language]}'s "
                                                        f"word for the {term.key.replace('-', ' ')}: "
                                                        f"{term.word!r} (glossary.yaml)")
        copied = _copied_run(text, version_words)
        if copied:
            yield problem(document.shown, line, f"{where}: repeats the rulebook's words {copied!r}; say it in "
                                                "our own words (quote only in a citation's fragment)")


def _strings(data: object, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every string of a notes or titles file below its top-level keys, with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and path:
                yield path + (key,), value
            else:
                yield from _strings(value, path + (key,))


def _check_notes(spec: Loaded, folder: Path, terms: dict[str, sd.Term], schemas: Path) -> Iterator[SpecError]:
    """notes.yaml: its IDs and versions are the English spec's (a version the rule or divergence cites, a
    version its basis sets aside); scenarios.yaml: its form. Both: the glossary's words, no rulebook runs."""
    language = folder.name
    version_words = _version_words(spec, sd.LANGUAGES[language])
    rules = {rule.id: rule for _, chapter in spec.chapters for rule in chapter.rules}
    divergences = {d.id: d for _, _, d in spec.divergences}
    for name, schema_name in ((sd.NOTES_FILE, "translation-notes.schema.json"),
                              (sd.SCENARIO_TITLES_FILE, "scenario-titles.schema.json")):
        path = folder / name
        if not path.is_file():
            continue
        problems: list[SpecError] = []
        document = _read(spec, path, validator(schema_name, folder=schemas), problems)
        yield from problems
        if document is None:
            continue
        if document.data["language"] != language:
            yield problem(document.shown, document.line(("language",)),
                          f"language {document.data['language']!r} in the folder of {language!r}")
        for rule_id, entry in (document.data.get("rules") or {}).items():
            rule = rules.get(rule_id)
            if rule is None:
                yield problem(document.shown, document.line(("rules", rule_id)), f"{rule_id} is not a rule")
                continue
            cited = {v for v, source in rule.sources.items() if source.note}
            aside = set(rule.basis.set_aside) if rule.basis else set()
            for part, known in (("notes", cited), ("set_aside", aside)):
                for version in set(entry.get(part) or {}) - known:
                    yield problem(document.shown, document.line(("rules", rule_id, part, version)),
                                  f"{rule_id}: no English {part.replace('_', ' ')} for {version} to translate")
            if "stated_by" in entry and rule.basis is None:
                yield problem(document.shown, document.line(("rules", rule_id)), f"{rule_id} has no basis")
        for div_id, entry in (document.data.get("divergences") or {}).items():
            div = divergences.get(div_id)
            if div is None:
                yield problem(document.shown, document.line(("divergences", div_id)), f"{div_id} is not a divergence")
                continue
            cited = {v for v, source in div.versions.items() if source.note}
            for version in set(entry.get("notes") or {}) - cited:
                yield problem(document.shown, document.line(("divergences", div_id, "notes", version)),
                              f"{div_id}: no English note for {version} to translate")
        yield from _wording(document, _strings(document.data), terms, language, version_words)


ANY = Draft202012Validator({})
INTRO_KEYS = ("rules", "one_page", "divergences")  # the pages whose English introduction is docgen_rules'


def _check_site(spec: Loaded, folder: Path) -> Iterator[SpecError]:
    """site.yaml (where a language has one): the site's own words in the language, with every `ui` key of
    the English spec/i18n/site.yaml and no other, the three introductions and every version's name."""
    path, english_path = folder / sd.SITE_FILE, spec.root / sd.I18N_FOLDER / sd.SITE_FILE
    if not english_path.is_file():  # docs/hooks/docgen_i18n.py reads it
        yield problem(sd.shown_path(spec.root, english_path), None, "missing: the site's own words in English")
        return
    if not path.is_file():  # the site's words are shown in English, marked
        return
    problems: list[SpecError] = []
    english = _load_document(spec, english_path, ANY, problems)  # its keys are held below, each named
    document = _load_document(spec, path, ANY, problems)
    yield from problems
    if english is None or document is None:
        return
    data = document.data if isinstance(document.data, dict) else {}
    expected = {"ui": set(english.data.get("ui") or {}), "intros": set(INTRO_KEYS), "versions": set(sd.VERSIONS)}
    if data.get("language") != folder.name:
        yield problem(document.shown, document.line(("language",)), f"language {data.get('language')!r} in the "
                                                                    f"folder of {folder.name!r}")
    for part, keys in expected.items():
        found = data.get(part) if isinstance(data.get(part), dict) else {}
        line = document.line((part,)) if part in data else None
        missing, extra = sorted(keys - set(found)), sorted(set(found) - keys)
        if missing:
            yield problem(document.shown, line, f"{part}: missing {', '.join(missing)} (spec/i18n/site.yaml)")
        if extra:
            yield problem(document.shown, line, f"{part}: {', '.join(extra)} not a key of the site's words")
        for key, text in found.items():
            if not isinstance(text, str) or not text.strip():
                yield problem(document.shown, document.line((part, key)), f"{part}.{key}: empty or not text")


def _prose(data: object, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every prose string of a chapter file with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and key in PROSE_FIELDS:
                yield path + (key,), value
            else:
                yield from _prose(value, path + (key,))


def fold(text: str) -> str:
    """Text compared as words: NFC, case-folded, the typographic apostrophe as the plain one."""
    return unicodedata.normalize("NFC", text).casefold().replace("’", "'")


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


WORD = re.compile(r"\w+", re.UNICODE)


def _version_words(spec: Loaded, version: str) -> set[tuple[str, ...]]:
    """Every run of COPIED_RUN words of the version's rulebook lines (each line on its own)."""
    if spec.books is None or sd.VERSION_FILES[version] not in spec.books:
        return set()
    book = spec.books[sd.VERSION_FILES[version]]
    runs = set()
    for n in spec.version_lines(version):
        words = WORD.findall(fold(book[n - 1]))
        runs.update(tuple(words[i:i + COPIED_RUN]) for i in range(len(words) - COPIED_RUN + 1))
    return runs


def _copied_run(text: str, runs: set[tuple[str, ...]]) -> str | None:
    words = WORD.findall(fold(text))
    for i in range(len(words) - COPIED_RUN + 1):
        if tuple(words[i:i + COPIED_RUN]) in runs:
            return " ".join(words[i:i + COPIED_RUN])
    return None
