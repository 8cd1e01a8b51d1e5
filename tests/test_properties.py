"""Property-based conformance: the reference passes; engines with a planted fault fail under the right rule,
and the minimal failing game is written as a scenario the scenario loader accepts."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_conformance.engines.base import Capabilities, Rejected
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.properties import PROPERTIES, run_property
from azul_conformance.properties import strategies
from azul_conformance.properties.canonical import deal_problems, draw_deal, tile_counts
from azul_conformance.properties.invariants import moves_problems, state_problems

BY_ID = {p.id: p for p in PROPERTIES}


def run(engine, prop_id, examples=15, folder=None):
    return run_property(engine, BY_ID[prop_id], engine.info.capabilities, examples, seed=5,
                        reference=ReferenceEngine(5), counterexample_dir=folder)


@pytest.mark.parametrize("prop_id", sorted(BY_ID))
def test_the_reference_passes_every_property(prop_id):
    outcome = run(ReferenceEngine(1), prop_id, examples=10)
    assert outcome.verdict == "pass", outcome.message


class FloorOverflowKept(ReferenceEngine):
    """Tiles that reach the lid during the offer vanish from its state."""

    def play(self, move):
        state = super().play(move)
        if state["lid"] and state["phase"] == "offer":
            state = dict(state, lid="")  # tiles vanish
        return state


class MarkerForgotten(ReferenceEngine):
    """Never gives the marker: its floors never show M."""

    def play(self, move):
        state = super().play(move)
        if state["phase"] == "offer" and state["marker"] != "centre":
            boards = [dict(b, floor=b["floor"].replace("M", "")) for b in state["boards"]]
            state = dict(state, marker="centre", boards=boards)
            self.load_state(state)
        return state


class AcceptsEmptyTakes(ReferenceEngine):
    """Lists and accepts a take of a colour the factory does not hold (OFFER-6), as a no-op that passes."""

    def legal_moves(self):
        moves = super().legal_moves()
        state = self.state()
        if state["phase"] == "offer":
            for i, tiles in enumerate(state["factories"]):
                if tiles and "B" not in tiles:
                    moves.append(f"{i + 1}BF")
        return moves


def test_vanishing_tiles_break_setup_4(tmp_path):
    outcome = run(FloorOverflowKept(1), "property-invariants", examples=30, folder=tmp_path)
    assert outcome.verdict == "fail" and outcome.rule == "SETUP-4"
    path = outcome.counterexample
    assert path == str(tmp_path / "property-invariants.yaml")
    from azul_conformance.scenario import load_scenarios

    scenario, = load_scenarios([path])
    assert scenario.rules == ("SETUP-4",) and scenario.steps


def test_forgotten_marker_fails_the_takes_differential_under_offer_5():
    outcome = run(MarkerForgotten(1), "differential-takes")
    assert outcome.verdict == "fail" and outcome.rule == "OFFER-5"
    # shrunk: the game ends at the first take from the centre
    assert outcome.details["game"]["steps"][-1]["move"].startswith("C")


def test_listing_empty_takes_fails_legal_moves_under_offer_6():
    outcome = run(AcceptsEmptyTakes(1), "differential-legal-moves")
    assert outcome.verdict == "fail" and outcome.rule == "OFFER-6"
    assert len(outcome.details["game"]["steps"]) == 1  # shrunk to the first position: the deal only


def test_listed_but_refused_move_is_caught():
    outcome = run(AcceptsEmptyTakes(1), "property-listed-moves-accepted")
    assert outcome.verdict == "fail" and "refused" in outcome.message


def test_invariants_on_hand_made_states():
    engine = ReferenceEngine()
    state = engine.new_game(2)
    assert state_problems(state) == []
    broken = dict(state, bag=state["bag"][1:])
    assert [rule for rule, _ in state_problems(broken)] == ["SETUP-4"]
    board = dict(state["boards"][0], lines=["BY", "", "", "", ""], score=-1)
    rules = {rule for rule, _ in state_problems(dict(state, boards=[board, state["boards"][1]]))}
    assert {"OFFER-7", "OFFER-8", "SCORE-5"} <= rules
    assert moves_problems(dict(state, phase="offer"), ["1B1", "1B1"])[0][0] == "OFFER-15"


def test_our_deals_are_drawable_and_bad_ones_are_named():
    engine = ReferenceEngine()
    state = engine.new_game(3)
    factories = draw_deal(state, random.Random(3))
    after = engine.deal(factories)
    assert deal_problems(state, after) == []
    cheat = dict(after, factories=["BBBB"] * 7)  # 28 blue tiles: there are 20
    assert deal_problems(state, cheat)[0][0] == "DEAL-1"
    with pytest.raises(Rejected):
        ReferenceEngine().load_state(dict(state, phase="offer"))


@settings(max_examples=40, deadline=None)
@given(strategies.positions())
def test_positions_are_real_positions_that_load_unchanged(state):
    assert tile_counts(state) == Counter({colour: 20 for colour in "BYRKW"})
    assert ReferenceEngine().load_state(state) == state


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_deals_are_drawable_and_accepted(data):
    state = data.draw(strategies.positions(phase="deal"))
    assert state["phase"] == "deal"
    factories = data.draw(strategies.deals(state))
    engine = ReferenceEngine()
    engine.load_state(state)
    after = engine.deal(factories)
    assert after["factories"] == factories and deal_problems(state, after) == []


@settings(max_examples=15, deadline=None)
@given(strategies.positions(Capabilities(variants=("grey",)), phase="tiling"))
def test_positions_can_stop_at_a_pending_grey_placement(state):
    engine = ReferenceEngine()
    engine.load_state(state)
    assert state["phase"] == "tiling" and all("@" in move for move in engine.legal_moves())


def test_a_property_failure_names_the_request_and_the_game(tmp_path):
    outcome = run(MarkerForgotten(1), "differential-takes", folder=tmp_path)
    move = outcome.details["game"]["steps"][-1]["move"]
    assert outcome.request == {"cmd": "play", "move": move}
    assert f"(request: play {move}, step " in outcome.message and "-player colour game" in outcome.message
    assert outcome.counterexample and Path(outcome.counterexample).exists()


def test_the_round_cap_is_a_limit_of_the_harness_not_a_failure(monkeypatch):
    from azul_conformance.properties import play

    monkeypatch.setattr(play, "MAX_ROUNDS", 1)  # every game is stopped after its first round
    outcome = run(ReferenceEngine(1), "property-game-ends", examples=3)
    assert outcome.verdict == "pass" and outcome.details["capped"] == 3
    assert "3 stopped at the harness's cap" in outcome.message and "not a verdict on the engine" in outcome.message


@pytest.mark.parametrize("mutant_id, prop_id, rule, level", [
    ("round-unclaimed-next-seat", "targeted-no-centre-take", "ROUND-3", "ruling"),  # nobody took the marker
    ("round-seat-after-holder", "differential-next-round", "ROUND-2", "rule"),      # the holder does not start
    ("floor-full-marker-stays", "targeted-full-floor-marker", "FLOOR-5", "ruling"),  # the marker onto a full floor
    ("floor-full-marker-bumps-tile", "targeted-full-floor-marker", "FLOOR-5", "ruling"),
])
def test_a_failure_on_our_ruling_is_named_by_the_ruling(mutant_id, prop_id, rule, level):
    """Who starts after a round without a centre take is our ruling ROUND-3, not the rulebooks' ROUND-2, and the
    marker taken onto a full floor is our ruling FLOOR-5, not OFFER-5: an engine that reads them otherwise must
    not be reported as breaking the rulebooks."""
    from azul_conformance.harness.findings import judge
    from azul_conformance.mutants import BY_ID as MUTANTS
    from azul_conformance.mutants.patching import MutantEngine

    outcome = judge(run(MutantEngine(MUTANTS[mutant_id], 5), prop_id, examples=20))
    assert (outcome.verdict, outcome.rule, outcome.level) == ("fail", rule, level), outcome.message


def test_a_property_plays_the_same_games_whatever_modules_are_loaded(tmp_path, monkeypatch):
    """Hypothesis now and then draws literal constants from the "local" modules loaded (outside site-packages),
    so the games a property played depended on how the suite was installed and on what the run had imported
    before (after a failure, the counterexample writer). The properties play the same games for a seed anyway:
    here a module full of numbers the plans could draw (seeds, move choices) is loaded between two runs."""
    import importlib.util
    import sys

    from azul_conformance.properties import suite

    plans: list = []
    walk = suite.walk

    def spy(engine, plan, watchers, give_deals):
        plans.append(plan)
        return walk(engine, plan, watchers, give_deals)

    monkeypatch.setattr(suite, "walk", spy)
    prop = next(p for p in PROPERTIES if p.id == "property-invariants")
    engine = ReferenceEngine(0)

    def played() -> list:
        plans.clear()
        assert run_property(engine, prop, engine.info.capabilities, examples=12, seed=5).verdict.value == "pass"
        return list(plans)

    before = played()
    numbers = tmp_path / "many_numbers.py"
    numbers.write_text("NUMBERS = [" + ", ".join(str(7919 * k + 13) for k in range(1, 400)) + "]\n")
    spec = importlib.util.spec_from_file_location("many_numbers", numbers)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "many_numbers", module)
    spec.loader.exec_module(module)
    assert played() == before
