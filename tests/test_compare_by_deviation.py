"""`--compare` leads with what became of each deviation (gone, still, new) and says why a level's count of judged
cases moved, so that a rerun after a fix reads as bugs, not as a list of "fail -> fail" cases."""

from __future__ import annotations

import io

from rich.console import Console

from azul_conformance.harness.findings import Deviation
from azul_conformance.harness.report import compare, comparison_markdown
from azul_conformance.harness.terminal import print_comparison
from azul_conformance.results import CaseKind, CaseResult, Verdict


def case(case_id: str, verdict: Verdict, level: str = "rule") -> CaseResult:
    return CaseResult(case_id, CaseKind.SCENARIO, verdict, level=level,
                      message="not offered" if verdict is Verdict.SKIP else "")


def deviation(dev_id: str, rule: str, cases: list[CaseResult]) -> Deviation:
    return Deviation(dev_id, "undiagnosed", rule, "rule", tuple(cases), key=f"{dev_id} symptom")


def row(dev_id: str, rule: str, description: str, cases: list[str]) -> dict:
    return {"type": "deviation", "id": dev_id, "rule": rule, "description": description, "cases": cases}


def test_a_rerun_leads_with_each_deviation_gone_still_or_new_and_explains_the_judged_counts():
    end = [f"end-{i}" for i in range(3)]
    floor = [f"floor-{i}" for i in range(2)]
    old = [case(i, Verdict.FAIL) for i in end + floor] + [case("deal-0", Verdict.PASS),
                                                          case("grey-0", Verdict.PASS), case("gone-0", Verdict.PASS)]
    new = [case(i, Verdict.PASS) for i in end] + [case(i, Verdict.FAIL) for i in floor] + \
        [case("deal-0", Verdict.SKIP), case("grey-0", Verdict.FAIL), case("added-0", Verdict.PASS)]
    old_rows = [row("end-tiled-seat-by-seat", "END-1", "boards tiled seat by seat", end),
                row("floor-overflow", "FLOOR-3", "the floor's overflow kept", floor)]
    found = [deviation("floor-overflow", "FLOOR-3", [c for c in new if c.id in floor]),
             deviation("grey-bonus", "GREY-4", [c for c in new if c.id == "grey-0"])]
    compared = compare(old, new, old_rows, found)
    lead = compared.lead()
    assert lead[0] == "END-1 (boards tiled seat by seat): gone, 3 cases"
    assert lead[1].startswith("FLOOR-3 (") and lead[1].endswith(": still, 2 cases")
    assert lead[2].startswith("GREY-4 (") and lead[2].endswith(": new, 1 case")  # "1 case", not "1 cases"
    # 9 judged before, 8 now: one case no longer judged, one no longer run, one new
    assert compared.drift == ["rules as written: 7 judged, 8 before (+1 new case, -1 no longer judged (now skip), "
                              "-1 no longer run)"]
    out = io.StringIO()
    print_comparison(Console(file=out, width=200), compared, "old/report.jsonl")
    text = out.getvalue()
    assert text.index("END-1 (boards tiled seat by seat): gone") < text.index("fixed: 3")  # bugs first
    assert "rules as written: 7 judged, 8 before" in text and "floor-0: fail -> fail" not in text
    markdown = "\n".join(comparison_markdown(compared.to_json("old/report.jsonl")))
    assert "- END-1 (boards tiled seat by seat): gone, 3 cases" in markdown
    assert "- rules as written: 7 judged, 8 before" in markdown


def test_nothing_new_is_said_and_no_drift_when_the_same_cases_are_judged():
    old = [case("a", Verdict.FAIL), case("b", Verdict.PASS)]
    new = [case("a", Verdict.FAIL), case("b", Verdict.PASS)]
    compared = compare(old, new, [row("x", "SCORE-2", "adjacent tiles counted once", ["a"])],
                       [deviation("x", "SCORE-2", new[:1])])
    assert compared.lead()[-1] == "new: none" and compared.drift == []
    # a report without deviation rows (written before they were): every deviation now is new
    assert compare(old, new, [], [deviation("x", "SCORE-2", new[:1])]).lead()[0].endswith(": new, 1 case")
