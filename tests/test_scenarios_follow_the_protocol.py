"""No scenario expects what the protocol schema forbids: every request a scenario makes is well formed
(spec/schema/protocol.schema.json), unless the scenario expects it refused as `bad_request`. Otherwise an
engine that follows the published contract would fail a scenario for doing so (a five-tile factory once
expected `illegal_move DEAL-1`, though the schema makes it malformed)."""

from __future__ import annotations

from azul_conformance.engines.messages import Deal, NewGame, Play, schema_problems
from azul_conformance.scenario.loader import load_scenarios


def requests(scenario):
    """(request, rejection, where) for every request the scenario makes that carries data of its own."""
    given = scenario.given
    if given.new_game is not None:
        game = given.new_game
        yield NewGame(game.players, game.variant, game.start_player), given.reject, given.where
    for step in scenario.steps:
        if step.kind == "deal":
            yield Deal(list(step.factories or ())), step.reject, step.where
        elif step.kind == "move":
            yield Play(step.move), step.reject, step.where


def test_every_request_a_scenario_makes_fits_the_schema_unless_it_expects_bad_request():
    wrong, malformed = [], 0
    for scenario in load_scenarios():
        for request, reject, where in requests(scenario):
            problems = schema_problems(request.to_json(1), "request")
            expects_bad_request = reject is not None and reject.code == "bad_request"
            malformed += bool(problems)
            if problems and not expects_bad_request:
                wrong.append(f"{where}: {scenario.id} expects {reject.code if reject else 'success'} for a request "
                             f"the protocol schema forbids: {problems[0]}")
    assert wrong == []
    assert malformed >= 2  # the five-tile factory and the five-player game, at least, are checked as malformed


def test_the_check_sees_a_five_tile_factory_as_malformed():
    assert schema_problems(Deal(["BBBBB", "YYYY", "RRRR", "KKKK", "WWW"]).to_json(1), "request")
    assert not schema_problems(Deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]).to_json(1), "request")
