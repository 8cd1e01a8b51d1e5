"""Readings of the set-up (SETUP-1..6) and the deal (DEAL-1..4), fourth round: written from the rules' text and the
reference code alone (clean room), from one angle: the code an engine author writes for each rule. For each rule
two or three ordinary ways of implementing it were pictured (the factory table and the seat check of a new game;
the deal as a loop over factories and tiles, the refill inside or after it, the check of a given deal colour by
colour; the discards passed to each board's tiling), and for each the slips that code invites when written in
haste: loops and indexes, copies and aliases, empty and zero, ordering, arithmetic, state between turns and
rounds, collections. A slip was kept when it gives a plausible engine a behaviour the catalogue lacks and a
scenario of its own rule that a 2-player engine on the coloured wall runs kills it.

Written:
- SETUP-3: the factory count as `2 * players - 1` (a sign slip in the formula).
- SETUP-5: the start seat checked against the wrong list, the factories built just before the boards.
- DEAL-1: the fill loop over `range(1, n)` used as 0-based indices (the first factory never filled); the two
  loops of the fill nested the other way round (a tile to each factory in turn, four times over); the bag's
  count of a colour compared non-strictly with what a given deal takes of it.
- DEAL-2: the emptiness test after the draw rather than before it (the bag refilled as its last tile leaves);
  `lid.clear()` outdented out of the refill's `if` (the lid emptied by every deal); `bag = lid` with no new
  lid (the two names one list from the first refill on); the lid's part of a given deal checked factory by
  factory, each against the whole lid.
- DEAL-4: each board's discards collected in a variable reassigned in the loop over the boards, so that only
  the last board's reach the lid.

Engine state a reading needs beyond the reference's fields (the bag and the lid become one list) lives in the
game itself (game.lid is game.bag), carried over by Game.copy.

Considered and not written:
- SETUP-2 and SETUP-4: no scenario of either rule sets up two players (those of SETUP-2 have 3 and 4, those of
  SETUP-4 3 and 4), so no reading of them can be killed as this round asks. Among those dropped: the bag as a
  mutable default argument or module-level list shared by every game (a new game starts with the bag the last
  one left), a score that starts as None and is taken as 0 only once points are added, a bag filled with
  `[20] * 4` (four colours, the count of the list not read from the colours).
- SETUP-1: the only 2-player scenario asks for the variant 'hexagonal'; the slips of a variant test (a test of
  `== "grey"` alone, a `.get(variant, "colour")`, a prefix test) either are setup-unknown-variant-coloured or
  do not accept 'hexagonal'.
- SETUP-6: the slips of the player-count test that a 2-player engine's scenarios (1 or 5 players refused) can
  see all accept those counts, and the catalogue holds that behaviour several times (setup-solo-allowed,
  setup-five-players-accepted, setup-player-count-else-branch); `FACTORIES.get(players, 5)` would only give
  them 5 factories instead of 3, 9 or 11. `players in (2, 4)` written for a range refuses only three players.
- DEAL-3: two boards hold too few tiles for a 2-player deal ever to run short (bag and lid keep 20 or more), so
  the slips of the stop test (`break` for `return`, the short factory given back) are killed by 3- and
  4-player scenarios only.
- DEAL-1's random draw itself (`randint(0, len(bag))` inclusive, `randrange(len(bag) - 1)`, `random.choices`
  drawing with replacement): no scenario looks at which tiles a random deal gives, only how many; the last two
  differ only when one colour runs out, and then only by chance.
- The factories made as `[[0] * 5] * n`, one list for all: every factory shows every tile dealt, and the
  offer's count of tiles left never reaches 0, so an engine with it cannot finish a round: a crash, not a
  reading.
- DEAL-1: the phase test of a deal written `if phase == OFFER: refuse`, so that a deal is accepted once the game
  is over: only a scenario of the end (after-the-end) deals then, none of DEAL-1.
- DEAL-4: the boards holding the lid list they were given at set-up while the refill rebinds the game's lid (the
  discards lost after the first refill): judged too dependent on how a loaded position fills its lid to say
  what the engine would do, and few scenarios tile after a refill. The tiling given a copy of
  the lid that is never written back loses every line's rest and every floor tile, which is tiling-rest-lost and
  floor-tiles-lost at once.
"""

from __future__ import annotations

from azul_reference.errors import IllegalDeal

