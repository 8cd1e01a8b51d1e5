"""`azul conform -j N`: the cases shared among N worker processes, each with its own engine; the same verdicts,
messages and report order as -j 1 for the same seed, and a crash stays the crashing case's verdict; forked or
spawned workers; the longest cases first; -j defaults to the cores (the budgets at -j 2: test_conform_budgets)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from azul_conformance.cli import main
from azul_conformance import processes
from azul_conformance.harness import parallel
from azul_conformance.harness.session import Session, collect, run_session
from azul_conformance.results import CaseKind, Verdict

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


def test_the_in_process_reference_on_workers_gives_the_results_of_one_process(tmp_path):
    # no --engine: each worker process runs its own in-process reference engine
    one, _, order_one = run(tmp_path, 1, None, "ref-one")
    two, _, order_two = run(tmp_path, 2, None, "ref-two")
    assert [(r.id, r.verdict, r.message) for r in one] == [(r.id, r.verdict, r.message) for r in two]
    assert order_one == order_two and {r.verdict for r in two} == {Verdict.PASS}


def test_spawned_workers_collect_the_same_cases(tmp_path, monkeypatch):
    """Where fork is not available (macOS, Windows), workers are spawned and collect the cases themselves."""
    engine = f"{sys.executable} {FAKES / 'two_bugs.py'}"
    one, _, _ = run(tmp_path, 1, engine, "fork-one")
    monkeypatch.setattr(processes, "START_METHOD", "spawn")
    two, _, order = run(tmp_path, 2, engine, "spawned")
    assert [(r.id, r.verdict, r.message) for r in one] == [(r.id, r.verdict, r.message) for r in two]
    assert order == [r.id for r in one]


def test_the_longest_cases_are_handed_out_first():
    cases = collect(Session(only=ONLY)).cases
    order = parallel.schedule(cases)
    kinds = [case.kind for case in order]
    assert kinds == sorted(kinds, key=lambda kind: kind is not CaseKind.PROPERTY)  # the properties first
    steps = [len(case.payload.steps) for case in order if case.kind is CaseKind.SCENARIO]
    assert steps == sorted(steps, reverse=True) and len(set(steps)) > 1


def test_jobs_default_to_the_cores_this_process_may_use(monkeypatch):
    seen = {}

    def fake_run(session, console=None):
        seen["jobs"] = session.jobs
        return [], 0

    monkeypatch.setattr("azul_conformance.harness.run_session", fake_run)
    assert CliRunner().invoke(main, ["conform"]).exit_code == 0
    assert seen["jobs"] == processes.default_jobs() == len(os.sched_getaffinity(0))
    assert CliRunner().invoke(main, ["conform", "-j", "0"]).exit_code == 0 and seen["jobs"] == processes.default_jobs()
    assert CliRunner().invoke(main, ["conform", "-j", "1"]).exit_code == 0 and seen["jobs"] == 1
