"""`azul spec show` cites a rulebook's lines by version ("EN, l. 162"): each version's lines, and every citation of
the specification lying in the lines of the version it is filed under."""

from __future__ import annotations

from azul_conformance.spec_data import Citation, cited, load_spec, version_of


def test_a_citation_is_named_by_its_version_and_line():
    assert cited(Citation("000_ed7c8802c5a645fb.txt", 162, 162)) == "EN, l. 162"
    assert cited(Citation("000_ed7c8802c5a645fb.txt", 42, 44)) == "FR, ll. 42-44"
    assert cited(Citation("002_78cb4839c43a4ac6.txt", 115, 115)) == "ES, l. 115"
    # lines of file 000 between two versions (DE ends at 122, EN starts at 125) are no version's
    assert cited(Citation("000_ed7c8802c5a645fb.txt", 123, 123)) == "000_ed7c8802c5a645fb.txt:123-123"
    assert version_of(Citation("000_ed7c8802c5a645fb.txt", 120, 126)) is None  # across two versions
    assert version_of(Citation("999_unknown.txt", 1, 1)) is None


def test_every_citation_of_a_version_lies_in_that_version_s_lines():
    spec = load_spec()
    filed = [(rule.id, version, citation) for chapter in spec.chapters for rule in chapter.rules
             for version, source in rule.sources.items() for citation in source.citations]
    assert len(filed) > 400
    wrong = [(rule, version, str(c), version_of(c)) for rule, version, c in filed if version_of(c) != version]
    assert not wrong