from ..readings import (
    FACTORIES_BY_PLAYERS, TILES_PER_FACTORY, M, _pour, _round_robin, _short_given, value,
)
from .setup_deal import _drawing_over


# -- set-up ----------------------------------------------------------------------------------------------------

def _start_seat_checked_against_factories(original):
    """`if not 0 <= start < len(self.factories)`: the seat is checked against the list built the line before,
    the factories (5 with two players), not the boards: seats 2 to 4 of a two-player game are let in."""
    def init(game, players=2, variant="colour", start_player=0):
        if (isinstance(players, int) and players in FACTORIES_BY_PLAYERS and isinstance(start_player, int)
                and players <= start_player < FACTORIES_BY_PLAYERS[players]):
            original(game, players, variant, 0)
            game.start_player = game.turn = start_player  # a seat nobody sits in
            return
        original(game, players, variant, start_player)
    return init


# -- the deal: the fill loop -----------------------------------------------------------------------------------

def _first_factory_skipped():
    """Factories numbered from 1 in a loop `for n in range(1, count)` that indexes a 0-based list: the first
    factory is never filled, and a given deal must leave it empty."""
    draw = _drawing_over(lambda factories: factories[1:])

    def given(original):
        def _given(game, wanted):
            if sum(wanted[0]):
                raise IllegalDeal("factory 1 is not dealt", rule="DEAL-1")
            factories = game.factories
            game.factories = factories[1:]
            try:
                original(game, wanted[1:])
            except Exception:
                game.factories = factories
                raise
            game.factories = [wanted[0]] + game.factories
        return _given
    return ("game.Game._draw", draw), ("game.Game._deal_given", given)


def _tile_by_tile_draw(original):
    """`for _ in range(4): for factory in factories:` -- the two loops of the fill nested the other way: each
    pass puts one tile on every factory. The refill comes where the bag runs out, as the rules say."""
    def draw(game, rng):
        for _ in range(TILES_PER_FACTORY):
            for factory in game.factories:
                if not any(game.bag):
                    _pour(game)
                    if not any(game.bag):
                        return
                pick = rng.randrange(sum(game.bag))
                colour = next(c for c in range(5) if pick < sum(game.bag[:c + 1]))
                game.bag[colour] -= 1
                factory[colour] += 1
    return draw


def _parts(factory: list[int], size: int):
    """Every sub-multiset of `size` tiles of a factory (counts by colour)."""
    def walk(colour: int, left: int):
        if colour == 5:
            if left == 0:
                yield ()
            return
        for n in range(min(factory[colour], left) + 1):
            for rest in walk(colour + 1, left - n):
                yield (n, *rest)
    return walk(0, size)


