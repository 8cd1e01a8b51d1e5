"""The cases of a conformance run: every scenario of the corpus and every property, with metadata up front.

`--only` selects by scenario id, property id, rule ID (`OFFER-6`), rule prefix (`OFFER`) or a glob (`floor-*`).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Any

from ..engines.base import Capabilities


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # scenario or property
    title: str
    rules: tuple[str, ...]
    where: str
    requires: tuple[str, ...] = ()
    payload: Any = None  # the Scenario, or the Property

    def missing(self, capabilities: Capabilities) -> list[str]:
        if self.kind == "scenario":
            return capabilities.missing(self.payload.needs)
        return capabilities.missing(self.requires)

    def matches(self, selector: str) -> bool:
        selector = selector.strip()
        if not selector:
            return False
        if any(ch in selector for ch in "*?["):
            return fnmatch.fnmatch(self.id, selector) or any(fnmatch.fnmatch(r, selector) for r in self.rules)
        if selector == self.id or selector in self.rules:
            return True
        return "-" not in selector and selector.isupper() and any(r.split("-")[0] == selector for r in self.rules)


def scenario_cases(paths: list[str] | None = None, problems: list[str] | None = None) -> list[Case]:
    """The corpus (or the files named) as cases; unloadable scenarios are reported in `problems`."""
    from ..scenario import load_scenarios

    errors: list = []
    try:
        scenarios = load_scenarios(paths or None, errors)
    except FileNotFoundError as error:
        scenarios, errors = [], [error]
    if problems is not None:
        problems += [str(error) for error in errors]
    return [Case(s.id, "scenario", s.title, tuple(s.rules), s.where, tuple(s.needs), s) for s in scenarios]


def property_cases() -> list[Case]:
    from ..properties.suite import PROPERTIES

    return [Case(p.id, "property", p.title, p.rules, f"property {p.id}", p.requires, p) for p in PROPERTIES]


def select(cases: list[Case], only: tuple[str, ...] | list[str]) -> list[Case]:
    selectors = [s for item in only for s in item.split(",") if s.strip()]
    if not selectors:
        return list(cases)
    return [case for case in cases if any(case.matches(s) for s in selectors)]
