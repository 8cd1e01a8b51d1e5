"""`azul replay` over whole datasets: folders, tar, tar.gz and zip archives of records, on one process, on N
processes and on a Dask cluster (a local one on the loopback interface, as in test_fuzz_cluster.py), with a JSON
Lines verdict per game; and the files it must not read or write: FIFOs, devices, its own inputs."""

from __future__ import annotations

import io
import json
import logging
import os
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.fuzz.run import DaskExecutor, LocalExecutor
from azul_conformance.records.batch import record_sources, replay_sources
from test_importers import ludometer_games
from test_records_fast import CORPUS

HEAD = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n'
ROUND_1 = "round 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 2Y2 2. 1B1 3R4 3. 5W5 CK1 4. CW2 CR3 5. CY4\n"
WRONG = HEAD + ROUND_1 + "[%score 3 -2]\n"  # disagrees: SCORE-5


def dataset(folder: Path) -> Path:
    """The corpus (samples and imported games) and one wrong record, as .azr files in a folder."""
    folder.mkdir()
    for number, text in enumerate(CORPUS, 1):
        (folder / f"game-{number:03d}.azr").write_text(text, encoding="utf-8")
    (folder / "wrong.azr").write_text(WRONG, encoding="utf-8")
    return folder


def verdicts(result_lines: list[dict]) -> list[tuple]:
    return [(Path(r["file"]).name, r["verdict"], r["moves"], r["claims_checked"], r.get("rule")) for r in result_lines]


def run(*args: str):
    return CliRunner().invoke(replay_command, list(args))


@pytest.fixture
def records(tmp_path):
    return dataset(tmp_path / "records")


def jsonl(path: Path) -> tuple[list[dict], dict]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return lines[:-1], lines[-1]["summary"]


def test_a_folder_gives_one_json_line_per_game_then_the_summary(records, tmp_path):
    ludometer_games()  # its 30 games are the claims counted below
    out = tmp_path / "verdicts.jsonl"
    result = run(str(records), "--jsonl", str(out), "-q")
    assert result.exit_code == 1  # the wrong record disagrees
    games, summary = jsonl(out)
    assert len(games) == len(CORPUS) + 1 and summary["games"] == len(CORPUS) + 1
    assert summary["verdicts"] == {"agrees": len(CORPUS) - 1, "explained": 1, "disagrees": 1, "invalid": 0}
    assert summary["by_rule_counts"]["disagrees"] == {"SCORE-5": 1}
    wrong = next(g for g in games if g["file"].endswith("wrong.azr"))
    assert wrong["verdict"] == "disagrees" and wrong["rule"] == "SCORE-5" and wrong["line"] == 6  # the claim
    assert summary["claims_checked"] == sum(g["claims_checked"] for g in games) > 400
    assert f"{len(CORPUS) + 1} games, " in result.output and "SCORE-5 (No score below zero): 1 game: wrong.azr" \
        in result.output


def _archive(kind: str, folder: Path, target: Path) -> Path:
    files = sorted(folder.iterdir())
    if kind == "zip":
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in files:
                archive.write(path, f"set/{path.name}")
            archive.writestr("set/README.txt", "not a record")
        return target
    with tarfile.open(target, "w:gz" if kind == "tar.gz" else "w") as archive:
        for path in files:
            archive.add(path, f"set/{path.name}")
        link = folder.parent / "link.azr"  # a symlink member: not a regular file, not read
        os.symlink("/etc/passwd", link)
        archive.add(link, "set/link.azr")
    return target


@pytest.mark.parametrize("kind", ["tar", "tar.gz", "zip"])
def test_an_archive_gives_the_same_verdicts_as_the_folder(records, tmp_path, kind):
    archive = _archive(kind, records, tmp_path / f"set.{kind}")
    run(str(records), "--jsonl", str(tmp_path / "folder.jsonl"), "-q")
    result = run(str(archive), "--jsonl", str(tmp_path / "archive.jsonl"), "-q")
    assert result.exit_code == 1, result.output
    folder_games, _ = jsonl(tmp_path / "folder.jsonl")
    archive_games, summary = jsonl(tmp_path / "archive.jsonl")
    assert verdicts(archive_games) == verdicts(folder_games) and summary["games"] == len(CORPUS) + 1
    assert all(Path(g["file"]).parent.name == "set" for g in archive_games)


