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

# The files that take longest, slowest first (seconds of one test process in a whole run under load, 2026-12-07:
# `pytest --durations=0`, summed by file); every other file after them, in the order they are collected.
SLOWEST_FIRST = (
    "test_docs_site.py",  # 610 s
    "test_engines_live.py",  # 300 s: two tests, mostly waiting (a clean clone installs the two engines first)
    "test_engines_matrix.py",  # 550 s
    "test_diagnosis.py",  # 365 s
    "test_reliability_reports.py", "test_mutants.py", "test_engine_fast_build.py",  # 250-210 s
    "test_packaging.py", "test_misreadings_served.py", "test_recordings.py", "test_spec_check.py",
    "test_recordings_trust.py", "test_causes.py",  # 170-130 s
    "test_conform_progress.py", "test_conform_runs.py", "test_fuzz.py", "test_reliability_processes.py",
    "test_hostile_passes.py", "test_file_fuzz.py", "test_adapters_ludometer.py", "test_conform_parallel.py",
    "test_red_team.py", "test_conform_cli.py", "test_grey_engines.py",  # 120-80 s
    "test_filing.py", "test_published_pages_escape.py", "test_compiled_wheel.py", "test_runs_that_judge_nothing.py",
    "test_console_encodings.py", "test_engine_fast_game.py", "test_engines_inprocess.py", "test_publish.py",  # 80-50 s
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order
