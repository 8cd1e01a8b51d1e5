"""File fuzzers: mutated scenario files, game records, states, reports, fuzz state files, --compare reports,
recorded engine sessions and reports given to `azul diagnose --write`.
Whatever the bytes, each reader ends in its own located error (or reads the file), never in another exception,
within bounded time.

Each test draws mutations of a real file (bytes replaced, inserted, deleted, lines doubled, hostile fragments
spliced in) with hypothesis; `benchmarks/fuzz_files.py` runs the same readers over many more inputs and prints
how many were tried and how many ended in anything but a located error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_files import READERS, mutations

ROOT = Path(__file__).resolve().parent.parent


# `azul diagnose --write` runs the catalogue's experiments on each report it reads whole (about a second): fewer
# examples here; benchmarks/fuzz_files.py gives it as many as the others
SLOW = {"diagnose"}


@pytest.mark.parametrize("name", sorted(set(READERS) - SLOW))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_file_is_read_or_refused_with_a_located_error(name, data):
    reader = READERS[name]
    text = data.draw(mutations(reader.seed()))
    reader.check(text)  # raises AssertionError for anything but a clean read or the reader's own error


@pytest.mark.parametrize("name", sorted(SLOW))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_file_a_slow_reader_reads_is_read_or_refused_with_a_located_error(name, data):
    reader = READERS[name]
    reader.check(data.draw(mutations(reader.seed())))


def test_the_seeds_themselves_read_cleanly():
    for reader in READERS.values():
        reader.check(reader.seed(), must_read=True)


def test_a_report_line_of_every_json_type_is_refused_by_position(tmp_path):
    from azul_conformance.harness import read_report

    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(v) for v in (1, "x", None, [], {}, {"type": "case"})), encoding="utf-8")
    report = read_report(path)
    assert report.results == () and len(report.problems) == 6
