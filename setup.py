"""Build hook, only for the optional compiled fast path; everything else is in pyproject.toml.

AZUL_COMPILE=1 compiles reference_impl/fast.py (FastGame) with mypyc into a C extension that is imported in
place of the same source. The package is pure Python without it. mypyc must be in the build environment:

    pip install mypy 'setuptools>=70.1'
    AZUL_COMPILE=1 pip install --no-build-isolation .

Not with `pip install -e`: an editable install would leave the compiled module beside fast.py, where it would
shadow later edits of the source.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from setuptools import setup


def compiled_fast_path(staging: Path) -> list:
    if os.environ.get("AZUL_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("AZUL_COMPILE=1 compiles the fast path with mypyc, which this build environment lacks: "
                 "pip install mypy 'setuptools>=70.1', then AZUL_COMPILE=1 pip install --no-build-isolation .")
    # mypyc names a module by its folders: compile a copy of the package under its import name.
    package = staging / "azul_reference"
    shutil.copytree(Path(__file__).resolve().parent / "reference_impl", package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # Only fast.py is compiled; the modules it imports stay interpreted, so their typing is not its concern.
    return mypycify(["--follow-imports=silent", str(package / "fast.py")], opt_level="3")


with tempfile.TemporaryDirectory(prefix="azul-mypyc-") as staging:
    setup(ext_modules=compiled_fast_path(Path(staging)))
