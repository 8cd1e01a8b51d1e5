"""The rule specification as Python data: chapters, rules, clause index and divergences.

The YAML under spec/ (package `azul_spec`) is the source of truth; this module reads it into frozen
dataclasses for the docs generator, the scenario checker and `azul spec check`. Reading is line-aware:
every document keeps a map from a path inside it (("rules", 3, "sources", "PT")) to its line, so that
problems can be reported as `path:line: message`.

    spec = load_spec()                 # the bundled spec; raises SpecError if a file is unreadable
    spec.rule("OFFER-5").statement
    [r.id for r in spec.chapter("floor").rules]
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from . import readers
from .located import LocatedError, Span, yaml_failure

VERSIONS: tuple[str, ...] = ("FR", "DE", "EN", "IT", "UK", "ES", "PT", "IT-2")
VERSION_NAMES: dict[str, str] = {
    "FR": "French", "DE": "German", "EN": "English", "IT": "Italian", "UK": "Ukrainian edition",
    "ES": "Spanish", "PT": "Portuguese walk-through", "IT-2": "Italian summary (unofficial)",
}
# Which rulebook file holds each language version (the citation system is FILE:FIRST-LAST).
VERSION_FILES: dict[str, str] = {
    "FR": "000_ed7c8802c5a645fb.txt",
    "DE": "000_ed7c8802c5a645fb.txt",
    "EN": "000_ed7c8802c5a645fb.txt",
    "IT": "000_ed7c8802c5a645fb.txt",
    "UK": "001_b25c00830c6833ba.txt",
    "ES": "002_78cb4839c43a4ac6.txt",
    "PT": "003_61442af9175a896f.txt",
    "IT-2": "004_caa7946ff49431f0.txt",
}
# The lines of each version that shares its file with others (file 000 holds four: spec/versions.yaml says which).
VERSION_LINES: dict[str, tuple[int, int]] = {"FR": (4, 58), "DE": (61, 122), "EN": (125, 179), "IT": (182, 234)}
CHAPTER_PREFIXES: dict[str, tuple[str, ...]] = {
    "setup": ("SETUP",),
    "deal": ("DEAL",),
    "offer": ("OFFER",),
    "floor": ("FLOOR",),
    "tiling": ("WALL", "TILING"),
    "scoring": ("SCORE",),
    "round": ("ROUND",),
    "end": ("END",),
    "grey": ("GREY",),
}
# Every rule ID's prefix, in the chapters' published order (a chapter may hold more than one prefix).
RULE_PREFIXES: tuple[str, ...] = tuple(prefix for prefixes in CHAPTER_PREFIXES.values() for prefix in prefixes)
SOURCE_FORMS: tuple[str, ...] = ("states", "printed", "partly", "example", "diverges", "silent")
# The forms that back a rule: the version's lines give it (in full, with the board's numbers, in part, or by a
# worked example). Only `diverges` and `silent` do not.
BACKING_FORMS: tuple[str, ...] = ("states", "printed", "partly", "example")
STANDINGS: tuple[str, ...] = ("official", "walk-through", "unofficial-summary")
# The languages the rules are published in besides English (spec/i18n/<lang>/), each with the rulebook version
# whose words it takes for the game's things: it takes IT (IT-2 is an unofficial summary), pt the walk-through.
LANGUAGES: dict[str, str] = {"fr": "FR", "de": "DE", "it": "IT", "uk": "UK", "es": "ES", "pt": "PT"}
I18N_FOLDER = "i18n"
GLOSSARY_FILE = "glossary.yaml"
NOTES_FILE = "notes.yaml"  # our notes beside the versions, and the bases of the levels, in the language
SCENARIO_TITLES_FILE = "scenarios.yaml"  # the scenarios' titles in the language, by scenario ID
SITE_FILE = "site.yaml"  # the site's own words: spec/i18n/site.yaml (English), spec/i18n/<lang>/site.yaml


def rule_key(rule: str) -> tuple:
    """The order rules are listed in: by chapter, then by number (`OFFER-2` before `OFFER-10`)."""
    prefix, _, number = rule.partition("-")
    order = RULE_PREFIXES.index(prefix) if prefix in RULE_PREFIXES else len(RULE_PREFIXES)
    return (order, prefix, int(number) if number.isdigit() else 0)


RULE_ID_RE = re.compile(rf"\b({'|'.join(RULE_PREFIXES)})-\d+\b")
CITATION_RE = re.compile(r"^(?P<file>[^\s:/]+\.txt):(?P<first>[1-9][0-9]*)-(?P<last>[1-9][0-9]*)$")
VERSIONS_FILE = "versions.yaml"  # spec/versions.yaml: each version's standing (official, walk-through, ...)
LINES_RE = re.compile(r"^(?P<first>[1-9][0-9]*)(?:-(?P<last>[1-9][0-9]*))?$")

Path_ = tuple[str | int, ...]


class SpecError(LocatedError):
    """A problem in the specification: a spec file that cannot be read, or one that `azul spec check` finds."""


# --- line-aware YAML -------------------------------------------------------------------------------------


@dataclass
class Document:
    """One YAML file of the spec: its data (yaml.safe_load) and where each part of it starts."""

    path: Path
    shown: str  # the path as messages show it
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    duplicate_keys: list[tuple[str, int]] = field(default_factory=list)
    text: str = field(default="", repr=False, compare=False)  # what was read (the key of what is kept of it)

    def line(self, path: Path_ = ()) -> int:
        """The line of `path` inside the document, or of its nearest ancestor that has one."""
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def read_document(path: Path, shown: str | None = None) -> Document:
    """Read one YAML file with line numbers; raise SpecError (with line and column) if it is not YAML."""
    shown = shown or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(f"cannot read: {error}", Span(file=shown)) from None
    try:
        read = _parsed(text)
    except yaml.YAMLError as error:
        raise SpecError(*yaml_failure(error, shown), text) from None
    # a copy of the data each time: a caller may change what it was given
    return Document(path, shown, copy.deepcopy(read.data), dict(read.lines), list(read.duplicate_keys), text)


# The documents read, by their text: one `azul spec check` reads each spec file up to three times (loading, the
# translations' check, the counts), a docs build reads them for each language, and the text decides everything
# a Document holds but its path. Parsing is nearly all the cost of a check; a deep copy is a fiftieth of it.
READ_MEMO = 512  # documents kept (the spec has about a hundred)


@functools.lru_cache(maxsize=READ_MEMO)
def _parsed(text: str) -> Document:
    """The document of a text (its path left out: read_document gives each reader its own, with its path)."""
    node, data = readers.compose(text)
    document = Document(Path(), "", data, text=text)
    if node is not None:
        _walk(node, (), document)
    return document


def _walk(node: yaml.Node, path: Path_, document: Document, line: int | None = None) -> None:
    # A mapping entry is located at its key (where `sources:` is written), not at its value's first line.
    document.lines.setdefault(path, line or node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key, value in node.value:
            if key.value in seen:
                document.duplicate_keys.append((str(key.value), key.start_mark.line + 1))
            seen.add(key.value)
            _walk(value, path + (key.value,), document, key.start_mark.line + 1)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), document)


# --- the data --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Citation:
    """A clause of a rulebook: FILE:FIRST-LAST, 1-based lines."""

    file: str
    first: int
    last: int

    @classmethod
    def parse(cls, text: str) -> Citation:
        match = CITATION_RE.match(text)
        if not match:
            raise ValueError(f"not a citation (FILE:FIRST-LAST): {text!r}")
        return cls(match["file"], int(match["first"]), int(match["last"]))

    def __str__(self) -> str:
        return f"{self.file}:{self.first}-{self.last}"

    def overlaps(self, first: int, last: int) -> bool:
        return self.first <= last and first <= self.last


def version_of(citation: Citation) -> str | None:
    """The version whose text the citation's lines are (None: a file or lines of no version)."""
    for version, file in VERSION_FILES.items():
        first, last = VERSION_LINES.get(version, (1, citation.last))
        if file == citation.file and first <= citation.first and citation.last <= last:
            return version
    return None


