"""Diagnosis by experiment: a wrong engine's failures are named by the misreading that reproduces them."""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import re
import sys

import pytest

from rich.console import Console

from azul_conformance.diagnosis import diagnose
from azul_conformance.diagnosis.cover import pair
from azul_conformance.diagnosis.observe import observation
from azul_conformance.harness.findings import fault_groups
from azul_conformance.harness.report import read_report
from azul_conformance.harness.runner import RunOptions, run_cases
from azul_conformance.harness.session import Session, collect, run_session
from azul_conformance.mutants.catalogue import BY_ID, MUTANTS, Mutant
from azul_conformance.mutants.patching import MutantEngine
from azul_conformance.results import CaseKind, CaseResult, Verdict

QUIET = Console(file=io.StringIO())


def judged(engine, only: tuple[str, ...], examples: int = 5):
    cases = collect(Session(only=only, examples=examples)).cases
    results = run_cases(engine, list(cases), RunOptions(examples=examples))
    return results, {case.id: case for case in cases}


def test_a_misreading_run_as_an_engine_is_diagnosed_as_itself():
    # FLOOR-3's shifted table: its failures show in scores filed under other rules (END-5, SCORE-2...)
    mutant = BY_ID["floor-penalties-shifted"]
    results, cases = judged(MutantEngine(mutant), ("FLOOR", "SCORE", "differential-tiling"))
    failing = [r for r in results if r.bad]
    assert len(failing) >= 5
    found = diagnose(results, cases)
    assert [d.kind for d in found.deviations] == ["misreading"]
    only = found.deviations[0]
    assert only.id == mutant.id and only.rule == "FLOOR-3" and {c.id for c in only.cases} == {r.id for r in failing}
    assert only.misreading.heading == f"FLOOR-3: {mutant.description}"
    # the evidence is the smallest case's: the rules' value and the engine's, which the misreading gives too
    assert only.evidence.case == only.cases[0].id and only.evidence.expected != only.evidence.actual
    assert "with this misreading the reference gives" in only.evidence.text


def test_evidence_on_two_lists_of_moves_says_what_one_has_and_the_other_lacks():
    # takes of absent colours listed: 60-odd moves each side, the same first ones; cut at 160 characters both
    # lists would look alike, so the evidence names the moves the engine adds
    mutant = BY_ID["offer-empty-take-empties-source"]
    results, cases = judged(MutantEngine(mutant), ("differential-legal-moves",))
    only = diagnose(results, cases).deviations[0]
    assert only.id == mutant.id
    expected, actual = only.evidence.expected, only.evidence.actual
    extra = sorted(set(actual) - set(expected))
    assert extra and not set(expected) - set(actual)
    text = only.evidence.text
    assert f"the rules give {len(expected)}, the engine {len(actual)}" in text
    assert f"the engine adds {extra[0]}, " in text and "the engine lacks" not in text
    assert text.endswith("with this misreading the reference does the same")


def test_an_accepted_setup_is_told_apart_by_the_game_it_set_up():
    # five players refused by the rules; taken as five (2n + 1 factories) or brought down to four: the same
    # acceptance, other games, and the report names the engine's reading alone, not both as indistinguishable
    for reading, other in (("setup-player-count-clamped", "setup-any-player-count"),
                           ("setup-any-player-count", "setup-player-count-clamped")):
        results, cases = judged(MutantEngine(BY_ID[reading]), ("setup-five-players-refused",
                                                               "setup-one-player-refused"))
        found = diagnose(results, cases).deviations
        assert [d.id for d in found] == [reading], found
        assert other not in {m.id for m in found[0].alike}


def test_two_misreadings_at_once_are_both_named():
    both = pair(BY_ID["score-lone-tile-2"], BY_ID["offer-marker-after-tiles"])
    results, cases = judged(MutantEngine(both), ("SCORE-1", "OFFER-5", "scoring-*", "offer-marker-*"))
    found = diagnose(results, cases)
    named = {d.id for d in found.deviations if d.kind == "misreading"}
    assert {"score-lone-tile-2", "offer-marker-after-tiles"} <= named | {m.id for d in found.deviations
                                                                           for m in d.alike}
    assert not [d for d in found.deviations if d.kind != "misreading"]


def test_what_no_misreading_explains_is_not_diagnosed_and_keeps_its_symptom():
    def seven_too_many(original):  # no catalogued misreading gives 7 points at each floor's clearing
        def clear_floor(board, lid):
            original(board, lid)
            board.score += 7
        return clear_floor

    unknown = Mutant("seven-too-many", "FLOOR-6", "made up", (("board.Board.clear_floor", seven_too_many),))
    results, cases = judged(MutantEngine(unknown), ("tiling-every-board-tiles", "scoring-lone-tile-one-point"))
    assert results and all(r.bad for r in results)
    found = diagnose(results, cases)
    assert {d.kind for d in found.deviations} == {"undiagnosed"}
    assert all(d.key.startswith("boards/score") and d.title.startswith("not diagnosed:") for d in found.deviations)


def test_crashes_and_errors_are_engine_faults_never_misreadings():
    crash = CaseResult("a", CaseKind.SCENARIO, Verdict.CRASH, rules=("OFFER-1",), message="exit 1")
    error = CaseResult("b", CaseKind.SCENARIO, Verdict.ERROR, rules=("OFFER-1",), message="internal")
    faults, rest = fault_groups([crash, error])
    assert rest == [] and sorted(d.id for d in faults) == ["engine-fault-crash", "engine-fault-error"]
    found = diagnose([crash, error], {})
    assert {d.kind for d in found.deviations} == {"engine-fault"}
    # they compare no values: the evidence is what the engine said, not "the rules give null, the engine null"
    said = "internal: the engine has no seat to move " + "x" * 400
    error = dataclasses.replace(error, message=said, where="s.yaml:3")
    evidence = fault_groups([error])[0][0].shown_evidence
    assert evidence.text.startswith("b (s.yaml:3): internal: the engine has no seat to move x")
    assert "null" not in evidence.text and len(evidence.text) < 330 and evidence.text.endswith("...")


