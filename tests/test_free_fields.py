"""The fields no rule decides are never compared: a correct engine that fills them with noise passes.

Once the game is over, `turn`, `start_player` and `marker` carry no meaning (docs/reference/state.md): the state
schema marks them free in that phase (`x-free-in`), and the one comparison of states (canonical.state_diff) leaves
them out there. Without that, differential play and the load-state round trip failed a correct engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from azul_conformance.fuzz.campaign import CampaignSpec
from azul_conformance.fuzz.run import LocalExecutor, play_campaign
from azul_conformance.fuzz.state import StateFile
from azul_conformance.harness import Session, run_session
from azul_conformance.properties.canonical import FREE_FIELDS, state_diff
from azul_conformance.engines.reference import ReferenceEngine

SCRAMBLING = f"{sys.executable} {Path(__file__).parent / 'fake_engines' / 'free_fields.py'}"


def over_state() -> dict:
    engine = ReferenceEngine(3)
    state = engine.new_game(2)
    while state["phase"] != "over":
        state = engine.deal() if state["phase"] == "deal" else engine.play(engine.legal_moves()[0])
    return state


def test_the_schema_declares_what_is_free_once_the_game_is_over():
    assert FREE_FIELDS == {"over": frozenset({"turn", "start_player", "marker"})}


def test_free_fields_differ_unnoticed_once_over_and_are_compared_in_every_other_phase():
    over = over_state()
    noisy = dict(over, turn=1 - over["turn"], start_player=1 - over["start_player"],
                 marker="centre" if over["marker"] != "centre" else 0)
    assert state_diff(over, noisy) == []
    assert state_diff(over, dict(noisy, phase="deal")) != []  # not over on one side: the phase, and the rest
    engine = ReferenceEngine(3)
    engine.new_game(2)
    playing = engine.deal()
    moved = dict(playing, turn=1 - playing["turn"])
    assert [path for path, _, _ in state_diff(playing, moved)] == ["/turn"]
    # a field a rule decides is compared in phase over as ever
    assert [path for path, _, _ in state_diff(over, dict(noisy, round=over["round"] + 1))] == ["/round"]


def test_a_correct_engine_with_noise_in_the_free_fields_passes_every_case(tmp_path):
    session = Session(engine_command=SCRAMBLING, report_dir=str(tmp_path), examples=5, seed=1, timeout=10)
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    bad = [(r.id, r.message[:200]) for r in results if r.bad]
    assert not bad and len(results) > 200, bad


def test_a_fuzz_campaign_against_it_finds_nothing(tmp_path):
    spec = CampaignSpec(seed=3, players=(2, 3, 4), engine=SCRAMBLING)
    state = StateFile(tmp_path / "state.jsonl", spec)
    executor = LocalExecutor(1)
    try:
        play_campaign(spec, state, executor, 60, None, 20)
    finally:
        executor.close()
        state.close()
    findings = state.findings
    assert sum(games for _, games in findings.done) == 60
    assert not findings.deviations, list(findings.deviations)