def cited(citation: Citation) -> str:
    """A citation as a reader names it, by version and line: `EN, l. 162`, `ES, ll. 40-44` (the file's name
    where the lines are no version's)."""
    version = version_of(citation)
    if version is None:
        return str(citation)
    if citation.first == citation.last:
        return f"{version}, l. {citation.first}"
    return f"{version}, ll. {citation.first}-{citation.last}"


@dataclass(frozen=True)
class Source:
    """What one version says about a rule (or a divergence): one of SOURCE_FORMS, the lines it cites, our note,
    and the version's own words: one fragment per citation and per further line range its note names (`near`)."""

    version: str
    form: str
    citations: tuple[Citation, ...] = ()
    note: str | None = None
    fragments: tuple[str, ...] = ()
    near: tuple[Citation, ...] = ()  # further lines the note names (for `silent`, the only lines)

    @classmethod
    def from_data(cls, version: str, data: Mapping[str, Any]) -> Source:
        form = next(name for name in SOURCE_FORMS if name in data)
        fragments = _strings(data.get("fragment"))
        near = tuple(Citation.parse(t) for t in _strings(data.get("near")))
        if form == "silent":
            return cls(version, form, (), data["silent"], fragments, near)
        cited = tuple(Citation.parse(t) for t in _strings(data[form]))
        return cls(version, form, cited, data.get("note"), fragments, near)

    def quoted(self) -> list[tuple[Citation, str | None]]:
        """Each cited line range, then each further line range the note names (`near`), with its fragment
        (None where there is none)."""
        cited = self.citations + self.near
        return [(c, self.fragments[i] if i < len(self.fragments) else None) for i, c in enumerate(cited)]


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True)
class Ruling:
    question: str
    decision: str
    authority: str
    confidence: str
    reasoning: str


