"""mkdocs hook: generate the rule, divergence, version, clause, scenario, matrix, catch-power and CLI pages at build
time, and fill in the corpus counts a hand-written page quotes (`N<!-- counts.NAME -->`, see docgen_counts).

The pages are made from what the package itself loads: the spec by azul_conformance.spec_data, the scenarios by
the scenario loader (and drawn after the scenario runner's run on the reference engine), the reports by
azul_conformance.harness.report. $AZUL_DOCS_SPEC, $AZUL_DOCS_SCENARIOS and $AZUL_DOCS_REPORTS point elsewhere
(the tests' fixtures).

Nothing generated is written into docs/ or kept in git: the pages exist only as in-memory files of the build,
made from spec/ and the scenarios every time, so they cannot drift from the data.
Real inconsistencies (a link that cannot land, a duplicate ID, a YAML error) are logged as warnings, which
`mkdocs build --strict` turns into a failed build; data that simply is not written yet gives a page that says so.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mkdocs.structure.files import File, Files

from azul_conformance import spec_data
from azul_conformance.scenario import corpus_root
from azul_conformance.spec_check import check_links
from azul_conformance.spec_data import VERSION_NAMES, VERSIONS

import docgen_clauses
import docgen_counts
import docgen_mutation
import docgen_reports
import docgen_rules
import docgen_scenarios
import docgen_versions

log = logging.getLogger("mkdocs.plugins.azul_docs")
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
    pages = {"rules/index.md": docgen_rules.rules_index_page(spec, by_rule),
             "rules/all.md": docgen_rules.one_page_rulebook(spec),
             "divergences.md": docgen_rules.divergences_page(spec),
             "clauses/index.md": docgen_clauses.index_page(spec),
             "scenarios/index.md": docgen_scenarios.index_page(gallery),
             "reference/cli.md": docgen_reports.cli_page()}
    for chapter in spec.chapters:
        pages[f"rules/{chapter.name}.md"] = docgen_rules.chapter_page(spec, chapter, by_rule)
    pages["versions/index.md"] = docgen_versions.index_page(spec)
    for version in VERSIONS:
        pages[f"clauses/{version}.md"] = docgen_clauses.version_page(spec, version)
        pages[f"versions/{version}.md"] = docgen_versions.version_page(spec, version)
    for group, items in gallery.groups().items():
        pages[f"scenarios/{group}.md"] = docgen_scenarios.group_page(spec, group, items)
    reports = Path(os.environ.get("AZUL_DOCS_REPORTS") or Path(config["docs_dir"]) / "reports")
    own = reports.resolve() == (Path(config["docs_dir"]) / "reports").resolve()
    pages["conformance-matrix.md"] = docgen_reports.matrix_page(spec, reports, problems, "reports/" if own else None)
    urls = {scenario.id: gallery.url(scenario) for scenario in gallery.scenarios}
    pages["mutation.md"] = docgen_mutation.page(spec, urls, reports / "mutation", problems)
    pages["reference/example-state.svg"] = _example_svg(Path(config["docs_dir"]), problems)
    pages.update(_round_frames(Path(config["docs_dir"]), problems))
    _state.update(spec=spec, gallery=gallery, problems=problems)
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


def on_config(config):
    _state["pages"] = _pages(config)
    spec, gallery = _state["spec"], _state["gallery"]
    sections = {
        "rules/index.md": [{"The rules on one page": "rules/all.md"}]
        + [{c.title: f"rules/{c.name}.md"} for c in spec.chapters],
        "clauses/index.md": [{f"{v} {VERSION_NAMES[v]}": f"clauses/{v}.md"} for v in VERSIONS],
        "versions/index.md": [{f"{v} {VERSION_NAMES[v]}": f"versions/{v}.md"} for v in VERSIONS],
        "scenarios/index.md": [{g: f"scenarios/{g}.md"} for g in gallery.groups()],
    }
    if config.get("nav"):
        config["nav"] = _expand(config["nav"], sections)
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    """A hand-written page's `N<!-- counts.NAME -->` (the guide's corpus counts) filled in from the corpus."""
    if "<!-- counts." not in markdown:
        return markdown
    problems: list[str] = []
    markdown = docgen_counts.fill(markdown, page.file.src_uri, problems)
    for problem in problems:
        log.warning(problem)
    return markdown


def on_files(files: Files, config) -> Files:
    for src_uri, content in sorted(_state.get("pages", {}).items()):
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, src_uri, content=content))
    for problem in _state.get("problems", []):
        log.warning(problem)
    return files
