"""The myzul adapter (adapters/myzul-ts, Node.js): it builds from npm and the pinned engine, passes `azul smoke`,
and lets the suite see the engine's own deviations (and pass what the engine does right)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from adapter_runs import conform_report, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "adapters" / "myzul-ts"
ENGINE = f"node {ADAPTER / '.build' / 'adapter.js'} --seed 0"
# What npm prints when the registry cannot be reached: the one reason to skip rather than fail.
OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "network")


@pytest.fixture(scope="module")
def built():
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to build the myzul adapter")
    result = subprocess.run([str(ADAPTER / "build")], capture_output=True, text=True, timeout=900)
    if result.returncode != 0 and any(word in result.stderr for word in OFFLINE):
        pytest.skip(f"npm cannot install boardgame.io and esbuild: {result.stderr.strip()[-300:]}")
    assert result.returncode == 0, result.stderr
    return ENGINE


@pytest.mark.third_party
def test_the_myzul_adapter_passes_the_smoke_checks(built):
    smoke_output(built)


@pytest.mark.third_party
def test_the_build_is_idempotent_and_quick_when_nothing_changed(built):
    bundle = ADAPTER / ".build" / "adapter.js"
    before = bundle.stat().st_mtime_ns
    result = subprocess.run([str(ADAPTER / "build")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert bundle.stat().st_mtime_ns == before  # nothing rebuilt


@pytest.mark.third_party
def test_the_suite_sees_the_engines_deviations_through_the_adapter(built, tmp_path):
    # A given deal the engine can draw, a floor of 1, 3 and 5 tiles (moves.ts:72 skips the first space's
    # penalty) and the marker put after the taken tiles (moves.ts:228-258): one pass, two deviations.
    cases = "deal-given-factories,scoring-penalties-after-placements,offer-marker-with-take-to-floor"
    found = verdicts(conform_report(built, cases, tmp_path))
    assert found == {"deal-given-factories": "pass", "scoring-penalties-after-placements": "fail",
                     "offer-marker-with-take-to-floor": "fail"}, found
