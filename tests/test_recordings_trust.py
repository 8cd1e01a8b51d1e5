"""Recordings that cannot collide or lie: a recording is locked for its run (a second run recording there is
refused, naming the first), never made over another file of the run, bounded by what the suite can ask, its
header checked against its exchanges; the harness's own write failure stops the run naming the file, never
blamed on the engine; case ids given twice are refused before anything runs."""

from __future__ import annotations

import gzip
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from azul_conformance.engines.recording import FORMAT, RecordingError, hello_json, read_recording
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness import folder_lock, read_report
from azul_conformance.harness.record_file import lock_path

AZUL = str(Path(sys.executable).parent / "azul")
ROOT = Path(__file__).resolve().parents[1]
FLOOR = str(ROOT / "conformance" / "scenarios" / "floor")


def conform(*args: str, timeout: float = 120, **options) -> subprocess.CompletedProcess:
    return subprocess.run([AZUL, "conform", *args], capture_output=True, text=True, timeout=timeout, **options)


def header(**fields) -> dict:
    return {"format": FORMAT, "suite_version": "0", "command": "x", "seed": 0, "examples": 2,
            "hello": hello_json(ReferenceEngine(0).hello()), **fields}


def write(path: Path, records: list[dict]) -> Path:
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    return path


def test_a_second_run_recording_to_the_same_file_is_refused_naming_the_first(tmp_path):
    recording = write(tmp_path / "session.jsonl.gz", [header()])
    before = recording.read_bytes()
    with folder_lock.take(lock_path(recording), f"the recording {recording}"):  # a run recording there now
        run = conform("--only", "FLOOR-1", "--no-properties", "--record", str(recording))
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"another azul run (pid {os.getpid()}" in run.stdout and str(recording) in run.stdout
    assert recording.read_bytes() == before  # nothing truncated
    # once the first run has ended, the file is recorded anew, and its lock is gone with the run
    again = conform("--only", "FLOOR-1", "--no-properties", "--record", str(recording))
    assert again.returncode == 0, again.stdout
    assert len(read_recording(str(recording)).cases) >= 1 and not lock_path(recording).exists()


@pytest.mark.parametrize("target", ["compare", "report.jsonl", "junit.xml", ".azul-lock"])
def test_a_recording_is_never_made_over_another_file_of_the_run(tmp_path, target):
    folder = tmp_path / "reports"
    first = conform("--only", "FLOOR-1", "--no-properties", "--report-dir", str(folder))
    assert first.returncode == 0, first.stdout
    old = tmp_path / "old.jsonl"
    old.write_bytes((folder / "report.jsonl").read_bytes())
    kept = {path: path.read_bytes() for path in (old, folder / "report.jsonl", folder / "junit.xml")}
    record = old if target == "compare" else folder / target
    # (a recording onto the folder's lock once waited for ever on its own lock: the timeout says it cannot)
    run = conform("--only", "FLOOR-1", "--no-properties", "--report-dir", str(folder), "--compare", str(old),
                  "--record", str(record), timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"--record: {record}" in run.stdout and ("would destroy it" in run.stdout or "lock file" in run.stdout)
    assert {path: path.read_bytes() for path in kept} == kept


def test_a_recording_larger_than_the_suite_can_ask_is_refused_in_bounded_memory(tmp_path):
    # short valid exchanges, compressed a thousandfold: 3 million lines, 190 MB once inflated
    line = json.dumps({"case": "c", "request": {"cmd": "legal_moves"}, "reply": {"moves": []}}) + "\n"
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb") as handle:
        handle.write((json.dumps(header()) + "\n").encode())
        for _ in range(3000):
            handle.write(line.encode() * 1000)
    assert path.stat().st_size < 2 << 20
    # the probe's own peak (VmHWM, the high-water mark of its memory since it was exec'd): ru_maxrss would keep
    # the size of the test process it was forked from, hundreds of MB on a test worker that ran other tests
    probe = ("import re, sys\nfrom azul_conformance.engines.recording import read_recording, RecordingError\n"
             "try:\n    read_recording(sys.argv[1])\nexcept RecordingError as error:\n    print(error)\n"
             "status = open('/proc/self/status').read()\n"
             "print(int(re.search(r'VmHWM:\\s+(\\d+) kB', status)[1]) // 1024)")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=300)
    message, peak = out.stdout.splitlines()
    assert "more than the suite asks at --examples 2" in message and f"{path}:" in message, out.stdout + out.stderr
    assert int(peak) < 300, f"{peak} MB"


def test_a_case_held_in_one_buffer_reads_back_line_by_line(tmp_path):
    records = [header()] + [{"case": "c", "request": {"cmd": "legal_moves"}, "reply": {"moves": [f"{n}B1"]}}
                            for n in range(3)]
    tape = read_recording(str(write(tmp_path / "r.jsonl.gz", records))).cases["c"].lines
    assert len(tape) == 3 and [json.loads(tape[i][1])["reply"]["moves"] for i in range(3)] == [["0B1"], ["1B1"],
                                                                                                  ["2B1"]]
    assert [tape[i][0] for i in range(3)] == [2, 3, 4]


