"""`azul import` on hostile inputs (issue 26): each gives the right result or a clear problem naming the file and
game, never a traceback, a hang, unbounded memory, a lost game or a write outside the output folder."""

from __future__ import annotations

import gzip
import json
import os
import tarfile
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli import main
from azul_conformance.cli.import_games import import_games
from azul_conformance.importers import import_file
from azul_conformance.importers.ludometer_fixture import MAX_FIXTURE
from azul_conformance.readers import MAX_LINE
from hostile_files import gzip_bomb
from test_importers import SAMPLE, ludometer_games

LINES = SAMPLE.read_text(encoding="utf-8").splitlines()


def imported(format_name: str, path: Path) -> tuple[list, list]:
    records, problems = [], []
    for record, problem in import_file(format_name, path):
        (records if record is not None else problems).append(record or problem)
    return records, problems


def faience(tmp_path: Path, lines: list[str], name: str = "set.jsonl", prefix: bytes = b"") -> Path:
    path = tmp_path / name
    path.write_bytes(prefix + "\n".join(lines).encode("utf-8") + b"\n")
    return path


def game(index: int = 0, **changes) -> dict:
    raw = json.loads(LINES[index])
    for key, value in changes.items():
        target = raw
        *parents, last = key.split(".")
        for part in parents:
            target = target[part] if not part.isdigit() else target[int(part)]
        target[last] = value
    return raw


def test_deeply_nested_json_is_a_problem_of_its_file_or_line_not_a_recursion_error(tmp_path):
    deep = "[" * 200_000 + "]" * 200_000  # 400 KB
    (tmp_path / "deep.json").write_text(deep, encoding="utf-8")
    records, problems = imported("ludometer", tmp_path / "deep.json")
    assert not records and [p.field for p in problems] == ["(file)"] and "nested deeper" in problems[0].message
    records, problems = imported("faience", faience(tmp_path, [LINES[0], deep, LINES[1]]))
    assert len(records) == 2 and [(p.game, p.field) for p in problems] == [("set.jsonl, line 2", "(line)")]


def test_a_corrupt_gzip_of_22_bytes_is_a_problem_not_a_zlib_error(tmp_path):
    corrupt = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 12
    assert len(corrupt) == 22
    for format_name, name in (("ludometer", "bad.json.gz"), ("faience", "bad.jsonl.gz")):
        (tmp_path / name).write_bytes(corrupt)
        records, problems = imported(format_name, tmp_path / name)
        assert not records and len(problems) == 1 and "damaged gzip" in problems[0].message, problems


