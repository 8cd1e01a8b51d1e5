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


def test_off_a_terminal_no_line_is_wrapped_at_80_columns(tmp_path):
    import subprocess
    import sys

    folder = tmp_path / ("a-report-folder-whose-path-runs-well-past-eighty-columns-" * 2)
    azul = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())"]
    run = subprocess.run(azul + ["conform", "--only", "SETUP-1", "--no-properties", "--report-dir", str(folder)],
                         capture_output=True, text=True, timeout=120, env={**__import__("os").environ,
                                                                             "COLUMNS": ""})
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"reports: {folder}/" in run.stdout.splitlines(), run.stdout  # the whole path on one line


def test_an_empty_value_is_shown_as_empty_quotes_never_as_nothing():
    from azul_conformance.harness.findings import Evidence

    result = CaseResult("floor-marker", CaseKind.SCENARIO, Verdict.FAIL, message="x", expected="M", actual="")
    text = Evidence.of(result).text
    assert 'the rules give M, the engine ""' in text, text
    assert 'the engine " "' in Evidence.of(CaseResult("c", CaseKind.SCENARIO, Verdict.FAIL, message="x",
                                                      expected="M", actual=" ")).text
