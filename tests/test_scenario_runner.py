"""The scenario runner: verdicts from a tiny scripted engine, the export, the CLI, and the corpus on the
reference engine."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.scenarios import scenarios as scenarios_cli
from azul_conformance.engines.base import Capabilities, Engine, EngineCrash, EngineInfo, Rejected
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.scenario import export_scenarios, load_scenarios, load_text, parse_position, run_scenario
from azul_conformance.scenario.export import export_problems

CORPUS_DIR = Path(__file__).resolve().parents[1] / "conformance" / "scenarios"


class FakeEngine(Engine):
    """Loads any state; `script` maps a move to a function changing the state, or to a Rejected to raise."""

    def __init__(self, script=None, moves=(), capabilities=Capabilities(), leak=False):
        self.info = EngineInfo("fake", "0", 1, capabilities)
        self.script, self.moves, self.leak = script or {}, list(moves), leak
        self.current = None

    def hello(self):
        return self.info

    def new_game(self, players, variant="colour", start_player=0):
        self.current = parse_position(f"players: {players}  variant: {variant}  start: {start_player}\n"
                                      "phase: deal").state
        return self.state()

    def deal(self, factories=None):
        raise Rejected("unsupported", "no deals here")

    def load_state(self, state):
        self.current = copy.deepcopy(state)
        return self.state()

    def legal_moves(self):
        return list(self.moves)

    def play(self, move):
        action = self.script.get(move)
        if isinstance(action, Exception):
            if self.leak:
                self.current["turn"] = 1  # a broken engine: changes the state and then refuses
            raise action
        if action is None:
            raise Rejected("illegal_move", f"{move} is not scripted", "OFFER-6")
        action(self.current)
        return self.state()

    def state(self):
        return copy.deepcopy(self.current)


def take_blue(state):
    state["factories"][0] = ""
    state["centre"] = "RK"
    state["boards"][0]["lines"][1] = "BB"
    state["turn"] = 1


SCENARIO = """\
- id: offer-fake
  title: a take on a scripted engine
  rules: [OFFER-2]
  level: rule
  given: |
    factories: 1: BBRK  2: KKKK
  steps: {steps}
  expect: |
    board 0 line 2 = B B
    centre = M RK
    legal moves include 2K1
