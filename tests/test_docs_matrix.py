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
    """rule -> (cases, bad, pass) from the rule-by-rule table's cells ("2 fail · 3 pass · 1 skip")."""
    table = text.split("## Rule by rule", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for rule, counts in re.findall(r"^\| \[?`?([A-Z]+-\d+)[^|]*\| (.*?) \|$", table, re.M):
        tally = {verdict.replace(" ", "_"): int(n) for n, verdict in re.findall(r"(\d+) ([a-z]+(?: run)?)", counts)}
        if tally:
            rows[rule] = (sum(tally.values()), sum(tally.get(v, 0) for v in Verdict if v.bad), tally.get("pass", 0))
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
        assert matrix[rule] == (cases, bad, passed), rule


def test_every_committed_report_is_checked():
    assert {p.parent.name for p in REPORTS} >= {"azul-game-engine", "reference"}


@pytest.fixture(scope="module")
def real_matrix() -> str:
    """The matrix page of the committed reports, made once for the tests that read it (a few seconds each)."""
    return docgen_reports.matrix_page(load_spec(), ROOT / "docs" / "reports", [], "reports/")


def test_every_adapters_engine_is_in_the_matrix_linked_to_its_write_up_and_report(real_matrix):
    import yaml

    page = real_matrix
    for path in sorted((ROOT / "adapters").glob("*/adapter.yaml")):
        folder = Path(yaml.safe_load(path.read_text(encoding="utf-8"))["report"]).name
        write_up = docgen_reports.write_up(ROOT / "docs" / "reports", folder)
        assert write_up is not None, f"{folder} has no docs/reports/<engine>.md"
        row = next(line for line in page.splitlines() if f"(reports/{folder}/report.md)" in line)
        assert f"](reports/{write_up})" in row, row


def test_the_two_ludometer_engines_are_compared_case_by_case(tmp_path):
    folder = tmp_path / "reports"
    for name in ("ludometer-py", "ludometer-js"):
        (folder / name).mkdir(parents=True)
        shutil.copy(ROOT / "docs" / "reports" / name / "report.jsonl", folder / name / "report.jsonl")
    page = docgen_reports.matrix_page(load_spec(), folder, [])
    section = page.split("## One engine, two languages", 1)[1]
    assert "ludometer (JavaScript port" in section and "ludometer (Python" in section
    cases = len(docgen_reports.read_report(folder / "ludometer-py" / "report.jsonl").results)
    assert f"{cases} of {cases} cases have the same verdict on both" in section
    # a verdict that changes on one side is named
    lines = (folder / "ludometer-js" / "report.jsonl").read_text(encoding="utf-8").splitlines()
    changed = next(i for i, line in enumerate(lines) if '"verdict":"pass"' in line)
    lines[changed] = lines[changed].replace('"verdict":"pass"', '"verdict":"fail"')
    (folder / "ludometer-js" / "report.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    section = docgen_reports.matrix_page(load_spec(), folder, []).split("## One engine, two languages", 1)[1]
    assert f"{cases - 1} of {cases} cases have the same verdict on both; 1 differ" in section
    assert "| fail | pass |" in section  # the port first (the reports are read in name order)


def _counts(path: Path) -> dict[str, int]:
    results = docgen_reports.read_report(path).results
    counts = {v: sum(r.verdict == v for r in results) for v in ("pass", "fail", "error", "skip")}
    return {"cases": len(results), **counts}


@pytest.mark.parametrize("name", ["azul-ai-go", "azul-game-engine", "azul-marl-env", "myzul-ts", "comp1110-azul-java",
                                  "azul-tiles-js", "ummatias-azul-py", "pbernabeup-azul-py",
                                  "blom-azul-py", "gravelle-azul-py", "fionan-azul-py",
                                  "tusk80-azul-go", "bgbench-azul-py",
                                  "oliverosz-azul-cpp", "yuyujijin-azul-java", "garamizo-azul-py",
                                  "bkase-azul-rs", "cbermudez-azul-pl", "open-spiel-azul-cpp"])
def test_a_write_ups_run_line_gives_its_reports_counts(name):
    """The prose of docs/reports/<engine>.md is written by hand: its counts must follow the regenerated report."""
    text = (ROOT / "docs" / "reports" / f"{name}.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*Run:\*\* (\d+) cases.*?\*\*(\d+) pass, (\d+) fail(?:, (\d+) error)?, (\d+) skip\*\*",
                      text, re.S)
    assert found, f"docs/reports/{name}.md has no '**Run:** N cases ... **P pass, F fail, S skip**' line"
    written = tuple(int(n or 0) for n in found.groups())
    counts = _counts(ROOT / "docs" / "reports" / name / "report.jsonl")
    assert written == tuple(counts[k] for k in ("cases", "pass", "fail", "error", "skip"))


def test_the_ludometer_write_ups_table_gives_both_reports_counts():
    text = (ROOT / "docs" / "reports" / "ludometer.md").read_text(encoding="utf-8")
    py, js = (_counts(ROOT / "docs" / "reports" / name / "report.jsonl") for name in ("ludometer-py", "ludometer-js"))
    for verdict in ("pass", "fail", "skip"):
        row = re.search(rf"^\| {verdict} \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
        assert row, f"ludometer.md has no '| {verdict} | ...' row"
        assert (int(row[1]), int(row[3])) == (py[verdict], js[verdict]), verdict
    assert f"{py['cases']} cases" in text and f"Every one of the {py['cases']} cases" in text


def test_the_matrix_says_how_each_engine_is_judged(real_matrix):
    """Live in CI for a registry engine; for a code-host engine, its recording's date, upstream commit and how
    many of the report's cases it holds, read from the committed recording itself."""
    page = real_matrix
    rows = {line.split("|")[1]: line.split("|")[2].strip() for line in page.splitlines()
            if line.startswith("| [") or line.startswith("| azul")}
    judged = list(rows.values())
    recorded = [cell for cell in judged if cell.startswith("recording of ")]
    assert len(recorded) >= 5 and judged.count("live, in CI") >= 2, judged
    for cell in recorded:
        held, total = map(int, re.search(r"(\d+) of (\d+) cases", cell).groups())
        assert 0.95 * total <= held <= total and re.search(r"commit `[0-9a-f]{7}`", cell), cell


def test_the_readme_lists_every_engine_as_its_adapter_and_its_report_say():
    import docgen_readme
    import yaml

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert docgen_readme.rewrite(text) == text, "run python docs/hooks/docgen_readme.py"
    table = text.split(docgen_readme.START, 1)[1].split(docgen_readme.END, 1)[0]
    for path in sorted((ROOT / "adapters").glob("*/adapter.yaml")):
        adapter = yaml.safe_load(path.read_text(encoding="utf-8"))
        report = ROOT / adapter["report"] / "report.jsonl"
        results = docgen_reports.read_report(report).results
        page = docgen_reports.write_up(report.parent.parent, report.parent.name)
        line = next(row for row in table.splitlines() if row.startswith(f"| [{adapter['name']}](docs/reports/{page})"))
        assert f"| {len(results)}: " in line and f"{sum(r.bad for r in results)} fail" in line, line


def test_a_readme_without_the_engines_markers_is_refused_by_name():
    import docgen_readme

    with pytest.raises(SystemExit, match="markers"):
        docgen_readme.rewrite("# no table here\n")


@pytest.mark.parametrize("first,said", [(b"[1, 2]\n", "its first line is a JSON list, not the recording's header"),
                                        (b"{not json\n", "the recording cannot be read: Expecting property name")])
def test_a_committed_recording_that_cannot_be_read_is_a_build_problem_naming_its_file_and_line(tmp_path, first,
                                                                                              said):
    import gzip

    folder = tmp_path / "reports"
    (folder / "engine").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "reports" / "reference" / "report.jsonl", folder / "engine" / "report.jsonl")
    (folder / "engine" / "recording.jsonl.gz").write_bytes(gzip.compress(first))
    problems: list[str] = []
    page = docgen_reports.matrix_page(load_spec(), folder, problems)  # once an AttributeError
    assert "recording unreadable" in page
    assert [p for p in problems if p.startswith(f"{folder / 'engine' / 'recording.jsonl.gz'}:1: ") and said in p]
