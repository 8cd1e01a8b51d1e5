"""Checks over the whole corpus (`azul scenarios check`): every problem found at once, each located.

    check_corpus(paths, coverage=True, legality=True) -> CorpusReport
Schema and grammar (through the loader), unique IDs, known rule IDs, rulebook citations in range, every rule
covered by a scenario (and every ruling by a `ruling` scenario), each `given` a legal position (loaded into
the reference engine), and each scenario judging something (an assertion or an expected refusal).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engines.base import Rejected
from ..engines.reference import ReferenceEngine
from ..scenario_rules import named_rules
from ..spec_check import find_rulebooks
from ..spec_check.citations import citation_problem
from ..spec_check.ids import unknown_scenario_rules
from ..spec_check.loading import read_rulebooks
from ..spec_data import Citation, SpecError, load_spec, parse_lines
from .errors import ScenarioError
from .loader import load_scenarios
from .model import Scenario


@dataclass
class CorpusReport:
    scenarios: list[Scenario] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # things not checked, and why

    @property
    def ok(self) -> bool:
        return not self.problems and not self.uncovered


def known_rules() -> dict[str, str] | None:
    """Rule ID -> level, from the specification; None when it cannot be read (`azul spec check` says why)."""
    try:
        return {rule.id: rule.level for rule in load_spec(translations=False).rules} or None
    except SpecError:
        return None


def check_corpus(paths=None, coverage: bool = True, legality: bool = True) -> CorpusReport:
    errors: list[ScenarioError] = []
    report = CorpusReport(scenarios=load_scenarios(paths, errors))
    report.problems += [str(error) for error in errors]
    _ids(report)
    _expectations(report)
    _rules(report, paths, coverage and not errors)
    _sources(report)
    if legality:
        _legal_positions(report)
    return report


def _ids(report: CorpusReport) -> None:
    seen: dict[str, Scenario] = {}
    for scenario in report.scenarios:
        if scenario.id in seen:
            report.problems.append(f"{scenario.where}: id {scenario.id!r} is already used at {seen[scenario.id].where}")
        seen.setdefault(scenario.id, scenario)


def _expectations(report: CorpusReport) -> None:
    for scenario in report.scenarios:
        judged = scenario.expect or scenario.checkpoints or scenario.given.reject
        if not judged and not any(step.reject for step in scenario.steps):
            report.problems.append(f"{scenario.where}: {scenario.id} judges nothing: add `expect` or a refused step")


def _rules(report: CorpusReport, paths, coverage: bool) -> None:
    rules = known_rules()
    if rules is None:
        report.notes.append("rule IDs not checked: no rule catalogue found (spec/rules/*.yaml)")
        return
    unread: list = []  # the files the loader refused, already reported
    report.problems += [str(problem) for problem in unknown_scenario_rules(named_rules(paths, unread), rules)]
    if not coverage:
        return
    covered = {rule for scenario in report.scenarios for rule in scenario.rules}
    report.uncovered += [f"{rule} has no scenario" for rule in rules if rule not in covered]
    shown = {rule for s in report.scenarios if s.level == "ruling" for rule in s.rules}
    unshown = [rule for rule, level in rules.items() if level == "ruling" and rule in covered and rule not in shown]
    report.uncovered += [f"{rule} (a ruling) has no scenario of level `ruling` showing the ruled case"
                         for rule in unshown]


def _sources(report: CorpusReport) -> None:
    folder = find_rulebooks()
    if folder is None:
        report.notes.append("citations not checked: rulebooks not found (set AZUL_RULEBOOKS)")
        return
    books = read_rulebooks(folder)
    for scenario in report.scenarios:
        for text in scenario.sources:  # FILE:FIRST-LAST or FILE:LINE (the scenario schema)
            name, _, lines = text.partition(":")
            try:
                why = citation_problem(books, Citation(name, *parse_lines(lines)))
            except ValueError as error:  # line 0
                why = str(error)
            if why:
                report.problems.append(f"{scenario.where}: {scenario.id} cites {text}: {why}")


def _legal_positions(report: CorpusReport) -> None:
    engine = ReferenceEngine(seed=0)
    for scenario in report.scenarios:
        if scenario.given.state is None:
            continue
        try:
            engine.load_state(scenario.given.state)
        except Rejected as error:
            report.problems.append(f"{scenario.given.where}: {scenario.id}: the given position is not legal: "
                                   f"{error.message}")
