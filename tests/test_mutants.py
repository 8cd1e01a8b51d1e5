"""The rule-level mutants: each is a real change of behaviour, patches are undone, and the scenarios of a rule
kill a sample of its mutants."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import azul_reference as ref
from azul_conformance.cli.mutants import mutants as mutants_command
from azul_conformance.engines.base import Rejected
from azul_conformance.harness.cases import select as select_cases
from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants import BY_ID, MUTANTS, run_mutant, select
from azul_conformance.mutants.catalogue import ALTERNATIVES, M
from azul_conformance.mutants.lint import KNOWN, blind_scenarios, killed_scenarios
from azul_conformance.mutants.patching import MutantEngine, applied
from azul_conformance.mutants.probe import first_difference
from azul_conformance.results import CaseKind

RULES = {case_rule for case in collect(Session(properties=False)).cases for case_rule in case.rules}


def test_the_catalogue_is_large_named_by_rules_and_described():
    assert len(MUTANTS) >= 40
    assert len(BY_ID) == len(MUTANTS) + len(ALTERNATIVES)
    for mutant in MUTANTS + ALTERNATIVES:
        assert mutant.rule in RULES, mutant.id  # a rule of spec/rules that the scenarios check
        assert mutant.source in ("slip", "divergence", "ruling", "shape", "choice")
        assert mutant.description.endswith(".") and mutant.patches
    assert {m.source for m in MUTANTS} == {"slip", "divergence", "ruling", "shape"}
    assert {m.source for m in ALTERNATIVES} == {"choice"}  # never scored: the rules leave the choice open


REPORTS = Path(__file__).resolve().parents[1] / "docs" / "reports"
ENGINES = {path.parent.name for path in REPORTS.glob("*/causes.yaml")}


def test_each_prompting_engine_is_an_engine_of_the_matrix():
    # a reading written after an engine showed it is left out of that engine's held-out score
    # (benchmarks/eval_causes.py): its name must be the engine's report folder, or the reading is never held out
    prompted = [m for m in MUTANTS + ALTERNATIVES if m.prompted_by]
    assert prompted, "the catalogue records no reading as prompted by an engine"
    for mutant in prompted:
        assert isinstance(mutant.prompted_by, tuple) and set(mutant.prompted_by) <= ENGINES, mutant.id
        assert len(set(mutant.prompted_by)) == len(mutant.prompted_by), mutant.id
    # the readings the history shows written after meeting their engine (commits 50b8ba3, a6ef5bd, 755f873)
    assert BY_ID["score-floor-kept-until-a-placement"].prompted_by == ("ummatias-azul-py",)
    assert BY_ID["deal-lid-poured-every-round-end"].prompted_by == ("azul-tiles-js",)
    assert BY_ID["end-bonuses-when-completed-score-as-loaded"].prompted_by == ("cbermudez-azul-pl",)
    assert BY_ID["score-lone-tile-2"].prompted_by == ()  # a slip of the rule's text, met in no engine first
    listed = CliRunner().invoke(mutants_command, ["--list", "--only", "score-floor-kept-until-a-placement"])
    assert listed.exit_code == 0 and "prompted by ummatias-azul-py" in listed.output
    clean = CliRunner().invoke(mutants_command, ["--list", "--only", "offer-marker-after-the-tiles"])
    assert clean.exit_code == 0 and "written from the rules' text alone" in clean.output


def test_a_reading_prompted_by_one_engine_is_named_as_a_one_engine_tuple():
    assert M("x", "SCORE-1", "X.", ("a", None), prompted_by="myzul-ts").prompted_by == ("myzul-ts",)
    assert M("x", "SCORE-1", "X.", ("a", None)).prompted_by == ()


@pytest.mark.parametrize("mutant", MUTANTS + ALTERNATIVES, ids=[m.id for m in MUTANTS + ALTERNATIVES])
def test_each_mutant_changes_the_engines_play(mutant):
    assert first_difference(mutant, games=120) is not None, f"{mutant.id} plays every probe like the engine"


def _play(seed: int) -> list:
    game, rng, picks, states = ref.Game(3, "grey", 1), random.Random(seed), random.Random(seed + 1), []
    while not game.is_over():
        game.deal(rng=rng) if game.phase == ref.DEAL else game.play(picks.choice(game.legal_moves()))
        states.append(ref.to_state(game))
    return states


def test_patches_are_undone_even_after_an_error():
    before = _play(3)
    for mutant in MUTANTS:
        with pytest.raises(KeyError):
            with applied(mutant):
                raise KeyError("inside")
    assert _play(3) == before


def test_the_mutant_engine_is_mutated_only_during_its_own_calls():
    engine = MutantEngine(BY_ID["score-lone-tile-2"])
    engine.new_game(2)
    engine.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    for move in ("1B1", "2Y2", "3R3", "4K4", "5W5"):
        engine.play(move)
    # Seat 1 completes lines 2 (YY, YY to the floor) and 4 (KKKK): two lone tiles, less 1 + 1 for the floor:
    # 2 + 2 - 2 = 2 on the mutant, 1 + 1 - 2 = 0 by the rules.
    assert engine.state()["boards"][1]["score"] == 2
    game = ref.Game(2)  # the engine outside the mutant's calls is the real one
    game.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    for move in ("1B1", "2Y2", "3R3", "4K4", "5W5"):
        game.play(move)
    assert game.scores()[1] == 0


def test_a_whole_game_in_one_request_is_played_by_the_mutant_too():
    steps = [["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"], "1B1", "2Y2", "3R3", "4K4", "5W5"]
    run = MutantEngine(BY_ID["score-lone-tile-2"]).play_game(2, "colour", 0, steps, states=[6])
    assert run.played == 6 and run.states[0]["boards"][1]["score"] == 2  # 0 by the rules (see above)


def _short_bag() -> dict:
    """A round-2 deal with 4 tiles in the bag: the lid must be poured in, and it holds no blue (every blue
    tile is on the pattern lines)."""
    state = ref.to_state(ref.Game(2))
    state.update(round=2, bag="KKKK", lid="Y" * 20 + "R" * 20 + "K" * 16 + "W" * 20)
    state["boards"] = [dict(board, lines=["", "B", "BB", "BBB", "BBBB"]) for board in state["boards"]]
    return state


@pytest.mark.parametrize("mutant", MUTANTS + ALTERNATIVES, ids=[m.id for m in MUTANTS + ALTERNATIVES])
def test_a_deal_a_mutant_refuses_leaves_the_position_as_it_was(mutant):
    # blue is nowhere in the bag or the lid; a mutant that moves the lid into the bag before it finds that out
    # must give the tiles back (a refused request changes nothing, whatever the reading of the deal)
    engine = MutantEngine(mutant)
    before = engine.load_state(_short_bag())
    try:
        engine.deal(["KKKK", "BBBB", "YYYY", "RRRR", "WWWW"])
    except Rejected:
        assert engine.state() == before
    else:
        assert mutant.id == "deal-unchecked", "a deal of tiles that are nowhere was accepted"  # it checks nothing


def test_select_reads_ids_rules_and_chapters():
    assert [m.id for m in select(MUTANTS, ["score-lone-tile-2"])] == ["score-lone-tile-2"]
    assert {m.rule for m in select(MUTANTS, ["FLOOR-5"])} == {"FLOOR-5"}
    assert {m.rule.split("-")[0] for m in select(MUTANTS, ["end"])} == {"END"}
    assert select(MUTANTS, []) == list(MUTANTS)


# Fast mutants whose rule's scenarios tell them apart from the rule (measured: a few seconds each).
SAMPLE = ("score-lone-tile-2", "floor-full-marker-stays", "round-unclaimed-seat-0", "offer-overflow-to-lid",
          "end-first-seat-wins-tie")


@pytest.mark.parametrize("mutant_id", SAMPLE)
def test_a_sample_is_killed_by_the_scenarios_of_its_rule(mutant_id):
    mutant = BY_ID[mutant_id]
    cases = [c for c in select_cases(collect(Session(properties=False)).cases, [mutant.rule])
             if c.kind is CaseKind.SCENARIO]
    assert cases
    outcome = run_mutant(mutant, cases=cases, every_case=True)
    assert outcome.killed and set(outcome.killers) <= {c.id for c in cases}
    assert not run_mutant(BY_ID[mutant_id], cases=[]).killed  # no case, no kill: the verdict comes from the cases


def test_the_command_lists_and_scores(tmp_path):
    runner = CliRunner()
    listed = runner.invoke(mutants_command, ["--list", "--only", "SCORE-1"])
    assert listed.exit_code == 0 and "score-lone-tile-2" in listed.output and "floor" not in listed.output
    result = runner.invoke(mutants_command, ["--only", "score-lone-tile-2", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "mutation score: 100.0% (1 of 1 killed)" in result.output
    missing = runner.invoke(mutants_command, ["--only", "no-such-mutant"])
    assert missing.exit_code == 2 and "no mutant matches" in missing.output


# -- what kills each mutant, and the lint of the scenarios ------------------------------------------------------

@pytest.fixture(scope="module")
def own_rule_kills() -> dict[str, set[str]]:
    return killed_scenarios(MUTANTS, differs=False)  # killed: failed, not merely judged `differs`


def test_every_mutant_is_killed_by_a_scenario_of_its_own_rule(own_rule_kills):
    """None is killed only by a property's lucky seed, nor only by a scenario about some other rule."""
    assert [mutant.id for mutant in MUTANTS if not own_rule_kills[mutant.id]] == []


