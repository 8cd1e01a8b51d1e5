"""Every catalogued misreading, served over protocol v1 (as `azul serve --misreading` does), plays what it
describes: whatever games reach, it answers each request with a state, a move list or a refusal naming a rule,
never an `internal` error (a misreading that raised inside the reference would be judged a crash, and the
diagnosis could not name it). Each reading plays a game on each wall at each table, one move in two sent to the
floor line so that full floors are reached. In-process, through the server's own request handling."""

from __future__ import annotations

import json
import random

import pytest

from azul_conformance.mutants import BY_ID
from azul_conformance.mutants.patching import applied
from azul_reference.protocol import Server, reply_to

STEPS = 400  # requests a game is given: more than a game of the rules takes, and a misreading may never end


def internal_errors(players: int, variant: str, seed: str) -> list[str]:
    """The `internal` errors met in one game, played by seeded chance with a bias to the floor line."""
    server, rng, found = Server(0), random.Random(seed), []

    def ask(**request):
        reply = reply_to(server, json.dumps({"id": 1, **request}).encode())
        if not reply["ok"] and reply["error"]["code"] == "internal":
            found.append(f"{request}: {reply['error']['message']}")
        return reply

    reply = ask(cmd="new_game", players=players, variant=variant)
    for _ in range(STEPS):
        if found or not reply["ok"] or reply["state"]["phase"] == "over":
            break
        if reply["state"]["phase"] == "deal":
            reply = ask(cmd="deal")
            continue
        listed = ask(cmd="legal_moves")
        if not listed["ok"] or not listed["moves"]:
            break
        floor = [move for move in listed["moves"] if move.endswith("F")]
        reply = ask(cmd="play", move=rng.choice(floor if floor and rng.random() < 0.5 else listed["moves"]))
    return found


@pytest.mark.parametrize("variant", ["colour", "grey"])
def test_every_misreading_served_answers_without_an_internal_error(variant):
    found = {}
    for mutant_id, mutant in BY_ID.items():
        with applied(mutant):
            for players in (2, 3, 4):
                errors = internal_errors(players, variant, f"{mutant_id}/{players}")
                if errors:
                    found[f"{mutant_id} ({players} players)"] = errors[0]
    assert not found, found


def test_a_tenth_factory_at_a_table_of_four_is_listed_and_played():
    """setup-factories-one-too-many sets out 10 factories for 4 players: its takes are listed (`10B1`, past the
    notation's 9) and played, where listing them raised IndexError."""
    server = Server(3)
    with applied(BY_ID["setup-factories-one-too-many"]):
        reply_to(server, b'{"id": 1, "cmd": "new_game", "players": 4}')
        state = reply_to(server, b'{"id": 2, "cmd": "deal"}')["state"]
        assert len(state["factories"]) == 10
        moves = reply_to(server, b'{"id": 3, "cmd": "legal_moves"}')["moves"]
        tenth = [move for move in moves if move.startswith("10")]
        assert tenth and all(move[2] in state["factories"][9] for move in tenth)
        played = reply_to(server, json.dumps({"id": 4, "cmd": "play", "move": tenth[0]}).encode())
        assert played["ok"] and played["state"]["factories"][9] == ""
