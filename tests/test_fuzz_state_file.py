"""The fuzz state file is checked whole before a game is played, locked while a campaign uses it, and never lets
a deviation's rule write outside the report folder.

Each damaged file (tests/hostile_runs.py) is refused with `file:line: what is wrong`, by the reader and by
`azul fuzz` (exit status 1, no traceback, no game played); a campaign resumed from a file that holds a block twice
counts its games once; two campaigns on one state file or report folder cannot run at once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from azul_conformance.fuzz.campaign import Block, CampaignError, CampaignSpec, close_engines
from azul_conformance.fuzz.games import FailingGame
from azul_conformance.fuzz.report import results_of, slug
from azul_conformance.fuzz.run import LocalExecutor, play_campaign
from azul_conformance.fuzz.state import StateFile, StateFileError
from hostile_runs import BLOCK, DAMAGED_STATES, DEVIATION, HEADER, block, deviation, lines

AZUL = str(Path(sys.executable).parent / "azul")
SPEC = CampaignSpec()  # seed 0, two players, coloured wall, the reference in-process: HEADER's campaign


def azul(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([AZUL, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


@pytest.mark.parametrize("name", sorted(DAMAGED_STATES))
def test_a_damaged_state_file_is_refused_at_its_line(tmp_path, name):
    make, line = DAMAGED_STATES[name]
    path = tmp_path / "fuzz-state.jsonl"
    path.write_bytes(make())
    before = path.read_bytes()
    with pytest.raises(StateFileError) as refused:
        StateFile(path, SPEC)
    assert refused.value.line == line and str(refused.value).startswith(f"{path}:{line}")
    assert len(str(refused.value)) < 2000  # an excerpt of a long line, not the line
    assert path.read_bytes() == before  # nothing appended to a file that was refused


@pytest.mark.parametrize("name", ["header without spec", "a deviation that is a number", "block index infinite",
                                  "nested 100,000 deep", "not UTF-8", "rule a number", "plan choices a number"])
def test_azul_fuzz_refuses_a_damaged_state_file_before_any_game(tmp_path, name):
    make, line = DAMAGED_STATES[name]
    (tmp_path / "fuzz-state.jsonl").write_bytes(make())
    run = azul("fuzz", "--games", "20", "--report-dir", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and f"fuzz-state.jsonl:{line}" in run.stderr
    assert "games/s" not in run.stdout and not (tmp_path / "report.jsonl").exists()


def test_negative_and_huge_counts_are_refused_by_name(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(HEADER, block(games=-990, counts={}, deviations=[])))
    with pytest.raises(StateFileError, match=r's.jsonl:2: block record: "games" must be a whole number from 0'):
        StateFile(path, SPEC)
    path.write_bytes(lines(HEADER, block(counts={DEVIATION["key"]: 10 ** 9})))
    with pytest.raises(StateFileError, match=r"the count of .* must be a whole number from 1 to 10, not 1000000000"):
        StateFile(path, SPEC)


def test_an_empty_file_starts_a_campaign_with_its_header(tmp_path):
    for text in (b"", b"\n\n  \n"):
        path = tmp_path / "s.jsonl"
        path.write_bytes(text)
        StateFile(path, SPEC).close()
        first = json.loads(path.read_text().splitlines()[0])
        assert first["type"] == "header" and first["format"] == "azul-fuzz-state/1"
        StateFile(path, SPEC).close()  # and it is read back


def test_a_block_recorded_twice_is_counted_once_and_games_left_out_are_played_again(tmp_path):
    path = tmp_path / "s.jsonl"
    quiet = block(counts={}, deviations=[])
    # two runs at once (before the lock) wrote blocks 0-9 twice, and 5-14 over both
    path.write_bytes(lines(HEADER, quiet, quiet, {**quiet, "block": 5}, {**quiet, "block": 10, "games": 5}))
    state = StateFile(path, SPEC)
    assert state.findings.games == 15 and state.left_out == 2
    played = play_campaign(SPEC, state, LocalExecutor(1), 20, None, 10)
    state.close()
    close_engines()
    assert played and state.findings.games == 20
    again = StateFile(path, SPEC)
    assert again.findings.games == 20 and sorted(again.findings.done) == [(0, 10), (10, 5), (15, 5)]
    again.close()


def test_a_torn_last_line_is_dropped_so_the_next_resume_reads_cleanly_too(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(HEADER, BLOCK))
    for resume in range(3):  # the second resume used to find the first torn line mid-file: "damaged"
        with path.open("ab") as out:  # killed while writing a block's line
            out.write(json.dumps({**BLOCK, "block": 500}).encode()[:40])
        state = StateFile(path, SPEC)
        assert state.findings.games == 10 + 5 * resume
        state.record(Block(20 + 5 * resume, 5))
        state.close()
    assert StateFile(path, SPEC).findings.games == 25


def test_two_campaigns_on_one_state_file_cannot_run_at_once(tmp_path):
    path = tmp_path / "s.jsonl"
    first = StateFile(path, SPEC)
    with pytest.raises(CampaignError, match=f"another azul run .* is using the state file {path}"):
        StateFile(path, SPEC)
    first.close()
    StateFile(path, SPEC).close()  # free again once the first has ended


def hold_lock(lock: Path) -> subprocess.Popen:
    """Another process holding the lock `lock` (as a run does), until it is killed."""
    code = ("import sys, time; from azul_conformance.harness.folder_lock import take; "
            "take(sys.argv[1], 'x'); print('held', flush=True); time.sleep(120)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(lock)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_azul_fuzz_on_a_report_folder_refuses_at_once_and_a_killed_holder_frees_it(tmp_path):
    holder = hold_lock(tmp_path / ".azul-lock")
    try:
        began = time.monotonic()
        run = azul("fuzz", "--games", "20", "--report-dir", str(tmp_path))
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert f"is using the report folder {tmp_path}" in run.stderr and f"pid {holder.pid}" in run.stderr
        assert time.monotonic() - began < 60  # refused, not waited out
        assert not (tmp_path / "fuzz-state.jsonl").exists()
    finally:
        holder.send_signal(signal.SIGKILL)  # a crash: the kernel releases the lock
        holder.wait(timeout=10)
    run = azul("fuzz", "--games", "20", "--report-dir", str(tmp_path), "--shrink-seconds", "0")
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads((tmp_path / "fuzz-state.jsonl").read_text().splitlines()[-1])["games"] == 20


def test_two_azul_fuzz_at_once_on_one_state_file_never_over_count(tmp_path):
    state = tmp_path / "shared.jsonl"
    args = ["fuzz", "--games", "400", "--block", "20", "--state", str(state), "--shrink-seconds", "0"]
    first = subprocess.Popen([AZUL, *args, "--report-dir", str(tmp_path / "a")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if state.exists() and state.stat().st_size:
                break
            time.sleep(0.05)
        second = azul(*args, "--report-dir", str(tmp_path / "b"))
        out, err = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, out + err
    if second.returncode == 0:  # the first had already finished: then the second found every game played
        assert "400 games in all (0 this session" in second.stdout
    else:
        assert "is using the state file" in second.stderr
    final = StateFile(state, SPEC)
    assert final.findings.games == 400 and final.left_out == 0
    final.close()


def test_a_hostile_rule_never_names_a_file_outside_the_report_folder(tmp_path):
    folder = tmp_path / "reports"
    path = folder / "fuzz-state.jsonl"
    hostile = deviation(rule="/../../../escaped", key="fail x", index=0)
    hostile["counts"] = {"fail x": 1}
    path.parent.mkdir()
    path.write_bytes(lines(HEADER, hostile))
    state = StateFile(path, SPEC)
    results = results_of(SPEC, state.findings, str(folder / "counterexamples"), shrink_seconds=0)
    state.close()
    close_engines()
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert all(folder in p.parents for p in written), written
    assert results[0].id == "fuzz-01-escaped"
    assert Path(results[0].counterexample).parent == folder / "counterexamples"
    assert slug("../..") == "deviation" and slug("OFFER-5") == "offer-5"


def test_a_block_from_a_worker_with_a_hostile_rule_writes_inside_the_report_folder_too(tmp_path):
    """As a Dask worker's block comes back: through play_campaign's block function."""
    def hostile_worker(spec, first, count, deadline):
        found = FailingGame(**{**DEVIATION, "rule": "/../../../../../tmp/evil", "index": first, "key": "fail x"})
        return Block(first, count, {"fail x": found}, {"fail x": 1}, 0.1, "evil:1")

    state = StateFile(tmp_path / "r" / "s.jsonl", SPEC)
    play_campaign(SPEC, state, LocalExecutor(1), 10, None, 10, block_function=hostile_worker)
    results = results_of(SPEC, state.findings, str(tmp_path / "r" / "counterexamples"), shrink_seconds=0)
    state.close()
    close_engines()
    assert results[0].id == "fuzz-01-tmp-evil"
    assert all((tmp_path / "r") in p.parents for p in tmp_path.rglob("*") if p.is_file())


def test_a_worker_block_that_could_not_be_read_back_is_refused_before_it_is_written(tmp_path):
    def liar(spec, first, count, deadline):
        return Block(first, -990)

    state = StateFile(tmp_path / "s.jsonl", SPEC)
    with pytest.raises(CampaignError, match=r'a worker \(\?\) sent back a block that is not valid: .*"games"'):
        play_campaign(SPEC, state, LocalExecutor(1), 10, None, 10, block_function=liar)
    state.close()
    assert StateFile(tmp_path / "s.jsonl", SPEC).findings.games == 0


def test_the_state_file_is_never_written_in_the_current_folder(tmp_path):
    run = azul("fuzz", "--games", "5", "--shrink-seconds", "0", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert list(tmp_path.iterdir()) == []
    said = [line for line in run.stdout.splitlines() if line.startswith("state file: ")]
    where = Path(said[0].split()[2])
    assert where.name == "fuzz-state.jsonl" and where.parent.name.startswith("azul-fuzz-")
    assert oct(where.parent.stat().st_mode & 0o777) == "0o700"  # a private folder (tempfile.mkdtemp)


def test_a_state_file_that_is_a_fifo_or_a_device_is_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(StateFileError, match="not a regular file"):
            StateFile(path, SPEC)
