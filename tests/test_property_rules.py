"""The rules each property judges come from the specification (spec/properties.yaml), not from the code: every
property has its entry, every entry a property, every rule ID a rule of spec/rules/; a declaration that is not
sound is an error naming the file and the line."""

from __future__ import annotations

import pytest

from azul_conformance.harness.cases import property_cases, select
from azul_conformance.located import LocatedError
from azul_conformance.properties import PROPERTIES
from azul_conformance.properties.declared import declared_rules, read_declarations
from azul_conformance.spec_data import load_spec


def test_every_property_and_only_those_is_declared():
    assert sorted(declared_rules()) == sorted(prop.id for prop in PROPERTIES)
    for prop in PROPERTIES:
        assert prop.rules == declared_rules()[prop.id] and prop.rules


def test_every_declared_rule_is_a_rule_of_the_spec():
    known = {rule.id for rule in load_spec().rules}
    unknown = {rule for rules in declared_rules().values() for rule in rules} - known
    assert not unknown, f"spec/properties.yaml names rules spec/rules/ does not define: {sorted(unknown)}"


def test_a_declared_rule_selects_its_property():
    """--only TILING-3 picks the tiling differential because the spec says it judges that rule."""
    assert "TILING-3" in declared_rules()["differential-tiling"]
    assert "differential-tiling" in [case.id for case in select(property_cases(), ("TILING-3",))]
    assert "differential-end" not in [case.id for case in select(property_cases(), ("TILING-3",))]


@pytest.mark.parametrize("text, where, says", [
    ("differential-end: [END-1\n", "spec/properties.yaml:2:1", "not valid YAML"),
    ("differential-end: [END-1]\nproperty-game-ends: []\n", "spec/properties.yaml:2", "should be non-empty"),
    ("differential-end: [END-1, end-2]\n", "spec/properties.yaml:1", "does not match"),
    ("differential-end: [END-1, END-1]\n", "spec/properties.yaml:1", "non-unique"),
])
def test_a_declaration_that_is_not_sound_names_the_file_and_line(text, where, says):
    with pytest.raises(LocatedError) as raised:
        read_declarations(text)
    assert str(raised.value).startswith(where) and says in str(raised.value), str(raised.value)


def test_a_sound_declaration_reads_as_tuples():
    assert read_declarations("differential-end: [END-1, END-7]\n") == {"differential-end": ("END-1", "END-7")}


def test_the_rule_a_difference_breaks_is_a_rule_of_the_spec_and_a_field_of_the_state():
    from azul_conformance.properties.declared import difference_rules
    from azul_conformance.schemas import schema

    known = {rule.id for rule in load_spec().rules}
    state = schema("state.schema.json")
    fields = set(state["properties"])
    board = set(state["$defs"]["board"]["properties"])
    for step, table in difference_rules().items():
        for field, rule in table.items():
            assert rule in known, f"spec/differences.yaml: {step}.{field}: {rule} is no rule of spec/rules/"
            top, _, leaf = field.partition(".")
            assert (leaf in board if top == "boards" else top in fields), (step, field)


def test_a_difference_table_that_is_not_sound_names_the_file_and_line():
    from azul_conformance.properties.declared import read_differences

    with pytest.raises(LocatedError) as raised:
        read_differences("take: {factories: OFFER-2}\nround: {lid: deal-4}\ntiling: {lid: GREY-3}\n"
                         "end: {round: END-1}\ndeal: {bag: DEAL-1}\n")
    assert str(raised.value).startswith("spec/differences.yaml:2") and "does not match" in str(raised.value)