def _tile_by_tile_bag_check(original):
    """A given deal from a bag that runs out, checked as the tile-by-tile fill draws it: draw k goes to factory
    k mod n, so the bag's tiles are spread over the factories (factory f gets ceil((tiles - f) / n) of them), and
    each factory's other tiles come from the poured lid."""
    def check(game, wanted):
        n, in_bag = len(wanted), sum(game.bag)
        reachable = {tuple(game.bag)}  # what the bag may still hold, factory after factory
        for index, factory in enumerate(wanted):
            size = max(0, -(-(in_bag - index) // n))
            reachable = {tuple(b - p for b, p in zip(left, part)) for left in reachable
                         for part in _parts(factory, size) if all(p <= b for p, b in zip(part, left))}
        dealt = [sum(column) for column in zip(*wanted)]
        if (0, 0, 0, 0, 0) not in reachable or any(d - b > l for d, b, l in zip(dealt, game.bag, game.lid)):
            raise IllegalDeal(f"with bag {game._text(game.bag)!r} and lid {game._text(game.lid)!r}, the bag's "
                              f"{in_bag} tiles go one to each factory in turn, the rest from the lid",
                              rule="DEAL-2")
    return check


# -- the deal: the check of a given deal -----------------------------------------------------------------------

def _exhausted_colour_refused(original):
    """`if any(d >= b for d, b in zip(dealt, bag))`: the bag's count compared non-strictly with what the deal
    takes of each colour, so a deal that takes the bag's last tile of a colour is refused, and so is any deal
    while a colour is missing from the bag (0 >= 0). Only the check of a given deal; the engine's draw is right."""
    def deal_given(game, wanted):
        dealt = [sum(column) for column in zip(*wanted)]
        if sum(dealt) <= sum(game.bag) and any(d >= b for d, b in zip(dealt, game.bag)):
            raise IllegalDeal(f"the bag holds {game._text(game.bag)!r}: it cannot give {game._text(dealt)!r}",
                              rule="DEAL-1")
        original(game, wanted)
    return deal_given


def _lid_part_checked_factory_by_factory(original):
    """The lid's part of a deal checked factory by factory, each against the whole lid (`for factory in rest:
    if any(factory[c] > lid[c] ...)`), never against what the factories before it took from the lid."""
    def check(game, wanted):
        full = sum(game.bag) // TILES_PER_FACTORY
        from_bag = [sum(column) for column in zip(*wanted[:full])] if full else [0] * 5
        left = [b - d for b, d in zip(game.bag, from_bag)]
        split_from_lid = [s - x for s, x in zip(wanted[full], left)]
        if (min(left) < 0 or min(split_from_lid) < 0
                or any(any(n > l for n, l in zip(part, game.lid)) for part in [split_from_lid, *wanted[full + 1:]])):
            raise IllegalDeal(f"with bag {game._text(game.bag)!r} and lid {game._text(game.lid)!r}, the bag "
                              f"goes first and each factory after it must come from the lid", rule="DEAL-2")
    return check


def _bag_not_below_zero(original):
    """What the lid lacks for the deal accepted: the bag's count of that colour stops at 0."""
    def deal_given(game, wanted):
        original(game, wanted)
        game.bag = [max(0, b) for b in game.bag]
    return deal_given


# -- the deal: the refill --------------------------------------------------------------------------------------

def _refilled_after_the_last_draw(original):
    """The emptiness test written after the draw in the loop (`tile = bag.pop(...); if not bag: refill`): the
    draw that takes the bag's last tile pours the lid in at once, even when the deal needs no more tiles."""
    def deal(game, *args):
        original(game, *args)
        if not any(game.bag):
            _pour(game)
    return deal


def _lid_cleared_at_every_deal(original):
    """`if not bag: bag.extend(lid)` then `lid.clear()` outdented out of the `if`: every deal empties the lid,
    into the bag when the bag runs out, into nothing otherwise."""
    def deal(game, *args):
        original(game, *args)  # a refused deal raises here and clears nothing
        game.lid = [0] * 5
    return deal


def _bag_becomes_lid(original):
    """`self.bag = self.lid` at the refill, with no new list for the lid: from the first refill on, bag and lid
    are one list. The lid shows the bag, every discard goes into the bag, and there is nothing left to pour."""
    def deal(game, *args):
        shared = game.lid is game.bag
        if shared:
            game.lid = [0] * 5  # the one list is the bag: pouring "the lid" into it adds nothing
        poured = sum(game.bag) < TILES_PER_FACTORY * len(game.factories)
        try:
            original(game, *args)
        except Exception:
            if shared:
                game.lid = game.bag
            raise
        if shared or poured:
            game.lid = game.bag
    return deal


def _one_list_copied(original):
    def copy(game):
        other = original(game)
        if game.lid is game.bag:
            other.lid = other.bag
        return other
    return copy


# -- the lid ---------------------------------------------------------------------------------------------------

def _last_board_discards(original):
    """`for board in boards: discards = board.tiling()` and then `lid += discards` after the loop: the variable
    is reassigned board by board, so only the last board's line rests and floor tiles reach the lid, the others
    are lost. (The coloured wall's tiling; the grey wall's goes placement by placement.)"""
    def end_offer(game):
        if game.grey:
            return original(game)
        discards = [0] * 5
        for board in game.boards:
            discards = [0] * 5
            board.tile_coloured_wall(discards)
            board.clear_floor(discards)
        game.lid = [lid + d for lid, d in zip(game.lid, discards)]
        game._end_round()
    return end_offer


READINGS = (
    # SETUP-3
    M("setup-factories-twice-players-less-one", "SETUP-3", "I compute the number of factories as `2 * players - "
      "1`, a sign slip in 'one more than twice the players': 3 factories for two players, 5 for three, 7 for four.",
      ("game.FACTORIES_BY_PLAYERS", value({players: 2 * players - 1 for players in FACTORIES_BY_PLAYERS})),
      source="shape"),
    # SETUP-5
    M("setup-start-seat-checked-against-factories", "SETUP-5", "I check the start seat with `0 <= start < "
      "len(self.factories)`, the list built the line before, instead of the boards: with two players seats 2 to "
      "4 are accepted, and the game is set up with a start player nobody is.",
      ("game.Game.__init__", _start_seat_checked_against_factories), source="shape"),
    # DEAL-1
    M("deal-first-factory-skipped", "DEAL-1", "My fill loop numbers the factories from 1, `for n in range(1, "
      "count)`, but indexes a 0-based list: the first factory is never filled, and a given deal must leave it "
      "empty.", *_first_factory_skipped(), source="shape"),
    M("deal-one-tile-to-each-factory-in-turn", "DEAL-1", "My fill has its two loops nested the other way, `for "
      "_ in range(4): for factory in factories`: a tile to each factory in turn, four times over. When the bag "
      "runs out mid-deal, its last tiles are spread over the factories, one each, instead of filling the first "
      "ones; a given deal is checked so.",
      ("game.Game._draw", _tile_by_tile_draw), ("game.Game._check_bag_runs_out", _tile_by_tile_bag_check),
      ("game.Game._deal_given", _short_given(lambda sizes, tiles: sizes == _round_robin(tiles, len(sizes)),
                                             "one a factory in turn")),
      source="shape"),
    M("deal-bag-count-compared-non-strictly", "DEAL-1", "I check a given deal against the bag with `dealt >= "
      "bag` where `>` was meant: a deal that takes the bag's last tile of a colour is refused, and so is every "
      "deal while a colour is missing from the bag (0 >= 0). My own draw is right.",
      ("game.Game._deal_given", _exhausted_colour_refused), source="shape"),
    # DEAL-2
    M("deal-refill-tested-after-the-draw", "DEAL-2", "My draw loop tests the bag for emptiness after taking a "
      "tile, not before: the draw that takes the bag's last tile pours the lid in at once, even when it was the "
      "deal's last tile and no more are needed.",
      ("game.Game._draw", _refilled_after_the_last_draw), ("game.Game._deal_given", _refilled_after_the_last_draw),
      source="shape"),
    M("deal-lid-cleared-outside-the-refill", "DEAL-2", "In my refill `lid.clear()` sits one indent too far left, "
      "outside `if not bag:`: every deal empties the lid, into the bag when the bag runs out and into nothing "
      "when it does not, so the tiles discarded since the last refill are lost.",
      ("game.Game._draw", _lid_cleared_at_every_deal), ("game.Game._deal_given", _lid_cleared_at_every_deal),
      source="shape"),
    M("deal-bag-and-lid-one-list", "DEAL-2", "My refill is `self.bag = self.lid` with no new list for the lid: "
      "from the first refill on the bag and the lid are one list. The lid shows the bag's tiles, every discarded "
      "tile goes straight into the bag, and an empty bag has nothing left to be refilled from.",
      ("game.Game._draw", _bag_becomes_lid), ("game.Game._deal_given", _bag_becomes_lid),
      ("game.Game.copy", _one_list_copied), source="shape"),
    M("deal-lid-part-checked-factory-by-factory", "DEAL-2", "Once the bag runs out, I check each factory of a "
      "given deal against the whole lid on its own, not against what the factories before it took from the lid: "
      "a deal needing more of a colour than the lid holds, split over factories, is accepted (the bag's count "
      "of it stops at 0).",
      ("game.Game._check_bag_runs_out", _lid_part_checked_factory_by_factory),
      ("game.Game._deal_given", _bag_not_below_zero), source="shape"),
    # DEAL-4
    M("deal-last-board-discards-only", "DEAL-4", "My tiling loop writes `discards = board.tiling()` for each "
      "board and adds `discards` to the lid after the loop: only the last seat's line rests and floor tiles "
      "reach the lid, the other boards' are lost.",
      ("game.Game._end_offer", _last_board_discards), source="shape"),
)


CELLS = {
    "SETUP-3": {"off-by-one": ("setup-factories-twice-players-less-one",)},
    "SETUP-5": {"comparison": ("setup-start-seat-checked-against-factories",)},
    "DEAL-1": {"off-by-one": ("deal-first-factory-skipped",), "order": ("deal-one-tile-to-each-factory-in-turn",),
               "comparison": ("deal-bag-count-compared-non-strictly",)},
    "DEAL-2": {"order": ("deal-refill-tested-after-the-draw",), "reset": ("deal-lid-cleared-outside-the-refill",),
               "overwritten": ("deal-bag-and-lid-one-list", "deal-lid-part-checked-factory-by-factory")},
    "DEAL-4": {"overwritten": ("deal-last-board-discards-only",)},
}
