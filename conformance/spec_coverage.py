"""The traceability half of `azul spec check`: the clause index covers every rulebook line exactly once, and
rules, clauses, divergences, scenarios and the reference engine agree on which rule IDs exist.

A mixin of `spec_check.SpecChecker` (it uses the checker's loaded data and its `problem` method)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml

from azul_conformance import spec_data as sd


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


class CoverageMixin:
    # --- the clause index ------------------------------------------------------------------------------

    def check_clause_files(self) -> None:
        for document in self.docs["clauses"]:
            if document.data["file"] != document.path.stem + ".txt":
                self.problem(document.shown, document.line(("file",)), f"file {document.data['file']!r} does not match the file name {document.path.name} (expected {document.path.stem}.txt)")
            for index, clause in enumerate(sd.build_clauses(document)):
                self.check_clause_ids(document, index, clause)
        if self.books is None:
            return
        for name in self.clauses:
            if name not in self.books:
                self.problem(self.clauses[name][0].location.path, 1, f"clause index for {name}, which is not a rulebook file")
        for name, book in self.books.items():
            if name not in self.clauses and (self.root / "clauses" / f"{Path(name).stem}.yaml").exists():
                continue  # the index exists but did not validate; its problems are already reported
            if name not in self.clauses:
                self.problem(name, None, f"no clause index: expected spec/clauses/{Path(name).stem}.yaml covering its {sum(1 for t in book if t.strip())} non-blank lines")
                self.stats.lines += sum(1 for text in book if text.strip())
                continue
            self.check_clause_ranges(name, book, self.clauses[name])
            self.check_coverage(name, book, self.clauses[name])

    def check_clause_ids(self, document: sd.Document, index: int, clause: sd.Clause) -> None:
        rules = self.rules_by_id()
        for rule_id in clause.rules:
            if rule_id not in self.known_ids:
                self.problem(clause.location.path, clause.location.line, f"clause {span(clause.first, clause.last)}: unknown rule ID {rule_id}")
            elif clause.version and rule_id in rules and rules[rule_id].sources[clause.version].form == "silent":
                self.problem(clause.location.path, clause.location.line, f"clause {span(clause.first, clause.last)} names {rule_id}, but {rule_id} says {clause.version} is silent on it")

    def check_clause_ranges(self, name: str, book: list[str], clauses: tuple[sd.Clause, ...]) -> None:
        allowed = {v for v, f in sd.VERSION_FILES.items() if f == name} | {None}
        previous = 0
        for clause in clauses:
            where = (clause.location.path, clause.location.line)
            if clause.first > clause.last:
                self.problem(*where, f"clause {clause.first}-{clause.last}: first line after last line")
            elif clause.last > len(book):
                self.problem(*where, f"clause {clause.first}-{clause.last}: beyond the end of {name} ({len(book)} lines)")
            elif not any(text.strip() for text in book[clause.first - 1:clause.last]):
                self.problem(*where, f"clause {span(clause.first, clause.last)}: only blank lines")
            if clause.first < previous:
                self.problem(*where, f"clause {span(clause.first, clause.last)} is out of line order (clauses must follow the file)")
            if clause.version not in allowed:
                self.problem(*where, f"clause {span(clause.first, clause.last)}: version {clause.version} is not in {name} (it holds {', '.join(sorted(v for v in allowed if v))})")
            previous = max(previous, clause.first)

    def check_coverage(self, name: str, book: list[str], clauses: tuple[sd.Clause, ...]) -> None:
        owners: dict[int, list[sd.Clause]] = defaultdict(list)
        for clause in clauses:
            for number in range(clause.first, min(clause.last, len(book)) + 1):
                owners[number].append(clause)
        text_lines = [n for n in range(1, len(book) + 1) if book[n - 1].strip()]
        uncovered = [n for n in text_lines if not owners[n]]
        overlapped = [n for n in text_lines if len(owners[n]) > 1]
        for first, last in runs(uncovered, book):
            self.problem(name, first, f"not covered by any clause ({span(first, last)})")
        for first, last in runs(overlapped, book):
            places = ", ".join(str(c.location) for c in owners[first])
            self.problem(name, first, f"covered by {len(owners[first])} clauses ({span(first, last)}): {places}")
        self.stats.lines += len(text_lines)
        self.stats.covered += len(text_lines) - len(uncovered) - len(overlapped)

    # --- rules against the clause index -------------------------------------------------------------------

    def rules_by_id(self) -> dict[str, sd.Rule]:
        return {rule.id: rule for _, chapter in self.chapters for rule in chapter.rules}

    def check_rule_coverage(self) -> None:
        named = {rule_id for clauses in self.clauses.values() for clause in clauses for rule_id in clause.rules}
        for document, chapter in self.chapters:
            for index, rule in enumerate(chapter.rules):
                stating = [s for s in rule.sources.values() if s.form in ("states", "example")]
                if rule.id not in named and (rule.level == "rule" or stating):
                    self.problem(document.shown, document.line(("rules", index, "id")), f"{rule.id} is named by no clause of the clause index")
                for source in stating:
                    line = document.line(("rules", index, "sources", source.version))
                    self.check_stating_clauses(document.shown, line, rule.id, source)

    def check_stating_clauses(self, shown: str, line: int, rule_id: str, source: sd.Source) -> None:
        """The clauses a rule cites as stating (or exemplifying) it must name it."""
        if self.books is None:
            return
        for citation in source.citations:
            overlapping = [c for c in self.clauses.get(citation.file, ()) if citation.overlaps(c.first, c.last)]
            if overlapping and not any(rule_id in c.rules for c in overlapping):
                places = ", ".join(str(c.location) for c in overlapping)
                self.problem(shown, line, f"{rule_id}: {source.version} cites {citation} ({source.form}), but no clause there names {rule_id} ({places})")

    # --- divergences -------------------------------------------------------------------------------------

    def check_divergences(self) -> None:
        rules = self.rules_by_id()
        found: dict[str, sd.Divergence] = {}
        for document, index, divergence in self.divergences:
            if divergence.id in found:
                self.problem(document.shown, divergence.location.line, f"duplicate divergence ID {divergence.id} (first defined at {found[divergence.id].location})")
            found.setdefault(divergence.id, divergence)
            for version, source in divergence.versions.items():
                line = document.line(("divergences", index, "versions", version))
                self.check_source(document.shown, line, f"{divergence.id}: {version}", source)
            for rule_id in divergence.rules:
                line = document.line(("divergences", index, "rules"))
                if rule_id not in self.known_ids:
                    self.problem(document.shown, line, f"{divergence.id}: unknown rule ID {rule_id}")
                elif rule_id in rules and divergence.id not in rules[rule_id].divergences:
                    self.problem(document.shown, line, f"{divergence.id} lists {rule_id}, but {rule_id} does not list {divergence.id} in its divergences")
        self.check_rule_divergence_links(found)

    def check_rule_divergence_links(self, found: dict[str, sd.Divergence]) -> None:
        for document, chapter in self.chapters:
            for index, rule in enumerate(chapter.rules):
                for k, divergence_id in enumerate(rule.divergences):
                    line = document.line(("rules", index, "divergences", k))
                    if divergence_id not in found:
                        self.problem(document.shown, line, f"{rule.id}: unknown divergence {divergence_id}")
                    elif rule.id not in found[divergence_id].rules:
                        self.problem(document.shown, line, f"{rule.id} lists {divergence_id}, but {divergence_id} does not list {rule.id} in its rules")

    # --- rule IDs used elsewhere in the project ------------------------------------------------------------

    def check_external_ids(self) -> None:
        if self.scenarios_root:
            for path in sorted(Path(self.scenarios_root).rglob("*.yaml")):
                self.scan_scenario(path)
        if self.reference_root:
            for path in sorted(Path(self.reference_root).rglob("*.py")):
                self.scan_source(path)

    def scan_scenario(self, path: Path) -> None:
        shown = sd.shown_path(Path(self.scenarios_root).parent, path)
        try:
            nodes = list(yaml.compose_all(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            mark = getattr(error, "problem_mark", None)
            self.problem(shown, mark.line + 1 if mark else None, f"cannot read scenario file to check its rule IDs: {getattr(error, 'problem', None) or error}")
            return
        stack = [node for node in nodes if node is not None]
        while stack:
            node = stack.pop()
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if key.value == "rules" and isinstance(value, yaml.SequenceNode):
                        self.check_listed_ids(shown, value)
                    stack.append(value)
            elif isinstance(node, yaml.SequenceNode):
                stack.extend(node.value)

    def check_listed_ids(self, shown: str, sequence: yaml.SequenceNode) -> None:
        for item in sequence.value:
            if isinstance(item, yaml.ScalarNode) and item.value not in self.known_ids:
                self.problem(shown, item.start_mark.line + 1, f"unknown rule ID {item.value!r} in a rules list")

    def scan_source(self, path: Path) -> None:
        shown = sd.shown_path(Path(self.reference_root).parent, path)
        for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            for match in sd.RULE_ID_RE.finditer(text):
                if match.group(0) not in self.known_ids:
                    self.problem(shown, number, f"unknown rule ID {match.group(0)} in the reference engine")

    def fill_stats(self) -> None:
        rules = [rule for _, chapter in self.chapters for rule in chapter.rules]
        self.stats.rules, self.stats.chapters = len(rules), len(self.chapters)
        self.stats.divergences = len(self.divergences)
        self.stats.clauses = sum(len(clauses) for clauses in self.clauses.values())
        for version in sd.VERSIONS:
            self.stats.stated[version] = sum(1 for r in rules if r.sources[version].form in ("states", "example"))
