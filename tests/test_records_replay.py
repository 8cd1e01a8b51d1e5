"""Replaying records on the reference engine: samples, hand-worked scores, failures, and `azul replay`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.records import ReplayError, parse_record, replay, sample_paths

HEAD = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n'
# Round 1 of the two-player sample, planned by hand (see the comments in two-player.azr).
ROUND_1 = "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 1B1 3R4 3. 5W5 CK1 4. CW2 CR3 5. CY4\n"
ROUND_2 = "round 2 deal BBKW YWWW YYRR BRKK YRKW\n1. 3R4 1B2 2. 4R1 2W3 3. 5R3 CW5 4. CK5 CY4 5. CB2\n"
SVG = {"svg": "http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("path", sample_paths(), ids=lambda p: p.name)
def test_every_sample_replays_with_all_its_claims_true(path):
    text = path.read_text(encoding="utf-8")
    record = parse_record(text, str(path))
    result = replay(record, text=text)
    claims = text.count("[%")
    assert claims >= 5 and result.claims_checked == claims
    assert result.final["phase"] == "over"
    expected = [seat for seat, mark in enumerate(record.header("Result").split("-")) if mark == "1"]
    assert result.final["winners"] == expected


def test_the_first_two_rounds_of_the_two_player_sample_score_as_worked_out_by_hand():
    # Round 1. Ana: B alone on row 1 (1), W under it (column of 2: 2), B alone on row 3 (1), 1 floor tile (-1)
    # = 3. Ben: K alone (1), Y alone (1), floor M K K (-1 -1 -2): 2 - 4 clamps to 0.
    # Round 2 (Ben starts, holding the marker). Ana: B beside W (2), W with B right and B above (2 + 2),
    # Y alone (1), floor M Y Y (-4): 3 + 7 - 4 = 6. Ben: R with K right and Y below (2 + 2), two lone R (2): 6.
    states = replay(parse_record(HEAD + ROUND_1 + ROUND_2)).states
    after_round_1 = next(s for s in states if s["round"] == 2)
    assert [b["score"] for b in after_round_1["boards"]] == [3, 0]
    assert after_round_1["start_player"] == 1
    assert after_round_1["boards"][0]["wall"] == ["B....", "W....", "..B..", ".....", "....."]
    final = states[-1]
    assert [b["score"] for b in final["boards"]] == [6, 6]
    assert final["boards"][1]["wall"] == ["..RK.", "..Y..", "....R", "R....", "....."]
    assert final["start_player"] == 0 and final["round"] == 3


def _replay_error(text: str) -> ReplayError:
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text, "game.azr"), text=text)
    return caught.value


def test_a_wrong_claim_stops_the_replay_naming_the_claim_and_the_truth():
    error = _replay_error(HEAD + ROUND_1 + "[%score 3 1]\n")
    assert str(error).startswith("game.azr:6:1: claim [%score 3 1] after CY4 is wrong: the scores are 3 0 "
                                 "(seat 1: claimed 1, actual 0)")
    assert error.state["round"] == 2 and error.state["phase"] == "deal"


def test_an_illegal_move_names_the_move_the_seat_and_the_rule():
    # Ben's pattern line 2 holds yellow from 2Y2: red cannot join it.
    error = _replay_error(HEAD + "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 1B1 3R2\n")
    assert error.rule == "OFFER-8"
    assert (error.pos.line, error.pos.column) == (5, 19)
    assert "take 3R2 (round 1, take 4, seat 1) is refused" in str(error)
    assert error.state["boards"][1]["lines"][1] == "YY"


def test_a_deal_that_the_bag_cannot_give_is_refused():
    # 20 blue tiles exist; 5 were dealt in round 1, so round 2 cannot deal 20 more.
    error = _replay_error(HEAD + ROUND_1 + "round 2 deal BBBB BBBB BBBB BBBB BBBB\n")
    assert error.rule == "DEAL-1" and error.pos.line == 6
    assert "the deal of round 2" in error.message


def test_a_round_that_starts_too_early_or_after_the_end_is_refused():
    early = _replay_error(HEAD + "round 1 deal BBYR YYKW RRKW BBBK YRWW\n4B3\nround 2 deal BBYR YYKW RRKW BBBK YRWW\n")
    assert "round 1 is not over: seat 1 still has to take" in early.message
    grey = HEAD.replace("colour", "grey")
    wrong_seat = _replay_error(grey + ROUND_1 + "tiling 1: 1@1\n")
    assert "it is seat 0 that places a tile here, not seat 1" in wrong_seat.message


def test_the_result_header_is_checked():
    text = HEAD + '[Result "1-0"]\n' + ROUND_1
    error = _replay_error(text)
    assert "stops before the game is over" in error.message and error.pos.line == 4
    sample = next(p for p in sample_paths() if p.name == "two-player.azr").read_text(encoding="utf-8")
    error = _replay_error(sample.replace('[Result "1-0"]', '[Result "0-1"]'))
    assert "Result '0-1' is wrong: the game gives '1-0'" in error.message


# -- the command ---------------------------------------------------------------------------------------------


def _run(*args: str):
    return CliRunner().invoke(replay_command, list(args), catch_exceptions=False)


def test_the_command_replays_a_sample_and_shows_the_table_after_each_round():
    path = next(p for p in sample_paths() if p.name == "two-player.azr")
    result = _run(str(path))
    assert result.exit_code == 0, result.output
    assert result.output.count("after round") == 5
    assert "20 claims checked: all correct" in result.output and "won by seat 0 (Ana)" in result.output
    assert "score 43" in result.output
    quiet = _run(str(path), "--quiet")
    assert quiet.output.strip().splitlines() == [result.output.strip().splitlines()[-1]]


BROKEN = {
    "truncated.azr": (HEAD + '[Result "1-0"]\n' + ROUND_1[:60]).encode(),
    "unknown-move.azr": (HEAD + "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 ZZ9\n").encode(),
    "wrong-deal.azr": (HEAD + "round 1 deal BBYR YYKW RRKW BBBK\n").encode(),
    "bad-header.azr": b'[Players "two"]\n',
    "binary.azr": bytes(range(256)) * 4,
    "wrong-claim.azr": (HEAD + ROUND_1 + "[%wall 0 \"B....|.....|.....|.....|.....\"]\n").encode(),
    "empty.azr": b"",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_records_fail_with_a_located_message_and_no_traceback(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BROKEN[name])
    result = _run(str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:")
    line_col = first[len(str(path)) + 1:].split(":")[:2]
    assert all(part.isdigit() for part in line_col), first


def test_a_failed_replay_shows_the_table_where_it_stopped(tmp_path):
    path = tmp_path / "claim.azr"
    path.write_bytes(BROKEN["wrong-claim.azr"])
    output = _run(str(path)).output
    assert "claim [%wall 0" in output and "seat 0's wall is 'B....|W....|..B..|.....|.....'" in output
    assert "The table at that point:" in output and "round 2" in output


def test_lenient_replay_lists_its_repairs(tmp_path):
    path = tmp_path / "sloppy.azr"
    path.write_text(HEAD + ROUND_1.lower().replace("round 1 deal", "deal"), encoding="utf-8")
    assert _run(str(path)).exit_code == 1
    result = _run(str(path), "--lenient", "--quiet")
    assert result.exit_code == 0, result.output
    assert f"{path}:4:1: missing `round 1` before the deal: inferred (repaired)" in result.stderr
    assert "(repaired)" in result.output and "all correct" in result.output


def test_json_output_is_the_sequence_of_states(tmp_path):
    record = tmp_path / "r.azr"
    record.write_text(HEAD + ROUND_1, encoding="utf-8")
    out = tmp_path / "states.json"
    assert _run(str(record), "--json", str(out), "-q").exit_code == 0
    states = json.loads(out.read_text(encoding="utf-8"))
    assert len(states) == 1 + 1 + 9  # the new game, the deal, nine takes
    assert states[0]["phase"] == "deal" and states[1]["factories"][0] == "BBYR"
    assert states == replay(parse_record(HEAD + ROUND_1)).states


def _tiles_on_table(state: dict) -> int:
    boards = state["boards"]
    return (sum(map(len, state["factories"])) + len(state["centre"])
            + sum(len("".join(b["lines"])) + sum(r.count(".") ^ 5 and 5 - r.count(".") for r in b["wall"])
                  + len(b["floor"].replace("M", "")) for b in boards))


def test_svg_output_draws_every_step_with_the_tiles_on_the_table(tmp_path):
    record = tmp_path / "r.azr"
    record.write_text(HEAD + ROUND_1, encoding="utf-8")
    folder = tmp_path / "frames"
    assert _run(str(record), "--svg", str(folder), "-q").exit_code == 0
    files = sorted(folder.iterdir())
    assert [f.name for f in files[:3]] == ["0000-start.svg", "0001-round1-deal.svg", "0002-round1-4B3.svg"]
    assert len(files) == 11
    states = replay(parse_record(HEAD + ROUND_1)).states
    # by hand: after the deal 20 tiles in the factories; after round 1 the walls hold 3 + 2 tiles and the
    # pattern lines YY, WW (Ana) and RR, RR (Ben) 8 more
    expected_counts = {1: 20, 10: 13}
    for index, (path, state) in enumerate(zip(files, states)):
        root = ET.fromstring(path.read_text(encoding="utf-8"))  # well-formed XML
        drawn = len(root.findall(".//svg:g[@class='tile']", SVG))
        assert drawn == _tiles_on_table(state), path.name
        if index in expected_counts:
            assert drawn == expected_counts[index], path.name
