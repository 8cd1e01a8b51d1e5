"""A hostile pass over every command: each `azul` subcommand given what an attacker or an unlucky user would give
it, each attempt in its own process and folder, and judged on what it must never do.

    python benchmarks/hostile_pass.py                   # every attempt (about 290; 10-20 minutes on 2 cores)
    python benchmarks/hostile_pass.py --only render,serve
    python benchmarks/hostile_pass.py --list            # the attempts, without running them
    python benchmarks/hostile_pass.py --json pass.json  # also write every attempt's outcome

An attempt **held** when the command ended on its own within the time limit, printed no traceback, wrote under
1 MB to its terminal, left no process it started alive (found by a mark in their environment), wrote nothing
outside the folder it was given (a sentinel folder beside it is compared before and after), left no half-written
`.partial` file and nothing in its own temporary folder, and, when it refused its input, named the file it
refused (or the engine's fault). A hostile input taken as good (exit status 0) fails the attempt unless the
input is one the command may rightly read.
Prints a table (command, tried, held, failed) and each failure with its kind; exit status 1 on a failure.
The figures of the last pass are in docs/reference/hostile-passes.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hostile_files import gzip_bomb  # noqa: E402  (the tests' corpus of hostile files)

ENGINES = ROOT / "tests" / "fake_engines"
AZUL = [sys.executable, "-c", "from azul_conformance.cli import main; main()"]
MARK = "AZUL_HOSTILE_PASS"  # set in every attempt's environment; a process still carrying it afterwards survived
TIME_LIMIT = 90.0  # seconds an attempt may take before it counts as a hang
OUTPUT_LIMIT = 1 << 20  # bytes of terminal output before it counts as a flood
MEMORY_LIMIT = 3 << 30  # address space of the command; growing past it is a failure, not a slow machine


# --- hostile files: each writes one into a folder and returns its path ------------------------------------------

def _write(name: str, data: bytes) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path
    return make


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


def _folder(folder: Path) -> Path:
    path = folder / "a-folder"
    path.mkdir()
    return path


def _gzip_bomb(folder: Path) -> Path:
    return gzip_bomb(folder / "bomb.jsonl.gz", 512 << 20, newlines=True)  # 512 MB of newlines in about 0.5 MB


def _truncated_gzip(folder: Path) -> Path:
    path = folder / "cut.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"type": "header"}\n' * 1000)[:200])
    return path


def _link_out(folder: Path) -> Path:
    # a link to a file in the sentinel folder: reading it is allowed, writing through it is not
    path = folder / "linked.json"
    path.symlink_to(folder.parent / "outside" / "sentinel.txt")
    return path


# a billion laughs: twelve levels of nine aliases each, under 1 KB
YAML_BOMB = b"l0: &l0 [x, x, x, x, x, x, x, x, x]\n" + b"".join(
    f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n".encode() for i in range(1, 12))

FILES: dict[str, Callable[[Path], Path]] = {
    "fifo": _fifo,
    "device": lambda folder: Path("/dev/zero"),
    "folder": _folder,
    "missing": lambda folder: folder / "no-such-file.json",
    "empty": _write("empty.json", b""),
    "binary": _write("binary.json", bytes(range(256)) * 64),
    "nul bytes": _write("nul.json", b'{"format": "azul-state/1",\x00\x00 "players": 2}\n'),
    "bad utf-8": _write("latin.json", b'{"name": "caf\xe9", "\xff\xfe": 1}\n'),
    "json list": _write("list.json", b"[1, 2, 3]\n"),
    "yaml alias bomb": _write("bomb.yaml", YAML_BOMB),
    "2 MB line": _write("long.json", b'{"x": "' + b"a" * (2 << 20) + b'"}\n'),
    "deep json": _write("deep.json", b"[" * 100_000 + b"]" * 100_000 + b"\n"),
    "gzip bomb": _gzip_bomb,
    "truncated gzip": _truncated_gzip,
    "link out of the folder": _link_out,
}
# the inputs a command may rightly take as good: a link it only reads, a folder where a folder is expected
MAY_READ = {"link out of the folder"}


@dataclass
class Attempt:
    command: str  # the subcommand, as the table groups it
    what: str  # the hostile input
    args: list[str]  # {} is replaced by the hostile file's path
    make: Callable[[Path], Path] | None = None
    stdin: bytes | None = None
    may_pass: bool = False  # exit status 0 is a correct result here
    names: bool = True  # a refusal must name the file
    links_out: tuple[str, ...] = ()  # paths under the attempt's folder made links into the sentinel folder
    output_limit: int = OUTPUT_LIMIT  # bytes of terminal output past which it is a flood


@dataclass
class Outcome:
    attempt: Attempt
    status: int | None
    seconds: float
    failures: list[str] = field(default_factory=list)


def _engine(script: str, *args: str) -> str:
    return " ".join([sys.executable, str(ENGINES / script), *args])


def attempts() -> list[Attempt]:
    found: list[Attempt] = []
    readers = {
        "render": ["render", "{}"],
        "perft": ["perft", "--depth", "1", "--state", "{}"],
        "replay": ["replay", "{}"],
        "diagnose": ["diagnose", "{}"],
        "conform --scenarios": ["conform", "--no-properties", "--no-diagnose", "--scenarios", "{}"],
        "scenarios run": ["scenarios", "run", "{}"],
        "conform --recording": ["conform", "--no-properties", "--recording", "{}", "--report-dir", "out"],
        "conform --compare": ["conform", "--no-properties", "--only", "SCORE-4", "--compare", "{}"],
        "import ludometer": ["import", "ludometer", "{}", "-o", "out"],
        "import faience": ["import", "faience", "{}", "-o", "out"],
        "fuzz --state": ["fuzz", "--games", "2", "--state", "{}", "--report-dir", "out"],
        "spec check --spec": ["spec", "check", "--spec", "{}"],
        "spec check --rulebooks": ["spec", "check", "--rulebooks", "{}"],
    }
    for command, args in readers.items():
        for what, make in FILES.items():
            # a fuzz state file that is missing or empty is a campaign not yet begun: starting it is right
            fresh = command == "fuzz --state" and what in ("missing", "empty")
            found.append(Attempt(command, what, args, make=make, may_pass=what in MAY_READ or fresh))
    # serve reads the protocol from its standard input
    for what, data in {
        "binary": bytes(range(256)) * 64,
        "nul bytes": b'{"id": 1, "cmd": "hello",\x00 "protocol": 1}\n',
        "bad utf-8": b'{"id": 1, "cmd": "h\xffllo"}\n',
        "json list": b"[1, 2, 3]\n",
        "2 MB line": b'{"id": 1, "cmd": "' + b"a" * (2 << 20) + b'"}\n',
        "deep json": b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "a million empty lines": b"\n" * 1_000_000,
        "lines without a newline at the end": b'{"id": 1, "cmd": "hello", "protocol": 1}',
        "huge numbers": b'{"id": 1e999, "cmd": "new_game", "players": 99999999999999999999}\n',
        "load of a bent state": b'{"id": 1, "cmd": "load_state", "state": {"format": "azul-state/1", "players": -3}}\n',
    }.items():
        found.append(Attempt("serve", what, ["serve"], stdin=data, may_pass=True, names=False))
    found.append(Attempt("serve", "misreadings past the catalogue", ["serve", "--misreading", "x" * 100_000],
                         stdin=b"", names=False))
    # engines that crash, hang, flood, lie or leave children behind, under every command that starts an engine
    engines = {
        "exits at once": f"{sys.executable} -c 'import sys; sys.exit(7)'",
        "not a program": "./no-such-engine --flag",
        "hangs": _engine("hang.py"),
        "prints garbage": _engine("garbage.py"),
        "crashes mid-game": _engine("crash_midgame.py"),
        "floods stderr": _engine("hostile.py", "stderr-flood", "40"),
        "answers 100,000 deep": _engine("hostile.py", "hello-deep"),
        "leaves a child": _engine("hostile.py", "fork-exit", "child.pid"),
        "answers oddly": _engine("hostile.py", "odd-answers"),
        "closes stdin": _engine("hostile.py", "close-stdin"),
        "replies with bent states": _engine("hostile.py", "bent-state", "nan-score"),
        "refuses rudely": _engine("hostile.py", "rude"),
        "refuses a huge message": _engine("huge_refusal.py"),
        "answers with wrong ids": _engine("wrong_id.py"),
    }
    runners = {
        "smoke": ["smoke", "--timeout", "2", "--engine", "{engine}"],
        "conform --engine": ["conform", "--no-properties", "--only", "SCORE-4", "--timeout", "2",
                             "--report-dir", "out", "--engine", "{engine}"],
        "conform -j 2 --engine": ["conform", "--examples", "3", "--only", "SCORE-4", "-j", "2", "--timeout",
                                  "2", "--report-dir", "out", "--engine", "{engine}"],
        # one game: a whole-game request gets the time of its moves (up to a cap), so a hanging engine costs
        # about 25 s a game at --timeout 2, by design
        "fuzz --engine": ["fuzz", "--games", "1", "--timeout", "2", "--shrink-seconds", "10", "--report-dir", "out",
                          "--engine", "{engine}"],
        "perft --engine": ["perft", "--depth", "1", "--timeout", "2", "--engine", "{engine}"],
    }
    # engines that are right on every request a command makes: odd answers come only to an unknown command
    # (smoke's question) or a request without an id; the mid-game crash comes on a 4th play, past smoke's
    right = {("answers oddly", command) for command in runners if command != "smoke"} | {("crashes mid-game", "smoke")}
    for command, args in runners.items():
        for what, engine in engines.items():
            found.append(Attempt(command, f"an engine that {what}" if what[0] != "n" else f"an engine {what}",
                                 [engine if arg == "{engine}" else arg for arg in args], names=False,
                                 may_pass=(what, command) in right))
    # folders given to write in, with links planted in them that lead out
    for command, args, links in [
        ("conform --report-dir", ["conform", "--no-properties", "--only", "SCORE-4", "--report-dir", "out",
                                  "--engine", _engine("two_bugs.py")],
         ("out/report.jsonl", "out/report.md", "out/junit.xml", "out/counterexamples")),
        ("fuzz --report-dir", ["fuzz", "--games", "4", "--report-dir", "out", "--engine", _engine("two_bugs.py")],
         ("out/report.jsonl", "out/fuzz-state.jsonl", "out/counterexamples")),
        ("replay --svg", ["replay", str(ROOT / "conformance/records/samples/two-player.azr"), "--svg", "out"],
         ("out/two-player.svg",)),
        ("import -o", ["import", "ludometer",
                       str(ROOT.parent / "shared/engines/ludometer/web/player/test/fixtures/games.json.gz"),
                       "-o", "out"], ("out/game-0001.azr", "out/games-0001.azr")),
        ("conform --record", ["conform", "--no-properties", "--only", "SCORE-4", "--record", "out/rec.jsonl.gz"],
         ("out/rec.jsonl.gz",)),
    ]:
        found.append(Attempt(command, "links planted in it", args, may_pass=True, names=False, links_out=links))
    # the commands that read no file: what they are given on the command line
    long_id = "x" * 100_000
    for command, what, args in [
        ("spec show", "an id of 100,000 characters", ["spec", "show", long_id]),
        ("spec show", "a rule that does not exist", ["spec", "show", "OFFER-999"]),
        ("mutants", "an id of 100,000 characters", ["mutants", "--only", long_id]),
        ("mutants", "a mutant that does not exist", ["mutants", "--only", "no-such-misreading"]),
        ("simulate", "player counts past the game's", ["simulate", "-n", "1", "-p", "2,9"]),
        ("simulate", "a record written to a folder", ["simulate", "-n", "1", "--record", "."]),
        ("scenarios export", "written to a folder", ["scenarios", "export", "--json", "-o", "."]),
        ("scenarios run", "an --only of 100,000 characters", ["scenarios", "run", "--only", long_id]),
        ("conform", "a --compare that is the report it writes", ["conform", "--no-properties", "--only",
                                                              "SCORE-4", "--report-dir", ".", "--compare",
                                                              "report.jsonl"]),
    ]:
        # given 100,000 characters, a refusal may quote a little of them, not echo them
        limit = 20_000 if long_id in args else OUTPUT_LIMIT
        found.append(Attempt(command, what, args, names=False, output_limit=limit))
    # a report folder to diagnose whose report was cut off, rewritten in place
    found.append(Attempt("diagnose --write", "a report cut off mid-line", ["diagnose", "--write", "out"],
                         may_pass=True, names=False))
    return found


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): (path.read_bytes() if path.is_file() else b"<dir>")
            for path in sorted(folder.rglob("*"))}


def _survivors(tag: str) -> list[int]:
    # the pass's own mark, not conformance/processes.py's sweep: the mechanism under test must not judge itself
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if f"{MARK}={tag}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _limits() -> None:
    os.setsid()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _prepare(attempt: Attempt, folder: Path) -> list[str]:
    outside = folder.parent / "outside"
    outside.mkdir()
    (outside / "sentinel.txt").write_text("nothing may change me\n")
    path = attempt.make(folder) if attempt.make else None
    for relative in attempt.links_out:
        link = folder / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        target = outside / link.name
        if link.name == "counterexamples":
            target.mkdir()
        link.symlink_to(target)
    if attempt.command == "diagnose --write":
        source = ROOT / "docs/reports/bkase-azul-rs/report.jsonl"
        (folder / "out").mkdir()
        text = source.read_text(encoding="utf-8")
        (folder / "out/report.jsonl").write_text(text[: len(text) * 2 // 3], encoding="utf-8")
    return [str(path) if arg == "{}" else arg for arg in attempt.args]


def run(attempt: Attempt) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        folder = Path(scratch) / "given"
        folder.mkdir()
        args = _prepare(attempt, folder)
        outside = Path(scratch) / "outside"
        before = _snapshot(outside)
        tag = uuid.uuid4().hex
        temporary = Path(scratch) / "tmp"  # the command's own temporary folder, empty again when it ends
        temporary.mkdir()
        env = {**os.environ, MARK: tag, "PYTHONPATH": str(ENGINES), "COLUMNS": "120", "TMPDIR": str(temporary)}
        env.pop("FORCE_COLOR", None)
        out, err = folder.parent / "stdout", folder.parent / "stderr"
        started = time.monotonic()
        failures: list[str] = []
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            stdin = subprocess.PIPE if attempt.stdin is not None else subprocess.DEVNULL
            process = subprocess.Popen([*AZUL, *args], cwd=folder, stdin=stdin, stdout=stdout, stderr=stderr,
                                       env=env, preexec_fn=_limits)
            try:
                if attempt.stdin is not None:
                    try:
                        process.stdin.write(attempt.stdin)
                        process.stdin.close()
                    except BrokenPipeError:
                        pass
                status: int | None = process.wait(timeout=TIME_LIMIT)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                status = None
                failures.append(f"hang: still running after {TIME_LIMIT:.0f} s")
        seconds = time.monotonic() - started
        time.sleep(0.3)  # a process that is on its way out is not a survivor
        alive = _survivors(tag)
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if alive and status is not None:
            failures.append(f"orphan: {len(alive)} process(es) it started outlived it")
        size = out.stat().st_size + err.stat().st_size
        said = (out.read_bytes()[:OUTPUT_LIMIT] + err.read_bytes()[:OUTPUT_LIMIT]).decode("utf-8", "replace")
        if size > attempt.output_limit:
            failures.append(f"flood: {size:,} bytes of output")
        if "Traceback (most recent call last)" in said:
            failures.append("traceback: " + said.split("Traceback (most recent call last)")[1].strip()
                            .splitlines()[-1][:160])
        if status is not None and status < 0:
            failures.append(f"killed by signal {-status} (memory past {MEMORY_LIMIT >> 30} GB?)")
        if status is not None and status > 2:
            failures.append(f"exit status {status} (0, 1 or 2 expected)")
        if status == 0 and not attempt.may_pass:
            failures.append("took a hostile input as good (exit status 0)")
        if status in (1, 2) and attempt.names and attempt.make is not None:
            name = Path(args[attempt.args.index("{}")]).name
            if name not in said:
                last = said.strip().splitlines()[-1][:160] if said.strip() else "(nothing said)"
                failures.append(f"refused without naming {name}: {last}")
        if _snapshot(outside) != before:
            failures.append("wrote outside the folder it was given")
        left = sorted(p.name for p in temporary.iterdir())
        if left and status is not None:
            failures.append(f"left in its temporary folder: {', '.join(left[:3])}")
        partial = [str(p.relative_to(folder)) for p in folder.rglob("*.partial")]
        if partial:
            failures.append(f"left half-written files: {', '.join(partial)}")
        shutil.rmtree(scratch, ignore_errors=True)
        return Outcome(attempt, status, seconds, failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated commands (as the table names them) to try")
    parser.add_argument("--list", action="store_true", help="list the attempts without running them")
    parser.add_argument("--json", type=Path, help="write every attempt's outcome to this file")
    args = parser.parse_args()
    chosen = attempts()
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")}
        unknown = wanted - {a.command for a in chosen}
        if unknown:
            parser.error(f"no such command in the pass: {', '.join(sorted(unknown))}")
        chosen = [a for a in chosen if a.command in wanted]
    if args.list:
        for attempt in chosen:
            print(f"{attempt.command:24} {attempt.what}")
        print(f"{len(chosen)} attempts")
        return 0
    outcomes: list[Outcome] = []
    started = time.monotonic()
    for number, attempt in enumerate(chosen, 1):
        outcome = run(attempt)
        outcomes.append(outcome)
        mark = "held" if not outcome.failures else "FAILED: " + "; ".join(outcome.failures)
        print(f"[{number}/{len(chosen)}] {attempt.command} / {attempt.what}: {mark} "
              f"(exit {outcome.status}, {outcome.seconds:.1f} s)", file=sys.stderr, flush=True)
    by_command: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_command.setdefault(outcome.attempt.command, []).append(outcome)
    print("\n| command | tried | held | failed |\n| --- | ---: | ---: | ---: |")
    for command, group in by_command.items():
        failed = sum(1 for o in group if o.failures)
        print(f"| `azul {command}` | {len(group)} | {len(group) - failed} | {failed} |")
    failed_all = sum(1 for o in outcomes if o.failures)
    print(f"| **all** | {len(outcomes)} | {len(outcomes) - failed_all} | {failed_all} |")
    print(f"\n{len(outcomes)} attempts in {time.monotonic() - started:.0f} s")
    for outcome in outcomes:
        if outcome.failures:
            print(f"- {outcome.attempt.command} / {outcome.attempt.what}: {'; '.join(outcome.failures)}")
    if args.json:
        args.json.write_text(json.dumps([{"command": o.attempt.command, "input": o.attempt.what,
                                          "status": o.status, "seconds": round(o.seconds, 2),
                                          "failures": o.failures} for o in outcomes], indent=1) + "\n")
    return 1 if failed_all else 0


if __name__ == "__main__":
    sys.exit(main())
