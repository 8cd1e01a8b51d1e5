"""The clause index: each rulebook's index names its file, its clauses follow the file inside it, every non-blank
line lies in exactly one clause, the rule IDs a clause names exist (and do not say that version is silent), every
rule is named by a clause, and the clauses a rule cites as stating it name it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from .. import spec_data as sd
from ..spec_data import SpecError
from .loading import Loaded, problem


def check_clause_files(spec: Loaded) -> Iterator[SpecError]:
    rules = spec.rules_by_id()
    for document in spec.documents["clauses"]:
        if document.data["file"] != document.path.stem + ".txt":
            yield problem(document.shown, document.line(("file",)),
                          f"file {document.data['file']!r} does not match the file name {document.path.name} "
                          f"(expected {document.path.stem}.txt)")
        for clause in sd.build_clauses(document):
            where, lines = clause.location, span(clause.first, clause.last)
            for rule_id in clause.rules:
                if rule_id not in spec.known_ids:
                    yield problem(where.file, where.line, f"clause {lines}: unknown rule ID {rule_id}")
                elif clause.version and rule_id in rules and rules[rule_id].sources[clause.version].form == "silent":
                    yield problem(where.file, where.line, f"clause {lines} names {rule_id}, but {rule_id} says "
                                                          f"{clause.version} is silent on it")


def check_line_coverage(spec: Loaded) -> Iterator[SpecError]:
    if spec.books is None:
        return
    for name, clauses in spec.clauses.items():
        if name not in spec.books:
            yield problem(clauses[0].location.file, 1, f"clause index for {name}, which is not a rulebook file")
    for name, book in spec.books.items():
        if name not in spec.clauses:
            if not (spec.root / "clauses" / f"{Path(name).stem}.yaml").exists():  # else it is reported already
                yield problem(name, None, f"no clause index: expected spec/clauses/{Path(name).stem}.yaml covering "
                                          f"its {len(text_lines(book))} non-blank lines")
            continue
        yield from _ranges(name, book, spec.clauses[name])
        owners = line_owners(book, spec.clauses[name])
        uncovered = [n for n in text_lines(book) if not owners[n]]
        overlapped = [n for n in text_lines(book) if len(owners[n]) > 1]
        for first, last in runs(uncovered, book):
            yield problem(name, first, f"not covered by any clause ({span(first, last)})")
        for first, last in runs(overlapped, book):
            places = ", ".join(str(c.location) for c in owners[first])
            yield problem(name, first, f"covered by {len(owners[first])} clauses ({span(first, last)}): {places}")


def _ranges(name: str, book: list[str], clauses: tuple[sd.Clause, ...]) -> Iterator[SpecError]:
    allowed = {v for v, f in sd.VERSION_FILES.items() if f == name} | {None}
    previous = 0
    for clause in clauses:
        where, lines = (clause.location.file, clause.location.line), span(clause.first, clause.last)
        if clause.first > clause.last:
            yield problem(*where, f"clause {clause.first}-{clause.last}: first line after last line")
        elif clause.last > len(book):
            yield problem(*where, f"clause {clause.first}-{clause.last}: beyond the end of {name} ({len(book)} lines)")
        elif not any(text.strip() for text in book[clause.first - 1:clause.last]):
            yield problem(*where, f"clause {lines}: only blank lines")
        if clause.first < previous:
            yield problem(*where, f"clause {lines} is out of line order (clauses must follow the file)")
        if clause.version not in allowed:
            held = ", ".join(sorted(v for v in allowed if v))
            yield problem(*where, f"clause {lines}: version {clause.version} is not in {name} (it holds {held})")
        previous = max(previous, clause.first)


def check_rules_indexed(spec: Loaded) -> Iterator[SpecError]:
    named = {rule_id for clauses in spec.clauses.values() for clause in clauses for rule_id in clause.rules}
    for document, index, rule in spec.rules():
        stating = [s for s in rule.sources.values() if s.form in sd.BACKING_FORMS]
        if rule.id not in named and (rule.level == "rule" or stating):
            yield problem(document.shown, document.line(("rules", index, "id")),
                          f"{rule.id} is named by no clause of the clause index")
        if spec.books is None:
            continue
        for source in stating:  # the clauses a rule cites as stating (or exemplifying) it must name it
            line = document.line(("rules", index, "sources", source.version))
            for citation in source.citations:
                overlapping = [c for c in spec.clauses.get(citation.file, ()) if citation.overlaps(c.first, c.last)]
                if overlapping and not any(rule.id in c.rules for c in overlapping):
                    places = ", ".join(str(c.location) for c in overlapping)
                    yield problem(document.shown, line,
                                  f"{rule.id}: {source.version} cites {citation} ({source.form}), "
                                  f"but no clause there names {rule.id} ({places})")


def text_lines(book: list[str]) -> list[int]:
    """The numbers of the non-blank lines of a rulebook."""
    return [n for n in range(1, len(book) + 1) if book[n - 1].strip()]


def line_owners(book: list[str], clauses: tuple[sd.Clause, ...]) -> dict[int, list[sd.Clause]]:
    """Line number -> the clauses that hold it."""
    owners: dict[int, list[sd.Clause]] = defaultdict(list)
    for clause in clauses:
        for number in range(clause.first, min(clause.last, len(book)) + 1):
            owners[number].append(clause)
    return owners


def runs(numbers: list[int], book: list[str]) -> list[tuple[int, int]]:
    """Group line numbers into runs; blank lines between two listed lines do not break a run."""
    groups: list[tuple[int, int]] = []
    for number in numbers:
        if groups and all(not text.strip() for text in book[groups[-1][1]:number - 1]):
            groups[-1] = (groups[-1][0], number)
        else:
            groups.append((number, number))
    return groups


def span(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"
