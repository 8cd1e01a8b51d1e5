"""A hostile pass over every command: each `azul` subcommand given what an attacker or an unlucky user would give
it, each attempt in its own process and folder, and judged on what it must never do.

    python benchmarks/hostile_pass.py                   # every attempt (about 320; 20-30 minutes on 2 cores)
    python benchmarks/hostile_pass.py --only render,serve
    python benchmarks/hostile_pass.py --list            # the attempts, without running them
    python benchmarks/hostile_pass.py --json pass.json  # also write every attempt's outcome

An attempt **held** when the command ended on its own within the time limit, printed no traceback, wrote under
1 MB to its terminal, left no process it started alive (found by a mark in their environment, and, where the
mark cannot reach, as a child this pass adopted: it is a child subreaper on Linux), wrote nothing
outside the folder it was given (a sentinel folder beside it is compared before and after), left no half-written
`.partial` file and nothing in its own temporary folder, and, when it refused its input, named the file it
refused (or the engine's fault). A hostile input taken as good (exit status 0) fails the attempt unless the
input is one the command may rightly read. Some attempts are probes, small programs that drive a surface no
single command line reaches (the published pages, two runs at once, a cluster with no worker) and say whether
it held (exit status 0) or fell (a line `FELL: why`); some attempts judge what the command wrote too.
Prints a table (command, tried, held, failed) and each failure with its kind; exit status 1 on a failure.
The figures of the last pass are in docs/reference/hostile-passes.md.
"""

from __future__ import annotations

import argparse
import ctypes
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
from positions import board, position  # noqa: E402  (the tests' builder of states)

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
    program: list[str] = field(default_factory=lambda: AZUL)  # what runs the args: `azul`, or a probe
    env: dict[str, str] = field(default_factory=dict)  # set in its environment (a console's encoding)
    judge: Callable[[int | None, str, Path], list[str]] | None = None  # more failures: (status, output, folder)
    time_limit: float = 0.0  # seconds before it counts as a hang (0: TIME_LIMIT)


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
    return found + newer_surfaces()


# --- the surfaces added since the fourth pass: pages, runs that judge nothing, recordings, clusters, consoles ------

HOSTILE_TEXT = {"name": "<img src=x onerror=alert(1)>", "version": "<script>alert(2)</script>",
                "case": "<svg onload=alert(3)>", "title": "<iframe src=javascript:alert(4)>",
                "notes": "<b onmouseover=alert(5)>notes</b>"}

# The published pages, generated as the site's build generates them (docs/hooks) from a report whose engine name,
# version and a failing case's id are markup, and a scenario whose title and notes are; then made HTML as the
# site's Markdown makes it. A raw tag in the HTML fell (escaped, it reads &lt;img...).
PAGES_PROBE = """
import dataclasses, json, sys
from pathlib import Path
root, hostile = Path(sys.argv[1]), json.loads(sys.argv[2])
sys.path.insert(0, str(root / "docs" / "hooks"))
import markdown
import docgen_reports, docgen_scenarios
from azul_conformance.scenario import load_scenarios
from azul_conformance.spec_data import load_spec
spec = load_spec()
lines = (root / "docs/reports/bkase-azul-rs/report.jsonl").read_text(encoding="utf-8").splitlines()
header = json.loads(lines[0])
header["engine"].update(name=hostile["name"], version=hostile["version"])
cases = [json.loads(line) for line in lines[1:]]
failing = next(case for case in cases if case.get("verdict") == "fail")
failing["id"] = hostile["case"]
folder = Path("reports/hostile")
folder.mkdir(parents=True)
(folder / "report.jsonl").write_text("".join(json.dumps(x) + "\\n" for x in [header] + cases), encoding="utf-8")
scenario = dataclasses.replace(load_scenarios()[0], title=hostile["title"], notes=hostile["notes"])
pages = {"the conformance matrix": docgen_reports.matrix_page(spec, Path("reports"), []),
         "a scenario page": docgen_scenarios.group_page(spec, "hostile", [scenario], {})}
fell = []
for page, text in pages.items():
    html = markdown.markdown(text, extensions=["tables", "attr_list", "md_in_html", "admonition"])
    fell += [f"{page}: {value.split('>')[0]}> raw" for value in hostile.values() if value.split(">")[0] in html]
print("FELL: " + "; ".join(fell) if fell else "no raw tag on the published pages")
sys.exit(1 if fell else 0)
"""

