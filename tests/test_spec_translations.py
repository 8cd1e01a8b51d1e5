"""Our texts in other languages (spec/i18n/, spec_check/translations.py): a language that has a glossary must
give every rule a title and statement, name the game's things by its version's words, and never repeat the
rulebook's prose; each broken copy below fails with its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from azul_conformance import spec_data
from azul_conformance.spec_check import check_spec, find_rulebooks

RULEBOOKS = find_rulebooks()
REAL_SPEC = spec_data.default_spec_root()

pytestmark = pytest.mark.skipif(RULEBOOKS is None, reason="rulebooks not found (set AZUL_RULEBOOKS)")

GLOSSARY = """\
language: fr
version: FR
terms:
  floor-line:
    word: rangée de sol
    lines: "000_ed7c8802c5a645fb.txt:21-21"
    also: [rangée au sol]
    not: [plancher, ligne de plancher]
  first-player-marker:
    word: marqueur Premier joueur
    lines: "000_ed7c8802c5a645fb.txt:14-14"
  black:
    word: noir
    note: FR names no colour.
"""


@pytest.fixture
def spec_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the real spec with a French folder of our own making: every rule titled and stated (in
    placeholder French), so that each test breaks one thing."""
    copy = tmp_path / "spec"
    shutil.copytree(REAL_SPEC, copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    folder = copy / "i18n" / "fr"
    if folder.parent.exists():
        shutil.rmtree(folder.parent)
    folder.mkdir(parents=True)
    shutil.copy(REAL_SPEC / "i18n" / "site.yaml", folder.parent / "site.yaml")  # the site's words in English
    (folder / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    for chapter in spec_data.load_spec(REAL_SPEC).chapters:
        rules = {rule.id: {"title": f"Règle {rule.id}", "statement": f"Ce que dit la règle {rule.id}."}
                 for rule in chapter.rules}
        text = yaml.safe_dump({"chapter": chapter.name, "rules": rules}, allow_unicode=True, sort_keys=False)
        (folder / f"{chapter.name}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return copy


def problems(spec: Path) -> list[str]:
    found = check_spec(spec, RULEBOOKS, scenarios_root=None, reference_root=None).problems
    return [str(p) for p in found if "i18n" in (p.file or "")]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def test_a_complete_language_passes_and_loads(spec_copy: Path) -> None:
    assert problems(spec_copy) == []
    french = spec_data.load_spec(spec_copy).translations["fr"]
    assert french.version == "FR" and french.rules["OFFER-5"].statement == "Ce que dit la règle OFFER-5."
    floor = french.terms["floor-line"]
    assert floor.word == "rangée de sol" and str(floor.lines) == "000_ed7c8802c5a645fb.txt:21-21"
    assert floor.forbidden == ("plancher", "ligne de plancher") and french.terms["black"].lines is None
    report = check_spec(spec_copy, RULEBOOKS, scenarios_root=None, reference_root=None)
    assert "rules written in fr 57/57" in report.summary()


def test_a_rule_without_its_statement_fails(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    data = yaml.safe_load(offer.read_text(encoding="utf-8"))
    del data["rules"]["OFFER-5"]
    offer.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert problems(spec_copy) == ["spec/i18n/fr: OFFER-5: no title and statement in fr (offer.yaml)"]


def test_a_chapter_never_written_fails_for_each_of_its_rules(spec_copy: Path) -> None:
    (spec_copy / "i18n" / "fr" / "round.yaml").unlink()
    assert problems(spec_copy) == ["spec/i18n/fr: ROUND-1, ROUND-2, ROUND-3: no title and statement in fr "
                                   "(round.yaml)"]


def test_a_statement_naming_the_floor_line_by_another_word_fails(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    edit(offer, "Ce que dit la règle OFFER-5.", "Le marqueur va sur le Plancher du joueur.")
    line = line_of(offer, "Plancher")
    assert problems(spec_copy) == [
        f"spec/i18n/fr/offer.yaml:{line}: rules.OFFER-5.statement: 'plancher' is not FR's word for the floor "
        "line: 'rangée de sol' (glossary.yaml)"]


def test_the_version_s_own_words_pass(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    edit(offer, "Ce que dit la règle OFFER-5.", "Le marqueur Premier joueur va sur la rangée au sol.")
    edit(offer, "Règle OFFER-6", "Le plancher n'est pas un mot de FR, mais « planchers » n'est pas listé")
    assert [p for p in problems(spec_copy) if "OFFER-5" in p] == []
    assert any("rules.OFFER-6.title: 'plancher'" in p for p in problems(spec_copy))


def test_a_glossary_word_must_be_the_version_s_own(spec_copy: Path) -> None:
    glossary = spec_copy / "i18n" / "fr" / "glossary.yaml"
    edit(glossary, "word: rangée de sol", "word: plancher")
    edit(glossary, "also: [rangée au sol]", "also: [ligne du bas]")
    edit(glossary, '"000_ed7c8802c5a645fb.txt:14-14"', '"000_ed7c8802c5a645fb.txt:80-80"')
    assert problems(spec_copy) == [
        "spec/i18n/fr/glossary.yaml:6: floor-line: 'plancher' does not occur in 000_ed7c8802c5a645fb.txt:21-21",
        "spec/i18n/fr/glossary.yaml:7: floor-line: 'ligne du bas' does not occur in FR's lines",
        "spec/i18n/fr/glossary.yaml:11: first-player-marker: 000_ed7c8802c5a645fb.txt:80-80 is not in FR's "
        "lines (000_ed7c8802c5a645fb.txt)"]


def test_a_text_that_repeats_the_rulebook_fails(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    # eleven words in a row of FR's line 25 (ten would fit in a citation's fragment)
    edit(offer, "Ce que dit la règle OFFER-7.", "Une fois que tous les emplacements d'une rangée de motifs sont "
                                               "occupés, on la dit complète.")
    found = problems(spec_copy)
    assert len(found) == 1 and found[0].startswith(f"spec/i18n/fr/offer.yaml:{line_of(offer, 'Une fois')}: "
                                                   "rules.OFFER-7.statement: repeats the rulebook's words")


def test_keys_must_belong_to_the_chapter(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    data = yaml.safe_load(offer.read_text(encoding="utf-8"))
    data["rules"]["FLOOR-1"] = {"title": "t", "statement": "s"}
    data["rules"]["OFFER-2"]["ruling"] = {"question": "q"}
    data["divergences"] = {"DIV-marker-full-floor": {"title": "t", "summary": "s"}}
    offer.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    found = problems(spec_copy)
    assert any(": FLOOR-1 is not a rule of the chapter offer" in p for p in found), found
    assert any(": OFFER-2: a ruling translated, but the rule has none" in p for p in found), found
    assert any(": DIV-marker-full-floor is not a divergence of the chapter offer" in p for p in found), found


def test_a_reader_of_the_rules_alone_does_not_read_the_translations(spec_copy: Path) -> None:
    """A run's judging needs the rules' IDs and levels, not our texts in other languages (a conform run loaded
    them all: 0.26 s of each run): load_spec(translations=False) leaves spec/i18n/ unread, so that even a
    translation broken beyond reading stops nothing but the pages and `azul spec check`."""
    (spec_copy / "i18n" / "fr" / "offer.yaml").write_text("chapter: [offer\n", encoding="utf-8")
    with pytest.raises(spec_data.SpecError, match="offer.yaml"):
        spec_data.load_spec(spec_copy)
    rules = spec_data.load_spec(spec_copy, translations=False)
    assert rules.translations == {}
    assert rules.rule("OFFER-5").level == spec_data.load_spec(REAL_SPEC).rule("OFFER-5").level


def test_a_malformed_file_is_named_with_its_line(spec_copy: Path) -> None:
    offer = spec_copy / "i18n" / "fr" / "offer.yaml"
    edit(offer, "  OFFER-5:\n    title: Règle OFFER-5\n", "  OFFER-5:\n    titel: Règle OFFER-5\n")
    found = problems(spec_copy)
    assert any(p.startswith(f"spec/i18n/fr/offer.yaml:{line_of(offer, 'OFFER-5:')}:") and "'title'" in p
               for p in found), found
    (spec_copy / "i18n" / "xx").mkdir()
    assert "spec/i18n/xx: not a language of the site (fr, de, it, uk, es, pt)" in problems(spec_copy)


NOTES = """\
language: fr
rules:
  FLOOR-5:
    notes:
      PT: le premier à prendre au centre doit prendre le marqueur
    stated_by: Une décision.
  END-2:
    set_aside:
      IT-2: son bonus ne dit pas pour chaque
divergences:
  DIV-floor-marker-full-floor:
    notes:
      FR: une rangée de sol pleine n'est pas envisagée
"""


def test_notes_and_bases_in_a_language_load_and_are_held_to_the_glossary(spec_copy: Path) -> None:
    notes = spec_copy / "i18n" / "fr" / "notes.yaml"
    notes.write_text(NOTES, encoding="utf-8")
    (spec_copy / "i18n" / "fr" / "scenarios.yaml").write_text(
        "language: fr\ntitles:\n  floor-overflow-to-lid: Le trop-plein va au couvercle\n", encoding="utf-8")
    assert problems(spec_copy) == []
    french = spec_data.load_spec(spec_copy).translations["fr"]
    assert french.notes["FLOOR-5"]["PT"] == "le premier à prendre au centre doit prendre le marqueur"
    assert french.bases["FLOOR-5"] == ("Une décision.", {})
    assert french.bases["END-2"] == (None, {"IT-2": "son bonus ne dit pas pour chaque"})
    assert french.notes["DIV-floor-marker-full-floor"]["FR"] == "une rangée de sol pleine n'est pas envisagée"
    assert french.scenario_titles == {"floor-overflow-to-lid": "Le trop-plein va au couvercle"}

    edit(notes, "une rangée de sol pleine", "un plancher plein")
    line = line_of(notes, "plancher plein")
    assert problems(spec_copy) == [
        f"spec/i18n/fr/notes.yaml:{line}: divergences.DIV-floor-marker-full-floor.notes.FR: 'plancher' is not FR's "
        "word for the floor line: 'rangée de sol' (glossary.yaml)"]


def test_a_note_for_a_version_the_english_has_no_note_for_fails(spec_copy: Path) -> None:
    notes = spec_copy / "i18n" / "fr" / "notes.yaml"
    notes.write_text(NOTES.replace("      PT: le premier", "      XX: x\n      EN: le premier")
                     .replace("      XX: x\n", ""), encoding="utf-8")
    english_note = spec_data.load_spec(REAL_SPEC).rule("FLOOR-5").sources["EN"].note
    assert english_note  # EN has a note on FLOOR-5: the note is accepted
    assert problems(spec_copy) == []
    edit(notes, "  END-2:\n    set_aside:\n      IT-2:", "  END-2:\n    set_aside:\n      FR:")
    assert problems(spec_copy) == [
        f"spec/i18n/fr/notes.yaml:{line_of(notes, '      FR: son bonus')}: END-2: no English set aside for FR to "
        "translate"]


def test_the_site_s_words_of_a_language_have_the_english_keys_and_no_other(spec_copy: Path) -> None:
    (spec_copy / "i18n" / "fr").joinpath("site.yaml").write_text(
        (REAL_SPEC / "i18n" / "fr" / "site.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert problems(spec_copy) == []
    site = spec_copy / "i18n" / "fr" / "site.yaml"
    edit(site, "  our_note: Notre note\n", "  our_notes: Notre note\n")
    line = line_of(site, "ui:")
    assert problems(spec_copy) == [f"spec/i18n/fr/site.yaml:{line}: ui: missing our_note (spec/i18n/site.yaml)",
                                   f"spec/i18n/fr/site.yaml:{line}: ui: our_notes not a key of the site's words"]

