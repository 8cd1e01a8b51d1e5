"""Does each scenario tell its rules from their wrong readings? The mutation-based lint of the corpus.

A scenario earns its place when at least one rule-level mutant of one of its rules fails it: its data then
separates the rule from a plausible wrong reading (a start player who is also seat 0, a tie between all the
players, a score that hides the clamp at 0 tell nothing apart). `blind_scenarios` runs every mutant against the
scenarios of its rule, in this process (a fraction of a second a mutant), and returns those that no mutant
failed. A few are blind for a reason that no mutant can change (the canonical state cannot show the mistake);
they are listed in KNOWN with that reason, and everything else the lint finds is a finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..harness.runner import RunOptions, run_case
from ..harness.session import Session, collect
from ..results import CaseKind, Verdict
from .catalogue import ALTERNATIVES, MUTANTS, Mutant
from .patching import MutantEngine

EVERY = MUTANTS + ALTERNATIVES

# Scenarios that no rule-level mutant can fail, each with the reason. Keep it short: a new entry needs a reason
# that no realistic wrong reading of the scenario's rules would show in the canonical state.
KNOWN: dict[str, str] = {
    "offer-refuse-factory-beyond-player-count": "the factories are part of the loaded position, so a wrong factory "
    "count (SETUP-3) cannot show here; the set-up scenarios check the count of a new game",
    "setup-grey-side-for-everyone": "no realistic engine gives the players different sides of the board",
    "setup-scores-start-at-zero": "no realistic engine starts a score elsewhere than 0",
}


@dataclass(frozen=True)
class Finding:
    scenario: str
    rules: tuple[str, ...]
    mutants: tuple[str, ...]  # the mutants of its rules that were tried (all passed it)
    known: str = ""  # the reason, for a scenario of KNOWN


def killed_scenarios(mutants: Iterable[Mutant] = EVERY, cases=None, differs: bool = True) -> dict[str, set[str]]:
    """For each mutant, the scenarios of its rule that tell it from the rule (run in this process): those that
    fail it, or (with `differs`) judge it `differs`: an implementation-defined scenario meeting another choice,
    which tells the readings apart but kills nothing."""
    if cases is None:
        cases = collect(Session(properties=False)).cases
    scenarios = [case for case in cases if case.kind is CaseKind.SCENARIO]
    options = RunOptions()
    killed: dict[str, set[str]] = {}
    for mutant in mutants:
        engine = MutantEngine(mutant, 0)
        killed[mutant.id] = {case.id for case in scenarios if mutant.rule in case.rules
                             and _tells(run_case(engine, case, engine.info.capabilities, options).verdict,
                                        differs)}
    return killed


def _tells(verdict, differs: bool = True) -> bool:
    return verdict.bad or (differs and verdict is Verdict.DIFFERS)


def blind_scenarios(mutants: Iterable[Mutant] = EVERY, cases=None) -> list[Finding]:
    """The scenarios that no mutant of their rules fails, in corpus order."""
    mutants = list(mutants)
    if cases is None:
        cases = collect(Session(properties=False)).cases
    killed = killed_scenarios(mutants, cases)
    failed = {scenario for ids in killed.values() for scenario in ids}
    findings = []
    for case in cases:
        if case.kind is not CaseKind.SCENARIO or case.id in failed:
            continue
        tried = tuple(m.id for m in mutants if m.rule in case.rules)
        findings.append(Finding(case.id, tuple(case.rules), tried, KNOWN.get(case.id, "")))
    return findings
