"""The published site: it builds with --strict from the real spec, its generated pages say what a rules reader
needs (checked on small fixture data whose content we know), and it works in a real browser."""

from __future__ import annotations

import re

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "docs_site"
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def build(out: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=300)


SITE_URL = "https://rules.azul.test/"  # the address a publishing build is given (mkdocs.yml: $AZUL_SITE_URL)
REPO_URL = "https://code.azul.test/azul-conformance"  # and the repository's ($AZUL_REPO_URL)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build(out, AZUL_SITE_URL=SITE_URL, AZUL_REPO_URL=REPO_URL)
    assert result.returncode == 0, "mkdocs build --strict failed:\n" + result.stderr[-6000:]
    return out


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fixture-site")
    result = build(out, AZUL_DOCS_SPEC=str(FIXTURES / "spec"), AZUL_DOCS_SCENARIOS=str(FIXTURES / "scenarios"),
                   AZUL_DOCS_REPORTS=str(FIXTURES / "reports"))
    assert result.returncode == 0, result.stderr[-6000:]
    return out


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_real_site_builds_strict_with_every_generated_section(site):
    for path in ("rules", "divergences", "clauses", "clauses/UK", "scenarios", "conformance-matrix",
                 "reference/cli", "reference/state", "reference/architecture", "validate-your-engine"):
        assert (site / path / "index.html").is_file(), path
    assert (site / "reference" / "example-state.svg").stat().st_size > 1000
    assert "azul conform" in page(site, "")


def test_the_rules_on_one_page_state_every_rule_in_order(site):
    html = page(site, "rules/all")
    ids = [rule_id for rule_id in re.findall(r'href="\.\./[a-z]+/#([A-Z]+-\d+)"', html)]
    assert ids[:3] == ["SETUP-1", "SETUP-2", "SETUP-3"] and "GREY-5" in ids and len(ids) == len(set(ids)) >= 57
    assert "never mix" in html  # SETUP-1's statement, not just its title


def test_the_sitemap_lists_every_rule_page_in_every_language_at_the_sites_address(site):
    import gzip
    import xml.etree.ElementTree as ElementTree

    xml_text = (site / "sitemap.xml").read_text(encoding="utf-8")
    urls = {element.text for element in ElementTree.fromstring(xml_text).iter() if element.tag.endswith("loc")}
    base = SITE_URL
    assert urls and all(url.startswith(base) for url in urls), sorted(urls)[:5]
    for language in ("", "fr/", "de/", "es/"):
        assert f"{base}{language}rules/floor/" in urls, language
    assert f"{base}conformance-matrix/" in urls and f"{base}reference/state/" in urls
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()).decode("utf-8") == xml_text


def test_a_build_not_given_the_site_s_address_publishes_none(fixture_site):
    # no sitemap, canonical or language links to an address that was made up; no font from another host
    assert not (fixture_site / "sitemap.xml").exists() and not (fixture_site / "sitemap.xml.gz").exists()
    for path in ("", "rules/offer", "fr/rules/offer", "scenarios/offer", "conformance-matrix"):
        html = page(fixture_site, path)
        assert 'rel="canonical"' not in html and not re.search(r'<link rel="alternate"[^>]*hreflang', html), path
        assert ".example" not in html and "fonts.googleapis" not in html and "fonts.gstatic" not in html, path
        assert "Azul conformance suite 0." in html and "Report a problem" not in html, path


def test_every_page_names_the_suite_s_version_and_where_to_report_a_problem(site):
    from azul_conformance.harness import suite_version

    for path in ("", "fr/rules/offer", "conformance-matrix"):
        html = page(site, path)
        assert f"Azul conformance suite {suite_version(None)}" in html, path
        assert f'<a href="{REPO_URL}/issues">Report a problem</a>' in html and f'href="{REPO_URL}"' in html, path


def test_the_switcher_of_an_english_only_page_leads_to_the_same_subject(fixture_site):
    html = page(fixture_site, "scenarios/offer")
    assert '<a href="../../fr/rules/offer/" hreflang="fr" class="md-select__link">' in html
    assert not re.search(r'<a href="/[^"]*" hreflang=', html)  # nothing relative to the host's root
    assert '<a href="../de/" hreflang="de" class="md-select__link">' in page(fixture_site, "conformance-matrix")


def test_a_rule_section_shows_anchor_level_all_versions_and_the_divergence(fixture_site):
    html = page(fixture_site, "rules/offer")
    assert 'id="OFFER-5"' in html and 'id="OFFER-6"' in html
    section = html[html.index('id="OFFER-5"'):html.index('id="OFFER-6"')]
    for version in ("FR", "DE", "EN", "IT", "UK", "ES", "PT", "IT-2"):
        assert f"<strong>{version}</strong>" in section
    assert "жетон першого гравця" in section                  # the UK fragment
    assert "says the marker goes to the rightmost space" in section   # the PT note
    assert "the summary does not mention the marker" in section       # why IT-2 is silent
    assert "Versions disagree: Where the marker goes when the floor line is full" in section
    assert "../../divergences/#DIV-marker-full-floor" in section
    assert "../../clauses/UK/#L23" in section                 # the UK citation lands on its clause
    assert "../../scenarios/offer/#offer-marker-first-centre-take" in section


def test_a_ruling_shows_question_decision_authority_and_confidence(fixture_site):
    html = page(fixture_site, "rules/offer")
    ruling = html[html.index('id="OFFER-6"'):]
    assert "the Board Game Arena implementation" in ruling and "confidence: high" in ruling
    assert "Can a player take from a centre holding only the marker?" in ruling
    assert "No; a take needs at least one tile." in ruling


def test_the_clause_index_of_a_version_maps_lines_to_rules(fixture_site):
    html = page(fixture_site, "clauses/UK")
    assert 'id="L23"' in html and 'id="L7"' in html
    row = html[html.index('id="L23"'):].split("</tr>")[0]
    assert "../../rules/offer/#OFFER-5" in row
    assert "section heading" in html                          # a non-normative line says why


def test_the_gallery_draws_the_board_before_and_after_the_steps(fixture_site):
    html = page(fixture_site, "scenarios/offer")
    assert 'id="offer-marker-first-centre-take"' in html
    # each board a picture of its own beside the page, loaded when it comes into view (page weight)
    pictures = re.findall(r'<img alt="([^"]*)" loading="lazy" src="\.\./(boards/offer-marker-first-centre-take-'
                          r'(?:given|after)\.svg)"', html)
    assert [alt.split(":")[0] for alt, _ in pictures] == ["Given", "After the steps (reference engine)"]
    given, after = ((fixture_site / "scenarios" / src).read_text(encoding="utf-8") for _, src in pictures)
    assert 'class="azul-diagram"' in given and 'class="azul-diagram"' in after
    # After CY2 the marker has left the centre for seat 0's floor (OFFER-5).
    assert 'class="marker" data-colour="M"' in after.split('class="board"')[1]
    assert 'class="marker" data-colour="M"' not in given.split('class="board"')[1]


def test_a_rule_page_s_after_picture_outlines_the_places_its_smallest_scenario_changed(fixture_site):
    # offer-marker-first-centre-take, worked out by hand: seat 0 takes the centre's two yellows (CY2) onto
    # pattern line 2, filling both its spaces, and the marker goes to the first space of its floor line;
    # the centre is left with the white; factory 1 is not touched.
    section = _rule_sections(page(fixture_site, "rules/offer"), ["OFFER-5", "OFFER-6"])["OFFER-5"]
    pictures = re.findall(r'<img src="([^"]+\.svg)" alt="([^"]+)"', section)
    (before, alt_before), (after, alt_after) = pictures
    named = ("What its steps changed, outlined with dashes: centre; first-player marker; seat 0, pattern line 2, "
             "spaces 1, 2 from the right; seat 0, floor line, space 1.")
    assert alt_after.endswith(named) and alt_before.endswith(named), (alt_before, alt_after)
    assert "The places its steps changed are outlined with dashes." in section  # said in words beside them
    svg = ET.fromstring((fixture_site / "rules" / "offer" / after).resolve().read_text(encoding="utf-8"))
    marked = sorted(mark.get("data-place") for mark in svg.iter() if mark.get("class") == "changed")
    assert marked == ["/boards/0/floor/0", "/boards/0/lines/1/0", "/boards/0/lines/1/1", "/centre", "/marker"]
    title = svg.find("{http://www.w3.org/2000/svg}title").text
    assert title.endswith(named.replace("What its steps changed", " · changed")[:-1]), title
    french = _rule_sections(page(fixture_site, "fr/rules/offer"), ["OFFER-5", "OFFER-6"])["OFFER-5"]
    assert "Les emplacements que ses coups ont changés sont entourés de tirets." in french
    assert ("Ce que ses coups ont changé, entouré de tirets : centre de la table ; marqueur Premier joueur ; siège 0, "
            "rangée de motifs 2, emplacements 1, 2 depuis la droite ; siège 0, rangée de sol, emplacement 1.") in french