def test_a_header_whose_hello_no_longer_offers_what_its_cases_asked_is_refused(tmp_path):
    hello = hello_json(ReferenceEngine(0).hello())
    hello["capabilities"]["players"] = [3, 4]  # edited after the run, which played 2-player games
    records = [header(hello=hello), {"case": "c", "request": {"cmd": "new_game", "players": 2, "variant": "colour",
                                                             "start_player": 0}, "error": {"kind": "timeout",
                                                                                           "message": "x"}}]
    with pytest.raises(RecordingError, match=r"r.jsonl.gz:2: case 'c' asked new_game with 2 players, which the "
                                             "header's hello does not offer"):
        read_recording(str(write(tmp_path / "r.jsonl.gz", records)))
    # a count the rules forbid is a refusal the suite checks, whatever the engine offers
    records[1]["request"]["players"] = 5
    assert read_recording(str(write(tmp_path / "r.jsonl.gz", records))).cases["c"]


@pytest.mark.parametrize("field,value", [("seed", 10 ** 30), ("examples", -3), ("examples", 0)])
def test_a_header_seed_or_examples_out_of_range_is_refused(tmp_path, field, value):
    path = write(tmp_path / "r.jsonl.gz", [header(**{field: value})])
    with pytest.raises(RecordingError, match=rf"r.jsonl.gz:1: the header's {field} must be from"):
        read_recording(str(path))


def _file_size_limit(size: int):
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_recording_that_cannot_be_written_stops_the_run_naming_it(tmp_path, jobs):
    recording = tmp_path / "session.jsonl.gz"  # the disk "fills" at 16 KB (a file size limit)
    run = conform("--only", "OFFER,FLOOR,WALL", "--no-properties", "--record", str(recording), "-j", jobs,
                  "--format", "terminal", preexec_fn=_file_size_limit(16384))
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"--record: {recording}: the recording cannot be written" in run.stdout.replace("\n", "")
    assert "worker process" not in run.stdout and "Traceback" not in run.stdout + run.stderr
    assert " error" not in run.stdout.split("cases over")[-1]  # no case blamed on the engine


def test_a_device_is_refused_as_a_recording():
    run = conform("--only", "FLOOR-1", "--no-properties", "--record", "/dev/full")
    assert run.returncode == 2 and "/dev/full: not a regular file" in run.stdout, run.stdout


def test_case_ids_given_twice_are_refused_before_anything_runs(tmp_path):
    run = conform("--scenarios", FLOOR, "--scenarios", str(Path(FLOOR) / "floor-line.yaml"), "-j", "2",
                  "--report-dir", str(tmp_path))
    assert run.returncode == 2, run.stdout
    assert "case id 'floor-overflow-to-lid' is given twice: conformance/scenarios/floor/floor-line.yaml:2" in \
        run.stdout.replace("\n", "")
    assert not (tmp_path / "report.jsonl").exists()
    other = tmp_path / "other.yaml"  # one id in two files: both places named
    text = (Path(FLOOR) / "floor-line.yaml").read_text()
    other.write_text(text)
    run = conform("--scenarios", str(Path(FLOOR) / "floor-line.yaml"), "--scenarios", str(other), "--no-properties")
    assert run.returncode == 2 and "floor-line.yaml:2 and " in run.stdout and "other.yaml:2" in run.stdout, run.stdout


def test_a_lock_file_that_is_a_fifo_is_named_and_said_what_is_wrong(tmp_path):
    os.mkfifo(tmp_path / ".azul-lock")
    run = conform("--only", "FLOOR-1", "--no-properties", "--report-dir", str(tmp_path), timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"the lock file {tmp_path / '.azul-lock'} is a FIFO" in run.stdout.replace("\n", "")


def test_a_property_not_run_from_a_recording_writes_no_counterexample(tmp_path):
    serve = f"{sys.executable} -c 'from azul_conformance.cli import main; main()' serve"
    engine = f"{serve} --misreading floor-penalties-flat"
    recording = tmp_path / "r.jsonl.gz"
    live = conform("--engine", engine, "--only", "differential-end", "--examples", "4", "--record", str(recording),
                   "--report-dir", str(tmp_path / "live"), timeout=300)
    assert live.returncode == 1 and (tmp_path / "live" / "counterexamples" / "differential-end.yaml").exists()
    # more games than were recorded: the failure is found again on the recorded answers, then the search for
    # others asks what the recording does not hold, so the case is not_run, and its game stands for nothing
    again = conform("--recording", str(recording), "--only", "differential-end", "--examples", "8",
                    "--report-dir", str(tmp_path / "again"), timeout=300)
    [result] = read_report(tmp_path / "again" / "report.jsonl").results
    assert result.verdict == "not_run", again.stdout
    assert not list((tmp_path / "again" / "counterexamples").glob("*.yaml"))


def test_an_append_waits_for_the_recordings_lock_a_bounded_time_then_names_the_file(tmp_path, monkeypatch):
    import fcntl

    from azul_conformance.engines import recording

    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(b"")
    monkeypatch.setattr(recording, "LOCK_WAIT", 0.3)
    with open(path, "ab") as holder:  # another process's append that never ends
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(RecordingError, match=r"r.jsonl.gz: another process has held the recording's lock for "
                                                 r"more than 0.3 s"):
            recording.append(str(path), lambda: header(), [{"case": "c", "ended": 0}])
    assert path.read_bytes() == b""