"""


def scenario(steps="1B2", text=SCENARIO):
    return load_text(text.format(steps=steps), "fake.yaml")[0]


def test_pass():
    result = run_scenario(FakeEngine({"1B2": take_blue}, moves=["2K1"]), scenario())
    assert result.verdict == "pass" and not result.bad and result.where == "fake.yaml:1"


def test_fail_shows_expected_actual_and_where():
    def take_one(state):
        take_blue(state)
        state["boards"][0]["lines"][1] = "B"

    result = run_scenario(FakeEngine({"1B2": take_one}, moves=["2K2"]), scenario())
    assert result.verdict == "fail" and result.message == "2 of 3 assertions failed"
    assert result.expected == "BB" and result.actual == "B"
    assert "fake.yaml:9: board 0 line 2 = B B" in result.diff
    assert "/boards/0/lines/1: expected 'BB', got 'B'" in result.diff
    assert "legal moves lack 2K1" in result.diff


def test_a_failure_keeps_the_engines_state_it_was_judged_on():
    # the report draws the engine's boards beside the case (docs: a report page an engine author can act on)
    def take_one(state):
        take_blue(state)
        state["boards"][0]["lines"][1] = "B"

    engine = FakeEngine({"1B2": take_one}, moves=["2K2"])
    result = run_scenario(engine, scenario())
    assert result.verdict == "fail" and result.details["state"] == engine.state()
    assert result.details["state"]["boards"][0]["lines"][1] == "B"
    assert "state" not in run_scenario(FakeEngine({"1B2": take_blue}, moves=["2K1"]), scenario()).details


def test_board_block_failure_carries_a_drawing_diff():
    text = SCENARIO.replace("    board 0 line 2 = B B\n", "    board 0:\n      floor: M\n")
    result = run_scenario(FakeEngine({"1B2": take_blue}, moves=["2K1"]), scenario(text=text))
    assert result.verdict == "fail"
    assert "-floor: M" in result.diff and "+floor: -" in result.diff


def test_skip_names_the_missing_capability():
    result = run_scenario(FakeEngine(capabilities=Capabilities(load_state=False)), scenario())
    assert result.verdict == "skip" and "load_state" in result.message
    grey = SCENARIO.replace("factories: 1: BBRK", "variant: grey\n    factories: 1: BBRK")
    result = run_scenario(FakeEngine(capabilities=Capabilities(variants=("colour",))), scenario(text=grey))
    assert result.verdict == "skip" and "grey" in result.message


def test_unsupported_answer_is_a_skip_with_reason():
    result = run_scenario(FakeEngine(), scenario(steps="deal random"))
    assert result.verdict == "skip" and "no deals here" in result.message


def test_refused_legal_move_fails():
    result = run_scenario(FakeEngine({}), scenario())
    assert result.verdict == "fail" and "'1B2' (fake.yaml:7) was refused" in result.message


def test_expected_refusal():
    refuse = {"3K4": Rejected("illegal_move", "no", "OFFER-9"), "1B2": take_blue}
    passing = run_scenario(FakeEngine(refuse, moves=["2K1"]), scenario("3K4 -> illegal_move OFFER-9 1B2"))
    assert passing.verdict == "pass"
    accepted = run_scenario(FakeEngine({"3K4": take_blue}), scenario("3K4 -> illegal_move OFFER-9"))
    assert accepted.verdict == "fail" and "was accepted" in accepted.message
    wrong_rule = run_scenario(FakeEngine(refuse), scenario("3K4 -> illegal_move OFFER-8"))
    assert wrong_rule.verdict == "fail" and "OFFER-9, expected OFFER-8" in wrong_rule.message
    lenient = run_scenario(FakeEngine(refuse, moves=["2K1"]), scenario("3K4 -> illegal_move OFFER-8 1B2"),
                           strict_rules=False)
    assert lenient.verdict == "pass"
    wrong_code = run_scenario(FakeEngine({"3K4": Rejected("bad_request", "?")}), scenario("3K4 -> illegal_move"))
    assert wrong_code.verdict == "fail" and wrong_code.actual["code"] == "bad_request"


def test_refusal_that_changes_the_state_fails():
    engine = FakeEngine({"3K4": Rejected("illegal_move", "no", "OFFER-9")}, leak=True)
    result = run_scenario(engine, scenario("3K4 -> illegal_move OFFER-9"))
    assert result.verdict == "fail" and "changed the state" in result.message and '"turn"' in result.diff


def test_crash_is_passed_up_and_becomes_a_verdict_in_the_harness():
    from azul_conformance.harness.cases import scenario_case
    from azul_conformance.harness.runner import RunOptions, run_case

    engine = FakeEngine({"1B2": EngineCrash("exit 3", exit_code=3, request={"cmd": "play"}, stderr="boom")})
    with pytest.raises(EngineCrash):
        run_scenario(engine, scenario())
    crash = run_case(engine, scenario_case(scenario()), engine.info.capabilities, RunOptions())
    assert (crash.verdict, crash.message, crash.exit_code, crash.stderr) == ("crash", "exit 3", 3, "boom")
    assert crash.request == {"cmd": "play"} and crash.kind == "scenario" and crash.rules == ("OFFER-2",)


def test_an_internal_error_is_an_error_verdict():
    internal = run_scenario(FakeEngine({"1B2": Rejected("internal", "boom")}), scenario())
    assert internal.verdict == "error" and "boom" in internal.message


# -- the corpus ------------------------------------------------------------------------------------------

CORPUS = load_scenarios()


def test_corpus_ids_are_unique():
    ids = [s.id for s in CORPUS]
    assert len(ids) == len(set(ids)) and len(ids) >= 20


@pytest.mark.parametrize("case", CORPUS, ids=lambda s: s.id)
def test_corpus_passes_on_the_reference_engine(case):
    result = run_scenario(ReferenceEngine(seed=0), case)
    assert result.verdict == "pass", f"{result.id} ({result.where}): {result.message}\n{result.diff}"


def test_export_is_valid_json_for_the_schema():
    document = export_scenarios(CORPUS)
    assert export_problems(document) == []
    first = next(s for s in document["scenarios"] if s["id"] == "offer-factory-take-all-of-colour")
    assert first["file"] == "offer/taking-tiles.yaml" and first["steps"] == [{"kind": "move", "move": "1B2"}]
    assert first["given"]["state"]["factories"][0] == "BBRK"
    assert {"kind": "multiset", "path": "/centre", "value": "RK"} in first["expect"][2]["checks"]
    assert export_problems({"format": "azul-scenarios/1", "generator": "x", "scenarios": [{"id": 1}]})


def test_cli_run_check_and_export(tmp_path):
    runner = CliRunner()
    ran = runner.invoke(scenarios_cli, ["run", "--only", "OFFER-9", "-v"])
    assert ran.exit_code == 0 and "PASS offer-wall-row-forbids-colour" in ran.output
    checked = runner.invoke(scenarios_cli, ["check", "--no-coverage"])
    assert checked.exit_code == 0, checked.output
    out = tmp_path / "s.json"
    exported = runner.invoke(scenarios_cli, ["export", "--json", "-o", str(out)])
    assert exported.exit_code == 0 and json.loads(out.read_text())["format"] == "azul-scenarios/1"


def test_cli_run_reports_failures_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.format(steps="1B2").replace("    centre = M RK\n", "    score 0 = 99\n"))
    result = CliRunner().invoke(scenarios_cli, ["run", str(bad)])
    assert result.exit_code == 1
    assert "FAIL offer-fake (" in result.output and "bad.yaml:1)" in result.output
    assert "expected 99, got 0" in result.output


def test_cli_check_reports_bad_files(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.format(steps="1B2") + SCENARIO.format(steps="1B2").replace("OFFER-2", "OFFER-99")
                   + SCENARIO.format(steps="'2B1 -> illegal_move OFFER-98'").replace("offer-fake", "offer-step"))
    result = CliRunner().invoke(scenarios_cli, ["check", "--no-coverage", "--no-engine", str(bad)])
    assert result.exit_code == 1
    assert "already used" in result.output and "unknown rule ID 'OFFER-99' in its rules" in result.output
    assert "bad.yaml:29: offer-step: unknown rule ID 'OFFER-98' in step '2B1 -> illegal_move OFFER-98'" \
        in result.output


def test_cli_check_holds_a_scenario_s_sources_to_the_rulebooks(tmp_path, monkeypatch):
    books = tmp_path / "rulebooks"
    books.mkdir()
    (books / "000_0123456789abcdef.txt").write_text("Take tiles.\n\nOne colour.\n", encoding="utf-8")
    monkeypatch.setenv("AZUL_RULEBOOKS", str(books))
    cited = tmp_path / "cited.yaml"
    scenarios = [SCENARIO.format(steps="1B2").replace("offer-fake", f"cites-{n}").replace(
        "  level: rule", f"  sources: ['{source}']\n  level: rule") for n, source in enumerate(
        ("000_0123456789abcdef.txt:1-3", "000_0123456789abcdef.txt:3", "000_0123456789abcdef.txt:2",
         "000_0123456789abcdef.txt:2-9", "000_0123456789abcdef.txt:0", "001_0123456789abcdef.txt:1-2"))]
    cited.write_text("".join(scenarios), encoding="utf-8")
    result = CliRunner().invoke(scenarios_cli, ["check", "--no-coverage", "--no-engine", str(cited)])
    assert result.exit_code == 1
    problems = [line.split(": ", 1)[1] for line in result.output.splitlines() if ": cites-" in line]
    assert problems == ["cites-2 cites 000_0123456789abcdef.txt:2: only blank lines",
                        "cites-3 cites 000_0123456789abcdef.txt:2-9: beyond the end of 000_0123456789abcdef.txt "
                        "(3 lines)",
                        "cites-4 cites 000_0123456789abcdef.txt:0: not a line range: '0'",
                        "cites-5 cites 001_0123456789abcdef.txt:1-2: no rulebook file 001_0123456789abcdef.txt"]


def test_the_bundled_corpus_covers_every_rule_and_every_ruling():
    """`azul scenarios check` in full: schema, grammar, ids, known rules, citations, legal positions, and
    coverage (a scenario for every rule, one of level `ruling` for every ruling)."""
    result = CliRunner().invoke(scenarios_cli, ["check"])
    assert result.exit_code == 0, result.output
    assert "0 problem(s)" in result.output


def test_check_lists_the_rules_no_scenario_covers(tmp_path):
    only = tmp_path / "one.yaml"
    only.write_text((CORPUS_DIR / "floor" / "floor-line.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(scenarios_cli, ["check", str(only)])
    assert result.exit_code == 1
    assert "OFFER-6" in result.output and "GREY-3" in result.output


def test_a_file_that_is_not_utf8_is_a_located_error_not_a_traceback(tmp_path):
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(b"- id: x\n  title: caf\xe9\n")
    result = CliRunner().invoke(scenarios_cli, ["check", "--no-coverage", str(junk)])
    assert result.exit_code == 1
    assert "junk.yaml:2:13: not UTF-8 text: byte 0xe9" in result.output and "Traceback" not in result.output


DRAWN = """\
- id: deal-drawn
  title: a random deal, then a take that hangs on the colours drawn
  rules: [DEAL-1]
  level: rule
  given: |
    new game  players: 2
  steps: |
    deal random
    1B1
  expect: |
    board 0 line 1 = {colour}
"""


def test_a_failure_after_the_engine_s_own_draw_carries_it_and_another_engine_can_deal_it_again():
    given = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]
    yellow = load_text(DRAWN.format(colour="Y"), "drawn.yaml")[0]
    replayed = run_scenario(ReferenceEngine(0), yellow, draws={1: given})
    # factory 1 dealt as given: 1B1 puts a blue tile on line 1, where the check wants yellow
    assert replayed.verdict == "fail" and replayed.details["draws"] == {"1": given}
    assert replayed.failures[0]["where"] == "drawn.yaml:11" and replayed.failures[0]["actual"] == ["B"]
    # a draw this engine cannot deal (nine factories at two players) is not forced on it: it draws its own (and
    # fails, as no take puts yellow on line 1 by 1B1)
    own = run_scenario(ReferenceEngine(0), yellow, draws={1: ["BBBB"] * 9})
    assert own.verdict == "fail" and len(own.details["draws"]["1"]) == 5
    # a pass carries nothing
    blue = load_text(DRAWN.format(colour="B"), "drawn.yaml")[0]
    passing = run_scenario(ReferenceEngine(0), blue, draws={1: given})
    assert passing.verdict == "pass" and "draws" not in passing.details