@dataclass(frozen=True)
class SetAside:
    """Why a version that diverges from a rule does not decide it."""

    because: str  # unofficial-summary, walk-through, misprint, printed-board, worked-example
    note: str


@dataclass(frozen=True)
class Basis:
    """Why a rule's level is right: who states it, and each diverging version set aside with its reason."""

    stated_by: str
    set_aside: Mapping[str, SetAside] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    id: str
    chapter: str
    title: str
    level: str
    statement: str
    sources: Mapping[str, Source]
    ruling: Ruling | None
    divergences: tuple[str, ...]
    examples: tuple[Citation, ...]
    location: Span
    authority: str | None = None  # level rule only: what a board fact rests on (e.g. printed-board)
    reasoning: str | None = None
    basis: Basis | None = None


@dataclass(frozen=True)
class Chapter:
    name: str
    title: str
    order: int
    intro: str
    rules: tuple[Rule, ...]
    location: Span


@dataclass(frozen=True)
class Clause:
    file: str
    first: int
    last: int
    version: str | None
    normative: bool
    rules: tuple[str, ...]
    kind: str | None
    reason: str | None
    location: Span


@dataclass(frozen=True)
class Divergence:
    id: str
    chapter: str
    title: str
    kind: str
    summary: str
    versions: Mapping[str, Source]
    rules: tuple[str, ...]
    location: Span


