"""Build the wheel users get: the fast path (azul_reference.fast) compiled with mypyc where this platform can
carry it, the interpreted package otherwise.

    python scripts/build_wheel.py                 # dist/azul_conformance-<version>-cp3XX-cp3XX-<platform>.whl
    python scripts/build_wheel.py --out wheels/ --pure

The compiled wheel is what setup.py builds with AZUL_COMPILE=1 (mypy and setuptools>=70.1 in this environment;
the build is not isolated so that they are found). It is tagged for this Python and platform: one cell of the
release build matrix (.github/workflows/wheels.yml, cibuildwheel), which builds it for each Python version and
platform it serves; pip then installs the compiled wheel where one matches and the pure one (`--pure`, tagged
py3-none-any) everywhere else. The script checks what it built: a compiled wheel holds the extension module of
fast.py, a pure one none, and exits with status 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compiled_fast_path(wheel: Path) -> list[str]:
    """The names of the compiled fast.py modules the wheel holds (none in a pure wheel)."""
    with zipfile.ZipFile(wheel) as archive:
        return [n for n in archive.namelist() if n.startswith("azul_reference/fast.") and n.endswith((".so", ".pyd"))]


def build(out: Path, compiled: bool, timeout: float = 900) -> Path:
    """The wheel built into `out` (compiled with mypyc or not); SystemExit when the build or its check fails."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="azul-wheel-") as scratch:
        env = dict(os.environ, AZUL_COMPILE="1" if compiled else "0")
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                               "-w", scratch, str(ROOT)], env=env, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise SystemExit(f"the build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        (wheel,) = Path(scratch).glob("azul_conformance-*.whl")
        extension = compiled_fast_path(wheel)
        if compiled != bool(extension) or compiled == wheel.name.endswith("-none-any.whl"):
            raise SystemExit(f"{wheel.name}: expected {'a' if compiled else 'no'} compiled fast path, found "
                             f"{extension or 'none'}")
        target = out / wheel.name
        target.unlink(missing_ok=True)
        wheel.rename(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--pure", action="store_true", help="the interpreted wheel (any platform) instead")
    args = parser.parse_args()
    print(build(args.out, compiled=not args.pure))


if __name__ == "__main__":
    main()
