"""Citations: every source cites its version's own rulebook file, inside it, not blank lines only, in clauses of
that version, and proves each citation with the version's own words: a fragment per citation that occurs in
exactly the lines cited (a citation moved to other lines loses its words). A silent note that names lines
("'you must take tiles' (19)") lists them in `near`, each with its fragment, and is checked the same way.
Needs the rulebooks for the words; without them, only the silent notes' line lists are checked."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import spec_data as sd
from ..spec_data import SpecError
from .loading import Loaded, problem


def check_rule_citations(spec: Loaded) -> Iterator[SpecError]:
    for document, index, rule in spec.rules():
        for version, source in rule.sources.items():
            line = document.line(("rules", index, "sources", version))
            yield from check_source(spec, document.shown, line, f"{rule.id}: {version}", source)
        for k, citation in enumerate(rule.examples):
            line = document.line(("rules", index, "examples", k))
            yield from _citation_problems(spec, document.shown, line, f"{rule.id}: example", citation)


# Line numbers a silent note names: "(19)", "(20-21)", "(48, 106)".
NAMED_LINES = re.compile(r"\((\d{1,4}(?:-\d{1,4})?(?:,\s*\d{1,4}(?:-\d{1,4})?)*)\)")


def check_source(spec: Loaded, shown: str, line: int, label: str, source: sd.Source) -> Iterator[SpecError]:
    """What one version's source (of a rule or a divergence) cites and quotes; `label` begins each message."""
    expected = sd.VERSION_FILES[source.version]
    sound = []
    for citation in source.citations + source.near:
        if citation.file != expected:
            yield problem(shown, line, f"{label} cites {citation}, but {source.version} is in {expected}")
            continue
        found = list(_citation_problems(spec, shown, line, label, citation))
        yield from found
        if spec.books is not None and not found:
            found = list(_version_problems(spec, shown, line, label, source.version, citation))
            yield from found
        if not found:
            sound.append(citation)
    yield from _named_lines(shown, line, label, source)
    if spec.books is not None:
        yield from _fragment_count(shown, line, label, source)
        for citation, fragment in source.quoted():
            if fragment and citation in sound and not contains(spec.cited_text(citation), fragment):
                yield problem(shown, line, f"{label}: fragment {fragment!r} does not occur in {citation}"
                                           + _found_elsewhere(spec, source.version, fragment))


def _fragment_count(shown: str, line: int, label: str, source: sd.Source) -> Iterator[SpecError]:
    cited = source.citations + source.near
    if not cited or len(source.fragments) == len(cited):
        return
    if not source.fragments:
        yield problem(shown, line, f"{label}: no fragment for {', '.join(map(str, cited))}: quote a few words of "
                                   f"the cited lines, in {source.version}'s own language, that carry the point")
    else:
        count = len(source.fragments)
        yield problem(shown, line, f"{label}: {len(cited)} citations but {count} fragment{'s' * (count != 1)}: give "
                                   f"one fragment per citation, in the same order")


def _named_lines(shown: str, line: int, label: str, source: sd.Source) -> Iterator[SpecError]:
    """Every line a note names lies in one of the source's citations or its `near` ranges (all quoted)."""
    kind = "silent note" if source.form == "silent" else "note"
    for first, last in named_lines(source.note or ""):
        if not any(c.first <= first and last <= c.last for c in source.citations + source.near):
            lines = f"line {first}" if first == last else f"lines {first}-{last}"
            verb = "is" if first == last else "are"
            yield problem(shown, line, f"{label}: the {kind} names {lines}, which {verb} in none of its citations "
                                       f"or `near` ranges: list {sd.VERSION_FILES[source.version]}:{first}-{last} "
                                       f"in `near` with a fragment of its words")


def named_lines(note: str) -> list[tuple[int, int]]:
    """The line ranges a note names in parentheses, as (first, last)."""
    found = []
    for group in NAMED_LINES.finditer(note):
        for part in group.group(1).split(","):
            first, _, last = part.strip().partition("-")
            found.append((int(first), int(last or first)))
    return found


def _found_elsewhere(spec: Loaded, version: str, fragment: str) -> str:
    """Where else in the version's lines the fragment occurs (a hint for a moved citation), if anywhere."""
    book = spec.books[sd.VERSION_FILES[version]]
    lines = spec.version_lines(version)
    hits = [n for n in lines if contains(book[n - 1], fragment)]
    if not hits:  # a fragment across a line break: look in each pair of lines
        hits = [n for n in lines if n + 1 in lines and contains("\n".join(book[n - 1:n + 1]), fragment)]
    return f" (it occurs at line {', '.join(map(str, hits[:3]))})" if hits else f" (nor anywhere in {version}'s lines)"


def citation_problem(books: dict[str, list[str]], citation: sd.Citation) -> str | None:
    """What is wrong with a citation of rulebook lines, if anything: the file exists, the range lies inside it
    and holds text (also `azul scenarios check`'s check of a scenario's sources)."""
    book = books.get(citation.file)
    if book is None:
        return f"no rulebook file {citation.file}"
    if citation.first > citation.last:
        return "first line after last line"
    if citation.last > len(book):
        return f"beyond the end of {citation.file} ({len(book)} lines)"
    if not any(text.strip() for text in book[citation.first - 1:citation.last]):
        return "only blank lines"
    return None


def _citation_problems(spec: Loaded, shown: str, line: int, label: str,
                       citation: sd.Citation) -> Iterator[SpecError]:
    if spec.books is not None and (why := citation_problem(spec.books, citation)):
        yield problem(shown, line, f"{label} cites {citation}: {why}")


def _version_problems(spec: Loaded, shown: str, line: int, label: str, version: str,
                      citation: sd.Citation) -> Iterator[SpecError]:
    """The cited lines that hold text belong to clauses of the citing version (the first stray one is named)."""
    book = spec.books[citation.file]
    for clause in spec.clauses.get(citation.file, ()):
        first, last = max(clause.first, citation.first), min(clause.last, citation.last)
        if clause.version != version and first <= last and any(t.strip() for t in book[first - 1:last]):
            owner = clause.version or "no version"
            yield problem(shown, line, f"{label} cites {citation}, but lines {clause.first}-{clause.last} belong "
                                       f"to {owner} ({clause.location})")
            return


APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00ad": None})
LINE_END_HYPHEN = re.compile(r"(\w)-[ \t]*\n\s*(\w)")


def contains(text: str, fragment: str) -> bool:
    """The fragment occurs in the text, whitespace, line breaks, hyphenation at a line end, apostrophes and case
    normalised (a word broken "Start-\nspieler" matches "Startspieler" and "Start-spieler")."""
    wanted = _norm(fragment)
    text = text.translate(APOSTROPHES)
    variants = (text, LINE_END_HYPHEN.sub(r"\1\2", text), LINE_END_HYPHEN.sub(r"\1-\2", text))
    return any(wanted in _norm(variant) for variant in variants)


def _norm(text: str) -> str:
    return " ".join(text.translate(APOSTROPHES).casefold().split())
