"""Every misreading of the catalogue can be told from the rules by a 2-player engine: a scenario that such an
engine runs kills it (on the coloured wall; on the grey wall for the grey wall's readings). Most engines offer
two players only, and a reading that only 3- or 4-player scenarios kill could never be ruled out on them, so it
would be named for failures it cannot explain. The killers are the published ones (results.json), each run
again with the capabilities of a 2-player engine of one wall."""

from __future__ import annotations

import pytest

from azul_conformance.engines.base import Capabilities
from azul_conformance.harness.runner import RunOptions, run_case
from azul_conformance.harness.session import Session, collect
from azul_conformance.mutants import BY_ID, MUTANTS, published
from azul_conformance.mutants.patching import MutantEngine
from azul_conformance.results import CaseKind

TWO_PLAYERS = {wall: Capabilities(players=(2,), variants=(wall,)) for wall in ("colour", "grey")}

_TIED = "two players tied on points are every player: the tied players' rows are everybody's"
_THREE_TIED = "it differs from the rules only when three or more players tie on points"
# With no wall row complete a wall holds at most 20 tiles and the pattern lines keep at most 10 after a tiling,
# so at a 2-player deal at least 100 - 2 x 30 = 40 tiles are in the bag and the lid: never short of 20.
_NEVER_SHORT = "a 2-player game never runs short of tiles: bag and lid hold 40 or more at every deal"
# The readings that no 2-player game can tell from the rules, each with the reason.
BEYOND_TWO_PLAYERS: dict[str, str] = {
    "offer-counterclockwise": "with two players the seat after and the seat before are the same seat",
    "end-rows-of-everybody": _TIED,
    "end-most-rows-of-all-on-a-tie": _TIED,
    "end-it2-tie-break-for-two": _THREE_TIED,
    "end-first-two-tied-compared": _THREE_TIED,
    "end-empty-deal-deals-on": _NEVER_SHORT,
    "end-empty-deal-unscored": _NEVER_SHORT,
    "deal-partial-factory-back": _NEVER_SHORT,
    "deal-short-ends-game": _NEVER_SHORT,
    "deal-short-round-robin": _NEVER_SHORT,
    "deal-short-any-factories": _NEVER_SHORT,
    "setup-four-players-refused": "a game of four players is what it refuses",
}
# Readings outside the GREY chapter that change only the grey wall's play.
GREY_ONLY: dict[str, str] = {
    "end-colour-on-printed-spaces": "on the coloured wall every tile stands on the space printed for it",
    "end-mid-tiling": "only the grey wall's tiling is made of placements",
    "grey-colour-bonus-on-printed-spaces": "on the coloured wall every tile stands on the space printed for it",
    "grey-no-colour-bonus": "only the grey wall has no colours printed",
    "offer-row-limit-printed-space": "on the coloured wall a colour's printed space in a row is free exactly when "
    "the row lacks the colour",
    "end-not-checked-after-grey-tiling": "a slip in the grey wall's own path through the tiling",
    "end-grey-ends-with-first-completing-board": "only the grey wall's tiling is made of placements, board by board",
    "end-grey-game-unscored": "a slip in the grey wall's own path to the end of the game",
}


def _wall(mutant) -> str:
    return "grey" if mutant.rule.startswith("GREY-") or mutant.id in GREY_ONLY else "colour"


@pytest.fixture(scope="module")
def two_player_killers() -> dict[str, str | None]:
    """For each reading, the first of its published killing scenarios that still kills it when run by a
    2-player engine of its wall (None: none does)."""
    results = published.load()
    assert results is not None, "no results.json: run `azul mutants --results`"
    scenarios = {case.id: case for case in collect(Session(properties=False)).cases
                 if case.kind is CaseKind.SCENARIO}
    found: dict[str, str | None] = {}
    for entry in results["mutants"]:
        mutant = BY_ID[entry["id"]]
        engine = MutantEngine(mutant, results["seed"])
        capabilities = TWO_PLAYERS[_wall(mutant)]
        found[mutant.id] = next((case_id for case_id in entry["killed_by"] if case_id in scenarios
                                 and run_case(engine, scenarios[case_id], capabilities, RunOptions()).verdict.bad),
                                None)
    return found


def test_every_reading_is_killed_by_a_scenario_a_two_player_engine_runs(two_player_killers):
    assert set(two_player_killers) == {mutant.id for mutant in MUTANTS}
    unkilled = [(mutant.id, _wall(mutant)) for mutant in MUTANTS
                if mutant.id not in BEYOND_TWO_PLAYERS and two_player_killers[mutant.id] is None]
    assert unkilled == [], "no scenario a 2-player engine of that wall runs kills these readings"


def test_the_readings_set_aside_are_the_ones_two_players_cannot_show(two_player_killers):
    """An entry of BEYOND_TWO_PLAYERS that a 2-player scenario kills is stale; GREY_ONLY names readings."""
    assert {id: two_player_killers[id] for id in BEYOND_TWO_PLAYERS} == dict.fromkeys(BEYOND_TWO_PLAYERS)
    assert set(GREY_ONLY) <= set(BY_ID)


def test_a_reading_killed_only_with_more_players_is_found():
    """Seen by a 3- and 4-player engine only, the once-a-game marker would have no 2-player killer without the
    scenario of a later round written for it; a 4-player engine runs the 4-player killer."""
    mutant = BY_ID["offer-marker-first-round-only"]
    engine = MutantEngine(mutant, 0)
    cases = {case.id: case for case in collect(Session(properties=False)).cases}
    four = Capabilities(players=(4,), variants=("colour",))
    assert run_case(engine, cases["edge-full-round-four-players"], four, RunOptions()).verdict.bad
    skipped = run_case(engine, cases["edge-full-round-four-players"], TWO_PLAYERS["colour"], RunOptions())
    assert not skipped.verdict.bad  # a 2-player engine skips it
    assert run_case(engine, cases["offer-marker-taken-in-a-later-round"], TWO_PLAYERS["colour"],
                    RunOptions()).verdict.bad
