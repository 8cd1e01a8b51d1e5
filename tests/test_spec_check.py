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
    kwargs.setdefault("scenarios_root", None)
    kwargs.setdefault("reference_root", None)
    return [str(p) for p in check_spec(spec, RULEBOOKS, **kwargs).problems]


def test_the_real_spec_passes() -> None:
    report = check_spec(REAL_SPEC, RULEBOOKS)
    assert report.problems == [], "\n".join(map(str, report.problems))
    assert report.stats.covered == report.stats.lines > 500


def test_the_copy_passes_too(spec_copy: Path) -> None:
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
        f"spec/rules/setup.yaml:{line}: SETUP-2: FR: fragment 'case 1' does not occur in {FILE_000}:8-8"]


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
    monkeypatch.setattr("azul_conformance.cli.spec.find_rulebooks", lambda explicit=None: None)
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