def test_two_processes_give_the_verdicts_of_one_in_the_same_order(records, tmp_path):
    run(str(records), "--jsonl", str(tmp_path / "one.jsonl"), "-q")
    result = run(str(records), "-j", "2", "--jsonl", str(tmp_path / "two.jsonl"), "-q")
    assert result.exit_code == 1, result.output
    assert verdicts(jsonl(tmp_path / "two.jsonl")[0]) == verdicts(jsonl(tmp_path / "one.jsonl")[0])


def test_a_damaged_archive_is_one_invalid_entry_not_a_traceback(tmp_path):
    damaged = tmp_path / "set.tar.gz"
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        text = (HEAD + ROUND_1).encode()
        info = tarfile.TarInfo("a.azr")
        info.size = len(text)
        archive.addfile(info, io.BytesIO(text))
    damaged.write_bytes(data.getvalue()[:-30])
    result = run(str(damaged))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "invalid" in result.output and "damaged" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_and_a_device_among_the_records_are_refused_without_waiting(records, tmp_path):
    os.mkfifo(records / "pipe.azr")  # nobody writes to it: reading it would wait for ever
    os.symlink("/dev/zero", records / "zero.azr")  # endless: reading it would fill the memory
    result = run(str(records), "--jsonl", str(tmp_path / "v.jsonl"), "-q")
    games, summary = jsonl(tmp_path / "v.jsonl")
    refused = {Path(g["file"]).name: g["message"] for g in games if g["verdict"] == "invalid"}
    assert refused == {"pipe.azr": "cannot be read: a FIFO, not a regular file: only regular files are read",
                       "zero.azr": "cannot be read: a device, not a regular file: only regular files are read"}
    assert summary["games"] == len(CORPUS) + 3 and result.exit_code == 1


def test_an_output_that_is_an_input_is_refused_before_anything_is_written(records, tmp_path):
    record = records / "wrong.azr"
    before = record.read_text(encoding="utf-8")
    for args in ([str(record), "--json", str(record)], [str(records), "--jsonl", str(record)],
                 [str(records), "--json", str(records / "new.azr")]):
        result = run(*args)
        assert result.exit_code == 2 and ("one of the inputs" in result.output or "inside the input folder"
                                          in result.output), result.output
    assert record.read_text(encoding="utf-8") == before and not (records / "new.azr").exists()


def test_the_summary_of_a_long_run_keeps_counts_not_games(tmp_path, monkeypatch):
    # many copies of one wrong record (ten times the names a rule keeps, here 25 of them, not the 1000 of a real
    # run): the names kept per rule are bounded, the counts are whole
    from azul_conformance.records import batch

    monkeypatch.setattr(batch, "NAMES_PER_RULE", 25)
    copies = 10 * batch.NAMES_PER_RULE
    sources = ((f"g{n}.azr", WRONG.encode()) for n in range(copies))
    result = replay_sources(sources)
    assert result.count("disagrees") == copies and result.games == []
    count, names = result.by_rule("disagrees")["SCORE-5"]
    assert count == copies and len(names) == batch.NAMES_PER_RULE


@pytest.fixture
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=logging.CRITICAL) as local:
        with distributed.Client(local) as client:
            client.wait_for_workers(2, timeout=600)  # a condition, not a time: generous for a loaded machine
            yield client


def test_a_dask_cluster_gives_the_verdicts_of_one_process_in_the_same_order(records, cluster):
    executor = DaskExecutor(client=cluster)
    assert executor.workers == 2
    on_cluster = replay_sources(record_sources([records]), executor, keep=True, chunk=5)
    here = replay_sources(record_sources([records]), keep=True)
    assert [g.to_json() for g in on_cluster.games] == [g.to_json() for g in here.games]
    assert on_cluster.counts == here.counts and on_cluster.claims == here.claims


def test_local_processes_take_chunks_in_flight_and_give_them_back_in_order(records):
    executor = LocalExecutor(2)
    try:
        result = replay_sources(record_sources([records]), executor, keep=True, chunk=3)
    finally:
        executor.close()
    assert [Path(g.path).name for g in result.games] == sorted(p.name for p in records.iterdir())