def test_a_gzip_bomb_is_stopped_at_the_limit_with_bounded_memory(tmp_path):
    bomb = gzip_bomb(tmp_path / "bomb.json.gz", MAX_FIXTURE + 16 * 2**20)
    assert bomb.stat().st_size < 200_000
    tracemalloc.start()
    try:
        records, problems = imported("ludometer", bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not records and "inflates to more than 64 MB" in problems[0].message
    assert peak < MAX_FIXTURE + 16 * 2**20  # never the whole inflated file (it joins at most the limit)
    lines = gzip_bomb(tmp_path / "bomb.jsonl.gz", MAX_LINE + 4 * 2**20)  # one endless line
    tracemalloc.start()
    try:
        records, problems = imported("faience", lines)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not records and "a line longer than 16 MB" in problems[0].message and peak < 3 * MAX_LINE


def test_a_faience_outcome_of_the_wrong_type_is_a_problem_and_the_later_games_are_kept(tmp_path):
    bad = [game(0, **{"final.outcome": ["human"]}), game(1, **{"final.outcome": {"x": 1}})]
    records, problems = imported("faience", faience(tmp_path, [json.dumps(g) for g in bad] + [LINES[2]]))
    assert len(records) == 1 and records[0].header("Source").endswith("line 3")
    assert [(p.game, p.field) for p in problems] == [("set.jsonl, line 1", "final.outcome"),
                                                     ("set.jsonl, line 2", "final.outcome")]


def test_lines_are_split_on_newlines_alone(tmp_path):
    # U+2028 and U+0085 are characters inside a JSON string, not line breaks (json.dumps leaves them raw)
    odd = game(0, **{"net.run": "run\u2028two\x85three"})
    text = json.dumps(odd, ensure_ascii=False)
    assert "\u2028" in text
    records, problems = imported("faience", faience(tmp_path, [text, LINES[1], LINES[2]]))
    assert not problems and [r.header("Source").rsplit(" ", 1)[-1] for r in records] == ["1", "2", "3"]


def test_a_byte_order_mark_does_not_lose_the_first_game(tmp_path):
    records, problems = imported("faience", faience(tmp_path, LINES, prefix="\ufeff".encode("utf-8")))
    assert not problems and len(records) == 3
    path = tmp_path / "fixture.json"
    path.write_bytes(b"\xef\xbb\xbf" + gzip.decompress(ludometer_games().read_bytes()))
    records, problems = imported("ludometer", path)
    # (json.loads refuses a BOM: a clear problem of the file, or all its games; never a traceback)
    assert len(records) == 30 or [p.field for p in problems] == ["(file)"]


@pytest.mark.parametrize("changes, field", [
    ({"human_seat": True}, "human_seat"),
    ({"moves.0.ply": True}, "moves[0].ply"),
    ({"moves.0.player": False}, "moves[0].player"),
    ({"deals.0.round": False}, "deals[0].round"),
    ({"final.rounds": 7.0}, "final.rounds"),
    ({"final.finished": 1}, "final.finished"),
    ({"final.scores": [True, 3]}, "final.scores"),
])
def test_booleans_and_floats_are_not_integers_in_faience(tmp_path, changes, field):
    raw = game(0, **changes)
    records, problems = imported("faience", faience(tmp_path, [json.dumps(raw)]))
    assert not records and [p.field for p in problems] == [field], problems


def test_a_ludometer_outcome_of_true_is_not_seat_0_winning(tmp_path):
    data = json.loads(gzip.decompress(ludometer_games().read_bytes()))
    first = data["games"][0]
    assert first["outcome"] == 1.0  # the fixture writes its outcomes as floats: those are numbers, and read
    first["outcome"] = True
    data["games"][1]["rounds"] = float(data["games"][1]["rounds"])
    path = tmp_path / "games.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    records, problems = imported("ludometer", path)
    assert len(records) == 28 and [(p.game, p.field) for p in problems] == [
        ("games.json, game 1", "outcome"), ("games.json, game 2", "rounds")]


def run_import(*args: str):
    return CliRunner().invoke(import_games, list(args))


def test_two_inputs_with_one_stem_give_distinct_records(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        faience(tmp_path / folder, LINES, "sample.jsonl")
    out = tmp_path / "out"
    result = run_import("faience", str(tmp_path / "a/sample.jsonl"), str(tmp_path / "b/sample.jsonl"), "-o", str(out),
                        "-q")
    assert result.exit_code == 0, result.output
    assert "6 games imported" in result.output
    assert sorted(p.name for p in out.iterdir()) == [f"sample{s}-00{n}.azr" for s in ("", ".2") for n in (1, 2, 3)]


def test_an_output_folder_with_records_is_refused_unless_forced_and_a_symlink_there_is_never_followed(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "precious.txt"
    out.mkdir()
    outside.write_text("keep me", encoding="utf-8")
    os.symlink(outside, out / "sample-001.azr")
    (out / "sample-002.azr").write_text("old", encoding="utf-8")
    result = run_import("faience", str(SAMPLE), "-o", str(out), "-q")
    assert result.exit_code == 2 and "already holds records" in result.output
    assert (out / "sample-002.azr").read_text(encoding="utf-8") == "old"
    result = run_import("faience", str(SAMPLE), "-o", str(out), "-q", "--force")
    assert result.exit_code == 0, result.output
    assert outside.read_text(encoding="utf-8") == "keep me"  # the link was replaced, not written through
    assert not (out / "sample-001.azr").is_symlink() and "[Event " in (out / "sample-001.azr").read_text()
    assert "[Event " in (out / "sample-002.azr").read_text(encoding="utf-8")


def test_a_record_appearing_during_the_import_is_not_replaced(tmp_path, monkeypatch):
    from azul_conformance.cli import import_games as module

    out = tmp_path / "out"
    original = module.write_new

    def racing(target, text, force):
        if target.name == "sample-002.azr":
            target.write_text("written by someone else", encoding="utf-8")
        original(target, text, force)

    monkeypatch.setattr(module, "write_new", racing)
    result = run_import("faience", str(SAMPLE), "-o", str(out), "-q")
    assert result.exit_code == 1 and "already exists: refusing to replace it" in result.output
    assert (out / "sample-002.azr").read_text(encoding="utf-8") == "written by someone else"
    assert (out / "sample-001.azr").exists()  # what was written before stays


def test_folders_and_archives_of_datasets_are_imported_like_their_files(tmp_path):
    folder = tmp_path / "dataset" / "2026-11-30"
    folder.mkdir(parents=True)
    faience(folder, LINES, "a.jsonl")
    with gzip.open(folder / "b.jsonl.gz", "wt", encoding="utf-8") as out:
        out.write("\n".join(LINES) + "\n")
    (folder / "notes.txt").write_text("not a dataset", encoding="utf-8")
    archive = tmp_path / "dataset.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tmp_path / "dataset", "dataset")
    result = run_import("faience", str(tmp_path / "dataset"), "-o", str(tmp_path / "from-folder"), "-q")
    assert result.exit_code == 0 and "6 games imported" in result.output, result.output
    result = run_import("faience", str(archive), "-o", str(tmp_path / "from-archive"), "-q", "--replay")
    assert result.exit_code == 0 and "6 games imported" in result.output, result.output
    assert "6 games, " in result.output
    assert sorted(p.name for p in (tmp_path / "from-archive").iterdir()) == \
        sorted(p.name for p in (tmp_path / "from-folder").iterdir())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_given_to_import_or_to_scenarios_check_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    result = run_import("faience", str(tmp_path / "pipe.jsonl"), "-o", str(tmp_path / "out"), "-q")
    assert result.exit_code == 1 and "a FIFO, not a regular file" in result.output
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    os.mkfifo(scenarios / "pipe.yaml")
    result = CliRunner().invoke(main, ["scenarios", "check", str(scenarios)])
    assert result.exit_code == 1 and "pipe.yaml: cannot be read: a FIFO, not a regular file" in result.output


def test_two_processes_import_the_same_records_in_the_same_order_as_one(tmp_path):
    lines = [LINES[n % 3] for n in range(700)] + ["{not json", json.dumps(game(0, **{"human_seat": True}))]
    dataset = faience(tmp_path, lines, "big.jsonl")
    one = run_import("faience", str(dataset), "-o", str(tmp_path / "one"), "-q")
    two = run_import("faience", str(dataset), "-o", str(tmp_path / "two"), "-q", "-j", "2")
    assert one.exit_code == two.exit_code == 1  # the two bad lines
    assert one.output.replace("/one,", "/two,") == two.output
    assert "700 games imported" in one.output and "2 skipped" in one.output
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "two").iterdir()) and len(names) == 700
    assert all((tmp_path / "one" / n).read_bytes() == (tmp_path / "two" / n).read_bytes() for n in names)


def test_records_can_go_to_an_archive_which_is_never_replaced_without_force_nor_written_through_a_link(tmp_path):
    archive, outside = tmp_path / "records.tar.gz", tmp_path / "precious.txt"
    result = run_import("faience", str(SAMPLE), "-o", str(archive), "-q")
    assert result.exit_code == 0, result.output
    with tarfile.open(archive) as tar:
        assert tar.getnames() == [f"records/sample-00{n}.azr" for n in (1, 2, 3)]
    replayed = CliRunner().invoke(main, ["replay", str(archive), "-q"])
    assert "3 games, 167 moves" in replayed.output
    assert run_import("faience", str(SAMPLE), "-o", str(archive), "-q").exit_code == 2
    outside.write_text("keep me", encoding="utf-8")
    archive.unlink()
    os.symlink(outside, archive)
    assert run_import("faience", str(SAMPLE), "-o", str(archive), "-q").exit_code == 2
    assert run_import("faience", str(SAMPLE), "-o", str(archive), "-q", "--force").exit_code == 0
    assert outside.read_text(encoding="utf-8") == "keep me" and not archive.is_symlink()
    assert run_import("faience", str(SAMPLE), "-o", str(tmp_path / "r.zip"), "-q").exit_code == 2


def test_quiet_prints_no_progress_line_however_long_the_import_or_replay_takes(tmp_path, monkeypatch):
    # a slow machine (or a big dataset) outlasts the progress's 10 s between log lines; -q promises the problems
    # and the summary only, and two runs' outputs must stay comparable line for line
    from azul_conformance.harness import progress

    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.001)
    lines = [LINES[n % 3] for n in range(60)]
    dataset = faience(tmp_path, lines, "big.jsonl")
    loud = run_import("faience", str(dataset), "-o", str(tmp_path / "loud"), "--replay")
    assert "import: " in loud.output and "replay: " in loud.output  # the lines -q must leave out
    quiet = run_import("faience", str(dataset), "-o", str(tmp_path / "quiet"), "-q", "--replay")
    assert quiet.exit_code == 0, quiet.output
    assert "import: " not in quiet.output and "replay: " not in quiet.output, quiet.output
    assert "60 games imported" in quiet.output
