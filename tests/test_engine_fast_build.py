"""The fast path compiled with mypyc (setup.py, AZUL_COMPILE=1) is held equal to the readable engine too.

Builds the package as README.md's compiled install does, into a temporary folder, then runs
tests/test_engine_fast_game.py again in a new process that imports the compiled azul_reference.fast from there.
"""

from __future__ import annotations

import os
import shutil
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
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_engine_fast_game.py"],
        cwd=PROJECT, env=dict(os.environ, PYTHONPATH=str(target), AZUL_FAST_COMPILED="1"),
        capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-2000:]


JUNK_COMPILER = """#!{python}
import sys
args = sys.argv[1:]
if "-o" in args:  # writes something that is no object file nor shared object, and says all went well
    with open(args[args.index("-o") + 1], "wb") as out:
        out.write(b"junk")
"""


def test_a_compiler_that_writes_junk_leaves_the_fast_path_interpreted(tmp_path):
    """A compiled module that cannot be loaded would shadow fast.py and break every import of the package: the
    build loads what it compiled, and leaves it out with a note (AZUL_COMPILE=1: fails) when it cannot."""
    # a copy of the sources: the junk must not reach the checkout's build folder, which later builds reuse
    source = tmp_path / "source"
    shutil.copytree(PROJECT, source, ignore=shutil.ignore_patterns(".git", ".venv*", "build", ".build", "site",
                                                                   "node_modules", "__pycache__", "*.egg-info"))
    compiler = tmp_path / "cc"
    compiler.write_text(JUNK_COMPILER.format(python=sys.executable))
    compiler.chmod(0o755)
    env = dict(os.environ, CC=str(compiler), LDSHARED=f"{compiler} -shared")
    env.pop("AZUL_COMPILE", None)
    target = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-v", "--no-build-isolation", "--no-deps", "--target",
         str(target), str(source)], env=env, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "cannot be loaded" in build.stdout + build.stderr and "file too short" in build.stdout + build.stderr
    assert not list((target / "azul_reference").glob("*.so"))
    run = subprocess.run([sys.executable, "-c", "import azul_reference.fast as f; print(f.FastGame(2).scores())"],
                         env=dict(os.environ, PYTHONPATH=str(target)), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "[0, 0]", run.stderr
    strict = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--target",
         str(tmp_path / "strict"), str(source)], env=dict(env, AZUL_COMPILE="1"), capture_output=True, text=True,
        timeout=600)
    assert strict.returncode != 0 and "cannot be loaded" in strict.stdout + strict.stderr
    assert not list((source / "build").rglob("*.so"))  # nothing left that a later build would take as built