@dataclass(frozen=True)
class Spec:
    """The whole specification; chapters in published order."""

    root: Path
    chapters: tuple[Chapter, ...]
    clauses: Mapping[str, tuple[Clause, ...]]  # rulebook file name -> its clauses in line order
    divergences: tuple[Divergence, ...]
    standings: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # version -> (standing, why)
    translations: Mapping[str, Translation] = field(default_factory=dict)  # language -> our texts in it

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(rule for chapter in self.chapters for rule in chapter.rules)

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(f"no rule {rule_id!r} in the specification")

    def chapter(self, name: str) -> Chapter:
        for chapter in self.chapters:
            if chapter.name == name:
                return chapter
        raise KeyError(f"no chapter {name!r} in the specification")

    def divergence(self, divergence_id: str) -> Divergence:
        for divergence in self.divergences:
            if divergence.id == divergence_id:
                return divergence
        raise KeyError(f"no divergence {divergence_id!r} in the specification")


# --- building the data from documents --------------------------------------------------------------------


def default_spec_root() -> Path:
    """The bundled spec (package azul_spec), in the source tree or an installed wheel."""
    return Path(str(files("azul_spec")))


def spec_files(root: Path, kind: str) -> list[Path]:
    """The YAML files of one kind (rules, clauses, divergences), sorted by name."""
    folder = root / kind
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def shown_path(root: Path, path: Path) -> str:
    """How messages name a spec file: relative to the current folder if inside it, else from the spec root."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(Path(root.name) / path.relative_to(root))


@functools.lru_cache(maxsize=1)
def rule_titles() -> dict[str, str]:
    """Every rule ID of the bundled specification and its title, read once.

    Only IDs and titles: the rule files are read with libyaml's safe loader where it exists (a twentieth of a
    second) rather than the line-aware reading of load_spec (half a second), which every `azul replay` of an
    imported record would otherwise pay for its `%differs` declarations."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return {rule["id"]: rule["title"] for path in spec_files(default_spec_root(), "rules")
            for rule in yaml.load(path.read_text(encoding="utf-8"), Loader=loader)["rules"]}


def build_chapter(document: Document) -> Chapter:
    data = document.data
    rules = tuple(_build_rule(document, index, data["chapter"]) for index in range(len(data["rules"])))
    where = Span(document.line(), file=document.shown)
    return Chapter(data["chapter"], data["title"], data["order"], data["intro"].strip(), rules, where)


def _build_rule(document: Document, index: int, chapter: str) -> Rule:
    data = document.data["rules"][index]
    sources = {version: Source.from_data(version, data["sources"][version]) for version in VERSIONS}
    ruling = Ruling(**{k: v.strip() for k, v in data["ruling"].items()}) if "ruling" in data else None
    return Rule(
        id=data["id"],
        chapter=chapter,
        title=data["title"],
        level=data["level"],
        statement=" ".join(data["statement"].split()),
        sources=sources,
        ruling=ruling,
        divergences=tuple(data.get("divergences", ())),
        examples=tuple(Citation.parse(text) for text in data.get("examples", ())),
        location=Span(document.line(("rules", index)), file=document.shown),
        authority=data.get("authority"),
        reasoning=" ".join(data["reasoning"].split()) if "reasoning" in data else None,
        basis=build_basis(data["basis"]) if "basis" in data else None,
    )


def build_basis(data: Mapping[str, Any]) -> Basis:
    set_aside = {v: SetAside(e["because"], " ".join(e["note"].split())) for v, e in data.get("set_aside", {}).items()}
    return Basis(" ".join(data["stated_by"].split()), set_aside)


def build_standings(document: Document) -> dict[str, tuple[str, str]]:
    """spec/versions.yaml: version -> (standing, why)."""
    return {v: (e["standing"], " ".join(e["why"].split())) for v, e in document.data["versions"].items()}


def parse_lines(value: str | int) -> tuple[int, int]:
    """A clause's `lines` (\"12-15\", \"12\" or 12) as (first, last)."""
    match = LINES_RE.match(str(value))
    if not match:
        raise ValueError(f"not a line range: {value!r}")
    first = int(match["first"])
    return first, int(match["last"] or first)


