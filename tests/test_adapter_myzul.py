"""The myzul adapter (adapters/myzul-ts, Node.js): it passes `azul smoke`, and lets the suite see the engine's own
deviations (and pass what the engine does right). This project holds none of the engine's code: the live test
runs where MYZUL_ADAPTER names the adapter bundled with a copy of the engine; the verdicts are checked on the
committed recording of its session everywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapter_runs import engine_or_recording, judged_report, live_engine, smoke_output, verdicts

ROOT = Path(__file__).resolve().parents[1]
NEEDS = {"MYZUL_ADAPTER": "adapters/myzul-ts/adapter.ts bundled for Node.js with your copy of the engine"}
COMMAND = "node $MYZUL_ADAPTER --seed 0"
RECORDING = ROOT / "docs" / "reports" / "myzul-ts" / "recording.jsonl.gz"


@pytest.mark.third_party
def test_the_myzul_adapter_passes_the_smoke_checks():
    smoke_output(live_engine(NEEDS, COMMAND))


@pytest.mark.third_party
def test_the_suite_sees_the_engines_deviations_through_the_adapter(tmp_path):
    # A given deal the engine can draw, a floor of 1, 3 and 5 tiles (moves.ts:72 skips the first space's
    # penalty) and the marker put after the taken tiles (moves.ts:228-258): one pass, two deviations.
    cases = "deal-given-factories,scoring-penalties-after-placements,offer-marker-with-take-to-floor"
    found = verdicts(judged_report(engine_or_recording(NEEDS, COMMAND, RECORDING), cases, tmp_path,
                                   "--seed", "0", "--examples", "10"))
    assert found == {"deal-given-factories": "pass", "scoring-penalties-after-placements": "fail",
                     "offer-marker-with-take-to-floor": "fail"}, found
