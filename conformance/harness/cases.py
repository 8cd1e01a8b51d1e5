"""The cases of a conformance run: every scenario of the corpus and every property, with metadata up front.

`select` is the one case selector of the suite (`azul conform --only`, `azul scenarios run --only`): a scenario
or property id, a rule ID (`OFFER-6`), a chapter (`OFFER`) or a glob (`floor-*`), case-insensitive; several
may be given, or separated by commas.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Any

from ..engines.base import Capabilities
from ..results import CaseKind
from ..scenario import load_scenarios


@dataclass(frozen=True)
class Case:
    id: str
    kind: CaseKind
    title: str
    rules: tuple[str, ...]
    where: str
    requires: tuple[str, ...] = ()
    payload: Any = None  # the Scenario, or the Property

    def missing(self, capabilities: Capabilities) -> list[str]:
        return capabilities.missing(self.requires)

    def matches(self, selector: str) -> bool:
        selector = selector.strip().lower()
        if not selector:
            return False
        names = [self.id.lower()] + [rule.lower() for rule in self.rules]
        if any(ch in selector for ch in "*?["):
            return any(fnmatch.fnmatchcase(name, selector) for name in names)
        if selector in names:
            return True
        return "-" not in selector and any(rule.split("-")[0].lower() == selector for rule in self.rules)


@dataclass(frozen=True)
class Collected:
    """The cases found, and the scenario files that could not be loaded (each a located message)."""

    cases: tuple[Case, ...]
    problems: tuple[str, ...] = ()


def scenario_case(scenario) -> Case:
    return Case(scenario.id, CaseKind.SCENARIO, scenario.title, tuple(scenario.rules), scenario.where,
                tuple(scenario.needs), scenario)


def scenario_cases(paths: list[str] | None = None) -> Collected:
    """The corpus (or the files and folders named) as cases."""
    errors: list = []
    try:
        scenarios = load_scenarios(paths or None, errors)
    except FileNotFoundError as error:
        scenarios, errors = [], [error]
    return Collected(tuple(scenario_case(s) for s in scenarios), tuple(str(error) for error in errors))


def property_cases() -> list[Case]:
    # deferred: the properties load hypothesis (0.3 s), which scenarios alone never need
    from ..properties.suite import PROPERTIES

    return [Case(p.id, CaseKind.PROPERTY, p.title, p.rules, f"property {p.id}", p.requires, p) for p in PROPERTIES]


def given_twice(cases: list[Case] | tuple[Case, ...]) -> list[str]:
    """Each case id that two cases share, naming both places (file:line): a file given twice, or one id in two
    files. Reports, recordings and comparisons key cases by id, so such a run would mix the two up."""
    first: dict[str, Case] = {}
    found = []
    for case in cases:
        if case.id in first:
            where = first[case.id].where
            found.append(f"case id {case.id!r} is given twice: " + (f"{where} (the same file given twice)"
                         if where == case.where else f"{where} and {case.where}"))
        else:
            first[case.id] = case
    return found


def select(cases: list[Case] | tuple[Case, ...], only: tuple[str, ...] | list[str]) -> list[Case]:
    selectors = [s for item in only for s in item.split(",") if s.strip()]
    if not selectors:
        return list(cases)
    return [case for case in cases if any(case.matches(s) for s in selectors)]