def test_the_matrix_reads_object_and_json_lines_reports(fixture_site):
    html = page(fixture_site, "conformance-matrix")
    assert "azul-reference 0.1.0" in html and "other-engine" in html
    assert "1 pass</span>" in html and "1 fail</span>" in html and "1 crash</span>" in html and "1 skip</span>" in html


def test_the_divergence_register_links_the_rules_it_settles(fixture_site):
    html = page(fixture_site, "divergences")
    assert 'id="DIV-marker-full-floor"' in html
    assert "../rules/offer/#OFFER-5" in html


def test_a_full_report_page_links_each_failing_case_to_its_scenario_and_rule(site):
    # an engine author arriving from the matrix: every failing case's heading leads to the rule's section and
    # to the scenario's section (its Given board and expected result), and those sections exist
    from azul_conformance.harness.report import read_report

    reports = sorted((ROOT / "docs" / "reports").glob("*/report.md"))
    assert len(reports) >= 9
    checked = boards = 0
    for report in reports:
        html = page(site, f"reports/{report.parent.name}/report")
        results = read_report(report.parent / "report.jsonl").results
        properties = {r.id for r in results if r.kind == "property"}
        headings = re.findall(r"<h3 id=\"[^\"]*\">(.*?)</h3>", html)
        for heading in [h for h in headings if "<code>" in h]:  # "RULE: `case` (verdict)"
            targets = re.findall(r'href="\.\./\.\./\.\./((?:rules|scenarios)/[^"#]+)#([^"]+)"', heading)
            kinds = {target.split("/")[0] for target, _ in targets}
            case_id = re.search(r"<code>([^<]+)</code>", heading)[1]
            # a property (random games) has no page of its own
            assert kinds == ({"rules"} if case_id in properties else {"rules", "scenarios"}), (report, heading)
            for target, fragment in targets:
                assert f'id="{fragment}"' in (site / target / "index.html").read_text(encoding="utf-8"), target
            checked += 1
        assert "conformance/scenarios/" not in re.sub(r"<code>.*?</code>|<pre.*?</pre>", "", html, flags=re.S), \
            "a repository path shown bare"
        # the engine's boards when a failing scenario was judged, drawn beside its heading
        failing = [r.id for r in results if r.bad and isinstance(r.details.get("state"), dict)]
        for case_id in failing:
            src = f"boards/{re.sub(r'[^A-Za-z0-9_.-]+', '-', case_id)}.svg"
            assert f'src="../{src}"' in html, (report, case_id)
            drawn = (site / "reports" / report.parent.name / src).read_text(encoding="utf-8")
            assert 'class="azul-diagram"' in drawn
            boards += 1
    assert checked >= 50 and boards >= 40, (checked, boards)


def test_no_page_is_heavier_than_600_kb_or_8000_elements(site):
    # a phone on a slow line: the scenario groups drew every board inline (2 MB, 27,000 elements for OFFER)
    weights = {path.relative_to(site).as_posix(): (path.stat().st_size,
                                                   len(re.findall(r"<[a-zA-Z]", path.read_text(encoding="utf-8"))))
               for path in site.rglob("*.html")}
    assert len(weights) > 100
    heavy = {page: weight for page, weight in weights.items() if weight[0] > 600_000 or weight[1] > 8000}
    assert not heavy, heavy


def test_a_page_other_than_try_it_loads_no_runtime_and_grows_by_its_links_only(site):
    # the Python runtime and the engine are fetched by the try page alone; elsewhere "try it" is a link (the
    # navigation's, a scenario's), less than 5 KB of any page
    for path in site.rglob("*.html"):
        where = path.relative_to(site).as_posix()
        if re.match(r"(\w\w/)?try/", where):
            continue
        html = path.read_text(encoding="utf-8")
        assert not re.search(r"pyodide|tryit\.js|engine\.zip|records\.zip", html, re.IGNORECASE), where
        links = re.findall(r'<a [^>]*href="[^"]*try/[^"]*"[^>]*>.*?</a>', html, re.DOTALL)
        assert sum(len(link.encode("utf-8")) for link in links) < 5000, where


def test_the_links_the_pages_make_are_checked_by_the_spec_checker(tmp_path, monkeypatch):
    from azul_conformance.spec_check import check_links

    assert check_links(FIXTURES / "spec") == []  # a spec without its own schema folder is held to the bundled one
    spec = tmp_path / "spec"
    shutil.copytree(FIXTURES / "spec", spec)
    divergences = spec / "divergences" / "offer.yaml"
    divergences.write_text(divergences.read_text().replace("OFFER-5", "OFFER-55", 1))
    monkeypatch.chdir(tmp_path)
    found = [str(p) for p in check_links(spec)]
    assert any(p.startswith("spec/divergences/offer.yaml:") and "DIV-marker-full-floor: unknown rule ID OFFER-55" in p
               for p in found), found


def test_an_inconsistent_spec_fails_the_strict_build(tmp_path):
    spec = tmp_path / "spec"
    shutil.copytree(FIXTURES / "spec", spec)
    rules = spec / "rules" / "offer.yaml"
    rules.write_text(rules.read_text().replace("[DIV-marker-full-floor]", "[DIV-no-such-thing]"))
    result = build(tmp_path / "out", AZUL_DOCS_SPEC=str(spec), AZUL_DOCS_SCENARIOS=str(FIXTURES / "scenarios"),
                   AZUL_DOCS_REPORTS=str(FIXTURES / "reports"))
    assert result.returncode != 0
    assert "rules/offer.yaml:22: OFFER-5: unknown divergence DIV-no-such-thing" in result.stderr
    # it stops before rendering pages from the inconsistent data (a minute of every language's pages)
    assert "the build stops before rendering the pages" in result.stderr
    assert not (tmp_path / "out" / "rules" / "offer" / "index.html").exists()


