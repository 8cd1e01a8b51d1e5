"""Protocol v1 messages: wire names from the classes, and both directions valid against the published schema."""

from __future__ import annotations

import json
import sys

import pytest

from azul_conformance.engines import messages as msg
from azul_conformance.engines.subprocess import ProcessEngine


def test_wire_names_come_from_the_classes():
    assert [cls.cmd() for cls in msg.REQUESTS.values()] == [
        "hello", "new_game", "deal", "load_state", "legal_moves", "play", "state", "play_game", "quit"]
    assert msg.Play("3K4").to_json(7) == {"id": 7, "cmd": "play", "move": "3K4"}
    assert msg.Quit().to_json(None) == {"cmd": "quit"}
    assert msg.Deal().to_json(2) == {"id": 2, "cmd": "deal"}  # no factories: the engine deals itself


def test_every_schema_definition_is_described():
    protocol, _ = msg.schemas()

    def walk(node, where):
        if isinstance(node, dict):
            if "properties" in node:
                for name, field in node["properties"].items():
                    assert "description" in field or "$ref" in field, f"{where}.{name} has no description"
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    walk(protocol, "protocol")
    assert all("description" in d for d in protocol["$defs"].values())


def test_requests_built_here_are_valid():
    state = None
    with ProcessEngine(f"{sys.executable} -c 'from azul_conformance.cli import main; main()' serve") as engine:
        state = engine.new_game(2)
    for request in (msg.Hello().to_json(1), msg.NewGame(3, "grey", 2).to_json(2),
                    msg.Deal(["BBRK", "", "", "", ""]).to_json(3), msg.LoadState(state).to_json(4),
                    msg.LegalMoves().to_json(5), msg.Play("CBF").to_json(6), msg.State().to_json(7),
                    msg.PlayGame(2, "grey", 1, [["BBRK", "", "", "", ""], "1B2", "2@3"], [0, 3], True).to_json(8),
                    msg.Quit().to_json(None)):
        assert msg.schema_problems(request, "request") == [], request


def test_bad_requests_are_refused_by_the_schema():
    assert msg.schema_problems({"id": 1, "cmd": "play", "move": "3K9"}, "request")
    assert msg.schema_problems({"id": 1, "cmd": "new_game", "players": 5}, "request")
    assert msg.schema_problems({"cmd": "hello", "protocol": 1}, "request")  # no id


def test_reference_server_replies_are_valid_and_pass_the_cheap_check():
    from io import BytesIO, StringIO

    from azul_conformance.engines.reference import serve_protocol

    requests = [msg.Hello().to_json(1), msg.NewGame(2).to_json(2), msg.Deal().to_json(3),
                msg.LegalMoves().to_json(4), msg.Play("CBF").to_json(5), msg.State().to_json(6),
                msg.PlayGame(2, "colour", 0, [["BBRK", "YYKW", "RRRW", "BYKW", "KKWW"], "1B1", "1B1"], [0, 2],
                             True).to_json(7)]
    out = StringIO()
    serve_protocol(BytesIO("".join(json.dumps(r) + "\n" for r in requests).encode()), out, seed=1)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = ["hello", "state", "state", "moves", "state", "state", "game"]
    for request, reply, kind in zip(requests, replies, kinds):
        assert msg.schema_problems(reply, "reply") == [], reply
        assert msg.check_reply(reply, request, kind) is None
    assert replies[4]["ok"] is False and replies[4]["error"]["code"] == "illegal_move"
    assert replies[6]["played"] == 2 and replies[6]["refused"]["code"] == "illegal_move"  # factory 1 is empty


@pytest.mark.parametrize("reply, problem", [
    ({"id": 2, "ok": True, "state": {}}, "does not echo"),
    ({"id": 1, "ok": "yes"}, "`ok` must be"),
    ({"id": 1, "ok": True, "moves": "1B1"}, "`moves` must be a list"),
    ({"id": 1, "ok": False, "error": {"code": "oops"}}, "is not one of"),
    ({"id": 1, "ok": False, "error": {"code": "illegal_move", "rule": None}}, "error.rule must be a string"),
    ([1, 2], "expected a JSON object"),
])
def test_the_cheap_check_names_the_problem(reply, problem):
    assert problem in msg.check_reply(reply, {"id": 1}, "moves")


@pytest.mark.parametrize("reply, problem", [
    ({"id": 1, "ok": True, "played": -1, "states": []}, "`played` must be a count"),
    ({"id": 1, "ok": True, "played": 2, "states": {}}, "`states` must be a list"),
    ({"id": 1, "ok": True, "played": 2, "states": [], "moves": [["1B1"], "1B2"]}, "`moves` must be a list of strings"),
    ({"id": 1, "ok": True, "played": 2, "states": [], "refused": {"code": "nope"}}, "is not one of"),
])
def test_the_cheap_check_of_a_play_game_reply(reply, problem):
    assert problem in msg.check_reply(reply, {"id": 1}, "game")


def _state(**changes):
    import azul_reference as ref

    state = ref.to_state(ref.Game(2))
    state.update(changes)
    return state


def _five_players():
    import azul_reference as ref

    state = _state(players=5, factories=[""] * 11, turn=4)
    state["boards"] = ref.to_state(ref.Game(4))["boards"] + [dict(ref.to_state(ref.Game(4))["boards"][0])]
    return state


@pytest.mark.parametrize("state", [
    _state(boards=[dict(_state()["boards"][0], score=-3), _state()["boards"][1]]),  # SCORE-5 read as PT does
    _state(factories=["BBYYRRKK", "", "", "", ""]),  # DEAL-1: a deal accepted in the middle of the offer
])
def test_a_reply_breaking_a_rule_bound_is_well_formed_and_left_to_the_suite(state):
    # a bound marked x-rule in the state schema is the game's: the engine misreads that rule (the suite judges
    # it, the diagnosis names it); a malformed reply would make the case a crash, the engine's fault
    assert msg.check_reply({"id": 1, "ok": True, "state": state}, {"id": 1}, "state") is None
    # a state file keeps every bound: it must be a position of the game
    from azul_conformance.schemas import validator

    assert list(validator("state.schema.json").iter_errors(state))


def test_five_players_are_well_formed_on_the_wire():
    assert msg.check_reply({"id": 1, "ok": True, "state": _five_players()}, {"id": 1}, "state") is None


@pytest.mark.parametrize("change, problem", [
    ({"bag": "YB"}, "state.bag must match pattern"),  # the notation's order
    ({"round": 0}, "state.round must be bigger than or equal to 1"),  # no x-rule: a bound of the notation
    ({"extra": 1}, "must not contain"),
])
def test_the_notation_s_own_bounds_still_make_a_reply_malformed(change, problem):
    found = msg.check_reply({"id": 1, "ok": True, "state": _state(**change)}, {"id": 1}, "state")
    assert found and problem in found, found


def test_every_rule_bound_of_the_state_schema_names_a_rule_of_the_spec():
    from azul_conformance.schemas import BOUNDS, schema
    from azul_conformance.spec_data import rule_titles

    marked = []

    def walk(node):
        if isinstance(node, dict):
            if "x-rule" in node:
                marked.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema("state.schema.json"))
    titles = rule_titles()
    assert len(marked) >= 6
    for node in marked:
        assert node["x-rule"] in titles and any(bound in node for bound in BOUNDS), node