def test_another_implementation_defined_choice_differs_and_is_no_failure():
    # the differential properties already compare a grey tiling in another order with the reference playing
    # that order: the catalogue's other GREY-5 choice fails nothing
    choice = BY_ID["grey-seat-0-places-first"]
    results, cases = judged(MutantEngine(choice), ("GREY-5", "differential-tiling"))
    assert not [r for r in results if r.verdict is Verdict.FAIL]
    # and where a failure is reproduced by nothing but another choice, the diagnosis makes it `differs`: here a
    # catalogue whose only entry is a floor reading marked as an implementation-defined choice
    flat = dataclasses.replace(BY_ID["floor-penalties-flat"], source="choice")
    results, cases = judged(MutantEngine(BY_ID["floor-penalties-flat"]), ("FLOOR-3",))
    failing = [r.id for r in results if r.verdict is Verdict.FAIL]
    assert failing
    found = diagnose(results, cases, catalogue=(flat,))
    changed = {r.id: r for r in found.results}
    assert all(changed[i].verdict is Verdict.DIFFERS and changed[i].level == "implementation-defined" for i in failing)
    assert not found.deviations


def test_a_report_read_back_gives_the_same_observations(tmp_path):
    engine = f"py:{__file__}:{floor_flat.__name__}"
    session = Session(engine_command=engine, only=("FLOOR-3", "differential-tiling"), examples=5,
                      report_dir=str(tmp_path), formats=("jsonl",))
    results, _ = run_session(session, QUIET)
    back = read_report(tmp_path / "report.jsonl").results
    seen = [observation(r) for r in back]
    assert [observation(r) for r in results] == seen and sum(o is not None for o in seen) >= 3
    # and the report alone is enough to diagnose it again: azul diagnose does this
    again = diagnose(list(back), {c.id: c for c in collect(Session(only=session.only)).cases})
    assert [d.id for d in again.deviations] == ["floor-penalties-flat"]


def floor_flat(seed=None):
    return MutantEngine(BY_ID["floor-penalties-flat"], seed)


