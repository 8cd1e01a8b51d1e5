"""Reliability IV: no process of a run outlives it, and every run ends, with one clear line and whole files.

- a worker dies with the process that started it (`azul conform -j 2`, `azul mutants -j 2` killed with SIGKILL),
  so the report folder's lock goes with the run; an engine dies with its worker, and what an engine started in a
  session of its own dies when the run ends, however it ends, or with the engine when no mark reaches it (its
  environment cleared: adopted by the process that started the engine, a child subreaper; processes.py);
- a lock whose holder has ended is taken over with a notice (harness/folder_lock.py);
- an in-process engine whose call never returns, deaf to SIGTERM, is cut with its worker (harness/parallel.py);
- a worker that dies under `azul import -j 2` or `azul replay -j 2` ends the command with one line and no
  half-written file; Ctrl-C during a process per item prints no worker's traceback.

Processes are started in sessions of their own and every process a test saw is killed by its pid at the end;
every wait is bounded. Linux (/proc, PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli import import_games as import_module
from azul_conformance.cli.import_games import import_games
from azul_conformance.cli.replay import replay as replay_command
from azul_conformance.harness import folder_lock
from azul_conformance.records import batch

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux: /proc and PR_SET_PDEATHSIG")

AZUL = str(Path(sys.executable).parent / "azul")
HERE = Path(__file__).resolve().parent
FAKES = HERE / "fake_engines"
DEAF = f"py:{HERE / 'inprocess_engines' / 'deaf.py'}"
SAMPLES = HERE.parent / "conformance" / "records" / "samples"
FAIENCE = HERE / "fixtures" / "faience" / "sample.jsonl"
LONG = "property-invariants,property-game-ends,property-legal-move-list,differential-takes"  # a minute each,
# at --delay 0.05: both workers are busy (each is handed two cases at a time)
NOWHERE = 4194305  # beyond the largest pid Linux gives (PID_MAX_LIMIT): no process has it

# A protocol engine (the reference, each move after --delay) that first starts a process in a session of its own
# (as a server or a daemon does) and leaves its pid and its own in the folder given: engine-PID, orphan-PID, and
# busy-PID once it has been asked a move. It lingers once its input ends (as an engine may): only a signal ends it.
ENGINE = textwrap.dedent("""\
    import os, subprocess, sys, time
    folder = sys.argv[1]
    sys.path.insert(0, {fakes!r})
    from _common import serve
    # --bare: its environment cleared, as a daemon may do: the run's mark does not reach it
    orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True,
                              env={{}} if "--bare" in sys.argv else None)
    open(os.path.join(folder, f"orphan-{{orphan.pid}}"), "w").close()
    open(os.path.join(folder, f"engine-{{os.getpid()}}"), "w").close()
    busy = os.path.join(folder, f"busy-{{os.getpid()}}")

    def hook(request, reply, server):
        if request.get("cmd") == "play" and not os.path.exists(busy):
            open(busy, "w").close()
        return reply

    serve(hook)
    time.sleep(600)
""")


# -- processes, seen from outside -------------------------------------------------------------------------------

def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in "ZX"  # a zombie is dead, waiting to be reaped


def children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and (stat := _stat(int(name))) is not None and stat[1] == pid and stat[0] not in "ZX":
            found.append(int(name))
    return found


def until(condition, seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class Seen:
    """Every process a test started or saw, killed by its pid when the test ends (passed or not)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.pids = folder, set()

    def pids_named(self, prefix: str) -> list[int]:
        found = [int(p.name.split("-")[1]) for p in self.folder.glob(f"{prefix}-*")]
        self.pids.update(found)
        return found

    def end(self) -> None:
        self.pids_named("engine"), self.pids_named("orphan")
        for pid in self.pids:
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass


@pytest.fixture
def seen(tmp_path):
    folder = tmp_path / "pids"
    folder.mkdir()
    seen = Seen(folder)
    yield seen
    seen.end()


def engine(tmp_path: Path, seen: Seen, delay: float = 0.0, bare: bool = False) -> str:
    script = tmp_path / "engine.py"
    script.write_text(ENGINE.format(fakes=str(FAKES)), encoding="utf-8")
    return f"{sys.executable} {script} {seen.folder}" + (f" --delay {delay}" if delay else "") + " --bare" * bare


