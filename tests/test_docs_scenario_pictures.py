"""A scenario's pictures: its Given and the position after its steps on the same wall, on each wall it runs on."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_scenarios  # noqa: E402

from azul_conformance.scenario import load_scenarios  # noqa: E402


def test_given_and_after_are_drawn_on_the_same_wall():
    both = [s for s in load_scenarios() if len(s.variants) > 1 and s.given.reject is None and s.steps]
    assert len(both) > 100
    for scenario in both:
        before, after, note = docgen_scenarios.reference_states(scenario)
        assert before["variant"] == after["variant"] == scenario.variants[0], scenario.id
        assert f"Drawn on the {scenario.variants[0]} wall" in note


def test_a_scenario_run_on_both_walls_is_drawn_on_each():
    both = [s for s in load_scenarios() if len(s.variants) > 1 and s.given.reject is None and s.steps][:20]
    for scenario in both:
        for wall in scenario.variants:
            before, after, note = docgen_scenarios.reference_states(scenario, wall)
            assert before["variant"] == after["variant"] == wall, scenario.id
            assert "Drawn on" not in note
        pictures: dict[str, str] = {}
        text = "\n".join(docgen_scenarios._diagrams(scenario, pictures))
        names = sorted(path.rsplit("/", 1)[1] for path in pictures)
        first, other = scenario.variants
        slug = docgen_scenarios.anchor(scenario)
        assert names == sorted([f"{slug}-given.svg", f"{slug}-after.svg", f"{slug}-{other}-given.svg",
                                f"{slug}-{other}-after.svg"]), names
        assert f"Given, {first} wall" in text and f"Given, {other} wall" in text
        assert f"{first} wall" in pictures[f"scenarios/boards/{slug}-given.svg"]  # the picture's own label
        assert f"{other} wall" in pictures[f"scenarios/boards/{slug}-{other}-given.svg"]
