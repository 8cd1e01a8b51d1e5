"""`azul publish`: a report folder made by `azul conform` on an engine with a planted bug becomes, in a docs tree,
a page of the site and a row of the conformance matrix, named as the command said, and the site still builds
with --strict; a folder that cannot be published is refused with a message naming it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli import main
from azul_conformance.harness.report import read_report
from azul_conformance.harness.publish import MARK, PublishError, publish, read_published

ROOT = Path(__file__).resolve().parent.parent
# Nine floor scenarios: the planted bug (every floor space costs 1) fails those that charge a floor
FLOOR = ROOT / "conformance" / "scenarios" / "floor" / "spaces-and-penalties.yaml"
AZUL = [sys.executable, "-c", "from azul_conformance.cli import main; main()"]


def conform(out: Path, misreading: str = "floor-penalties-flat") -> Path:
    azul = Path(sys.executable).parent / "azul"  # the engine: the installed command, a shell-free line
    result = subprocess.run([*AZUL, "conform", "--engine", f"{azul} serve --misreading {misreading}",
                             "--scenarios", str(FLOOR), "--no-properties", "--no-diagnose", "-j", "1",
                             "--report-dir", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]  # the planted bug fails cases
    return out


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory) -> Path:
    return conform(tmp_path_factory.mktemp("conform") / "my-report")


def docs_tree(root: Path) -> Path:
    """A copy of the repository's site to publish into: its docs (the reports folder a real folder, so that
    publishing writes nothing into the repository) and mkdocs.yml beside it, building the English site only (a
    report, its boards and the matrix are English-only pages; tests/test_docs_site.py builds every language);
    everything else linked."""
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", ".git", ".venv", "site", "mkdocs.yml"):
            (root / entry.name).symlink_to(entry)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    english, others = config.split("          build: true\n", 1)
    assert english.rsplit("- locale:", 1)[1].split()[0] == "en", "mkdocs.yml: English is no longer the first language"
    (root / "mkdocs.yml").write_text(english + "          build: true\n" + others.replace(
        "          build: true\n", "          build: false\n"), encoding="utf-8")
    (root / "docs").mkdir()
    for entry in (ROOT / "docs").iterdir():
        if entry.name != "reports":
            (root / "docs" / entry.name).symlink_to(entry)
    (root / "docs" / "reports").mkdir()
    for entry in (ROOT / "docs" / "reports").iterdir():
        (root / "docs" / "reports" / entry.name).symlink_to(entry)
    return root


def test_a_published_report_builds_strict_with_its_page_both_boards_and_its_matrix_row(report_dir, tmp_path):
    tree = docs_tree(tmp_path / "tree")
    result = CliRunner().invoke(main, ["publish", str(report_dir), "--name", "my-engine", "--upstream",
                                       "https://example.org/my-engine", "--licence", "MIT", "--docs",
                                       str(tree / "docs")])
    assert result.exit_code == 0, result.output
    folder = tree / "docs" / "reports" / "my-engine"
    assert {p.name for p in folder.iterdir()} >= {"report.jsonl", "report.md", "junit.xml", MARK}
    about = read_published(folder)
    assert about["name"] == "my-engine" and about["licence"] == "MIT" and about["cases"] == "9"

    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "AZUL_DOCS_SCENARIOS": str(FLOOR.parent)}
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=tree,
                           env=env, capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-6000:]

    matrix = (site / "conformance-matrix" / "index.html").read_text(encoding="utf-8")
    navigation, table = matrix.split("<table>", 1)
    row = next(line for line in table.split("<tr>") if 'href="../reports/my-engine/report/"' in line)
    assert re.sub(r"<[^>]+>", "", row).split()[0] == "my-engine", row  # named as the command said
    assert "live, in CI" not in row and "published" in row and "not judged in CI" in row

    page = (site / "reports" / "my-engine" / "report" / "index.html").read_text(encoding="utf-8")
    assert "Published by its author" in page and "my-engine" in page
    failing = [r.id for r in read_report(folder / "report.jsonl").results if r.bad]
    assert "floor-penalties-one-three-five" in failing and len(failing) >= 3, failing
    for case in failing:
        for picture in (f"boards/{case}.svg", f"boards/{case}-expected.svg"):
            assert f'src="../{picture}"' in page, (case, picture)
            assert 'class="azul-diagram"' in (site / "reports" / "my-engine" / picture).read_text(encoding="utf-8")
    # the captions render: no Markdown left raw, the scenario a link to its page
    assert "](" not in re.sub(r"<pre.*?</pre>|<code>.*?</code>", "", page, flags=re.S)
    assert re.search(r'<a href="\.\./\.\./\.\./scenarios/[^"]+#floor-penalties-one-three-five"', page)
    figures = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert figures.count("Expected: the reference engine's boards at the same point") >= len(failing), figures
    # the report page is in the navigation (a page outside it fails --strict)
    assert re.search(r'href="\.\./reports/my-engine/report/"[^>]*>\s*<span[^>]*>\s*my-engine: full report', navigation)


def test_a_folder_an_adapter_writes_is_never_overwritten(report_dir, tmp_path):
    (tmp_path / "reports" / "myzul-ts").mkdir(parents=True)
    (tmp_path / "reports" / "myzul-ts" / "report.jsonl").write_text("{}\n")
    with pytest.raises(PublishError, match="not published by `azul publish`"):
        publish(report_dir, tmp_path, "myzul-ts")
    assert (tmp_path / "reports" / "myzul-ts" / "report.jsonl").read_text() == "{}\n"
    # published again under its own name: replaced whole
    target = publish(report_dir, tmp_path, "mine")
    (target / "stale.txt").write_text("old")
    publish(report_dir, tmp_path, "mine", licence="MIT")
    assert not (target / "stale.txt").exists() and read_published(target)["licence"] == "MIT"


@pytest.mark.parametrize("name, files, said", [
    ("Bad Name", ("report.jsonl", "report.md"), "lower-case letters"),
    ("ok", ("report.jsonl",), "report.md: missing"),
    ("ok", ("report.md",), "report.jsonl: missing"),
])
def test_what_cannot_be_published_is_refused_by_name(report_dir, tmp_path, name, files, said):
    source = tmp_path / "source"
    source.mkdir()
    for file in files:
        (source / file).write_bytes((report_dir / file).read_bytes())
    (tmp_path / "docs" / "reports").mkdir(parents=True)
    result = CliRunner().invoke(main, ["publish", str(source), "--name", name, "--docs", str(tmp_path / "docs")])
    assert result.exit_code == 1 and said in result.output and "Traceback" not in result.output, result.output
    assert list((tmp_path / "docs" / "reports").iterdir()) == []


def test_a_report_that_is_not_one_is_refused(tmp_path):
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "report.jsonl").write_text("not json\n")
    (tmp_path / "source" / "report.md").write_text("# x\n")
    (tmp_path / "reports").mkdir()
    with pytest.raises(PublishError, match=r"report\.jsonl: not a whole conformance report"):
        publish(tmp_path / "source", tmp_path, "x")
