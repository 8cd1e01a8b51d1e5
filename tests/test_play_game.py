"""protocol v1's optional `play_game`: a whole game in one request answers exactly as its single requests do,
on the reference server, in-process, and for an engine without it (Engine.play_game built from single requests).
"""

from __future__ import annotations

import sys

import pytest

from azul_conformance.engines.base import Capabilities
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.engines.subprocess import ProcessEngine
from azul_conformance.fuzz.batched import reference_game
from azul_conformance.fuzz.games import Mix, plan_for
from azul_conformance.properties.play import walk

SERVE = f"{sys.executable} -c 'import sys; from azul_conformance.cli import main; sys.exit(main())' serve"
MIX = Mix((2, 3, 4), ("colour", "grey"))


def single_requests(engine, players, variant, start, steps):
    """Every state (from the new game on) and the legal moves before each move, one request at a time."""
    states, lists = [engine.new_game(players, variant, start)], []
    for step in steps:
        if isinstance(step, str):
            lists.append(engine.legal_moves())
            states.append(engine.play(step))
        else:
            states.append(engine.deal(step))
    return states, lists


class StepByStep(ReferenceEngine):
    """The reference without its own play_game: the Engine interface's, made of single requests."""

    def play_game(self, *args, **kwargs):
        return super(ReferenceEngine, self).play_game(*args, **kwargs)


@pytest.fixture(scope="module")
def server():
    with ProcessEngine(SERVE) as engine:
        yield engine


def test_the_server_offers_play_game(server):
    assert server.info.capabilities.play_game
    assert not Capabilities.from_json({"players": [2], "variants": ["colour"], "load_state": True,
                                       "deal": True}).play_game  # absent: not offered


@pytest.mark.parametrize("index", [0, 1, 2, 3, 4, 5])
def test_one_request_answers_as_the_single_requests_do(server, index):
    plan = plan_for(9, index, MIX)
    script = reference_game(ReferenceEngine(), plan)
    states, lists = single_requests(ReferenceEngine(), plan.players, plan.variant, plan.start_player, script.steps)
    counts = sorted({0, 1, 5, len(script.steps) // 2, len(script.steps)})
    for engine in (server, ReferenceEngine(), StepByStep()):
        run = engine.play_game(plan.players, plan.variant, plan.start_player, script.steps, counts, moves=True)
        assert run.refused is None and run.played == len(script.steps)
        assert run.states == [states[n] for n in counts]
        assert [sorted(m.split()) for m in run.moves] == [sorted(m) for m in lists]
        assert engine.state() == states[-1]  # the engine's game is the one played


def test_a_refused_step_stops_the_game_there(server):
    deal = ["BBRK", "YYKW", "RRRW", "BYKW", "KKWW"]
    steps = [deal, "1B1", "2Y2", "1K3", "CRF"]  # factory 1 is empty after the first take: 1K3 is refused
    for engine in (server, ReferenceEngine(), StepByStep()):
        run = engine.play_game(2, "colour", 0, steps, [0, 2, 3, 4, 5], moves=True)
        assert run.played == 3 and run.refused.code == "illegal_move"
        assert len(run.states) == 3 and run.states[2]["turn"] == 0 and run.states[2]["centre"] != ""
        assert len(run.moves) == 3  # before 1B1, 2Y2 and the refused 1K3
        assert "1K3" not in run.moves[2].split() and "2Y2" in run.moves[1].split()
        assert engine.state() == run.states[2]  # a refused step leaves the game as it was


def test_a_malformed_play_game_is_a_bad_request(server):
    reply = server.send_raw(b'{"id": "x", "cmd": "play_game", "players": 2, "steps": [3]}')
    assert b'"bad_request"' in reply and b'"id":"x"' in reply


def test_the_reference_game_makes_the_choices_of_the_lockstep_walk():
    """The fast path (fuzz/batched.reference_game) beside the readable one (properties.play.walk)."""
    reference = ReferenceEngine()
    for index in range(60):
        plan = plan_for(4, index, MIX)
        trace = walk(reference, plan, [], give_deals=True)
        expected = [s["factories"] if s["kind"] == "deal" else s["move"] for s in trace.steps]
        script = reference_game(reference, plan)
        assert script.steps == expected, index
        assert script.counts[0] == 0 and script.counts[-1] == len(expected)
        assert all(isinstance(script.steps[n], list) for n in script.counts[:-1])  # a deal follows each count
