"""`azul spec check`: the rule specification is well formed and traces every rulebook line.

What is checked (each problem is reported as `path:line: message`, never as a traceback):
- every spec YAML file reads (yaml.safe_load) and matches its JSON Schema (spec/schema/);
- rule IDs are well formed, belong to their chapter's prefixes and are unique; chapter orders are unique;
- every rule cites all eight versions; every citation names the version's own rulebook file, lies within it,
  is not blank-only, falls in clauses of that version, and a quoted fragment occurs in the cited lines;
- rulings and implementation-defined rules carry a ruling block (and only they do);
- every non-blank line of every rulebook file lies in exactly one clause (uncovered lines and overlaps are
  reported as FILE:LINE);
- every rule ID named by a clause, a divergence, a scenario's `rules:` list or the reference engine's source
  exists; every rule is named by a clause (rulings on which all versions are silent excepted), and the
  clauses a rule cites as stating it name it;
- a rule's divergences exist and list the rule back, and every divergence is referenced;
- a rule's label for a version (states, example, diverges, silent) agrees with the divergence register's label
  for the same lines (spec_labels.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from azul_conformance import spec_data as sd
from azul_conformance.spec_coverage import CoverageMixin
from azul_conformance.spec_labels import contradictions

SCHEMA_FILES = {"rules": "rules.schema.json", "clauses": "clauses.schema.json", "divergences": "divergences.schema.json"}
ID_LINE = re.compile(r"^\s*-?\s*id:\s*['\"]?([A-Z]+-[0-9]+)", re.MULTILINE)
DEFAULT = object()  # "discover it" for the scenario and reference-engine folders


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


@dataclass
class Stats:
    rules: int = 0
    chapters: int = 0
    divergences: int = 0
    clauses: int = 0
    lines: int = 0
    covered: int = 0
    stated: dict[str, int] = field(default_factory=dict)


@dataclass
class Report:
    problems: list[Problem]
    stats: Stats
    rulebooks: Path | None

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        s = self.stats
        versions = ", ".join(f"{v} {s.stated.get(v, 0)}/{s.rules}" for v in sd.VERSIONS)
        lines = f"{s.covered}/{s.lines} non-blank rulebook lines covered" if self.rulebooks else "rulebooks not read"
        return (f"{s.rules} rules in {s.chapters} chapters, {s.divergences} divergences, {s.clauses} clauses; "
                f"{lines}; rules stated (text or example) by version: {versions}")


def read_rulebooks(root: Path) -> dict[str, list[str]]:
    """Every rulebook file (*.txt) as its lines, numbered as `sed -n` numbers them (split on newlines only)."""
    books = {}
    for path in sorted(root.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        books[path.name] = lines[:-1] if text.endswith("\n") else lines
    return books


def schema_validators(schema_root: Path) -> dict[str, Draft202012Validator]:
    schemas = {kind: json.loads((schema_root / name).read_text(encoding="utf-8")) for kind, name in SCHEMA_FILES.items()}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return {kind: Draft202012Validator(schema, registry=registry) for kind, schema in schemas.items()}


def describe(error: ValidationError) -> str:
    """A schema error in words a spec writer acts on."""
    where = error.absolute_path
    if error.validator == "required" and where and where[-1] == "sources":
        missing = [v for v in sd.VERSIONS if v not in error.instance]
        return f"no source for version {', '.join(missing)} (every rule cites all 8 versions)"
    if error.validator == "not" and isinstance(error.instance, dict):
        value = error.validator_value
        names = [n for part in value.get("anyOf", [value]) for n in part.get("required", ())]
        return f"field {', '.join(repr(n) for n in names if n in error.instance)} not allowed here"
    if error.validator == "oneOf" and isinstance(error.instance, dict):
        forms = [form for form in sd.SOURCE_FORMS if form in error.instance]
        if len(forms) != 1:
            return f"a source needs exactly one of states, example, diverges, silent (found {forms or 'none'})"
        index = sd.SOURCE_FORMS.index(forms[0])
        inner = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index]
        return describe(best_match(inner)) if inner else error.message
    if error.validator == "pattern" and where and where[-1] == "fragment":
        return f"fragment {error.instance!r} is longer than 8 words"
    return error.message if len(error.message) < 200 else error.message[:200] + "..."


def json_path(path: Any) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


class SpecChecker(CoverageMixin):
    """Runs every check once; `problems` collects what is wrong."""

    def __init__(self, spec_root: Path, rulebooks: Path | None, scenarios_root: Any = DEFAULT, reference_root: Any = DEFAULT):
        self.root = Path(spec_root)
        self.rulebooks_root = rulebooks
        self.books = read_rulebooks(rulebooks) if rulebooks else None
        self.scenarios_root = _discover("azul_conformance", "scenarios") if scenarios_root is DEFAULT else scenarios_root
        self.reference_root = _discover("azul_reference", "") if reference_root is DEFAULT else reference_root
        self.problems: list[Problem] = []
        self.stats = Stats()
        self.docs: dict[str, list[sd.Document]] = {kind: [] for kind in SCHEMA_FILES}
        self.known_ids: set[str] = set()
        self.chapters: list[tuple[sd.Document, sd.Chapter]] = []
        self.clauses: dict[str, tuple[sd.Clause, ...]] = {}
        self.divergences: list[tuple[sd.Document, int, sd.Divergence]] = []

    def problem(self, path: str, line: int | None, message: str) -> None:
        self.problems.append(Problem(path, line, message))

    def run(self) -> Report:
        self.load_all()
        self.check_chapters()
        for document, chapter in self.chapters:
            for index, rule in enumerate(chapter.rules):
                self.check_rule(document, index, rule)
        self.check_clause_files()
        self.check_divergences()
        self.check_rule_coverage()
        self.problems += [Problem(c.path, c.line, c.message) for c in contradictions(self.rules_by_id().values(), (d for _, _, d in self.divergences))]
        self.check_external_ids()
        self.fill_stats()
        problems = sorted(set(self.problems), key=lambda p: (p.path, p.line or 0, p.message))
        return Report(problems, self.stats, self.rulebooks_root)

    # --- loading ---------------------------------------------------------------------------------------

    def load_all(self) -> None:
        validators = schema_validators(self.root / "schema")
        for kind in SCHEMA_FILES:
            if not sd.spec_files(self.root, kind):
                self.problem(str(Path(self.root.name) / kind), None, f"no {kind} files found")
            for path in sd.spec_files(self.root, kind):
                document = self.load_document(path, validators[kind])
                if document is not None:
                    self.docs[kind].append(document)
        for document in self.docs["rules"]:
            self.chapters.append((document, sd.build_chapter(document)))
        for document in self.docs["clauses"]:
            self.clauses[document.data["file"]] = sd.build_clauses(document)
        for document in self.docs["divergences"]:
            self.divergences.extend((document, i, d) for i, d in enumerate(sd.build_divergences(document)))

    def load_document(self, path: Path, validator: Draft202012Validator) -> sd.Document | None:
        """Read and validate one file; None if it is unusable (its problems are reported)."""
        try:
            document = sd.read_document(path, sd.shown_path(self.root, path))
        except sd.SpecDataError as error:
            self.problem(error.path, error.line, error.message)
            if path.parent.name == "rules":  # keep its IDs known, so that other checks do not cascade
                self.known_ids.update(ID_LINE.findall(path.read_text(encoding="utf-8", errors="replace")))
            return None
        for key, line in document.duplicate_keys:
            self.problem(document.shown, line, f"duplicate key {key!r}")
        self.remember_ids(document.data)
        errors = sorted(validator.iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path)))
        for error in errors:
            self.problem(document.shown, document.line(tuple(error.absolute_path)), self.where(document, error) + describe(error))
        return None if errors else document

    def remember_ids(self, data: Any) -> None:
        """Rule IDs defined by a rules file, even an invalid one, so that other checks do not cascade."""
        if isinstance(data, dict) and isinstance(data.get("rules"), list) and "chapter" in data:
            self.known_ids.update(r["id"] for r in data["rules"] if isinstance(r, dict) and isinstance(r.get("id"), str))

    @staticmethod
    def where(document: sd.Document, error: ValidationError) -> str:
        path = list(error.absolute_path)
        prefix = ""
        if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
            rule = document.data["rules"][path[1]]
            prefix = f"{rule['id']}: " if isinstance(rule, dict) and isinstance(rule.get("id"), str) else ""
        return prefix + (f"{json_path(path)}: " if path else "")

    # --- chapters and rules ----------------------------------------------------------------------------

    def check_chapters(self) -> None:
        first_seen: dict[str, str] = {}
        orders: dict[int, str] = {}
        for document, chapter in self.chapters:
            if chapter.name != document.path.stem:
                self.problem(document.shown, document.line(("chapter",)), f"chapter {chapter.name!r} is in file {document.path.name}; expected {chapter.name}.yaml")
            if chapter.order in orders:
                self.problem(document.shown, document.line(("order",)), f"chapter order {chapter.order} already used by {orders[chapter.order]}")
            orders.setdefault(chapter.order, chapter.name)
            for index, rule in enumerate(chapter.rules):
                line = document.line(("rules", index, "id"))
                if rule.id.split("-")[0] not in sd.CHAPTER_PREFIXES[chapter.name]:
                    self.problem(document.shown, line, f"{rule.id} does not belong in chapter {chapter.name} (IDs here start with {' or '.join(sd.CHAPTER_PREFIXES[chapter.name])})")
                if rule.id in first_seen:
                    self.problem(document.shown, line, f"duplicate rule ID {rule.id} (first defined at {first_seen[rule.id]})")
                first_seen.setdefault(rule.id, f"{document.shown}:{line}")

    def check_rule(self, document: sd.Document, index: int, rule: sd.Rule) -> None:
        for version, source in rule.sources.items():
            line = document.line(("rules", index, "sources", version))
            self.check_source(document.shown, line, f"{rule.id}: {version}", source)
        for k, citation in enumerate(rule.examples):
            self.check_citation(document.shown, document.line(("rules", index, "examples", k)), f"{rule.id}: example", citation)

    def check_source(self, shown: str, line: int, label: str, source: sd.Source) -> None:
        expected = sd.VERSION_FILES[source.version]
        for citation in source.citations:
            if citation.file != expected:
                self.problem(shown, line, f"{label} cites {citation}, but {source.version} is in {expected}")
            elif self.check_citation(shown, line, label, citation):
                self.check_citation_version(shown, line, label, source.version, citation)
        if source.fragment and self.books is not None and all(c.file in self.books for c in source.citations):
            if not any(_contains(self.cited_text(c), source.fragment) for c in source.citations):
                self.problem(shown, line, f"{label}: fragment {source.fragment!r} does not occur in {', '.join(map(str, source.citations))}")

    def check_citation(self, shown: str, line: int, label: str, citation: sd.Citation) -> bool:
        """File exists, range inside it and not blank-only; True if the citation can be used further."""
        if self.books is None:
            return False
        book = self.books.get(citation.file)
        if book is None:
            self.problem(shown, line, f"{label} cites {citation}: no rulebook file {citation.file}")
        elif citation.first > citation.last:
            self.problem(shown, line, f"{label} cites {citation}: first line after last line")
        elif citation.last > len(book):
            self.problem(shown, line, f"{label} cites {citation}: beyond the end of {citation.file} ({len(book)} lines)")
        elif not self.cited_text(citation).strip():
            self.problem(shown, line, f"{label} cites {citation}: only blank lines")
        else:
            return True
        return False

    def cited_text(self, citation: sd.Citation) -> str:
        return "\n".join(self.books[citation.file][citation.first - 1:citation.last])

    def check_citation_version(self, shown: str, line: int, label: str, version: str, citation: sd.Citation) -> None:
        for clause in self.clauses.get(citation.file, ()):
            if clause.version != version and citation.overlaps(clause.first, clause.last) and self.has_text(citation.file, clause, citation):
                owner = clause.version or "no version"
                self.problem(shown, line, f"{label} cites {citation}, but lines {clause.first}-{clause.last} belong to {owner} ({clause.location})")
                return

    def has_text(self, file: str, clause: sd.Clause, citation: sd.Citation) -> bool:
        first, last = max(clause.first, citation.first), min(clause.last, citation.last)
        return any(text.strip() for text in self.books[file][first - 1:last])


def _contains(text: str, fragment: str) -> bool:
    def norm(s: str) -> str:
        return " ".join(s.replace("\u2019", "'").casefold().split())
    return norm(fragment) in norm(text)


def _discover(package: str, sub: str) -> Path | None:
    """A package's folder found without importing it (the checker only reads its files)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0]) / sub
    return folder if folder.is_dir() else None


def find_rulebooks(explicit: Path | None = None) -> Path | None:
    """The rulebooks folder: --rulebooks, else $AZUL_RULEBOOKS (when set, only it), else ../shared/rulebooks
    beside the project root or the current folder; None when the chosen place holds no rulebook files."""
    if explicit is not None:
        candidates = [explicit]
    elif os.environ.get("AZUL_RULEBOOKS"):
        candidates = [Path(os.environ["AZUL_RULEBOOKS"])]
    else:
        project = Path(str(files("azul_conformance"))).resolve().parent
        candidates = [project / ".." / "shared" / "rulebooks", Path.cwd() / ".." / "shared" / "rulebooks"]
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate.resolve()
    return None


def check_spec(spec_root: Path | None = None, rulebooks: Path | None = None, *, scenarios_root: Any = DEFAULT, reference_root: Any = DEFAULT) -> Report:
    """Run every check. `rulebooks` None skips the checks that need the rulebook text."""
    root = Path(spec_root) if spec_root is not None else sd.default_spec_root()
    return SpecChecker(root, rulebooks, scenarios_root, reference_root).run()

