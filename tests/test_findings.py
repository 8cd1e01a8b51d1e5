"""Verdicts by level, failures grouped into deviations, impossible replies as findings of their own."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from azul_conformance.cli.spec import spec as spec_cli
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.harness import Session, read_report, run_session
from azul_conformance.harness.findings import deviations, judge, scores
from azul_conformance.results import CaseResult
from azul_conformance.scenario import load_text, run_scenario

FAKES = Path(__file__).parent / "fake_engines"
QUIET = Console(file=io.StringIO())


def failed(case_id, rules, field, kind, size, rule=None):
    entry = {"assertion": "x", "where": "f.yaml:2", "problems": [], "differences": [[field, kind]]}
    return CaseResult(case_id, "scenario", "fail", rules=rules, rule=rule, details={"failures": [entry]})


def test_a_failure_is_judged_at_the_level_of_the_rules_its_field_belongs_to():
    # ROUND-3 (ruling) owns start_player here; OFFER-14 (rule) does not: the failure is one of our rulings
    ruling = judge(failed("a", ("ROUND-3", "OFFER-14"), "start_player", "differs", 3))
    assert (ruling.level, ruling.symptom, ruling.verdict) == ("ruling", "start_player: differs", "fail")
    # the same field in a case of ROUND-2 (rule) breaks the rulebooks' text
    assert judge(failed("b", ("ROUND-2",), "start_player", "differs", 3)).level == "rule"
    # a wrong phase at the end is END-8's (ruling) even in a case that also names the bonuses and the winners
    assert judge(failed("e", ("END-8", "END-4", "END-5"), "phase", "differs", 3)).level == "ruling"
    assert judge(failed("f", ("END-1", "END-8", "END-5"), "phase", "differs", 3)).level == "rule"
    # a refusal names its rule: that rule's level, whatever else the case checks
    assert judge(failed("c", ("OFFER-9", "OFFER-6"), "refusal", "accepted", 2, rule="OFFER-6")).level == "ruling"


def test_an_implementation_defined_case_differs_and_never_fails():
    result = judge(failed("d", ("GREY-5", "GREY-1"), "legal moves", "extra", 2), tag="implementation-defined")
    assert result.verdict == "differs" and not result.bad and result.level == "implementation-defined"
    assert scores([result])["implementation-defined"] == {"judged": 1, "pass": 0, "fail": 0, "differs": 1}


def test_failures_that_differ_the_same_way_are_one_deviation_shown_by_its_smallest_case():
    results = [judge(failed("big", ("ROUND-2", "ROUND-1"), "start_player", "differs", 9), size=9),
               judge(failed("small", ("ROUND-2",), "start_player", "differs", 2), size=2),
               judge(failed("other", ("END-6",), "winners", "absent", 1), size=1)]
    found = deviations(results)
    assert [(d.key, d.rule, len(d.cases)) for d in found] == [("start_player: differs", "ROUND-2", 2),
                                                               ("winners: absent", "END-6", 1)]
    assert found[0].smallest.id == "small"


def test_the_same_field_found_wrong_under_a_rule_and_under_a_ruling_is_two_deviations():
    # the start player after a round with a centre take (ROUND-2, the rulebooks) and without one (ROUND-3, ours)
    results = [judge(failed("holder", ("ROUND-2",), "start_player", "differs", 2), size=2),
               judge(failed("nobody", ("ROUND-3", "OFFER-14"), "start_player", "differs", 3), size=3),
               judge(failed("holder-3", ("ROUND-2", "ROUND-1"), "start_player", "differs", 4), size=4)]
    found = deviations(results)
    assert [(d.rule, d.level, [c.id for c in d.cases]) for d in found] == [
        ("ROUND-2", "rule", ["holder", "holder-3"]), ("ROUND-3", "ruling", ["nobody"])]


IMPOSSIBLE = """
- id: offer-impossible
  title: an engine that opens an offer with nothing to take
  rules: [OFFER-1]
  level: rule
  given: |
    factories: 1: BBRK
  steps: 1B1
  expect: |
    board 0 line 1 = B