# --- in a browser ----------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser():
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        if IN_CI:
            pytest.fail("CI=true but chromium is missing: .ci/install-browser should have installed it")
        pytest.skip("chromium is not installed (/usr/bin/chromium); run .ci/install-browser")
    if IN_CI:
        import selenium  # noqa: F401 - under CI a missing selenium is a failure, not a skip
    else:
        pytest.importorskip("selenium", reason="selenium is not installed (the test extra provides it)")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    import tempfile

    profile = tempfile.mkdtemp(prefix="azul-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    # axe-core checks the conformance matrix (every engine's row) in seconds on an idle machine, but took over
    # selenium's default 30 s once on a loaded 2-core one: a script timeout there says nothing of the page
    driver.set_script_timeout(180)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    failed: list[str] = []  # the paths of the requests answered with an error, for the tests to read

    def log_message(self, *args) -> None:
        pass

    def log_request(self, code="-", size="-") -> None:
        if str(code).isdigit() and int(code) >= 400:
            self.failed.append(f"{code} {self.path}")


@pytest.fixture(scope="session")
def served(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join(timeout=5)


def wait_for(driver, condition, seconds: float = 10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds).until(condition)


def test_follow_a_rule_anchor_from_the_rule_list(browser, served, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(f"{served}/rules/")
    link = browser.find_element(By.CSS_SELECTOR, "article a[href$='#OFFER-5']")
    link.click()
    wait_for(browser, lambda d: d.current_url.endswith("#OFFER-5"))
    heading = browser.find_element(By.ID, "OFFER-5")
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", heading)
    assert 0 <= top < 300, "the anchor target is not scrolled into view"
    assert "OFFER-5" in heading.text
    path = tmp_path / "rule-page.png"
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    print(f"screenshot: {path}")


def test_search_finds_the_marker_rules(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{served}/")
    box = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")
    if not box.is_displayed():  # narrow windows hide the box behind the search icon
        browser.find_element(By.CSS_SELECTOR, "label.md-search__icon").click()
        wait_for(browser, lambda d: box.is_displayed())
    box.click()
    box.send_keys("marker")
    results = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-search-result__item"), 20)
    assert results
    box.send_keys(Keys.ESCAPE)


def test_board_diagrams_render(browser, served):
    from selenium.webdriver.common.by import By

    browser.get(f"{served}/reference/state/")
    image = browser.find_element(By.CSS_SELECTOR, "img[src$='example-state.svg']")
    wait_for(browser, lambda d: d.execute_script("return arguments[0].complete", image))
    assert browser.execute_script("return arguments[0].naturalWidth", image) > 0
    browser.get(f"{served}/scenarios/")
    groups = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "article table a")]
    if groups:  # the gallery's pictures, once the corpus exists: loaded as they come into view
        browser.get(groups[0])
        image = browser.find_element(By.CSS_SELECTOR, "figure.azul-board img[src$='-given.svg']")
        browser.execute_script("arguments[0].scrollIntoView()", image)
        wait_for(browser, lambda d: d.execute_script("return arguments[0].complete", image))
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 0


def test_the_catch_power_page_lists_every_mutant_with_its_killers(site):
    from azul_conformance.mutants import MUTANTS, published

    html = page(site, "mutation")
    assert f"Mutation score: {published.score_text(published.load())}" in html
    assert all(f"<td>{mutant.id}</td>" in html for mutant in MUTANTS)  # plain text: the page stays light
    assert 'href="../scenarios/end/#end-tie-break-among-the-tied-only"' in html  # a killer, linked to the gallery
    assert "No generated-mutant results are published yet" in html or "Generated mutants" in html
    # the diagnosis scores of the committed reports, from docs/reports/diagnosis/causes.json: held out first
    scores = json.loads((ROOT / "docs" / "reports" / "diagnosis" / "causes.json").read_text(encoding="utf-8"))
    held, sample = scores["held_out"]["engines"][-1], scores["in_sample"]["engines"][-1]
    assert "Diagnosis: the catalogue names what is wrong" in html
    first = html.index(f"{held['precision']:.1%} ({held['right']}/{held['named']})")
    assert first < html.index(f"{sample['precision']:.1%} ({sample['right']}/{sample['named']})")
    assert html.index("Held out") < first < html.index("In-sample")
    # and by rule, as the blind score counts: the reading named misreads the rule behind the failure
    assert f"{held['rule_precision']:.1%} ({held['right_rule']}/{held['named']})" in html
    assert "slip, prompted by ummatias-azul-py" in html  # the reading its held-out score leaves out
    assert "Readings by shape" in html and "<code>setup-four-players-refused</code>" in html


def test_the_catch_power_page_shows_generated_mutant_results(fixture_site):
    html = page(fixture_site, "mutation")
    assert "mutmut (fixture)" in html and "94.4% of the 36 not shown equivalent or out of scope" in html
    assert "a bound that no reachable position meets" in html


@pytest.mark.parametrize("width", [1280, 390])
def test_the_matrix_names_its_engines_and_keeps_header_and_rules_in_view_while_it_scrolls(browser, served, width):
    # a column per engine, named in the header row; scrolled down and right inside its box, the header row and
    # the rule column stay where they were: readable at a desktop's width and at a phone's
    engines = sorted(path.parent.name for path in (ROOT / "docs" / "reports").glob("*/report.jsonl"))
    browser.set_window_size(width, 900)
    try:
        browser.get(f"{served}/conformance-matrix/")
        boxes = browser.find_elements("css selector", ".azul-matrix .md-typeset__scrollwrap")
        assert len(boxes) == 2
        for box in boxes:
            header = [th.text for th in box.find_elements("css selector", "thead th")]
            assert sorted(header[1:]) == engines, header
            links = box.find_elements("css selector", "tbody td:nth-child(2) a")
            # a cell opens the engine's report at its failing case, or where it fails none at its rule table
            targets = [a.get_attribute("href") for a in links]
            assert targets and all(re.search(r"report/#(rule-by-rule|case-.+)$", href) for href in targets)
            moved = browser.execute_script("""
                const box = arguments[0];
                box.scrollIntoView();
                const head = box.querySelector('thead th:nth-child(3)');
                const rule = box.querySelector('tbody tr:nth-child(8) td');
                const before = [head.getBoundingClientRect().top, rule.getBoundingClientRect().left];
                box.scrollTop = 200; box.scrollLeft = 300;
                const after = [head.getBoundingClientRect().top, rule.getBoundingClientRect().left];
                return [before, after, box.scrollTop, box.scrollLeft];""", box)
            (top, left), (top_after, left_after), scrolled_down, scrolled_right = moved
            assert abs(top_after - top) < 2 and abs(left_after - left) < 2, moved
            assert scrolled_down > 0 or scrolled_right > 0, moved  # the box did scroll (else nothing was shown)
        assert "misreading" in browser.find_element("css selector", "article").text.lower()
    finally:
        browser.set_window_size(1400, 1000)


def _rule_sections(html_text: str, rule_ids: list[str]) -> dict[str, str]:
    starts = sorted((html_text.index(f'id="{rule_id}"'), rule_id) for rule_id in rule_ids)
    ends = [start for start, _ in starts[1:]] + [len(html_text)]
    return {rule_id: html_text[start:end] for (start, rule_id), end in zip(starts, ends)}


def test_every_citation_shows_its_own_words_on_the_real_site(site):
    """57 rules x 8 versions: each cited line range with the version's own fragment and a link to its clause,
    or the version's silence in our words; and each rule's basis."""
    import html as html_module

    from azul_conformance import spec_data

    spec = spec_data.load_spec()
    shown = 0
    for chapter in spec.chapters:
        sections = _rule_sections(page(site, f"rules/{chapter.name}"), [rule.id for rule in chapter.rules])
        for rule in chapter.rules:
            section = html_module.unescape(sections[rule.id])
            rows = section.split("<tr>")
            for version in spec_data.VERSIONS:
                row = next(r for r in rows if f"<strong>{version}</strong>" in r)
                source = rule.sources[version]
                for citation, fragment in source.quoted():
                    assert f"«{fragment}»" in row, (rule.id, version, fragment)
                    assert f'title="{citation}"' in row and f"clauses/{version}/#L" in row, (rule.id, version)
                if source.form == "silent":
                    assert " ".join(source.note.split())[:40] in " ".join(re.sub("<[^>]+>", "", row).split())
                shown += 1
            assert " ".join(rule.basis.stated_by.split())[:60] in " ".join(re.sub("<[^>]+>", "", section).split())
    assert shown == len(spec.rules) * 8 >= 57 * 8


def test_a_version_page_lists_where_it_differs_and_why(site):
    flat = " ".join(re.sub("<[^>]+>", " ", page(site, "versions/UK")).split())
    assert "Standing: official rulebook" in flat
    for rule_id in ("FLOOR-4", "FLOOR-6", "END-8"):
        assert rule_id in flat
    assert "a worked example settles it" in flat and "«За кожну плитку на лінії підлоги»" in flat
    it2 = " ".join(re.sub("<[^>]+>", " ", page(site, "versions/IT-2")).split())
    assert "Standing: unofficial summary" in it2 and "an unofficial summary:" in it2 and "END-2" in it2
    index = " ".join(re.sub("<[^>]+>", " ", page(site, "versions")).split())
    assert "PT Portuguese walk-through walk-through" in index


# --- the site in the rulebook versions' languages (docs/hooks/docgen_i18n.py, spec/i18n/) -------------------

def _flat(html_text: str) -> str:
    import html as html_module

    inline = re.sub(r"</?(code|span)[^>]*>", "", html_text)
    return " ".join(html_module.unescape(re.sub("<[^>]+>", " ", inline)).split())


def test_every_rule_is_stated_in_each_written_language(site):
    from azul_conformance import spec_data

    spec = spec_data.load_spec()
    assert {"fr", "de", "it", "es", "uk", "pt"} <= set(spec.translations)
    for lang, translation in spec.translations.items():
        for chapter in spec.chapters:
            html = page(site, f"{lang}/rules/{chapter.name}")
            assert f'<html lang="{lang}"' in html, (lang, chapter.name)
            sections = _rule_sections(html, [rule.id for rule in chapter.rules])
            for rule in chapter.rules:
                text = translation.rules[rule.id]
                flat = _flat(sections[rule.id].split(">", 1)[1])  # the section from its heading's text
                assert flat.startswith(f"{rule.id} · {text.title}"), (lang, rule.id, flat[:80])
                assert text.statement.replace("`", "") in flat, (lang, rule.id)  # `code` as <code>
                assert 'lang="en"' not in sections[rule.id].split("<table>")[0], (lang, rule.id)  # all written


def test_a_text_not_written_in_a_language_is_shown_in_english_marked(monkeypatch):
    # Every language now states every rule, so the pages are rendered from our Italian with one statement
    # and one ruling taken out: what is not written shows in English, marked, beside what is.
    from dataclasses import replace

    from azul_conformance import spec_data

    monkeypatch.syspath_prepend(str(ROOT / "docs" / "hooks"))
    import docgen_i18n
    import docgen_rules

    spec = spec_data.load_spec()
    italian = spec.translations["it"]
    rules = dict(italian.rules)
    del rules["OFFER-5"]
    rules["FLOOR-5"] = replace(rules["FLOOR-5"], ruling={})
    partial = replace(spec, translations={**spec.translations, "it": replace(italian, rules=rules)})

    def chapter(name: str) -> str:
        links = docgen_i18n.Links(f"rules/{name}.md", "it", docgen_i18n.translated_pages(partial))
        return docgen_rules.chapter_page(partial, partial.chapter(name), {}, docgen_i18n.Texts(partial, "it"),
                                         links)

    offer = chapter("offer")
    section = offer.split("## OFFER-5 ", 1)[1].split("\n## ", 1)[0]
    statement = spec.rule("OFFER-5").statement
    assert docgen_i18n.english(statement) in section  # the English statement, marked
    assert statement not in section.replace(docgen_i18n.english(statement), "")
    assert italian.rules["OFFER-4"].statement in offer  # the rule before it in Italian
    assert docgen_i18n.english(italian.rules["OFFER-4"].statement) not in offer
    question = " ".join(spec.rule("FLOOR-5").ruling.question.split())
    floor = chapter("floor")
    assert docgen_i18n.english(question) in floor  # a ruling not written: in English, marked
    assert italian.rules["FLOOR-5"].statement in floor  # its rule's statement still in Italian


def test_a_translated_page_links_the_english_only_pages_marked_english(site):
    html = page(site, "fr/rules/offer")
    assert re.search(r'<a href="\.\./\.\./\.\./clauses/FR/#L21" hreflang="en" title="000_ed7c8802c5a645fb.txt:21-21">'
                     r"l\. 21</a>", html)
    assert 'href="../../../scenarios/offer/#offer-marker-first-centre-take" hreflang="en"' in html
    assert 'href="../../divergences/#DIV-offer-pt-walkthrough-omissions"' in html  # French, like the page


def test_each_language_has_its_own_search_index(site):
    english = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert english["config"]["lang"] == ["azul_en"]
    assert not any(e["location"].startswith(("fr/", "de/", "es/")) for e in english["docs"])
    for lang in ("fr", "de", "es", "it", "pt"):
        index = json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
        assert index["config"]["lang"] == [f"azul_{lang}"]  # lunr's language support in ours (docgen_search)
        locations = [e["location"] for e in index["docs"]]
        assert "rules/offer/#OFFER-5" in locations and "validate-your-engine/" not in locations
    ukrainian = json.loads((site / "uk" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert ukrainian["config"]["lang"] == ["azul_uk"]  # lunr has no Ukrainian: ours strips its endings
    assert (site / "assets" / "javascripts" / "lunr" / "min" / "lunr.azul_uk.min.js").is_file()
    assert '"base": "../../../fr/"' in page(site, "fr/rules/offer")  # the page looks up its own index


def _search(browser, url: str, query: str) -> list[str]:
    """The result links a search from `url` shows, in order, as paths without the highlight query."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    browser.get(url)
    box = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")
    if not box.is_displayed():
        browser.find_element(By.CSS_SELECTOR, "label.md-search__icon").click()
        wait_for(browser, lambda d: box.is_displayed())
    box.click()
    box.send_keys(query)

    def links(driver):
        try:
            found = [a.get_attribute("href") for a in
                     driver.find_elements(By.CSS_SELECTOR, ".md-search-result__item a.md-search-result__link")]
        except StaleElementReferenceException:
            return None
        return found or None

    found = wait_for(browser, links, 20)
    return [re.sub(r"^https?://[^/]+|\?h=[^#]*", "", href) for href in found]


def test_switching_language_on_a_rule_page_keeps_the_page(browser, served):
    from selenium.webdriver.common.by import By

    browser.get(f"{served}/rules/offer/")
    french = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='fr']")
    browser.execute_script("arguments[0].click()", french)  # the switcher's list opens on hover
    wait_for(browser, lambda d: d.current_url.endswith("/fr/rules/offer/"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
    assert "La première prise au centre emporte aussi le marqueur" in browser.find_element(By.ID, "OFFER-5").text
    spanish = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='es']")
    browser.execute_script("arguments[0].click()", spanish)
    wait_for(browser, lambda d: d.current_url.endswith("/es/rules/offer/"))
    english = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='en']")
    browser.execute_script("arguments[0].click()", english)
    wait_for(browser, lambda d: d.current_url.endswith("/rules/offer/") and "/es/" not in d.current_url)


def test_switching_language_keeps_the_section_and_an_english_only_page_leads_to_its_subject(browser, served):
    from selenium.webdriver.common.by import By

    browser.get(f"{served}/fr/rules/floor/#FLOOR-3")
    german = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='de']")
    browser.execute_script("arguments[0].click()", german)
    wait_for(browser, lambda d: d.current_url.endswith("/de/rules/floor/#FLOOR-3"))
    browser.get(f"{served}/scenarios/floor/")
    french = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='fr']")
    browser.execute_script("arguments[0].click()", french)
    wait_for(browser, lambda d: d.current_url.endswith("/fr/rules/floor/"))


@pytest.mark.parametrize("path", ["/", "/fr/rules/floor/", "/uk/rules/scoring/", "/scenarios/floor/",
                                  "/conformance-matrix/", "/reports/open-spiel-azul-cpp/report/"])
def test_a_page_view_fails_no_request_and_asks_nothing_of_another_host(browser, served, path):
    _QuietHandler.failed.clear()
    browser.get(served + path)
    wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")  # pictures loaded lazily too
    import time

    time.sleep(1.5)  # the theme's scripts ask for what they need after the load
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert [url for url in resources if not url.startswith(served)] == []
    assert _QuietHandler.failed == [], path


@pytest.mark.parametrize("where, query, first", [
    ("/", "OFFER-5", "/rules/offer/#OFFER-5"),
    ("/", "SCORE-4", "/rules/scoring/#SCORE-4"),
    ("/", "SCORE-2", "/rules/scoring/#SCORE-2"),
    ("/", "OFFER-1", "/rules/offer/#OFFER-1"),        # not OFFER-10, OFFER-11 or OFFER-12
    ("/fr/", "OFFER-5", "/fr/rules/offer/#OFFER-5"),
    ("/de/", "SCORE-4", "/de/rules/scoring/#SCORE-4"),
    ("/it/", "FLOOR-3", "/it/rules/floor/#FLOOR-3"),
    ("/uk/", "SCORE-2", "/uk/rules/scoring/#SCORE-2"),
    ("/es/", "TILING-1", "/es/rules/tiling/#TILING-1"),
    ("/pt/", "END-5", "/pt/rules/end/#END-5"),
    ("/", "DIV-deal-bag-and-lid-empty", "/divergences/#DIV-deal-bag-and-lid-empty"),
    ("/pt/", "DIV-end-floor-before-bonus", "/pt/divergences/#DIV-end-floor-before-bonus"),
    ("/", "floor-overflow-to-lid", "/scenarios/floor/#floor-overflow-to-lid"),  # as `azul conform` prints it
    ("/de/", "floor-overflow-to-lid", "/scenarios/floor/#floor-overflow-to-lid"),
])
def test_a_rule_searched_by_its_id_comes_first(browser, served, where, query, first):
    found = _search(browser, served + where, query)
    assert found[0] == first.split("#")[0], found[:4]         # its page heads the results
    assert [f for f in found if "#" in f][0] == first, found[:4]  # and its own section comes first


@pytest.mark.parametrize("where, query, page_of_rules, within", [
    # The theme searches every word as a prefix, stop words too: the "de" of ES's "línea de piso" also matches
    # "deal", the heading word of the deal rules, which then come first; the floor rules come next.
    # FR's word for the floor line; OFFER-10, whose title says where excess tiles go ("... tombe sur la rangée de
    # sol"), may come first
    ("/fr/", "rangée de sol", "/fr/rules/floor/", 2),
    ("/es/", "línea de piso", "/es/rules/floor/", 2),  # ES's
    ("/fr/", "sol", "/fr/rules/floor/", 1),
    ("/es/", "piso", "/es/rules/floor/", 1),
    ("/de/", "Bodenreihe", "/de/rules/floor/", 1),     # DE's
    ("/uk/", "підлоги", "/uk/rules/floor/", 1),        # UK's (Лінія підлоги)
    ("/uk/", "підлога", "/uk/rules/floor/", 1),        # its nominative, which the pages never write
    ("/pt/", "chão", "/pt/rules/floor/", 1),           # PT's (linha de chão)
    ("/pt/", "chao", "/pt/rules/floor/", 1),           # typed without its accent
    ("/es/", "suelo", "/es/rules/floor/", 1),          # ES's other word (línea del suelo, 002:123)
    ("/it/", "pavimento", "/it/rules/floor/", 1),      # IT's (fila del pavimento)
    ("/", "floors", "/rules/floor/", 1),               # inflected
])
def test_a_search_in_the_version_s_words_finds_the_rule(browser, served, where, query, page_of_rules, within):
    found = _search(browser, served + where, query)
    pages = list(dict.fromkeys(link.split("#")[0] for link in found))
    assert page_of_rules in pages[:within], pages[:4]
    assert any(link.startswith(page_of_rules + "#FLOOR-") for link in found), found[:8]


def test_each_rule_page_states_in_words_every_outcome_its_scenarios_check(site):
    # a reader settling a dispute: SCORE-1's page says what a lone tile scores, without opening a scenario
    import html

    from azul_conformance.scenario import load_scenarios
    from azul_conformance.spec_data import load_spec

    spec = load_spec()
    french_titles = yaml.safe_load((ROOT / "spec" / "i18n" / "fr" / "scenarios.yaml").read_text(encoding="utf-8"))
    french_titles = french_titles["titles"]
    by_rule: dict[str, list] = {}
    for scenario in load_scenarios():
        for rule_id in scenario.rules:
            by_rule.setdefault(rule_id, []).append(scenario)
    checked = 0
    for chapter in spec.chapters:
        ids = [rule.id for rule in spec.rules if rule.chapter == chapter.name]
        english = _rule_sections(page(site, f"rules/{chapter.name}"), ids)
        french = _rule_sections(page(site, f"fr/rules/{chapter.name}"), ids)
        for rule_id in ids:
            for scenario in by_rule.get(rule_id, []):  # titled where it is about the rule, named where it
                # checks it in passing (its title states another rule's outcome)
                shown = scenario.title if scenario.rules[0] == rule_id else scenario.id
                assert _flat(shown) in _flat(english[rule_id]), (rule_id, scenario.id)
                checked += 1
            if by_rule.get(rule_id):  # in French: its own label; each outcome in French where spec/i18n/fr has
                # its title, else the corpus's English, marked so
                assert "Ce que vérifient ses scénarios" in french[rule_id]
                first = next(scenario for scenario in by_rule[rule_id] if scenario.rules[0] == rule_id)
                if first.id in french_titles:
                    assert _flat(french_titles[first.id]) in _flat(french[rule_id]), (rule_id, first.id)
                else:
                    title = re.escape(html.escape(first.title, quote=False))
                    assert re.search(r"lang=[\"']en[\"'][^>]*>" + title, french[rule_id]), (rule_id, title)
    assert checked > 400
    assert "A tile with no neighbour on the wall scores 1 point" in _flat(
        _rule_sections(page(site, "rules/scoring"), ["SCORE-1", "SCORE-2"])["SCORE-1"])


def test_a_report_case_followed_to_its_rule_and_its_boards(browser, served):
    # an engine author on OpenSpiel's full report: the first failing case shows the engine's boards, and its
    # links lead to the rule's section and to the scenario's Given and expected boards
    from selenium.webdriver.common.by import By

    report = f"{served}/reports/open-spiel-azul-cpp/report/"
    browser.get(report)
    heading = browser.find_element(By.XPATH, "//h2[@id='what-went-wrong']/following::h3[1]")
    rule_link, case_link = heading.find_elements(By.TAG_NAME, "a")[:2]
    rule_id, case_id = rule_link.text, case_link.text
    engine_boards = heading.find_element(By.XPATH, "following::figure[1]//img")
    browser.execute_script("arguments[0].scrollIntoView()", engine_boards)
    wait_for(browser, lambda d: d.execute_script("return arguments[0].complete", engine_boards))
    assert browser.execute_script("return arguments[0].naturalWidth", engine_boards) > 0
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", rule_link)  # not under the header
    rule_link.click()
    wait_for(browser, lambda d: d.current_url.endswith(f"#{rule_id}"))
    assert rule_id in browser.find_element(By.ID, rule_id).text
    browser.get(report)
    heading = browser.find_element(By.XPATH, "//h2[@id='what-went-wrong']/following::h3[1]")
    case_link = heading.find_elements(By.TAG_NAME, "a")[1]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", case_link)
    case_link.click()
    wait_for(browser, lambda d: d.current_url.endswith(f"#{case_id}"))
    given = browser.find_element(By.CSS_SELECTOR, f"img[src$='{case_id}-given.svg']")
    browser.execute_script("arguments[0].scrollIntoView()", given)
    wait_for(browser, lambda d: d.execute_script("return arguments[0].complete", given))
    assert browser.execute_script("return arguments[0].naturalWidth", given) > 0


# --- "try it": the reference engine in the page (docs/try/, docs/hooks/docgen_tryit.py) ----------------------

@pytest.fixture(scope="session")
def try_page(browser, served, site):
    """Opens try/ with a link's fragment and waits for the engine (its runtime is installed by `npm ci`)."""
    if not (site / "try" / "pyodide" / "pyodide.asm.wasm").is_file():
        if IN_CI:
            pytest.fail("CI=true but the site has no Python runtime: .ci/run runs `npm ci` before the tests")
        pytest.skip("node_modules/pyodide is not installed (run `npm ci`): the try page has no runtime")

    def open_page(fragment: str, lang: str = "", fresh: bool = False):
        """The try page on a link. The page already open (its runtime started) opens another link's fragment
        itself, as it does when a reader changes the link in the address bar; `fresh`: a new page, the link alone."""
        from selenium.webdriver.common.by import By

        page_url = f"{served}/{lang + '/' if lang else ''}try/"
        here = browser.execute_script("return location.href.split('#')[0]")
        opened = browser.execute_script(
            "const s = document.getElementById('try-status'); return s && s.dataset.opened")
        if not fresh and here == page_url and opened and browser.execute_script(
                "const a = document.createElement('a'); a.href = '#' + arguments[0]; return a.hash !== location.hash",
                fragment):  # (the same fragment again would change nothing: a new page then)
            browser.execute_script("location.hash = arguments[0]", fragment)
            wait_for(browser, lambda d: d.find_element(By.ID, "try-status").get_attribute("data-opened")
                     == str(int(opened) + 1), 60)
            return browser
        browser.get("about:blank")  # the same page with another fragment would not load again
        browser.get(f"{page_url}#{fragment}")
        wait_for(browser, lambda d: d.find_element(By.ID, "try-status").get_attribute("data-opened"), 60)
        assert browser.find_element(By.ID, "try-status").get_attribute("data-state") == "ready"
        return browser

    return open_page


def _scores(driver) -> list[int]:
    from selenium.webdriver.common.by import By

    return [int(s.text.rsplit(" ", 1)[1]) for s in driver.find_elements(By.CSS_SELECTOR, ".try-score")]


def _refusals(driver) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    return [item.get_attribute("data-rules").split() for item in driver.find_elements(By.CSS_SELECTOR, ".try-refused")]


def test_try_it_plays_a_scenario_by_clicking_and_shows_its_scores_and_refusals(try_page, site):
    from azul_conformance.scenario import corpus_root
    from azul_conformance.scenario.loader import load_scenarios
    from selenium.webdriver.common.by import By

    # A grey-wall tiling with a refused placement (GREY-2) and a score the scenario works out by hand.
    wanted = "grey-column-taken-in-same-tiling"
    (scenario,) = [s for s in load_scenarios([corpus_root()]) if s.id == wanted]
    assert f"try/#scenario={wanted}" in page(site, "scenarios/grey")  # its scenario page links to it
    driver = try_page(f"scenario={wanted}")
    refused_rules = [step.reject.rule for step in scenario.steps if step.reject is not None]
    for index in range(len(scenario.steps)):
        button = driver.find_element(By.CSS_SELECTOR, f".try-step[data-index='{index}']")
        assert button.is_enabled(), index
        button.click()
    assert _refusals(driver) == [[rule] for rule in refused_rules] and refused_rules == ["GREY-2"]
    scores = {int(c.path.split("/")[2]): c.value for a in scenario.expect for c in a.checks
              if c.path.startswith("/boards/") and c.path.endswith("/score")}
    assert scores and all(_scores(driver)[seat] == value for seat, value in scores.items())


# tests/test_docs_tryit.py's hand-worked position: blue to row 2, column 2 scores 2 across + 2 down = 4 (SCORE-2),
# the floor's one tile -1 (FLOOR-3): 3 + 4 - 1 = 6.
BLUE_TO_ROW_2 = {"format": "azul-state/1", "variant": "colour", "players": 2, "round": 2, "phase": "offer", "turn": 0,
                 "start_player": 1, "marker": 1, "factories": ["", "", "", "", ""], "centre": "B",
                 "bag": "B" * 18 + "Y" * 18 + "R" * 20 + "K" * 19 + "W" * 20, "lid": "",
                 "boards": [{"score": 3, "lines": ["", "B", "", "", ""],
                             "wall": [".Y...", "..Y..", ".....", ".....", "....."], "floor": "K"},
                            {"score": 0, "lines": ["", "", "", "", ""], "wall": ["....."] * 5, "floor": "M"}],
                 "winners": None}


def test_try_it_loads_a_pasted_position_plays_a_move_and_itemizes_its_score(try_page):
    from selenium.webdriver.common.by import By

    state = BLUE_TO_ROW_2
    driver = try_page("")
    box = driver.find_element(By.ID, "try-state")
    driver.execute_script("arguments[0].value = arguments[1]", box, json.dumps({**state, "round": -1}))
    driver.find_element(By.ID, "try-load").click()
    assert _refusals(driver) and "refused" in driver.find_elements(By.CSS_SELECTOR, ".try-refused")[-1].text
    driver.execute_script("arguments[0].value = arguments[1]", box, json.dumps(state))
    driver.find_element(By.ID, "try-load").click()
    assert _scores(driver) == [3, 0]
    driver.find_element(By.CSS_SELECTOR, ".try-move[data-move='CB2']").click()
    assert _scores(driver) == [6, 0]
    log = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#try-log li")]
    assert any("+4" in line and "SCORE-2" in line for line in log) and any("FLOOR-3" in line for line in log)
    # The position's link opens it again, with nothing but the link.
    link = driver.find_element(By.ID, "try-link").get_attribute("href")
    try_page(link.split("#", 1)[1])
    assert _scores(driver) == [6, 0]


def test_try_it_edits_a_position_by_clicking_the_board_and_plays_it_to_a_score_worked_out_by_hand(try_page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    # tests/test_docs_tryit.py's edited position: B completes row 3, column 3 beside K W (row 3) and under R Y
    # (column 3; row 5's K is cut off by the empty row 4): 3 across + 3 down = +6 (SCORE-2), the marker taken
    # with the centre's R -1 (FLOOR-3, FLOOR-4): 10 + 6 - 1 = 15.
    driver = try_page("")
    driver.find_element(By.ID, "try-edit").click()
    tile = Select(driver.find_element(By.ID, "try-edit-tile"))

    def click(target: str, keyboard: bool = False) -> None:
        space = driver.find_element(By.CSS_SELECTOR, f"#try-board [data-edit='{target}']")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", space)  # not under the header
        if keyboard:
            space.send_keys(Keys.ENTER)
        else:
            space.click()

    def number(field: str, value: int) -> None:
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value), Keys.TAB)

    tile.select_by_value("")
    for target in ["factory 0", "factory 1", "factory 2", "factory 3", "factory 4", "centre"]:
        click(target)
    tile.select_by_value("R")
    click("centre")
    for target in ["wall 0 2 0", "wall 0 2 1", "wall 0 0 2", "wall 0 1 2"]:
        click(target)
    click("wall 0 4 2", keyboard=True)  # a space is a button the keyboard reaches too
    tile.select_by_value("B")
    for _ in range(3):
        click("line 0 2")
    number("try-edit-score-0", 10)
    board = driver.find_element(By.CSS_SELECTOR, "#try-board g.board[data-seat='0']")
    assert [g.get_attribute("data-colour") for g in board.find_elements(By.CSS_SELECTOR, "g.wall > g.tile")] == [
        "R", "Y", "K", "W", "K"]
    driver.find_element(By.ID, "try-edit-done").click()
    assert _refusals(driver)[-1] == ["TILING-1"]  # round 1 has had no tiling: no wall row holds two tiles
    number("try-edit-round", 3)
    driver.find_element(By.ID, "try-edit-done").click()
    assert driver.find_element(By.ID, "try-editor").get_attribute("hidden") is not None
    assert _scores(driver) == [10, 0]
    driver.find_element(By.CSS_SELECTOR, ".try-move[data-move='CR5']").click()
    assert _scores(driver) == [15, 0]
    log = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#try-log li")]
    assert any("row 3, column 3: +6" in line and "SCORE-2" in line for line in log), log
    assert any(line.startswith("floor M: -1 (FLOOR-3, FLOOR-4)") for line in log) and "= 15" in log
    assert not [line for line in log if "nothing to edit" in line], log
    # the edited position is in the address's fragment: it opens again from the link alone
    fragment = driver.current_url.split("#", 1)[1]
    assert fragment.startswith("state=")
    try_page(fragment)
    assert _scores(driver) == [10, 0] and driver.find_element(By.CSS_SELECTOR, ".try-move[data-move='CR5']")


def test_try_it_opens_a_link_changed_in_the_address_bar_in_the_page_already_open(try_page):
    from selenium.webdriver.common.by import By

    # Only the fragment changes, so the browser loads no new page: the page opens the link's position itself,
    # cleared as a new page is (no move log, no scenario, no record of the position before), its runtime kept.
    driver = try_page("")
    driver.find_element(By.CSS_SELECTOR, ".try-move").click()
    assert driver.find_elements(By.CSS_SELECTOR, "#try-log li")
    driver.execute_script("window.samePage = true")
    driver = try_page("scenario=grey-column-taken-in-same-tiling")
    assert driver.execute_script("return window.samePage") is True
    assert not driver.find_element(By.ID, "try-scenario").get_attribute("hidden")
    assert driver.find_element(By.ID, "try-scenario-id").text == "grey-column-taken-in-same-tiling"
    assert driver.find_elements(By.CSS_SELECTOR, ".try-step[data-index='0']")
    assert not driver.find_elements(By.CSS_SELECTOR, "#try-log li")
    state = BLUE_TO_ROW_2
    driver = try_page("state=" + json.dumps(state))
    assert driver.execute_script("return window.samePage") is True
    assert driver.find_element(By.ID, "try-scenario").get_attribute("hidden") is not None
    assert _scores(driver) == [3, 0]
    # the centre's one blue may go to any line (line 2 holds blue; no wall row holds it) or the floor
    moves = {b.get_attribute("data-move") for b in driver.find_elements(By.CSS_SELECTOR, ".try-move")}
    assert moves == {"CB1", "CB2", "CB3", "CB4", "CB5", "CBF"}, moves


def test_try_it_edits_a_new_table_of_three_players_on_the_grey_wall_and_plays_on(try_page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = try_page("")
    driver.find_element(By.ID, "try-edit").click()
    Select(driver.find_element(By.ID, "try-edit-players")).select_by_value("3")
    Select(driver.find_element(By.ID, "try-edit-variant")).select_by_value("grey")
    driver.find_element(By.ID, "try-edit-new").click()
    assert len(driver.find_elements(By.CSS_SELECTOR, "#try-board g.board")) == 3
    assert len(driver.find_elements(By.CSS_SELECTOR, "#try-board g.factory")) == 7  # SETUP-3: 7 for 3 players
    driver.find_element(By.ID, "try-edit-done").click()
    assert _scores(driver) == [0, 0, 0]
    state = json.loads(driver.find_element(By.ID, "try-state").get_attribute("value"))
    assert state["variant"] == "grey" and state["players"] == 3
    driver.find_element(By.CSS_SELECTOR, ".try-move").click()  # the start player, seat 0, takes
    log = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#try-log li")]
    assert any(line.startswith("seat 0 takes ") for line in log), log


def test_try_it_in_french_says_the_sites_french_words_and_plays_a_scenario_step(try_page, site):
    from azul_conformance.spec_data import load_spec
    from selenium.webdriver.common.by import By

    words = yaml.safe_load((ROOT / "spec" / "i18n" / "fr" / "site.yaml").read_text(encoding="utf-8"))["ui"]
    english = yaml.safe_load((ROOT / "spec" / "i18n" / "site.yaml").read_text(encoding="utf-8"))["ui"]
    assert re.search(r'<a href="try/" class="md-nav__link">\s*<span class="md-ellipsis">\s*Essayer', page(site, "fr"))
    driver = try_page("scenario=grey-column-taken-in-same-tiling", "fr")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
    for element, key in (("try-edit", "try_edit"), ("try-load", "try_load"), ("try-log-title", "try_log_title")):
        shown = driver.find_element(By.ID, element).text
        assert shown == words[key] != english[key], (element, shown)
    assert driver.find_element(By.ID, "try-status").text.startswith("Le moteur de référence tourne")
    assert "siège 0 : " in driver.find_element(By.ID, "try-summary").text
    drawn = driver.find_element(By.CSS_SELECTOR, "#try-board svg").get_attribute("textContent")
    assert "Siège 0" in drawn and "rangée de sol" in drawn and "Seat 0" not in drawn  # the board in French too
    french = load_spec().translations["fr"].scenario_titles["grey-column-taken-in-same-tiling"]
    assert driver.find_element(By.ID, "try-scenario-title").text == french
    driver.find_element(By.CSS_SELECTOR, ".try-step[data-index='0']").click()  # CW5: seat 1 takes the centre's W
    log = driver.find_elements(By.CSS_SELECTOR, "#try-log li")
    take = next(item for item in log if "OFFER-4" in item.text)
    assert take.text.startswith("le siège 1 prend 1 W du centre de la table vers la rangée de motifs 5")
    # its rules link to the French rule pages, titled in French
    link = take.find_element(By.CSS_SELECTOR, "a.try-rule[data-rule='OFFER-4']")
    assert link.get_attribute("href").endswith("/fr/rules/offer/#OFFER-4")
    spec = load_spec()
    title = spec.translations["fr"].rules["OFFER-4"].title
    assert link.get_attribute("title") == title != next(r.title for r in spec.rules if r.id == "OFFER-4")
    # a refusal in French words (a take while the grey wall waits for a placement), the engine's reason marked English
    driver.find_element(By.ID, "try-input").send_keys("9B1")
    driver.find_element(By.ID, "try-play").click()
    refused = driver.find_elements(By.CSS_SELECTOR, ".try-refused")[-1]
    assert refused.text.startswith("refusé : ") and refused.get_attribute("data-rules") == "GREY-5"  # tiling due
    assert refused.find_element(By.CSS_SELECTOR, "span[lang='en']").text in refused.text


def test_try_it_refuses_a_typed_illegal_move_with_its_rule(try_page):
    from selenium.webdriver.common.by import By

    driver = try_page("")
    driver.find_element(By.ID, "try-input").send_keys("9B1")
    driver.find_element(By.ID, "try-play").click()
    refused = driver.find_elements(By.CSS_SELECTOR, ".try-refused")[-1]
    assert refused.get_attribute("data-rules") == "SETUP-3"
    assert refused.find_element(By.CSS_SELECTOR, "a.try-rule").get_attribute("href").endswith("/rules/setup/#SETUP-3")


def test_try_it_steps_through_a_published_record_with_every_claim_checked(try_page):
    from azul_conformance.records import parse_record, replay, sample_paths
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    path = next(p for p in sample_paths() if p.name == "two-player.azr")
    text = path.read_text(encoding="utf-8")
    expected = replay(parse_record(text, path.name), text=text)  # what `azul replay` checks
    driver = try_page("")
    driver.find_element(By.ID, "try-record-sample").click()  # the reader is loaded when the list is opened
    wait_for(driver, lambda d: len(Select(d.find_element(By.ID, "try-record-sample")).options) > 1, 60)
    Select(driver.find_element(By.ID, "try-record-sample")).select_by_visible_text(path.name)
    driver.find_element(By.ID, "try-record-example").click()
    status = wait_for(driver, lambda d: d.find_element(By.ID, "try-record-status").get_attribute("data-verdict")
                      and d.find_element(By.ID, "try-record-status"), 60)
    assert status.get_attribute("data-verdict") == "ok", status.text
    assert int(status.get_attribute("data-claims")) == expected.claims_checked > 0
    for _ in range(len(expected.steps) - 1):
        driver.find_element(By.ID, "try-record-next").click()
    step = driver.find_element(By.ID, "try-record-step")
    assert step.get_attribute("data-index") == str(len(expected.steps) - 1), step.text
    assert _scores(driver) == [board["score"] for board in expected.final["boards"]]
    claims = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".try-claim")]
    assert claims and all(claim.endswith("checked") for claim in claims)
    driver.find_element(By.ID, "try-record-prev").click()
    assert step.get_attribute("data-index") == str(len(expected.steps) - 2)
    # A false claim: the first score claim one point too high is where the record and our rules part ways.
    wrong = re.sub(r"\[%score (\d+)", lambda m: f"[%score {int(m.group(1)) + 1}", text, count=1)
    box = driver.find_element(By.ID, "try-record")
    driver.execute_script("arguments[0].value = arguments[1]", box, wrong)
    driver.find_element(By.ID, "try-record-open").click()
    wait_for(driver, lambda d: d.find_element(By.ID, "try-record-status").get_attribute("data-verdict") == "fails")
    assert "claim [%score" in status.text and "is wrong" in status.text
    assert "SCORE-1" in driver.find_element(By.ID, "try-record-detail").get_attribute("textContent")


def test_try_it_shows_a_hostile_position_and_record_as_text(try_page):
    from selenium.webdriver.common.by import By

    # Outside text (a pasted state, a record and its claims, a link's fragment) reaches the page only as text:
    # were any of it read as HTML, the image's handler would set window.hacked.
    hostile = '<img src="x" onerror="window.hacked=1">'
    driver = try_page("state=" + json.dumps({"format": "azul-state/1", "variant": hostile}))
    state = {"format": "azul-state/1", "variant": hostile, "players": 2, "round": 1, "phase": hostile,
             "turn": 0, "start_player": 0, "marker": hostile, "factories": [hostile] * 5, "centre": hostile,
             "bag": "", "lid": "", "boards": [{"score": 0, "lines": [hostile] * 5, "wall": [hostile] * 5,
                                               "floor": hostile}] * 2, "winners": None}
    box = driver.find_element(By.ID, "try-state")
    driver.execute_script("arguments[0].value = arguments[1]", box, json.dumps(state))
    driver.find_element(By.ID, "try-load").click()
    problems = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".try-problem")]
    assert any(hostile in problem for problem in problems), problems
    record = (f'[Event "{hostile}"]\n[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n\n'
              f'{{{hostile}}}\nround 1 deal BBYR YYKW RRKW BBBK YRWW\n1. 4B3 [%floor 0 "{hostile}"] 2Y2\n')
    box = driver.find_element(By.ID, "try-record")
    driver.execute_script("arguments[0].value = arguments[1]", box, record)
    driver.find_element(By.ID, "try-record-open").click()
    status = wait_for(driver, lambda d: d.find_element(By.ID, "try-record-status").get_attribute("data-verdict")
                      and d.find_element(By.ID, "try-record-status"), 60)
    assert status.get_attribute("data-verdict") in ("fails", "unreadable") and status.text
    assert driver.execute_script("return window.hacked") is None
    assert driver.find_elements(By.CSS_SELECTOR, "#try-app img") == []


