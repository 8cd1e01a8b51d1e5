"""`azul simulate`: random games on the reference engine, and its detector of games that can never end."""

from __future__ import annotations

from click.testing import CliRunner
from positions import board, coloured_row, position

from azul_conformance.cli.simulate import no_row_can_ever_be_completed, run, simulate
from azul_conformance.engines.reference import play_random_game


def test_simulate_prints_a_row_per_player_count():
    result = CliRunner().invoke(simulate, ["--games", "4", "--players", "2,4", "--variant", "grey", "--seed", "3"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["2", "4"]
    assert all(row.split("│")[2].strip() == "4" for row in rows)
    assert "8 games in" in result.output


def test_simulate_is_reproducible_from_its_seed():
    first, second = run([2, 3], "colour", 6, seed=11, max_rounds=100), run([2, 3], "colour", 6, seed=11,
                                                                             max_rounds=100)
    assert [(t.scores, t.rounds, t.moves) for t in first] == [(t.scores, t.rounds, t.moves) for t in second]
    other = run([2, 3], "colour", 6, seed=12, max_rounds=100)
    assert [(t.scores, t.moves) for t in first] != [(t.scores, t.moves) for t in other]


def test_simulate_refuses_bad_player_counts():
    for bad in ("5", "2,x", ""):
        result = CliRunner().invoke(simulate, ["--players", bad])
        assert result.exit_code == 2
        assert "player counts" in result.output


def test_simulate_help_has_an_example():
    result = CliRunner().invoke(simulate, ["--help"])
    assert result.exit_code == 0 and "azul simulate --games" in result.output


def test_a_random_game_ends_with_winners():
    result = play_random_game(3, "colour", seed=5)
    assert result["finished"] and result["winners"]
    assert len(result["scores"]) == 3 and min(result["scores"]) >= 0
    assert result["moves"] >= 3 * result["rounds"]  # at least one take per seat each round (5+ tiles each)


def test_max_rounds_stops_a_game_unfinished():
    result = play_random_game(2, "colour", seed=5, max_rounds=2)
    assert not result["finished"] and result["rounds"] == 3 and result["winners"] is None


# -- the detector of games that can never end -------------------------------------------------------------------

def test_a_grey_wall_whose_rows_cannot_be_completed():
    """Row 1 lacks black, and the one free space (column 4) already has black lower down; and so on for every
    row of both boards. No row can ever be completed."""
    dead = ["BYW.R", ".RKWY", "RB.YW", "YWBK.", "K.YRB"]
    dead_too = ["B.YKR", ".RKWB", "WB.RY", "RW.YK", "YKB.W"]
    doc = position(variant="grey", phase="deal", boards=[board(wall=dead), board(wall=dead_too)])
    assert no_row_can_ever_be_completed(doc)
    alive = dead[:4] + ["....."]  # an empty row 5 can still be filled: W K Y R B, column by column
    assert not no_row_can_ever_be_completed(position(variant="grey", phase="deal",
                                                     boards=[board(wall=alive), board(wall=dead_too)]))


def test_a_colour_locked_on_walls_and_incomplete_lines():
    """All 20 black tiles stand on walls or incomplete pattern lines, and every wall row lacks black."""
    boards = [board(wall={1: coloured_row(1, "BYRW"), 2: coloured_row(2, "BYRW")},
                    lines={3: "KK", 4: "KKK", 5: "KKKK"}),
              board(lines={3: "KK", 4: "KKK", 5: "KKKK"}),
              board(lines={5: "K"})]
    doc = position(players=3, phase="deal", boards=boards)
    assert doc["bag"].count("K") == 1  # one black is still free: the game can go on
    assert not no_row_can_ever_be_completed(doc)
    boards[2]["lines"][4] = "KK"
    assert no_row_can_ever_be_completed(position(players=3, phase="deal", boards=boards))
