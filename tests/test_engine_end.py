"""The end of the game (END-1..8): when it ends, the bonuses, the winners.

Each case ends the offer the same way: the last seat to act takes factory 1's only tile (black) to its empty
pattern line 5, which changes nothing else on its board.
"""

from __future__ import annotations

import pytest
from positions import board, coloured_row, game, position

from azul_reference import IllegalDeal, IllegalMove, problems, to_state

ROW_1_BUT_WHITE = {1: coloured_row(1, "BYRK")}  # "BYRK.": line 1's white tile completes it


def finish(boards: list[dict], **overrides) -> dict:
    players = len(boards)
    g = game(players=players, factories=["K"] + [""] * (2 * players), turn=players - 1, boards=boards,
             **overrides)
    g.play("1K5")
    return to_state(g)


def test_end_1_the_game_ends_after_the_tiling_that_completes_a_row():
    # Seat 0: white completes row 1: 5 across, nothing below: +5; floor -2; then +2 for the row: 10 + 5 - 2 + 2.
    state = finish([board(score=10, lines={1: "W"}, wall=ROW_1_BUT_WHITE, floor="RR"), board(score=14)], round=6)
    assert state["phase"] == "over"
    assert state["boards"][0]["wall"][0] == "BYRKW"
    assert [b["score"] for b in state["boards"]] == [15, 14]
    assert state["winners"] == [0]
    assert state["round"] == 6  # no new round is prepared
    assert state["boards"][1]["lines"][4] == "K"  # the other board was tiled as usual


def test_end_1_nothing_can_be_played_once_the_game_is_over():
    g = game(factories=["K", "", "", "", ""], turn=1, boards=[board(lines={1: "W"}, wall=ROW_1_BUT_WHITE), board()])
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


# -- END-8: a game that can no longer end by END-1 ends at once ---------------------------------------------------

def wall_without_blue(row_1: str = "YRKW") -> list[str]:
    """A coloured wall holding every tile but the blue diagonal; row 1 may lack more."""
    return [coloured_row(1, row_1)] + [coloured_row(r, "YRKW") for r in range(2, 6)]


def test_end_8_a_colour_locked_away_ends_the_game_after_the_tiling():
    # Every wall lacks only its blue tiles (board 0 also the yellow of row 1) and all 20 blue tiles sit on
    # unfinished lines 2 (1 of 2) and 5 (4 of 5): no blue tile can come back, so no row can ever be finished.
    # Seat 3 takes the last tile, a yellow, to the floor, with the marker first: -1 -1.
    boards = [board(score=s, lines={2: "B", 5: "BBBB"}, wall=wall_without_blue("RKW" if seat == 0 else "YRKW"))
              for seat, s in enumerate((30, 40, 50, 45))]
    g = game(players=4, round=6, start_player=2, turn=3, centre="Y", boards=boards)
    assert (to_state(g)["bag"], to_state(g)["lid"]) == ("", "")
    g.play("CYF")
    state = to_state(g)
    assert state["phase"] == "over"
    # No row or column is complete; yellow, red, black and white are complete on boards 1-3 (+40 each),
    # red, black and white on board 0 (+30): 30 + 30, 40 + 40, 50 + 40, 45 - 2 + 40.
    assert [b["score"] for b in state["boards"]] == [60, 80, 90, 83]
    assert state["winners"] == [2]
    assert state["lid"] == "Y"  # the floor was cleared first; the marker is no tile


# A grey wall of 14 tiles where every row is dead: row 1 lacks R and W, but R stands in both free columns
# (2 and 3); row 2 lacks B and Y, which both fit only column 3; row 3 lacks R and W, R in both free columns;
# row 4 lacks B, Y, K with two free columns, one of which (column 1) holds all three; row 5 lacks Y and K,
# which both fit only column 4.
DEAD_GREY_WALL = ["K..BY", ".K.RW", "YB..K", ".WR..", "BRW.."]


def test_end_8_grey_rows_whose_colours_fit_no_column_end_the_game():
    boards = [board(score=10, wall=DEAD_GREY_WALL), board(score=8, wall=DEAD_GREY_WALL, floor="M")]
    g = game(variant="grey", round=5, marker=1, centre="R", boards=boards)
    g.play("CRF")
    state = to_state(g)
    # Nothing to tile; floors: seat 0 -1 (R), seat 1 -1 (M). No row, column or colour complete: no bonus.
    assert state["phase"] == "over"
    assert [b["score"] for b in state["boards"]] == [9, 7]
    assert state["winners"] == [0]


def test_end_8_a_single_row_that_can_still_be_completed_keeps_the_game_going():
    walls = [DEAD_GREY_WALL, DEAD_GREY_WALL[:4] + ["B...."]]  # board 1's row 5 can still take Y R K W
    g = game(variant="grey", centre="R", boards=[board(wall=walls[0]), board(wall=walls[1], floor="M")], marker=1)
    g.play("CRF")
    assert to_state(g)["phase"] == "deal"


def test_end_8_a_deal_phase_where_no_row_can_be_completed_is_no_real_position():
    doc = position(variant="grey", phase="deal", boards=[board(wall=DEAD_GREY_WALL), board(wall=DEAD_GREY_WALL)])
    assert any("END-8" in problem for problem in problems(doc))


def ends_by_end_8(doc: dict) -> bool:
    """Whether a deal-phase position is one where the game should have ended by END-8."""
    return any("END-8" in problem for problem in problems(doc))



def test_end_8_a_grey_wall_whose_rows_cannot_be_completed():
    """Row 1 lacks black, and the one free space (column 4) already has black lower down; and so on for every
    row of both boards. No row can ever be completed."""
    dead = ["BYW.R", ".RKWY", "RB.YW", "YWBK.", "K.YRB"]
    dead_too = ["B.YKR", ".RKWB", "WB.RY", "RW.YK", "YKB.W"]
    doc = position(variant="grey", phase="deal", boards=[board(wall=dead), board(wall=dead_too)])
    assert ends_by_end_8(doc)
    alive = dead[:4] + ["....."]  # an empty row 5 can still be filled: W K Y R B, column by column
    assert not ends_by_end_8(position(variant="grey", phase="deal",
                                                     boards=[board(wall=alive), board(wall=dead_too)]))


def test_end_8_a_colour_locked_on_walls_and_incomplete_lines():
    """All 20 black tiles stand on walls or incomplete pattern lines, and every wall row lacks black."""
    boards = [board(wall={1: coloured_row(1, "BYRW"), 2: coloured_row(2, "BYRW")},
                    lines={3: "KK", 4: "KKK", 5: "KKKK"}),
              board(lines={3: "KK", 4: "KKK", 5: "KKKK"}),
              board(lines={5: "K"})]
    doc = position(players=3, phase="deal", boards=boards)
    assert doc["bag"].count("K") == 1  # one black is still free: the game can go on
    assert not ends_by_end_8(doc)
    boards[2]["lines"][4] = "KK"
    assert ends_by_end_8(position(players=3, phase="deal", boards=boards))
