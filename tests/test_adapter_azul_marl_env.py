"""The adapter for azul-marl-env (adapters/azul-marl-env, PyPI, GPL: run only in its own Python 3.12 process):
it builds from PyPI, supplies the renderer module the 1.0.6 wheel lacks without which the environment does not
import, passes `azul smoke`, moves through the environment's own move check, and lets the suite see the
engine's deviations (and pass what the environment's move check fixes)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from adapter_runs import conform_report, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "adapters" / "azul-marl-env"
PYTHON = FOLDER / ".build" / "venv" / "bin" / "python"
ENGINE = f"{PYTHON} {FOLDER / 'adapter.py'} --seed 0"

pytestmark = pytest.mark.third_party


@pytest.fixture(scope="module")
def built() -> str:
    result = subprocess.run([str(FOLDER / "build")], capture_output=True, text=True, timeout=900)
    if result.returncode == 2 and "no Python 3.12" in result.stderr and not os.environ.get("CI"):
        pytest.skip("Python 3.12 is absent (azul-marl-env needs it); CI runs this test")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return ENGINE


def test_the_environment_does_not_import_as_published_and_the_adapter_says_why(built):
    bare = subprocess.run([str(PYTHON), "-c", "import azul_marl_env.azul_env"], capture_output=True, text=True,
                          timeout=120)
    if bare.returncode == 0:
        pytest.skip("this azul-marl-env release ships its renderer: the adapter uses the real one")
    assert "No module named 'azul_marl_env.render'" in bare.stderr
    hello = subprocess.run([str(PYTHON), str(FOLDER / "adapter.py")], input='{"id": 1, "cmd": "hello"}\n',
                           capture_output=True, text=True, timeout=120)
    reply = json.loads(hello.stdout)
    assert reply["ok"] and reply["name"] == "azul-marl-env (via adapter)" and reply["version"] == "1.0.6"
    assert reply["capabilities"] == {"players": [2, 3, 4], "variants": ["colour"], "load_state": True,
                                     "deal": False}


def test_the_marl_env_adapter_passes_azul_smoke(built):
    assert "azul-marl-env" in smoke_output(built)


def test_the_environments_move_check_passes_and_the_engines_start_player_deviation_shows(built, tmp_path):
    # Empty takes are refused by the environment (the bare engine accepts them: OFFER-6); the next round is
    # started by the last taker, not the marker holder (ROUND-2, game.py:45-47); no given deal (skip).
    cases = "offer-refuse-absent-colour,offer-refuse-empty-factory,round-marker-holder-starts-next,deal-given-factories"
    found = verdicts(conform_report(built, cases, tmp_path))
    assert found == {"offer-refuse-absent-colour": "pass", "offer-refuse-empty-factory": "pass",
                     "round-marker-holder-starts-next": "fail", "deal-given-factories": "skip"}, found


def test_the_engines_own_deals_repeat_whatever_was_played_before(built):
    """With --seed, a deal depends on the position only, so -j and the order of the cases change nothing."""
    from azul_conformance.engines.subprocess import ProcessEngine

    with ProcessEngine(built) as engine:
        engine.new_game(3, start_player=1)
        first = engine.deal()["factories"]
        engine.new_game(2)
        engine.deal()
        engine.play(engine.legal_moves()[0])
        engine.new_game(3, start_player=1)
        assert engine.deal()["factories"] == first
    with ProcessEngine(built) as fresh:
        fresh.new_game(3, start_player=1)
        assert fresh.deal()["factories"] == first