def build_clauses(document: Document) -> tuple[Clause, ...]:
    file = document.data["file"]
    clauses = []
    for index, data in enumerate(document.data["clauses"]):
        first, last = parse_lines(data["lines"])
        clauses.append(Clause(
            file, first, last, data["version"], data["normative"], tuple(data.get("rules", ())),
            data.get("kind"), data.get("reason"), Span(document.line(("clauses", index)), file=document.shown),
        ))
    return tuple(clauses)


def build_divergences(document: Document) -> tuple[Divergence, ...]:
    chapter = document.path.stem
    built = []
    for index, data in enumerate(document.data["divergences"]):
        versions = {v: Source.from_data(v, s) for v, s in data["versions"].items()}
        built.append(Divergence(
            data["id"], chapter, data["title"], data["kind"], " ".join(data["summary"].split()), versions,
            tuple(data["rules"]), Span(document.line(("divergences", index)), file=document.shown),
        ))
    return tuple(built)


def load_spec(root: Path | None = None, *, translations: bool = True) -> Spec:
    """Load the specification. Files are assumed valid (run `azul spec check`); a file that cannot be read
    or lacks a required part raises SpecError naming it. `translations=False` leaves spec/i18n/ unread (the
    Spec's `translations` empty): for a reader of the rules alone, such as a run's judging (0.4 -> 0.16 s)."""
    root = Path(root) if root is not None else default_spec_root()
    chapters, clauses, divergences = [], {}, []
    for kind in ("rules", "clauses", "divergences"):
        for path in spec_files(root, kind):
            document = read_document(path, shown_path(root, path))
            try:
                if kind == "rules":
                    chapters.append(build_chapter(document))
                elif kind == "clauses":
                    clauses[document.data["file"]] = build_clauses(document)
                else:
                    divergences.extend(build_divergences(document))
            except (KeyError, TypeError, ValueError, StopIteration, AttributeError) as error:
                raise SpecError(f"malformed {kind} file ({error!r}); run `azul spec check`",
                                Span(file=document.shown)) from None
    chapters.sort(key=lambda chapter: chapter.order)
    standings = {}
    if (root / VERSIONS_FILE).is_file():
        document = read_document(root / VERSIONS_FILE, shown_path(root, root / VERSIONS_FILE))
        try:
            standings = build_standings(document)
        except (KeyError, TypeError, AttributeError) as error:
            raise SpecError(f"malformed versions file ({error!r}); run `azul spec check`",
                            Span(file=document.shown)) from None
    return Spec(root, tuple(chapters), clauses, tuple(divergences), standings,
                load_translations(root) if translations else {})


