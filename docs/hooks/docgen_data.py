"""What the generated pages are made from: the rule spec, the clause index, the divergence register.

Reading is kept behind these few functions so that the shared loader (azul_conformance.spec_data) can replace
the plain YAML reading in one place. Every problem found while reading is collected as text (file, what, where);
the hook logs them as warnings, which `mkdocs build --strict` turns into a failed build.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

VERSIONS = ("FR", "DE", "EN", "IT", "UK", "ES", "PT", "IT-2")
VERSION_NAMES = {
    "FR": "French", "DE": "German", "EN": "English", "IT": "Italian", "UK": "Ukrainian edition",
    "ES": "Spanish", "PT": "Portuguese walk-through", "IT-2": "Italian summary (unofficial)",
}
SOURCE_FORMS = ("states", "example", "diverges", "silent")


@dataclass
class Spec:
    chapters: list[dict] = field(default_factory=list)       # sorted by `order`
    rules: dict[str, dict] = field(default_factory=dict)     # id -> rule (with "chapter" added)
    divergences: list[dict] = field(default_factory=list)    # each with "group" (the file stem) added
    clauses: dict[str, dict] = field(default_factory=dict)   # rulebook file name -> clause file
    problems: list[str] = field(default_factory=list)
    root: str = ""

    @property
    def divergence_ids(self) -> set[str]:
        return {d.get("id") for d in self.divergences}


def spec_root() -> Path | None:
    """The spec data folder: $AZUL_DOCS_SPEC (tests, previews), else the installed azul_spec package."""
    override = os.environ.get("AZUL_DOCS_SPEC")
    if override:
        return Path(override)
    try:
        return Path(str(resources.files("azul_spec")))
    except ModuleNotFoundError:
        return None


def read_yaml(path: Path, problems: list[str]) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problems.append(f"{where}: YAML error: {error.problem}")
    except (OSError, yaml.YAMLError) as error:
        problems.append(f"{path}: cannot read: {error}")
    return None


def _load_chapters(root: Path, spec: Spec) -> None:
    for path in sorted((root / "rules").glob("*.yaml")):
        data = read_yaml(path, spec.problems)
        if not isinstance(data, dict):
            continue
        data.setdefault("chapter", path.stem)
        data["file"] = path.name
        spec.chapters.append(data)
        for rule in data.get("rules") or []:
            rule_id = rule.get("id")
            if rule_id in spec.rules:
                spec.problems.append(f"{path}: rule {rule_id} is defined twice")
            rule["chapter"] = data["chapter"]
            spec.rules[rule_id] = rule
    spec.chapters.sort(key=lambda c: (c.get("order", 99), c["chapter"]))


def _load_divergences(root: Path, spec: Spec) -> None:
    for path in sorted((root / "divergences").glob("*.yaml")):
        data = read_yaml(path, spec.problems) or {}
        for item in data.get("divergences") or []:
            item["group"] = path.stem
            spec.divergences.append(item)


def _load_clauses(root: Path, spec: Spec) -> None:
    for path in sorted((root / "clauses").glob("*.yaml")):
        data = read_yaml(path, spec.problems)
        if isinstance(data, dict):
            spec.clauses[data.get("file", path.stem + ".txt")] = data


def load_spec() -> Spec:
    root = spec_root()
    spec = Spec(root=str(root or ""))
    if root is None or not root.is_dir():
        return spec
    _load_chapters(root, spec)
    _load_divergences(root, spec)
    _load_clauses(root, spec)
    check_references(spec)
    return spec


def check_references(spec: Spec) -> None:
    """The links the pages will make must land: rule -> divergence, divergence -> rule, clause -> rule."""
    known = spec.divergence_ids
    for rule_id, rule in spec.rules.items():
        for div in rule.get("divergences") or []:
            if div not in known:
                spec.problems.append(f"rule {rule_id} names divergence {div}, which is not in spec/divergences")
    for div in spec.divergences:
        for rule_id in div.get("rules") or []:
            if rule_id not in spec.rules:
                spec.problems.append(f"divergence {div.get('id')} names rule {rule_id}, which no chapter defines")
    for name, data in spec.clauses.items():
        for clause in data.get("clauses") or []:
            for rule_id in clause.get("rules") or []:
                if rule_id not in spec.rules:
                    spec.problems.append(f"clauses of {name}, lines {clause.get('lines')}: "
                                         f"unknown rule {rule_id}")


# --- citations -------------------------------------------------------------------------------------------

def parse_citation(text: str) -> tuple[str, int, int] | None:
    """`FILE:FIRST-LAST` -> (file, first, last); None when it does not have that shape."""
    try:
        name, span = str(text).rsplit(":", 1)
        first, _, last = span.partition("-")
        return name, int(first), int(last or first)
    except ValueError:
        return None


def parse_lines(text: Any) -> tuple[int, int] | None:
    """A clause's `lines` value (`4-5`, `7`) -> (first, last)."""
    first, _, last = str(text).partition("-")
    try:
        return int(first), int(last or first)
    except ValueError:
        return None


def as_list(value: Any) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def source_form(entry: Any) -> tuple[str, Any, str]:
    """One version's entry -> (form, citation(s) or reason, note/fragment text)."""
    if not isinstance(entry, dict):
        return "missing", None, ""
    for form in SOURCE_FORMS:
        if form in entry:
            return form, entry[form], str(entry.get("note") or "")
    return "missing", None, ""
