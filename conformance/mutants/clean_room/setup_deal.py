"""Readings of the set-up (SETUP-1..6) and the deal (DEAL-1..4), written from the rules' text and the reference
code alone (clean room).

For the deal, the "list / check" dimension is read as the engine's own draw (what it deals at random) against its
check of a deal it is given (the canonical `deal` step): an engine may draw by the rule and check a given deal
otherwise, or the reverse.
"""

from __future__ import annotations

import random

from azul_reference.errors import IllegalDeal

from ..readings import (
    DEAL, TILES_PER_COLOUR, TILES_PER_FACTORY, M,
    _lid_hidden, _pour, _pour_early, _poured_at_round_end, _poured_per_factory_draw, _poured_per_factory_given,
    _refused_unchanged_from, value,
)


# -- set-up ----------------------------------------------------------------------------------------------------


def _bag_filled_at_first_deal():
    """The bag is filled by the first deal (round 1, nothing anywhere yet), not when the game is set up."""
    def init(original):
        def _init(game, *args, **kwargs):
            original(game, *args, **kwargs)
            game.bag = [0] * 5
        return _init

    def deal(original):
        def _deal(game, *args, **kwargs):
            if game.phase == DEAL and game.round == 1 and not any(game.bag) and not any(game.lid):
                game.bag = [TILES_PER_COLOUR] * 5
            original(game, *args, **kwargs)
        return _deal
    return ("game.Game.__init__", init), ("game.Game.deal", deal)


def _marker_held_by_start_player(original):
    """The start player 'receives' the marker at set-up and holds it (not on the floor): nobody takes it from
    the centre in the first round, and the holder starts the second round too."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.marker = game.start_player
    return init


def _start_player_as_turn_only(original):
    """The chosen seat set as the seat to act, the start player itself left at its default (seat 0)."""
    def init(game, players=2, variant="colour", start_player=0):
        original(game, players, variant, start_player)
        game.start_player = 0
    return init


# -- the deal --------------------------------------------------------------------------------------------------

def _drawing_over(view):
    """Game._draw run over view(factories) (the same lists): a fill loop over other factories than all, in order."""
    def draw(original):
        def _draw(game, *args):
            factories = game.factories
            game.factories = view(factories)
            try:
                original(game, *args)
            finally:
                game.factories = factories
        return _draw
    return draw


def _last_factory_skipped():
    """The fill loop runs over range(len(factories) - 1): the last factory is never filled."""
    draw = _drawing_over(lambda factories: factories[:-1])

    def given(original):
        def _given(game, wanted):
            if sum(wanted[-1]):
                raise IllegalDeal(f"factory {len(wanted)} is not dealt", rule="DEAL-1")
            factories = game.factories
            game.factories = factories[:-1]
            try:
                original(game, wanted[:-1])
            except Exception:
                game.factories = factories
                raise
            game.factories = game.factories + [wanted[-1]]
        return _given
    return ("game.Game._draw", draw), ("game.Game._deal_given", given)


def _dealt_at_round_end(original):
    """Later rounds are dealt as the previous one ends (a random draw); only the first waits for a deal."""
    def end_round(game):
        original(game)
        if game.phase == DEAL:
            game.deal(rng=random.Random(0))
    return end_round


def _lid_emptied_each_round(original):
    """The lid is cleared as each round ends: its tiles leave the game."""
    def end_round(game):
        original(game)
        if game.phase == DEAL:
            game.lid = [0] * 5
    return end_round


def _no_lid(original):
    """No lid at all: every tile leaving a board goes straight back into the bag (the lid is the bag)."""
    def step(game, *args):
        lid = game.lid
        game.lid = game.bag
        try:
            original(game, *args)
        finally:
            game.lid = lid
    return step


def _filled_last_first():
    """The factories are filled from the last to the first (a loop run backwards)."""
    draw = _drawing_over(lambda factories: factories[::-1])  # the same factory lists, in reverse

    def given(original):
        def _given(game, wanted):
            factories = game.factories
            game.factories = factories[::-1]
            try:
                original(game, wanted[::-1])
            except Exception:
                game.factories = factories
                raise
            game.factories = game.factories[::-1]
        return _given
    return ("game.Game._draw", draw), ("game.Game._deal_given", given)


def _refilled_at_deal_start_only(original):
    """The bag is refilled from the lid only if it is already empty as the deal begins; a bag that runs out in
    the deal leaves the rest of the factories short (the lid waits for the next deal)."""
    hidden = _lid_hidden(original)

    def deal(game, *args):
        bag, lid = game.bag[:], game.lid[:]
        if not any(game.bag):
            _pour(game)
        _refused_unchanged_from(game, bag, lid, hidden, *args)
    return deal


def _lid_discarded_at_refill(original):
    """The refill written in the wrong order, `lid.clear(); bag.extend(lid)`: the lid is emptied first, so an
    empty bag gets nothing, the lid's tiles are lost and the deal stops short."""
    hidden = _lid_hidden(original)

    def deal(game, *args):
        short = sum(game.bag) < TILES_PER_FACTORY * len(game.factories)
        hidden(game, *args)
        if short:
            game.lid = [0] * 5
    return deal