def test_try_it_opens_a_record_from_its_link_and_replays_it(try_page):
    from azul_conformance.records import parse_record, replay, sample_paths
    from selenium.webdriver.common.by import By

    path = next(p for p in sample_paths() if p.name == "two-player.azr")
    text = path.read_text(encoding="utf-8")
    expected = replay(parse_record(text, path.name), text=text)
    driver = try_page("")
    box = driver.find_element(By.ID, "try-record")
    driver.execute_script("arguments[0].value = arguments[1]", box, text)
    driver.find_element(By.ID, "try-record-open").click()
    wait_for(driver, lambda d: d.find_element(By.ID, "try-record-status").get_attribute("data-verdict") == "ok", 60)
    link = driver.find_element(By.ID, "try-record-link")
    assert link.is_displayed()
    try_page(link.get_attribute("href").split("#", 1)[1], fresh=True)  # a fresh page, the link alone
    status = wait_for(driver, lambda d: d.find_element(By.ID, "try-record-status").get_attribute("data-verdict")
                      and d.find_element(By.ID, "try-record-status"), 60)
    assert status.get_attribute("data-verdict") == "ok", status.text
    assert int(status.get_attribute("data-claims")) == expected.claims_checked > 0
    assert driver.find_element(By.ID, "try-record").get_attribute("value") == text


