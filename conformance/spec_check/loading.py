"""Reading the spec for checking: every YAML file read with its lines and held to its JSON Schema.

A file that does not read or does not validate is reported and left out, so that the other checks run on what
is sound; the rule IDs it defines stay known, so that one broken chapter does not cascade into "unknown rule".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..located import Span
from ..schemas import validator
from .. import spec_data as sd
from ..spec_data import SpecError

SCHEMA_FILES = {"rules": "rules.schema.json", "clauses": "clauses.schema.json",
                "divergences": "divergences.schema.json"}
VERSIONS_SCHEMA = "versions.schema.json"
ID_LINE = re.compile(r"^\s*-?\s*id:\s*['\"]?([A-Z]+-[0-9]+)", re.MULTILINE)


def problem(path: str, line: int | None, message: str) -> SpecError:
    return SpecError(message, Span(line, file=path))


@dataclass
class Loaded:
    """The spec as the checks see it: each sound file's document beside what was built from it, and the
    rulebooks' lines (None when the rulebooks were not found)."""

    root: Path
    books: dict[str, list[str]] | None
    documents: dict[str, list[sd.Document]] = field(default_factory=lambda: {kind: [] for kind in SCHEMA_FILES})
    known_ids: set[str] = field(default_factory=set)
    chapters: list[tuple[sd.Document, sd.Chapter]] = field(default_factory=list)
    clauses: dict[str, tuple[sd.Clause, ...]] = field(default_factory=dict)
    divergences: list[tuple[sd.Document, int, sd.Divergence]] = field(default_factory=list)
    standings: dict[str, tuple[str, str]] = field(default_factory=dict)  # spec/versions.yaml

    def rules(self) -> Iterator[tuple[sd.Document, int, sd.Rule]]:
        """Every rule with its document and its index in that document's `rules` list."""
        for document, chapter in self.chapters:
            for index, rule in enumerate(chapter.rules):
                yield document, index, rule

    def rules_by_id(self) -> dict[str, sd.Rule]:
        return {rule.id: rule for _, _, rule in self.rules()}

    def cited_text(self, citation: sd.Citation) -> str:
        return "\n".join(self.books[citation.file][citation.first - 1:citation.last])

    def version_lines(self, version: str) -> list[int]:
        """The lines of the version's rulebook file that its clauses hold (all of the file without an index)."""
        name = sd.VERSION_FILES[version]
        clauses = [c for c in self.clauses.get(name, ()) if c.version == version]
        if not clauses:
            return list(range(1, len(self.books[name]) + 1))
        return sorted({n for c in clauses for n in range(c.first, min(c.last, len(self.books[name])) + 1)})


def read_rulebooks(root: Path, problems: list[SpecError] | None = None) -> dict[str, list[str]]:
    """Every rulebook file (*.txt) as its lines, numbered as `sed -n` numbers them (split on newlines only).
    A file that is not UTF-8 is a problem (its lines read with U+FFFD in place); one that is no regular file
    (a FIFO would hang the read) is left out, a problem too."""
    books = {}
    problems = [] if problems is None else problems
    for path in sorted(root.glob("*.txt")):
        if not path.is_file():
            problems.append(problem(str(path), None, "not a regular file"))
            continue
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            problems.append(problem(str(path), line, f"not UTF-8 text: byte 0x{data[error.start]:02x} at offset "
                                    f"{error.start} cannot start or continue a character (a rulebook is UTF-8 text)"))
            text = data.decode("utf-8", "replace")
        lines = text.split("\n")
        books[path.name] = lines[:-1] if text.endswith("\n") else lines
    return books


