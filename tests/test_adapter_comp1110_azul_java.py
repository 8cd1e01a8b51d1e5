"""The Java adapter for the third-party engine comp1110-azul (adapters/comp1110-azul-java): hello offers what the
engine's text interface plays, a short grey round and a coloured take go through the protocol with the results
worked out by hand from the rules, refusals leave the game unchanged, it passes `azul smoke`, and the engine's
known deviations show.

This project holds none of the engine's code: the live tests run where COMP1110_CLASSES names a class folder with
the engine and this adapter compiled, and skip elsewhere; the known deviations are checked on the committed
recording of its session everywhere else."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from adapter_runs import engine_or_recording, judged_report, live_engine, recorded, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
NEEDS = {"COMP1110_CLASSES": "a class folder with your copy of the engine's comp1110.ass2 classes and this adapter's"}
COMMAND = "java -Xss8m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp $COMP1110_CLASSES Adapter --seed 0"
RECORDING = ROOT / "docs" / "reports" / "comp1110-azul-java" / "recording.jsonl.gz"


@pytest.fixture(scope="module")
def built() -> str:
    return live_engine(NEEDS, COMMAND)


def talk(requests: list[dict]) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(shlex.split(live_engine(NEEDS, COMMAND)), input=lines, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def board(score=0, lines=("", "", "", "", ""), wall=(".....",) * 5, floor=""):
    return {"score": score, "lines": list(lines), "wall": list(wall), "floor": floor}


# Round 1 of a grey game, late in the offer: only one blue tile is left, in the centre; seat 1 took the marker.
# 100 tiles: that B, the M is no tile, 19 B and 20 of each other colour in the bag.
LAST_TAKE = {"format": "azul-state/1", "variant": "grey", "players": 2, "round": 1, "phase": "offer", "turn": 0,
             "start_player": 0, "marker": 1, "factories": [""] * 5, "centre": "B",
             "bag": "B" * 19 + "Y" * 20 + "R" * 20 + "K" * 20 + "W" * 20, "lid": "",
             "boards": [board(), board(floor="M")], "winners": None}


@pytest.mark.third_party
def test_hello_offers_two_players_on_both_walls(built):
    hello = talk([{"id": 1, "cmd": "hello", "protocol": 1}])[0]
    assert hello["ok"] and hello["capabilities"] == {"players": [2], "variants": ["colour", "grey"],
                                                      "load_state": True, "deal": True}
    refused = talk([{"id": 2, "cmd": "new_game", "players": 3, "variant": "grey"}])[0]
    assert refused["error"]["code"] == "unsupported"  # the engine's validator knows factories 0 to 4 only


@pytest.mark.third_party
def test_a_grey_round_ends_through_the_protocol(built):
    replies = talk([{"id": 1, "cmd": "load_state", "state": LAST_TAKE},
                    {"id": 2, "cmd": "play", "move": "CY1"},      # no yellow in the centre
                    {"id": 3, "cmd": "play", "move": "CB1"},      # the last take: line 1 is complete
                    {"id": 4, "cmd": "legal_moves"},
                    {"id": 5, "cmd": "play", "move": "1@3"}])
    assert [r["ok"] for r in replies] == [True, False, True, True, True]
    assert replies[1]["error"]["code"] == "illegal_move"
    pending = replies[2]["state"]
    assert (pending["phase"], pending["turn"], pending["boards"][0]["lines"][0]) == ("tiling", 0, "B")
    assert sorted(replies[3]["moves"]) == ["1@1", "1@2", "1@3", "1@4", "1@5"]  # any column of the empty row
    after = replies[4]["state"]
    # The B scores 1 (no neighbour); seat 1's floor holds only the marker: -1, clamped at 0 (SCORE-5); seat 1
    # holds the marker, so it starts round 2 (ROUND-2); the marker is back in the centre for the deal.
    assert after["boards"][0]["wall"][0] == "..B.." and after["boards"][0]["score"] == 1
    assert after["boards"][1] == board()
    assert (after["phase"], after["round"], after["start_player"], after["turn"], after["marker"]) == \
        ("deal", 2, 1, 1, "centre")
    assert after["lid"] == "" and len(after["bag"]) == 99


@pytest.mark.third_party
def test_a_refused_deal_and_a_refused_move_change_nothing(built):
    replies = talk([{"id": 1, "cmd": "new_game", "players": 2, "variant": "colour"},
                    {"id": 2, "cmd": "deal", "factories": ["BBBB", "BBBB", "BBBB", "BBBB", "BBBB"]},  # 20 B: fine
                    {"id": 3, "cmd": "new_game", "players": 2, "variant": "colour"},
                    {"id": 4, "cmd": "deal", "factories": ["BBBB"] * 5},
                    {"id": 5, "cmd": "play", "move": "1Y1"},       # factory 1 holds no Y
                    {"id": 6, "cmd": "state"}])
    assert all(r["ok"] for r in replies[:4]) and replies[4]["error"]["code"] == "illegal_move"
    assert replies[5]["state"] == replies[3]["state"]
    again = talk([{"id": 1, "cmd": "new_game", "players": 2, "variant": "colour"},
                  {"id": 2, "cmd": "deal", "factories": ["BBBB", "BBBB", "BBBB", "BBBB", "BBBY"]}])[1]
    assert again["ok"] and again["state"]["factories"][4] == "BBBY"
    too_many = talk([{"id": 1, "cmd": "new_game", "players": 2, "variant": "colour"},
                     {"id": 2, "cmd": "deal", "factories": ["BBBB"] * 5},
                     {"id": 3, "cmd": "deal"}])[2]
    assert too_many["error"] == {"code": "illegal_move", "rule": "DEAL-1", "message": "no deal is due in phase offer"}


@pytest.mark.third_party
def test_the_coloured_wall_is_tiled_on_the_printed_space(built):
    # Seat 0 completes line 3 with the R of factory 3; every other take goes to a floor. On the coloured wall R
    # goes to row 3, column (2 + 2) mod 5 + 1 = 5 (WALL-1) and scores 1, but seat 0's floor ends with 7 tiles
    # (YY, WWW, YY; the last B goes to the lid), -14, so its score stays at 0 (SCORE-5). Seat 1 took the marker
    # with the K of the centre and starts round 2.
    moves = ["3R3", "1BF", "2YF", "4KF", "5WF", "CKF", "CYF", "CWF", "CBF"]
    replies = talk([{"id": 1, "cmd": "new_game", "players": 2, "variant": "colour"},
                    {"id": 2, "cmd": "deal", "factories": ["BBYY", "YYKK", "RRRK", "KKWW", "BWWW"]},
                    *({"id": 3 + i, "cmd": "play", "move": move} for i, move in enumerate(moves))])
    assert all(r["ok"] for r in replies), replies
    state = replies[-1]["state"]
    assert (state["phase"], state["round"], state["start_player"]) == ("deal", 2, 1)
    assert state["boards"][0]["wall"][2] == "....R" and state["boards"][0]["score"] == 0
    assert state["boards"][0]["lines"] == ["", "", "", "", ""] and state["boards"][0]["floor"] == ""


@pytest.mark.third_party
def test_the_comp1110_adapter_passes_azul_smoke(built):
    assert "comp1110-azul" in smoke_output(built)


@pytest.mark.third_party
def test_the_engines_known_deviations_show(tmp_path):
    report = judged_report(engine_or_recording(NEEDS, COMMAND, RECORDING), "FLOOR-5,GREY-3,ROUND-3", tmp_path,
                           "--examples", "10", "--seed", "0")
    found = verdicts(report)
    assert found["floor-marker-with-full-floor"] == "fail"        # the marker swaps a floor tile into the lid
    assert found["grey-no-fitting-column-goes-to-floor"] == "fail"  # "line to floor" loses a tile
    assert found["round-marker-stays-in-centre"] == "fail"        # the start player follows the turn
    assert not [r for r in recorded(report) if r.verdict in ("error", "crash", "timeout", "not_run")]
