"""`azul conform -j N`: the cases shared among N worker processes, each with its own engine; the same verdicts,
messages and report order as -j 1 for the same seed, and a crash stays the crashing case's verdict."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.console import Console

from azul_conformance.harness.session import Session, run_session

FAKES = Path(__file__).parent / "fake_engines"
ONLY = ("OFFER", "property-invariants", "differential-takes")


def run(tmp_path: Path, jobs: int, engine: str, name: str):
    folder = tmp_path / name
    session = Session(engine_command=engine, only=ONLY, examples=3, seed=4, jobs=jobs, report_dir=str(folder),
                      formats=("jsonl",))
    results, status = run_session(session, Console(file=open(folder.parent / f"{name}.txt", "w")))
    lines = [json.loads(line) for line in (folder / "report.jsonl").read_text().splitlines()]
    return results, status, [line["id"] for line in lines if line["type"] == "case"]


def test_two_jobs_give_the_verdicts_messages_and_order_of_one(tmp_path):
    engine = f"{sys.executable} {FAKES / 'two_bugs.py'}"
    one, status_one, order_one = run(tmp_path, 1, engine, "one")
    two, status_two, order_two = run(tmp_path, 2, engine, "two")
    assert len(one) > 10 and status_one == status_two
    assert [(r.id, r.verdict, r.rule, r.message) for r in one] == [(r.id, r.verdict, r.rule, r.message) for r in two]
    assert order_one == order_two == [r.id for r in one]


def test_a_crash_is_the_crashing_cases_verdict_and_the_other_cases_run(tmp_path):
    results, status, _ = run(tmp_path, 2, f"{sys.executable} {FAKES / 'crash_midgame.py'}", "crash")
    verdicts = {str(r.verdict) for r in results}
    assert status == 1 and "crash" in verdicts and "pass" in verdicts and "not_run" not in verdicts