def test_links_both_ways_between_rules_matrix_and_failing_cases(site):
    # OpenSpiel's engine fails SCORE-2 (its report's first deviation): the rule's page names it, linked to its
    # failing case's section on the report page, the matrix cell opens that section, and both exist
    report = page(site, "reports/open-spiel-azul-cpp/report")
    anchors = set(re.findall(r'<h3 id="(case-[^"]+)"', report))
    scoring = _rule_sections(page(site, "rules/scoring"), ["SCORE-1", "SCORE-2", "SCORE-3"])["SCORE-2"]
    linked = re.search(r'href="\.\./\.\./reports/open-spiel-azul-cpp/report/#(case-[^"]+)"', scoring)
    assert linked and linked[1] in anchors, (linked, sorted(anchors)[:3])
    assert "azul conform --engine" in _flat(scoring) and "--only SCORE-2" in _flat(scoring)
    french = _rule_sections(page(site, "fr/rules/scoring"), ["SCORE-1", "SCORE-2", "SCORE-3"])["SCORE-2"]
    assert "Moteurs de la matrice qui l" in french and "reports/open-spiel-azul-cpp/report/#case-" in french
    matrix = page(site, "conformance-matrix")
    row = next(line for line in matrix.split("<tr>") if 'href="../rules/scoring/#SCORE-2"' in line)
    cell = re.search(r'href="\.\./reports/open-spiel-azul-cpp/report/#(case-[^"]+)"', row)
    assert cell and cell[1] in anchors
    from azul_conformance.spec_data import load_spec

    title = next(rule.title for rule in load_spec().rules if rule.id == "SCORE-2")
    assert _flat(title) in _flat(row)  # the rule named, not a bare ID


