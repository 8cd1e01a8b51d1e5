"""A whole dataset through the command line: generate N recorded games, `azul import` them, `azul replay` them.

Writes a synthetic Faïence dataset of --games seeded random two-player games (make_corpus.py), then runs, as a
user would and each with a timeout:

    azul import faience corpus.jsonl.gz -o records.tar -q -j J
    azul replay records.tar -q -j J --jsonl verdicts.jsonl

and prints each one's wall time, games per second and peak memory (the largest resident set of the command and
its worker processes), and checks the verdicts: every game judged, every claim counted. Run it at two sizes to
see that memory stays flat (the same peak for ten times the games):

    python benchmarks/bench_datasets.py --games 10000
    python benchmarks/bench_datasets.py --games 100000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
AZUL = [str(Path(sys.executable).with_name("azul"))]  # the command installed beside this Python


def run(command: list[str], timeout: float) -> tuple[float, float, str]:
    """Wall seconds, peak resident megabytes (the command and its children) and the output's last line."""
    started = time.perf_counter()
    wrapped = [sys.executable, "-c", "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)",
               *command]
    done = subprocess.run(wrapped, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    peak = int(done.stderr.strip().splitlines()[-1]) / 1024
    return seconds, peak, (done.stdout.strip().splitlines() or [""])[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds each command may take")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        corpus, records, verdicts = (Path(folder) / name for name in ("corpus.jsonl.gz", "records.tar",
                                                                       "verdicts.jsonl"))
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--games", str(args.games), "--format",
                        "faience", "-o", str(corpus)], check=True, timeout=args.timeout, stdout=subprocess.DEVNULL)
        jobs = ["-j", str(args.jobs)]
        imported = run(AZUL + ["import", "faience", str(corpus), "-o", str(records), "-q"] + jobs, args.timeout)
        replayed = run(AZUL + ["replay", str(records), "-q", "--jsonl", str(verdicts)] + jobs, args.timeout)
        with verdicts.open(encoding="utf-8") as lines:
            games = claims = 0
            summary: dict = {}
            for line in lines:
                entry = json.loads(line)
                if "summary" in entry:
                    summary = entry["summary"]
                else:
                    games += 1
                    claims += entry["claims_checked"]
    assert games == summary["games"] == args.games and claims == summary["claims_checked"], (games, summary)
    total = imported[0] + replayed[0]
    print(f"{args.games} games, -j {args.jobs}, on {os.cpu_count()} cores")
    print(f"import  {imported[0]:7.1f} s  {args.games / imported[0]:7.0f} games/s  peak {imported[1]:5.0f} MB  "
          f"({imported[2]})")
    print(f"replay  {replayed[0]:7.1f} s  {args.games / replayed[0]:7.0f} games/s  peak {replayed[1]:5.0f} MB  "
          f"({summary['claims_checked']} claims checked; {summary['verdicts']})")
    print(f"both    {total:7.1f} s  ({total / 60:.1f} minutes)")


if __name__ == "__main__":
    main()