def start(seen: Seen, *args: str) -> subprocess.Popen:
    run = subprocess.Popen([AZUL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    seen.pids.add(run.pid)
    return run


def finish(run: subprocess.Popen, seconds: float) -> tuple[str, str]:
    try:
        return run.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        out, err = run.communicate()
        pytest.fail(f"the run did not end within {seconds} s\n{out}\n{err}")


def start_busy_run(tmp_path, seen, reports):
    """`conform -j 2` on long cases, returned once each worker is in the middle of a case."""
    run = start(seen, "conform", "--engine", engine(tmp_path, seen, delay=0.05), "-j", "2", "--report-dir",
                str(reports), "--only", LONG, "--examples", "20", "--no-diagnose")
    assert until(lambda: len(seen.pids_named("busy")) == 2, 60)
    return run


# -- 1. workers die with their parent; an engine with its worker -------------------------------------------------

def test_a_conform_run_killed_with_sigkill_takes_its_workers_and_engines_and_leaves_its_folder_free(tmp_path, seen):
    reports = tmp_path / "reports"
    run = start_busy_run(tmp_path, seen, reports)
    try:
        workers = children(run.pid)
        seen.pids.update(workers)
        assert len(workers) == 2
        engines, orphans = seen.pids_named("engine"), seen.pids_named("orphan")
        run.send_signal(signal.SIGKILL)
        run.wait(10)
        assert until(lambda: not any(alive(pid) for pid in workers + engines), 5)  # the kernel's doing: at once
    finally:
        run.communicate()
    folder_lock.take(reports / folder_lock.LOCK_NAME, "the report folder", notice=lambda _: None).release()
    # (what the engines started in sessions of their own outlives a run killed with SIGKILL: nobody is left to
    # end it; see processes.py)
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)


def test_a_mutants_run_killed_with_sigkill_takes_its_workers(seen):
    run = start(seen, "mutants", "-j", "2", "--only", "FLOOR", "--every-case")
    try:
        assert until(lambda: len(children(run.pid)) == 2, 60), run.stderr
        workers = children(run.pid)
        seen.pids.update(workers)
        run.send_signal(signal.SIGKILL)
        run.wait(10)
        assert until(lambda: not any(alive(pid) for pid in workers), 5)  # each was minutes from its end
    finally:
        run.communicate()


def test_a_worker_started_off_the_main_thread_outlives_that_thread_and_still_dies_with_its_parent(seen):
    # the kernel's death signal would come when the starting thread ends: such a worker watches its parent instead
    code = textwrap.dedent("""\
        import threading, time
        from azul_conformance.processes import Crew

        def idle(conn):
            time.sleep(60)

        crews = []
        starter = threading.Thread(target=lambda: crews.append(Crew(idle, (), 1)))
        starter.start()
        starter.join()
        print(crews[0].workers[0].process.pid, flush=True)
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, start_new_session=True)
    seen.pids.add(parent.pid)
    try:
        worker = int(parent.stdout.readline())
        seen.pids.add(worker)
        time.sleep(1)
        assert alive(worker)  # its starting thread has ended: not a reason to die
        parent.kill()
        parent.wait(10)
        assert until(lambda: not alive(worker), 5)
    finally:
        parent.kill()
        parent.communicate()


def test_a_conform_worker_killed_takes_its_engine_and_all_it_started_and_the_run_ends_clean(tmp_path, seen):
    reports = tmp_path / "reports"
    run = start_busy_run(tmp_path, seen, reports)
    try:
        workers = children(run.pid)
        seen.pids.update(workers)
        engines = seen.pids_named("engine")
        orphans = seen.pids_named("orphan")
        victim = workers[0]
        its_engine = next(pid for pid in engines if _stat(pid) and _stat(pid)[1] == victim)
        its_orphan = next(pid for pid in orphans if _stat(pid) and _stat(pid)[1] == its_engine)
        os.kill(victim, signal.SIGKILL)
        assert until(lambda: not alive(its_engine), 5)
        # the main process saw its worker die: what that worker's engine started is ended too, nothing else
        assert until(lambda: not alive(its_orphan), 10)
        assert sum(alive(pid) for pid in orphans) == 1
        assert until(lambda: len(seen.pids_named("engine")) == 3, 60)  # a worker in its place, with its engine
        run.send_signal(signal.SIGTERM)  # the run is stopped: every process it started ends with it
        out, err = finish(run, 60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    assert "Traceback" not in err, err
    everything = seen.pids_named("engine") + seen.pids_named("orphan") + workers
    assert until(lambda: not any(alive(pid) for pid in everything), 5), [p for p in everything if alive(p)]
    assert not (reports / folder_lock.LOCK_NAME).exists()


# -- 2. what an engine starts in a session of its own ends with the run ----------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_an_engine_starts_in_a_session_of_its_own_ends_with_the_run(tmp_path, seen, jobs):
    run = start(seen, "conform", "--engine", engine(tmp_path, seen), "-j", jobs, "--only", "SETUP-6",
                "--no-diagnose")
    out, err = finish(run, 120)
    assert run.returncode == 0, out + err
    orphans = seen.pids_named("orphan")
    assert orphans and not any(alive(pid) for pid in orphans)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_an_engine_leaves_in_a_session_of_its_own_with_a_cleared_environment_ends_with_the_engine(
        tmp_path, seen, jobs):
    """No mark reaches such a helper: it outlived the run, adopted by init. The process that started the engine
    adopts it (a child subreaper) and ends it when the engine ends, before the run does."""
    run = start(seen, "conform", "--engine", engine(tmp_path, seen, bare=True), "-j", jobs, "--only", "SETUP-6",
                "--no-diagnose")
    out, err = finish(run, 120)
    assert run.returncode == 0, out + err
    orphans = seen.pids_named("orphan")
    assert orphans and until(lambda: not any(alive(pid) for pid in orphans), 5), [p for p in orphans if alive(p)]


def test_an_engine_that_ends_takes_what_it_left_behind_and_no_other_engine(tmp_path, seen):
    """In one process, two engines, each with a helper in a session of its own and a cleared environment: the
    first engine closed, its helper (adopted as it ends) is ended with it; the second engine, also a child in a
    session of its own, and its helper are left alone."""
    from azul_conformance.engines.subprocess import ProcessEngine

    first = ProcessEngine(engine(tmp_path, seen, bare=True))
    second = ProcessEngine(engine(tmp_path, seen, bare=True))
    try:
        helper = {_stat(pid)[1]: pid for pid in seen.pids_named("orphan")}  # engine pid -> its helper's
        ended, kept = first.process.pid, second.process.pid
        assert sorted(helper) == sorted([ended, kept])
        first.close()
        assert until(lambda: not alive(helper[ended]), 5)
        assert second.process.poll() is None and alive(helper[kept])
    finally:
        second.close()
    assert until(lambda: not any(alive(pid) for pid in helper.values()), 5)


def test_a_sweep_finds_what_carries_the_mark_and_nothing_else(tmp_path, seen):
    from azul_conformance import processes

    env = processes.marked_environment()
    marked = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env,
                              start_new_session=True)
    plain = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    seen.pids.update({marked.pid, plain.pid})
    try:
        assert processes.sweep([env[processes.MARK].split()[-1]]) == [marked.pid]
        assert marked.wait(5) == -signal.SIGKILL and plain.poll() is None
    finally:
        plain.kill()
        plain.wait()


# -- 3. a lock whose holder has ended ---------------------------------------------------------------------------

def test_a_lock_file_left_by_a_holder_that_ended_is_taken_over_with_a_notice(tmp_path):
    path = tmp_path / folder_lock.LOCK_NAME
    path.write_text(f"{NOWHERE}@{socket.gethostname()} azul conform --report-dir x\n")
    notices: list[str] = []
    lock = folder_lock.take(path, "the report folder x", notice=notices.append)
    assert notices == [f"the report folder x was locked by pid {NOWHERE} (azul conform --report-dir x), which "
                       "ended without releasing it: taking it over"]
    assert path.read_text().startswith(f"{os.getpid()}@")
    lock.release()
    assert not path.exists()
    folder_lock.take(path, "the report folder x", notice=notices.append).release()
    assert len(notices) == 1  # a lock released as it should be: nothing to say


def test_a_lock_kept_by_a_process_its_ended_holder_left_behind_is_taken_over_with_a_notice(tmp_path, capsys):
    path = tmp_path / folder_lock.LOCK_NAME
    kept = os.open(path, os.O_RDWR | os.O_CREAT)  # another open file: to flock, another process
    try:
        fcntl.flock(kept, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(kept, f"{NOWHERE}@{socket.gethostname()} azul conform\n".encode())
        lock = folder_lock.take(path, "the report folder x")  # the notice goes to stderr by default
        assert f"azul: the report folder x was locked by pid {NOWHERE} (azul conform), which has ended; a process " \
               "it left behind kept the lock: taking it over" in capsys.readouterr().err
        with pytest.raises(folder_lock.Busy, match=f"another azul run \\(pid {os.getpid()}: "):
            folder_lock.take(path, "the report folder x")  # this one holds it now
        lock.release()
    finally:
        os.close(kept)


@pytest.mark.parametrize("who", ["alive", "elsewhere"])
def test_a_lock_held_by_a_live_run_or_one_on_another_host_is_never_taken(tmp_path, who):
    path = tmp_path / folder_lock.LOCK_NAME
    kept = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(kept, fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder = f"{os.getpid()}@{socket.gethostname()}" if who == "alive" else f"{NOWHERE}@another-host"
        os.write(kept, f"{holder} azul conform\n".encode())
        with pytest.raises(folder_lock.Busy, match="another azul run .* is using the report folder x"):
            folder_lock.take(path, "the report folder x", notice=pytest.fail)
    finally:
        os.close(kept)


def test_a_process_forked_from_the_holder_does_not_keep_its_lock(tmp_path, seen):
    path = tmp_path / folder_lock.LOCK_NAME
    code = textwrap.dedent(f"""\
        import os, time
        from azul_conformance.harness.folder_lock import take
        take({str(path)!r}, "x")
        if os.fork() == 0:  # a worker, left behind
            os.dup2(os.open(os.devnull, os.O_RDWR), 1)
            open(os.path.join({str(seen.folder)!r}, f"engine-{{os.getpid()}}"), "w").close()
            time.sleep(60)
            os._exit(0)
        os._exit(0)  # the holder ends without releasing its lock
    """)
    subprocess.run([sys.executable, "-c", code], timeout=60, check=True, stdout=subprocess.PIPE)
    assert until(lambda: len(seen.pids_named("engine")) == 1, 10)
    assert alive(seen.pids_named("engine")[0])
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free, though the worker lives
    finally:
        os.close(fd)


# -- 4. an in-process engine that never comes back --------------------------------------------------------------

def test_an_in_process_engine_whose_call_never_returns_and_ignores_sigterm_is_cut_with_its_worker(tmp_path, seen):
    reports = tmp_path / "reports"
    began = time.monotonic()
    run = start(seen, "conform", "--engine", f"{DEAF}:deaf", "-j", "2", "--timeout", "3", "--report-dir",
                str(reports), "--only", "offer-refuse-full-line,offer-overflow-to-floor,SETUP-6", "--no-diagnose")
    out, err = finish(run, 120)
    assert time.monotonic() - began < 60 and "Traceback" not in err, out + err
    lines = [json.loads(line) for line in (reports / "report.jsonl").read_text().splitlines()]
    verdicts = {line["id"]: (line["verdict"], line.get("message", "")) for line in lines if line["type"] == "case"}
    assert {verdict for case, (verdict, _) in verdicts.items() if case.startswith("offer")} == {"timeout"}
    message = verdicts["offer-refuse-full-line"][1]
    assert message.startswith("no answer within 3 s: the call into the in-process engine did not return"), message
    # the cases that play no move pass, on the workers started in place of those ended
    assert {verdict for verdict, _ in verdicts.values()} == {"timeout", "pass"}, verdicts
    assert run.returncode == 1


def test_an_in_process_factory_that_never_returns_ends_the_run_with_its_reason(tmp_path, seen):
    run = start(seen, "conform", "--engine", f"{DEAF}:deaf_factory", "-j", "2", "--timeout", "2", "--only",
                "SETUP-6", "--no-diagnose")
    out, err = finish(run, 120)
    assert run.returncode == 2 and "Traceback" not in err, out + err
    assert "the engine did not start: its factory or hello did not return within 4 s" in " ".join(out.split())


# -- 5. a worker dying under import and replay; Ctrl-C and a process per item -----------------------------------

def convert_or_die(format_name: str, file_name: str, first: int, lines: list) -> list:
    """A worker's task in `azul import -j 2` that takes its worker down past the first chunks."""
    if first > 20:
        os._exit(9)
    return import_module.convert_lines(format_name, file_name, first, lines)


def judge_or_die(items: list) -> list:
    """A worker's task in `azul replay -j 2` that takes its worker down at the record `die.azr`."""
    if any(str(name).endswith("die.azr") for name, _ in items):
        os._exit(9)
    return batch.judge_chunk(items)


@pytest.fixture
def big_faience(tmp_path) -> Path:
    lines = FAIENCE.read_bytes().splitlines()
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\n".join(lines * 20) + b"\n")  # 60 games
    return path


@pytest.mark.parametrize("output", ["out.tar.gz", "out"])
def test_a_worker_dying_under_import_ends_it_with_one_line_and_no_partial_archive(tmp_path, monkeypatch,
                                                                                 big_faience, output):
    monkeypatch.setattr(import_module, "LINES_PER_TASK", 5)
    monkeypatch.setattr(import_module, "convert_lines", convert_or_die)
    target = tmp_path / output
    result = CliRunner().invoke(import_games, ["faience", str(big_faience), "-o", str(target), "-j", "2", "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: a worker process converting games died (exit status 9): "), result.output
    if output.endswith(".tar.gz"):
        assert last.endswith("out.tar.gz: nothing written")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]  # no archive, no temporary file
    else:
        written = int(last.split(": ")[-1].split()[0])
        assert len(list(target.glob("*.azr"))) == written and written >= 20  # whole records only


def test_an_import_into_an_archive_gives_it_its_name_only_when_whole(tmp_path, big_faience):
    target = tmp_path / "out.tar.gz"
    result = CliRunner().invoke(import_games, ["faience", str(big_faience), "-o", str(target), "-j", "2", "-q"])
    assert "60 games imported" in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "out.tar.gz"]
    again = CliRunner().invoke(import_games, ["faience", str(big_faience), "-o", str(target), "-q"])
    assert again.exit_code == 2 and "already exists: --force replaces it" in again.output
    forced = CliRunner().invoke(import_games, ["faience", str(big_faience), "-o", str(target), "-q", "--force"])
    assert forced.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "out.tar.gz"]


