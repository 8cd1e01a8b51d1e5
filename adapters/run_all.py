#!/usr/bin/env python3
"""Judge every third-party engine of the matrix: live where the engine installs from a package registry, from
its recorded session where it comes from a code host (this project holds no such engine's code).

    python adapters/run_all.py --check           # what CI runs: each recording judged again, each registry
                                                 # engine installed and run live, and every case's verdict and
                                                 # record compared with the committed report: exit 1 if one
                                                 # changed, or if a recording leaves over 5% of its cases unjudged
    python adapters/run_all.py                   # rewrite the reports: registry engines live; engines from a code
                                                 # host live and recorded again where their `needs` are set (the
                                                 # engine you have), else judged again from their committed
                                                 # recording (a change of the suite's reports, the recording kept)
    python adapters/run_all.py azul-ai myzul     # the engines named (as in their adapter.yaml)
    python adapters/run_all.py --list            # the engines, how each is judged, and what its live run needs

Each folder under adapters/ with an adapter.yaml is one engine (adapters/README.md explains its fields). The
engines' own deviations are the expected result, so an engine's failing cases never fail this script; a build
that fails, a run that cannot start, or (with --check) a case whose verdict or record (message, game,
counterexample; not its seconds) differs from the committed report does: the same suite on the same engine (or
its recording) writes the same report. A suite change that alters the requests of some cases leaves them
unjudged by the recording (not_run, "not recorded: ..."): they are listed, and once they pass 5% of an engine's
cases the check fails until the recording is made again by whoever has the engine.
Needs the suite installed (`pip install -e .`).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from azul_conformance.harness import read_report

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "adapters"
BUILD_TIMEOUT = 1200  # seconds: a first Go or npm install on a slow network
RUN_TIMEOUT = 1800
RETRY_TIMEOUT = 30.0  # seconds per request when a case that timed out is run again on its own (the default is 5)
RECORD_TIMEOUT = 30.0  # seconds per request while recording: a slow answer must not be recorded as a timeout


MAX_UNJUDGED = 0.05  # a recording that leaves more of its engine's cases unjudged must be made again
NOT_RECORDED = "not recorded"  # how a case the recording does not hold is judged (engines/recording.py)


@dataclass(frozen=True)
class Adapter:
    name: str
    folder: Path
    judged: str  # "live" (a registry engine, run in CI) or "recording" (a code-host engine, its session)
    engine: str  # the live command; $NAME words are taken from the environment (`needs`)
    report: Path
    build: str | None = None  # live engines: what installs them from their registry
    recording: Path | None = None
    needs: tuple[tuple[str, str], ...] = ()  # (variable, what it names) for the live command
    upstream: str = ""
    commit: str = ""

    @classmethod
    def read(cls, path: Path) -> "Adapter":
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        missing = [key for key in ("name", "judged", "engine", "report") if not isinstance(data.get(key), str)]
        if data.get("judged") not in ("live", "recording"):
            missing.append("judged (live or recording)")
        if data.get("judged") == "live" and not isinstance(data.get("build"), str):
            missing.append("build")
        if data.get("judged") == "recording" and not isinstance(data.get("recording"), str):
            missing.append("recording")
        needs = data.get("needs") or {}
        if not isinstance(needs, dict):
            missing.append("needs (a mapping)")
        if missing:
            raise SystemExit(f"{where}: missing or wrong {', '.join(missing)}")
        return cls(data["name"], path.parent, data["judged"], data["engine"], ROOT / data["report"],
                   data.get("build"), ROOT / data["recording"] if data.get("recording") else None,
                   tuple((str(k), str(v)) for k, v in needs.items()), str(data.get("upstream") or ""),
                   str(data.get("commit") or data.get("version") or ""))

    def missing(self) -> list[str]:
        """The variables of `needs` not set here: the live command cannot run without them."""
        return [name for name, _ in self.needs if not os.environ.get(name)]

    def command(self) -> str:
        """The live command, its $NAME words taken from the environment."""
        return os.path.expandvars(self.engine)


def adapters() -> list[Adapter]:
    return [Adapter.read(path) for path in sorted(ADAPTERS.glob("*/adapter.yaml"))]


def azul() -> list[str]:
    beside = Path(sys.executable).parent / "azul"  # the suite of this Python, not another one on the PATH
    return [str(beside) if beside.exists() else (shutil.which("azul") or "azul")]


def build(adapter: Adapter) -> None:
    if adapter.build is None:
        return
    print(f"== {adapter.name}: build ({adapter.build})", flush=True)
    done = subprocess.run(shlex.split(adapter.build), cwd=ROOT, timeout=BUILD_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{adapter.name}: the build failed (exit status {done.returncode})")


def run(adapter: Adapter, folder: Path, examples: int, compare: Path | None, jobs: int = 2,
        extra: tuple[str, ...] = (), source: str = "live") -> float:
    """One suite run into `folder`: `source` live (the engine's command), record (live, and its session written
    to the adapter's recording) or recording (the committed recording judged again)."""
    # relative to the repository, so that the report's paths (counterexamples) are the same on every checkout
    shown = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    if source == "recording":
        engine = ["--recording", str(adapter.recording.relative_to(ROOT))]
    else:
        engine = ["--engine", adapter.command()]
    if source == "record":
        adapter.recording.parent.mkdir(parents=True, exist_ok=True)  # an engine recorded for the first time
        engine += ["--record", str(adapter.recording.relative_to(ROOT)), "--timeout", str(RECORD_TIMEOUT)]
        engine += [f"--record-about={key}={value}" for key, value in (("upstream", adapter.upstream),
                                                                      ("commit", adapter.commit)) if value]
    command = [*azul(), "conform", *engine, "--report-dir", str(shown),
               "--examples", str(examples), "--seed", "0", "--jobs", str(jobs), *extra]
    if compare is not None:
        command += ["--compare", str(compare)]
    print(f"== {adapter.name}: {shlex.join(command[1:])}", flush=True)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, timeout=RUN_TIMEOUT)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: the engine deviates, which is what we report
        raise SystemExit(f"{adapter.name}: azul conform could not run the suite (exit status {done.returncode})")
    print(f"== {adapter.name}: suite run in {seconds:.0f} s (load average {os.getloadavg()[0]:.1f})", flush=True)
    return seconds