READINGS = (
    # SETUP-4
    M("setup-19-per-colour", "SETUP-4", "The bag is filled with range(1, 20) tiles of each colour: 19, 95 in all.",
      ("game.TILES_PER_COLOUR", value(TILES_PER_COLOUR - 1)), source="shape"),
    M("setup-100-per-colour", "SETUP-4", "The game's 100 tiles taken as the count of each colour: the bag holds "
      "100 of each.", ("game.TILES_PER_COLOUR", value(100)), source="shape"),
    M("setup-bag-filled-at-first-deal", "SETUP-4", "The bag is filled by the first deal, not at set-up: a new "
      "game shows an empty bag.", *_bag_filled_at_first_deal(), source="shape"),
    # SETUP-5
    M("setup-marker-held-by-start-player", "SETUP-5", "The start player receives the marker at set-up and keeps "
      "it in front of them, off the floor line: nobody takes it from the centre in the first round, and the "
      "start player starts the second round as well.", ("game.Game.__init__", _marker_held_by_start_player),
      source="shape"),
    M("setup-start-player-as-turn-only", "SETUP-5", "The chosen start player is made the seat to act, but the "
      "game's start player stays seat 0: after the deal seat 0 takes the first turn.",
      ("game.Game.__init__", _start_player_as_turn_only), source="shape"),
    # DEAL-1
    M("deal-five-tiles-a-factory", "DEAL-1", "Each factory is filled with five tiles (the fill loop runs to 4 "
      "inclusive), and a given factory of five is accepted.",
      ("game.TILES_PER_FACTORY", value(TILES_PER_FACTORY + 1)), source="shape"),
    M("deal-last-factory-skipped", "DEAL-1", "The fill loop stops one factory short: the last factory is never "
      "dealt, and a given deal must leave it empty.", *_last_factory_skipped(), source="shape"),
    M("deal-next-round-dealt-at-once", "DEAL-1", "Each later round is dealt at random as the previous one ends; "
      "only the first round waits for a deal.", ("game.Game._end_round", _dealt_at_round_end), source="shape"),
    # DEAL-2
    M("deal-lid-poured-at-every-deal", "DEAL-2", "The lid is poured into the bag at the start of every deal, "
      "whether or not the bag would run out.",
      ("game.Game._draw", _pour_early), ("game.Game._deal_given", _pour_early), source="shape"),
    M("deal-lid-poured-at-round-end", "DEAL-2", "The lid is poured into the bag at the end of every round, ready "
      "for the next deal.", ("game.Game._end_round", _poured_at_round_end(lambda game: True)), source="shape"),
    M("deal-refill-when-bag-below-four", "DEAL-2", "Before each factory, a bag holding fewer than 4 tiles is "
      "topped up with the lid: the bag's last tiles are mixed with the lid's instead of being drawn first.",
      ("game.Game._draw", _poured_per_factory_draw(TILES_PER_FACTORY)),
      ("game.Game._deal_given", _poured_per_factory_given(TILES_PER_FACTORY)), source="shape"),
    # DEAL-3
    # DEAL-4
    M("deal-lid-emptied-each-round", "DEAL-4", "The lid is cleared as each round ends: the discarded tiles leave "
      "the game and never come back to the bag.", ("game.Game._end_round", _lid_emptied_each_round),
      source="shape"),
    M("deal-no-lid", "DEAL-4", "There is no lid: every tile that leaves a board (a tiled line's rest, the floor, "
      "a full floor's overflow) goes straight back into the bag.",
      ("game.Game._take", _no_lid), ("game.Game._end_offer", _no_lid), ("game.Game._place", _no_lid),
      source="shape"),
    M("setup-factory-count-index-off-by-one", "SETUP-3", "The factory counts are a list [5, 7, 9] indexed with "
      "players - 1: two players get 7 factories, three get 9, and four cannot be set up.",
      ("game.FACTORIES_BY_PLAYERS", value({2: 7, 3: 9})), source="shape"),
    M("deal-factories-filled-last-first", "DEAL-1", "The factories are filled from the last one back to the "
      "first: when the bag runs out or tiles run short, it is the first factories that are left short.",
      *_filled_last_first(), source="shape"),
    M("deal-refill-at-deal-start-only", "DEAL-2", "The bag is refilled from the lid only when it is empty as a "
      "deal begins; a bag that runs out during the deal leaves the rest of the factories short.",
      ("game.Game._draw", _refilled_at_deal_start_only), ("game.Game._deal_given", _refilled_at_deal_start_only),
      source="shape"),
    M("deal-lid-discarded-at-refill", "DEAL-2", "When the bag runs out, the lid is emptied before it is poured in "
      "(the two steps swapped): its tiles are lost, nothing reaches the bag, and the deal stops short.",
      ("game.Game._draw", _lid_discarded_at_refill), ("game.Game._deal_given", _lid_discarded_at_refill),
      source="shape"),
)


CELLS = {
    "SETUP-3": {"off-by-one": ("setup-factory-count-index-off-by-one",)},
    "SETUP-4": {"off-by-one": ("setup-19-per-colour",), "overwritten": ("setup-100-per-colour",),
                "order": ("setup-bag-filled-at-first-deal",)},
    "SETUP-5": {"seat": ("setup-start-player-as-turn-only",), "overwritten": ("setup-marker-held-by-start-player",)},
    "DEAL-1": {"off-by-one": ("deal-five-tiles-a-factory", "deal-last-factory-skipped"),
               "order": ("deal-factories-filled-last-first",), "once": ("deal-next-round-dealt-at-once",)},
    "DEAL-2": {"once": ("deal-lid-poured-at-every-deal", "deal-refill-at-deal-start-only"),
               "order": ("deal-lid-poured-at-round-end", "deal-lid-discarded-at-refill"),
               "comparison": ("deal-refill-when-bag-below-four",)},
    "DEAL-4": {"reset": ("deal-lid-emptied-each-round",), "overwritten": ("deal-no-lid",)},
}
