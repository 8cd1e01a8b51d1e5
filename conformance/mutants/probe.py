"""Does a mutant change anything? Seeded random games played in lockstep on the engine and on the mutant.

A mutant that plays every game exactly like the engine is no mutant at all (a patch of code the engine does not
use, or a reading that never matters): `first_difference` finds the first position where the two part ways.
"""

from __future__ import annotations

import json
import random
from functools import cache

import azul_reference as ref
from ..scenario import load_scenarios
from .catalogue import Mutant
from .patching import applied

MAX_ROUNDS = 60


def _game(seed: int) -> tuple[int, str, int]:
    players = 2 + seed % 3
    return players, ("colour", "grey")[seed // 3 % 2], seed // 6 % players


def _step(mutant: Mutant | None, action):
    """What a step gives (the state and the legal moves after it, or the error), with the mutant applied."""
    try:
        if mutant is None:
            game = action()
            return ref.to_state(game), sorted(str(m) for m in game.legal_moves())
        with applied(mutant):
            game = action()
            return ref.to_state(game), sorted(str(m) for m in game.legal_moves())
    except Exception as error:  # noqa: BLE001 - a mutant may crash: that is a difference too
        return type(error).__name__, str(error)


def game_difference(mutant: Mutant, seed: int) -> str | None:
    """Where game `seed` first differs (a short description), or None when it plays out the same."""
    players, variant, start = _game(seed)
    games: dict[str, ref.Game] = {}

    def new(key):
        def action():
            games[key] = ref.Game(players, variant, start)
            return games[key]
        return action

    def step(key, rng, move=None):
        def action():
            game = games[key]
            game.deal(rng=rng) if move is None else game.play(move)
            return game
        return action

    plain, mutated = _step(None, new("plain")), _step(mutant, new("mutant"))
    picks = random.Random(f"{seed}/moves")
    deals = {"plain": random.Random(seed), "mutant": random.Random(seed)}
    steps = 0
    while True:
        if plain != mutated:
            return f"game {seed} ({players} players, {variant} wall, seat {start} starts), step {steps}"
        game = games["plain"]
        if game.is_over() or game.round > MAX_ROUNDS:
            return None
        move = None if game.phase == ref.DEAL else plain[1][picks.randrange(len(plain[1]))]
        plain = _step(None, step("plain", deals["plain"], move))
        mutated = _step(mutant, step("mutant", deals["mutant"], move))
        steps += 1


def _table(players: int, boards: list[dict], centre: str, factories: list[str], marker) -> dict:
    """A position in the offer (seat 0 to move), the bag holding every tile not shown elsewhere (SETUP-4)."""
    state = ref.to_state(ref.Game(players))
    boards = [{"lines": [""] * 5, "wall": ["....."] * 5, "floor": "", "score": 0, **b} for b in boards]
    shown = centre + "".join(factories) + "".join("".join(b["wall"] + b["lines"]).replace(".", "")
                                                  + b["floor"].replace("M", "")
                                                  for b in boards)
    state.update(phase="offer", marker=marker, centre=centre, bag="".join(c * (20 - shown.count(c))
                                                                          for c in "BYRKW"),
                 factories=factories + [""] * (len(state["factories"]) - len(factories)),
                 boards=boards)
    return state


def _full_floor() -> dict:
    """Seat 0's floor line is full when it is first to take from the centre (FLOOR-5)."""
    return _table(2, [{"floor": "KKKKKKK"}, {}], "B", ["YYYY"], "centre")


def _tie_on_points() -> dict:
    """The last take of the game; the tiling completes rows on every board (tiles in column 5, top to bottom).
    Seat 0 ends on 30 + 5 + 7 + 2 * 2 = 46 with 2 rows, seat 1 on 40 + 5 - 1 + 2 = 46 with 1 row, seat 2 on
    0 + 5 + 7 + 8 + 3 * 2 = 26 with 3 rows: END-6 compares the tied players' rows (seat 0 wins), not everybody's."""
    rows = ["BYRK.", "WBYR.", "KWBY."]
    boards = [{"wall": rows[:2] + ["....."] * 3, "lines": ["W", "KK", "", "", ""], "score": 30},
              {"wall": rows[:1] + ["....."] * 4, "lines": ["W", "", "", "", ""], "score": 40, "floor": "M"},
              {"wall": rows + ["....."] * 2, "lines": ["W", "KK", "RRR", "", ""], "score": 0}]
    return _table(3, boards, "B", [], 1)


def _unscored_round() -> dict:
    """The round's last take completes no pattern line, with tiles on a floor (SCORE-4)."""
    return _table(2, [{"floor": "KK", "score": 5}, {}], "B", [], "centre")


def _no_centre_take() -> dict:
    return ref.to_state(ref.Game(2, "colour", 1))


@cache
def _given_states() -> dict[str, str]:
    """Each scenario of the corpus's given position, as JSON: the corpus is read once a process, not once a
    witness (about 40 readings have one, each played twice)."""
    return {s.id: json.dumps(s.given.state) for s in load_scenarios(None) if s.given.state is not None}


def _scenario(scenario_id: str):
    """The given position of a scenario of the corpus (for a reading that only a crafted position shows)."""
    def position() -> dict:
        return json.loads(_given_states()[scenario_id])  # a fresh copy: a game may change what it is given
    return position


def _five_players():
    return ref.Game(5)


def _start_seat_4_of_2():
    return ref.Game(2, "colour", 4)


def _start_seat_3_of_3():
    return ref.Game(3, "colour", 3)


def _one_player():
    return ref.Game(1)


def _unknown_variant():
    return ref.Game(2, "hexagonal")


MONOCHROME = ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]
# Positions for mutants whose reading matters only in situations random play seldom reaches.
WITNESSES = {
    "floor-full-marker-stays": (_full_floor, ["CBF"]),
    "floor-full-marker-bumps-tile": (_full_floor, ["CBF"]),
    "end-rows-of-everybody": (_tie_on_points, ["CB4"]),
    "end-fewest-rows-wins": (_tie_on_points, ["CB4"]),
    "end-no-tie-break": (_tie_on_points, ["CB4"]),
    "end-it2-bonus-once": (_tie_on_points, ["CB4"]),
    "offer-empty-take-passes": (_no_centre_take, [MONOCHROME, "1Y1"]),
    "round-unclaimed-next-seat": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "round-unclaimed-seat-0": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "round-unclaimed-after-last-taker": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "offer-phase-unchecked": (_no_centre_take, ["1B1"]),
    "deal-unchecked": (_no_centre_take, [["BBB", "YYYY", "RRRR", "KKKK", "WWWW"]]),
    "deal-any-time": (_no_centre_take, [MONOCHROME, MONOCHROME]),
    "deal-short-any-factories": (_scenario("deal-bag-and-lid-empty-given"),
                                 [["BBBB", "YYYY", "YYYY", "KKKK", "KKWW", "WWWW", "WWW", "WWW", ""]]),
    "end-empty-deal-deals-on": (_scenario("end-no-tile-to-deal"), ["CY1"]),
    "end-empty-deal-unscored": (_scenario("end-no-tile-to-deal"), ["CY1"]),
    "end-first-two-tied-compared": (_scenario("end-three-way-tie-two-share"), ["CY5"]),
    "end-tie-break-counts-columns": (_scenario("end-tie-break-counts-horizontal-rows-only"), ["CW5"]),
    "end-remaining-tie-by-columns": (_scenario("end-shared-win-whatever-the-columns"), ["CW5"]),
    "setup-any-player-count": (_five_players, []),
    "setup-player-count-clamped": (_five_players, []),
    "setup-five-players-accepted": (_five_players, []),
    "score-no-line-no-scoring": (_unscored_round, ["CBF"]),
    "setup-start-seat-modulo": (_start_seat_3_of_3, []),
    "setup-solo-allowed": (_one_player, []),
    "setup-unknown-variant-coloured": (_unknown_variant, []),
    # a round without a centre take whose last taker is not the start player (3 players), and one whose start
    # player, the seat after the last taker, has points to lose to the marker (4 players)
    "round-unclaimed-last-taker-starts": (_scenario("round-nobody-took-centre-three-players"), ["5Y4"]),
    "round-unclaimed-seat-after-next": (_scenario("round-nobody-took-centre-three-players"), ["5Y4"]),
    # an apply that accepts what the listing leaves out: the refused step of a scenario of the rule
    "offer-other-colour-recolours-line": (_scenario("offer-refuse-line-of-other-colour"), ["1B4"]),
    "offer-row-limit-unchecked": (_scenario("offer-wall-row-forbids-colour"), ["3K4"]),
    "offer-full-line-unchecked": (_scenario("offer-refuse-full-line"), ["2K3"]),
    "offer-empty-take-unchecked": (_scenario("offer-refuse-absent-colour"), ["1Y1"]),
    "deal-given-unordered-unchecked": (_scenario("deal-must-empty-bag-before-lid"),
                                       [["BBYY", "RKKK", "KWWW", "BBWW", "YYYK"]]),
    "grey-occupied-space-unchecked": (_scenario("grey-occupied-space-refused"), ["CW5", "2@3"]),
    "grey-column-rule-unchecked": (_scenario("grey-placement-column-rule"), ["CW5", "2@1"]),
    "grey-line-order-unchecked": (_scenario("grey-lines-placed-top-to-bottom"), ["CW5", "4@1"]),
    "round-unclaimed-to-player-on-floor": (_scenario("round-nobody-took-centre-no-marker-penalty"), ["9K4"]),
    "round-unclaimed-start-player-on-floor": (_scenario("round-nobody-took-centre-no-marker-penalty"), ["9K4"]),
    # readings written from the rules' text alone (clean_room/) of the check of a played move only
    "offer-source-checked-not-colour": (_scenario("offer-refuse-absent-colour"), ["1Y1"]),
    "offer-other-colour-joins-line-unchecked": (_scenario("offer-refuse-line-of-other-colour"), ["1B4"]),
    "end-column-bonus-once": (_scenario("end-full-wall-all-bonuses"), ["CW5"]),  # two columns completed at once
    "floor-full-marker-lost": (_scenario("floor-marker-full-floor-costs-nothing"), ["CW5"]),
    "offer-marker-keeps-offer-open": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "offer-lone-marker-taken-by-next-seat": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "round-unclaimed-last-seat": (_scenario("round-after-no-centre-take-seat-0-starts-and-turns-alternate"), ["3K4"]),
    "round-unclaimed-seat-after-last-taker": (_no_centre_take, [MONOCHROME, "1B1", "2Y2", "3R3", "4K4", "5W4"]),
    "round-unclaimed-turn-stays-with-last-taker": (_scenario("round-nobody-took-centre-three-players"), ["5Y4"]),
    "setup-player-count-else-branch": (_five_players, []),
    "setup-start-seat-checked-against-factories": (_start_seat_4_of_2, []),
    "end-row-bonus-stops-at-first-row": (_scenario("end-row-bonus-for-each-row"), ["CW5"]),
    "round-unclaimed-start-passes-on": (_scenario("round-after-no-centre-take-seat-0-starts-and-turns-alternate"),
                                        ["3K4"]),
    "deal-bag-count-compared-non-strictly": (_scenario("deal-bag-emptied-by-the-deal-lid-kept"), [MONOCHROME]),
    "deal-lid-part-checked-factory-by-factory": (_scenario("deal-lid-short-across-factories-refused"),
                                                 [["KKKK", "RRRR", "RRRR", "RRRR", "RRRR"]]),
}


def witness_difference(mutant: Mutant) -> str | None:
    """Whether the mutant's witness position (if it has one) plays out differently."""
    if mutant.id not in WITNESSES:
        return None
    position, steps = WITNESSES[mutant.id]
    _given_states()  # read outside the mutant's patches
    games: dict[str, ref.Game] = {}

    def run(key: str, patched: Mutant | None, step):
        def action():
            if step is None:
                made = position()  # a position, or a game made by a call the mutant may change
                games[key] = made if isinstance(made, ref.Game) else ref.from_state(made)
            elif isinstance(step, list):
                games[key].deal(step)
            else:
                games[key].play(step)
            return games[key]
        return _step(patched, action)

    for number, step in enumerate([None, *steps]):
        if run("plain", None, step) != run("mutant", mutant, step):
            return f"witness position of {mutant.id}, step {number}"
    return None


def first_difference(mutant: Mutant, games: int = 200) -> str | None:
    """Where the mutant first plays differently: in its witness position, else in `games` seeded games."""
    found = witness_difference(mutant)
    if found:
        return found
    for seed in range(games):
        found = game_difference(mutant, seed)
        if found:
            return found
    return None
