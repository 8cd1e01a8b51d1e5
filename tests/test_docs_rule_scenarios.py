"""A rule's page lists as its outcomes the scenarios about it (those whose first rule it is: the scenario schema's
main one, whose outcome the title states); a scenario that checks the rule in passing, while it is about another,
is named as such, with the rule it is about, and never titled as this rule's outcome nor drawn as its smallest
scenario. (FLOOR-1's page listed "the turn passes 2, 3, 0, 1, 2 and then 3" among the floor line's outcomes.)"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_rules  # noqa: E402
import docgen_scenarios  # noqa: E402
import generate  # noqa: E402

from azul_conformance import spec_data  # noqa: E402
from azul_conformance.scenario import corpus_root  # noqa: E402


@pytest.fixture(scope="module")
def corpus():
    spec = spec_data.load_spec()
    return spec, docgen_scenarios.load_gallery(spec, Path(corpus_root()))


def _section(spec, gallery, rule_id: str) -> str:
    rule = docgen_rules.rules_by_id(spec)[rule_id]
    return "\n".join(docgen_rules.rule_section(spec, rule, docgen_rules.ClauseIndex(spec), gallery.by_rule()))


def _listed(section: str) -> tuple[list[str], list[str]]:
    """(the scenarios listed as outcomes, the scenarios named as checking the rule in passing)."""
    outcomes = re.findall(r"^- .*\(\[([a-z0-9-]+)\]\([^)]*\)\)$", section, re.M)
    passing = re.search(r"^\*\*Also checked in passing.*$", section, re.M)
    return outcomes, re.findall(r"\[([a-z0-9-]+)\]\(\.\./scenarios/", passing[0]) if passing else []


def test_floor_1_lists_the_turn_order_scenario_only_as_checking_it_in_passing(corpus):
    spec, gallery = corpus
    about = {scenario.id: scenario.rules[0] for scenario in gallery.scenarios}
    assert about["edge-turns-around-four-players"] == "OFFER-1"  # its floor line is checked: B B B, then M
    section = _section(spec, gallery, "FLOOR-1")
    outcomes, passing = _listed(section)
    assert "floor-fills-left-to-right" in outcomes and "edge-turns-around-four-players" not in outcomes
    assert "edge-turns-around-four-players" in passing
    assert "turn passes" not in section  # its title states OFFER-1's outcome, not the floor line's
    line = re.search(r"^\*\*Also checked in passing.*$", section, re.M)[0]
    assert re.search(r"\[edge-turns-around-four-players\]\([^)]*\) \(about \[OFFER-1\]\([^)]*#OFFER-1\)\)", line)


def test_every_rule_lists_its_own_scenarios_as_outcomes_and_the_others_in_passing(corpus):
    spec, gallery = corpus
    about = {scenario.id: scenario.rules[0] for scenario in gallery.scenarios}
    listing = gallery.by_rule()
    for rule in spec.rules:
        outcomes, passing = _listed(_section(spec, gallery, rule.id))
        assert all(about[sid] == rule.id for sid in outcomes), rule.id
        assert all(about[sid] != rule.id for sid in passing), rule.id
        assert sorted(outcomes + passing) == sorted(sid for sid, *_ in listing.get(rule.id, [])), rule.id


def test_a_rule_s_smallest_scenario_is_one_about_it(corpus):
    spec, gallery = corpus
    about = {scenario.id: scenario.rules[0] for scenario in gallery.scenarios}
    names = [docgen_scenarios.anchor(scenario) for scenario in gallery.scenarios]
    pictures = {f"scenarios/boards/{name}-{when}.svg": "<svg/>" for name in names for when in ("given", "after")}
    smallest = generate._smallest_pictured(gallery, pictures)
    assert {rule_id: about[picture[0]] for rule_id, picture in smallest.items()} == {r: r for r in smallest}
    assert "FLOOR-1" in smallest
