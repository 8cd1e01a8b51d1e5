"""The one result model, the one case selector and the reporter interface."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner
from rich.console import Console

from azul_conformance.cli.scenarios import scenarios as scenarios_cli
from azul_conformance.harness import Session, run_session
from azul_conformance.harness.cases import scenario_cases, select
from azul_conformance.harness.reporters import REPORTERS, Output, Reporter
from azul_conformance.harness.report import markdown, write_junit
from azul_conformance.results import CaseResult, Verdict, tally, worst


def test_a_result_is_frozen_and_survives_its_json_line():
    result = CaseResult("x", "scenario", "fail", rules=["OFFER-5"], message="m", details={"failures": [{"a": 1}]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.verdict = Verdict.PASS
    again = CaseResult.from_json(json.loads(json.dumps(result.to_json())))
    assert again == result and again.verdict is Verdict.FAIL and again.rules == ("OFFER-5",)
    assert json.loads(json.dumps(result.to_json()))["verdict"] == "fail"


def test_every_verdict_is_reported_by_every_format(tmp_path):
    """A verdict's meaning lives on its enum member: the tally, the status, JUnit and Markdown follow from it."""
    results = [CaseResult(v, "scenario", v, rules=("OFFER-1",), message="why") for v in Verdict]
    assert tally(results) == dict.fromkeys(map(str, Verdict), 1)
    assert worst({r.verdict for r in results}) is Verdict.CRASH and worst({Verdict.PASS, Verdict.SKIP}) == "pass"
    write_junit(tmp_path / "junit.xml", results)
    assert all(f'name="{v}"' in (tmp_path / "junit.xml").read_text() for v in Verdict)
    assert all(f"{v}: 1" in markdown({}, results) for v in Verdict)


def test_the_selector_knows_ids_rules_chapters_globs_and_commas_in_any_case():
    cases = scenario_cases().cases
    by = lambda *only: {c.id for c in select(cases, only)}  # noqa: E731
    assert by("offer-5") == by("OFFER-5") and by("OFFER-5")
    assert by("floor") == by("FLOOR") == {c.id for c in cases if any(r.startswith("FLOOR-") for r in c.rules)}
    assert by("OFFER-5,floor") == by("OFFER-5") | by("FLOOR")
    assert by("Floor-Line-*") and by("nothing-like-this") == set()


def test_scenarios_run_is_the_conform_session_with_its_selector():
    ran = CliRunner().invoke(scenarios_cli, ["run", "--only", "offer-9,grey", "-v"])
    assert ran.exit_code == 0, ran.output
    assert "PASS offer-wall-row-forbids-colour" in ran.output and "PASS grey-" in ran.output
    none = CliRunner().invoke(scenarios_cli, ["run", "--only", "NO-SUCH-RULE"])
    assert none.exit_code == 2 and "selects no case" in none.output


def test_a_new_report_format_is_one_reporter(tmp_path, monkeypatch):
    seen = []

    class Counting(Reporter):
        def start(self, header):
            seen.append(("start", header["cases"]))

        def case(self, result):
            seen.append(("case", result.verdict))

        def finish(self, run):
            seen.append(("finish", len(run.results)))
            (self.output.folder / "count.txt").write_text(str(len(run.results)))

    monkeypatch.setitem(REPORTERS, "count", Counting)
    session = Session(only=("SETUP-3",), properties=False, report_dir=str(tmp_path), formats=("count",))
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    assert status == 0 and seen[0] == ("start", len(results)) and seen[-1] == ("finish", len(results))
    assert [v for kind, v in seen if kind == "case"] == [r.verdict for r in results]
    assert (tmp_path / "count.txt").read_text() == str(len(results)) and isinstance(Counting(Output(None)), Reporter)


def test_every_verdict_is_in_the_docs_verdict_tables():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for page in ("docs/reference/protocol.md", "docs/validate-your-engine.md"):
        text = (root / page).read_text(encoding="utf-8")
        assert all(f"| `{v}` |" in text for v in Verdict), page
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert all(f"`{v}`" in readme for v in Verdict)


def test_a_result_makes_every_string_inside_its_values_safe_and_keeps_what_needed_nothing():
    # the one boundary every engine text passes: nested anywhere in the details, a control or bidirectional
    # character is shown as its escape and a long text clipped; a container with nothing to change is kept as the
    # very object it was (a diagnosis builds thousands of results, each with whole states inside)
    clean = {"boards": [{"lines": ["", "BB"], "floor": "1K"}], "round": 2, "score": 1.5, "over": None}
    hostile = {"boards": [{"lines": ["\x1b[31mB", "ok"], "floor": "\u202eK"}], "tail": ("x" * 5000,), "n": 3}
    result = CaseResult("a-case", "scenario", Verdict.FAIL, details={"clean": clean, "hostile": hostile})
    assert result.details["clean"] is clean
    made = result.details["hostile"]
    assert made["boards"][0]["lines"] == ["\\x1b[31mB", "ok"] and made["boards"][0]["floor"] == "\\u202eK"
    assert made["tail"][0].startswith("x" * 2000) and "(5,000 characters, clipped)" in made["tail"][0]
    assert isinstance(made["tail"], tuple) and made["n"] == 3
    assert hostile["boards"][0]["lines"][0] == "\x1b[31mB"  # the engine's own value is not changed in place
    tabbed = CaseResult("a-case", "scenario", Verdict.FAIL, message="two\tcolumns\nand a line")
    assert tabbed.message == "two\tcolumns\nand a line"
