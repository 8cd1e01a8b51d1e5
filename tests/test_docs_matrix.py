"""The docs' conformance matrix and each report's own report.md count the same cases under the same rules."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPORTS = sorted((ROOT / "docs" / "reports").glob("*/report.jsonl"))
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import docgen_reports  # noqa: E402
from azul_conformance.results import Verdict  # noqa: E402
from azul_conformance.spec_data import load_spec  # noqa: E402


def report_md_rows(text: str) -> dict[str, tuple[int, int, int]]:
    """rule -> (cases, bad, pass) from report.md's rule-by-rule table."""
    head = next(line for line in text.splitlines() if line.startswith("| rule | status |"))
    names = [name.strip() for name in head.strip("|").split("|")]
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != len(names) or not re.fullmatch(r"[A-Z]+-\d+|protocol", cells[0]):
            continue
        counts = {name: int(value or 0) for name, value in zip(names, cells) if name in set(Verdict)}
        if sum(counts.values()):
            rows[cells[0]] = (sum(counts.values()), sum(counts[v] for v in Verdict if v.bad), counts["pass"])
    return rows


def matrix_rows(text: str) -> dict[str, tuple[int, int, int]]:
    """rule -> (cases, bad, pass) from the matrix page's cells."""
    rows = {}
    for rule, badge in re.findall(r"^\| \[?`?([A-Z]+-\d+)[^|]*\| (.*?) \|$", text, re.M):
        if (found := re.search(r"(\d+) of (\d+) fail", badge)):
            rows[rule] = (int(found[2]), int(found[1]), None)
        elif (found := re.search(r"(\d+) of (\d+) pass", badge)):
            rows[rule] = (int(found[2]), 0, int(found[1]))
        elif (found := re.search(r"(\d+) skipped", badge)):
            rows[rule] = (int(found[1]), 0, 0)
    return rows


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.parent.name)
def test_the_matrix_and_report_md_agree(path, tmp_path):
    folder = tmp_path / "reports"
    (folder / path.parent.name).mkdir(parents=True)
    shutil.copy(path, folder / path.parent.name / "report.jsonl")
    problems: list[str] = []
    matrix = matrix_rows(docgen_reports.matrix_page(load_spec(), folder, problems))
    expected = report_md_rows((path.parent / "report.md").read_text(encoding="utf-8"))
    assert problems == [] and matrix and set(matrix) == set(expected)
    for rule, (cases, bad, passed) in expected.items():
        got = matrix[rule]
        assert got[:2] == (cases, bad) and got[2] in (None, passed), rule


def test_every_committed_report_is_checked():
    assert {p.parent.name for p in REPORTS} >= {"azul-game-engine", "reference"}
