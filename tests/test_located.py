"""One located error for every reader: the span, the excerpt with its caret, and the errors built on them."""

from __future__ import annotations

import pytest

from azul_conformance.located import LocatedError, Span, excerpt
from azul_conformance.records import RecordError, parse_record
from azul_conformance.scenario import ScenarioError, load_text
from azul_conformance.spec_data import SpecError, read_document
from azul_conformance.state_file import StateError, read_state


def test_a_span_names_what_it_knows():
    assert str(Span.at("f.yaml", 7, 5, 6)) == "f.yaml:7:5"
    assert str(Span(3, 1)) == "3:1"  # a position inside a game record: the record names the file
    assert str(Span(4, file="x.yaml")) == "x.yaml:4"
    assert str(Span(file="x.yaml")) == "x.yaml"
    assert Span.at("f", 1, 3, 4).width == 4 and Span(1, 3, 2, 9).width == 1  # a span over two lines: one caret


def test_the_caret_stands_under_the_span_after_tabs_and_control_characters():
    text = "first\n\tab\x07cd  ef\n"
    shown = excerpt(text, Span.at(None, 2, 6, 2))
    assert shown == "    2 | \tab\ufffdcd  ef\n      | \t    ^^"


def test_the_caret_never_runs_past_the_line_and_a_line_without_column_has_none():
    assert excerpt("abc\n", Span.at(None, 1, 3, 10)) == "    1 | abc\n      |   ^"
    assert excerpt("abc\n", Span(1)) == "    1 | abc"
    assert excerpt("abc\n", Span(2, 1)) == "    2 | \n      | ^"  # the end of the text, after its last line
    assert excerpt("abc\n", Span(5, 1)) == ""


def test_a_long_line_is_shown_around_the_span_with_the_caret_under_it():
    line = "".join(f"{n:>5}" for n in range(2000))  # 10,000 characters: column c holds the end of a number
    shown, caret = excerpt(line + "\n", Span.at(None, 1, 4996, 5)).split("\n")
    assert shown.startswith("    1 | ... ") and shown.endswith(" ...") and len(shown) == 8 + 4 + 100 + 4
    at = caret.index("^")
    assert caret.count("^") == 5 and shown[at:at + 5] == line[4995:5000] == "  999"
    assert excerpt(line, Span(1)) == "    1 | " + line[:100] + " ..."  # no column: the start of the line
    end = excerpt(line, Span.at(None, 1, 9999, 50)).split("\n")
    assert end[0].endswith(line[-100:]) and end[1].endswith("^^") and len(end[1]) == len(end[0])


def test_the_message_names_file_line_and_column_then_the_excerpt_then_the_hint():
    error = LocatedError("unknown word 'center'", Span.at("f.yaml", 2, 3, 6), "- x\n  center: M\n", "did you mean?")
    assert str(error) == ("f.yaml:2:3: unknown word 'center'\n    2 |   center: M\n      |   ^^^^^^\n"
                          "  did you mean?")
    assert (error.file, error.line, error.column) == ("f.yaml", 2, 3)


def test_every_reader_raises_the_one_located_error(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("chapter: [x\n", encoding="utf-8")
    attempts = [
        (ScenarioError, lambda: load_text("- id: 3\n  title: x\n", "s.yaml")),
        (RecordError, lambda: parse_record("round 1 deal BBYR\n", "r.azr")),
        (StateError, lambda: read_state('{"format": 1,\n ]', "s.json")),
        (SpecError, lambda: read_document(broken, "broken.yaml")),
    ]
    for kind, attempt in attempts:
        with pytest.raises(kind) as caught:
            attempt()
        assert isinstance(caught.value, LocatedError)
        first, *rest = str(caught.value).splitlines()
        assert first.split(":")[1].isdigit() and first.split(":")[2].isdigit(), first  # file:line:col
        assert rest and rest[-1].strip().startswith("|") and rest[-1].rstrip().endswith("^"), str(caught.value)


def test_a_spec_file_read_again_gives_its_reader_its_own_copy_and_a_changed_file_is_read_anew(tmp_path):
    """read_document keeps what it parsed by the file's text (a spec check reads each file up to three times):
    what one reader changes is not what the next one reads, and a file edited in between is parsed again."""
    path = tmp_path / "floor.yaml"
    path.write_text("chapter: floor\nrules:\n  - id: FLOOR-1\n", encoding="utf-8")
    first = read_document(path, "floor.yaml")
    first.data["rules"][0]["id"] = "FLOOR-9"
    first.lines[("rules",)] = 99
    again = read_document(tmp_path / "floor.yaml", "again.yaml")
    assert again.data == {"chapter": "floor", "rules": [{"id": "FLOOR-1"}]}
    assert (again.shown, again.line(("rules",)), again.line(("rules", 0, "id"))) == ("again.yaml", 2, 3)
    path.write_text("chapter: floor\n\nrules:\n  - id: FLOOR-2\n  - id: FLOOR-2\n", encoding="utf-8")
    edited = read_document(path, "floor.yaml")
    assert edited.data["rules"] == [{"id": "FLOOR-2"}, {"id": "FLOOR-2"}] and edited.line(("rules",)) == 3