def test_a_counterexample_is_a_link_to_its_published_file(site):
    report = page(site, "reports/azul-game-engine/report")
    assert 'href="../counterexamples/differential-deals.yaml"' in report  # the page is reports/<engine>/report/
    assert (site / "reports" / "azul-game-engine" / "counterexamples" / "differential-deals.yaml").is_file()


def test_a_scenario_page_is_titled_by_its_chapter_and_cites_versions_by_line(site):
    html = page(site, "scenarios/floor")
    assert re.search(r"<h1[^>]*>Scenarios: The floor line", html), re.search(r"<h1[^>]*>[^<]*", html)
    section = html.split('id="floor-overflow-to-lid"', 1)[1].split("<h2", 1)[0]
    assert re.search(r'EN, <a href="\.\./\.\./clauses/EN/#L\d+" title="000_ed7c8802c5a645fb\.txt:150-150">l\. 150</a>',
                     section), section[:2000]
    assert "000_ed7c8802c5a645fb.txt:150" not in _flat(re.sub(r'title="[^"]*"', "", section))


@pytest.fixture(scope="session")
def axe_script(tmp_path_factory) -> str:
    """axe-core, the accessibility checker, installed from the npm registry like any test dependency."""
    npm = shutil.which("npm")
    if npm is None:
        if IN_CI:
            pytest.fail("CI=true but npm is missing: the accessibility test needs it to install axe-core")
        pytest.skip("npm is not installed: axe-core cannot be installed")
    folder = tmp_path_factory.mktemp("axe")
    result = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(folder),
                             "axe-core@4"], capture_output=True, text=True, timeout=300)
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if result.returncode != 0 or not script.is_file():
        if IN_CI:
            pytest.fail(f"npm could not install axe-core: {result.stderr[-2000:]}")
        pytest.skip(f"npm could not install axe-core (offline?): {result.stderr[-300:]}")
    return script.read_text(encoding="utf-8")


