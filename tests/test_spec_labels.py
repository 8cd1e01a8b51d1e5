"""A rule's label for a version agrees with the divergence register on the same lines (spec_check/labels.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from azul_conformance import spec_data
from azul_conformance.spec_check import check_spec, find_rulebooks
from azul_conformance.located import Span
from azul_conformance.spec_check.labels import contradictions

REAL_SPEC = spec_data.default_spec_root()
RULEBOOKS = find_rulebooks()
FILE = "000_ed7c8802c5a645fb.txt"


def rule(version_form: str, citation: str) -> spec_data.Rule:
    sources = {v: spec_data.Source(v, "silent", (), "not here") for v in spec_data.VERSIONS}
    sources["FR"] = spec_data.Source("FR", version_form, (spec_data.Citation.parse(citation),))
    return spec_data.Rule("TILING-2", "tiling", "t", "rule", "s", sources, None, ("DIV-x",), (),
                          Span(7, file="spec/rules/tiling.yaml"))


def divergence(form: str, citation: str, rules: tuple[str, ...] = ("TILING-2",)) -> spec_data.Divergence:
    entry = spec_data.Source("FR", form, (spec_data.Citation.parse(citation),))
    return spec_data.Divergence("DIV-x", "tiling", "t", "error", "s", {"FR": entry}, rules,
                                Span(3, file="spec/divergences/tiling.yaml"))


def test_states_against_diverges_on_overlapping_lines_is_a_contradiction():
    found = contradictions([rule("states", f"{FILE}:33-35")], [divergence("diverges", f"{FILE}:34-34")])
    assert [(c.rule, c.version, c.divergence, c.file, c.line) for c in found] == [
        ("TILING-2", "FR", "DIV-x", "spec/rules/tiling.yaml", 7)]
    assert "FR states in 000_ed7c8802c5a645fb.txt:33-35" in found[0].message
    assert "DIV-x (spec/divergences/tiling.yaml:3) says FR diverges" in found[0].message


@pytest.mark.parametrize("rule_form, register_form, citation", [
    ("states", "states", f"{FILE}:34-34"),       # agree
    ("example", "states", f"{FILE}:34-34"),      # a worked example backs the rule as the text does
    ("printed", "states", f"{FILE}:34-34"),      # the text states it, the board prints its numbers
    ("partly", "states", f"{FILE}:34-34"),       # the text states part of it
    ("diverges", "diverges", f"{FILE}:34-34"),   # agree
    ("states", "diverges", f"{FILE}:36-36"),     # other lines: different points of the same version
])
def test_agreeing_labels_or_other_lines_are_no_contradiction(rule_form, register_form, citation):
    assert contradictions([rule(rule_form, f"{FILE}:34-34")], [divergence(register_form, citation)]) == []


@pytest.mark.parametrize("rule_form", ["printed", "partly"])
def test_a_partial_statement_still_contradicts_a_divergence_on_the_same_lines(rule_form):
    found = contradictions([rule(rule_form, f"{FILE}:34-34")], [divergence("diverges", f"{FILE}:34-34")])
    assert [(c.rule, c.version) for c in found] == [("TILING-2", "FR")]


def test_a_divergence_that_lists_the_rule_is_compared_even_without_the_link_back():
    one_way = rule("diverges", f"{FILE}:34-34")
    one_way = spec_data.Rule(**{**one_way.__dict__, "divergences": ()})
    assert len(contradictions([one_way], [divergence("states", f"{FILE}:34-34")])) == 1
    assert contradictions([one_way], [divergence("states", f"{FILE}:34-34", rules=("TILING-3",))]) == []


def test_the_bundled_spec_has_no_label_contradiction():
    spec = spec_data.load_spec()
    assert [c.message for c in contradictions(spec.rules, spec.divergences)] == []


@pytest.mark.skipif(RULEBOOKS is None, reason="rulebooks not found (set AZUL_RULEBOOKS)")
def test_spec_check_fails_on_a_contradicting_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    copy = tmp_path / "spec"
    shutil.copytree(REAL_SPEC, copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    monkeypatch.chdir(tmp_path)
    register = copy / "divergences" / "tiling.yaml"
    text = register.read_text(encoding="utf-8")
    old = 'FR: {states: "000_ed7c8802c5a645fb.txt:35-35"'
    assert text.count(old) == 1
    register.write_text(text.replace(old, 'FR: {diverges: "000_ed7c8802c5a645fb.txt:35-35"'), encoding="utf-8")
    problems = [str(p) for p in check_spec(copy, RULEBOOKS, scenarios_root=None, reference_root=None).problems]
    rules = (copy / "rules" / "tiling.yaml").read_text(encoding="utf-8").split("\n")
    line = next(i for i, t in enumerate(rules) if "id: TILING-3" in t) + 1
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"spec/rules/tiling.yaml:{line}: TILING-3: FR states in {FILE}:35-35, but "
                                  f"DIV-tiling-next-turn-wording (spec/divergences/tiling.yaml:")
