#!/usr/bin/env python3
"""Build every third-party engine's adapter and run the conformance suite against it.

    python adapters/run_all.py                   # every engine: build, run, rewrite docs/reports/<engine>/
    python adapters/run_all.py azul-ai myzul     # the engines named (as in their adapter.yaml)
    python adapters/run_all.py --check           # run into a temporary folder and compare with the committed
                                                 # reports: exit 1 if any case's verdict or record changed (a
                                                 # case that timed out is run again alone with 30 s a request
                                                 # first, and only its verdict compared)
    python adapters/run_all.py --list            # the engines and their commands, nothing run

Each folder under adapters/ with an adapter.yaml is one engine (see adapters/README.md for its fields). The
engines' own deviations are the expected result, so an engine's failing cases never fail this script; a build
that fails, a run that cannot start, or (with --check) a case whose verdict or record (message, game,
counterexample; not its seconds) differs from the committed report does: the same suite on the same engine
writes the same report.
Needs the suite installed (`pip install -e .`) and ../shared/engines beside the repository (or the variables
each adapter's README names).
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

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "adapters"
BUILD_TIMEOUT = 1200  # seconds: a first Go or npm install on a slow network
RUN_TIMEOUT = 1800
RETRY_TIMEOUT = 30.0  # seconds per request when a case that timed out is run again on its own (the default is 5)


@dataclass(frozen=True)
class Adapter:
    name: str
    folder: Path
    build: str
    engine: str
    report: Path

    @classmethod
    def read(cls, path: Path) -> "Adapter":
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        missing = [key for key in ("name", "build", "engine", "report") if not isinstance(data.get(key), str)]
        if missing:
            raise SystemExit(f"{path.relative_to(ROOT)}: missing {', '.join(missing)}")
        return cls(data["name"], path.parent, data["build"], data["engine"], ROOT / data["report"])


def adapters() -> list[Adapter]:
    return [Adapter.read(path) for path in sorted(ADAPTERS.glob("*/adapter.yaml"))]


def azul() -> list[str]:
    beside = Path(sys.executable).parent / "azul"  # the suite of this Python, not another one on the PATH
    return [str(beside) if beside.exists() else (shutil.which("azul") or "azul")]


def build(adapter: Adapter) -> None:
    print(f"== {adapter.name}: build ({adapter.build})", flush=True)
    done = subprocess.run(shlex.split(adapter.build), cwd=ROOT, timeout=BUILD_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{adapter.name}: the build failed (exit status {done.returncode})")


def run(adapter: Adapter, folder: Path, examples: int, compare: Path | None, jobs: int = 2,
        extra: tuple[str, ...] = ()) -> float:
    # relative to the repository, so that the report's paths (counterexamples) are the same on every checkout
    shown = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    command = [*azul(), "conform", "--engine", adapter.engine, "--report-dir", str(shown),
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
    from azul_conformance.harness import read_report

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


def check(adapter: Adapter, scratch: Path, examples: int, jobs: int) -> tuple[float, list[str], list[str]]:
    """Run the suite into `scratch` and compare each case's verdict with the committed report: (seconds, the
    changed verdicts, the timeouts not counted). A timeout is never taken at its word, since a busy machine
    turns slow answers into timeouts: each case that timed out is run again on its own, one engine process,
    with RETRY_TIMEOUT seconds per request, and that verdict is the one compared. A case that times out even
    then is shown and not counted: no committed report holds a timeout, so a real hang shows as one."""
    committed = adapter.report / "report.jsonl"
    if not committed.exists():
        return 0.0, ["no committed report: run adapters/run_all.py " + adapter.name], []
    folder = scratch / adapter.name
    seconds = run(adapter, folder, examples, committed, jobs)
    after = verdicts(folder / "report.jsonl")
    slow = sorted(case for case, verdict in after.items() if verdict == "timeout")
    if slow:
        print(f"== {adapter.name}: {len(slow)} case(s) timed out; each again alone, {RETRY_TIMEOUT:.0f} s a request",
              flush=True)
        seconds += run(adapter, scratch / f"{adapter.name}-again", examples, None, 1,
                       ("--only", ",".join(slow), "--timeout", str(RETRY_TIMEOUT)))
        after.update(verdicts(scratch / f"{adapter.name}-again" / "report.jsonl"))
    before = verdicts(committed)
    timing = [line for line in changed_verdicts(before, after) if line.endswith("-> timeout")]
    details = changed_details(records(committed), records(folder / "report.jsonl"), set(slow))
    return seconds, [line for line in changed_verdicts(before, after) if line not in timing] + details, timing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("names", nargs="*", help="engines to run (default: all)")
    parser.add_argument("--check", action="store_true", help="compare with the committed reports, write nothing")
    parser.add_argument("--examples", type=int, default=10, help="examples per property (default 10, as in CI)")
    parser.add_argument("-j", "--jobs", type=int, default=2,
                        help="engine processes per suite run (default 2: same verdicts as 1, in about half the time)")
    parser.add_argument("--list", action="store_true", help="list the engines and their commands")
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
            print(f"{adapter.name:<18} {adapter.engine}")
        return 0
    differences: dict[str, list[str]] = {}
    timing: dict[str, list[str]] = {}  # cases that timed out twice (shown, not counted)
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="azul-matrix-") as scratch:
        for adapter in chosen:
            build(adapter)
            if args.check:
                timings[adapter.name], differences[adapter.name], timing[adapter.name] = check(
                    adapter, Path(scratch), args.examples, args.jobs)
            else:
                timings[adapter.name] = run(adapter, adapter.report, args.examples, None, args.jobs)
    print("\n== summary")
    for name, seconds in timings.items():
        diff = differences.get(name, [])
        state = "verdicts and records as committed" if args.check and not diff else (
            f"{len(diff)} case(s) changed" if args.check else "report written")
        print(f"{name:<18} {seconds:6.0f} s  {state}")
        for line in diff[:40]:
            print(f"    {line}")
        for line in timing.get(name, [])[:10]:
            print(f"    {line} (timed out twice, also with {RETRY_TIMEOUT:.0f} s a request: shown, not counted)")
    return 1 if any(differences.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
