#!/usr/bin/env python3
"""Protocol v1 for ludometer's Python Azul engine (`ludometer/azul/engine.py`, MIT), so the suite can judge it.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python that has numpy
(the engine imports it at load time). The engine is yours: $LUDOMETER_ROOT names your copy of ludometer
(this project holds none). Run it:
    LUDOMETER_ROOT=/path/to/ludometer azul conform --engine "python3 adapters/ludometer-py/adapter.py"

What the adapter does, and why (the engine is driven only through its own code paths):
- Two players, coloured wall: the engine implements nothing else (`AzulState.new_game` refuses other counts).
- The deal as a step of its own. The engine deals inside `new_game` and at the end of each round's tiling
  (`_end_round` -> `_refill`). A subclass lets `_refill` run (so the engine itself decides whether any tile is
  left, and whether the game ends) and then puts the bag, lid and factories back as they were before it, so that
  the protocol's `deal` performs the draw. A fresh game's first draw is undone the same way.
- Given deals. The engine draws by popping its bag list and, when the bag is empty, pouring the lid in and
  shuffling. The adapter orders the bag, and answers the one shuffle with an ordering of its own, so that the
  engine's unchanged `_refill` pops the asked tiles; any deal the engine's draw could produce by chance can be
  asked for. A deal it could not produce (tiles not in the bag, the lid used before the bag is empty, short
  factories while tiles remain) comes out different: the adapter then restores the table and refuses the deal.
- Floors: the engine keeps per-colour counts and a marker flag. The adapter remembers the order in which the
  engine's counts grew (the marker before the tiles of the same take), to write the floor left to right.
- Moves map one to one onto the engine's action ids (source * 30 + colour * 6 + line); the engine checks them
  (`apply` raises ValueError), which the adapter reports as illegal_move without naming a rule.
- load_state sets the engine's documented fields and calls `recount()`, as the engine's own tests do; it checks
  the document's shape only, not whether the position is reachable (the engine has no such check).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if not os.environ.get("LUDOMETER_ROOT"):
    sys.exit("adapter.py: set LUDOMETER_ROOT to your copy of ludometer (the folder holding ludometer/azul/engine.py)")
ENGINE_ROOT = Path(os.environ["LUDOMETER_ROOT"])
sys.path.insert(0, str(ENGINE_ROOT))

from ludometer.azul.engine import AzulState  # noqa: E402  (the path is set just above)

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import ProtocolTable, Refused, check_factories, check_new_game, check_take, serve  # noqa: E402

COLOURS = "BYRKW"  # the engine's colour numbers 0-4, in the same order (its teal is our white)
SOURCES = "12345C"  # the engine's sources 0-4 are factories, 5 the centre
LINES = "12345F"  # destinations 0-4 are pattern lines, 5 the floor
SEED = int(os.environ.get("LUDOMETER_SEED", "0"))


class SteppedState(AzulState):
    """The engine's state, with the draw at a round's end held back until the protocol's `deal`."""

    __slots__ = ("undealt",)

    def _refill(self) -> None:
        before = (self.bag[:], self.lid[:])
        AzulState._refill(self)  # the engine decides whether a tile is left (else it ends the game)
        self.undealt = before


