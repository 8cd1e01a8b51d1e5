"""mkdocs hook: generate the rule, divergence, version, clause, scenario, matrix, catch-power and CLI pages at build
time, and fill in the corpus counts a hand-written page quotes (`N<!-- counts.NAME -->`, see docgen_counts).

The pages are made from what the package itself loads: the spec by azul_conformance.spec_data, the scenarios by
the scenario loader (and drawn after the scenario runner's run on the reference engine), the reports by
azul_conformance.harness.report. $AZUL_DOCS_SPEC, $AZUL_DOCS_SCENARIOS and $AZUL_DOCS_REPORTS point elsewhere
(the tests' fixtures).

Nothing generated is written into docs/ or kept in git: the pages are made from spec/ and the scenarios every
build, so they cannot drift from the data, and written with docs/ into a scratch folder that the build reads
as its docs folder (linked, not copied) and removes at the end.

The site is in several languages (mkdocs-static-i18n, the `i18n` plugin of mkdocs.yml): English at the root,
every other language under /<lang>/, built one after the other in the same process. The rule pages, the rule
list, the one-page rulebook, the divergence register and a short home page exist in every language
(`rules/offer.fr.md`...: docgen_rules with docgen_i18n); every other page is English only. The pages are made
once for all the languages' builds. Each language gets its own search index (`<lang>/search/`), searched with
its own stemming, accents folded and IDs whole (docgen_search).
Real inconsistencies (a link that cannot land, a duplicate ID, a YAML error) are logged as warnings, which
`mkdocs build --strict` turns into a failed build, stopped before the pages are rendered; data that simply is not
written yet gives a page that says so.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from azul_conformance import spec_data
from azul_conformance.scenario import corpus_root
from azul_conformance.spec_check import check_links
from azul_conformance.spec_data import VERSION_NAMES, VERSIONS

import docgen_checks
import docgen_clauses
import docgen_counts
import docgen_i18n
import docgen_mutation
import docgen_reports
import docgen_rules
import docgen_scenarios
import docgen_search
import docgen_switcher
import docgen_tryit
import docgen_versions

log = logging.getLogger("mkdocs.plugins.azul_docs")
# One build session: the default language's build and the builds of the other languages it runs.
_state: dict = {}


def _load_spec(problems: list[str]) -> spec_data.Spec:
    root = Path(os.environ.get("AZUL_DOCS_SPEC") or spec_data.default_spec_root())
    try:
        spec = spec_data.load_spec(root)
    except spec_data.SpecError as error:
        problems.append(str(error))
        return spec_data.Spec(root, (), {}, ())
    problems += map(str, check_links(root))
    return spec


def _pages(config) -> dict[str, str]:
    """src_uri -> Markdown of every generated page."""
    problems: list[str] = []
    spec = _load_spec(problems)
    gallery = docgen_scenarios.load_gallery(spec, Path(os.environ.get("AZUL_DOCS_SCENARIOS") or corpus_root()))
    by_rule = gallery.by_rule()
    problems += gallery.problems
    reports = Path(os.environ.get("AZUL_DOCS_REPORTS") or Path(config["docs_dir"]) / "reports")
    own = reports.resolve() == (Path(config["docs_dir"]) / "reports").resolve()
    failing = docgen_reports.failing_by_rule(reports) if own else None  # only the docs' own reports have pages
    pictures: dict[str, str] = {}
    groups = {group: docgen_scenarios.group_page(spec, group, items, pictures)
              for group, items in gallery.groups().items()}
    smallest = _smallest_pictured(gallery, pictures)
    pages = {"rules/index.md": docgen_rules.rules_index_page(spec, by_rule),
             "rules/all.md": docgen_rules.one_page_rulebook(spec),
             "divergences.md": docgen_rules.divergences_page(spec),
             "clauses/index.md": docgen_clauses.index_page(spec),
             "scenarios/index.md": docgen_scenarios.index_page(gallery, spec),
             "reference/cli.md": docgen_reports.cli_page(),
             "reference/who-checks-what.md": docgen_checks.page(),
             "try/index.md": docgen_tryit.page(spec, docgen_i18n.DEFAULT)}
    for chapter in spec.chapters:
        pages[f"rules/{chapter.name}.md"] = docgen_rules.chapter_page(spec, chapter, by_rule, failing=failing,
                                                                       pictures=smallest)
    pages.update(_translated_pages(spec, by_rule, failing, smallest))
    pages["versions/index.md"] = docgen_versions.index_page(spec)
    for version in VERSIONS:
        pages[f"clauses/{version}.md"] = docgen_clauses.version_page(spec, version)
        pages[f"versions/{version}.md"] = docgen_versions.version_page(spec, version)
    pages.update({f"scenarios/{group}.md": text for group, text in groups.items()})
    pages.update(pictures)
    pages["conformance-matrix.md"] = docgen_reports.matrix_page(spec, reports, problems, "reports/" if own else None)
    urls = {scenario.id: gallery.url(scenario) for scenario in gallery.scenarios}
    listed: list[tuple[str, str]] = []  # (page, title) of the reports `azul publish` added: the nav lists them
    if own:  # each engine's full report: its cases linked to their scenarios, its rules to their pages
        by_id = {scenario.id: scenario for scenario in gallery.scenarios}
        expected = {}  # (case, message) -> the reference's state: engines failing alike share the reference's run

        def reference(case_id: str, message: str) -> dict | None:
            if case_id not in by_id:  # a property (random games): no scenario to run the reference on
                return None
            if (case_id, message) not in expected:
                expected[case_id, message] = docgen_scenarios.expected_state(by_id[case_id], message)
            return expected[case_id, message]

        for path in sorted(reports.glob("*/report.md")):
            folder = path.parent.name
            boards = docgen_reports.engine_boards(path.parent / "report.jsonl", problems, reference)
            pictures_of = {}
            for case_id, (svg, expected_svg) in boards.items():
                name = f"boards/{docgen_scenarios.slug(case_id)}"
                pages[f"reports/{folder}/{name}.svg"] = svg
                if expected_svg is not None:
                    pages[f"reports/{folder}/{name}-expected.svg"] = expected_svg
                pictures_of[case_id] = (f"{name}.svg", f"{name}-expected.svg" if expected_svg is not None else None)
            about = docgen_reports.published(reports, f"{folder}/report.jsonl", problems)
            pages[f"reports/{folder}/report.md"] = docgen_reports.linked_report(
                path.read_text(encoding="utf-8"), spec, gallery.scenarios, urls, pictures_of, path.parent, about)
            if about is not None:
                listed.append((f"reports/{folder}/report.md", f"{about['name']}: full report (published)"))
                if (reports / f"{folder}.md").is_file():
                    listed.append((f"reports/{folder}.md", f"{about['name']}: deviations"))
    _state["published"] = listed
    pages["mutation.md"] = docgen_mutation.page(spec, urls, reports / "mutation", problems)
    pages["reference/example-state.svg"] = _example_svg(Path(config["docs_dir"]), problems)
    pages.update(_round_frames(Path(config["docs_dir"]), problems))
    problems += _stubs_left(Path(config["docs_dir"]), pages)
    _state.update(spec=spec, gallery=gallery, problems=problems)
    return pages


def _smallest_pictured(gallery, pictures: dict[str, str]) -> dict[str, tuple[str, str, str, str, str, tuple]]:
    """For each rule, its smallest scenario drawn before and after its steps (fewest steps, then the shortest
    Given) among those about it (their first rule: a scenario checking it in passing shows another rule's
    outcome): (id, page, title, picture before, picture after, the places the pictures outline as changed)."""
    smallest: dict[str, tuple] = {}
    for scenario in gallery.scenarios:
        name = docgen_scenarios.anchor(scenario)
        given, after = f"scenarios/boards/{name}-given.svg", f"scenarios/boards/{name}-after.svg"
        if given not in pictures or after not in pictures or not scenario.rules:
            continue
        size = (len(scenario.steps), len(scenario.given.text))
        for rule_id in scenario.rules[:1]:
            if rule_id not in smallest or size < smallest[rule_id][0]:
                marked = tuple(re.findall(r'data-place="([^"]+)"', pictures[after]))  # render_svg's outlines
                smallest[rule_id] = (size, (scenario.id, gallery.url(scenario), scenario.title, given, after, marked))
    return {rule_id: picture for rule_id, (_, picture) in smallest.items()}


STUB = "<!-- stub: the site's build writes this page in its place (docs/hooks/generate.py) -->"


def _stubs_left(docs_dir: Path, pages: dict[str, str]) -> list[str]:
    """The stand-ins committed where a generated page goes (so that a link to it, read in the repository, lands
    on a page saying where it leads) that this build would publish as they are: each one must be generated."""
    left = []
    for path in sorted(docs_dir.rglob("*.md")):
        uri = path.relative_to(docs_dir).as_posix()
        if uri not in pages and path.read_text(encoding="utf-8").startswith(STUB):
            left.append(f"{path}: a stand-in for a generated page, but the build generates no {uri}")
    return left


def _translated_pages(spec: spec_data.Spec, by_rule: dict, failing: dict | None = None,
                      pictures: dict | None = None) -> dict[str, str]:
    """The pages every language has, in each language but English: `rules/offer.fr.md`..."""
    local = docgen_i18n.translated_pages(spec)
    pages = {}
    for lang in spec_data.LANGUAGES:
        t = docgen_i18n.Texts(spec, lang)

        def links(page: str) -> docgen_i18n.Links:
            return docgen_i18n.Links(page, lang, local)

        localized = {"index.md": docgen_rules.home_page(t, links("index.md")),
                     "rules/index.md": docgen_rules.rules_index_page(spec, by_rule, t, links("rules/index.md")),
                     "rules/all.md": docgen_rules.one_page_rulebook(spec, t, links("rules/all.md")),
                     "divergences.md": docgen_rules.divergences_page(spec, t, links("divergences.md")),
                     "try/index.md": docgen_tryit.page(spec, lang)}
        for chapter in spec.chapters:
            page = f"rules/{chapter.name}.md"
            localized[page] = docgen_rules.chapter_page(spec, chapter, by_rule, t, links(page), failing, pictures)
        pages.update({f"{uri[:-3]}.{lang}.md": text for uri, text in localized.items()})
    return pages


def _example_svg(docs_dir: Path, problems: list[str]) -> str:
    """The picture of the state reference page's example, drawn by the same renderer as `azul render`."""
    import json

    from azul_conformance.render_svg import render_state

    path = docs_dir / "examples" / "example-state.json"
    try:
        return render_state(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        problems.append(f"{path}: cannot draw the example state: {error}")
        return ""


WORKED_EXAMPLE = "examples/records/ludometer-game-06.azr"


def _round_frames(docs_dir: Path, problems: list[str]) -> dict[str, str]:
    """The table at the end of each round of the worked example of "Replay games from elsewhere", replayed
    from its committed record with the same replay and renderer as `azul replay --svg`."""
    from azul_conformance.records import RecordError, read_record, replay
    from azul_conformance.render_svg import render_state

    path = docs_dir / WORKED_EXAMPLE
    try:
        record, _ = read_record(path)
        steps = replay(record, text=path.read_text(encoding="utf-8")).steps
    except (OSError, RecordError) as error:
        problems.append(f"{path}: cannot replay the worked example: {error}")
        return {}
    return {f"replay-frames/round-{step.round}.svg": render_state(step.state) for step in steps
            if step.kind in ("take", "placement") and step.state["phase"] in ("deal", "over")}


def _expand(nav: list, sections: dict[str, list]) -> list:
    """Replace a nav entry pointing at a section's index page by the section with its generated pages."""
    expanded = []
    for entry in nav:
        if isinstance(entry, dict) and len(entry) == 1:
            (title, target), = entry.items()
            if isinstance(target, str) and target in sections:
                expanded.append({title: [target] + sections[target]})
                continue
            if isinstance(target, list):
                expanded.append({title: _expand(target, sections)})
                continue
        expanded.append(entry)
    return expanded


def _language(config) -> str:
    """The language being built: the i18n plugin's, or the default where the plugin is not used."""
    plugin = config.plugins.get("i18n")
    return getattr(plugin, "current_language", None) or docgen_i18n.DEFAULT


def _materialize(docs_dir: Path, pages: dict[str, str]) -> Path:
    """A scratch docs folder: docs/ linked entry by entry, the generated pages written where they belong (a
    folder holding one is made, its other entries linked), so the build and its plugins see ordinary files."""
    root = Path(tempfile.mkdtemp(prefix="azul-docs-"))
    atexit.register(shutil.rmtree, root, True)  # a build that fails midway leaves nothing behind either
    folders = {part for uri in pages for part in (uri.rsplit("/", 1)[0],) if "/" in uri}
    folders |= {"/".join(f.split("/")[:i]) for f in set(folders) for i in range(1, f.count("/") + 1)}

    def fill(source: Path, target: Path, prefix: str) -> None:
        target.mkdir(exist_ok=True)
        for entry in source.iterdir() if source.is_dir() else ():
            uri = prefix + entry.name
            if entry.is_dir() and uri in folders:
                fill(entry, target / entry.name, uri + "/")
            elif uri not in pages:
                (target / entry.name).symlink_to(entry.resolve(), target_is_directory=entry.is_dir())

    fill(docs_dir, root, "")
    for uri, text in pages.items():
        path = root / uri
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _nav(spec: spec_data.Spec, lang: str) -> list:
    """The navigation of a language other than English: its own pages only."""
    t = docgen_i18n.Texts(spec, lang)
    chapters = [{docgen_rules._plain(t.chapter_title(c)): f"rules/{c.name}.md"} for c in spec.chapters]
    return [{t.ui("home", plain=True): "index.md"},
            {t.ui("rules", plain=True): ["rules/index.md", {t.ui("one_page", plain=True): "rules/all.md"}] + chapters},
            {t.ui("divergences", plain=True): "divergences.md"},
            {t.ui("try_title", plain=True): "try/index.md"}]


@event_priority(-110)  # after the i18n plugin has set the language up (it runs at -100)
def on_config(config):
    lang = _language(config)
    if "docs" not in _state:
        _state["source"] = Path(config["docs_dir"])
        _state["pages"] = _pages(config)
        _state["docs"] = _materialize(_state["source"], _state["pages"])
    config["docs_dir"] = str(_state["docs"])
    config["copyright"] = _footer(config.get("repo_url"))
    spec, gallery = _state["spec"], _state["gallery"]
    if lang != docgen_i18n.DEFAULT:
        config["nav"] = _nav(spec, lang)
        return config
    sections = {
        "rules/index.md": [{"The rules on one page": "rules/all.md"}]
        + [{c.title: f"rules/{c.name}.md"} for c in spec.chapters],
        "clauses/index.md": [{f"{v} {VERSION_NAMES[v]}": f"clauses/{v}.md"} for v in VERSIONS],
        "versions/index.md": [{f"{v} {VERSION_NAMES[v]}": f"versions/{v}.md"} for v in VERSIONS],
        "scenarios/index.md": [{docgen_scenarios.group_title(spec, g): f"scenarios/{g}.md"}
                               for g in gallery.groups()],
    }
    if config.get("nav"):
        config["nav"] = _with_published(_expand(_state.setdefault("nav", config["nav"]), sections),
                                        _state.get("published", []))
    return config


def _footer(repo_url: str | None) -> str:
    """Every page's footer: the suite's version (the package's and its scenarios' fingerprint, as a report's
    header names it) and, where the build is given the repository, where to report a problem."""
    from html import escape

    from azul_conformance.harness import suite_version

    if "suite_version" not in _state:
        _state["suite_version"] = suite_version(None)
    text = f"Azul conformance suite {escape(_state['suite_version'])}"
    if repo_url:
        issues = escape(repo_url.rstrip("/") + "/issues", quote=True)
        text += f' · <a href="{issues}">Report a problem</a>'
    return text


def _with_published(nav: list, published: list[tuple[str, str]]) -> list:
    """The nav with each published report's pages (`azul publish`) not listed in mkdocs.yml added at the end of
    its Conformance section, so that publishing needs no edit of mkdocs.yml and a strict build keeps passing."""
    def pages(entries) -> set[str]:
        found = set()
        for entry in entries if isinstance(entries, list) else [entries]:
            values = entry.values() if isinstance(entry, dict) else [entry]
            found |= {v for v in values if isinstance(v, str)} | {p for v in values if isinstance(v, list)
                                                                  for p in pages(v)}
        return found

    missing = [{title: page} for page, title in published if page not in pages(nav)]
    if not missing:
        return nav
    out = []
    for entry in nav:
        if isinstance(entry, dict) and isinstance(entry.get("Conformance"), list):
            entry = {"Conformance": entry["Conformance"] + missing}
            missing = []
        out.append(entry)
    return out + missing


def on_page_markdown(markdown: str, page, config, files) -> str:
    """A hand-written page's `N<!-- counts.NAME -->` (the guide's corpus counts) filled in from the corpus."""
    if "<!-- counts." not in markdown:
        return markdown
    problems: list[str] = []
    markdown = docgen_counts.fill(markdown, page.file.src_uri, problems)
    for problem in problems:
        log.warning(problem)
    return markdown


def on_files(files, config):
    if _language(config) == docgen_i18n.DEFAULT:
        problems = _state.get("problems", [])
        for problem in problems:
            log.warning(problem)
        if problems and config.get("strict"):
            # a strict build fails on them anyway: it fails here, before every page of every language is
            # rendered from data that contradicts itself (half a minute), with the problems just logged
            _end_build(config)
            raise PluginError(f"{len(problems)} problem(s) in the data the pages are made from (the warnings "
                              f"above); the build stops before rendering the pages")
    return files


@event_priority(-110)  # after the search plugin wrote the index, and (default language) after every language
def on_post_build(config):
    site = Path(config["site_dir"])
    index = site / "search" / "search_index.json"
    if not index.is_file():
        return
    # The i18n plugin builds the other languages from within the default language's post-build, and leaves
    # its current language at the last one built: `building` tells which build this is.
    nested = getattr(config.plugins.get("i18n"), "building", False)
    lang = _language(config) if nested else docgen_i18n.DEFAULT
    others = tuple(f"{other}/" for other in spec_data.LANGUAGES)
    data = json.loads(index.read_text(encoding="utf-8"))
    if lang != docgen_i18n.DEFAULT:  # this language's pages, located from its own root (see on_post_page)
        docs = [{**e, "location": e["location"][len(lang) + 1:]} for e in data["docs"]
                if e["location"].startswith(f"{lang}/")]
        _state.setdefault("indexes", {})[lang] = {**data, "docs": docs,
                                                   "config": docgen_search.search_config(data["config"], lang)}
        return
    # The default language's build ends last: the i18n plugin has just merged every language into one index.
    spec, gallery = _state["spec"], _state["gallery"]
    ids = {rule.id for rule in spec.rules} | {d.id for d in spec.divergences} | {s.id for s in gallery.scenarios}
    english = docgen_search.tag_ids([e for e in data["docs"] if not e["location"].startswith(others)], ids)
    _write_index(index, {**data, "config": docgen_search.search_config(data["config"], lang), "docs": english})
    # A scenario's ID finds its (English) page from every language too: its page and section titles.
    scenarios = [{**e, "location": "../" + e["location"], "text": ""} for e in english
                 if e["location"].startswith("scenarios/") and e["location"] != "scenarios/"]
    for other, localized in _state.get("indexes", {}).items():
        _write_index(site / other / "search" / "search_index.json",
                     {**localized, "docs": docgen_search.tag_ids(localized["docs"], ids) + scenarios})
    docgen_search.write_languages(site, spec)
    if not config.get("site_url"):  # no address to give: a sitemap would list "None/..." (see mkdocs.yml)
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (site / name).unlink(missing_ok=True)
    _end_build(config)


def _end_build(config) -> None:
    """The scratch docs folder removed and this build's state forgotten: the next build (`mkdocs serve`) makes
    the pages again."""
    if _state.get("docs"):
        shutil.rmtree(_state["docs"], ignore_errors=True)
        config["docs_dir"] = str(_state["source"])  # `mkdocs serve` then watches docs/, not the scratch folder
    _state.clear()


def _write_index(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">[^<]*?"base": ")([^"]*)(")')


def on_post_page(output: str, page, config) -> str:
    """The language switcher and head links (docgen_switcher); a page of another language looks up its search
    index (and resolves its results) from its language's root: the theme's `base` is the site root, one level
    up."""
    lang = _language(config)
    spec = _state.get("spec")
    output = docgen_switcher.rewrite(output, page.url, {c.name for c in spec.chapters} if spec else set())
    if lang == docgen_i18n.DEFAULT:
        return output
    return CONFIG_BASE.sub(lambda m: f"{m[1]}{m[2]}/{lang}/{m[3]}", output, count=1)