def test_a_worker_dying_under_replay_ends_it_with_one_line_and_no_partial_jsonl(tmp_path, monkeypatch):
    records = tmp_path / "records"
    records.mkdir()
    for number in range(250):  # more than a chunk: the first chunk's verdicts are written before the death
        shutil.copy(SAMPLES / "two-player.azr", records / f"game-{number:03d}.azr")
    shutil.copy(SAMPLES / "two-player.azr", records / "zz-die.azr")
    monkeypatch.setattr(batch, "judge_chunk", judge_or_die)
    out = tmp_path / "verdicts.jsonl"
    result = CliRunner().invoke(replay_command, [str(records), "-j", "2", "--jsonl", str(out), "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: a worker process replaying games died (exit status 9) after ") and \
        last.endswith(f"games; {out} not written"), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records"]  # no verdicts, no temporary file


def test_ctrl_c_to_the_process_group_during_a_process_per_item_prints_no_worker_traceback(tmp_path, seen):
    code = textwrap.dedent(f"""\
        import os, time
        from azul_conformance.processes import each_in_a_process

        def work(item):
            open(os.path.join({str(seen.folder)!r}, f"engine-{{os.getpid()}}"), "w").close()
            time.sleep(60)

        try:
            each_in_a_process([1, 2], work, lambda item, answer: None, jobs=2, limit=120)
        except KeyboardInterrupt:
            time.sleep(1)  # time for a worker to say anything it would
            print("interrupted", flush=True)
    """)
    # SIGINT as a terminal's Ctrl-C delivers it: a test runner started in the background ignores it, and so
    # would the run (it never ended: seen in a backgrounded CI run)
    run = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen.pids.add(run.pid)
    assert until(lambda: len(seen.pids_named("engine")) == 2, 60)
    os.killpg(run.pid, signal.SIGINT)  # Ctrl-C: to the whole process group
    out, err = finish(run, 30)
    assert out == "interrupted\n" and err == "", err  # no worker said anything
    assert not any(alive(pid) for pid in seen.pids_named("engine"))  # and none was left running
