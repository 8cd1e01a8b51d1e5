"""A run that judged nothing is never green: an engine that answers `unsupported` to what its own hello offers
fails those cases (it is no skip), and a hello that offers no game at all is refused at start."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from azul_conformance.engines.base import Capabilities
from azul_conformance.harness import read_report

AZUL = str(Path(sys.executable).parent / "azul")
FAKES = Path(__file__).parent / "fake_engines"


def conform(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([AZUL, "conform", *args], capture_output=True, text=True, timeout=timeout)


def unsupported_all(*extra: str) -> str:
    return shlex.join([sys.executable, str(FAKES / "unsupported_all.py"), *extra])


def test_unsupported_to_what_the_hello_offers_fails_the_case(tmp_path):
    # SETUP-1's scenarios start a game of 2 players on an offered wall; property-invariants plays offered games
    run = conform("--engine", unsupported_all(), "--only", "SETUP-1", "--only", "property-invariants",
                  "--examples", "3", "--report-dir", str(tmp_path), "--format", "jsonl", "--format", "junit")
    verdicts = {r.id: (r.verdict, r.message) for r in read_report(tmp_path / "report.jsonl").results}
    assert run.returncode == 1, run.stdout + run.stderr
    assert verdicts["property-invariants"][0] == "fail"
    assert "its hello offers new_game for 2 players" in verdicts["property-invariants"][1]
    failed = [case for case, (verdict, _) in verdicts.items() if verdict == "fail"]
    assert len(failed) >= 2
    # what the hello does not offer (a hexagonal wall) is still a skip: the engine may say it cannot
    assert [v for v, _ in verdicts.values() if v == "skip"] == ["skip"]
    junit = (tmp_path / "junit.xml").read_text()
    assert 'failures="0"' not in junit.split("<testsuite ", 1)[1].split(">", 1)[0]


def test_a_hello_offering_no_player_count_is_refused_at_start():
    run = conform("--engine", unsupported_all("--players", ""), "--only", "SETUP-1")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "cannot start the engine" in run.stdout and "players" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def test_an_in_process_hello_offering_no_wall_is_refused_at_start():
    run = conform("--engine", f"py:{FAKES.parent / 'inprocess_engines' / 'engines.py'}:no_wall", "--only", "SETUP-1")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "offers no wall" in run.stdout


def test_what_a_hello_offers():
    offered = Capabilities(players=(2,), variants=("colour",), load_state=True, deal=False)
    assert offered.offers({"cmd": "new_game", "players": 2, "variant": "colour"})
    assert not offered.offers({"cmd": "new_game", "players": 3, "variant": "colour"})
    assert not offered.offers({"cmd": "new_game", "players": 2, "variant": "grey"})
    assert offered.offers({"cmd": "deal", "factories": None})  # every engine deals by itself
    assert not offered.offers({"cmd": "deal", "factories": ["BBBB"] * 5})  # deal: false
    state = {"variant": "colour", "phase": "offer", "boards": [{}, {}]}
    assert offered.offers({"cmd": "load_state", "state": state})
    assert not offered.offers({"cmd": "load_state", "state": dict(state, phase="tiling")})
    assert not offered.offers({"cmd": "load_state", "state": dict(state, phase="deal")})
    assert not offered.offers({"cmd": "state"})
    assert Capabilities(players=()).lacking() == "no player count"


def test_a_recording_holding_only_its_header_judges_nothing_and_is_no_pass(tmp_path):
    import gzip
    import json

    from azul_conformance.engines.recording import FORMAT, hello_json
    from azul_conformance.engines.reference import ReferenceEngine

    path = tmp_path / "header-only.jsonl.gz"
    header = {"format": FORMAT, "suite_version": "0", "command": "x", "seed": 0, "examples": 2,
              "hello": hello_json(ReferenceEngine(0).hello())}
    path.write_bytes(gzip.compress((json.dumps(header) + "\n").encode()))
    run = conform("--recording", str(path), "--only", "FLOOR", "--no-properties", "--report-dir",
                  str(tmp_path / "report"))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "nothing was judged" in run.stdout and "not_run" in run.stdout
    assert {r.verdict for r in read_report(tmp_path / "report" / "report.jsonl").results} == {"not_run"}


def test_budgets_of_nothing_are_refused_before_anything_runs():
    run = conform("--budget", "0", "--only", "FLOOR-1")
    assert run.returncode == 2 and "more than 0 seconds" in run.stderr, run.stdout + run.stderr
    fuzz = subprocess.run([AZUL, "fuzz", "--time", "0s"], capture_output=True, text=True, timeout=60)
    assert fuzz.returncode == 2 and "more than 0 seconds" in fuzz.stderr, fuzz.stdout + fuzz.stderr


def test_a_campaign_of_no_game_is_not_run_never_a_pass():
    from azul_conformance.fuzz.campaign import CampaignSpec, Findings
    from azul_conformance.fuzz.report import results_of

    [none] = results_of(CampaignSpec(), Findings(), None)
    assert none.verdict == "not_run" and "no game was played" in none.message
    [some] = results_of(CampaignSpec(), Findings(games=3), None)
    assert some.verdict == "pass" and some.message.startswith("3 games")


def test_a_failure_that_became_a_skip_is_listed_as_no_longer_judged(tmp_path):
    import json

    engine = unsupported_all("--players", "3")  # SETUP-1's games of 2 players: not offered, so skipped
    first = conform("--engine", engine, "--only", "SETUP-1", "--no-properties", "--report-dir", str(tmp_path / "a"))
    lines = [json.loads(line) for line in (tmp_path / "a" / "report.jsonl").read_text().splitlines()]
    skipped = [line["id"] for line in lines if line.get("type") == "case" and line["verdict"] == "skip"]
    assert skipped, first.stdout
    old = tmp_path / "old.jsonl"  # the same cases, failing in an earlier run
    old.write_text("".join(json.dumps(dict(line, verdict="fail") if line.get("id") in skipped else line) + "\n"
                           for line in lines))
    run = conform("--engine", engine, "--only", "SETUP-1", "--no-properties", "--compare", str(old),
                  "--report-dir", str(tmp_path / "b"))
    assert f"no longer judged: {len(skipped)}" in run.stdout and "fixed: 0" in run.stdout, run.stdout
    assert f"{skipped[0]}: fail -> skip" in run.stdout
    footer = read_report(tmp_path / "b" / "report.jsonl").footer
    assert [row["id"] for row in footer["compared"]["no_longer_judged"]] == skipped
    assert footer["compared"]["fixed"] == [] and footer["compared"]["with"] == str(old)
    markdown = (tmp_path / "b" / "report.md").read_text()
    assert "## Compared with" in markdown and f"- no longer judged: {len(skipped)}" in markdown


def test_unsupported_to_what_the_hello_offers_never_differs_on_an_implementation_defined_scenario(tmp_path):
    # grey-single-legal-space-still-a-choice is implementation-defined: another choice there differs, but an
    # engine that would not even load its position has made no choice
    run = conform("--engine", unsupported_all(), "--only", "grey-single-legal-space-still-a-choice",
                  "--no-properties", "--report-dir", str(tmp_path), "--format", "jsonl")
    [result] = read_report(tmp_path / "report.jsonl").results
    assert (result.verdict, result.level) == ("fail", "rule") and run.returncode == 1, run.stdout