def load(root: Path, rulebooks: Path | None) -> tuple[Loaded, list[SpecError]]:
    """Read and validate every spec file; build chapters, clauses and divergences from the sound ones."""
    problems: list[SpecError] = []
    loaded = Loaded(root, read_rulebooks(rulebooks, problems) if rulebooks else None)
    validators = _validators(root / "schema" if (root / "schema").is_dir() else sd.default_spec_root() / "schema")
    for kind in SCHEMA_FILES:
        if not sd.spec_files(root, kind):
            problems.append(problem(str(Path(root.name) / kind), None, f"no {kind} files found"))
        for path in sd.spec_files(root, kind):
            document = _load_document(loaded, path, validators[kind], problems)
            if document is not None:
                loaded.documents[kind].append(document)
    loaded.chapters = [(document, sd.build_chapter(document)) for document in loaded.documents["rules"]]
    for document in loaded.documents["clauses"]:
        loaded.clauses[document.data["file"]] = sd.build_clauses(document)
    for document in loaded.documents["divergences"]:
        loaded.divergences += [(document, i, d) for i, d in enumerate(sd.build_divergences(document))]
    versions = root / sd.VERSIONS_FILE
    if not versions.is_file():
        problems.append(problem(str(Path(root.name) / sd.VERSIONS_FILE), None,
                                "no versions file: each version's standing (official, walk-through, "
                                "unofficial-summary) is needed to check the rules' bases"))
    else:
        document = _load_document(loaded, versions, validators["versions"], problems)
        if document is not None:
            loaded.standings = sd.build_standings(document)
    return loaded, problems


def _validators(schema_root: Path) -> dict[str, Draft202012Validator]:
    return {kind: validator(name, folder=schema_root)
            for kind, name in {**SCHEMA_FILES, "versions": VERSIONS_SCHEMA}.items()}


def _load_document(loaded: Loaded, path: Path, validator: Draft202012Validator,
                   problems: list[SpecError]) -> sd.Document | None:
    """Read and validate one file; None if it is unusable (its problems are reported)."""
    try:
        document = sd.read_document(path, sd.shown_path(loaded.root, path))
    except SpecError as error:
        problems.append(error)
        if path.parent.name == "rules":  # keep its IDs known, so that other checks do not cascade
            loaded.known_ids.update(ID_LINE.findall(path.read_text(encoding="utf-8", errors="replace")))
        return None
    problems += [problem(document.shown, line, f"duplicate key {key!r}") for key, line in document.duplicate_keys]
    data = document.data
    if isinstance(data, dict) and isinstance(data.get("rules"), list) and "chapter" in data:
        loaded.known_ids.update(r["id"] for r in data["rules"] if isinstance(r, dict) and isinstance(r.get("id"), str))
    errors = _schema_errors(validator, document)
    for error in errors:
        line = document.line(tuple(error.absolute_path))
        problems.append(problem(document.shown, line, _where(document, error) + describe(error)))
    return None if errors else document


# What each validator found in each text: a document is held to its schema once, however often it is checked
# (`azul spec check` reads some files twice; a test that checks the spec many times, each time once).
# The validator is kept beside what it found, so that its id names it as long as the entry lives.
SCHEMA_MEMO = 1024
_FOUND: dict[tuple[int, str], tuple[Draft202012Validator, list[ValidationError]]] = {}


def _schema_errors(validator: Draft202012Validator, document: sd.Document) -> list[ValidationError]:
    if not document.text:  # a document not read from a file: nothing to know it by
        return sorted(validator.iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path)))
    key = (id(validator), document.text)
    found = _FOUND.pop(key, None)
    if found is None:
        found = (validator, sorted(validator.iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path))))
    _FOUND[key] = found  # the most recently used last: the first is the one to drop
    if len(_FOUND) > SCHEMA_MEMO:
        del _FOUND[next(iter(_FOUND))]
    return found[1]


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
            return f"a source needs exactly one of {', '.join(sd.SOURCE_FORMS)} (found {forms or 'none'})"
        index = sd.SOURCE_FORMS.index(forms[0])
        inner = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index]
        return describe(best_match(inner)) if inner else error.message
    if error.validator == "pattern" and "fragment" in where:
        return f"fragment {error.instance!r} is longer than 10 words"
    return error.message if len(error.message) < 200 else error.message[:200] + "..."


def _where(document: sd.Document, error: ValidationError) -> str:
    """`OFFER-5: rules[4].sources: `: the rule and the path inside the file, before a schema error."""
    path = list(error.absolute_path)
    prefix = ""
    if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
        rule = document.data["rules"][path[1]]
        prefix = f"{rule['id']}: " if isinstance(rule, dict) and isinstance(rule.get("id"), str) else ""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return prefix + (f"{text}: " if path else "")
