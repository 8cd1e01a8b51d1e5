"""docs/reference/architecture.md ("Where things live") stays true to the code: every module it names exists,
and every name it gives for a module is defined there (a function, a class or a module-level constant)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference" / "architecture.md"
CODE = re.compile(r"`([^`]+)`")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def rows() -> list[tuple[list[str], list[str]]]:
    """(module paths, names) of each row of the page's table."""
    found = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and cells[1].startswith("`"):
            found.append((CODE.findall(cells[1]), CODE.findall(cells[2])))
    return found


def defined(path: Path) -> set[str]:
    """The top-level names a module defines."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def test_the_page_has_a_row_for_each_idea_of_the_suite():
    assert len(rows()) >= 20
    text = PAGE.read_text(encoding="utf-8")
    for idea in ("result model", "case selector", "Reporters", "Loading the specification", "Loading scenarios",
                 "notation's constants", "located error", "spec checker", "documents we did not write",
                 "engine interface"):
        assert idea in text, idea


def test_every_module_the_page_names_exists_and_defines_the_names_given():
    for paths, names in rows():
        modules = []
        for shown in paths:
            path = ROOT / shown
            assert path.exists(), f"{PAGE.name} names {shown}, which does not exist"
            modules += sorted(path.glob("*.py")) if path.is_dir() else [path]
        everything = set().union(*(defined(module) for module in modules))
        for name in names:
            assert NAME.fullmatch(name), f"{name!r} in {paths} is not a Python name"
            assert name in everything, f"{PAGE.name}: {name} is not defined in {', '.join(paths)}"


def test_the_page_is_in_the_navigation():
    # mkdocs.yml's `!ENV [NAME, default]` (the site's address, from the build's environment) read as a plain list
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV ", ""))["nav"]
    pages = [page for section in nav if isinstance(section, dict) for item in section.values()
             if isinstance(item, list) for entry in item for page in entry.values()]
    assert "reference/architecture.md" in pages
