"""Time budgets of `azul conform`: `--case-timeout` (per case) and `--budget` (per run).

A budget that runs out is the case's own verdict, out_of_time, with what the case checked kept; the cases not
started once the run's budget is spent are not_run, saying why; every report is still written, and the exit
status does not fail on a budget. The engines are slow fakes (tests/fake_engines/slow.py, `--delay`) and an
in-process engine that never returns (tests/inprocess_engines/engines.py: stuck).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from azul_conformance.budget import Metered, OutOfTime, seconds_text
from azul_conformance.cli import main
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness.session import Session, run_session
from azul_conformance.properties.suite import PROPERTIES, run_property
from azul_conformance.results import Verdict

FAKES = Path(__file__).parent / "fake_engines"
STUCK = f"py:{Path(__file__).parent / 'inprocess_engines' / 'engines.py'}:stuck"


def slow(delay: float = 0.02) -> str:
    return f"{sys.executable} {FAKES / 'slow.py'} --delay {delay}"


def run(tmp_path: Path, **options):
    folder = tmp_path / "reports"
    session = Session(report_dir=str(folder), formats=("jsonl", "markdown", "junit"), **options)
    results, status = run_session(session, Console(file=open(tmp_path / "out.txt", "w"), width=100))
    lines = [json.loads(line) for line in (folder / "report.jsonl").read_text().splitlines()]
    return results, status, lines


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_case_over_its_budget_is_cut_and_the_next_case_runs(tmp_path, jobs):
    # 50 games at 20 ms a move take minutes; the budget cuts the property after 3 s, while each scenario's few
    # requests have 3 s however loaded the machine.
    results, status, lines = run(tmp_path, engine_command=slow(), jobs=jobs, examples=50, case_timeout=3.0,
                                 only=("property-invariants", "offer-refuse-full-line", "offer-overflow-to-floor"))
    verdicts = {r.id: r.verdict for r in results}
    assert verdicts == {"offer-refuse-full-line": Verdict.PASS, "offer-overflow-to-floor": Verdict.PASS,
                        "property-invariants": Verdict.OUT_OF_TIME}
    cut = next(r for r in results if r.id == "property-invariants")
    assert cut.seconds >= 3.0  # never before the budget
    assert "--case-timeout 3s" in cut.message and "no failure found" in cut.message
    assert cut.details["examples"] == int(cut.message.split(": ")[1].split()[0])  # games played in full, kept
    assert cut.details["examples"] < 50  # cut during the property, not after its games
    assert status == 0  # a budget is not a failure
    footer = lines[-1]
    assert footer["counts"]["out_of_time"] == 1 and footer["counts"]["pass"] == 2
    junit = (tmp_path / "reports" / "junit.xml").read_text()
    assert "<skipped" in junit and "--case-timeout 3s" in junit
    assert "| property-invariants | out_of_time |" in (tmp_path / "reports" / "report.md").read_text()


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_run_budget_cuts_the_running_case_and_marks_the_rest_not_run(tmp_path, jobs):
    # at 0.1 s a move, a property's game takes several seconds: the budget ends during a case, however slow
    # the start on a loaded machine
    results, status, lines = run(tmp_path, engine_command=slow(0.1), jobs=jobs, examples=50, budget=8.0,
                                 only=("OFFER", "property-invariants", "differential-takes"))
    verdicts = [r.verdict for r in results]
    # stopped at the budget: the cases running then are cut (one per engine at most), none starts after it
    assert 1 <= verdicts.count(Verdict.OUT_OF_TIME) <= jobs and Verdict.NOT_RUN in verdicts
    for result in results:
        if result.verdict is Verdict.NOT_RUN:
            assert result.message == "not run: the run's time budget (--budget 8s) ran out before this case"
        elif result.verdict is Verdict.OUT_OF_TIME:
            assert "the run's time budget (--budget 8s) ran out" in result.message
        else:
            assert result.verdict is Verdict.PASS
    # a budget never fails the run, but a run that judged no case (the workers cut in the properties) is no pass
    assert status == (0 if Verdict.PASS in verdicts else 1)
    cases = [line for line in lines if line["type"] == "case"]
    assert [c["id"] for c in cases] == [r.id for r in results] and len(cases) > 10  # every case reported, in order
    assert lines[0]["budget"] == 8.0 and lines[-1]["counts"]["not_run"] == verdicts.count(Verdict.NOT_RUN)


class _LosesATile(ReferenceEngine):
    """Shows one tile fewer in the bag after every deal: property-invariants fails in its first game."""

    def deal(self, factories=None):
        state = super().deal(factories)
        return {**state, "bag": state["bag"][1:]}


class _CutAfterFirstGame(Metered):
    """The budget runs out as the second game starts: after the first failure, while hypothesis shrinks."""

    def __init__(self, engine):
        super().__init__(engine, time.monotonic() + 3600, "the case's time budget (--case-timeout 1s) ran out")
        self.games = 0

    def new_game(self, *args, **kwargs):
        self.games += 1
        if self.games == 2:
            self.deadline = time.monotonic() - 1
        return super().new_game(*args, **kwargs)


def test_a_property_cut_while_shrinking_keeps_the_failure_it_found():
    prop = next(p for p in PROPERTIES if p.id == "property-invariants")
    engine = _LosesATile(0)
    result = run_property(_CutAfterFirstGame(engine), prop, engine.info.capabilities, examples=50, seed=0)
    assert result.verdict is Verdict.FAIL
    assert result.message.endswith("; shrinking stopped: the case's time budget (--case-timeout 1s) ran out")
    assert result.details["examples"] == 1 and result.details["game"]["steps"]  # the failing game is kept


def test_metered_cuts_once_at_the_first_request_after_the_deadline():
    engine = ReferenceEngine(0)
    metered = Metered(engine, time.monotonic() + 3600, "why")
    metered.new_game(2)
    metered.deal(None)
    metered.play(metered.legal_moves()[0])
    assert metered.moves.value == 1 and metered.requests == 4
    metered.deadline = time.monotonic() - 1
    with pytest.raises(OutOfTime, match="why"):
        metered.state()
    assert metered.state()["phase"] == "offer"  # after the cut, requests go through (a counterexample's state)


def test_a_hung_in_process_engine_is_ended_with_its_worker_and_the_run_goes_on(tmp_path):
    # `stuck` never returns from its fifth move: only ending its worker process can cut it (-j 2); the scenarios
    # play 3 moves in all (one on the grey wall, one on each wall)
    results, status, _ = run(tmp_path, engine_command=STUCK, jobs=2, examples=3, case_timeout=3.0, timeout=2.0,
                             only=("property-invariants", "grey-placement-choice-pending",
                                   "offer-marker-first-centre-take"))
    verdicts = {r.id: r.verdict for r in results}
    assert verdicts == {"property-invariants": Verdict.OUT_OF_TIME, "grey-placement-choice-pending": Verdict.PASS,
                        "offer-marker-first-centre-take": Verdict.PASS}  # the scenarios (< 5 moves) ran after it
    cut = next(r for r in results if r.id == "property-invariants")
    assert cut.message.startswith("the case's time budget (--case-timeout 3s) ran out; the engine did not come back")
    assert "its worker process was ended" in cut.message and status == 0


def test_durations_read_and_written_as_the_options_take_them():
    runner = CliRunner()
    result = runner.invoke(main, ["conform", "--budget", "ten minutes"])
    assert result.exit_code == 2 and "expected a duration such as 90s, 15m, 2h or 1h30m" in result.output
    assert [seconds_text(s) for s in (1.0, 90.0, 600.0, 5400.0, 7200.0, 0.5)] == \
        ["1s", "90s", "10m", "1h30m", "2h", "0.5s"]
