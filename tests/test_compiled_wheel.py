"""The compiled wheel (scripts/build_wheel.py): built, installed, and what a user then runs uses the compiled
fast path, with the same results as the source tree (the replay of a sample record, all its claims)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from build_wheel import build  # noqa: E402


def test_the_compiled_wheel_installs_and_replays_on_the_compiled_fast_path(tmp_path):
    wheel = build(tmp_path / "dist", compiled=True)
    assert not wheel.name.endswith("-none-any.whl")  # tagged for this Python and platform
    site = tmp_path / "site"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                              str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    sample = ROOT / "conformance" / "records" / "samples" / "two-player.azr"
    code = ("import sys, azul_reference.fast as fast; print(fast.__file__); "
            "from azul_conformance.cli import main; sys.argv[0] = 'azul'; main()")
    records = tmp_path / "records"
    records.mkdir()
    for number in range(3):
        (records / f"game-{number}.azr").write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, "replay", str(records), "-q"], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    compiled_at = run.stdout.splitlines()[0]
    assert compiled_at.startswith(str(site)) and compiled_at.endswith(".so"), compiled_at
    assert "3 games, 159 moves, 60 claims checked" in run.stdout and "3 agree" in run.stdout, run.stdout
