"""Importing games recorded elsewhere: the ludometer fixture (30 games, read from ../shared at test time), the
Faïence dataset's JSON Lines (our own sample in its format), problems named by game and field, round trips
through the writer, and batch replay of everything imported."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.import_games import import_games
from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.cli.simulate import simulate
from azul_conformance.importers import FORMATS, ImportedGame, ImportedRound, import_file
from azul_conformance.records import RecordSyntaxError, parse_record, replay, sample_paths, write_record

FIXTURE = Path(__file__).resolve().parents[2] / "shared/engines/ludometer/web/player/test/fixtures/games.json.gz"
SAMPLE = Path(__file__).resolve().parent / "fixtures/faience/sample.jsonl"


def ludometer_games() -> Path:
    """The path of ludometer's 30 recorded games (data, read from ../shared), or a skip saying what is missing; in
    CI, which lays ../shared beside the clone, a failure."""
    if not FIXTURE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{FIXTURE} is missing: CI lays ../shared beside the clone")
        pytest.skip(f"{FIXTURE} (ludometer's recorded games, data) is not beside this checkout")
    return FIXTURE


@pytest.fixture(scope="module")
def fixture_games():
    return json.loads(gzip.decompress(ludometer_games().read_bytes()))["games"]


def _checked_claims(text: str) -> int:
    return text.count("[%") - text.count("[%differs")


def test_all_30_fixture_games_import_replay_and_every_claim_holds(fixture_games):
    imported = list(import_file("ludometer", FIXTURE))
    assert [problem for _, problem in imported if problem] == []
    assert len(imported) == 30
    claims = moves = 0
    for (record, _), source in zip(imported, fixture_games):
        text = write_record(record)
        result = replay(parse_record(text, record.source), text=text)
        # Every claim in the record was checked, and the final scores are the source's, read independently.
        assert result.claims_checked == _checked_claims(text)
        assert [b["score"] for b in result.final["boards"]] == source["scores"]
        assert len(record.rounds) == source["rounds"]
        assert sum(len(r.plies) for r in record.rounds) == len(source["moves"])
        claims += result.claims_checked
        moves += len(source["moves"])
    # 205 rounds: a %start each, a %score after each but the last, and %final, %winners per game: 205 * 2 - 30
    # + 60 = 440.
    assert (moves, claims) == (2155, 440)


def test_an_imported_record_round_trips_through_the_writer_unchanged(fixture_games):
    record, _ = next(import_file("ludometer", FIXTURE))
    text = write_record(record)
    assert parse_record(text, "again") == record
    assert write_record(parse_record(text)) == text


def test_the_fixture_record_carries_every_fact_of_the_source(fixture_games):
    record, _ = next(import_file("ludometer", FIXTURE))
    first = fixture_games[0]
    text = write_record(record)
    assert '[Source "ludometer games.json.gz, game 1 of 30"]' in text and f'[Seed "{first["seed"]}"]' in text
    # The deal of round 1 is the factories of the first state, colour counts in B Y R K W order.
    factories = first["moves"][0]["state"]["factories"]
    assert record.rounds[0].deal.factories == tuple("".join("BYRKW"[c] * n for c, n in enumerate(f))
                                                    for f in factories)
    # Action 146 = 4 * 30 + 4 * 6 + 2: factory 5, white, pattern line 3.
    assert first["moves"][0]["action"] == 146 and record.rounds[0].plies[0].move == "5W3"
    assert "[%differs \"ROUND-3\"" in text and "[%differs \"END-8\"" not in text and "[%start 0]" in text


def test_one_command_imports_and_replays_the_fixture(fixture_games, tmp_path):
    result = CliRunner().invoke(import_games, ["ludometer", str(FIXTURE), "-o", str(tmp_path), "--replay", "-q"])
    assert result.exit_code == 0, result.output
    assert "30 games imported" in result.output
    assert "30 games, 2155 moves, 440 claims checked" in result.output and "30 agree, 0 explained" in result.output
    assert len(list(tmp_path.glob("games-0*.azr"))) == 30


def test_the_faience_sample_is_what_its_script_writes():
    script = SAMPLE.parent / "make_sample.py"
    assert subprocess.run([sys.executable, str(script), "--check"], timeout=120).returncode == 0


def test_faience_records_import_and_a_points_tie_is_explained_by_the_declared_end_6(tmp_path):
    result = CliRunner().invoke(import_games, ["faience", str(SAMPLE), "-o", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    finished, tied, abandoned = (tmp_path / f"sample-00{n}.azr" for n in (1, 2, 3))
    batch = CliRunner().invoke(replay_command, [str(tmp_path), "--json", "-"])
    assert batch.exit_code == 0, batch.output
    report = json.loads(batch.stdout)  # `--json -`: standard output holds the JSON alone
    assert "3 games, 167 moves" in batch.stderr
    verdicts = {Path(r["file"]).name: r for r in report["results"]}
    assert verdicts["sample-001.azr"]["verdict"] == "agrees"
    assert verdicts["sample-003.azr"]["verdict"] == "agrees"
    assert verdicts["sample-002.azr"]["verdict"] == "explained" and verdicts["sample-002.azr"]["rule"] == "END-6"
    assert report["by_rule"]["explained"] == {"END-6": [str(tied)]}
    assert '[Result "*"]' in abandoned.read_text(encoding="utf-8")
    assert '[Seat1 "net sample-run ckpt-0042"]' in finished.read_text(encoding="utf-8")


def _sample_lines() -> list[dict]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("corrupt, field, words", [
    (lambda g: g.pop("deals"), "deals", "missing"),
    (lambda g: g["moves"][4].update(action=999), "moves[4].action", "not an action id"),
    (lambda g: g["moves"][7].update(ply=3), "moves[7].ply", "expected ply 8"),
    (lambda g: g["moves"][1].update(player=g["moves"][0]["player"]), "moves[1].player", "alternating"),
    (lambda g: g["final"].update(outcome="ai"), "final.outcome", "contradicts the final scores"),
    (lambda g: g["deals"].pop(), "deals", "need another"),
])
def test_a_faience_record_that_lacks_or_contradicts_something_is_named_and_the_others_still_import(
        tmp_path, corrupt, field, words):
    games = _sample_lines()
    corrupt(games[0])
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    results = list(import_file("faience", path))
    problem = results[0][1]
    assert problem is not None and problem.game == "batch.jsonl, line 1" and problem.field == field
    assert words in problem.message
    assert all(record is not None for record, _ in results[1:])


def test_a_truncated_dataset_line_is_reported_and_the_command_goes_on(tmp_path):
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "cut.jsonl"
    path.write_text(lines[0][: len(lines[0]) // 2] + "\n" + lines[1] + "\n", encoding="utf-8")
    result = CliRunner().invoke(import_games, ["faience", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "skipped cut.jsonl, line 1: (line): not a JSON object" in result.output
    assert "1 game imported" in result.output and (tmp_path / "out" / "cut-002.azr").exists()


def test_a_fixture_game_whose_move_is_not_among_its_own_legal_moves_is_named(fixture_games, tmp_path):
    games = [dict(g) for g in fixture_games[:2]]
    moves = [dict(m) for m in games[0]["moves"]]
    moves[5]["legal"] = [a for a in moves[5]["legal"] if a != moves[5]["action"]]
    games[0]["moves"] = moves
    path = tmp_path / "two.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"games": games}).encode()))
    results = list(import_file("ludometer", path))
    assert str(results[0][1]).startswith("two.json.gz, game 1: moves[5].action: ")
    assert "not among the legal actions" in str(results[0][1])
    assert results[1][0] is not None


def test_an_imported_game_with_a_wrong_score_gets_a_located_explained_message(fixture_games, tmp_path):
    record, _ = next(import_file("ludometer", FIXTURE))
    text = write_record(record).replace("[%score 0 4]", "[%score 0 5]", 1)  # game 1, after round 5
    path = tmp_path / "wrong.azr"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(replay_command, [str(path)])
    assert result.exit_code == 1
    line = text.splitlines().index("[%score 0 5]") + 1
    err = result.stderr
    assert f"wrong.azr:{line}:1: claim [%score 0 5] after CYF is wrong: the scores are 0 4" in err
    assert "The record and our rules part ways at the tiling of round 5" in err
    assert "seat 1: " in err and "ours:   0 4" in err and "record: 0 5" in err


def test_simulated_imported_and_hand_written_records_pass_the_same_strict_parser(fixture_games, tmp_path):
    target = tmp_path / "sim.azr"
    assert CliRunner().invoke(simulate, ["--games", "2", "--record", str(target)]).exit_code == 0
    texts = [p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("sim-*.azr"))]
    texts += [write_record(r) for r, _ in import_file("faience", SAMPLE)]
    texts += [write_record(next(import_file("ludometer", FIXTURE))[0])]
    texts += [p.read_text(encoding="utf-8") for p in sample_paths()]
    assert len(texts) == 2 + 3 + 1 + len(sample_paths())
    for text in texts:
        parse_record(text)  # strict: raises at the first thing out of place


def test_a_new_format_is_one_module_with_a_read_function(tmp_path, monkeypatch):
    class Tiny:
        NAME, SUMMARY = "tiny", "one game per line: the deal, then the takes"

        @staticmethod
        def read(path):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                deal, *takes = line.split(";")
                yield ImportedGame(f"{path.name}, game {number}", 2,
                                   (ImportedRound(tuple(deal.split()), 0, tuple(takes)),))

    monkeypatch.setitem(FORMATS, "tiny", Tiny)
    path = tmp_path / "tiny.txt"
    path.write_text("BBYR YYKW RRKW BBBK YRWW;4B3;2Y2\n", encoding="utf-8")
    (record, problem), = import_file("tiny", path)
    assert problem is None and [p.move for p in record.rounds[0].plies] == ["4B3", "2Y2"]
    assert replay(record).claims_checked == 1  # the round's [%start 0]


def test_batch_replay_groups_disagreements_by_rule_and_reports_speed(tmp_path):
    head = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n'
    round_1 = "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 1B1 3R4 3. 5W5 CK1 4. CW2 CR3 5. CY4\n"
    (tmp_path / "a.azr").write_text(head + round_1 + "[%score 3 0]\n", encoding="utf-8")
    (tmp_path / "b.azr").write_text(head + round_1 + "[%score 3 -2]\n", encoding="utf-8")
    (tmp_path / "c.azr").write_text(head + '[%differs "SCORE-5" "no clamp"]\n' + round_1 + "[%score 3 -2]\n",
                                    encoding="utf-8")
    (tmp_path / "d.azr").write_text(head + "round 1 deal BBYR\n", encoding="utf-8")
    result = CliRunner().invoke(replay_command, [str(tmp_path)])
    assert result.exit_code == 1
    out = result.output
    assert "4 games, 27 moves, 3 claims checked in " in out and "games/s): 1 agrees, 1 explained, 1 disagrees, " \
        "1 invalid." in out
    assert "  SCORE-5 (No score below zero): 1 game: c.azr" in out
    assert "disagrees [SCORE-5]: " in out and "Not valid records: 1: d.azr" in out


DOCS_RECORDS = Path(__file__).resolve().parents[1] / "docs/examples/records"


def test_the_docs_samples_are_what_the_importers_write_today(fixture_games):
    game_6 = [r for r, _ in import_file("ludometer", FIXTURE)][5]
    assert (DOCS_RECORDS / "ludometer-game-06.azr").read_text(encoding="utf-8") == write_record(game_6)
    tied = [r for r, _ in import_file("faience", SAMPLE)][1]
    assert (DOCS_RECORDS / "faience-tied.azr").read_text(encoding="utf-8") == write_record(tied)


def test_the_worked_example_is_a_shared_win_on_equal_rows():
    # Game 6 of the fixture: 2 points each and one complete row each, so END-7 shares the win.
    text = (DOCS_RECORDS / "ludometer-game-06.azr").read_text(encoding="utf-8")
    final = replay(parse_record(text), text=text).final
    assert [b["score"] for b in final["boards"]] == [2, 2] and final["winners"] == [0, 1]
    assert [sum("." not in row for row in b["wall"]) for b in final["boards"]] == [1, 1]


def test_an_imported_record_cut_short_is_located(fixture_games):
    record, _ = next(import_file("ludometer", FIXTURE))
    text = write_record(record)
    cut = text[: text.index("3. 3B5 CR2") + len("3. 3B5 C")]  # the file ends in the middle of a take
    with pytest.raises(RecordSyntaxError) as caught:
        parse_record(cut, "cut.azr")
    line = cut.count("\n") + 1
    assert str(caught.value).startswith(f"cut.azr:{line}:8: unexpected 'C': expected `round N`, `deal`, a take such "
                                        f"as 3K4 or CBF")
    assert str(caught.value).endswith(f"{line:>5} | 3. 3B5 C\n      |        ^")
