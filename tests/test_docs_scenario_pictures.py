"""A scenario's pictures are drawn on one wall: its Given and the position after its steps, the same wall."""

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