def assert_no_serious_violation(driver, axe_script: str) -> None:
    """axe-core run on the page the driver shows: no violation of serious or critical impact."""
    driver.execute_script(axe_script)
    violations = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => "
        "({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 200))}))));")
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)[:4000]


@pytest.mark.parametrize("path", ["/", "/rules/floor/", "/fr/rules/floor/", "/de/rules/scoring/", "/it/rules/offer/",
                                  "/uk/rules/floor/", "/es/rules/tiling/", "/pt/rules/end/", "/conformance-matrix/",
                                  "/scenarios/floor/", "/reports/open-spiel-azul-cpp/report/"])
def test_axe_finds_no_serious_accessibility_violation(browser, served, axe_script, path):
    browser.get(served + path)
    assert_no_serious_violation(browser, axe_script)


@pytest.mark.parametrize("lang", ["", "fr"])
def test_axe_finds_no_serious_violation_on_the_try_page_with_its_board_in_the_edit_mode(try_page, axe_script, lang):
    from selenium.webdriver.common.by import By

    driver = try_page("", lang)
    driver.find_element(By.ID, "try-edit").click()  # every space of the board a button, named
    assert len(driver.find_elements(By.CSS_SELECTOR, "#try-board [data-edit][role='button'][aria-label]")) > 50
    assert_no_serious_violation(driver, axe_script)


def test_a_rule_page_shows_its_smallest_scenario_s_boards_with_meaningful_alt_text(site):
    section = _rule_sections(page(site, "rules/floor"), ["FLOOR-1", "FLOOR-2", "FLOOR-3"])["FLOOR-2"]
    pictures = re.findall(r'<a href="([^"]+\.svg)"><img src="([^"]+\.svg)" alt="([^"]+)"', section)
    assert len(pictures) == 2, section[:3000]
    (link_before, before, alt_before), (_, after, alt_after) = pictures
    assert before.endswith("-given.svg") and after.endswith("-after.svg") and link_before == before
    for picture in (before, after):
        assert (site / "rules" / "floor" / picture).resolve().is_file(), picture
    assert alt_before.startswith("Before its steps: ") and len(alt_before) > 30 and alt_after.startswith("After")
    french = _rule_sections(page(site, "fr/rules/floor"), ["FLOOR-1", "FLOOR-2", "FLOOR-3"])["FLOOR-2"]
    assert re.search(r'<img src="\.\./\.\./\.\./scenarios/boards/[^"]+-given\.svg" alt="Avant ses coups: ', french)
