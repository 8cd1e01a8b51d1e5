"""The grey wall (GREY-1..5): chosen columns, a colour once per column, lines that fit nowhere, tiling order.

Each case ends the offer the same way: the seat to act takes factory 1's four black tiles, the last on the table,
to its empty pattern line 5 (4 of 5 spaces: not complete). A factory is full or empty unless the bag ran out.
Walls are drawn row by row; on the grey wall any colour may stand in any column.
"""

from __future__ import annotations

from positions import board, game, refused

from azul_reference import Game, to_state


def end_offer(boards: list[dict], **overrides) -> Game:
    overrides.setdefault("turn", 1)
    g = game(variant="grey", factories=["KKKK", "", "", "", ""], boards=boards, **overrides)
    g.play("1K5")
    return g


def moves(g: Game) -> set[str]:
    return {str(move) for move in g.legal_moves()}



def test_grey_1_the_owner_chooses_the_column():
    g = end_offer([board(lines={1: "B"}), board()])
    assert (g.phase, g.turn) == ("tiling", 0)
    assert moves(g) == {"1@1", "1@2", "1@3", "1@4", "1@5"}
    g.play("1@3")
    state = to_state(g)
    assert state["boards"][0]["wall"][0] == "..B.."
    assert state["boards"][0]["score"] == 1
    assert (state["phase"], state["round"]) == ("deal", 2)


def test_grey_2_a_colour_once_per_column():
    # Blue is in column 1 (row 1); row 2 has yellow in column 2: blue may go to columns 3, 4, 5 of row 2.
    g = end_offer([board(lines={2: "BB"}, wall={1: "B....", 2: ".Y..."}), board()])
    assert moves(g) == {"2@3", "2@4", "2@5"}
    refused(g, "2@1", "GREY-2")
    refused(g, "2@2", "GREY-1")
    g.play("2@3")
    state = to_state(g)
    assert state["boards"][0]["wall"][:2] == ["B....", ".YB.."]
    assert state["boards"][0]["score"] == 2  # next to the yellow; nothing above column 3
    assert state["lid"] == "B"


def test_grey_5_a_single_legal_column_is_still_a_choice_to_make():
    g = end_offer([board(lines={2: "BB"}, wall={2: "YRKW."}), board()])
    assert g.phase == "tiling" and moves(g) == {"2@5"}


def test_grey_3_a_line_that_fits_nowhere_goes_to_the_floor():
    # Row 2's only free space is column 5, which already holds blue (row 1).
    g = end_offer([board(score=5, lines={2: "BB"}, wall={1: "....B", 2: "YRKW."}), board()])
    state = to_state(g)
    assert state["phase"] == "deal"  # no choice was pending
    assert state["boards"][0]["wall"][1] == "YRKW."
    assert state["boards"][0]["lines"][1] == ""
    assert state["boards"][0]["score"] == 5 - 2  # penalised this round
    assert state["lid"] == "BB"


def test_grey_3_floor_overflow_goes_to_the_lid():
    g = end_offer([board(score=20, lines={3: "BBB"}, wall={1: "....B", 3: "YRKW."}, floor="RRRRRR"), board()])
    state = to_state(g)
    assert state["boards"][0]["score"] == 20 - 14  # one blue on the 7th space, two to the lid
    assert state["lid"] == "BBBRRRRRR"


def test_grey_3_5_a_line_to_the_floor_then_a_choice_lower_down():
    """Top to bottom: line 1's blue fits nowhere and drops to the floor before line 2's choice is offered."""
    g = end_offer([board(score=10, lines={1: "B", 2: "YY"}, wall={1: "YRKW.", 2: "....B"}), board()])
    state = to_state(g)
    assert (state["phase"], state["turn"]) == ("tiling", 0)
    assert state["boards"][0]["floor"] == "B"
    assert moves(g) == {"2@2", "2@3", "2@4"}  # column 1 holds yellow already
    g.play("2@2")
    state = to_state(g)
    assert state["boards"][0]["wall"][:2] == ["YRKW.", ".Y..B"]
    assert state["boards"][0]["score"] == 10 + 2 - 1  # below the red: 2 down; one tile on the floor


def test_grey_5_seat_by_seat_from_the_start_player_each_board_top_to_bottom():
    g = end_offer([board(lines={1: "B"}), board(lines={1: "Y", 3: "RRR"})], start_player=1, turn=0)
    assert (g.phase, g.turn) == ("tiling", 1)
    refused(g, "3@1", "GREY-5")   # line 1 comes first
    refused(g, "1B1", "GREY-5")   # no take while a placement is pending
    g.play("1@1")
    assert (g.phase, g.turn) == ("tiling", 1)
    assert moves(g) == {"3@1", "3@2", "3@3", "3@4", "3@5"}
    g.play("3@1")
    assert (g.phase, g.turn) == ("tiling", 0)
    assert moves(g) == {"1@1", "1@2", "1@3", "1@4", "1@5"}
    g.play("1@2")
    state = to_state(g)
    assert state["phase"] == "deal"
    assert [b["score"] for b in state["boards"]] == [1, 2]
    assert state["start_player"] == 1  # nobody took from the centre (ROUND-3)


def test_grey_5_seats_without_a_complete_line_are_passed():
    g = end_offer([board(), board(lines={2: "WW"})])
    assert (g.phase, g.turn) == ("tiling", 1)


def test_grey_4_drafting_forbids_only_colours_already_in_the_wall_row():
    # Row 2 holds Y R K W; blue is in column 5 from row 1: blue fits no space of row 2, yet may be drafted there.
    g = game(variant="grey", factories=["BBYK", "", "", "", ""], boards=[board(wall={1: "....B", 2: "YRKW."}),
                                                                        board()])
    assert "1B2" in moves(g)
    refused(g, "1Y2", "OFFER-9")
    g.play("1B2")
    assert to_state(g)["boards"][0]["lines"][1] == "BB"


def test_grey_end_of_game_after_a_placement_completes_a_row():
    g = end_offer([board(score=3, lines={1: "W"}, wall={1: "BYRK."}), board()])
    assert moves(g) == {"1@5"}
    g.play("1@5")
    state = to_state(g)
    assert state["phase"] == "over"
    assert state["boards"][0]["score"] == 3 + 5 + 2
    assert state["winners"] == [0]
