"""Readings of the set-up (SETUP-1..6), the deal (DEAL-1..4) and the next round (ROUND-1..3), second round: written
from the rules' text and the reference code alone (clean room), from two angles the first round left: how an
engine holds each thing (the boards, the bag, the lid, the round number, the seat to move, the start player) and
the moment in the cycle at which a step is done (at the take, at the round's end, at the deal, once a game).

Where an engine's own memory of the game matters (the takes it has counted), it is kept beside the game, keyed by
id(game): a new game starts with none, a loaded one with what its position implies, and a copy keeps the
original's.
"""

from __future__ import annotations

from azul_reference.errors import IllegalMove

from ..readings import (
    CENTRE, DEAL, IN_CENTRE, OFFER, TILES_PER_FACTORY, M, _turn_kept_at_the_deal, kept_by_copies, value,
)


# -- set-up ----------------------------------------------------------------------------------------------------


def _last_factory_refused(original):
    """The played take's factory checked with `source >= len(factories)` (1-based numbers against a count): the
    last factory is refused, though the list of moves offers it."""
    def take(game, move):
        if move.source != CENTRE and move.source == len(game.factories):
            raise IllegalMove(f"{move}: there is no factory {move.source} with {game.players} players",
                              rule="SETUP-3")
        original(game, move)
    return take


def _colour_left_out(colour: int):
    """The bag's fill loop misses one colour: `range(1, 5)` over colours numbered 1..5 (0 for an empty space)
    misses the last, white; over colours numbered 0..4 it misses the first, blue."""
    def make(original):
        def init(game, *args, **kwargs):
            original(game, *args, **kwargs)
            game.bag[colour] = 0
        return init
    return make


# -- the deal --------------------------------------------------------------------------------------------------

def _lid_drawn_directly(original):
    """`pile = bag if bag else lid`: once the bag is empty the deal draws from the lid itself; the lid's undrawn
    tiles stay in the lid and the bag stays empty (every later deal draws from the lid too)."""
    def draw(game, *args):
        runs_out = sum(game.bag) < TILES_PER_FACTORY * len(game.factories)
        original(game, *args)
        if runs_out:  # what the rules leave in the bag after pouring the lid in stays in the lid
            game.bag, game.lid = [0] * 5, [b + t for b, t in zip(game.bag, game.lid)]
    return draw


_HELD: dict[int, list[int]] = {}  # id(game) -> discarded tiles set aside, not yet in the lid


def _discards_held(original):
    """Whatever a step sends to the lid is put on a pile beside it instead (the step itself, END-8's test among
    it, sees lid and pile together)."""
    def step(game, *args, **kwargs):
        lid, held = game.lid, _HELD.get(id(game), [0] * 5)
        whole = [t + h for t, h in zip(lid, held)]
        game.lid = whole[:]
        try:
            original(game, *args, **kwargs)
        except Exception:
            game.lid = lid
            raise
        held = [h + max(0, now - was) for h, now, was in zip(held, game.lid, whole)]
        game.lid = [now - h for now, h in zip(game.lid, held)]
        if any(held):
            _HELD[id(game)] = held
    return step


def _discards_tipped_at_the_deal(original):
    """The deal first tips the pile of discards into the lid (a refused deal leaves both as they were)."""
    def deal(game, *args, **kwargs):
        held = _HELD.pop(id(game), None)
        if held is None or game.phase != DEAL:
            if held is not None:
                _HELD[id(game)] = held
            return original(game, *args, **kwargs)
        lid = game.lid
        game.lid = [t + h for t, h in zip(lid, held)]
        try:
            original(game, *args, **kwargs)
        except Exception:
            game.lid, _HELD[id(game)] = lid, held
            raise
    return deal


def _pile_reset(original):
    """A new or loaded game has no pile."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _HELD.pop(id(game), None)
    return init


_pile_copied = kept_by_copies(_HELD)


# -- the next round --------------------------------------------------------------------------------------------


def _round_counted_per_player(original):
    """`self.round += 1` written inside the loop that readies each player's board for the next round."""
    def end_round(game):
        original(game)
        if game.phase == DEAL:
            game.round += game.players - 1
    return end_round


def _round_counted_at_each_deal(original):
    """`self.round += 1` at the start of each deal as well as at the round's end."""
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.round += 1
    return deal


def _start_moved_at_the_take(original):
    """The first take from the centre makes the taker the start player there and then."""
    def take(game, move):
        if move.source == CENTRE and game.marker == IN_CENTRE and game.phase == OFFER:
            was = game.start_player
            game.start_player = game.turn
            try:
                original(game, move)
            except Exception:
                game.start_player = was
                raise
            return
        original(game, move)
    return take


