"""The YAML reader's two engines: libyaml's parser (fast) and PyYAML's own (the reference). Whatever the text,
the one reader gives what the reference alone gives: the same data, the same node positions the located errors
are built from, and for a malformed file the same error at the same line and column.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azul_conformance import readers
from azul_conformance.scenario.errors import ScenarioError
from azul_conformance.scenario.loader import load_text, scenario_files
from hostile_files import BASE_SCENARIO, mutations

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(readers._FastLoader is None, reason="PyYAML was built without libyaml")

# the base of the hostile-file tests, with its steps in a quoted scalar and its assertion in a list
GOOD = BASE_SCENARIO.replace("  steps: |\n    1B1\n", '  steps: "1B1"\n').replace(
    "  expect: |\n    board 0 line 1 = B\n", "  expect:\n    - board 0 line 1 = B\n")


def shape(node: yaml.Node | None):
    """What the loaders build on a node tree: kinds, tags, values, scalar styles and where each node starts."""
    if node is None:
        return None
    where = (type(node).__name__, node.tag, node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (*where, node.value, node.style)
    if isinstance(node, yaml.SequenceNode):
        return (*where, [shape(item) for item in node.value])
    return (*where, [(shape(key), shape(value)) for key, value in node.value])


def outcome(text: str, monkeypatch, fast: bool):
    """What readers.compose gives for `text`, with libyaml (when the text allows it) or with PyYAML alone."""
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(readers, "_FastLoader", None)
        try:
            node, data = readers.compose(text)
        except yaml.YAMLError as error:
            return "refused", str(error)
    return shape(node), data


def scenario_error(text: str, monkeypatch, fast: bool) -> tuple[str, int | None, int | None]:
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(readers, "_FastLoader", None)
        with pytest.raises(ScenarioError) as caught:
            load_text(text, "bad.yaml")
    return str(caught.value), caught.value.line, caught.value.column


def our_yaml_files() -> list[Path]:
    return scenario_files() + sorted((ROOT / "spec").rglob("*.yaml"))


def test_libyaml_reads_the_corpus_and_the_spec_as_pyyaml_does(monkeypatch):
    for path in our_yaml_files():
        text = path.read_text(encoding="utf-8")
        assert outcome(text, monkeypatch, True) == outcome(text, monkeypatch, False), path


def test_libyaml_does_read_the_files_without_the_characters_it_reads_differently(monkeypatch):
    def no_pyyaml(text):
        raise AssertionError("PyYAML's reader was used")

    fast = [p for p in our_yaml_files() if not readers._PYYAML_OWN.search(p.read_text(encoding="utf-8"))]
    assert len(fast) > 40  # nearly every file: only a `?` here and there sends one to PyYAML
    monkeypatch.setattr(readers, "_Loader", no_pyyaml)
    for path in fast:
        readers.compose(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("malformed", [
    GOOD.replace("  level: rule", "  level: rule\n level: again"),  # indentation
    GOOD.replace('"1B1"', '"1B1'),  # a quote left open
    GOOD.replace("title: a", "title: a: b"),  # a mapping where a value was
    GOOD.replace("rules: [OFFER-1]", "rules: [OFFER-1"),  # a flow sequence left open
    GOOD.replace("rules: [OFFER-1]", "rules: &r [OFFER-1]\n  sources: *r"),  # an alias
    GOOD.replace("rules: [OFFER-1]", "rules: [OFFER-1?]"),  # `?` in a flow sequence (libyaml would accept it)
    GOOD.replace("title: a well", "title: a\twell"),  # a tab in a plain scalar (libyaml would accept it)
    GOOD.replace("title: a well", "title: a \x1b well"),  # a control character
    GOOD.replace("level: rule", "level: " + "[" * 70 + "]" * 70),  # nesting
    GOOD.replace("level: rule", "level: 1" + "0" * 200),  # a number of 201 digits
    GOOD.replace("level: rule", "level: rules"),  # the schema
    GOOD.replace("level: rule", "level: rule\n  colour: blue"),  # the schema: a field no scenario has
    GOOD.replace("1: BBYR", "1: BBYQ"),  # the scenario language, in a block scalar
    GOOD.replace('"1B1"', '"1B9"'),  # the scenario language, in a quoted scalar
    GOOD.replace("board 0 line 1 = B", "board 0 lines 1 = B"),  # the scenario language, in a list item
    "- id: x\n\ufefftitle: y\n",  # a byte-order mark after the start
    "- [a, b]\r\n- c: d\r\n  e\n",  # a line break of another system
])
def test_a_malformed_scenario_gets_the_same_located_error_from_both_readers(malformed, monkeypatch):
    fast = scenario_error(malformed, monkeypatch, True)
    assert fast[1] is not None and fast == scenario_error(malformed, monkeypatch, False)


def test_both_readers_read_the_well_formed_base(monkeypatch):
    assert outcome(GOOD, monkeypatch, True) == outcome(GOOD, monkeypatch, False)
    assert [s.id for s in load_text(GOOD, "good.yaml")] == ["hostile-base"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutated_scenario_file_reads_the_same_with_both(data, monkeypatch):
    seed = data.draw(st.sampled_from(scenario_files())).read_text(encoding="utf-8")
    text = data.draw(mutations(seed))
    assert outcome(text, monkeypatch, True) == outcome(text, monkeypatch, False)
