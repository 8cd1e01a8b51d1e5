"""Build hook, only for the compiled fast path; everything else is in pyproject.toml.

A wheel build compiles reference_impl/fast.py (FastGame) with mypyc into a C extension that is imported in
place of the same source, wherever it can: mypy is among the build requirements (pyproject.toml), so
`pip install .` and `pip wheel .` compile it when the machine has a C compiler and Python's headers, and build
the pure-Python package otherwise (a note on stderr says why). The release wheels are built this way by the
build matrix in .github/workflows/wheels.yml, so `pip install azul-conformance` needs no compiler where a wheel
matches. AZUL_COMPILE chooses:

    unset or auto   compile where it can, else pure (the default)
    1               compile, and fail the build when it cannot (the build matrix, the tests)
    0               pure Python

Never in an editable install (`pip install -e`): the compiled module would sit beside fast.py and shadow later
edits of the source. Without build isolation, mypy and setuptools>=70.1 must be installed beforehand.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The setup.py commands that build extension modules; metadata, sdist and editable builds do not compile.
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def compiled_fast_path(staging: Path) -> list:
    choice = os.environ.get("AZUL_COMPILE", "auto") or "auto"
    if choice not in ("auto", "0", "1"):
        sys.exit(f"AZUL_COMPILE={choice!r}: expected auto, 1 (compile or fail) or 0 (pure Python)")
    if choice == "0" or not BUILDS.intersection(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if choice == "1":
            sys.exit("AZUL_COMPILE=1 compiles the fast path with mypyc, which this build environment lacks: "
                     "pip install mypy 'setuptools>=70.1', then AZUL_COMPILE=1 pip install --no-build-isolation .")
        print("azul-conformance: mypyc is not installed here, so the fast path stays interpreted", file=sys.stderr)
        return []
    # mypyc names a module by its folders: compile a copy of the package under its import name.
    package = staging / "azul_reference"
    shutil.copytree(Path(__file__).resolve().parent / "reference_impl", package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    # Only fast.py is compiled; the modules it imports stay interpreted, so their typing is not its concern.
    try:
        extensions = mypycify(["--follow-imports=silent", str(package / "fast.py")], opt_level="3")
    except SystemExit:  # mypyc refused the source (e.g. a newer mypy's stricter check)
        if choice == "1":
            raise
        print("azul-conformance: mypyc could not compile the fast path, so it stays interpreted", file=sys.stderr)
        return []
    if choice == "auto":
        # An optional extension that fails to build (no C compiler, no Python headers) is left out with a
        # warning; fast.py is in the wheel either way, so the package then runs interpreted.
        for extension in extensions:
            extension.optional = True
    return extensions


def unloadable(path: str) -> str | None:
    """Why the built module at `path` cannot be loaded (a compiler or linker that wrote something that is no
    shared object: "file too short", "invalid ELF header"), or None."""
    try:
        ctypes.CDLL(os.path.abspath(path))
    except OSError as error:
        return str(error)
    return None


class CheckedBuildExt(build_ext):
    """build_ext, then each compiled module loaded once: a module that cannot be would shadow fast.py and break
    every import of the package, so in the default mode all of them are removed (the package runs interpreted,
    with a note), and with AZUL_COMPILE=1 the build fails."""

    def run(self) -> None:
        super().run()
        built = [self.get_ext_fullpath(ext.name) for ext in self.extensions]
        problems = [f"{path}: {why}" for path in built if os.path.exists(path) and (why := unloadable(path))]
        if not problems:
            return
        for path in built:  # never left in the build folder, where the next build would take it as up to date
            if os.path.exists(path):
                os.remove(path)
        if os.environ.get("AZUL_COMPILE") == "1":
            sys.exit("azul-conformance: the compiled fast path cannot be loaded: " + "; ".join(problems))
        print("azul-conformance: the compiled fast path cannot be loaded (" + "; ".join(problems)[:500] + "), so "
              "it is left out and the fast path stays interpreted", file=sys.stderr)


with tempfile.TemporaryDirectory(prefix="azul-mypyc-") as staging:
    setup(ext_modules=compiled_fast_path(Path(staging)), cmdclass={"build_ext": CheckedBuildExt})
