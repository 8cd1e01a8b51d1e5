"""The Go adapter for the third-party engine azul-ai (adapters/azul-ai-go): it passes `azul smoke`, deals given
factories through the engine's own deal, and the engine's known deviation shows. This project holds none of the
engine's code: the live tests run where AZUL_AI_ADAPTER names the adapter built against a copy of the engine, and
the verdicts are checked on the committed recording of its session everywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapter_runs import engine_or_recording, judged_report, live_engine, recorded, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
NEEDS = {"AZUL_AI_ADAPTER": "the path of adapters/azul-ai-go built against your copy of the engine"}
COMMAND = "$AZUL_AI_ADAPTER --seed 0"
RECORDING = ROOT / "docs" / "reports" / "azul-ai-go" / "recording.jsonl.gz"


@pytest.mark.third_party
def test_the_go_adapter_passes_azul_smoke():
    assert "azul-ai" in smoke_output(live_engine(NEEDS, COMMAND))


@pytest.mark.third_party
def test_given_deals_pass_and_the_player_count_deviation_shows(tmp_path):
    source = engine_or_recording(NEEDS, COMMAND, RECORDING)
    report = judged_report(source, "DEAL,SETUP-6", tmp_path, "--examples", "10", "--seed", "0")
    found = verdicts(report)
    assert found["setup-five-players-refused"] == found["setup-one-player-refused"] == "fail"  # plays 4 for 5
    deals = [r for r in recorded(report) if "DEAL-2" in r.rules and r.kind == "scenario"]
    assert deals and all(r.verdict == "pass" for r in deals), [(r.id, r.verdict, r.message) for r in deals]
    assert not [r for r in recorded(report) if r.verdict in ("error", "crash", "timeout", "not_run")]
