"""The targeted properties reach their rare branches in the default run, pass on the reference engine, and
judge the wrong readings of those branches; their steered deals are drawable."""

from __future__ import annotations

import random

import pytest

import azul_reference as ref
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants import BY_ID, run_mutant
from azul_conformance.properties import PROPERTIES, run_property, targeted
from azul_conformance.properties.canonical import deal_problems, draw_deal

TARGETED = {p.id: p for p in PROPERTIES if p.id.startswith("targeted-")}


@pytest.fixture(scope="module")
def default_run() -> dict:
    """Each targeted property as `azul conform` runs it by default (50 examples asked, seed 0)."""
    engine = ReferenceEngine(0)
    return {pid: run_property(engine, prop, engine.info.capabilities, 50, seed=0) for pid, prop in TARGETED.items()}


def test_there_is_one_for_each_rare_branch_of_the_issue():
    assert set(TARGETED) == {"targeted-no-centre-take", "targeted-full-floor-marker", "targeted-bag-runs-out",
                             "targeted-end-ties", "targeted-grey-unfit-line"}


@pytest.mark.parametrize("prop_id", sorted(TARGETED))
def test_the_default_run_reaches_the_branch_and_passes_the_reference(default_run, prop_id):
    result = default_run[prop_id]
    assert result.verdict == "pass", result.message
    games, reached = result.details["examples"], result.details["reached"]
    assert games == TARGETED[prop_id].games  # a few short games, whatever --examples asks
    assert reached >= games // 2, f"{prop_id}: {reached} of {games} games reached the branch"
    assert f"reached in {reached} of {games}" in result.message


# The wrong readings of each rare branch, and the targeted property that must catch each.
CATCHES = {
    "targeted-no-centre-take": ["round-unclaimed-next-seat", "round-unclaimed-seat-0"],
    "targeted-full-floor-marker": ["floor-full-marker-stays", "floor-full-marker-bumps-tile"],
    "targeted-bag-runs-out": ["deal-no-refill", "deal-early-refill", "deal-lid-copied"],
    "targeted-end-ties": ["end-first-seat-wins-tie"],
    "targeted-grey-unfit-line": ["grey-unfit-line-to-lid", "grey-unfit-one-tile-to-floor"],
}


@pytest.mark.parametrize("prop_id,mutant_id", [(p, m) for p, ms in CATCHES.items() for m in ms])
def test_the_targeted_property_kills_the_wrong_readings_of_its_branch(prop_id, mutant_id):
    case = next(c for c in collect(Session(only=(prop_id,))).cases if c.id == prop_id)
    outcome = run_mutant(BY_ID[mutant_id], cases=[case])
    assert outcome.killed, f"{prop_id} lets {mutant_id} through"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_single_colour_deals_are_drawable(players):
    state = ref.to_state(ref.Game(players))
    for seed in range(20):
        drawn = draw_deal(state, random.Random(seed))
        for keep in (0, 2):
            arranged = targeted._monochrome(state, drawn, keep)
            game = ref.Game(players)
            game.deal(arranged)  # the reference refuses a deal the bag cannot give
            assert deal_problems(state, ref.to_state(game)) == []
            assert all(len(set(f)) == 1 for f in arranged[:len(arranged) - keep])


def test_a_steered_game_stops_once_its_branch_is_judged():
    steer = targeted.NoCentreTake()
    state = ref.to_state(ref.Game(2))
    steer.on_start(None, state)
    assert not steer.finished
    steer.hit(dict(state, round=1))
    assert steer.reached == 1 and not steer.finished  # the round that reached it is still to be judged
    steer.on_deal(None, state, dict(state, round=2), None)
    assert steer.finished
