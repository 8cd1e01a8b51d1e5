"""The end of the game (END-1..8): when it ends, the bonuses, the winners.

Each case ends the offer the same way: the last seat to act takes factory 1's four black tiles (the last on the
table) to its empty pattern line 5, not complete, which changes nothing else on its board.
"""

from __future__ import annotations

import pytest
from positions import board, coloured_row, game, position

from azul_reference import IllegalDeal, IllegalMove, problems, to_state

ROW_1_BUT_WHITE = {1: coloured_row(1, "BYRK")}  # "BYRK.": line 1's white tile completes it


def finish(boards: list[dict], **overrides) -> dict:
    players = len(boards)
    g = game(players=players, factories=["KKKK"] + [""] * (2 * players), turn=players - 1, boards=boards,
             **overrides)
    g.play("1K5")
    return to_state(g)


def test_end_1_the_game_ends_after_the_tiling_that_completes_a_row():
    # Seat 0: white completes row 1: 5 across, nothing below: +5; floor -2; then +2 for the row: 10 + 5 - 2 + 2.
    two_tiles = {3: coloured_row(3, "B"), 4: coloured_row(4, "B")}  # 14 points need 2 wall tiles
    state = finish([board(score=10, lines={1: "W"}, wall=ROW_1_BUT_WHITE, floor="RR"),
                    board(score=14, wall=two_tiles)], round=6)
    assert state["phase"] == "over"
    assert state["boards"][0]["wall"][0] == "BYRKW"
    assert [b["score"] for b in state["boards"]] == [15, 14]
    assert state["winners"] == [0]
    assert state["round"] == 6  # no new round is prepared
    assert state["boards"][1]["lines"][4] == "KKKK"  # the other board was tiled as usual


def test_end_1_nothing_can_be_played_once_the_game_is_over():
    g = game(factories=["KKKK", "", "", "", ""], turn=1, boards=[board(lines={1: "W"}, wall=ROW_1_BUT_WHITE), board()])
    g.play("1K5")
    assert g.legal_moves() == []
    before = to_state(g)
    with pytest.raises(IllegalMove) as caught:
        g.play("1K1")
    assert caught.value.rule == "OFFER-15"
    with pytest.raises(IllegalDeal):
        g.deal(["BBBB"] * 5)
    assert to_state(g) == before


def test_end_2_two_points_per_complete_row():
    """Rows 1 and 2 both complete this round: white +5, then black (5 across, 2 down) +7; bonus 2 x 2."""
    state = finish([board(lines={1: "W", 2: "KK"}, wall={1: coloured_row(1, "BYRK"), 2: coloured_row(2, "WBYR")}),
                    board()])
    assert state["boards"][0]["wall"][:2] == ["BYRKW", "WBYRK"]
    assert state["boards"][0]["score"] == 12 + 4


def test_end_3_seven_points_per_complete_column():
    column_1 = {1: "B....", 2: "W....", 3: "K....", 4: "R....", 5: "Y...."}
    state = finish([board(score=20, wall=column_1), board(lines={1: "W"}, wall=ROW_1_BUT_WHITE)])
    assert [b["score"] for b in state["boards"]] == [20 + 7, 5 + 2]
    assert state["winners"] == [0]


def test_end_4_ten_points_per_colour_with_all_five_tiles():
    all_blue = {r: coloured_row(r, "B") for r in range(1, 6)}
    state = finish([board(score=20, wall=all_blue), board(lines={1: "W"}, wall=ROW_1_BUT_WHITE)])
    assert state["boards"][0]["score"] == 20 + 10


def test_end_2_3_4_a_whole_wall_completed_in_the_last_round():
    """Every row lacks its last column; lines 1-5 fill it, top to bottom.

    Each tile makes 5 across, plus the column built so far (1 alone does not count, then 2, 3, 4, 5):
    5 + 7 + 8 + 9 + 10 = 39. Bonuses: 5 rows x 2 + 5 columns x 7 + 5 colours x 10 = 95.
    """
    wall = {1: coloured_row(1, "BYRK"), 2: coloured_row(2, "WBYR"), 3: coloured_row(3, "KWBY"),
            4: coloured_row(4, "RKWB"), 5: coloured_row(5, "YRKW")}
    lines = {1: "W", 2: "KK", 3: "RRR", 4: "YYYY", 5: "BBBBB"}
    state = finish([board(lines=lines, wall=wall), board()])
    assert state["boards"][0]["wall"] == ["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB"]
    assert state["boards"][0]["score"] == 39 + 95
    assert state["lid"] == "BBBBYYYRRK"  # the leftovers of lines 2-5


def test_end_5_most_points_wins():
    state = finish([board(score=20, lines={1: "W"}, wall=ROW_1_BUT_WHITE),
                    board(score=21, lines={1: "W"}, wall=ROW_1_BUT_WHITE)])
    assert [b["score"] for b in state["boards"]] == [27, 28]
    assert state["winners"] == [1]


def test_end_6_a_tie_goes_to_the_most_complete_rows():
    # Seat 0: 10 + 12 + 2 x 2 = 26 with two rows; seat 1: 19 + 5 + 2 = 26 with one row.
    state = finish([board(score=10, lines={1: "W", 2: "KK"},
                          wall={1: coloured_row(1, "BYRK"), 2: coloured_row(2, "WBYR")}),
                    board(score=19, lines={1: "W"}, wall=ROW_1_BUT_WHITE)])
    assert [b["score"] for b in state["boards"]] == [26, 26]
    assert state["winners"] == [0]


def test_end_7_still_tied_the_victory_is_shared():
    twin = board(score=10, lines={1: "W"}, wall=ROW_1_BUT_WHITE)
    state = finish([twin, twin])
    assert [b["score"] for b in state["boards"]] == [17, 17]
    assert state["winners"] == [0, 1]