# The mutants that random play alone used to kill (or that survived), and the scenario written for each.
WRITTEN_FOR = {
    "end-rows-of-everybody": {"end-tie-break-among-the-tied-only", "end-three-way-tie-two-share"},
    "tiling-bottom-to-top": {"tiling-top-line-first"},
    "end-colour-at-four": {"end-colour-on-four-rows-no-bonus"},
    "end-partial-column": {"end-column-of-four-no-bonus"},
    "end-empty-bag-ends-game": {"end-one-tile-in-the-lid-deals-on", "end-two-players-empty-bag-deals-from-lid"},
    "deal-early-refill": {"deal-random-lid-kept-while-bag-lasts", "deal-lid-not-poured-while-bag-lasts"},
    "offer-one-line-per-colour": {"offer-same-colour-on-two-lines", "offer-same-colour-listed-for-every-free-line"},
}


@pytest.mark.parametrize("mutant_id", sorted(WRITTEN_FOR))
def test_the_scenarios_written_for_a_mutant_kill_it(own_rule_kills, mutant_id):
    assert WRITTEN_FOR[mutant_id] <= own_rule_kills[mutant_id]


def test_every_scenario_is_failed_by_a_mutant_of_its_rules():
    """The lint: a scenario that no mutant of its rules fails cannot tell the rule from a wrong reading. The few
    that no realistic mutant can fail are listed in KNOWN with the reason, and KNOWN names no other."""
    findings = blind_scenarios()
    assert [(f.scenario, f.rules, f.mutants) for f in findings if not f.known] == []
    assert {f.scenario for f in findings} == set(KNOWN)


