"""Engines of every shape judged fully: a grey-wall-only engine is judged on most of its rules, passes smoke
when correct, and the end bonuses added at every round are caught on both walls (scenarios and properties);
a property goes on past its first failure; other GREY-5 choices are `differs`, never `fail`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from azul_conformance.cli.smoke import smoke
from azul_conformance.engines.base import Capabilities
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.engines.subprocess import ProcessEngine
from azul_conformance.harness import Session, run_session
from azul_conformance.harness.findings import judge
from azul_conformance.mutants.catalogue import BY_ID as MUTANTS, M
from azul_conformance.mutants.patching import WithinEngine, applied
from azul_conformance.properties.suite import PROPERTIES, run_property
from azul_conformance.scenario import load_scenarios, run_scenario
from azul_conformance.spec_data import load_spec

FAKES = Path(__file__).parent / "fake_engines"
BY_ID = {p.id: p for p in PROPERTIES}
COLOURED_ONLY = {"WALL-1"}  # the printed layout: the only rule that names the coloured wall alone
MID_GAME = "end-bonuses-wait-for-the-end-of-the-game"


def fake(*flags: str) -> str:
    """The correct grey-only engine, or (`--bonus-every-round` first) the one with the bonuses at every round."""
    if flags[:1] == ("--bonus-every-round",):
        return " ".join([sys.executable, str(FAKES / "grey_bonus_every_round.py"), *flags[1:]])
    return " ".join([sys.executable, str(FAKES / "grey_only.py"), *flags])


def grey_only_rules() -> tuple[set[str], set[str], set[str]]:
    """The rules that apply to the grey wall, those with a scenario a grey-only engine runs, and those with any
    case (scenario or property) it runs."""
    caps = Capabilities(variants=("grey",))
    applies = {rule.id for rule in load_spec().rules} - COLOURED_ONLY
    scenarios = {r for s in load_scenarios() if not caps.missing(s.needs) and "grey" in s.variants for r in s.rules}
    cases = scenarios | {r for p in PROPERTIES if not caps.missing(p.requires) for r in p.rules}
    return applies, scenarios & applies, cases & applies


def test_a_grey_only_engine_is_judged_on_most_of_its_rules():
    applies, by_scenario, by_case = grey_only_rules()
    assert len(by_case) >= 0.8 * len(applies), sorted(applies - by_case)
    assert len(by_scenario) >= 0.8 * len(applies), sorted(applies - by_scenario)  # by scenarios alone, too


def test_the_scenarios_on_both_walls_are_written_on_the_coloured_wall():
    both = [s for s in load_scenarios() if s.walls]
    assert len(both) > 150 and all(s.given.variant == "colour" and set(s.walls) == {"colour", "grey"} for s in both)
    assert all(s.rules[0] not in COLOURED_ONLY for s in both)


def test_a_correct_grey_only_engine_passes_smoke():
    done = CliRunner().invoke(smoke, ["--engine", fake()])
    assert done.exit_code == 0, done.output
    assert "2 players, grey wall" in done.output and "all checks passed" in done.output


def test_a_correct_grey_only_engine_passes_every_case_it_can_run(tmp_path):
    session = Session(engine_command=fake(), report_dir=str(tmp_path), examples=3, seed=1, timeout=10)
    results, status = run_session(session, Console(file=open("/dev/null", "w")))
    verdicts = {r.verdict for r in results}
    assert status == 0 and verdicts <= {"pass", "skip"}, [(r.id, r.message) for r in results if r.bad]
    skipped = [r for r in results if r.verdict == "skip"]
    assert all("colour" in r.message for r in skipped) and len(skipped) < 0.05 * len(results)


@pytest.mark.parametrize("flags, wall", [((), "grey"), (("--both-walls",), "colour")])
def test_end_bonuses_at_every_round_are_caught_on_both_walls(flags, wall):
    scenario, = [s for s in load_scenarios() if s.id == MID_GAME]
    with ProcessEngine(fake("--bonus-every-round", *flags), timeout=10) as engine:
        engine.hello()
        found = run_scenario(engine, scenario)
        if wall == "colour":  # the grey run is caught too, once the colour run passes
            grey = run_scenario(engine, scenario, Capabilities(variants=("grey",)))
            assert grey.verdict == "fail" and grey.message.startswith("on the grey wall")
    assert found.verdict == "fail" and found.message.startswith(f"on the {wall} wall")
    actual = {entry["assertion"]: entry["actual"][0] for entry in found.details["failures"]}
    # the column's 7 and the colour's 10, too early (this engine adds them after the floor and the clamp)
    assert actual == {"score 0 = 14": 21, "score 1 = 0": 10}


def test_end_bonuses_at_every_round_are_caught_by_the_properties():
    with ProcessEngine(fake("--bonus-every-round"), timeout=10) as engine:
        caps = engine.hello().capabilities
        found = judge(run_property(engine, BY_ID["differential-tiling"], caps, examples=20, seed=0))
    assert found.verdict == "fail" and found.rule in ("END-3", "END-4") and found.level == "rule"
    assert found.details["game"]["plan"]["variant"] == "grey"


def test_a_first_failure_does_not_hide_a_second():
    """A lone tile scoring 2 shows in every game; the bonuses at each round's end, only once a column or a
    colour is complete: found all the same, as a further distinct failure."""
    with ProcessEngine(fake("--bonus-every-round", "--lone-tile-scores-2"), timeout=10) as engine:
        caps = engine.hello().capabilities
        found = judge(run_property(engine, BY_ID["differential-tiling"], caps, examples=20, seed=0))
    assert found.verdict == "fail" and found.rule == "SCORE-2" and "other distinct failure" in found.message
    distinct = found.details["distinct"]
    assert [d["rule"] for d in distinct] == ["END-3"] or [d["rule"] for d in distinct] == ["END-4"]
    assert set(distinct[0]) == {"message", "expected", "actual", "request", "rule", "deviation", "game"}
    assert distinct[0]["deviation"] == "boards/score: differs" and distinct[0]["request"]["cmd"] == "play"
    assert distinct[0]["game"]["steps"] and distinct[0]["game"]["plan"]["variant"] == "grey"


class Recording(ReferenceEngine):
    def __init__(self, seed, offered):
        super().__init__(seed)
        self.offered, self.games = offered, []
        self.info.capabilities = offered

    def new_game(self, players, variant="colour", start_player=0):
        self.games.append((players, variant))
        return super().new_game(players, variant, start_player)


@pytest.mark.parametrize("prop_id", ["property-invariants", "differential-end", "targeted-end-ties",
                                     "targeted-bag-runs-out"])
def test_properties_play_what_the_engine_offers(prop_id):
    offered = Capabilities(players=(3,), variants=("grey",))
    engine = Recording(2, offered)
    found = run_property(engine, BY_ID[prop_id], offered, examples=3, seed=2)
    assert found.verdict == "pass", found.message
    assert engine.games and set(engine.games) == {(3, "grey")}


def test_a_property_the_engine_cannot_play_at_all_is_a_skip_with_the_reason():
    found = run_property(ReferenceEngine(0), BY_ID["property-invariants"], Capabilities(variants=()), examples=2)
    assert found.verdict == "skip" and "offers no game" in found.message


def _floors_when_every_board_is_tiled(original):
    """GREY-5 read another way: every floor scored once all boards are tiled, not as each board is done."""
    def continue_grey_tiling(game):
        for k in range((game.turn - game.start_player) % game.players, game.players):
            board = game.boards[(game.start_player + k) % game.players]
            for line in range(5):
                if board.line_complete(line):
                    if board.free_columns(line):
                        game.phase, game.turn = "tiling", (game.start_player + k) % game.players
                        return
                    board.line_to_floor(line, game.lid)
        for board in game.boards:
            board.clear_floor(game.lid)
        game._end_round()
    return continue_grey_tiling


CHOICES = {
    "seat 0 first": MUTANTS["grey-seat-0-places-first"],
    "floors at the end": M("grey-floors-at-the-end", "GREY-5", "Floors scored when every board is tiled.",
                           ("game.Game._continue_grey_tiling", _floors_when_every_board_is_tiled), source="choice"),
}


@pytest.mark.parametrize("choice", sorted(CHOICES))
@pytest.mark.parametrize("prop_id", ["differential-tiling", "differential-next-round", "differential-end"])
def test_other_grey_tiling_choices_differ_and_never_fail(choice, prop_id):
    engine = WithinEngine(lambda: applied(CHOICES[choice]), 3)
    found = judge(run_property(engine, BY_ID[prop_id], Capabilities(variants=("grey",)), examples=6, seed=3))
    assert found.verdict == "differs" and found.level == "implementation-defined", found.message
    assert found.rule == "GREY-5" and found.details["choices"]


def test_another_tiling_order_does_not_hide_a_scoring_bug():
    """Seat 0 tiles first (GREY-5, a choice) and the end bonuses come at every round (a bug): the tiling,
    judged whole, still fails, under the bonus rule."""
    def both(original):
        def end_round(game):
            for board in game.boards:
                if not any(b.complete_rows() for b in game.boards):
                    board.score += board.end_bonus()
            original(game)
        return end_round
    bug = M("bonus-every-round", "END-3", "Bonuses at every round.", ("game.Game._end_round", both))

    def within():
        from contextlib import ExitStack
        stack = ExitStack()
        stack.enter_context(applied(CHOICES["seat 0 first"]))
        stack.enter_context(applied(bug))
        return stack
    engine = WithinEngine(within, 0)
    found = judge(run_property(engine, BY_ID["differential-tiling"], Capabilities(variants=("grey",)), examples=20))
    assert found.verdict == "fail" and found.rule in ("END-3", "END-4"), found.message


WALLS = '''- id: x-both
  title: t
  rules: [OFFER-2]
  level: rule
  walls: [colour, grey]
  given: |
    %s
    factories: 1: BBRK
    centre: M
  steps: %s
  expect: %s
'''


@pytest.mark.parametrize("given, steps, expect, problem", [
    ("variant: grey", "1B1", "board 0 line 1 = B", "written on the coloured wall"),
    ("", "1B1  1@1", "board 0 line 1 = B", "no placement"),
    ("", "1B1", "variant = colour", "cannot assert the variant"),
])
def test_a_scenario_on_both_walls_is_checked_where_it_is_written(given, steps, expect, problem):
    from azul_conformance.scenario import ScenarioError
    from azul_conformance.scenario.loader import load_text

    with pytest.raises(ScenarioError) as raised:
        load_text(WALLS % (given, steps, expect), "both.yaml")
    assert problem in str(raised.value) and "both.yaml:5:" in str(raised.value)


def test_a_scenario_on_both_walls_is_exported_with_its_walls():
    from azul_conformance.scenario.export import export_problems, export_scenarios

    document = export_scenarios([s for s in load_scenarios() if s.id in (MID_GAME, "grey-placement-choice-pending")])
    assert export_problems(document) == []
    exported = {s["id"]: s for s in document["scenarios"]}
    assert exported[MID_GAME]["walls"] == ["colour", "grey"] and "colour" not in exported[MID_GAME]["requires"]
    assert "walls" not in exported["grey-placement-choice-pending"]  # one wall: its variant says it


class Unsupported(ReferenceEngine):
    """Offers load_state, but answers `unsupported` for a grey-wall position in the tiling (as ludometer's
    adapter does for what its engine cannot hold)."""

    def load_state(self, state):
        from azul_conformance.engines.base import Rejected

        if state["phase"] == "tiling":
            raise Rejected("unsupported", "no tiling positions", request={"cmd": "load_state"})
        return super().load_state(state)


class Internal(ReferenceEngine):
    """Throws on a move its own move list offers: the adapter answers `internal`."""

    def play(self, move):
        from azul_conformance.engines.base import Rejected

        if "@" in move:
            raise Rejected("internal", "NullPointerException", request={"cmd": "play", "move": move})
        return super().play(move)


def test_unsupported_is_a_skip_and_internal_an_error_never_the_other_way():
    grey = Capabilities(variants=("grey",))
    skipped = run_property(Unsupported(1), BY_ID["property-load-state-round-trip"], grey, examples=5, seed=1)
    assert skipped.verdict == "skip" and "unsupported to load_state" in skipped.message
    broken = run_property(Internal(1), BY_ID["property-invariants"], grey, examples=5, seed=1)
    assert broken.verdict == "error" and "internal to play" in broken.message


@pytest.mark.parametrize("choice", sorted(CHOICES))
def test_fuzzing_in_lockstep_follows_the_engines_tiling_choices(choice):
    """`azul fuzz`'s lockstep observer judges the same way: another GREY-5 choice is no deviation."""
    import random

    from azul_conformance.fuzz.games import play_game
    from azul_conformance.properties.play import GamePlan

    engine, reference = WithinEngine(lambda: applied(CHOICES[choice]), 0), ReferenceEngine(0)
    failing = []
    for index in range(6):
        pick = random.Random(index)
        plan = GamePlan(pick.choice([2, 3, 4]), "grey", pick.randrange(2), index,
                        tuple(pick.randrange(1000) for _ in range(300)))
        failing += play_game(engine, reference, Capabilities(), plan, index)
    assert failing == [], [f.message for f in failing]