"""


class NothingOnOffer(ReferenceEngine):
    """Sweeps the table into the lid but stays in the offer: no tile lost, yet a position no game reaches."""

    def play(self, move):
        return self.state()

    def state(self):
        state = super().state()
        swept = state["lid"] + "".join(state["factories"]) + state["centre"]
        return dict(state, factories=["" for _ in state["factories"]], centre="", phase="offer",
                    lid="".join(sorted(swept, key="BYRKW".index)))


def test_an_impossible_reply_is_a_finding_of_its_own(tmp_path):
    scenario, = load_text(IMPOSSIBLE, "impossible.yaml")
    result = judge(run_scenario(NothingOnOffer(0), scenario))
    assert result.verdict == "fail" and result.symptom == "state: impossible"
    assert result.failures[0]["rule"] == "OFFER-14" and "no tile left" in result.diff
    assert result.message.startswith("1 of 1 assertions failed")  # the finding is no assertion


def test_exit_status_by_level_and_rules_only(tmp_path):
    engine = f"{sys.executable} {FAKES / 'accept_all.py'}"
    only = ("offer-refuse-absent-colour",)  # OFFER-6, a ruling: an empty take accepted
    results, status = run_session(Session(engine_command=engine, only=only, report_dir=str(tmp_path)), QUIET)
    assert status == 1 and results[0].level == "ruling" and results[0].symptom == "refusal: accepted"
    _, lenient = run_session(Session(engine_command=engine, only=only, formats=(), rules_only=True), QUIET)
    assert lenient == 0
    lines = [json.loads(line) for line in (tmp_path / "report.jsonl").read_text().splitlines()]
    assert lines[1]["level"] == "ruling" and lines[1]["symptom"] == "refusal: accepted"
    # no diagnoser given: the failure is grouped by its symptom, and its row names that deviation
    assert lines[1]["deviation"] == "undiagnosed-offer-6-refusal-accepted" == lines[-2]["id"]
    assert lines[-2]["type"] == "deviation" and lines[-2]["kind"] == "undiagnosed"
    assert lines[-1]["deviations"] == 1 and lines[-1]["scores"]["ruling"]["fail"] == 1
    text = (tmp_path / "report.md").read_text()
    lead = "0 misreadings, 1 not diagnosed, 0 engine faults behind 1 failing case"
    assert text.index(f"## Deviations: {lead}") < text.index("## Rule by rule")
    assert "OFFER-6 (ruling): A take must remove at least one tile" in text and "authority: community" in text
    assert read_report(tmp_path / "report.jsonl").results[0].level == "ruling"


def test_spec_show_prints_a_rule_and_a_chapter():
    shown = CliRunner().invoke(spec_cli, ["show", "offer-6"])
    assert shown.exit_code == 0 and shown.output.startswith("OFFER-6 · ") and "[ruling]" in shown.output
    assert "IT-2  states" in shown.output and "«una o più tessere dello stesso colore»" in shown.output
    assert "authority: community" in shown.output and "offer-refuse-absent-colour (" in shown.output
    flowing = " ".join(shown.output.split())
    assert "only the unofficial IT-2 summary says so outright" in flowing  # the basis names the one version
    # cited by version and line, the version's file named once beside it (not 004_caa7946ff49431f0.txt:39-39)
    assert "IT-2, l. 39 «una o più tessere dello stesso colore»" in flowing
    assert "IT-2 states (Italian summary (unofficial), 004_caa7946ff49431f0.txt)" in flowing
    assert ".txt:" not in shown.output
    chapter = CliRunner().invoke(spec_cli, ["show", "FLOOR"])
    assert chapter.exit_code == 0 and chapter.output.count("FLOOR-") >= 6 and "OFFER-6 ·" not in chapter.output
    assert CliRunner().invoke(spec_cli, ["show", "NOPE-1"]).exit_code == 2


class RefusesSomeDeals(ReferenceEngine):
    """An engine whose own draw cannot make every deal: it refuses given deals with a yellow on factory 1."""

    def deal(self, factories=None):
        from azul_conformance.engines.base import Rejected

        if factories and "Y" in factories[0]:
            raise Rejected("illegal_move", "my draw cannot give that", rule="DEAL-1")
        return super().deal(factories)


def test_properties_that_meet_the_same_refused_deal_are_one_deviation():
    from azul_conformance.properties import PROPERTIES, run_property

    engine = RefusesSomeDeals(0)
    chosen = [p for p in PROPERTIES if p.id in ("property-invariants", "property-game-ends", "differential-takes")]
    results = [judge(run_property(engine, p, engine.info.capabilities, 10, seed=3)) for p in chosen]
    assert [r.verdict for r in results] == ["fail"] * 3, [r.message for r in results]
    found = deviations(results)
    assert [(d.key, d.rule, len(d.cases)) for d in found] == [("deal: refused", "DEAL-1", 3)]


WALL_BLOCKS = """
- id: wall-blocks
  title: the wall rows that hold blue close their lines to blue
  rules: [OFFER-9]
  level: rule
  given: |
    factories: 1: BBBY
    board 0:
              . | B . . . .
            . . | . B . . .
          . . . | . . B . .
        . . . . | . . . . .
      . . . . . | . . . . .
  expect: |
    legal moves = {1B4, 1B5, 1BF, 1Y1, 1Y2, 1Y3, 1Y4, 1Y5, 1YF}
"""


class ListsExtra(ReferenceEngine):
    def __init__(self, extra):
        super().__init__(0)
        self.extra = extra

    def legal_moves(self):
        return super().legal_moves() + self.extra


def test_a_wrong_move_list_is_filed_under_the_rule_its_extra_moves_break():
    scenario = load_text(WALL_BLOCKS, "wall.yaml")[0]
    # a take of a colour factory 1 lacks: an empty take, which only our ruling OFFER-6 forbids
    empty = judge(run_scenario(ListsExtra(["1K1", "1KF"]), scenario), tag="rule")
    assert (empty.verdict, empty.level, deviations([empty])[0].rule) == ("fail", "ruling", "OFFER-6")
    # blue to line 1, whose wall row holds blue: the rulebooks' OFFER-9, whatever else is listed
    blocked = judge(run_scenario(ListsExtra(["1B1", "1K1"]), scenario), tag="rule")
    assert (blocked.level, deviations([blocked])[0].rule) == ("rule", "OFFER-9")


def test_an_implementation_defined_refusal_never_softens_a_rules_failure_into_differs():
    # Bottom-to-top tiling lists a lower line's placement first; the reference refuses it under GREY-5
    # (implementation-defined: it also orders the seats), but the scenario is about TILING-1 and END-1.
    from azul_conformance.mutants import BY_ID as MUTANTS
    from azul_conformance.mutants.patching import MutantEngine

    path = Path(__file__).parents[1] / "conformance" / "scenarios" / "grey" / "game-end.yaml"
    scenario = next(s for s in load_text(path.read_text(encoding="utf-8"), str(path))
                    if s.id == "grey-game-ends-after-the-last-placement")
    result = judge(run_scenario(MutantEngine(MUTANTS["tiling-bottom-to-top"], 0), scenario), tag=scenario.level)
    assert (result.verdict, result.level) == ("fail", "rule"), result.message