def test_the_lint_flags_a_scenario_whose_data_tells_nothing_apart(tmp_path):
    """A tie between every player cannot tell "compare the tied players' rows" from "compare everybody's"."""
    from azul_conformance.harness.cases import scenario_case
    from azul_conformance.scenario import load_scenarios

    path = tmp_path / "blind.yaml"
    path.write_text("""- id: end-blind-tie
  title: Two players tie on points; the one with more rows wins
  rules: [END-6]
  level: rule
  given: |
    turn: 1
    centre: W
    board 0: score: 14
              W | B Y R K .
            K K | W B Y R .
          . . . | . . . . .
        . . . . | . . . . .
      . . . . . | . . . . .
    board 1: score: 24  floor: M
              . | B Y R K .
            . . | . . . . .
          . . . | . . . . .
        . . . . | . . . . .
      . . . . . | . . . . .
  steps: CW1
  expect: |
    score 0 = 30
    score 1 = 30
    winners = 0
""", encoding="utf-8")
    errors: list = []
    cases = [scenario_case(s) for s in load_scenarios([path], errors)]
    assert errors == [] and len(cases) == 1
    findings = blind_scenarios(cases=cases)
    assert [f.scenario for f in findings] == []  # "no tie-break" and "fewest rows" fail it: not blind
    # With two players the tied players are everybody: "compare everybody's rows" gives the same winner.
    only_everybody = [BY_ID["end-rows-of-everybody"]]
    assert [f.scenario for f in blind_scenarios(only_everybody, cases)] == ["end-blind-tie"]


