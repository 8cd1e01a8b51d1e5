"""Static checks over the project's Python: no unused or undefined names, no line over 120 characters (ruff,
configured in pyproject), and no dead code (vulture, configured in pyproject's [tool.vulture])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_vulture_finds_no_dead_code():
    result = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_files_the_test_processes_take_first_are_the_suites():
    """tests/conftest.py hands the slowest files out first; a name left there after its file was renamed would
    silently send that file to the end of the run."""
    from conftest import SLOWEST_FIRST

    assert len(set(SLOWEST_FIRST)) == len(SLOWEST_FIRST)
    assert [name for name in SLOWEST_FIRST if not (ROOT / "tests" / name).is_file()] == []