def verdicts(path: Path) -> dict[str, str]:
    return {r.id: str(r.verdict) for r in read_report(path).results}


def changed_verdicts(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Every case whose verdict differs between two runs, and cases only one of them has."""
    return [f"{case}: {before.get(case, 'absent')} -> {after.get(case, 'absent')}"
            for case in sorted(set(before) | set(after)) if before.get(case, "absent") != after.get(case, "absent")]


def records(path: Path) -> dict[str, dict]:
    """Each case of a report as its JSON record, without what differs from one run to the next by design: the
    seconds it took, and the folder its counterexample was written to (the file's name and text stay)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        if record.get("type") != "case":
            continue
        record.pop("seconds", None)
        if record.get("counterexample"):
            written = path.parent / "counterexamples" / Path(record["counterexample"]).name
            record["counterexample"] = [written.name, written.read_text(encoding="utf-8") if written.exists() else None]
        found[record["id"]] = record
    return found


def changed_details(before: dict[str, dict], after: dict[str, dict], skip: set[str]) -> list[str]:
    """Every case whose verdict is the same but whose record is not (message, game, counterexample...): a run
    of the same suite on the same engine must write the same report, or the committed one cannot be trusted."""
    lines = []
    for case in sorted(set(before) & set(after) - skip):
        old, new = before[case], after[case]
        if old.get("verdict") == new.get("verdict") and old != new:
            fields = sorted(key for key in set(old) | set(new) if old.get(key) != new.get(key))
            lines.append(f"{case}: same verdict, other {', '.join(fields)}")
    return lines


def check(adapter: Adapter, scratch: Path, examples: int, jobs: int) -> tuple[float, list[str], list[str], list[str]]:
    """Run the suite into `scratch`, the engine live or its recording judged again, and compare each case's
    verdict with the committed report: (seconds, the changed verdicts, the timeouts not counted, the cases the
    recording leaves unjudged). A timeout is never taken at its word, since a busy machine turns slow answers
    into timeouts: each case that timed out live is run again on its own, one engine process, with RETRY_TIMEOUT
    seconds per request, and that verdict is the one compared. A case that times out even then is shown and not
    counted: no committed report holds a timeout, so a real hang shows as one. A case the recording does not hold
    (the suite now asks it something else) is listed, not compared; over MAX_UNJUDGED of them is a change."""
    committed = adapter.report / "report.jsonl"
    if not committed.exists():
        return 0.0, ["no committed report: run adapters/run_all.py " + adapter.name], [], []
    if adapter.judged == "recording" and not adapter.recording.is_file():
        return 0.0, [f"no committed recording at {adapter.recording.relative_to(ROOT)}: record it with "
                     f"adapters/run_all.py {adapter.name} where the engine is"], [], []
    folder = scratch / adapter.name
    source = "recording" if adapter.judged == "recording" else "live"
    seconds = run(adapter, folder, examples, committed, jobs, source=source)
    after = verdicts(folder / "report.jsonl")
    unjudged = sorted(unrecorded(folder / "report.jsonl"))
    slow = sorted(case for case, verdict in after.items() if verdict == "timeout") if source == "live" else []
    if slow:
        print(f"== {adapter.name}: {len(slow)} case(s) timed out; each again alone, {RETRY_TIMEOUT:.0f} s a request",
              flush=True)
        seconds += run(adapter, scratch / f"{adapter.name}-again", examples, None, 1,
                       ("--only", ",".join(slow), "--timeout", str(RETRY_TIMEOUT)))
        after.update(verdicts(scratch / f"{adapter.name}-again" / "report.jsonl"))
    before = verdicts(committed)
    for case in unjudged:  # not compared: listed, and counted against the bound below
        after[case] = before.get(case, "absent")
    changed = changed_verdicts(before, after)
    timing = [line for line in changed if line.endswith("-> timeout")]
    details = changed_details(records(committed), records(folder / "report.jsonl"), set(slow) | set(unjudged))
    problems = [line for line in changed if line not in timing] + details
    if len(unjudged) > MAX_UNJUDGED * max(len(after), 1):
        problems.insert(0, f"{len(unjudged)} of {len(after)} cases ({len(unjudged) / len(after):.0%}) are not "
                        f"judged by the recording, more than {MAX_UNJUDGED:.0%}: the suite asks them something else "
                        f"now; record the engine again (python adapters/run_all.py {adapter.name}, where it is)")
    return seconds, problems, timing, unjudged


def unrecorded(report: Path) -> list[str]:
    """The cases a recording did not judge: the suite asked them something the recording does not hold."""
    return [r.id for r in read_report(report).results
            if str(r.verdict) == "not_run" and r.message.startswith(NOT_RECORDED)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("names", nargs="*", help="engines to run (default: all)")
    parser.add_argument("--check", action="store_true", help="compare with the committed reports, write nothing")
    parser.add_argument("--examples", type=int, default=10, help="examples per property (default 10, as in CI)")
    parser.add_argument("-j", "--jobs", type=int, default=2,
                        help="engine processes per suite run (default 2: same verdicts as 1, in about half the time)")
    parser.add_argument("--list", action="store_true", help="list the engines, how each is judged, what it needs")
    args = parser.parse_args(argv)
    chosen = adapters()
    unknown = set(args.names) - {a.name for a in chosen}
    if unknown:
        raise SystemExit(f"no adapter named {', '.join(sorted(unknown))}; known: "
                         f"{', '.join(a.name for a in chosen)}")
    if args.names:
        chosen = [a for a in chosen if a.name in args.names]
    if args.list:
        for adapter in chosen:
            how = "live (registry)" if adapter.judged == "live" else \
                f"recording {adapter.recording.relative_to(ROOT)}"
            print(f"{adapter.name:<18} {how:<58} {adapter.engine}")
            for name, what in adapter.needs:
                print(f"{'':<18}   needs {name}: {what}" + ("" if os.environ.get(name) else " (not set)"))
        return 0
    differences: dict[str, list[str]] = {}
    timing: dict[str, list[str]] = {}  # cases that timed out twice (shown, not counted)
    unjudged: dict[str, list[str]] = {}  # cases a recording does not hold
    timings: dict[str, float] = {}
    states: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="azul-matrix-") as scratch:
        for adapter in chosen:
            if args.check:
                build(adapter)
                timings[adapter.name], differences[adapter.name], timing[adapter.name], unjudged[adapter.name] = \
                    check(adapter, Path(scratch), args.examples, args.jobs)
                states[adapter.name] = ("verdicts and records as committed" if not differences[adapter.name] else
                                        f"{len(differences[adapter.name])} case(s) changed") + (
                    " (from its recording)" if adapter.judged == "recording" else " (live)")
            elif adapter.judged == "recording" and adapter.missing():
                # no engine here: its committed recording judged again, so that the report says what this suite
                # says of the same session; cases the recording does not hold are not_run, as under --check
                shutil.rmtree(adapter.report / "counterexamples", ignore_errors=True)
                timings[adapter.name] = run(adapter, adapter.report, args.examples, None, args.jobs,
                                            source="recording")
                states[adapter.name] = (f"report written from its recording (set {', '.join(adapter.missing())} "
                                        f"to run the engine itself; see {adapter.folder.relative_to(ROOT)}/README.md)")
            else:
                build(adapter)
                source = "record" if adapter.judged == "recording" else "live"
                # a counterexample of an earlier run whose case now passes would stay beside the new report
                shutil.rmtree(adapter.report / "counterexamples", ignore_errors=True)
                timings[adapter.name] = run(adapter, adapter.report, args.examples, None, args.jobs, source=source)
                states[adapter.name] = "report and recording written" if source == "record" else "report written"
    if not args.check and timings:
        # README.md's table of engines counts what the reports say: written again with them
        subprocess.run([sys.executable, str(ROOT / "docs" / "hooks" / "docgen_readme.py")], check=False, timeout=120)
    print("\n== summary")
    for name, seconds in timings.items():
        print(f"{name:<18} {seconds:6.0f} s  {states[name]}")
        for line in differences.get(name, [])[:40]:
            print(f"    {line}")
        for line in timing.get(name, [])[:10]:
            print(f"    {line} (timed out twice, also with {RETRY_TIMEOUT:.0f} s a request: shown, not counted)")
        if unjudged.get(name):
            print(f"    not judged by the recording ({len(unjudged[name])}): {', '.join(unjudged[name][:20])}"
                  + (" ..." if len(unjudged[name]) > 20 else ""))
    return 1 if any(differences.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
