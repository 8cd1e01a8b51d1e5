"""A step two rules both forbid may be refused naming either (`-> illegal_move DEAL-2|DEAL-1`): an engine that
names the other one is right, one that names a third rule is not. protocol.md's deal table and the scenarios'
deal refusals are held to each other: every rule set a scenario accepts is a row of the table, and the row of
two rules is used."""

from __future__ import annotations

import re
from pathlib import Path

from azul_conformance.engines.base import Rejected
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.scenario import load_scenarios
from azul_conformance.scenario.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "conformance" / "scenarios"


class NamesRule(ReferenceEngine):
    """The reference, but a refused deal names `rule` (another reading of which rule forbids it)."""

    def __init__(self, rule: str) -> None:
        super().__init__()
        self.named = rule

    def deal(self, factories=None):
        try:
            return super().deal(factories)
        except Rejected as error:
            raise Rejected(error.code, error.message, rule=self.named) from None


def scenario(scenario_id: str):
    return next(s for s in load_scenarios(sorted(SCENARIOS.rglob("*.yaml"))) if s.id == scenario_id)


def test_a_refusal_naming_either_of_two_rules_that_forbid_the_deal_passes():
    lid_short = scenario("deal-lid-short-across-factories-refused")  # more red than bag and lid hold
    assert run_scenario(NamesRule("DEAL-2"), lid_short).verdict == "pass"
    assert run_scenario(NamesRule("DEAL-1"), lid_short).verdict == "pass"  # the table's "tiles the bag lacks"
    wrong = run_scenario(NamesRule("DEAL-3"), lid_short)
    assert wrong.verdict == "fail" and "expected DEAL-2 or DEAL-1" in wrong.message
    not_in_bag = scenario("deal-tiles-not-in-bag-refused")  # the reverse: DEAL-1 expected first, DEAL-2 right too
    assert run_scenario(NamesRule("DEAL-2"), not_in_bag).verdict == "pass"
    # where one rule alone forbids it, the other is still wrong
    too_few = scenario("deal-wrong-factory-sizes-refused")  # a factory of 3 tiles while tiles last: DEAL-1 alone
    assert run_scenario(NamesRule("DEAL-2"), too_few).verdict == "fail"
    assert run_scenario(NamesRule("DEAL-1"), too_few).verdict == "pass"


def table_rows() -> set[frozenset[str]]:
    text = (ROOT / "docs" / "reference" / "protocol.md").read_text(encoding="utf-8")
    table = text[text.index("A well-formed deal the rules forbid"):].split("\n\n")[1]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    return {frozenset(re.findall(r"`([A-Z]+-[0-9]+)`", row.rsplit("|", 2)[1])) for row in rows}


def test_the_deal_table_and_the_scenarios_agree_on_which_rules_a_refused_deal_may_name():
    rows = table_rows()
    assert frozenset({"DEAL-1", "DEAL-2"}) in rows and frozenset({"DEAL-2"}) in rows
    used = set()
    for each in load_scenarios(sorted(SCENARIOS.rglob("*.yaml"))):
        for step in each.steps:
            if step.kind == "deal" and step.reject is not None and step.reject.code == "illegal_move" \
                    and step.reject.rule:
                allowed = frozenset(step.reject.rules)
                assert allowed in rows, f"{step.where}: {sorted(allowed)} is no row of protocol.md's deal table"
                used.add(allowed)
    assert {row for row in rows if len(row) > 1} <= used  # the table's row of two rules is what scenarios accept