class ArrangedDraw:
    """Stands in for the engine's random generator during a given deal: its one `shuffle` orders the poured lid."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def shuffle(self, tiles: list[int]) -> None:
        if sorted(tiles) == sorted(self.order):
            tiles[:] = self.order


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: SteppedState | None = None
        self.deal_due = False
        self.floors: list[list[str]] = []

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "ludometer (Python, via adapter)", "version": "917ccef", "protocol": 1,
                "capabilities": {"players": [2], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall")
        try:
            # The engine's generator is seeded by the game's set-up, never by what this process played before:
            # the suite runs its cases in any order, over several engine processes (-j), and each must see the same.
            game = SteppedState.new_game(SEED * 100 + players * 10 + start_player, players)
        except ValueError as error:  # the engine's own refusal: "only the 2-player game is implemented"
            raise Refused("unsupported", f"the engine refused: {error}") from None
        # undo new_game's own first draw (the protocol's first `deal` makes it)
        game.bag = [c for c in range(5) for _ in range(20)]
        game.factories = [[0] * 5 for _ in range(5)]
        game.current_player = game.first_player = start_player
        game.recount()
        self.game, self.deal_due, self.floors = game, True, [[], []]
        return self.state()

    def deal(self, factories=None) -> dict:
        game = self._game()
        if game.is_terminal or not self.deal_due:
            raise Refused("illegal_move", "no deal is due", "DEAL-1")
        if factories is None:
            game.rng.shuffle(game.bag)  # as new_game shuffles before its first draw (engine.py:221)
            AzulState._refill(game)
        else:
            self._deal_given(game, factories)
        game.recount()
        self.deal_due = False
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        return {"moves": [move_text(action) for action in game.legal_actions()]}

    def play(self, move) -> dict:
        game = self._game()
        action = action_of(move)
        floors_before = [(game.floor[p][:], game.floor_marker[p]) for p in range(2)]
        game.undealt = None
        try:
            game.apply(action)
        except ValueError as error:  # apply checks before it changes anything (engine.py:372-383)
            raise Refused("illegal_move", f"the engine refused {move}: {error}") from None
        self._follow_floors(floors_before)
        if game.undealt is not None and not game.is_terminal:  # a round ended: hold its draw back
            game.bag, game.lid = game.undealt
            game.factories = [[0] * 5 for _ in range(5)]
            game.recount()
            self.deal_due = True
        return self.state()

    def load_state(self, state) -> dict:
        game, floors, deal_due = build(state)
        self.game, self.floors, self.deal_due = game, floors, deal_due
        return self.state()

    # -- helpers -----------------------------------------------------------------------------------------------

    def _deal_given(self, game: SteppedState, factories) -> None:
        check_factories(factories)
        if len(factories) != len(game.factories):
            raise Refused("illegal_move", f"the engine has {len(game.factories)} factories, not {len(factories)}",
                          "SETUP-3")
        wanted = [[COLOURS.index(c) for c in f] for f in factories]
        saved = (game.bag[:], game.lid[:], game.rng)
        bag_order, lid_order = pop_orders(game.bag, game.lid, wanted)
        game.bag[:] = bag_order
        game.rng = ArrangedDraw(lid_order)
        try:
            AzulState._refill(game)
        finally:
            game.rng = saved[2]
        got = [counts_text(f) for f in game.factories]
        if got != [counts_text(counts_of(w)) for w in wanted]:
            game.bag, game.lid = saved[0], saved[1]
            game.factories = [[0] * 5 for _ in range(5)]
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")

    def _follow_floors(self, before) -> None:
        game = self.game
        for p in range(2):
            counts, marker = before[p]
            if game.floor_marker[p] and not marker and sum(counts) < 7:
                self.floors[p].append("M")
            for c in range(5):
                self.floors[p] += [COLOURS[c]] * max(0, game.floor[p][c] - counts[c])
            if sum(game.floor[p]) == 0 and not game.floor_marker[p]:
                self.floors[p] = []  # the tiling emptied it

    def to_state(self) -> dict:
        game = self.game
        phase = "over" if game.is_terminal else ("deal" if self.deal_due else "offer")
        holders = [p for p in range(2) if game.floor_marker[p]]
        marker = "centre" if game.marker_in_center or not holders else holders[0]
        winners = None
        if phase == "over":
            outcome = game.outcome()
            winners = [0] if outcome > 0 else [1] if outcome < 0 else [0, 1]
        return {
            "format": "azul-state/1", "variant": "colour", "players": 2, "round": game.round_index + 1,
            "phase": phase, "turn": game.current_player, "start_player": game.first_player, "marker": marker,
            "factories": [counts_text(f) for f in game.factories], "centre": counts_text(game.center),
            "bag": counts_text(game.bag_counts()), "lid": counts_text(game.lid),
            "boards": [{"score": game.scores[p],
                        "lines": [COLOURS[game.pl_color[p][r]] * game.pl_count[p][r] if game.pl_count[p][r] else ""
                                  for r in range(5)],
                        "wall": ["".join(COLOURS[(col - r) % 5] if game.walls[p][r * 5 + col] else "."
                                         for col in range(5)) for r in range(5)],
                        "floor": "".join(self.floors[p])} for p in range(2)],
            "winners": winners,
        }


def pop_orders(bag: list[int], lid: list[int], wanted: list[list[int]]) -> tuple[list[int], list[int]]:
    """Orders of the bag and of the poured lid under which the engine's `_refill` (popping from the end, pouring
    the lid once the bag is empty) draws `wanted` factory by factory, as far as these tiles allow."""
    pools = [counts_of(bag), lid[:]]
    draws: list[list[int]] = [[], []]
    segment = 0
    for want in wanted:
        need = counts_of(want)
        for _ in range(4):
            if sum(pools[segment]) == 0:
                if segment == 1 or sum(pools[1]) == 0:
                    break
                segment = 1
            pool = pools[segment]
            colour = next((c for c in range(5) if need[c] and pool[c]), None)
            if colour is None:
                colour = next(c for c in range(5) if pool[c])  # no asked tile here: the deal will differ
            else:
                need[colour] -= 1
            pool[colour] -= 1
            draws[segment].append(colour)
    orders = []
    for pool, drawn in zip(pools, draws):
        rest = [c for c in range(5) for _ in range(pool[c])]
        orders.append(rest + drawn[::-1])  # pop() takes from the end
    return orders[0], orders[1]


def build(state) -> tuple[SteppedState, list[list[str]], bool]:
    """The engine's state in the position of an azul-state/1 document (phases deal, offer, over)."""
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        raise Refused("bad_request", "state: expected an azul-state/1 object")
    if state.get("variant") != "colour" or state.get("players") != 2:
        raise Refused("unsupported", "the engine plays only the 2-player game on the coloured wall")
    if state.get("phase") not in ("deal", "offer", "over"):
        raise Refused("unsupported", f"phase {state.get('phase')!r} does not exist on the coloured wall")
    try:
        game = SteppedState.__new__(SteppedState)
        game.num_players = 2
        game.rng = random.Random(SEED)
        game.bag = [COLOURS.index(c) for c in state["bag"]]
        game.rng.shuffle(game.bag)
        game.lid = counts_of([COLOURS.index(c) for c in state["lid"]])
        if len(state["factories"]) != 5:
            raise Refused("bad_request", "state: a 2-player game has 5 factories")
        game.factories = [counts_of([COLOURS.index(c) for c in f]) for f in state["factories"]]
        game.center = counts_of([COLOURS.index(c) for c in state["centre"]])
        game.marker_in_center = state["marker"] == "centre"
        boards = state["boards"]
        game.walls = [[1 if row[col] != "." else 0 for row in b["wall"] for col in range(5)] for b in boards]
        game.pl_color = [[COLOURS.index(line[0]) if line else -1 for line in b["lines"]] for b in boards]
        game.pl_count = [[len(line) for line in b["lines"]] for b in boards]
        game.floor = [counts_of([COLOURS.index(c) for c in b["floor"] if c != "M"]) for b in boards]
        game.floor_marker = [state["marker"] == p for p in range(2)]
        game.open_mask = [[0] * 5 for _ in range(2)]
        game.scores = [int(b["score"]) for b in boards]
        game.current_player = state["turn"]
        game.first_player = state["start_player"]
        game.round_index = state["round"] - 1
        game.is_terminal = state["phase"] == "over"
        game.exhausted = False
        game.tiles_left = 0
        game.undealt = None
        game.recount()
        floors = [[c for c in b["floor"]] for b in boards]
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, floors, state["phase"] == "deal"


def counts_of(tiles: list[int]) -> list[int]:
    counts = [0] * 5
    for c in tiles:
        counts[c] += 1
    return counts


def counts_text(counts: list[int]) -> str:
    return "".join(COLOURS[c] * n for c, n in enumerate(counts))


def move_text(action: int) -> str:
    source, rest = divmod(action, 30)
    colour, line = divmod(rest, 6)
    return SOURCES[source] + COLOURS[colour] + LINES[line]


def action_of(move) -> int:
    check_take(move, COLOURS)
    source, colour, line = move
    if source not in SOURCES:
        raise Refused("illegal_move", f"{move}: a 2-player game has factories 1 to 5")
    return SOURCES.index(source) * 30 + COLOURS.index(colour) * 6 + LINES.index(line)


if __name__ == "__main__":
    sys.exit(serve(Table()))
