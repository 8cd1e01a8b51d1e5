"""Output that reads right: "1 case", not "1 cases"; report.md names the rules no case checked in one line, not a
table row each (a fuzz campaign's one case made 57 "no case" rows)."""

from __future__ import annotations

import io

from rich.console import Console

from azul_conformance.harness.report import markdown
from azul_conformance.harness.terminal import _totals
from azul_conformance.results import CaseKind, CaseResult, Verdict


def test_one_case_over_one_rule_is_said_in_the_singular():
    out = io.StringIO()
    _totals(Console(file=out, width=200), [CaseResult("fuzz-01", CaseKind.FUZZ, Verdict.FAIL, rules=("SCORE-2",))], 1.0)
    assert "1 case over 1 rule in 1.0 s" in out.getvalue()


def test_report_md_names_the_rules_no_case_checked_in_one_line():
    results = [CaseResult("fuzz-01", CaseKind.FUZZ, Verdict.FAIL, rules=("SCORE-2",), message="x")]
    text = markdown({"engine": {"name": "e"}}, results, ["OFFER-1", "SCORE-2", "END-1"], [])
    assert "| SCORE-2 |" in text and "| OFFER-1 |" not in text and "no case |" not in text
    assert "No case of this run checks 2 rules: " in text and "OFFER-1" in text
