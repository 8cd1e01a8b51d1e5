"""`azul spec check`: passes on the real spec; on broken copies, fails with the right `file:line` messages.

Every broken copy changes one thing in a copy of the real spec (in tmp_path); the expected line is found by
looking for the changed text in the copy, so the test states where the problem is, not what the checker said.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance import spec_data
from azul_conformance.cli.spec import spec as spec_group
from azul_conformance.spec_check import check_spec, find_rulebooks

RULEBOOKS = find_rulebooks()
REAL_SPEC = spec_data.default_spec_root()
FILE_000 = "000_ed7c8802c5a645fb.txt"

pytestmark = pytest.mark.skipif(RULEBOOKS is None, reason="rulebooks not found (set AZUL_RULEBOOKS)")


@pytest.fixture
def spec_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the real spec; the working folder is tmp_path, so messages read `spec/...`."""
    copy = tmp_path / "spec"
    shutil.copytree(REAL_SPEC, copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    monkeypatch.chdir(tmp_path)
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, needle: str, after: str | None = None) -> int:
    """1-based line of the first line containing `needle` (after the line containing `after`, if given)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    return next(i for i, text in enumerate(lines) if i >= start and needle in text) + 1


def problems(spec: Path, **kwargs) -> list[str]:
    """The problems of the English spec: a broken rule also shows in its translations (a ruling translated for
    a rule no longer a ruling), which tests/test_spec_translations.py holds to account."""
    kwargs.setdefault("scenarios_root", None)
    kwargs.setdefault("reference_root", None)
    return [str(p) for p in check_spec(spec, RULEBOOKS, **kwargs).problems if "/i18n/" not in str(p.file)]


def test_the_real_spec_passes() -> None:
    report = check_spec(REAL_SPEC, RULEBOOKS)
    assert report.problems == [], "\n".join(map(str, report.problems))
    assert report.stats.covered == report.stats.lines > 500


def test_the_copy_passes_too(spec_copy: Path) -> None:
    assert problems(spec_copy) == []


def test_a_copy_is_held_to_its_own_schemas_as_they_are_when_checked(spec_copy: Path) -> None:
    """What the checker keeps of a check (each text's document, what each schema found in it) never answers for
    a copy whose schema or data changed since: the same files checked again after an edit of the schema fail."""
    assert problems(spec_copy) == []
    schema = spec_copy / "schema" / "versions.schema.json"
    edit(schema, '"required": ["standing", "why"]', '"required": ["standing", "why", "since"]')
    line = line_of(spec_copy / "versions.yaml", "FR:")
    assert f"spec/versions.yaml:{line}: versions.FR: 'since' is a required property" in problems(spec_copy)
    edit(schema, '"required": ["standing", "why", "since"]', '"required": ["standing", "why"]')
    assert problems(spec_copy) == []


def test_a_missing_version_is_reported_at_the_rule_sources(spec_copy: Path) -> None:
    offer = spec_copy / "rules" / "offer.yaml"
    pt_line = line_of(offer, "PT: {diverges", after="id: OFFER-5")
    lines = offer.read_text(encoding="utf-8").split("\n")
    del lines[pt_line - 1]
    offer.write_text("\n".join(lines), encoding="utf-8")
    sources = line_of(offer, "sources:", after="id: OFFER-5")
    assert (f"spec/rules/offer.yaml:{sources}: OFFER-5: rules[4].sources: no source for version PT "
            "(every rule cites all 8 versions)") in problems(spec_copy)


def test_a_duplicate_rule_id_names_both_places(spec_copy: Path) -> None:
    offer = spec_copy / "rules" / "offer.yaml"
    first = line_of(offer, "id: OFFER-5")
    edit(offer, "  - id: OFFER-6\n", "  - id: OFFER-5\n")
    second = line_of(offer, "title: A take needs a tile") - 1
    found = problems(spec_copy)
    assert (f"spec/rules/offer.yaml:{second}: duplicate rule ID OFFER-5 "
            f"(first defined at spec/rules/offer.yaml:{first})") in found


def test_an_uncovered_rulebook_line_is_reported_as_file_and_line(spec_copy: Path) -> None:
    clauses = spec_copy / "clauses" / "000_ed7c8802c5a645fb.yaml"
    edit(clauses, '  - {lines: "28-28", version: FR, normative: false, reason: "section heading"}\n', "")
    assert problems(spec_copy) == [f"{FILE_000}:28: not covered by any clause (line 28)"]


def test_overlapping_clauses_are_reported_with_both_clauses(spec_copy: Path) -> None:
    clauses = spec_copy / "clauses" / "000_ed7c8802c5a645fb.yaml"
    edit(clauses, '{lines: "13-13", version: FR', '{lines: "12-13", version: FR')
    first, second = line_of(clauses, '"9-12"'), line_of(clauses, '"12-13"')
    where = "spec/clauses/000_ed7c8802c5a645fb.yaml"
    assert f"{FILE_000}:12: covered by 2 clauses (line 12): {where}:{first}, {where}:{second}" in problems(spec_copy)


def test_an_unknown_rule_id_in_a_clause(spec_copy: Path) -> None:
    clauses = spec_copy / "clauses" / "000_ed7c8802c5a645fb.yaml"
    edit(clauses, '"24-24", version: FR, normative: true, kind: text, rules: [OFFER-8]',
         '"24-24", version: FR, normative: true, kind: text, rules: [OFFER-99]')
    line = line_of(clauses, "OFFER-99")
    where = "spec/clauses/000_ed7c8802c5a645fb.yaml"
    assert f"{where}:{line}: clause line 24: unknown rule ID OFFER-99" in problems(spec_copy)


def test_a_citation_beyond_the_end_of_the_file(spec_copy: Path) -> None:
    setup = spec_copy / "rules" / "setup.yaml"
    edit(setup, 'FR: {states: "000_ed7c8802c5a645fb.txt:8-8"', 'FR: {states: "000_ed7c8802c5a645fb.txt:8-300"')
    line = line_of(setup, "8-300")
    assert problems(spec_copy) == [
        f"spec/rules/setup.yaml:{line}: SETUP-2: FR cites {FILE_000}:8-300: beyond the end of {FILE_000} (234 lines)"]


def test_a_citation_into_another_versions_lines(spec_copy: Path) -> None:
    setup = spec_copy / "rules" / "setup.yaml"
    edit(setup, 'FR: {states: "000_ed7c8802c5a645fb.txt:8-8", fragment: "case 0"}',
         'FR: {states: "000_ed7c8802c5a645fb.txt:66-66"}')
    line = line_of(setup, "txt:66-66")
    found = problems(spec_copy)
    wanted = f"spec/rules/setup.yaml:{line}: SETUP-2: FR cites {FILE_000}:66-66, but lines 66-66 belong to DE"
    assert any(p.startswith(wanted) for p in found), found


def test_a_fragment_must_occur_in_the_cited_lines(spec_copy: Path) -> None:
    setup = spec_copy / "rules" / "setup.yaml"
    edit(setup, 'fragment: "case 0"', 'fragment: "case 1"')
    line = line_of(setup, '"case 1"')
    assert problems(spec_copy) == [
        f"spec/rules/setup.yaml:{line}: SETUP-2: FR: fragment 'case 1' does not occur in {FILE_000}:8-8 "
        f"(nor anywhere in FR's lines)"]


def test_a_ruling_needs_a_ruling_block(spec_copy: Path) -> None:
    offer = spec_copy / "rules" / "offer.yaml"
    rule_line = line_of(offer, "id: OFFER-2")
    edit(offer, "    title: A factory take takes every tile of the colour\n    level: rule\n",
         "    title: A factory take takes every tile of the colour\n    level: ruling\n")
    assert problems(spec_copy) == [
        f"spec/rules/offer.yaml:{rule_line}: OFFER-2: rules[1]: 'ruling' is a required property"]


def test_divergence_links_must_go_both_ways(spec_copy: Path) -> None:
    offer = spec_copy / "rules" / "offer.yaml"
    edit(offer, "    divergences: [DIV-offer-full-line]\n", "")
    line = line_of(spec_copy / "divergences" / "offer.yaml", "rules: [OFFER-12]")
    assert problems(spec_copy) == [f"spec/divergences/offer.yaml:{line}: DIV-offer-full-line lists OFFER-12, "
                                   "but OFFER-12 does not list DIV-offer-full-line in its divergences"]


def test_yaml_syntax_errors_name_line_and_column(spec_copy: Path) -> None:
    deal = spec_copy / "rules" / "deal.yaml"
    edit(deal, "title: The deal\n", "title: [The deal\n")
    found = problems(spec_copy)
    assert any(p.startswith("spec/rules/deal.yaml:") and "not valid YAML" in p for p in found), found
    assert not any("unknown rule ID DEAL-" in p for p in found), "a broken chapter must not cascade"


def test_rule_ids_in_scenarios_and_the_reference_engine(spec_copy: Path, tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios" / "offer"
    scenarios.mkdir(parents=True)
    (scenarios / "s.yaml").write_text("# takes\n- id: take\n  title: A take\n  rules: [OFFER-5, OFFER-77]\n"
                                      "  level: rule\n  given: 'factories: 1: RRRR'\n  steps: 1R1\n"
                                      "  expect: board 0 line 1 = R\n", encoding="utf-8")
    (scenarios / "broken.yaml").write_text("- id: [\n", encoding="utf-8")
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "game.py").write_text('"""Takes."""\n# OFFER-2 and FLOOR-44\n', encoding="utf-8")
    found = problems(spec_copy, scenarios_root=tmp_path / "scenarios", reference_root=engine)
    assert [line.splitlines()[0] for line in found] == [
        "engine/game.py:2: unknown rule ID FLOOR-44 in the reference engine",
        "scenarios/offer/broken.yaml:2:1: not valid YAML: expected the node content, but found '<stream end>'",
        "scenarios/offer/s.yaml:2: take: unknown rule ID 'OFFER-77' in its rules"]


def test_cli_passes_on_the_real_spec() -> None:
    result = CliRunner().invoke(spec_group, ["check", "--rulebooks", str(RULEBOOKS)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("spec check passed: ")
    quiet = CliRunner().invoke(spec_group, ["check", "--rulebooks", str(RULEBOOKS), "--quiet"])
    assert (quiet.exit_code, quiet.output) == (0, "")


def test_cli_fails_on_a_broken_spec(spec_copy: Path) -> None:
    edit(spec_copy / "clauses" / "000_ed7c8802c5a645fb.yaml",
         '  - {lines: "28-28", version: FR, normative: false, reason: "section heading"}\n', "")
    result = CliRunner().invoke(spec_group, ["check", "--rulebooks", str(RULEBOOKS), "--spec", str(spec_copy)])
    assert result.exit_code == 1
    assert f"{FILE_000}:28: not covered by any clause (line 28)" in result.output


@pytest.mark.parametrize(("ci", "code", "label"), [("", 2, "warning"), ("true", 1, "error")])
def test_cli_without_rulebooks(monkeypatch: pytest.MonkeyPatch, ci: str, code: int, label: str) -> None:
    monkeypatch.setattr("azul_conformance.spec_check.find_rulebooks", lambda explicit=None: None)
    monkeypatch.delenv("AZUL_RULEBOOKS", raising=False)  # set, it gets its own message (the test below)
    monkeypatch.setenv("CI", ci)
    result = CliRunner().invoke(spec_group, ["check"])
    assert result.exit_code == code
    assert f"{label}: rulebooks not found" in result.output


def test_cli_names_a_wrong_azul_rulebooks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AZUL_RULEBOOKS", str(tmp_path))  # an empty folder: it wins over the default place
    monkeypatch.setenv("CI", "")
    result = CliRunner().invoke(spec_group, ["check"])
    assert result.exit_code == 2
    assert f"warning: AZUL_RULEBOOKS={tmp_path} holds no rulebook (*.txt) files" in result.output


def test_cli_help_has_an_example() -> None:
    result = CliRunner().invoke(spec_group, ["check", "--help"])
    assert result.exit_code == 0 and "azul spec check --rulebooks" in result.output


def test_loader_api() -> None:
    spec = spec_data.load_spec()
    assert [c.name for c in spec.chapters][:4] == ["setup", "deal", "offer", "floor"]
    marker = spec.rule("OFFER-5")
    assert marker.chapter == "offer" and marker.level == "rule"
    assert marker.sources["FR"].citations == (spec_data.Citation(FILE_000, 21, 21),)
    assert marker.sources["PT"].form == "diverges"
    assert spec.rule("FLOOR-5").ruling.authority == "bga"
    assert spec.divergence("DIV-offer-full-line").rules == ("OFFER-12",)
    assert any(c.first == 21 and c.version == "FR" and "OFFER-5" in c.rules for cs in spec.clauses.values() for c in cs)
    with pytest.raises(KeyError, match="OFFER-99"):
        spec.rule("OFFER-99")


# --- every citation proves itself: moved citations fail --------------------------------------------------

FILE_001, FILE_003 = "001_b25c00830c6833ba.txt", "003_61442af9175a896f.txt"


def test_a_citation_needs_a_fragment(spec_copy: Path) -> None:
    setup = spec_copy / "rules" / "setup.yaml"
    edit(setup, 'FR: {states: "000_ed7c8802c5a645fb.txt:8-8", fragment: "case 0"}',
         'FR: {states: "000_ed7c8802c5a645fb.txt:8-8"}')
    line = line_of(setup, "txt:8-8")
    assert problems(spec_copy) == [
        f"spec/rules/setup.yaml:{line}: SETUP-2: FR: no fragment for {FILE_000}:8-8: quote a few words of the cited "
        f"lines, in FR's own language, that carry the point"]


def test_each_citation_needs_its_own_fragment(spec_copy: Path) -> None:
    end = spec_copy / "rules" / "end.yaml"
    edit(end, 'fragment: ["підрахуйте додаткові очки", "7 балів за кожну завершену вертикальну лінію"]',
         'fragment: "7 балів за кожну завершену вертикальну лінію"')
    line = line_of(end, '"7 балів за кожну завершену вертикальну лінію"}')
    assert problems(spec_copy) == [
        f"spec/rules/end.yaml:{line}: END-3: UK: 2 citations but 1 fragment: give one fragment per citation, in the "
        f"same order",
        f"spec/rules/end.yaml:{line}: END-3: UK: fragment '7 балів за кожну завершену вертикальну лінію' does not "
        f"occur in {FILE_001}:60-60 (it occurs at line 62)"]


def test_a_fragment_found_only_outside_the_cited_lines_names_where(spec_copy: Path) -> None:
    """The issue's moves: END-3 UK to 001:60, SCORE-2 UK to 001:49, OFFER-1 PT's divergence to 003:100."""
    end, scoring, offer = (spec_copy / "rules" / name for name in ("end.yaml", "scoring.yaml", "offer.yaml"))
    edit(end, 'UK: {states: ["001_b25c00830c6833ba.txt:60-60", "001_b25c00830c6833ba.txt:62-62"], '
              'fragment: ["підрахуйте додаткові очки", "7 балів за кожну завершену вертикальну лінію"]}',
         'UK: {states: "001_b25c00830c6833ba.txt:60-60", fragment: "7 балів за кожну завершену вертикальну лінію"}')
    edit(scoring, 'UK: {states: "001_b25c00830c6833ba.txt:49-51"', 'UK: {states: "001_b25c00830c6833ba.txt:49-49"')
    edit(offer, 'PT: {diverges: "003_61442af9175a896f.txt:53-54"', 'PT: {diverges: "003_61442af9175a896f.txt:100-100"')
    found = problems(spec_copy)
    end_line, score_line = line_of(end, "txt:60-60\", fragment: \"7"), line_of(scoring, "txt:49-49")
    offer_line = line_of(offer, "txt:100-100")
    assert (f"spec/rules/end.yaml:{end_line}: END-3: UK: fragment '7 балів за кожну завершену вертикальну лінію' "
            f"does not occur in {FILE_001}:60-60 (it occurs at line 62)") in found
    assert (f"spec/rules/scoring.yaml:{score_line}: SCORE-2: UK: fragment 'включаючи і за щойно переміщену плитку' "
            f"does not occur in {FILE_001}:49-49 (it occurs at line 50, 51)") in found
    assert f"spec/rules/offer.yaml:{offer_line}: OFFER-1: PT: fragment 'O jogador inicial começa' does not occur " \
           f"in {FILE_003}:100-100 (it occurs at line 53)" in found
    assert any(p.startswith(f"spec/rules/offer.yaml:{offer_line}: OFFER-1: PT diverges in {FILE_003}:100-100, but no "
                            f"divergence of the rule records PT at those lines") for p in found), found
    assert len(found) == 4, found


def test_a_silent_note_that_names_a_line_must_quote_it(spec_copy: Path) -> None:
    floor = spec_copy / "rules" / "floor.yaml"
    text = floor.read_text(encoding="utf-8")
    old = ('PT: {silent: "floor tiles cost points (86) but neither how many nor that the cost depends on the space", '
           'near: "003_61442af9175a896f.txt:86-86"')
    assert old in text
    edit(floor, old, old.replace("(86)", "(85)"))
    line = line_of(floor, "cost points (85)")
    assert problems(spec_copy) == [
        f"spec/rules/floor.yaml:{line}: FLOOR-3: PT: the silent note names line 85, which is in none of its citations "
        f"or `near` ranges: list {FILE_003}:85-85 in `near` with a fragment of its words"]
    edit(floor, 'near: "003_61442af9175a896f.txt:86-86"', 'near: "003_61442af9175a896f.txt:85-85"')
    edit(floor, "cost points (85)", "cost points (86)")
    found = problems(spec_copy)
    assert any("FLOOR-3: PT: the silent note names line 86" in p for p in found), found
    assert any("FLOOR-3: PT: fragment 'Pontos negativos para azulejos no chão' does not occur in "
               f"{FILE_003}:85-85" in p for p in found), found


def test_any_note_that_names_a_line_outside_its_citations_must_quote_it(spec_copy: Path) -> None:
    """FLOOR-3 ES states at 123 and its note names the Peter example (127): 127 is quoted in `near`."""
    floor = spec_copy / "rules" / "floor.yaml"
    edit(floor, 'near: "002_78cb4839c43a4ac6.txt:127-127", ', "")
    edit(floor, '["indicados directamente encima de ella", "Peter pierde un total de 8 puntos"]',
         '"indicados directamente encima de ella"')
    line = line_of(floor, "the Peter example (127)")
    assert problems(spec_copy) == [
        f"spec/rules/floor.yaml:{line}: FLOOR-3: ES: the note names line 127, which is in none of its citations or "
        f"`near` ranges: list 002_78cb4839c43a4ac6.txt:127-127 in `near` with a fragment of its words"]


def test_line_breaks_and_hyphenation_are_normalised() -> None:
    from azul_conformance.spec_check.citations import contains
    assert contains("Geh deine Muster-\nreihen von oben", "Musterreihen von oben")
    assert contains("the First-\n  Player marker", "First-Player marker")
    assert contains("l\u2019emplacement   vide\nle plus", "l'emplacement vide le plus")
    assert not contains("de gauche à droite", "de droite à gauche")


def _citations(loaded):
    """Every cited line range with its fragment: (kind, owner ID, version, index, citation, fragment)."""
    for _, _, rule in loaded.rules():
        for version, source in rule.sources.items():
            for index, (citation, fragment) in enumerate(source.quoted()):
                yield "rule", rule.id, version, index, citation, fragment
    for _, _, divergence in loaded.divergences:
        for version, source in divergence.versions.items():
            for index, (citation, fragment) in enumerate(source.quoted()):
                yield "divergence", divergence.id, version, index, citation, fragment


def _moved(loaded, kind: str, owner: str, version: str, index: int, target):
    """A copy of the loaded spec with one quoted line range of one source (its index in `quoted()`: the
    citations, then the `near` ranges) moved to `target`."""
    import copy
    import dataclasses

    def move(source):
        field, at = ("citations", index) if index < len(source.citations) else ("near", index - len(source.citations))
        cited = list(getattr(source, field))
        cited[at] = target
        return dataclasses.replace(source, **{field: tuple(cited)})

    mutant = copy.copy(loaded)
    if kind == "rule":
        mutant.chapters = []
        for document, chapter in loaded.chapters:
            rules = tuple(dataclasses.replace(r, sources={**r.sources, version: move(r.sources[version])})
                          if r.id == owner else r for r in chapter.rules)
            mutant.chapters.append((document, dataclasses.replace(chapter, rules=rules)))
    else:
        mutant.divergences = [
            (document, i, dataclasses.replace(d, versions={**d.versions, version: move(d.versions[version])})
             if d.id == owner else d) for document, i, d in loaded.divergences]
    return mutant


def _target(loaded, rng, version: str, citation, fragment: str):
    """A range of the same length among the version's own lines, away from the citation, without the fragment."""
    from azul_conformance.spec_check.citations import contains

    lines = loaded.version_lines(version)
    length = citation.last - citation.first
    starts = [n for n in lines if n + length in lines and not citation.overlaps(n, n + length)]
    rng.shuffle(starts)
    for start in starts:
        moved = spec_data.Citation(citation.file, start, start + length)
        if loaded.books[citation.file][start - 1].strip() and not contains(loaded.cited_text(moved), fragment):
            return moved
    raise AssertionError(f"no line range of {version} lacks {fragment!r}")


PER_VERSION = 6


def test_every_moved_citation_fails_a_seeded_sample_across_all_versions() -> None:
    """Mutation test of the checker: move one citation at a time to other lines of its own version (a seeded
    sample of PER_VERSION per version, rules and register alike, plus the issue's three) and require a problem that
    names the moved citation each time (each a check of the whole spec: about a second). The unmoved spec passes
    (test_the_real_spec_passes)."""
    import random

    from azul_conformance.spec_check import check_loaded
    from azul_conformance.spec_check.loading import load

    loaded, read_problems = load(REAL_SPEC, RULEBOOKS)
    assert read_problems == []
    rng = random.Random(24)
    everything = list(_citations(loaded))
    assert all(fragment for *_, fragment in everything), "every citation has a fragment"
    sample = []
    for version in spec_data.VERSIONS:
        sample += rng.sample([c for c in everything if c[2] == version], PER_VERSION)
    named = {("rule", "END-3", "UK", 1): "001_b25c00830c6833ba.txt:60-60",
             ("rule", "SCORE-2", "UK", 0): "001_b25c00830c6833ba.txt:49-49",
             ("rule", "OFFER-1", "PT", 0): "003_61442af9175a896f.txt:100-100",
             ("divergence", "DIV-offer-pt-walkthrough-omissions", "PT", 0): "003_61442af9175a896f.txt:100-100"}
    survivors = []
    cases = [(c, _target(loaded, rng, c[2], c[4], c[5])) for c in sample]
    cases += [(c, spec_data.Citation.parse(named[c[:4]])) for c in everything if c[:4] in named]
    assert len(cases) == 8 * PER_VERSION + len(named)
    for (kind, owner, version, index, citation, fragment), target in cases:
        found = check_loaded(_moved(loaded, kind, owner, version, index, target))
        if not any(f"{owner}: {version}" in p.message and str(target) in p.message for p in found):
            survivors.append(f"{owner} {version} {citation} -> {target}: {[p.message for p in found]}")
    assert survivors == [], "\n".join(survivors)


# --- every level states its basis ------------------------------------------------------------------------


def test_a_rule_whose_basis_omits_a_diverging_version_fails(spec_copy: Path) -> None:
    floor = spec_copy / "rules" / "floor.yaml"
    text = floor.read_text(encoding="utf-8")
    start = text.index("id: FLOOR-4")
    aside = text.index("      set_aside:\n        UK:", start)
    end = text.index("\n", text.index("        UK:", aside)) + 1
    floor.write_text(text[:aside] + text[end:], encoding="utf-8")
    line = line_of(floor, "basis:", after="id: FLOOR-4")
    assert problems(spec_copy) == [
        f"spec/rules/floor.yaml:{line}: FLOOR-4: level rule, but UK diverges ({FILE_001}:26-26, {FILE_001}:52-52) "
        f"and the basis does not say why UK does not decide: set it aside in basis.set_aside, or make the rule a "
        f"ruling"]


def test_a_reason_must_fit_the_versions_standing(spec_copy: Path) -> None:
    floor = spec_copy / "rules" / "floor.yaml"
    edit(floor, "        UK: {because: worked-example,", "        UK: {because: unofficial-summary,")
    line = line_of(floor, "UK: {because: unofficial-summary")
    assert problems(spec_copy) == [f"spec/rules/floor.yaml:{line}: FLOOR-4: UK set aside as unofficial-summary, but "
                                   f"spec/versions.yaml gives UK the standing official"]


def test_a_rule_only_an_unofficial_version_states_is_not_a_rule(spec_copy: Path) -> None:
    """OFFER-6 rests on the unofficial IT-2 summary alone: as a level rule, it fails."""
    offer = spec_copy / "rules" / "offer.yaml"
    text = offer.read_text(encoding="utf-8")
    start = text.index("id: OFFER-6")
    ruling, end = text.index("    ruling:\n", start), text.index("    divergences: [DIV-offer-empty-source]", start)
    offer.write_text(text[:start] + text[start:ruling].replace("level: ruling", "level: rule") + text[end:],
                     encoding="utf-8")
    line = line_of(offer, "basis:", after="id: OFFER-6")
    assert problems(spec_copy) == [f"spec/rules/offer.yaml:{line}: OFFER-6: level rule, but no official version "
                                   f"states it (only IT-2): make it a ruling and name its authority"]


def test_the_versions_file_gives_every_version_a_standing() -> None:
    spec = spec_data.load_spec()
    assert {v: s for v, (s, _) in spec.standings.items()} == {
        "FR": "official", "DE": "official", "EN": "official", "IT": "official", "UK": "official", "ES": "official",
        "PT": "walk-through", "IT-2": "unofficial-summary"}
    for rule in spec.rules:
        diverging = {v for v, s in rule.sources.items() if s.form == "diverges"}
        assert rule.basis is not None and rule.basis.stated_by
        if rule.level == "rule":
            assert diverging <= set(rule.basis.set_aside), rule.id