# Two runs recording to one file, the second started once the first has begun: one must refuse, naming it.
TWO_RECORDINGS_PROBE = """
import json, subprocess, sys, time
from pathlib import Path
azul, engine = json.loads(sys.argv[1]), sys.argv[2]
def run(folder):
    return subprocess.Popen([*azul, "conform", "--no-properties", "--no-diagnose", "--only", "offer-*", "--engine",
                             engine, "--record", "rec.jsonl.gz", "--report-dir", folder],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
first = run("a")
ends = time.monotonic() + 40
while time.monotonic() < ends and not Path("rec.jsonl.gz").exists():
    time.sleep(0.05)
second = run("b")
said = [run.communicate(timeout=80)[0].decode("utf-8", "replace") for run in (first, second)]
statuses = [first.returncode, second.returncode]
sys.stdout.write("".join(said))
print(f"exit statuses {statuses}")
refused = [text for status, text in zip(statuses, said) if status]
if statuses == [0, 0]:
    print("FELL: both runs recorded to one file and exited 0")
    sys.exit(1)
if not all("rec.jsonl.gz" in text for text in refused):
    print("FELL: a run refused without naming the recording")
    sys.exit(1)
"""

# A command given a Dask cluster with no worker (a scheduler on the loopback interface): it must give up (2).
NO_WORKER_PROBE = """
import json, logging, os, subprocess, sys
import dask
from distributed import LocalCluster
command = json.loads(sys.argv[1])
dask.config.set({"temporary-directory": os.path.abspath("cluster-space")})  # the probe's, not the command's
with LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None,
                  silence_logs=logging.CRITICAL) as cluster:
    try:
        done = subprocess.run([part.replace("{scheduler}", cluster.scheduler_address) for part in command],
                              capture_output=True, timeout=140)
    except subprocess.TimeoutExpired:
        print("FELL: still waiting for a worker after 140 s")
        sys.exit(1)
sys.stdout.buffer.write(done.stdout + done.stderr)
if done.returncode != 2:
    print(f"FELL: exit status {done.returncode}, where a cluster with no worker is given up (2)")
    sys.exit(1)
"""


def _probe_judge(status: int | None, said: str, _folder: Path) -> list[str]:
    """A probe held when it says so (exit status 0); else it names why it fell, or it could not look."""
    if status in (0, None):  # (None: a hang, already a failure)
        return []
    fell = [line[len("FELL: "):] for line in said.splitlines() if line.startswith("FELL: ")]
    last = said.strip().splitlines()[-1][:160] if said.strip() else "(nothing said)"
    return [f"fell: {'; '.join(fell)[:300]}" if fell else f"the probe could not look: {last}"]


def _no_error_verdict(_status: int | None, _said: str, folder: Path) -> list[str]:
    """The report of the run: no case `error` (a worker's death) or `not_run` (a stopped run)."""
    path = folder / "out" / "report.jsonl"
    verdicts = [json.loads(line).get("verdict") for line in path.read_text(errors="replace").splitlines()[1:]
                if '"type":"case"' in line] if path.exists() else []
    bad = sorted({v for v in verdicts if v in ("error", "not_run")})
    return [f"cases judged {', '.join(bad)}: the engine's exception taken for the run's"] if bad else \
        ([] if verdicts else ["no report written"])


def _no_internal_error(_status: int | None, said: str, _folder: Path) -> list[str]:
    return ['an "internal" error answered'] if '"internal"' in said else []


def _header_only(folder: Path) -> Path:
    source = ROOT / "docs/reports/bkase-azul-rs/recording.jsonl.gz"
    with gzip.open(source, "rt", encoding="utf-8") as recording:
        header = recording.readline()
    path = folder / "header-only.jsonl"
    path.write_text(header, encoding="utf-8")
    return path


def _state(folder: Path) -> Path:
    path = folder / "state.json"
    path.write_text(json.dumps(position(factories=["BBRK", "", "", "", ""], boards=[board(), board()])))
    return path


def _requests(*requests: dict) -> bytes:
    return b"".join(json.dumps({"id": number, **request}).encode() + b"\n"
                    for number, request in enumerate(requests, 1))


# the marker in the centre, seat 0's floor full: a take from the centre, under the misreadings that put it back
FULL_FLOOR = position(turn=0, centre="RRY", factories=["BBKK", "", "", "", ""],
                      boards=[board(wall={1: "B...."}, floor="BBBYYYW"), board()])