# --- our texts in other languages (spec/i18n/<lang>/) ----------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One thing of the game in one language: the version's own word for it, where the version uses it, the
    other forms the version uses, and the words a text in that language must not use for it."""

    key: str  # our English term: pattern-line, floor-line...
    word: str
    lines: Citation | None
    also: tuple[str, ...]
    forbidden: tuple[str, ...]
    note: str | None


@dataclass(frozen=True)
class RuleText:
    title: str
    statement: str
    ruling: Mapping[str, str] = field(default_factory=dict)  # question, decision, reasoning: those written


@dataclass(frozen=True)
class Translation:
    """Our texts in one language, keyed as the English spec: chapter name -> (title, intro), rule ID ->
    RuleText, divergence ID -> (title, summary). What is missing is shown in English, marked as such."""

    language: str
    version: str
    terms: Mapping[str, Term]
    chapters: Mapping[str, tuple[str | None, str | None]]
    rules: Mapping[str, RuleText]
    divergences: Mapping[str, tuple[str, str]]
    # notes.yaml: rule or divergence ID -> version -> our note beside that version; rule ID -> its basis
    # (stated_by, version set aside -> why); scenarios.yaml: scenario ID -> its title
    notes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    bases: Mapping[str, tuple[str | None, Mapping[str, str]]] = field(default_factory=dict)
    scenario_titles: Mapping[str, str] = field(default_factory=dict)


def _flat(text: str | None) -> str | None:
    return " ".join(text.split()) if isinstance(text, str) else None


def build_glossary(document: Document) -> dict[str, Term]:
    return {key: Term(key, entry["word"], Citation.parse(entry["lines"]) if "lines" in entry else None,
                      tuple(entry.get("also", ())), tuple(entry.get("not", ())), _flat(entry.get("note")))
            for key, entry in document.data["terms"].items()}


def build_chapter_text(document: Document) -> tuple[tuple[str | None, str | None], dict[str, RuleText],
                                                    dict[str, tuple[str, str]]]:
    """One spec/i18n/<lang>/<chapter>.yaml: (title, intro), its rules' texts and its divergences' texts."""
    data = document.data
    rules = {rule_id: RuleText(_flat(entry["title"]), _flat(entry["statement"]),
                               {k: _flat(v) for k, v in entry.get("ruling", {}).items()})
             for rule_id, entry in (data.get("rules") or {}).items()}
    divergences = {div_id: (_flat(entry["title"]), _flat(entry["summary"]))
                   for div_id, entry in (data.get("divergences") or {}).items()}
    return (_flat(data.get("title")), _flat(data.get("intro"))), rules, divergences


def build_notes(document: Document) -> tuple[dict[str, dict[str, str]], dict[str, tuple[str | None, dict]]]:
    """One spec/i18n/<lang>/notes.yaml: our notes beside each version (by rule or divergence ID, then version)
    and each rule's basis (why its level)."""
    notes, bases = {}, {}
    for group in ("rules", "divergences"):
        for owner, entry in (document.data.get(group) or {}).items():
            if entry.get("notes"):
                notes[owner] = {version: _flat(text) for version, text in entry["notes"].items()}
            if "stated_by" in entry or "set_aside" in entry:
                bases[owner] = (_flat(entry.get("stated_by")),
                                {version: _flat(text) for version, text in (entry.get("set_aside") or {}).items()})
    return notes, bases


def translation_folders(root: Path) -> list[Path]:
    """The language folders under spec/i18n/ (each holds a glossary.yaml and a file per chapter)."""
    folder = root / I18N_FOLDER
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))) \
        if folder.is_dir() else []


def load_translations(root: Path | None = None) -> dict[str, Translation]:
    """Every language of spec/i18n/ that has a glossary, as a Translation. Files are assumed valid (run
    `azul spec check`); a file that cannot be read or lacks a required part raises SpecError naming it."""
    root = Path(root) if root is not None else default_spec_root()
    translations = {}
    for folder in translation_folders(root):
        glossary = folder / GLOSSARY_FILE
        if folder.name not in LANGUAGES or not glossary.is_file():
            continue
        chapters, rules, divergences, notes, bases, titles = {}, {}, {}, {}, {}, {}
        try:
            document = read_document(glossary, shown_path(root, glossary))
            terms = build_glossary(document)
            for path in sorted(folder.glob("*.yaml")):
                if path.name == GLOSSARY_FILE:
                    continue
                document = read_document(path, shown_path(root, path))
                if path.name == SITE_FILE:  # the site's words: docs/hooks/docgen_i18n.py
                    continue
                if path.name == NOTES_FILE:
                    notes, bases = build_notes(document)
                    continue
                if path.name == SCENARIO_TITLES_FILE:
                    titles = {sid: _flat(title) for sid, title in (document.data.get("titles") or {}).items()}
                    continue
                chapters[path.stem], chapter_rules, chapter_divergences = build_chapter_text(document)
                rules.update(chapter_rules)
                divergences.update(chapter_divergences)
        except SpecError:  # a file that does not read: its own error names it (not the file read before it)
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise SpecError(f"malformed translation file ({error!r}); run `azul spec check`",
                            Span(file=document.shown)) from None
        translations[folder.name] = Translation(folder.name, LANGUAGES[folder.name], terms, chapters, rules,
                                                divergences, notes, bases, titles)
    return translations
