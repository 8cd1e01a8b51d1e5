"""Wall tiling and scoring on the coloured wall (TILING-1..3, WALL-1, SCORE-1..5).

Every case ends a round the same way: seat 1 takes the last tiles on the table (factory 1's four black tiles) to
its empty pattern line 5 (not complete), so seat 0's board changes only by the tiling under test.
"""

from __future__ import annotations

from positions import board, coloured_row, game

from azul_reference import to_state


def tile_seat_0(**seat_0) -> dict:
    g = game(factories=["KKKK", "", "", "", ""], turn=1, boards=[board(**seat_0), board()])
    g.play("1K5")
    state = to_state(g)
    assert state["phase"] == "deal"
    return state


def test_score_1_a_lone_tile_scores_one():
    state = tile_seat_0(lines={1: "B"})
    assert state["boards"][0]["score"] == 1
    assert state["boards"][0]["wall"][0] == "B...."  # WALL-1: blue is printed first on row 1


def test_wall_1_each_colour_goes_to_its_printed_space():
    state = tile_seat_0(lines={1: "W", 2: "WW", 3: "WWW", 4: "WWWW", 5: "WWWWW"})
    assert state["boards"][0]["wall"] == ["....W", "W....", ".W...", "..W..", "...W."]


def test_score_2_horizontal_run():
    state = tile_seat_0(score=4, lines={2: "YY"}, wall={2: coloured_row(2, "WB")})
    assert state["boards"][0]["wall"][1] == "WBY.."
    assert state["boards"][0]["score"] == 4 + 3


def test_score_2_vertical_run():
    state = tile_seat_0(lines={3: "KKK"}, wall={1: coloured_row(1, "B"), 2: coloured_row(2, "W")})
    assert state["boards"][0]["wall"][2] == "K...."
    assert state["boards"][0]["score"] == 3


def test_score_2_a_gap_ends_a_run():
    state = tile_seat_0(lines={2: "YY"}, wall={2: coloured_row(2, "WR")})  # W . Y R .
    assert state["boards"][0]["score"] == 2


def test_score_2_both_directions_official_example():
    """ES 002_78cb4839c43a4ac6.txt:121: the yellow tile scores 4 across and 3 down: 7 points."""
    wall = {1: coloured_row(1, "R"), 2: coloured_row(2, "WBR"), 3: coloured_row(3, "B")}
    state = tile_seat_0(lines={2: "YY"}, wall=wall)
    assert state["boards"][0]["wall"][:3] == ["..R..", "WBYR.", "..B.."]
    assert state["boards"][0]["score"] == 7


def test_score_3_tiles_score_one_at_a_time_top_to_bottom():
    """Line 1's blue (alone: 1) goes up before line 2's white, which then joins it: 2 across + 2 down = 4.

    Scoring the other way round would give 2 + 2, and scoring both against the old wall 1 + 2.
    """
    state = tile_seat_0(lines={1: "B", 2: "WW"}, wall={2: coloured_row(2, "B")})
    assert state["boards"][0]["wall"][:2] == ["B....", "WB..."]
    assert state["boards"][0]["score"] == 5


def test_tiling_1_2_3_peters_example():
    """ES 002_78cb4839c43a4ac6.txt:91-101: lines 2 (red) and 4 (blue) complete, 3 and 5 not.

    Each tile lands alone (red at row 2 column 4, blue at row 4 column 4, with row 3 between): 1 point each.
    The leftovers (1 red, 3 blue) go to the lid; lines 3 and 5 keep their tiles.
    """
    state = tile_seat_0(lines={2: "RR", 3: "YY", 4: "BBBB", 5: "KKK"})
    seat = state["boards"][0]
    assert seat["score"] == 2
    assert seat["wall"] == [".....", "...R.", ".....", "...B.", "....."]
    assert seat["lines"] == ["", "", "YY", "", "KKK"]
    assert state["lid"] == "BBBR"


def test_score_4_5_penalties_come_after_the_placements_then_the_clamp():
    # 0 + 1 (lone tile) - 4 (three floor tiles) = -3, clamped to 0. Penalties first would leave 1.
    assert tile_seat_0(lines={1: "B"}, floor="RRR")["boards"][0]["score"] == 0
    # 10 points need a wall tile from an earlier round: white in row 3, column 2, not next to row 1 column 1
    assert tile_seat_0(score=10, lines={1: "B"}, floor="RRR", wall={3: coloured_row(3, "W")})["boards"][0]["score"] == 7


def test_both_players_are_tiled():
    g = game(factories=["KKKK", "", "", "", ""], turn=1,
             boards=[board(lines={1: "Y"}), board(score=3, lines={2: "BB"}, wall={2: coloured_row(2, "W")})])
    g.play("1K5")
    state = to_state(g)
    assert [b["wall"][:2] for b in state["boards"]] == [[".Y...", "....."], [".....", "WB..."]]
    assert [b["score"] for b in state["boards"]] == [1, 3 + 2]
    assert state["boards"][1]["lines"] == ["", "", "", "", "KKKK"]