def test_end_5_6_7_more_rows_do_not_beat_more_points():
    """Three players: seats 0 and 1 tie on 27 with one row; seat 2 has two rows but only 16 points."""
    state = finish([board(score=20, lines={1: "W"}, wall=ROW_1_BUT_WHITE),
                    board(score=20, lines={1: "W"}, wall=ROW_1_BUT_WHITE),
                    board(lines={1: "W", 2: "KK"}, wall={1: coloured_row(1, "BYRK"), 2: coloured_row(2, "WBYR")})])
    assert [b["score"] for b in state["boards"]] == [27, 27, 16]
    assert state["winners"] == [0, 1]


# -- END-8: the game plays on wherever the rulebooks say so; only a deal with no tile at all ends it -----------

def wall_without_blue(row_1: str = "YRKW") -> list[str]:
    """A coloured wall holding every tile but the blue diagonal; row 1 may lack more."""
    return [coloured_row(1, row_1)] + [coloured_row(r, "YRKW") for r in range(2, 6)]


def blue_locked_game(turn: int, scores=(30, 40, 50, 45)):
    """Four boards whose walls lack only blue (board 0 also the yellow of row 1); all 20 blue tiles sit on
    unfinished lines 2 (1 of 2) and 5 (4 of 5), so no row can ever be completed. The centre holds the last
    tile, a yellow, and the marker; bag and lid are empty."""
    boards = [board(score=s, lines={2: "B", 5: "BBBB"}, wall=wall_without_blue("RKW" if seat == 0 else "YRKW"))
              for seat, s in enumerate(scores)]
    return game(players=4, round=6, start_player=2, turn=turn, centre="Y", boards=boards)


def test_rules_deal_the_next_round_even_when_no_row_can_ever_be_completed():
    g = blue_locked_game(turn=3)
    assert (to_state(g)["bag"], to_state(g)["lid"]) == ("", "")
    g.play("CYF")  # the marker then the yellow to seat 3's floor: -1 -1
    state = to_state(g)
    assert (state["phase"], state["round"], state["start_player"], state["turn"]) == ("deal", 7, 3, 3)
    assert [b["score"] for b in state["boards"]] == [30, 40, 50, 43]
    assert (state["bag"], state["lid"], state["winners"]) == ("", "Y", None)
    assert problems(state) == []  # a real position: it loads
    g.deal(["Y"] + [""] * 8)  # DEAL-2: the lid poured into the bag; DEAL-3: the rest stay empty
    assert to_state(g)["phase"] == "offer"
    assert [str(m) for m in g.legal_moves()] == ["1YF"]


def test_end_8_a_deal_that_would_find_no_tile_ends_the_game_and_scores_it():
    g = blue_locked_game(turn=0)
    g.play("CY1")  # completes line 1: nothing left over for the lid
    state = to_state(g)
    assert state["phase"] == "over"
    assert state["round"] == 6  # no round is prepared
    # Seat 0: yellow joins R K W across (4), no vertical run; marker -1; then +40 for Y, R, K, W complete.
    assert [b["score"] for b in state["boards"]] == [73, 80, 90, 85]
    assert state["winners"] == [2]
    assert (state["bag"], state["lid"]) == ("", "")


# A grey wall of 14 tiles where every row is dead: row 1 lacks R and W, but R stands in both free columns
# (2 and 3); row 2 lacks B and Y, which both fit only column 3; row 3 lacks R and W, R in both free columns;
# row 4 lacks B, Y, K with two free columns, one of which (column 1) holds all three; row 5 lacks Y and K,
# which both fit only column 4.
DEAD_GREY_WALL = ["K..BY", ".K.RW", "YB..K", ".WR..", "BRW.."]


def test_grey_rows_whose_colours_fit_no_column_do_not_end_the_game():
    boards = [board(score=10, wall=DEAD_GREY_WALL), board(score=8, wall=DEAD_GREY_WALL, floor="M")]
    g = game(variant="grey", round=5, marker=1, centre="R", boards=boards)
    g.play("CRF")
    state = to_state(g)
    assert (state["phase"], state["round"], state["start_player"]) == ("deal", 6, 1)
    assert [b["score"] for b in state["boards"]] == [9, 7]
    assert state["winners"] is None
    g.deal(rng=__import__("random").Random(1))
    assert to_state(g)["phase"] == "offer"


def test_a_deal_phase_from_which_no_row_can_be_completed_loads():
    doc = position(variant="grey", phase="deal", boards=[board(wall=DEAD_GREY_WALL), board(wall=DEAD_GREY_WALL)])
    assert problems(doc) == []
    boards = [board(wall={1: coloured_row(1, "BYRW"), 2: coloured_row(2, "BYRW")},
                    lines={3: "KK", 4: "KKK", 5: "KKKK"}),
              board(lines={3: "KK", 4: "KKK", 5: "KKKK"}), board(lines={5: "KK"})]
    doc = position(players=3, phase="deal", boards=boards)
    assert "K" not in doc["bag"] + doc["lid"]  # every black locked on walls and unfinished lines
    assert problems(doc) == []


def test_end_8_a_deal_phase_with_bag_and_lid_empty_is_no_real_position():
    g = blue_locked_game(turn=0)
    g.play("CY1")
    doc = to_state(g)
    doc.update(phase="deal", winners=None, turn=0, start_player=0, marker="centre", round=7)
    doc["boards"] = [dict(b, score=s) for b, s in zip(doc["boards"], (33, 40, 50, 45))]
    assert any("END-8" in problem and "bag and lid are empty" in problem for problem in problems(doc))
