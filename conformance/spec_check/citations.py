"""Citations: every source cites its version's own rulebook file, inside it, not blank lines only, in clauses of
that version, and a quoted fragment occurs in the lines cited. Needs the rulebooks; without them, nothing here."""

from __future__ import annotations

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


def check_source(spec: Loaded, shown: str, line: int, label: str, source: sd.Source) -> Iterator[SpecError]:
    """What one version's source (of a rule or a divergence) cites; `label` begins each message."""
    expected = sd.VERSION_FILES[source.version]
    for citation in source.citations:
        if citation.file != expected:
            yield problem(shown, line, f"{label} cites {citation}, but {source.version} is in {expected}")
            continue
        found = list(_citation_problems(spec, shown, line, label, citation))
        yield from found
        if spec.books is not None and not found:
            yield from _version_problems(spec, shown, line, label, source.version, citation)
    if source.fragment and spec.books is not None and all(c.file in spec.books for c in source.citations):
        if not any(_contains(spec.cited_text(c), source.fragment) for c in source.citations):
            cited = ", ".join(map(str, source.citations))
            yield problem(shown, line, f"{label}: fragment {source.fragment!r} does not occur in {cited}")


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


def _contains(text: str, fragment: str) -> bool:
    def norm(s: str) -> str:
        return " ".join(s.replace("\u2019", "'").casefold().split())
    return norm(fragment) in norm(text)
