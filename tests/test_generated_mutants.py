"""Generated mutants (benchmarks/generated_mutants.py, cosmic-ray's operators over reference_impl/): the mutated
code really runs behind the adapter while the real engine stays untouched, the draw is seeded, a tiny campaign
runs end to end, and the committed campaign holds together: every survivor classified, every kill claimed for a
scenario written for the campaign real on today's engine. The whole campaign is not run here (about an hour)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

import azul_reference
from azul_conformance.engines import reference
from azul_conformance.harness.session import Session, collect

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("generated_mutants", ROOT / "benchmarks" / "generated_mutants.py")
gm = importlib.util.module_from_spec(_spec)
sys.modules["generated_mutants"] = gm  # dataclasses look their module up by name
_spec.loader.exec_module(gm)

TEXTS = gm.sources()
SCENARIOS = {case.id: case for case in collect(Session(properties=False)).cases}


@pytest.fixture(scope="module")
def campaign() -> dict:
    return yaml.safe_load((gm.OUT / gm.RESULTS).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def everything():
    return gm.population(TEXTS)


def test_the_population_leaves_out_the_transport_and_the_load_checks_only(everything):
    mutants, left_out = everything
    assert {"protocol.py", "state.py validation"} <= set(left_out) <= set(gm.out_of_campaign(TEXTS))
    validation = next(i + 1 for i, line in enumerate(TEXTS["state.py"].splitlines()) if line.startswith(gm.VALIDATION))
    assert not [m for m in mutants if m.module == "protocol.py" or (m.module == "state.py" and m.line > validation)]
    assert {m.module for m in mutants} >= {"board.py", "game.py", "moves.py", "state.py", "tiles.py"}
    assert len({m.key for m in mutants}) == len(mutants)  # the key names one mutant


def test_the_draw_is_fixed_by_the_seed(everything):
    mutants, _ = everything
    assert gm.sample(mutants, 20, 7) == gm.sample(mutants, 20, 7)
    assert gm.sample(mutants, 20, 7) != gm.sample(mutants, 20, 8)
    assert gm.sample(mutants, 40, 7)[:20] == gm.sample(mutants, 20, 7)  # a larger sample extends a smaller one
    assert len(gm.sample(mutants, 10**6, 0)) == len(mutants)


def _with_tiles_appended(line: str) -> dict[str, str]:
    # Appended to tiles.py, the line runs before board.py imports the name: the engine itself is changed.
    return {**TEXTS, "tiles.py": TEXTS["tiles.py"] + "\n" + line + "\n"}


def test_the_mutated_code_runs_behind_the_adapter_and_the_real_engine_stays():
    floor = [case for case in SCENARIOS.values() if "FLOOR-2" in case.rules]
    assert floor
    unmutated = dict(gm.verdicts(TEXTS, None, floor, stop=False))
    assert not any(unmutated.values())
    free_floor = _with_tiles_appended("FLOOR_PENALTIES = tuple(0 for _ in FLOOR_PENALTIES)")
    assert any(bad for _, bad in gm.verdicts(free_floor, None, floor, stop=False))
    assert reference.ref is azul_reference  # swapped back after every call
    engine = reference.ReferenceEngine(0)
    assert not any(dict(gm.verdicts(TEXTS, None, floor, stop=False)).values())
    assert engine.new_game(2)["phase"] == "deal"


def test_a_mutant_that_cannot_load_is_killed_at_load(everything):
    mutant = next(m for m in everything[0] if m.module == "game.py")
    phase, what = gm.first_killer(_with_tiles_appended("raise ImportError('no')"), mutant, [], 5, 0)
    assert phase == "load" and what.startswith("ImportError on import")


def test_a_tiny_campaign_runs_and_writes_what_check_reads(tmp_path, capsys):
    assert gm.main(["--sample", "3", "--seed", "11", "--no-properties", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    document = yaml.safe_load((tmp_path / gm.RESULTS).read_text(encoding="utf-8"))
    assert document["sample"] == 3 and len(document["mutants"]) == 3 and not document["properties"]
    assert document["tool"].startswith("cosmic-ray ")
    for mutant in document["mutants"]:
        assert mutant["outcome"] in ("killed", "survived", "timeout") and mutant["after"] != mutant["before"]
        assert (mutant["killed_by"] is not None) == (mutant["outcome"] != "survived")
        assert f"{mutant['key']} (line {mutant['line']})" in out
    survivors = [m["key"] for m in document["mutants"] if m["outcome"] == "survived"]
    assert gm.problems(tmp_path) == [f"{key}: survived and is not classified in {gm.SURVIVORS}" for key in survivors]
    (tmp_path / gm.SURVIVORS).write_text(yaml.safe_dump([{"key": "no.py:x:AddNot#0", "class": "equivalent",
                                                          "reason": "stale"}]))
    assert f"{gm.SURVIVORS}: no.py:x:AddNot#0 is classified but is no survivor of the campaign" in gm.problems(tmp_path)
    (tmp_path / gm.PAGE).write_text("edited")
    assert any("out of date" in p for p in gm.problems(tmp_path))


def test_show_prints_one_mutants_diff(capsys, everything):
    key = everything[0][0].key
    assert gm.main(["--show", key]) == 0
    assert capsys.readouterr().out.startswith("--- a/reference_impl/")
    with pytest.raises(SystemExit, match="no such mutant"):
        gm.main(["--show", "board.py:nothing:AddNot#0"])


def test_a_malformed_classification_is_named(tmp_path):
    (tmp_path / gm.SURVIVORS).write_text(yaml.safe_dump([{"key": "a", "class": "dunno", "reason": "r"}]))
    with pytest.raises(SystemExit, match="entry 1 .a.: class must be one of equivalent, out_of_scope"):
        gm.classifications(tmp_path)


# -- the committed campaign ----------------------------------------------------------------------------------

def test_the_committed_campaign_is_consistent(campaign):
    assert gm.problems(gm.OUT) == []
    assert campaign["summary"]["unclassified"] == 0 and campaign["summary"]["not_run"] == 0
    for mutant in campaign["mutants"]:
        if mutant["outcome"] == "survived":
            assert len(mutant["reason"]) > 20, mutant["key"]  # a reason, not a shrug


def test_the_committed_campaign_meets_the_target(campaign):
    assert campaign["summary"]["score"] >= 0.9


def test_every_kill_claimed_for_a_new_scenario_holds_on_todays_engine(campaign):
    wrong, claims, located = gm.false_claims(gm.OUT, TEXTS)
    assert wrong == []
    assert claims >= 1  # the campaign's survivors that matter for rules got scenarios
    # The engine may change under the campaign; most mutants must still be there, or the campaign is stale.
    assert located * 2 >= claims, "reference_impl/ changed: run benchmarks/generated_mutants.py again"