def test_the_command_lints(tmp_path):
    result = CliRunner().invoke(mutants_command, ["--lint", "--only", "END-6"])
    assert result.exit_code == 0, result.output
    assert "0 finding(s)" in result.output


# -- the published results: the docs page and every report's header read them ----------------------------------

def test_the_published_results_name_the_catalogue_and_every_killer_still_kills():
    from azul_conformance.harness.runner import RunOptions, run_case
    from azul_conformance.mutants import published
    from azul_conformance.mutants.patching import MutantEngine

    results = published.load()
    assert results is not None, "no results.json: run `azul mutants --results`"
    assert [(e["id"], e["rule"], e["source"], e["description"]) for e in results["mutants"]] == \
        [(m.id, m.rule, m.source, m.description) for m in MUTANTS], "stale: run `azul mutants --results`"
    assert results["total"] == len(MUTANTS) and results["killed"] == sum(bool(e["killed_by"])
                                                                          for e in results["mutants"])
    assert results["killed"] == results["total"]  # the target: every rule-level mutant killed
    cases = {c.id: c for c in collect(Session(examples=results["examples"], seed=results["seed"])).cases}
    options = RunOptions(examples=results["examples"], seed=results["seed"])
    stale = []
    for entry in results["mutants"]:
        engine = MutantEngine(BY_ID[entry["id"]], results["seed"])
        for case_id in entry["killed_by"]:
            if case_id.startswith("targeted-"):
                continue  # the targeted properties' kills: tests/test_targeted_properties.py
            if case_id not in cases or not run_case(engine, cases[case_id], engine.info.capabilities,
                                                    options).verdict.bad:
                stale.append((entry["id"], case_id))
    assert stale == [], "listed killers that no longer kill: run `azul mutants --results`"


def test_the_report_header_carries_the_suite_version_and_the_mutation_score(tmp_path):
    """The harness knows nothing of the mutants: `azul conform` passes the published score to the run."""
    import json

    from azul_conformance.cli.conform import conform
    from azul_conformance.harness.header import suite_version
    from azul_conformance.mutants import published

    result = CliRunner().invoke(conform, ["--only", "end-tie-break-among-the-tied-only", "--no-properties",
                                          "--report-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    header = json.loads((tmp_path / "report.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["suite_version"] == suite_version()
    published_results = published.load()
    assert header["mutation_score"] == {"killed": published_results["killed"], "total": published_results["total"],
                                        "score": round(published_results["killed"] / published_results["total"], 4),
                                        "measured_on": published_results["suite_version"]}
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert f"Suite: {header['suite_version']}; mutation score " in markdown


def test_the_suite_version_changes_with_the_scenarios(tmp_path):
    from azul_conformance.harness.header import suite_version
    from azul_conformance.mutants import published
    from azul_conformance.scenario import corpus_root

    copy = tmp_path / "corpus"
    for path in corpus_root().rglob("*.yaml"):
        target = copy / path.relative_to(corpus_root())
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    assert suite_version([copy]) == suite_version()
    first = sorted(copy.rglob("*.yaml"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert suite_version([copy]) != suite_version()
    assert published.mutation_score([copy]) is None  # measured on the bundled suite only


def test_the_published_results_list_every_scenario_a_sampled_mutant_fails():
    # the diagnosis does not run a misreading again on a corpus scenario its published results say it passes
    # (diagnosis/cover.py `passing`): that holds only while killed_by lists every scenario it fails
    from azul_conformance.harness.runner import RunOptions, run_case
    from azul_conformance.mutants import published

    results = published.load()
    scenarios = [c for c in collect(Session(properties=False)).cases if c.kind is CaseKind.SCENARIO]
    options = RunOptions(examples=results["examples"], seed=results["seed"])
    missing = []
    for entry in random.Random(11).sample(results["mutants"], 8):
        engine = MutantEngine(BY_ID[entry["id"]], results["seed"])
        listed = set(entry["killed_by"])
        missing += [(entry["id"], case.id) for case in scenarios if case.id not in listed
                    and run_case(engine, case, engine.info.capabilities, options).verdict.bad]
    assert missing == [], "scenarios a mutant fails that its killed_by leaves out: run `azul mutants --results`"
