"""Nothing from outside reaches a published page as markup: an engine's name and version (its hello), a report's
case ids and messages (a report from elsewhere, rewritten by `azul diagnose --write`), a recording's header and a
contributor's scenario title and notes are escaped wherever the site and report.md set them (markup.py). The
site's generated pages are made from a hostile fixture by the docs hooks and rendered with the site's Markdown
extensions; no tag, attribute or link of the hostile text survives, and no bidirectional override."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from click.testing import CliRunner

from azul_conformance.cli.diagnose import diagnose
from azul_conformance.markup import code, fenced, html_text, md, prose

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "docs_site"
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

import generate  # noqa: E402

# Each would be markup if written raw: a tag with a handler, attr_list's `{: ...}` (an attribute on the heading,
# the table cell or the link before it), a link to a script, a backtick closing a code span, a pipe ending a
# table cell, and a right-to-left override ("Trojan Source").
ENGINE = "<img src=x onerror=alert(1)>\u202e|`{: onclick=alert(2) }"
VERSION = "<script>alert(3)</script>"
CASE = "x<b onmouseover=alert(4)>`{: onclick=alert(5) }"
TITLE = "The marker <img src=x onerror=alert(6)> {: onclick=alert(7) }"
NOTES = "Take `CY2` then <script>alert(8)</script> \u202e [link](javascript:alert(9)) {: onclick=alert(10) }"
EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "def_list", "toc", "pymdownx.details",
              "pymdownx.superfences", "pymdownx.highlight", "pymdownx.inlinehilite"]  # mkdocs.yml's


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.found.append((tag, dict(attrs)))


def markup_of_outside_text(html: str, try_page: bool = False) -> list[str]:
    """What in `html` only the hostile texts above could have made. The try page's own two scripts (its words as
    JSON, every `<` in them escaped, and tryit.js) are ours, on that page only."""
    tags = Tags()
    tags.feed(html)
    bad = [f"<{tag}>" for tag, attrs in tags.found if tag in ("script", "b", "u", "i", "svg")
           and not (try_page and _try_script(attrs))]
    bad += [f"<img src={attrs['src']}>" for tag, attrs in tags.found if tag == "img" and attrs.get("src") == "x"]
    bad += [f"<{tag} {name}=...>" for tag, attrs in tags.found for name, value in attrs.items()
            if name.startswith("on") or str(value or "").strip().lower().startswith("javascript:")]
    return bad + (["U+202E"] if "\u202e" in html else [])


def _try_script(attrs: dict) -> bool:
    return attrs == {"type": "application/json", "id": "try-words"} or \
        set(attrs) == {"src"} and re.fullmatch(r"(\.\./)*(try/)?tryit\.js", str(attrs["src"])) is not None


def rendered(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


def hostile_report(folder: Path, fail_or_pass: str) -> Path:
    folder.mkdir(parents=True)
    capabilities = {"players": [2], "variants": ["colour`<i>"], "load_state": True, "deal": True}
    rows = [{"type": "header", "format": "azul-conformance-report/1", "command": "run <svg onload=alert(11)>",
             "engine": {"name": ENGINE, "version": VERSION, "protocol": 1, "capabilities": capabilities},
             "seed": 0, "examples": 5, "cases": 3},
            {"type": "case", "id": CASE, "kind": "scenario", "rules": ["OFFER-5"], "verdict": fail_or_pass,
             "where": "w<i>", **({"message": "got <u onclick=alert(12)> \u2066\u202e"} if fail_or_pass == "fail"
                                 else {})},
            {"type": "case", "id": CASE + "2", "kind": "scenario", "rules": ["OFFER-5"], "verdict": "skip",
             "message": "needs <i>"},
            {"type": "case", "id": "offer-marker-first-centre-take", "kind": "scenario", "rules": ["OFFER-5"],
             "verdict": "pass"},
            {"type": "footer"}]
    (folder / "report.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with gzip.open(folder / "recording.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"date": "<b>x</b>", "commit": "<i>`{a}"}) + "\n")
    return folder


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A docs folder whose reports and scenarios are hostile; report.md is written by `azul diagnose --write`, as
    for a report from elsewhere."""
    docs = tmp_path_factory.mktemp("docs")
    for name, verdict in (("hostile", "fail"), ("hostile-again", "pass")):  # one engine twice: the twins' table
        folder = hostile_report(docs / "reports" / name, verdict)
        result = CliRunner().invoke(diagnose, [str(folder), "--write", "-j", "1"])
        assert result.exit_code in (0, 1), result.output
    mutation = {"tool": f"mutmut {ENGINE}", "total": 2, "killed": 1, "budget": VERSION,
                "survivors": [{"id": CASE, "where": TITLE, "classification": VERSION, "reason": NOTES}]}
    (docs / "reports" / "mutation").mkdir()
    (docs / "reports" / "mutation" / "mutmut.json").write_text(json.dumps(mutation), encoding="utf-8")
    scenarios = docs / "scenarios"
    shutil.copytree(FIXTURES / "scenarios", scenarios)
    with open(scenarios / "offer" / "marker.yaml", "a", encoding="utf-8") as handle:
        handle.write("\n" + "\n".join([
            "- id: offer-hostile-title", f"  title: {json.dumps(TITLE)}", "  rules: [OFFER-5]",
            '  sources: ["001_b25c00830c6833ba.txt:23-23"]', "  level: rule",
            "  given: |", "    factories: 1: BBRK", "    centre: M Y Y W", "  steps: CY2",
            # a comment line of the expectations closing their ``` code block, and raw HTML after it
            "  expect: |", "    marker = 0", "    # ```", "    # <script>alert(13)</script>",
            f"  notes: {json.dumps(NOTES)}", ""]))
    return docs


