"""`azul fuzz`: games fixed by seed and index, the same findings however a campaign is split or resumed,
deviations shrunk into scenarios that replay, and reports in `azul conform`'s formats.

The engine under test is tests/fake_engines/two_bugs.py: two deviations that depend on the position only
(OFFER-11 in a few games, SCORE-2 in fewer), so every way of playing the same games must find the same ones.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from azul_conformance.fuzz.campaign import (
    TAIL_FLOOR, Block, CampaignError, CampaignSpec, Findings, close_engines, missing_blocks, run_block,
)
from azul_conformance.fuzz.games import Mix, plan_for
from azul_conformance.fuzz.run import LocalExecutor, play_campaign
from azul_conformance.fuzz.state import StateFile

FAKES = Path(__file__).parent / "fake_engines"
BUGGY = f"{sys.executable} {FAKES / 'two_bugs.py'}"
GAMES = 40


def summary(findings: Findings) -> dict:
    """What a campaign found, independent of how it was split: games, and per deviation its count and
    the first game showing it."""
    return {"games": findings.games,
            "deviations": {key: (found.index, findings.counts[key]) for key, found in findings.deviations.items()}}


def played_indices(findings: Findings) -> list[int]:
    return sorted(i for first, games in findings.done for i in range(first, first + games))


def campaign(path: Path, games: int | None, block: int, workers: int = 1, seconds: float | None = None,
             spec: CampaignSpec | None = None) -> Findings:
    spec = spec or CampaignSpec(seed=5, engine=BUGGY)
    state = StateFile(path, spec)
    executor = LocalExecutor(workers)
    try:
        play_campaign(spec, state, executor, games, seconds, block)
    finally:
        executor.close()
        state.close()
        close_engines()
    return state.findings


@pytest.fixture(scope="module")
def one_go(tmp_path_factory) -> Findings:
    return campaign(tmp_path_factory.mktemp("one") / "state.jsonl", GAMES, block=GAMES)


def test_a_game_is_fixed_by_the_seed_and_its_index():
    mix = Mix((2, 3, 4), ("colour", "grey"))
    assert plan_for(5, 17, mix) == plan_for(5, 17, mix)
    assert plan_for(5, 17, mix) != plan_for(5, 18, mix) != plan_for(6, 18, mix)
    plans = [plan_for(1, i, mix) for i in range(200)]
    assert {p.players for p in plans} == {2, 3, 4} and {p.variant for p in plans} == {"colour", "grey"}
    assert all(0 <= p.start_player < p.players for p in plans)


def test_the_buggy_engine_shows_two_distinct_deviations(one_go):
    assert one_go.games == GAMES and played_indices(one_go) == list(range(GAMES))
    assert set(one_go.deviations) == {"fail OFFER-11 legal-moves missing", "fail SCORE-2 round /boards/*/score"}
    assert one_go.counts["fail OFFER-11 legal-moves missing"] > 1  # many games, one deviation


def test_a_frequent_bug_hides_no_other_every_bug_of_a_game_is_found_once(tmp_path):
    """three_bugs.py names the wrong start player at every round's end after the first (every game), and has two
    rarer bugs: after a difference the engine is put back on the reference's position and the game goes on, so
    one run finds all three, each counted once per game that shows it (not once per step)."""
    spec = CampaignSpec(seed=5, engine=f"{sys.executable} {FAKES / 'three_bugs.py'}")
    found = campaign(tmp_path / "state.jsonl", 30, block=30, spec=spec)
    assert set(found.deviations) == {"fail ROUND-2 round /start_player", "fail OFFER-11 legal-moves missing",
                                     "fail SCORE-2 round /boards/*/score"}
    assert found.counts["fail ROUND-2 round /start_player"] == 30  # every game, once each
    later = found.deviations["fail SCORE-2 round /boards/*/score"]
    assert later.put_back >= 1 and later.rule == "SCORE-2" and "/score" in later.message
    # the same in lockstep alone (no play_game fast path)
    alone = campaign(tmp_path / "alone.jsonl", 30, block=30, spec=CampaignSpec(seed=5, engine=spec.engine,
                                                                                  batched=False))
    assert summary(alone) == summary(found)


def test_the_same_findings_in_other_blocks_and_on_two_processes(tmp_path, one_go):
    small_blocks = campaign(tmp_path / "a.jsonl", GAMES, block=7)
    two_processes = campaign(tmp_path / "b.jsonl", GAMES, block=5, workers=2)
    assert summary(small_blocks) == summary(two_processes) == summary(one_go)
    assert played_indices(two_processes) == list(range(GAMES))


def test_a_campaign_resumes_where_it_stopped_and_plays_each_game_once(tmp_path, one_go):
    path = tmp_path / "state.jsonl"
    first = campaign(path, 15, block=4)
    assert played_indices(first) == list(range(15))
    resumed = campaign(path, GAMES, block=4)  # the same campaign, longer: only games 15..39 are played
    assert played_indices(resumed) == list(range(GAMES))
    assert summary(resumed) == summary(one_go)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert sum(line["games"] for line in lines[1:]) == GAMES


def test_a_time_budget_stops_the_campaign_and_a_resume_fills_the_gaps(tmp_path, one_go, monkeypatch):
    # A clock that moves one second each time it is read (once a game), so the budget ends at the same game
    # however loaded the machine
    import azul_conformance.fuzz.campaign as campaign_module
    import azul_conformance.fuzz.run as run_module

    reads = itertools.count()
    clock = types.SimpleNamespace(time=lambda: float(next(reads)), perf_counter=time.perf_counter)
    for module in (campaign_module, run_module):
        monkeypatch.setattr(module, "time", clock)
    path = tmp_path / "state.jsonl"
    cut = campaign(path, GAMES, block=GAMES, seconds=10)  # the block stops, part played, when time is up
    monkeypatch.undo()
    assert 0 < cut.games < GAMES and played_indices(cut) == list(range(cut.games))
    done = campaign(path, GAMES, block=10)
    assert played_indices(done) == list(range(GAMES)) and summary(done) == summary(one_go)


def test_a_torn_last_line_is_played_again(tmp_path, one_go):
    path = tmp_path / "state.jsonl"
    campaign(path, 20, block=10)
    text = path.read_text()
    path.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + text.rstrip("\n").rsplit("\n", 1)[1][:25])
    resumed = campaign(path, GAMES, block=10)
    assert played_indices(resumed) == list(range(GAMES)) and summary(resumed) == summary(one_go)


def test_a_state_file_of_another_campaign_is_refused_by_name(tmp_path):
    path = tmp_path / "state.jsonl"
    StateFile(path, CampaignSpec(seed=1)).close()
    with pytest.raises(CampaignError, match="records another campaign .*seed 1.*--fresh"):
        StateFile(path, CampaignSpec(seed=2))
    path.write_text("not json\n{}\n")
    with pytest.raises(CampaignError, match=r"state.jsonl:1:1: not valid JSON"):
        StateFile(path, CampaignSpec(seed=2))


def test_missing_blocks_cover_the_gaps_in_order():
    assert list(missing_blocks([(0, 10), (20, 3)], 10, 30)) == [(10, 10), (23, 7)]
    assert list(missing_blocks([(0, 30)], 10, 30)) == []
    assert list(missing_blocks([(0, 10), (25, 15)], 10, 20)) == [(10, 10)]  # not past the total


def test_on_several_workers_the_last_blocks_shrink_so_that_the_workers_finish_together():
    blocks = list(missing_blocks([], 25, 200, workers=2))
    assert [first for first, _ in blocks] == [0] + [first + count for first, count in blocks[:-1]]
    assert sum(count for _, count in blocks) == 200
    sizes = [count for _, count in blocks]
    assert sizes[:5] == [25] * 5 and sizes == sorted(sizes, reverse=True) and sizes[-1] < 25
    assert min(sizes[:-1]) >= 25 // TAIL_FLOOR  # only the very last may be smaller: what is left
    assert list(missing_blocks([(0, 10), (20, 3)], 10, 30, workers=2)) == [(10, 5), (15, 3), (18, 2), (23, 2),
                                                                           (25, 2), (27, 2), (29, 1)]
    endless = missing_blocks([], 25, None, workers=2)  # a campaign bounded by time only: no end to shrink towards
    assert [next(endless) for _ in range(3)] == [(0, 25), (25, 25), (50, 25)]


def test_one_request_per_game_finds_what_step_by_step_finds(tmp_path, one_go):
    """The play_game fast path (the default) and every move as its own request: the same deviations, in the
    same first games, in as many games."""
    step_by_step = campaign(tmp_path / "s.jsonl", GAMES, block=GAMES,
                            spec=CampaignSpec(seed=5, engine=BUGGY, batched=False))
    assert summary(step_by_step) == summary(one_go)
    one_core = campaign(tmp_path / "o.jsonl", GAMES, block=9, spec=CampaignSpec(seed=5, engine=BUGGY, overlap=False))
    assert summary(one_core) == summary(one_go)


def block_against(fake: str, games: int, timeout: float = 5.0) -> Block:
    """Games 0 .. games-1 of campaign seed 0, played in this process by tests/fake_engines/<fake>."""
    try:
        return run_block(CampaignSpec(seed=0, engine=f"{sys.executable} {FAKES / fake}", timeout=timeout), 0, games)
    finally:
        close_engines()


def test_a_play_game_answer_that_the_single_requests_contradict_is_its_own_deviation():
    block = block_against("batch_differs.py", 3)
    assert block.games == 3 and block.counts == {"fail play_game": 3}
    found = block.deviations["fail play_game"]
    assert "the state after" in found.message and "step by step agrees" in found.message and found.steps


def test_a_hanging_engine_is_a_timeout_found_by_the_single_requests():
    block = block_against("hang.py", 2, timeout=0.5)
    assert block.games == 2 and block.counts == {"timeout play": 2}  # the play_game reply timed out first


def test_a_crashing_engine_is_a_deviation_and_the_block_goes_on():
    block = block_against("crash_midgame.py", 3)
    assert block.games == 3 and block.counts == {"crash play": 3}
    assert "exit" in block.deviations["crash play"].message or block.deviations["crash play"].stderr


def test_azul_fuzz_reports_each_deviation_once_with_a_scenario_that_replays(tmp_path):
    reports = tmp_path / "reports"
    azul = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())"]
    run = subprocess.run(azul + ["fuzz", "--engine", BUGGY, "--games", "40", "--seed", "5", "--block", "10",
                                 "--report-dir", str(reports), "--shrink-seconds", "5"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "40 games in all" in run.stdout and "2 distinct deviations" in run.stdout
    lines = [json.loads(line) for line in (reports / "report.jsonl").read_text().splitlines()]
    cases = [line for line in lines if line["type"] == "case"]
    from azul_conformance.harness.header import suite_version

    assert lines[0]["suite_version"] == suite_version()  # the same header as azul conform's
    assert [c["rule"] for c in cases] == ["OFFER-11", "SCORE-2"] and {c["verdict"] for c in cases} == {"fail"}
    assert (reports / "junit.xml").exists() and "OFFER-11" in (reports / "report.md").read_text()
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.engines.subprocess import ProcessEngine
    from azul_conformance.scenario import load_scenarios, run_scenario

    for case in cases:
        scenarios = load_scenarios([case["counterexample"]])
        assert len(scenarios) == 1
        assert run_scenario(ReferenceEngine(), scenarios[0]).verdict == "pass"  # asserts the reference's outcome
        with ProcessEngine(BUGGY) as buggy:
            assert run_scenario(buggy, scenarios[0]).verdict == "fail"  # and the engine's deviation
    again = subprocess.run(azul + ["fuzz", "--engine", BUGGY, "--games", "40", "--seed", "5",
                                   "--report-dir", str(reports), "--shrink-seconds", "0"],
                           capture_output=True, text=True, timeout=300)
    assert "resuming: 40 games already played" in again.stdout and "(0 this session" in again.stdout


def test_a_rerun_after_the_engine_changed_starts_afresh_and_says_why(tmp_path):
    """The same command after the engine's file was fixed plays the games again (it used to replay nothing and
    report the old deviations); a record without the engine named, or of another hello, is not resumed either."""
    engine = tmp_path / "my_engine.py"
    engine.write_text(f"import runpy, sys\nsys.path.insert(0, {str(FAKES)!r})\n"
                      f"runpy.run_path({str(FAKES / 'two_bugs.py')!r}, run_name='__main__')\n")
    azul = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())", "fuzz",
            "--engine", f"{sys.executable} {engine}", "--games", "6", "--seed", "5", "--report-dir",
            str(tmp_path / "reports"), "--shrink-seconds", "0"]
    first = subprocess.run(azul, capture_output=True, text=True, timeout=300)
    assert "6 games in all (6 this session" in first.stdout, first.stdout + first.stderr
    same = subprocess.run(azul, capture_output=True, text=True, timeout=300)  # unchanged: resumed, nothing to play
    assert "resuming: 6 games already played" in same.stdout and "played before" in same.stdout
    engine.write_text(engine.read_text() + "# the bug fixed\n")
    again = subprocess.run(azul, capture_output=True, text=True, timeout=300)
    assert "starting afresh" in again.stdout and f"{engine} changed since it was recorded" in again.stdout
    assert "6 games in all (6 this session" in again.stdout and "resuming:" not in again.stdout
    state = tmp_path / "reports" / "fuzz-state.jsonl"
    assert (tmp_path / "reports" / "fuzz-state.jsonl.previous").is_file()  # the old record kept
    spec = CampaignSpec(seed=5, engine=f"{sys.executable} {engine}")
    name = {"name": "another", "version": "2", "files": {}}
    from azul_conformance.fuzz.state import StateFile

    other = StateFile(state, spec, engine=name)
    other.close()
    assert "hello says another 2" in other.afresh and other.findings.games == 0
    header = json.loads(state.read_text().splitlines()[0])
    state.write_text(json.dumps({k: v for k, v in header.items() if k != "engine"}) + "\n")
    unnamed = StateFile(state, spec, engine=name)
    unnamed.close()
    assert "does not say which engine" in unnamed.afresh
    assert StateFile(state, spec, engine=name).afresh == ""  # now recorded: the same engine resumes


def test_azul_fuzz_needs_a_length_and_a_good_duration(tmp_path):
    azul = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())", "fuzz"]
    run = subprocess.run(azul, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 2 and "--games N, --time DURATION" in run.stderr
    run = subprocess.run(azul + ["--time", "2 days"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 2 and "expected a duration such as 90s" in run.stderr
