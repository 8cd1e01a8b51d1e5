"""`azul simulate`: random games on the reference engine."""

from __future__ import annotations

from click.testing import CliRunner

from azul_conformance.cli.simulate import run, simulate
from azul_conformance.records import read_record, replay
from azul_conformance.engines.reference import play_logged_game, play_random_game


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


def test_a_random_game_that_can_no_longer_be_won_by_a_row_plays_on_to_the_cap():
    """This seeded grey-wall game reaches, in round 11, a position where no wall row can ever be completed
    (found by searching seeds; about one random grey game in 1,000 does). The rules deal on (ROUND-1, DEAL-3),
    so the game never ends: simulate stops it at --max-rounds and counts it as unfinished."""
    result = play_random_game(2, "grey", seed=1656683489570421415, max_rounds=30)
    assert not result["finished"] and result["rounds"] == 31 and result["winners"] is None


def test_simulate_reports_games_stopped_at_the_cap():
    result = CliRunner().invoke(simulate, ["--games", "1", "--max-rounds", "2", "--seed", "5"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("│"))
    assert row.split("│")[3].strip() == "1"  # the unfinished column
    assert "1 game stopped at the cap of 2 rounds" in result.output


def test_record_writes_each_game_as_a_record_that_replays_with_every_claim(tmp_path):
    target = tmp_path / "game.azr"
    result = CliRunner().invoke(simulate, ["--games", "2", "--players", "2,3", "--variant", "grey", "--seed", "4",
                                           "--record", str(target)])
    assert result.exit_code == 0, result.output
    paths = sorted(tmp_path.glob("game-*.azr"))
    assert [p.name for p in paths] == ["game-2p-1.azr", "game-2p-2.azr", "game-3p-1.azr", "game-3p-2.azr"]
    for path in paths:
        record, repairs = read_record(path)
        assert not repairs
        replayed = replay(record)
        assert replayed.final["phase"] == "over"
        assert replayed.claims_checked >= 3  # a score claim per round, the final scores and the winners


def test_record_of_a_single_game_goes_to_the_file_itself(tmp_path):
    target = tmp_path / "one.azr"
    result = CliRunner().invoke(simulate, ["--games", "1", "--players", "4", "--record", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").startswith('[Event "azul simulate, seed 0"]')


def test_the_fast_path_plays_the_game_the_readable_engine_plays():
    """play_random_game plays the coloured wall on azul_reference.fast; play_logged_game plays the same game on
    Game, through the reference adapter (simulate --record writes it). Over seeded games of 2-4 players: the same
    scores, winners, rounds and moves."""
    for players in (2, 3, 4):
        for seed in range(20):
            states, moves = play_logged_game(players, "colour", seed)
            last = states[-1]
            assert play_random_game(players, "colour", seed) == {
                "scores": [board["score"] for board in last["boards"]], "winners": last["winners"],
                "rounds": last["round"], "moves": sum(move is not None for move in moves),
                "finished": last["phase"] == "over"}, (players, seed)
