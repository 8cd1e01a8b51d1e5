"""The fast path compiled with mypyc (setup.py, AZUL_COMPILE=1) is held equal to the readable engine too.

Builds the package as README.md's compiled install does, into a temporary folder, then runs
tests/test_engine_fast_game.py again in a new process that imports the compiled azul_reference.fast from there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def test_the_compiled_fast_path_passes_the_same_lockstep_tests(tmp_path):
    target = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "--target",
         str(target), str(PROJECT)],
        env=dict(os.environ, AZUL_COMPILE="1"), capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert list((target / "azul_reference").glob("fast.*.so")), sorted(os.listdir(target / "azul_reference"))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_engine_fast_game.py"],
        cwd=PROJECT, env=dict(os.environ, PYTHONPATH=str(target), AZUL_FAST_COMPILED="1"),
        capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-2000:]