def test_azul_diagnose_names_the_misreadings_of_a_saved_report_and_refuses_what_is_not_one(tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli.diagnose import diagnose as diagnose_command

    session = Session(engine_command=f"py:{__file__}:{floor_flat.__name__}", only=("FLOOR-3",),
                      report_dir=str(tmp_path), formats=("jsonl",), properties=False)
    run_session(session, QUIET)
    shown = CliRunner().invoke(diagnose_command, [str(tmp_path), "-j", "1", "--write"])
    assert shown.exit_code == 0, shown.output
    assert "1 misreading, 0 engine faults behind" in shown.output
    assert "FLOOR-3: Every floor space costs 1" in shown.output
    rows = [json.loads(line) for line in (tmp_path / "report.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows if r["type"] == "deviation"] == ["floor-penalties-flat"]
    assert (tmp_path / "report.md").read_text().count("### 1. FLOOR-3: Every floor space costs 1 point.") == 1
    (tmp_path / "not.jsonl").write_text("hello\n")
    refused = CliRunner().invoke(diagnose_command, [str(tmp_path / "not.jsonl")])
    assert refused.exit_code == 1 and "not a conformance report" in refused.output


def test_azul_serve_refuses_a_misreading_not_in_the_catalogue():
    from click.testing import CliRunner

    from azul_conformance.cli.serve import serve

    refused = CliRunner().invoke(serve, ["--misreading", "floor-penalties-flat+no-such-thing"])
    assert refused.exit_code == 2 and "no-such-thing: not in the catalogue" in refused.output


def _benchmark(name: str):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ids", [("floor-first-space-free",), ("round-last-taker-starts",), ("deal-half-lid-poured",),
                                 ("end-no-tie-break",),
                                 # states beyond a rule's bound (a score below 0, five players): misreadings
                                 # of that rule, never malformed replies (crashes)
                                 ("score-no-clamp",), ("setup-any-player-count",),
                                 # a random deal accepted mid-offer: the served engine draws other tiles
                                 # than the reference would, and the acceptance alone is what it did
                                 ("deal-any-time",)])
def test_the_self_test_in_small_a_misreading_served_over_the_protocol_is_named(ids):
    # the CI-sized version of benchmarks/eval_diagnosis.py (its full run is published on the Catch power page)
    outcome = _benchmark("eval_diagnosis").judge(ids, 3, True)
    assert outcome.failing and outcome.named == ids and not outcome.others, outcome


# A lone tile scored 2 and the free marker: each adds to a score, so no case shows them cancelling. (A lone tile
# scored 0 with the free marker passes floor-overflow-last-take-in-lid-after-tiling, where the two cancel out on
# seat 0's score; a reading that fails a case the engine passes is ruled out, so that pair's floor reading cannot
# be named: a limit of the diagnosis, not of this pair's engine.)
@pytest.mark.parametrize("ids", [("score-lone-tile-2", "floor-marker-free"), ("offer-marker-after-tiles",
                                                                              "end-bonuses-when-completed")])
def test_the_self_test_in_small_two_misreadings_at_once_are_both_named(ids):
    outcome = _benchmark("eval_diagnosis").judge(ids, 3, False)
    assert outcome.named == tuple(sorted(ids)), outcome


def test_the_published_diagnosis_scores_are_those_of_the_committed_reports():
    # in-sample: the committed reports as they are; held out: each engine without the readings it prompted (its
    # figures are recomputed in tests/test_causes.py, engine by engine)
    scores = _benchmark("eval_causes")
    in_sample, held_out = scores.published(scores.IN_SAMPLE), scores.published(scores.HELD_OUT)
    for engine in scores.engines():
        assert in_sample[engine] == scores.score(engine).row(), f"{engine}: run benchmarks/eval_causes.py --json"
        assert held_out[engine]["held_out"] == scores.prompted(engine), f"{engine}: run eval_causes.py --json"
    assert in_sample["all"]["precision"] >= 0.9


def _short_bag() -> dict:
    """A round-2 deal with 4 tiles in the bag and the other 76 of its colours in the lid (every blue tile is on
    the pattern lines)."""
    import azul_reference as ref

    state = ref.to_state(ref.Game(2))
    state.update(round=2, bag="KKKK", lid="Y" * 20 + "R" * 20 + "K" * 16 + "W" * 20)
    state["boards"] = [dict(board, lines=["", "B", "BB", "BBB", "BBBB"]) for board in state["boards"]]
    return state


def _refused_deal(position: dict) -> CaseResult:
    """A property's failure: the engine refused a deal drawable from its position (the bag, then the lid). The
    game before it is a first deal only, which the rules and the misreadings all take from a full bag."""
    deal = ["KKKK", "YYYY", "RRRR", "KKKK", "WWWW"]
    game = {"plan": {"players": 2, "variant": "colour", "start_player": 0, "deal_seed": 0, "choices": []},
            "steps": [{"kind": "deal", "factories": deal}]}
    return CaseResult("property-invariants", CaseKind.PROPERTY, Verdict.FAIL, rules=("DEAL-2",),
                      expected="accepted", actual="illegal_move",
                      details={"game": game, "differences": [["deal", "refused"]], "state": position})


def test_a_refused_deal_is_asked_again_at_the_engines_position():
    from azul_conformance.diagnosis.experiment import reproduce
    from azul_conformance.engines.reference import ReferenceEngine

    seen = observation(_refused_deal(_short_bag()))
    assert seen.kind == "refused" and seen.position is not None
    # the rules pour the lid in once the bag's 4 tiles are dealt: drawable there, so there is something to explain
    assert reproduce(ReferenceEngine(), None, seen) != seen
    # a lid never poured refuses it, at that position (from a full bag it would have dealt it)
    assert reproduce(MutantEngine(BY_ID["deal-no-refill"]), None, seen) == seen
    assert reproduce(MutantEngine(BY_ID["deal-early-refill"]), None, seen) != seen  # the mix can give it
    # a position the rules do not know (a tile short) cannot be judged: the game is replayed from the start, and
    # a reading explains the refusal only from the engine's own position: one that refuses the first deal does
    # so from a new game, not from the engine's round 2 (it would explain it by changing what came before)
    broken = _short_bag()
    broken["bag"] = "KKK"
    again = observation(_refused_deal(broken))
    assert reproduce(MutantEngine(BY_ID["deal-no-refill"]), None, again) != again
    assert reproduce(MutantEngine(BY_ID["setup-two-factories-a-player"]), None, again) != again
    # from the position the reading itself sets up (4 factories for 2 players, which the rules cannot load), it
    # does explain the refusal
    reading = MutantEngine(BY_ID["setup-two-factories-a-player"])
    own = observation(_refused_deal(reading.new_game(2, "colour", 0)))
    assert reproduce(reading, None, own) == own


def test_a_scenario_failed_only_by_the_rule_a_refusal_names_contradicts_no_misreading():
    from azul_conformance.diagnosis.cover import contradicted
    from azul_conformance.harness.cases import scenario_cases

    cases = {case.id: case for case in scenario_cases(None).cases}
    # deal-no-refill refuses this deal too, naming another rule than the scenario's: an engine that names no rule
    # passes it, and reads the deal no differently
    named = CaseResult("deal-lid-short-across-factories-refused", CaseKind.SCENARIO, Verdict.PASS)
    # while a deal it makes against the rules (the bag empty, the lid never poured in) is a contradiction
    drawn = CaseResult("deal-bag-runs-out-mid-deal", CaseKind.SCENARIO, Verdict.PASS)
    never = [BY_ID["deal-no-refill"]]
    assert contradicted([named], never) == {"deal-no-refill": [named.id]}  # the published kill alone
    assert contradicted([named], never, cases) == {"deal-no-refill": []}
    assert contradicted([named, drawn], never, cases) == {"deal-no-refill": [drawn.id]}


def test_a_property_the_engine_passed_contradicts_no_misreading():
    # the published kills played 50 games a property: the inverted winner fails targeted-end-ties there, but an
    # engine that is that very reading, run with 3 games, may pass it; a scenario it kills, passed, still rules
    # it out
    from azul_conformance.diagnosis.cover import contradicted

    lowest = [BY_ID["end-lowest-score-wins"]]
    games = CaseResult("targeted-end-ties", CaseKind.PROPERTY, Verdict.PASS)
    scenario = CaseResult("end-clear-win-three-players", CaseKind.SCENARIO, Verdict.PASS)
    assert contradicted([games], lowest) == {"end-lowest-score-wins": []}
    assert contradicted([games, scenario], lowest) == {"end-lowest-score-wins": [scenario.id]}


def test_pairs_that_explained_nothing_do_not_use_up_the_bound(monkeypatch):
    # each failing case has its own nearest misreadings, and no pair of them explains it; the last case is
    # explained by a pair of its own nearest. Trying every pair tried so far again on each case (as before)
    # spent the bound on the first cases, quadratically, and never reached the last.
    import importlib

    from azul_conformance.mutants.catalogue import MUTANTS

    diagnosis = importlib.import_module("azul_conformance.diagnosis.cover")

    ids = [m.id for m in MUTANTS[:21]]
    by_id = {m: BY_ID[m] for m in ids}
    trials = diagnosis._Trials()
    seen = {}
    for index in range(7):  # cases 0-5: three nearest each, their own; case 6: the pair of ids[18] and ids[19]
        case_id = f"case-{index}"
        trials.explains[case_id] = set()
        trials.closeness[case_id] = {m: 0.5 for m in ids[3 * index:3 * index + 3]}
        seen[case_id] = observation(_refused_deal(_short_bag()))
    target = f"{ids[18]}+{ids[19]}"
    monkeypatch.setattr(diagnosis, "reproduce", lambda engine, case, observed: observed if engine.mutant.id == target
                        and observed is seen["case-6"] else None)
    monkeypatch.setattr(diagnosis, "MAX_PAIR_TRIALS", 3 * 7)  # three pairs a case
    diagnosis._try_pairs(trials, seen, {}, by_id, 0)
    assert trials.explains["case-6"] == {target}
    assert all(not trials.explains[f"case-{index}"] for index in range(6))


def _assertions(*pairs):
    from azul_conformance.diagnosis.observe import Observation

    return Observation("assertions", frozenset((f"conformance/scenarios/x.yaml:{line}", value)
                                               for line, value in pairs))


def test_a_reading_its_own_killing_cases_contradict_more_than_bear_out_explains_nothing():
    # the reading explains one of its killing cases (k1) exactly; in k2 and k3 the engine got past the place where
    # the reading first differs (line 40) and did otherwise there: two contradictions against one confirmation.
    # In k4 the engine went wrong before that place (line 30): another fault hid it, and k4 counts neither way.
    from azul_conformance.diagnosis import cover

    def trials_with(first_k2: int, first_k3: int):
        trials = cover._Trials()
        trials.explains = {"k1": {"r", "r+s"}, "k2": set(), "k3": set(), "k4": set(), "other": {"r"}}
        trials.first = {"k1": 40, "k2": first_k2, "k3": first_k3, "k4": 30}
        trials.reached = {"k2": {"r": 40}, "k3": {"r": 40}, "k4": {"r": 40}}
        return trials

    killers = {"r": {"k1", "k2", "k3", "k4"}}
    contradicted = trials_with(40, 55)
    cover._drop_unconfirmed(contradicted, killers)
    assert "r" in contradicted.ruled_out
    assert not contradicted.explains["other"] and not contradicted.explains["k1"]  # alone and in its pair
    hidden = trials_with(30, 55)  # k2 went wrong earlier: one contradiction against one confirmation
    cover._drop_unconfirmed(hidden, killers)
    assert "r" not in hidden.ruled_out and hidden.explains["other"] == {"r"}


def test_a_reading_a_case_of_its_own_rule_contradicts_explains_nothing_however_often_borne_out():
    # the reading explains three killing cases of other rules (k1-k3); in o1, a case written for its own rule,
    # the engine got as far as the reading's first difference (line 40) undisturbed and did something else
    # there: a near neighbour of the engine's fault, not it, though it is borne out three times to one. Where o1
    # went wrong earlier (line 30), it says nothing, and the reading stands.
    from azul_conformance.diagnosis import cover

    def trials_with(first_o1: int):
        trials = cover._Trials()
        trials.explains = {"k1": {"r"}, "k2": {"r"}, "k3": {"r"}, "o1": set()}
        trials.first = {"k1": 40, "k2": 40, "k3": 40, "o1": first_o1}
        trials.reached = {"o1": {"r": 40}}
        return trials

    killers, own = {"r": {"k1", "k2", "k3", "o1"}}, {"r": {"o1"}}
    contradicted = trials_with(40)
    cover._drop_unconfirmed(contradicted, killers, own)
    assert "r" in contradicted.ruled_out and not contradicted.explains["k1"]
    assert contradicted.closeness["k1"] == {"r": 1.0}  # shown as the nearest reading where nothing explains k1
    other_rule = trials_with(40)
    cover._drop_unconfirmed(other_rule, killers, {"r": set()})  # o1 not of its rule: three to one, it stands
    assert "r" not in other_rule.ruled_out
    hidden = trials_with(30)
    cover._drop_unconfirmed(hidden, killers, own)
    assert "r" not in hidden.ruled_out and hidden.explains["k1"] == {"r"}



def test_a_dropped_reading_shown_as_nearest_says_it_reproduces_the_cases_and_why_it_is_not_named():
    # a reading that reproduces every case of a heading nothing explains was dropped (other cases rule it out):
    # "100%" beside "not diagnosed" would read as a contradiction, so the report and the terminal say so; a
    # near miss is never rounded up to it
    from azul_conformance.diagnosis import cover
    from azul_conformance.harness.findings import closeness_text

    from azul_conformance.mutants.catalogue import MUTANTS

    a, b = MUTANTS[0].id, MUTANTS[1].id
    trials = cover._Trials()
    trials.closeness = {"c1": {a: 1.0, b: 0.996}, "c2": {a: 1.0, b: 0.996}}
    cases = [CaseResult(case_id, CaseKind.SCENARIO, Verdict.FAIL) for case_id in ("c1", "c2")]
    near = cover._nearest(cases, trials, BY_ID)
    assert [(m.id, score) for m, score in near] == [(a, 1.0), (b, 0.99)]
    assert closeness_text(1.0) == "reproduces these cases exactly, but other cases of this run rule it out"
    assert closeness_text(0.99) == "99%"


def test_pairs_are_of_two_single_readings_never_a_pair_shown_as_nearest_and_a_third(monkeypatch):
    # a dropped pair is shown as nearest on its cases (closeness 1.0); tried again with another reading it would
    # make three at once, and bring back a reading dropped for a contradiction: pairs are of single readings only
    import importlib

    from azul_conformance.mutants.catalogue import MUTANTS

    diagnosis = importlib.import_module("azul_conformance.diagnosis.cover")
    a, b, c = (m.id for m in MUTANTS[:3])
    by_id = {a: BY_ID[a], b: BY_ID[b], c: BY_ID[c]}
    by_id[f"{a}+{b}"] = diagnosis.pair(BY_ID[a], BY_ID[b])
    trials = diagnosis._Trials()
    trials.explains = {"k1": set(), "k2": {c}}
    trials.closeness = {"k1": {f"{a}+{b}": 1.0, c: 0.5, b: 0.4}}
    trials.ruled_out = {a}
    tried = []
    monkeypatch.setattr(diagnosis, "reproduce", lambda engine, case, observed: tried.append(engine.mutant.id))
    seen = {case: observation(_refused_deal(_short_bag())) for case in trials.explains}
    diagnosis._try_pairs(trials, seen, {}, by_id, 0)
    assert tried and all(len(mutant_id.split("+")) == 2 and a not in mutant_id.split("+") for mutant_id in tried)

def test_a_second_fault_at_the_place_of_the_contradiction_is_no_contradiction(monkeypatch):
    # reading a explains k1 and k2, and o1 of its own rule contradicts it; but the engine shows a second fault, b,
    # elsewhere (k3), and the pair of both reproduces o1: the floor counted otherwise and the marker as well. The
    # pair explains o1, and a stands
    import importlib

    from azul_conformance.mutants.catalogue import MUTANTS

    diagnosis = importlib.import_module("azul_conformance.diagnosis.cover")
    a, b = MUTANTS[0].id, MUTANTS[1].id
    by_id = {a: BY_ID[a], b: BY_ID[b]}
    trials = diagnosis._Trials()
    trials.explains = {"k1": {a}, "k2": {a}, "k3": {b}, "o1": set()}
    trials.first = dict.fromkeys(trials.explains, 40)
    trials.reached = {"o1": {a: 40}}
    seen = {case: observation(_refused_deal(_short_bag())) for case in trials.explains}
    monkeypatch.setattr(diagnosis, "reproduce", lambda engine, case, observed: observed
                        if engine.mutant.id == f"{a}+{b}" and observed is seen["o1"] else None)
    own = {a: {"o1"}, b: set()}
    diagnosis._co_faults(trials, own, seen, {}, by_id, 0)
    assert trials.explains["o1"] == {f"{a}+{b}"}
    diagnosis._drop_unconfirmed(trials, {a: {"k1", "k2", "o1"}, b: {"k3"}}, own)
    assert not trials.ruled_out and trials.explains["k1"] == {a}


def test_a_reading_that_shows_only_what_the_engine_shows_at_a_checkpoint_is_not_contradicted_there(monkeypatch):
    # at the checkpoint of line 40 the engine got the floor wrong as the reading does, and a score wrong besides
    # (another fault): the reading does not explain the case, but nothing there contradicts it; a reading that
    # shows a floor the engine did not is contradicted at that line
    from azul_conformance.diagnosis import cover

    engine_saw = _assertions((40, '"floor"'), (41, '"score"'))
    answers = {"same-floor": _assertions((40, '"floor"')), "other-floor": _assertions((40, '"FLOOR"'))}
    monkeypatch.setattr(cover, "reproduce", lambda engine, case, observed: answers.get(
        getattr(engine, "mutant", None) and engine.mutant.id, _assertions((40, '"rules"'))))
    catalogue = [Mutant(mutant_id, "FLOOR-3", "made up", ()) for mutant_id in answers]
    trials = cover._try_cases(["k"], {"k": engine_saw}, {}, catalogue, 0, None)
    assert trials.first == {"k": 40} and not trials.explains["k"]
    assert trials.reached["k"] == {"other-floor": 40}


def test_the_self_test_s_runs_combine_only_with_the_same_settings(tmp_path, capsys):
    # singles over the protocol on one core and pairs in-process on the other, published as one self-test
    bench = _benchmark("eval_diagnosis")
    single = bench.Outcome(("floor-marker-free",), ("floor-marker-free",), (), 0, 0, 4, 0.2)
    double = bench.Outcome(("end-no-tie-break", "floor-marker-free"), ("end-no-tie-break",), (), 0, 0, 6, 0.4)
    bench.summarise([single], {"over": "protocol", "seed": 0, "examples": 5, "case_timeout": 60}, tmp_path / "1")
    bench.summarise([double], {"over": "protocol", "seed": 3, "examples": 5, "case_timeout": 60}, tmp_path / "2")
    assert bench.combine([tmp_path / "1", tmp_path / "2"], tmp_path / "both") == 0
    both = json.loads((tmp_path / "both").read_text())
    assert both["singles"] == {"total": 1, "named": 1, "alone": 1, "over": "protocol"}
    assert both["pairs"] == {"total": 1, "both_named": 0, "seed": 3} and both["seconds_per_100_cases"] == 6.0
    bench.summarise([double], {"over": "protocol", "seed": 3, "examples": 9, "case_timeout": 60}, tmp_path / "3")
    assert bench.combine([tmp_path / "1", tmp_path / "3"], None) == 2
    assert "examples 9, where the files before it have 5" in capsys.readouterr().err
    assert bench.combine([tmp_path / "1", tmp_path / "1"], None) == 2



def test_the_published_self_test_covers_the_catalogue_and_says_what_its_outcomes_say():
    # docs/reports/diagnosis/self-test.json is written by benchmarks/eval_diagnosis.py, never by hand: its
    # figures are those of its outcomes, and it goes stale (fails here) when the catalogue changes
    from pathlib import Path

    published = Path(__file__).resolve().parents[1] / "docs" / "reports" / "diagnosis" / "self-test.json"
    data = json.loads(published.read_text(encoding="utf-8"))
    ones = [o for o in data["outcomes"] if len(o["ids"]) == 1]
    twos = [o for o in data["outcomes"] if len(o["ids"]) == 2]
    from azul_conformance.mutants.catalogue import MUTANTS

    assert sorted(o["ids"][0] for o in ones) == sorted(m.id for m in MUTANTS)
    assert data["singles"]["total"] == len(ones) and data["pairs"]["total"] == len(twos) >= 300
    assert data["singles"]["named"] == sum(o["named"] == o["ids"] for o in ones)
    assert data["pairs"]["both_named"] == sum(o["named"] == sorted(o["ids"]) for o in twos)
    assert all(BY_ID[a].rule != BY_ID[b].rule for a, b in (o["ids"] for o in twos))
    if "held_out" in data:  # each single diagnosed without itself as well: the figures are its outcomes'
        bench = _benchmark("eval_diagnosis")
        outcomes = [bench.Outcome.from_json(o) for o in ones]
        assert all(o.held_named is not None for o in outcomes)
        recomputed = bench.held_out_summary(outcomes)
        assert data["held_out"] == {**recomputed, "near_pairs": [list(p) for p in recomputed["near_pairs"]],
                                    "other_pairs": [list(p) for p in recomputed["other_pairs"]]}


def test_a_case_explained_by_another_rules_misreading_is_counted_once_under_it(tmp_path):
    # FLOOR-3's shifted table fails scoring and end cases too: each is counted under FLOOR-3, not as a broken
    # END-5 or SCORE-2 beside it, in the rule-by-rule table (and so the matrix) and the report read back
    from azul_conformance.harness.findings import unfiled
    from azul_conformance.harness.report import by_rule
    mutant = BY_ID["floor-penalties-shifted"]
    results, cases = judged(MutantEngine(mutant), ("FLOOR", "SCORE", "END-5", "differential-tiling"))
    own = {r.id: r.main_rule for r in results if r.bad}
    assert any(rule != "FLOOR-3" for rule in own.values())  # some are filed under other rules by the run
    found = diagnose(results, cases)
    bad = [r for r in found.results if r.bad]
    assert {r.id for r in bad} == set(own) and {r.main_rule for r in bad} == {"FLOOR-3"}
    table = by_rule(list(found.results))
    assert all(not any(r.bad for r in table.get(rule, ())) for rule in set(own.values()) - {"FLOOR-3"})
    assert {r.id for r in table["FLOOR-3"] if r.bad} == set(own)
    # what each was filed under is kept: a report diagnosed again starts from the case itself
    assert {r.id: unfiled(r).main_rule for r in bad} == own
    again = diagnose(found.results, cases)
    assert [(d.id, d.rule, [c.id for c in d.cases]) for d in again.deviations] == \
        [(d.id, d.rule, [c.id for c in d.cases]) for d in found.deviations]


def test_a_rule_level_case_explained_by_a_rulings_misreading_counts_under_our_rulings():
    from azul_conformance.harness.findings import refiled, rule_levels, scores, unfiled
    ruling = next(rule for rule, level in sorted(rule_levels().items()) if level == "ruling")
    case = CaseResult("end-two-players-complete-rows", CaseKind.SCENARIO, Verdict.FAIL, rules=("END-1", "END-2"),
                      level="rule")
    moved = refiled(case, (ruling,))
    assert (moved.main_rule, moved.level, moved.verdict) == (ruling, "ruling", Verdict.FAIL)
    assert scores([moved])["rule"]["fail"] == 0 and scores([moved])["ruling"]["fail"] == 1
    assert unfiled(moved) == case
    assert refiled(case, ("END-1",)) is case  # explained by a misreading of its own rule: where it was


def test_a_difference_from_our_ruling_is_reported_apart_from_the_misreadings():
    # END-8 is our ruling (the rulebooks are silent on a deal with bag and lid both empty): an engine that deals
    # on has not misread the rules, and its report says so in a section of its own, never as a misreading
    from azul_conformance.harness.report import lead_line, markdown
    results, cases = judged(MutantEngine(BY_ID["end-empty-deal-deals-on"]), ("END-8",))
    found = diagnose(results, cases)
    [only] = found.deviations
    assert only.of_ruling and only.level == "ruling" and only.to_json()["ruling"] is True
    assert only.title.startswith("differs from our ruling END-8: ")
    assert lead_line(found.deviations).startswith("0 misreadings, 1 difference from our rulings, ")
    text = markdown({"engine": {"name": "x"}}, list(found.results), found=found.deviations)
    deviations_part, rulings_part = text.split("## Differs from our rulings")
    assert "### 1. differs from our ruling END-8: " in rulings_part and "END-8" not in deviations_part.split(
        "## Deviations")[1]
    # a misreading of the rules as written is not one of them
    results, cases = judged(MutantEngine(BY_ID["floor-penalties-shifted"]), ("FLOOR-3",))
    assert not any(d.of_ruling for d in diagnose(results, cases).deviations)


def _late_marker_unplaced(original):
    """A slip no reading of the catalogue is: from round 2 on, the first take from the centre hands the marker to
    the taker (who starts the next round, as the rules say) but never puts it on the floor."""
    from azul_reference.board import MARKER
    from azul_reference.game import IN_CENTRE

    def take(game, move):
        before = game.marker
        original(game, move)
        if game.round >= 2 and before == IN_CENTRE and game.marker != IN_CENTRE:
            floor = game.boards[game.marker].floor
            if MARKER in floor:
                floor.remove(MARKER)
    return take


def _two_players(engine):
    from azul_conformance.engines.base import Capabilities

    engine.info = dataclasses.replace(engine.info, capabilities=Capabilities(players=(2,), variants=("colour",)))
    return engine


def test_a_reading_no_judged_case_could_refute_is_never_named():
    # "the marker is handed out once a game" leaves the floor without the marker from round 2 on, as this engine
    # does, but also keeps the marker in the centre, which this engine gets right; the cases that tell it from
    # the rules are a 4-player scenario, which a 2-player engine skips, and a 2-player one the engine fails in
    # another way: it may not explain anything here
    engine = _two_players(MutantEngine(Mutant("late-marker-unplaced", "OFFER-5", "made up",
                                              (("game.Game._take", _late_marker_unplaced),))))
    results, cases = judged(engine, (), examples=10)
    assert any(r.bad and r.kind is CaseKind.PROPERTY for r in results)
    assert not any(r.id == "edge-full-round-four-players" and r.verdict.judged for r in results)
    found = diagnose(results, cases).deviations
    named = {d.id for d in found} | {m.id for d in found for m in d.alike}
    assert "offer-marker-first-round-only" not in named, [d.title for d in found]
    # without its 2-player killer (left out by --only, say), nothing the run judged could refute the reading; a
    # 4-player engine with the same slip runs the other one: the reading is then refuted by it, not unheard
    from azul_conformance.diagnosis.cover import unrefutable

    results = [r for r in results if r.id != "offer-marker-taken-in-a-later-round"]
    assert "offer-marker-first-round-only" in unrefutable(results, [BY_ID["offer-marker-first-round-only"]])
    passed = [dataclasses.replace(r, verdict=Verdict.PASS) for r in results
              if r.id != "edge-full-round-four-players"]
    four = CaseResult("edge-full-round-four-players", CaseKind.SCENARIO, Verdict.PASS)
    assert unrefutable(passed + [four], [BY_ID["offer-marker-first-round-only"]]) == []


def test_azul_diagnose_shows_its_progress_in_plain_lines_off_a_terminal(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from azul_conformance.cli.diagnose import diagnose as diagnose_command
    from azul_conformance.harness import progress

    session = Session(engine_command=f"py:{__file__}:{floor_flat.__name__}", only=("FLOOR-3",),
                      report_dir=str(tmp_path), formats=("jsonl",), properties=False)
    run_session(session, QUIET)
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.01)  # a log's line every 10 s, sooner for the test
    shown = CliRunner().invoke(diagnose_command, [str(tmp_path), "-j", "1"])
    assert shown.exit_code == 0, shown.output
    lines = [line for line in shown.stderr.splitlines() if line.startswith("diagnose: ")]
    assert any(re.fullmatch(r"diagnose: \d+/\d+ cases, [\d,.]+ cases/s, \d:\d\d:\d\d", line)
               for line in lines), shown.stderr
    assert "1 misreading, 0 engine faults behind" in shown.stdout


def test_a_misreading_is_not_run_again_on_a_corpus_scenario_it_is_published_to_pass(tmp_path, monkeypatch):
    # the same deviations as trying every misreading on every case, with the scenarios of other files (the same id,
    # another file) and results measured on another suite version tried whole
    from azul_conformance.diagnosis import cover

    engine = MutantEngine(BY_ID["floor-first-space-free"])
    results, cases = judged(engine, ("FLOOR",), examples=2)
    seen = {r.id: observation(r) for r in results if r.bad and observation(r) is not None}
    passes = cover.passing(seen, cases)
    scenario_ids = {c for c in seen if cases[c].kind is CaseKind.SCENARIO}
    assert set(passes) == scenario_ids and all("floor-first-space-free" not in p for p in passes.values())
    assert all(len(p) > len(cover.MUTANTS) // 2 for p in passes.values())  # most misreadings pass a scenario
    runs = []
    real = cover.reproduce

    def counted(engine, *rest):  # the single readings' runs, those the published results spare
        if "+" not in getattr(getattr(engine, "mutant", None), "id", ""):
            runs.append(1)
        return real(engine, *rest)

    monkeypatch.setattr(cover, "reproduce", counted)
    short = diagnose(results, cases)
    tried_short, runs[:] = len(runs), []
    monkeypatch.setattr(cover, "passing", lambda seen, cases: {})
    whole = diagnose(results, cases)
    assert len(runs) > 2 * tried_short
    assert [(d.id, [c.id for c in d.cases]) for d in short.deviations] == \
        [(d.id, [c.id for c in d.cases]) for d in whole.deviations]
    monkeypatch.undo()
    elsewhere = tmp_path / "floor.yaml"
    some = next(c for c in scenario_ids)
    moved = {**cases, some: dataclasses.replace(cases[some], payload=dataclasses.replace(cases[some].payload,
                                                                                       file=str(elsewhere)))}
    assert some not in cover.passing(seen, moved)
    monkeypatch.chdir(tmp_path)  # run from another folder, the corpus's scenarios are still known
    assert set(cover.passing(seen, cases)) == scenario_ids
    own = tmp_path / cases[some].payload.file  # one's own scenario file named as a corpus one, beside the run
    own.parent.mkdir(parents=True)
    own.write_text("scenarios: []\n", encoding="utf-8")
    same_file = {c for c in scenario_ids if cases[c].payload.file == cases[some].payload.file}
    assert set(cover.passing(seen, cases)) == scenario_ids - same_file
    monkeypatch.setattr(cover, "_suite_version", lambda: "0+other")
    assert cover.passing(seen, cases) == {}


def test_a_reading_that_reproduces_few_of_a_first_difference_left_mostly_unexplained_names_no_bug():
    # 30 failures share one first difference (the final scores, after the game's end); reading "chance"
    # reproduces 2 of them, "other" reproduces 3 failures of another first difference: "chance" is dropped (its
    # cases go back to the symptom's one heading), "other" stays; beside a reading that reproduces 20 others of
    # the 30, "chance" is still outnumbered by the 8 left, and the 20 outnumber the 10 then left
    from azul_conformance.diagnosis import cover

    def failure(case_id: str, symptom: str) -> CaseResult:
        return CaseResult(case_id, CaseKind.SCENARIO, Verdict.FAIL, rule="END-2", symptom=symptom, level="rule",
                          details={"failures": [{"step": "end"}]})

    scores = [failure(f"s{n}", "boards/score: differs") for n in range(30)]
    floors = [failure(f"f{n}", "boards/floor: differs") for n in range(3)]
    chosen = [("other", ["f0", "f1", "f2"]), ("chance", ["s0", "s1"])]
    assert cover._outnumbered_dropped(chosen, scores + floors) == [("other", ["f0", "f1", "f2"])]
    most = [("most", [f"s{n}" for n in range(2, 22)])] + chosen
    assert cover._outnumbered_dropped(most, scores + floors) == most[:2]


def test_an_experiment_draws_the_same_tiles_whatever_ran_on_its_engine_before():
    # the experiments share one engine per reading over many cases (in any order, in any share of processes):
    # a scenario with a random deal must draw the same tiles on it each time, or -j and --only change a heading
    from azul_conformance.diagnosis.experiment import reproduce
    from azul_conformance.harness.cases import scenario_cases

    cases = {case.id: case for case in scenario_cases(None).cases}
    reading = BY_ID["setup-nine-factories-always"]
    case = cases["setup-three-players-seven-factories"]
    seen = observation(run_cases(MutantEngine(reading, 0), [case], RunOptions())[0])
    assert seen is not None
    fresh = reproduce(MutantEngine(reading, 0), case, seen)
    used = MutantEngine(reading, 0)
    for other in ("deal-random-fills-every-factory", "setup-two-players-five-factories", "deal-four-players-random"):
        reproduce(used, cases[other], seen)  # draws from its generator
    assert fresh == seen and reproduce(used, case, seen) == fresh


def test_an_experiment_deals_again_what_the_engine_drew_itself_whichever_way_its_draw_fell():
    # with nine factories, 8B1 after a random deal is accepted or refused (OFFER-6) as the engine's own draw put
    # blue on factory 8 or not: the reading explains either only when its experiment deals the engine's tiles
    # (its own draw would fall another way, and the heading would change with the engine's random state)
    from azul_conformance.diagnosis.experiment import reproduce
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.harness.cases import scenario_cases

    case = next(c for c in scenario_cases(None).cases if c.id == "setup-three-players-seven-factories")
    reading = BY_ID["setup-nine-factories-always"]
    outcomes = set()
    for seed in range(8):
        result = run_cases(MutantEngine(reading, seed), [case], RunOptions())[0]
        dealt = result.details["draws"]["1"]  # step 1, `deal random`: the nine factories it drew
        assert len(dealt) == 9 and all(len(tiles) == 4 for tiles in dealt)
        back = observation(CaseResult.from_json(json.loads(json.dumps(result.to_json()))))
        assert back == observation(result) and dict(back.draws) == {1: tuple(dealt)}  # a report keeps them
        outcomes.add("accepted" if result.actual == "accepted" else result.actual["rule"])
        assert reproduce(MutantEngine(reading, 0), case, back) == back
        assert reproduce(ReferenceEngine(0), case, back) != back  # seven factories: the draw is not theirs
    assert outcomes == {"accepted", "OFFER-6"}


def test_draws_a_report_read_back_holds_are_dealt_again_only_when_well_formed():
    # a report is outside input (azul diagnose reads any file): draws of another shape are not dealt at all, and
    # a draw no reading can deal (a tile that is no colour, a giant text) leaves each reading its own draw
    from azul_conformance.diagnosis.experiment import run_again
    from azul_conformance.harness.cases import scenario_cases
    from azul_conformance.notation import COLOURS

    case = next(c for c in scenario_cases(None).cases if c.id == "setup-three-players-seven-factories")
    reading = BY_ID["setup-nine-factories-always"]
    result = run_cases(MutantEngine(reading, 0), [case], RunOptions())[0]
    for draws in (["BBBB"], {"one": ["BBBB"]}, {"1": "BBBB"}, {"1": [4]}):
        assert observation(dataclasses.replace(result, details={**result.details, "draws": draws})).draws == ()
    for factories in (["ZZZZ"] * 9, ["B" * 100_000] * 9):
        seen = observation(dataclasses.replace(result, details={**result.details, "draws": {"1": factories}}))
        kept = dict(seen.draws)[1]  # as the report keeps it: a giant text clipped like every text of a result
        assert len(kept) == 9 and all(len(tiles) <= 2_100 for tiles in kept)
        again = run_again(MutantEngine(reading, 0), case.payload, draws=dict(seen.draws))
        dealt = again.details["draws"]["1"]  # the reading's own draw: nine factories of four real tiles
        assert len(dealt) == 9 and all(len(tiles) == 4 and set(tiles) <= set(COLOURS) for tiles in dealt)


def test_an_acceptance_after_the_engine_s_own_draw_is_held_to_what_no_draw_decides():
    # 8B1 accepted by an engine with nine factories, after a deal it drew itself: its tiles (and how many B the
    # take moved) are its own draw's, which no reading can be asked to draw alike; what the take did to the turn,
    # the phase and the factories' number is what tells readings apart
    from azul_conformance.harness.cases import scenario_cases
    from azul_conformance.scenario.runner import UNDRAWN_FIELDS

    case = next(c for c in scenario_cases(None).cases if c.id == "setup-three-players-seven-factories")
    states = []
    for seed in range(6):
        result = run_cases(MutantEngine(BY_ID["setup-nine-factories-always"], seed), [case], RunOptions())[0]
        if "accepted_state" in result.details:
            states.append(result.details["accepted_state"])
    assert states
    for state in states:
        assert set(state) <= set(UNDRAWN_FIELDS) | {"factories"} and state["factories"] == 9
        assert state["phase"] == "offer" and state["turn"] == 1


def test_the_held_out_self_test_never_names_the_served_reading_and_counts_each_single_by_its_worst_name():
    # a single diagnosed without itself (benchmarks/eval_diagnosis.py --held-out): the reading it serves cannot
    # be named; what is named is as exact only where it reproduces every failing case of the run
    bench = _benchmark("eval_diagnosis")
    served = "offer-empty-take-empties-source"
    outcome = bench.judge((served,), 3, False, held_out=True)
    assert outcome.failing and outcome.named == (served,)
    assert outcome.held_named is not None and served not in outcome.held_named
    assert set(outcome.held_exact) <= set(outcome.held_named)
    # counted by the worst name it was given: another rule, then a near reading, then as exact, then nothing
    single = functools.partial(bench.Outcome, others=(), undiagnosed=0, faults=0, failing=3, seconds=0.1)
    rule = BY_ID[served].rule
    same = [m.id for m in MUTANTS if m.rule == rule and m.id != served][:2]
    other = next(m.id for m in MUTANTS if m.rule != rule)
    summary = bench.held_out_summary([
        single(ids=(served,), named=(served,), held_named=(same[0],), held_exact=(same[0],)),
        single(ids=(served,), named=(served,), held_named=(same[0], same[1]), held_exact=(same[0],)),
        single(ids=(served,), named=(served,), held_named=(same[1], other), held_exact=(same[1],)),
        single(ids=(served,), named=(served,), held_named=(), held_exact=()),
        single(ids=(served,), named=(served,), held_named=None)])  # not run held out: not counted
    assert {k: summary[k] for k in ("total", "as_exact", "near", "other_rule", "nothing")} == \
        {"total": 4, "as_exact": 1, "near": 1, "other_rule": 1, "nothing": 1}
    assert summary["near_pairs"] == [(served, [same[1]])]
    assert summary["other_pairs"] == [(served, [other])]  # what it names as exact is not listed


def test_a_failing_game_a_reading_explains_bears_it_out_as_a_killing_scenario_does():
    # the engine plays no scenario of the reading's rule (no loader: its scenarios are not judged) but fails two
    # random games exactly as the reading does: replaying them, the reading fails them too, so they are killing
    # cases of its own that bear it out, though the published killers (other random games) do not list them.
    # Its one published killer judged here (k1) went wrong earlier, for another fault, and says nothing.
    from azul_conformance.diagnosis import cover

    def trials():
        found = cover._Trials()
        found.explains = {"differential-a": {"r"}, "differential-b": {"r"}, "k1": set()}
        found.first = {"k1": 30}
        found.reached = {"k1": {"r": 40}}
        return found

    killers = {"r": {"k1"}}
    without_games = trials()
    cover._drop_unconfirmed(without_games, killers)
    assert "r" in without_games.ruled_out  # never borne out by a killer it was published with
    with_games = trials()
    cover._drop_unconfirmed(with_games, killers, games={"differential-a", "differential-b"})
    assert "r" not in with_games.ruled_out and with_games.explains["differential-a"] == {"r"}
    # games do not outweigh a case of its own rule that contradicts it
    contradicted = trials()
    contradicted.first["k1"] = 40
    cover._drop_unconfirmed(contradicted, killers, {"r": {"k1"}}, games={"differential-a", "differential-b"})
    assert "r" in contradicted.ruled_out


def test_the_catch_power_page_shows_the_held_out_self_test_and_its_pairs(tmp_path):
    # a self-test.json with a held_out block (eval_diagnosis.py --held-out): the page gives each count and share
    # and lists the pairs of both kinds; without the block it says nothing of it
    from pathlib import Path

    hooks = Path(__file__).resolve().parents[1] / "docs" / "hooks"
    sys.path.insert(0, str(hooks))
    import docgen_mutation

    held = {"total": 4, "as_exact": 1, "near": 1, "other_rule": 1, "nothing": 1,
            "near_pairs": [["floor-overflow-overwrites-last-space", ["floor-overflow-lost"]]],
            "other_pairs": [["floor-first-space-free", ["floor-marker-space-uncharged"]]]}
    data = {"singles": {"total": 2, "named": 2, "alone": 2, "over": "in-process"},
            "pairs": {"total": 0, "both_named": 0, "seed": 0}, "seconds_per_100_cases": 1.0, "examples": 5}
    for with_block in (True, False):
        (tmp_path / "self-test.json").write_text(json.dumps({**data, **({"held_out": held} if with_block else {})}))
        problems: list[str] = []
        text = "\n".join(docgen_mutation.diagnosis_section(tmp_path, problems))
        assert not [p for p in problems if "self-test" in p]
        if with_block:
            assert "a near reading of its own rule (a heading more precise than the evidence) 1 (25.0%)" in text
            assert "a reading of another rule 1 (25.0%)" in text and "nothing (its failures" in text
            assert "    - `floor-overflow-overwrites-last-space`: `floor-overflow-lost`" in text
            assert "    - `floor-first-space-free`: `floor-marker-space-uncharged`" in text
        else:
            assert "held out**" not in text
