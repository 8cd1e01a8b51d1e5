"""The whole check: every concern's module run over the loaded spec, the problems in file order, the counts."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from .. import spec_data as sd
from ..located import LocatedError
from .basis import check_bases
from .citations import check_rule_citations
from .coverage import check_clause_files, check_line_coverage, check_rules_indexed, line_owners, text_lines
from .divergences import check_divergences
from .ids import check_chapters, check_engine_ids, check_scenario_ids
from .labels import check_labels
from .translations import check_translations
from .loading import Loaded, load

DEFAULT = object()  # "discover it" for the scenario and reference-engine folders
CHECKS = (check_chapters, check_rule_citations, check_clause_files, check_line_coverage, check_divergences,
          check_rules_indexed, check_labels, check_bases, check_translations)
LINK_CHECKS = (check_clause_files, check_divergences)  # the references the documentation pages link along


@dataclass
class Stats:
    rules: int = 0
    chapters: int = 0
    divergences: int = 0
    clauses: int = 0
    lines: int = 0
    covered: int = 0
    stated: dict[str, int] = field(default_factory=dict)
    citations: int = 0  # cited line ranges of rules and register (silent notes' named lines included)
    fragments: int = 0  # of them, those with a fragment of the version's own words
    translated: dict[str, int] = field(default_factory=dict)  # language -> rules with a title and statement in it


@dataclass
class Report:
    problems: list[LocatedError]
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
                f"{lines}; {s.fragments}/{s.citations} citations quoted in their own words; rules stated (in full, "
                f"with the board, in part or by example) by version: {versions}{self._translated()}")

    def _translated(self) -> str:
        s = self.stats
        if not s.translated:
            return ""
        return "; rules written in " + ", ".join(f"{lang} {n}/{s.rules}" for lang, n in s.translated.items())


def check_spec(spec_root: Path | None = None, rulebooks: Path | None = None, *, scenarios_root: Any = DEFAULT,
               reference_root: Any = DEFAULT) -> Report:
    """Run every check. `rulebooks` None skips the checks that need the rulebook text; `scenarios_root` and
    `reference_root` None skip the rule IDs named by scenarios and by the reference engine."""
    root = Path(spec_root) if spec_root is not None else sd.default_spec_root()
    spec, problems = load(root, rulebooks)
    problems += check_loaded(spec)
    scenarios = _discover("azul_conformance", "scenarios") if scenarios_root is DEFAULT else scenarios_root
    if scenarios:
        problems += check_scenario_ids(spec, Path(scenarios))
    reference = _discover("azul_reference", "") if reference_root is DEFAULT else reference_root
    if reference:
        problems += check_engine_ids(spec, Path(reference))
    return Report(_in_order(problems), _stats(spec), rulebooks)


def check_loaded(spec: Loaded) -> list[LocatedError]:
    """The checks over a spec already loaded (what check_spec runs after reading the files)."""
    return [found for check in CHECKS for found in check(spec)]


def check_links(spec_root: Path | None = None) -> list[LocatedError]:
    """What would leave a link of the generated documentation with nowhere to land (a rule's divergence, a
    divergence's rule, a clause's rule that does not exist), with the problems of the files it reads: the
    part of check_spec the mkdocs build fails on (a spec still being written may leave rules unindexed)."""
    spec, problems = load(Path(spec_root) if spec_root is not None else sd.default_spec_root(), None)
    for check in LINK_CHECKS:
        problems += check(spec)
    return _in_order(problems)


def _in_order(problems: list[LocatedError]) -> list[LocatedError]:
    """Each problem once, by file and line."""
    unique = {(p.file or "", p.line or 0, p.message): p for p in problems}
    return [unique[key] for key in sorted(unique)]


def _stats(spec: Loaded) -> Stats:
    rules = [rule for _, _, rule in spec.rules()]
    stats = Stats(len(rules), len(spec.chapters), len(spec.divergences),
                  sum(len(clauses) for clauses in spec.clauses.values()))
    for name, book in (spec.books or {}).items():
        owners = line_owners(book, spec.clauses.get(name, ()))
        stats.lines += len(text_lines(book))
        stats.covered += sum(1 for n in text_lines(book) if len(owners[n]) == 1)
    sources = [s for r in rules for s in r.sources.values()]
    sources += [s for _, _, d in spec.divergences for s in d.versions.values()]
    quoted = [fragment for source in sources for _, fragment in source.quoted()]
    stats.citations, stats.fragments = len(quoted), sum(1 for fragment in quoted if fragment)
    try:
        translations = sd.load_translations(spec.root)
    except sd.SpecError:  # a file that cannot be read: check_translations names it
        translations = {}
    for language, translation in translations.items():
        stats.translated[language] = sum(1 for r in rules if r.id in translation.rules)
    for version in sd.VERSIONS:
        stats.stated[version] = sum(1 for r in rules if r.sources[version].form in sd.BACKING_FORMS)
    return stats


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