def newer_surfaces() -> list[Attempt]:
    found: list[Attempt] = []
    python = sys.executable
    # published pages: an engine's name and version, a case id, a scenario's title and notes
    found.append(Attempt("docs pages", "a hostile engine name, case id and scenario title", [str(ROOT),
                         json.dumps(HOSTILE_TEXT)], program=[python, "-c", PAGES_PROBE], may_pass=True,
                         names=False, judge=_probe_judge))
    # runs that judge nothing: none may exit 0
    unsupported = _engine("unsupported_all.py")
    for what, args, make in [
        ("an engine answering unsupported to all it offers", ["conform", "--no-properties", "--only", "SETUP",
                                                             "--report-dir", "out", "--engine", unsupported], None),
        ("a hello offering no player count", ["conform", "--no-properties", "--only", "SETUP", "--engine",
                                              _engine("unsupported_all.py", "--players", "''")], None),
        ("a recording of its header alone", ["conform", "--no-properties", "--recording", "{}", "--report-dir",
                                             "out"], _header_only),
        ("--budget 0", ["conform", "--no-properties", "--budget", "0", "--report-dir", "out"], None),
        ("fuzz --time 0", ["fuzz", "--time", "0", "--report-dir", "out"], None),
    ]:
        found.append(Attempt("zero judgement", what, args, make=make, names=False))
    # recordings: two runs on one file, and onto the files of the run itself
    slow = _engine("slow.py", "--delay", "0.05")
    found.append(Attempt("conform --record", "two runs recording to one file", [json.dumps(AZUL), slow],
                         program=[python, "-c", TWO_RECORDINGS_PROBE], may_pass=True, names=False,
                         judge=_probe_judge))
    for what, target, extra in [("onto its own report", "out/report.jsonl", []),
                                ("onto the report folder's lock", "out/.azul-lock", []),
                                ("onto its --compare file", "old.jsonl", ["--compare", "old.jsonl"])]:
        # the reference behind the protocol: a run not refused exits 0
        found.append(Attempt("conform --record", what, ["conform", "--no-properties", "--only", "SCORE-4",
                                                        "--engine", _engine("slow.py"), "--record", target,
                                                        "--report-dir", "out", *extra],
                             make=_copy_report("old.jsonl"), names=False))
    # clusters without a worker
    for what, command in [
        ("fuzz on a cluster with no worker", ["fuzz", "--games", "4", "--scheduler", "{scheduler}",
                                              "--report-dir", "out"]),
        ("fuzz --time 5s on a cluster with no worker", ["fuzz", "--time", "5s", "--scheduler", "{scheduler}",
                                                        "--report-dir", "out"]),
        ("replay on a cluster with no worker", ["replay", str(ROOT / "conformance/records/samples"),
                                                "--scheduler", "{scheduler}"]),
    ]:
        found.append(Attempt("clusters", what, [json.dumps(AZUL + command)], program=[python, "-c", NO_WORKER_PROBE],
                             may_pass=True, names=False, judge=_probe_judge, time_limit=170))
    # consoles that are not UTF-8
    for encoding in ("latin-1", "ascii"):
        for what, args in [("replay", ["replay", str(ROOT / "conformance/records/samples/two-player.azr")]),
                           ("spec show", ["spec", "show", "OFFER-4"]), ("mutants --list", ["mutants", "--list"])]:
            found.append(Attempt("encodings", f"{what} on a {encoding} console", args, may_pass=True, names=False,
                                 env={"PYTHONIOENCODING": encoding}))
    # processes: a helper no mark reaches, under each command that starts an engine; a py: engine's Ctrl-C
    bare = _engine("hostile.py", "bare-helper")
    for command, args in [("smoke", ["smoke", "--timeout", "2"]),
                          ("conform --engine", ["conform", "--no-properties", "--only", "SCORE-4", "--report-dir",
                                                "out"]),
                          ("conform -j 2 --engine", ["conform", "--examples", "3", "--only", "SCORE-4", "-j", "2",
                                                     "--report-dir", "out"]),
                          ("fuzz --engine", ["fuzz", "--games", "1", "--report-dir", "out"]),
                          ("perft --engine", ["perft", "--depth", "1"])]:
        found.append(Attempt(command, "an engine whose helper has no mark", [*args, "--engine", bare],
                             may_pass=True, names=False))
    found.append(Attempt("conform -j 2 --engine", "a py: engine raising KeyboardInterrupt",
                         ["conform", "--only", "property-listed-moves-accepted,setup-two-players-five-factories",
                          "--examples", "3", "-j", "2", "--report-dir", "out", "--engine",
                          f"py:{ROOT / 'tests/inprocess_engines/engines.py'}:interrupting"],
                         names=False, judge=_no_error_verdict))
    # misreadings served where they raised
    found.append(Attempt("serve", "setup-factories-one-too-many at a table of four",
                         ["serve", "--misreading", "setup-factories-one-too-many"], names=False, may_pass=True,
                         stdin=_requests({"cmd": "new_game", "players": 4}, {"cmd": "deal"}, {"cmd": "legal_moves"}),
                         judge=_no_internal_error))
    for misreading in ("offer-marker-left-in-centre", "offer-marker-first-round-only"):
        found.append(Attempt("serve", f"{misreading} on a full floor", ["serve", "--misreading", misreading],
                             names=False, may_pass=True, judge=_no_internal_error,
                             stdin=_requests({"cmd": "load_state", "state": FULL_FLOOR},
                                             {"cmd": "play", "move": "CR1"})))
    # the outputs named on the command line, a link planted there
    for command, args, link in [("render -o", ["render", "{}", "-o", "out/board.svg"], "out/board.svg"),
                                ("simulate --record", ["simulate", "-n", "1", "--record", "out/game.azr"],
                                 "out/game.azr"),
                                ("scenarios export -o", ["scenarios", "export", "--json", "-o", "out/s.json"],
                                 "out/s.json")]:
        found.append(Attempt(command, "a link planted at the output", args, make=_state, may_pass=True,
                             names=False, links_out=(link,)))
    return found