def _start_kept_at_round_end(original):
    """The round's end leaves the start player as the takes left it (it was moved at the take)."""
    def end_round(game):
        was = game.start_player
        original(game)
        if game.phase == DEAL:
            game.start_player = game.turn = was
    return end_round


_TAKES: dict[int, int] = {}  # id(game) -> takes counted since the game began (or since the loaded position's round)


def _counter_reset(original):
    """A new game has counted no take."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _TAKES.pop(id(game), None)
    return init


def _counter_loaded(original):
    """A loaded position: the count that puts its seat to move at start player + count."""
    def build(document):
        game = original(document)
        _TAKES[id(game)] = (game.turn - game.start_player) % game.players
        return game
    return build


_counter_copied = kept_by_copies(_TAKES)


def _take_counted(original):
    """Every take played adds one to the count (before its consequences, the round's end among them)."""
    def take(game, move):
        _TAKES[id(game)] = _TAKES.get(id(game), 0) + 1
        try:
            original(game, move)
        except Exception:
            _TAKES[id(game)] -= 1
            raise
    return take


def _seat_from_count(original):
    """The seat to move is start player + takes counted; the count is never set back to 0 for a new round."""
    def step(game, *args, **kwargs):
        original(game, *args, **kwargs)
        if game.phase in (DEAL, OFFER):
            game.turn = (game.start_player + _TAKES.get(id(game), 0)) % game.players
    return step


def _turn_set_before_start_moved(original):
    """The next round's preparation sets the turn to the start player, then moves the start player to the
    marker's holder; the deal leaves the turn as prepared."""
    def end_round(game):
        was = game.start_player
        original(game)
        if game.phase == DEAL:
            game.turn = was
    return end_round


_CENTRE_TAKERS: dict[int, set[int]] = {}  # id(game) -> the seats flagged as having taken from the centre this round


def _takers_reset(original):
    """A new game (and the Game a position is loaded into) starts with no flag."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _CENTRE_TAKERS.pop(id(game), None)
    return init


def _takers_loaded(original):
    """A loaded position flags the marker's holder."""
    def build(document):
        game = original(document)
        if game.marker != IN_CENTRE:
            _CENTRE_TAKERS[id(game)] = {game.marker}
        return game
    return build


_takers_copied = kept_by_copies(_CENTRE_TAKERS)


def _centre_taker_flagged(original):
    """A take from the centre flags its seat (before the take's consequences, the round's end among them)."""
    def take(game, move):
        if move.source != CENTRE or game.phase != OFFER:
            return original(game, move)
        flags = _CENTRE_TAKERS.setdefault(id(game), set())
        new = game.turn not in flags
        flags.add(game.turn)
        try:
            original(game, move)
        except Exception:
            if new:
                flags.discard(game.turn)
            raise
    return take


def _flagged_starts(choose):
    """The next start player is choose(flagged seats) (the loop over the seats stopping at the first flagged one,
    min, or running on and keeping the last, max); the flags are cleared for the new round."""
    def make(original):
        def end_round(game):
            flags = _CENTRE_TAKERS.pop(id(game), set())
            original(game)
            if game.phase == DEAL and flags:
                game.start_player = game.turn = choose(flags)
        return end_round
    return make


READINGS = (
    # SETUP-2
    # SETUP-3
    M("setup-factory-count-index-wraps", "SETUP-3", "The factory counts are a list [5, 7, 9] indexed with "
      "players - 3: two players read index -1 and get 9 factories, three get 5 and four get 7.",
      ("game.FACTORIES_BY_PLAYERS", value({2: 9, 3: 5, 4: 7})), source="shape"),
    M("setup-last-factory-refused-when-played", "SETUP-3", "The factory of a played take is checked with "
      "`source >= len(factories)`, 1-based numbers against the count: a take from the last factory is refused, "
      "though the list of legal moves offers it.", ("game.Game._take", _last_factory_refused), source="shape"),
    # SETUP-4
    M("setup-no-white-tiles", "SETUP-4", "Colours are numbered 1 to 5 and the bag is filled for colour in "
      "range(1, 5): 20 blue, yellow, red and black tiles, no white, 80 in all.",
      ("game.Game.__init__", _colour_left_out(4)), source="shape"),
    M("setup-no-blue-tiles", "SETUP-4", "Colours are numbered 0 to 4 (blue 0) but the bag is filled for colour in "
      "range(1, 5), as if they were numbered from 1: no blue tile, 80 in all.",
      ("game.Game.__init__", _colour_left_out(0)), source="shape"),
    # DEAL-2
    M("deal-drawn-from-lid-when-bag-empty", "DEAL-2", "Once the bag is empty the deal draws from the lid itself "
      "instead of pouring it into the bag: the lid's undrawn tiles stay in the lid, the bag stays empty, and "
      "every later deal draws from the lid.",
      ("game.Game._draw", _lid_drawn_directly), ("game.Game._deal_given", _lid_drawn_directly), source="shape"),
    # DEAL-4
    M("deal-discards-held-until-the-deal", "DEAL-4", "Tiles leaving a board (overflow, a tiled line's rest, the "
      "floor) go on a discard pile beside the lid, tipped into the lid only when the next deal begins: until "
      "then the lid does not show them.",
      ("game.Game.play", _discards_held), ("game.Game.deal", _discards_tipped_at_the_deal),
      ("game.Game.__init__", _pile_reset), ("game.Game.copy", _pile_copied), source="shape"),
    # ROUND-1
    M("round-counted-per-player", "ROUND-1", "The round number is advanced inside the loop that readies each "
      "player's board for the next round: it goes up by the number of players each round.",
      ("game.Game._end_round", _round_counted_per_player), source="shape"),
    M("round-counted-at-deal-and-round-end", "ROUND-1", "The round number is advanced in two places, as a round "
      "ends and again as its deal is made: the first round's offer shows round 2, and every round after that "
      "two more than the one before.",
      ("game.Game.deal", _round_counted_at_each_deal), source="shape"),
    # ROUND-2
    M("round-start-moved-at-the-take", "ROUND-2", "The first take from the centre makes the taker the start "
      "player there and then, not as the round ends: the start player changes during the offer, the grey tiling "
      "begins with the taker, and a position loaded with the marker already taken keeps its start player.",
      ("game.Game._take", _start_moved_at_the_take), ("game.Game._end_round", _start_kept_at_round_end),
      source="shape"),
    M("round-take-count-not-reset", "ROUND-2", "The seat to move is kept as start player + takes made, and the "
      "take count is not set back to 0 for a new round: the next round opens with the seat that many takes after "
      "the marker holder, not the holder.",
      ("game.Game.__init__", _counter_reset), ("state._build", _counter_loaded), ("game.Game.copy", _counter_copied),
      ("game.Game._take", _take_counted), ("game.Game._end_round", _seat_from_count),
      ("game.Game.deal", _seat_from_count),
      source="shape"),
    M("round-turn-set-before-start-moved", "ROUND-2", "The next round is prepared in the wrong order: the turn is "
      "set to the start player, and only then is the start player moved to the marker's holder, so the round "
      "just played's start player opens the next round while the holder is shown as start player.",
      ("game.Game._end_round", _turn_set_before_start_moved), ("game.Game.deal", _turn_kept_at_the_deal),
      source="shape"),
    M("round-lowest-centre-taker-starts", "ROUND-2", "Each board is flagged when its player takes from the "
      "centre, and the next start player is the first flagged seat in seat order, not the first to take from "
      "the centre.",
      ("game.Game.__init__", _takers_reset), ("state._build", _takers_loaded), ("game.Game.copy", _takers_copied),
      ("game.Game._take", _centre_taker_flagged), ("game.Game._end_round", _flagged_starts(min)),
      source="shape"),
    M("round-last-flagged-centre-taker-starts", "ROUND-2", "Each board is flagged when its player takes from the "
      "centre, and the loop over the seats that finds the next start player does not stop at the first flagged "
      "seat: the last flagged seat in seat order starts.",
      ("game.Game.__init__", _takers_reset), ("state._build", _takers_loaded), ("game.Game.copy", _takers_copied),
      ("game.Game._take", _centre_taker_flagged), ("game.Game._end_round", _flagged_starts(max)),
      source="shape"),
)


CELLS = {
    "SETUP-3": {"off-by-one": ("setup-factory-count-index-wraps",),
                "check": ("setup-last-factory-refused-when-played",)},
    "SETUP-4": {"off-by-one": ("setup-no-white-tiles", "setup-no-blue-tiles")},
    "DEAL-2": {"overwritten": ("deal-drawn-from-lid-when-bag-empty",)},
    "DEAL-4": {"order": ("deal-discards-held-until-the-deal",)},
    "ROUND-1": {"once": ("round-counted-per-player", "round-counted-at-deal-and-round-end")},
    "ROUND-2": {"order": ("round-start-moved-at-the-take", "round-turn-set-before-start-moved"),
                "reset": ("round-take-count-not-reset",), "seat": ("round-lowest-centre-taker-starts",),
                "overwritten": ("round-last-flagged-centre-taker-starts",)},
}
