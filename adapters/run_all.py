#!/usr/bin/env python3
"""Build every third-party engine's adapter and run the conformance suite against it.

    python adapters/run_all.py                   # every engine: build, run, rewrite docs/reports/<engine>/
    python adapters/run_all.py azul-ai myzul     # the engines named (as in their adapter.yaml)
    python adapters/run_all.py --check           # run into a temporary folder and compare with the committed
                                                 # reports: exit 1 if any case's verdict changed
    python adapters/run_all.py --list            # the engines and their commands, nothing run

Each folder under adapters/ with an adapter.yaml is one engine (see adapters/README.md for its fields). The
engines' own deviations are the expected result, so an engine's failing cases never fail this script; a build
that fails, a run that cannot start, or (with --check) a verdict that differs from the committed report does.
Needs the suite installed (`pip install -e .`) and ../shared/engines beside the repository (or the variables
each adapter's README names).
"""

from __future__ import annotations

import argparse
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
    found = shutil.which("azul") or str(Path(sys.executable).parent / "azul")
    return [found]


def build(adapter: Adapter) -> None:
    print(f"== {adapter.name}: build ({adapter.build})", flush=True)
    done = subprocess.run(shlex.split(adapter.build), cwd=ROOT, timeout=BUILD_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{adapter.name}: the build failed (exit status {done.returncode})")


def run(adapter: Adapter, folder: Path, examples: int, compare: Path | None) -> float:
    command = [*azul(), "conform", "--engine", adapter.engine, "--report-dir", str(folder),
               "--examples", str(examples), "--seed", "0"]
    if compare is not None:
        command += ["--compare", str(compare)]
    print(f"== {adapter.name}: {shlex.join(command[1:])}", flush=True)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, timeout=RUN_TIMEOUT)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: the engine deviates, which is what we report
        raise SystemExit(f"{adapter.name}: azul conform could not run the suite (exit status {done.returncode})")
    print(f"== {adapter.name}: suite run in {seconds:.0f} s", flush=True)
    return seconds


def changed_verdicts(old: Path, new: Path) -> tuple[list[str], list[str]]:
    """Every case whose verdict differs between two reports (and cases only one of them has), and apart from
    those the differences that involve a timeout: a busy machine can turn a slow answer into a timeout, so
    those are shown but do not fail the check."""
    from azul_conformance.harness import read_report

    before = {r.id: str(r.verdict) for r in read_report(old).results}
    after = {r.id: str(r.verdict) for r in read_report(new).results}
    changed, timing = [], []
    for case in sorted(set(before) | set(after)):
        was, now = before.get(case, "absent"), after.get(case, "absent")
        if was != now:
            (timing if "timeout" in (was, now) else changed).append(f"{case}: {was} -> {now}")
    return changed, timing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("names", nargs="*", help="engines to run (default: all)")
    parser.add_argument("--check", action="store_true", help="compare with the committed reports, write nothing")
    parser.add_argument("--examples", type=int, default=10, help="examples per property (default 10, as in CI)")
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
    timing: dict[str, list[str]] = {}  # differences that involve a timeout (shown, not failed)
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="azul-matrix-") as scratch:
        for adapter in chosen:
            build(adapter)
            committed = adapter.report / "report.jsonl"
            if args.check:
                folder = Path(scratch) / adapter.name
                timings[adapter.name] = run(adapter, folder, args.examples,
                                            committed if committed.exists() else None)
                if committed.exists():
                    differences[adapter.name], timing[adapter.name] = changed_verdicts(committed,
                                                                                      folder / "report.jsonl")
                else:
                    differences[adapter.name] = ["no committed report"]
            else:
                timings[adapter.name] = run(adapter, adapter.report, args.examples, None)
    print("\n== summary")
    for name, seconds in timings.items():
        diff = differences.get(name, [])
        state = "verdicts as committed" if args.check and not diff else (
            f"{len(diff)} verdict(s) changed" if args.check else "report written")
        print(f"{name:<18} {seconds:6.0f} s  {state}")
        for line in diff[:40]:
            print(f"    {line}")
        for line in timing.get(name, [])[:10]:
            print(f"    {line} (a timeout: not counted)")
    return 1 if any(differences.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