def _copy_report(name: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / name
        shutil.copy(ROOT / "docs/reports/bkase-azul-rs/report.jsonl", path)
        return path
    return make


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


def _adopt_orphans() -> bool:
    """Make this pass a child subreaper (Linux): whatever an attempt leaves behind, even with its environment
    cleared and in a session of its own, becomes this process's child when its parent ends, and is found by
    `_adopted` without the mark. The pass's own mechanism, not conformance/processes.py's: the mechanism under
    test must not judge itself. Elsewhere the mark alone finds survivors."""
    global _adopting
    if sys.platform == "linux":
        _adopting = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    return _adopting


_adopting = False


def _adopted() -> list[int]:
    """This pass's children (it runs one attempt at a time, waited for: any child is an attempt's orphan),
    killed and reaped; their pids. None where the pass adopts nothing (off Linux, or imported by a test)."""
    found: list[int] = []
    if not _adopting:
        return found
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_bytes()
        except OSError:
            continue
        parent = text[text.rindex(b")") + 2:].split()[1]  # after the name, which may hold spaces and brackets
        if int(parent) == os.getpid():
            found.append(int(entry.name))
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
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
        env = {**os.environ, MARK: tag, "PYTHONPATH": str(ENGINES), "COLUMNS": "120", "TMPDIR": str(temporary),
               **attempt.env}
        env.pop("FORCE_COLOR", None)
        out, err = folder.parent / "stdout", folder.parent / "stderr"
        started = time.monotonic()
        failures: list[str] = []
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            stdin = subprocess.PIPE if attempt.stdin is not None else subprocess.DEVNULL
            process = subprocess.Popen([*attempt.program, *args], cwd=folder, stdin=stdin, stdout=stdout,
                                       stderr=stderr, env=env, preexec_fn=_limits)
            limit = attempt.time_limit or TIME_LIMIT
            try:
                if attempt.stdin is not None:
                    try:
                        process.stdin.write(attempt.stdin)
                        process.stdin.close()
                    except BrokenPipeError:
                        pass
                status: int | None = process.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                status = None
                failures.append(f"hang: still running after {limit:.0f} s")
        seconds = time.monotonic() - started
        time.sleep(0.3)  # a process that is on its way out is not a survivor
        alive = _survivors(tag)
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        adopted = [pid for pid in _adopted() if pid not in alive]  # what no mark reached
        if alive and status is not None:
            failures.append(f"orphan: {len(alive)} process(es) it started outlived it")
        if adopted and status is not None:
            failures.append(f"orphan: {len(adopted)} process(es) it started outlived it with no mark (adopted "
                            "by the pass)")
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
        if attempt.judge is not None:
            failures += attempt.judge(status, said, folder)
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
    _adopt_orphans()
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
