"""When a record and our rules part ways, the replay names the step, the rule that decides it and both values.

The records are the first two rounds of the two-player sample, whose scores were worked out by hand (see
test_records_replay.py and the comments in two-player.azr): after round 1 Ana 3, Ben 0 (2 - 4 clamped);
after round 2 Ana 6 (3 + B 2 + W 2+2 + Y 1 - floor MYY 4), Ben 6 (R 2+2 + two lone R). Each wrong claim
below is what a plausible other reading of one rule gives, worked out from those items.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from positions import board, coloured_row, game

from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.engines.reference import play_logged_game
from azul_conformance.records import ReplayError, parse_record, replay, sample_paths
from azul_conformance.records.explain import explain_game_over
from azul_reference import to_state

HEAD = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n'
ROUND_1 = "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 1B1 3R4 3. 5W5 CK1 4. CW2 CR3 5. CY4\n"
ROUND_2 = "round 2 deal BBKW YWWW YYRR BRKK YRKW\n1. 3R4 1B2 2. 4R1 2W3 3. 5R3 CW5 4. CK5 CY4 5. CB2\n"


def _disagreement(text: str):
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text, "game.azr"), text=text)
    assert caught.value.disagreement is not None, str(caught.value)
    return caught.value.disagreement


def test_a_score_below_zero_is_the_clamp_read_the_other_way():
    # Ben, round 1: K 1 + Y 1 - floor MKK (1 + 1 + 2) = -2; SCORE-5 makes it 0.
    found = _disagreement(HEAD + ROUND_1 + "[%score 3 -2]\n")
    assert found.rule == "SCORE-5"
    assert (found.ours, found.record) == ("3 0", "3 -2")
    assert found.where == "the tiling of round 1" and found.pos.line == 5
    assert "  -2 becomes 0 (SCORE-5)" in found.detail


def test_a_marker_that_costs_nothing_and_a_free_first_space_both_explain_it_and_all_at_once_does_not():
    # Ana, round 2: without the marker's space the floor YY costs 2: 3 + 7 - 2 = 8 (FLOOR-4). The marker lies in
    # the first floor space, so "the first space costs nothing" (FLOOR-3 misread) gives 8 as well, and in round 1
    # the same: both misreadings play the record through to 8 6, and both are named. Scoring round 2's tiles
    # against the finished wall would give 8 too, but an engine reading SCORE-3 so scores round 1 so as well:
    # Ana's B (row 1) and W (row 2, under it) are 2 + 2, 4 after round 1 and 9 after round 2, not the record's
    # 8. The record is replayed whole under each misreading, so SCORE-3 does not explain it. (Other readings that
    # replay it to 8 6 as well may be named first: the catalogue's order decides which leads.)
    found = _disagreement(HEAD + ROUND_1 + ROUND_2 + "[%score 8 6]\n")
    named = " ".join(found.detail[-2:])
    assert found.detail[-2].startswith("misreading: ")
    assert "FLOOR-3: The first floor space costs nothing" in named
    assert "FLOOR-4: The marker on the floor costs nothing" in named and "SCORE-3" not in named
    assert "  floor MYY: -4 (FLOOR-3, FLOOR-4)" in found.detail


def test_a_tile_counted_once_in_both_runs_is_score_2():
    # W (Ana) and R (Ben) each have a run of 2 both ways: 4 each by SCORE-2, 3 if the tile counted once.
    found = _disagreement(HEAD + ROUND_1 + ROUND_2 + "[%score 5 5]\n")
    assert found.rule == "SCORE-2" and (found.ours, found.record) == ("6 6", "5 5")


def test_a_score_no_reading_explains_is_itemized_without_a_rule():
    found = _disagreement(HEAD + ROUND_1 + ROUND_2 + "[%score 6 40]\n")
    assert found.rule is None
    assert found.detail[0] == "seat 1: 0 before the tiling"  # only the seat in dispute is itemized
    assert any("R to wall row 1, column 3: +4" in line for line in found.detail)


def test_a_run_that_wraps_from_one_wall_row_into_the_next_is_a_reading_of_score_2():
    # Ben, round 2 (tiled top to bottom): R to row 3, column 5 (+1), then R to row 4, column 1 (+1): 6. An engine
    # that holds the wall as one list of 25 spaces and scans a run while the index stays in the list reads row 3's
    # last space as the left neighbour of row 4's first: that R scores a run of 2, and Ben has 7
    found = _disagreement(HEAD + ROUND_1 + ROUND_2 + "[%score 6 7]\n")
    assert found.rule == "SCORE-2" and (found.ours, found.record) == ("6 6", "6 7")
    assert found.detail[-1].startswith("misreading: SCORE-2: I keep the wall as one list of 25 spaces")


def test_a_wrong_start_player_is_round_2():
    found = _disagreement(HEAD + ROUND_1 + "round 2 deal BBKW YWWW YYRR BRKK YRKW [%start 0]\n1. 3R4\n")
    assert found.rule == "ROUND-2"  # Ben took the marker (CK1) in round 1, so Ben (seat 1) starts round 2
    # seat 0 starting again is also what a marker left in the centre (OFFER-4 misread) gives: listed
    assert found.detail[-2].startswith("misreading: ROUND-2: ")
    assert found.detail[-1].startswith("other misreadings that give the record's values too: ")
    assert "OFFER-4: The first take from the centre leaves the marker there" in found.detail[-1]
    assert (found.ours, found.record) == ("seat 1 starts round 2", "seat 0 starts round 2")


def test_an_illegal_move_is_refused_with_the_rule_the_engine_names():
    # Ana's pattern line 3 holds B after 4B3: red cannot join it (OFFER-8).
    text = HEAD + "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 3R3\n"
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text, "game.azr"), text=text)
    error = caught.value
    assert str(error).startswith("game.azr:5:15: take 3R3 (round 1, take 3, seat 0) is refused by the engine")
    assert error.rule == "OFFER-8" and error.disagreement.rule == "OFFER-8"
    assert error.disagreement.record == "plays it" and error.disagreement.ours.startswith("refused: 3R3")


def test_a_declared_rule_difference_explains_the_disagreement_and_the_command_exits_0(tmp_path):
    text = HEAD + '[%differs "SCORE-5" "this club lets scores go below zero"]\n' + ROUND_1 + "[%score 3 -2]\n"
    found = _disagreement(text)
    assert found.rule == "SCORE-5" and found.declared == "this club lets scores go below zero"
    path = tmp_path / "club.azr"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(replay_command, [str(path)])
    assert result.exit_code == 0
    assert "rule:   SCORE-5 (No score below zero)" in result.stderr
    assert "explained: the record declares that its source differs on SCORE-5" in result.stderr
    undeclared = tmp_path / "plain.azr"
    undeclared.write_text(HEAD + ROUND_1 + "[%score 3 -2]\n", encoding="utf-8")
    assert CliRunner().invoke(replay_command, [str(undeclared)]).exit_code == 1


def test_a_game_that_goes_on_after_ours_ended_names_the_end_rule():
    # The two-player sample ends on a complete wall row (END-1); a record that deals one more round disagrees.
    path = next(p for p in sample_paths() if p.name == "two-player.azr")
    text = path.read_text(encoding="utf-8").replace('[Result "1-0"]\n', "")
    text += "\nround 6 deal BBYR YYKW RRKW BBBK YRWW\n"
    found = _disagreement(text)
    assert found.rule == "END-1" and found.where == "the deal of round 6"
    assert found.ours.startswith("the game ended after round 5: a complete wall row (seat 0: 1")
    assert found.record == "round 6 is dealt and played"


def test_a_truncated_record_is_located():
    text = HEAD + '[Result "1-0"]\n' + ROUND_1
    with pytest.raises(ReplayError) as caught:
        replay(parse_record(text, "cut.azr"), text=text)
    assert str(caught.value).startswith("cut.azr:4:1: Result '1-0' is given, but the record stops before the game "
                                        "is over")


def test_a_game_from_which_no_row_can_be_completed_goes_on():
    # A random grey-wall game (the seed from test_cli_simulate.py) reaches, in round 11, a position from which
    # no row can be completed any more. The rules deal on while a tile is left (ROUND-1, DEAL-3; END-8 ends a
    # game only when a deal would find no tile at all), so it is still going in round 21.
    states, _ = play_logged_game(2, "grey", 1656683489570421415, 20)
    assert states[-1]["phase"] == "deal" and states[-1]["round"] == 21


def test_a_game_that_ended_with_no_tile_to_deal_names_end_8():
    # Four walls lacking only blue, all 20 blue tiles on unfinished lines, bag and lid empty: seat 0's last take
    # (the yellow to its line 1) leaves no tile at all for the next deal, and END-8 ends the game after round
    # 6. A record that deals a 7th round disagrees by END-8.
    boards = [board(score=30, lines={2: "B", 5: "BBBB"}, wall=[coloured_row(1, "RKW")] + [coloured_row(r, "YRKW")
                                                                                         for r in range(2, 6)])]
    boards += [board(score=s, lines={2: "B", 5: "BBBB"}, wall=[coloured_row(r, "YRKW") for r in range(1, 6)])
               for s in (40, 50, 45)]
    g = game(players=4, round=6, start_player=2, turn=0, centre="Y", boards=boards)
    g.play("CY1")
    state = to_state(g)
    assert state["phase"] == "over" and all("." in row for b in state["boards"] for row in b["wall"])
    found = explain_game_over(state, 7, None, {})
    assert found.rule == "END-8" and found.where == "the deal of round 7"
    assert found.ours == "the game ended after round 6: no tile was left to deal (bag and lid empty)"


def test_a_wrong_board_claim_goes_back_to_the_take_that_made_the_value():
    # Factory 4 is BBBK: 4B3 puts its three B on Ana's pattern line 3, which holds three (BBB); 2Y2 is Ben's.
    # A record that says "KKK" parts ways at 4B3, the take that filled the line (OFFER-7); no reading gives it.
    text = HEAD + "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 [%lines 0 \"-|-|KKK|-|-\"]\n"
    found = _disagreement(text)
    assert found.rule == "OFFER-7" and found.where == "take 4B3 of round 1"
    assert (found.ours, found.record) == ("-|-|BBB|-|-", "-|-|KKK|-|-") and found.pos.line == 5
    # "BB" parts ways there too, and a reading gives it: the chosen colour removed from the factory (B B B K)
    # inside a loop over it, each removal sliding the next B under the loop's index, takes 2 of the 3
    found = _disagreement(text.replace("KKK", "BB"))
    assert found.rule == "OFFER-2" and found.where == "take 4B3 of round 1"
    assert found.detail[-1].startswith("misreading: OFFER-2: My factory is a list of tiles sorted by colour")


def test_a_score_claimed_after_rounds_without_claims_says_it_may_have_parted_earlier():
    # No claim after round 1; after round 2 the record says 6 40 where the rules give 6 6 (no reading gives it).
    found = _disagreement(HEAD + ROUND_1 + ROUND_2 + "[%score 6 40]\n")
    assert found.rule is None
    assert found.where == "the tiling of round 2 or an earlier one (the record claims no score after round 1)"
