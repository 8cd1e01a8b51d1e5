"""Each language's search: the index's settings, and the lunr language the theme's search worker loads for it
(search_language.js, written per language into the site's lunr folder as lunr.azul_LANG.min.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from azul_conformance import spec_data

# lunr-languages' support for each language of the site; Ukrainian has none (search_language.js strips its
# endings itself), English is lunr's own.
LUNR = {"en": None, "fr": "fr", "de": "de", "it": "it", "es": "es", "pt": "pt", "uk": None}
# Words are split at blanks and punctuation, not at hyphens: an ID (OFFER-5, floor-overflow-to-lid) is one
# word, and search_language.js indexes a hyphenated word's parts beside it.
SEPARATOR = r"[\s,;:!?()«»“”\"'’/]+|\.(?!\d)"
TEMPLATE = Path(__file__).with_name("search_language.js")


def search_config(config: dict, lang: str) -> dict:
    """The index's settings: its language is ours (search_language.js sets the whole pipeline)."""
    return {**config, "lang": [f"azul_{lang}"], "separator": SEPARATOR,
            "pipeline": ["trimmer", "stopWordFilter", "stemmer"]}


def synonyms(spec: spec_data.Spec, lang: str) -> dict[str, list[str]]:
    """A version's other words for a thing, mapped to the word the site uses for it: from the glossary's `also`
    forms, word by word where the form differs from the glossary's word (ES "línea del suelo" beside "línea de
    piso": suelo -> piso). Words of three letters or fewer (articles) are left out."""
    translation = spec.translations.get(lang)
    found: dict[str, set[str]] = {}
    for term in translation.terms.values() if translation else ():
        words = _words(term.word)
        for form in term.also:
            other = _words(form)
            if len(other) != len(words):
                continue
            for theirs, ours in zip(other, words):
                if theirs != ours and len(theirs) > 3 and len(ours) > 3 and not _same_stem(theirs, ours):
                    found.setdefault(theirs, set()).add(ours)
    return {word: sorted(ours) for word, ours in sorted(found.items())}


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"[\s'’-]+", text.lower()) if word]


def _same_stem(a: str, b: str) -> bool:  # an inflection of the same word (pantalla, pantallas)
    return a[:4] == b[:4]


def tag_ids(docs: list[dict], ids: set[str]) -> list[dict]:
    """Each section whose anchor is a rule's, a divergence's or a scenario's ID gets the ID as its tag: the
    theme weighs a tag above any title, so the ID typed whole finds its own section first (and shows it)."""
    return [{**doc, "tags": [doc["location"].rsplit("#", 1)[1]]}
            if "#" in doc["location"] and doc["location"].rsplit("#", 1)[1] in ids else doc for doc in docs]


def write_languages(site: Path, spec: spec_data.Spec) -> None:
    folder = site / "assets" / "javascripts" / "lunr" / "min"
    folder.mkdir(parents=True, exist_ok=True)
    template = TEMPLATE.read_text(encoding="utf-8")
    for lang in LUNR:
        text = (template.replace("__LANG__", lang).replace("__BASE__", json.dumps(LUNR[lang]))
                .replace("__SYNONYMS__", json.dumps(synonyms(spec, lang), ensure_ascii=False)))
        (folder / f"lunr.azul_{lang}.min.js").write_text(text, encoding="utf-8")