@pytest.fixture(scope="module")
def pages(hostile) -> dict[str, str]:
    """The docs hooks' generated pages of the hostile folder (its reports the site's own: report.md pages too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AZUL_DOCS_SPEC", str(FIXTURES / "spec"))
        patch.setenv("AZUL_DOCS_SCENARIOS", str(hostile / "scenarios"))
        patch.delenv("AZUL_DOCS_REPORTS", raising=False)
        made = generate._pages({"docs_dir": str(hostile)})
    return {uri: text for uri, text in made.items() if uri.endswith(".md")}


def test_report_md_written_by_diagnose_holds_no_raw_markup(tmp_path):
    folder = hostile_report(tmp_path / "elsewhere", "fail")
    result = CliRunner().invoke(diagnose, [str(folder), "--write", "-j", "1"])
    assert result.exit_code == 0 and "rewritten" in result.output, result.output
    text = (folder / "report.md").read_text(encoding="utf-8")
    assert markup_of_outside_text(rendered(text)) == []
    assert "onerror=alert(1)" in rendered(text)  # shown, as text
    # the capabilities' backtick does not close their code span
    assert 'Capabilities: <code>{"players": [2], "variants": ["colour`&lt;i&gt;"]' in rendered(text)
    # the bidirectional overrides, shown as their escapes on the terminal, in report.md and in JUnit
    junit = (folder / "junit.xml").read_text(encoding="utf-8")
    for shown in (result.output, text, junit):
        assert "\u202e" not in shown and "\u2066" not in shown
    assert "\\u202e" in result.output and "\\u2066" in junit


@pytest.mark.parametrize("uri", ["conformance-matrix.md", "scenarios/offer.md", "rules/offer.md", "rules/offer.fr.md",
                                 "reports/hostile/report.md", "mutation.md"])
def test_a_page_showing_outside_text_shows_it_as_text(pages, uri):
    html = rendered(pages[uri])
    assert markup_of_outside_text(html) == []
    assert "onerror=alert(" in html  # the hostile text is there, shown as written


def test_no_generated_page_holds_raw_markup_of_outside_text(pages):
    assert len(pages) > 20
    found = {uri: bad for uri, text in pages.items()
             if (bad := markup_of_outside_text(rendered(text), try_page=uri.startswith("try/index.")))}
    assert found == {}


def test_the_matrix_shows_the_engine_its_recording_and_the_twins_as_text(pages):
    html = rendered(pages["conformance-matrix.md"])
    assert "&lt;img src=x onerror=alert(1)&gt;\\u202e|`{: onclick=alert(2) }" in html  # the name, whole, as text
    assert "<code>&lt;i&gt;`{a}</code>" in html  # the recording's commit
    assert f"<code>{CASE.replace('<', '&lt;').replace('>', '&gt;')}</code>" in html  # the twins differ on it


def test_a_scenario_s_notes_keep_their_code_and_nothing_else():
    shown = rendered(prose(NOTES))
    assert "<code>CY2</code>" in shown and markup_of_outside_text(shown) == []


@pytest.mark.parametrize("text", [ENGINE, VERSION, CASE, TITLE, NOTES, "`", "``a`", "- item", "=== x", "!!! note"])
def test_every_way_of_setting_outside_text_is_inert(text):
    for made in (md(text), code(text), prose(text), f"| {md(text)} | {code(text)} |", f"### {md(text)}",
                 f"[{md(text)}](page.md)", "\n".join(fenced(text))):
        assert markup_of_outside_text(rendered(made)) == [], made
    assert markup_of_outside_text(f'<p title="{html_text(text)}">{html_text(text)}</p>') == []
    assert "\n" not in md(text + "\n# heading")


def test_a_long_outside_text_is_clipped_saying_how_long_it_was():
    shown = md("a" * 300_000)
    assert len(shown) < 2_100 and "300,000 characters, clipped" in shown


class Handlers(HTMLParser):
    """What of a built page runs the hostile texts' script: a handler or a script naming alert(, an img src=x."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.in_script = tag == "script"
        self.found += [f"<{tag} {name}={value}>" for name, value in attrs if "alert(" in str(value)
                       or (tag == "img" and name == "src" and value == "x")]

    def handle_data(self, data: str) -> None:
        if self.in_script and "alert(" in data:
            self.found.append(f"<script>{data[:80]}")
        self.in_script = False


def test_the_built_site_runs_no_script_of_outside_text(hostile, tmp_path):
    """End to end: the site built by mkdocs (the theme, every language) from the hostile reports and scenarios."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "AZUL_DOCS_SPEC": str(FIXTURES / "spec"),
                   "AZUL_DOCS_SCENARIOS": str(hostile / "scenarios"), "AZUL_DOCS_REPORTS": str(hostile / "reports")}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "site")], cwd=ROOT,
                           env=environment, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-4000:]
    found = {}
    for page in (tmp_path / "site").rglob("*.html"):
        parser = Handlers()
        parser.feed(page.read_text(encoding="utf-8"))
        if parser.found or "\u202e" in page.read_text(encoding="utf-8"):
            found[str(page.relative_to(tmp_path / "site"))] = parser.found or ["U+202E"]
    assert found == {}
    matrix = (tmp_path / "site" / "conformance-matrix" / "index.html").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in matrix
    assert "onerror=alert(6)" in (tmp_path / "site" / "scenarios" / "offer" / "index.html").read_text(encoding="utf-8")
