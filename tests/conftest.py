"""pytest-xdist's `-n auto` (pyproject.toml's addopts): a test process more than the cores. Many tests wait on an
engine's process, a socket or a timer rather than on a core: on this project's 2-core machine, idle, 3 test
processes ran the suite in 11.9 min where 2 took 12.7.

The slowest test files first (pyproject.toml's addopts: `--no-loadscope-reorder`, so that xdist hands the files
out in this order rather than by their count of tests): a file runs in one test process, and one that starts late
keeps the run going while the other processes have nothing left to do (the live engines, two tests and 2.5 minutes,
went out halfway and ended alone)."""

from __future__ import annotations

import os

import pytest

# The files that take longest, slowest first (seconds of one test process in a whole run under load, 2026-12:
# `pytest --durations=0`, summed by file); every other file after them, in the order they are collected.
SLOWEST_FIRST = (
    "test_docs_site.py",  # 250-350 s
    "test_engines_live.py",  # 150-200 s: two tests (a clean clone installs the two engines first)
    "test_engines_matrix.py",  # 170 s
    "test_diagnosis.py",  # 200 s before the diagnosis skipped the misreadings published to pass a scenario
    "test_spec_check.py",  # 90-150 s
    "test_recordings.py", "test_file_fuzz.py", "test_causes.py", "test_reliability_processes.py",
    "test_conform_runs.py", "test_recordings_trust.py", "test_hostile_passes.py", "test_reliability_reports.py",
    "test_engines_inprocess.py", "test_docs_matrix.py", "test_fuzz.py", "test_publish.py",
    "test_engine_fast_build.py", "test_conform_progress.py", "test_spec_translations.py",  # 70 s down to 35 s
    "test_shapes.py", "test_conform_budgets.py", "test_red_team.py", "test_grey_engines.py", "test_mutants.py",
    "test_hostile_engines.py", "test_published_pages_escape.py", "test_filing.py", "test_packaging.py",
    "test_conform_cli.py",  # 35 s down to 25 s
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order
