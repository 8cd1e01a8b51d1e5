"""Readings of OFFER-1 .. OFFER-16, fourth round: written from the rules' text and the reference engine alone, from
one angle, the code an engine author writes for each rule. For every rule of the chapter two or three ordinary
ways of implementing it were pictured (the turn as `turn + 1` wrapped by a test, or as the start player plus a
count of takes; a source as counts by colour, a list of tile codes or a dict; a pattern line's colour as an index
with None or -1 for an empty line; the wall row as cells or bits; the end of the offer as a counter or as a test
that the table is bare), and for each the slips it invites when written in haste: a loop or a wrap one short, the
wrong variable or the wrong list indexed, colour 0 (blue) taken for 'none', a set where a count matters, a loop
that returns at the first match, a counter not reset at the deal, a dict whose emptied keys stay. A reading was
kept where the slip gives a plausible engine a behaviour different from the rule and from every reading the
catalogue holds.

Written: the wrap of the turn one seat early and the turn passed from the start player (OFFER-1, seat and
off-by-one), the seat computed from a count of takes never reset between rounds (OFFER-1, reset); a factory take
counted by the factory's size (OFFER-2); a centre take indexed as factory 0 - 1, the last factory (OFFER-4); a blue
pattern line taken for an empty one (OFFER-8); the wall row checked with a blue tile taken for an empty space
(OFFER-9); the centre kept as a dict whose emptied colours keep the offer open (OFFER-14).

Considered and not written: a line of capacity N - 1 from a 0-based index (`room = line - count`), which leaves
line 1 with no room and never tiles a line, as the first round found; the room read after the line's count is
updated, which plays as offer-overflow-counted-after-filling; the 'marker taken' flag not reset between rounds,
which plays as offer-marker-first-round-only; the marker written at index 0 of the floor, as
offer-it2-marker-first-box; the pattern lines built as `[[]] * 5` (one list shared by the five lines), the boards
or the factories shared likewise, which belong to the set-up chapter or give no engine a rule to read; the taken
colour zeroed before its count is read (every take places nothing), an engine no first test lets through; and
OFFER-5, -6, -7, -10, -11, -12, -13, -15 and -16, where every slip pictured (the first free floor space found one
off, a zero count taken as no take, a fullness test one off, a floor destination 0 taken as 'no line', a colour
dict keying the lines, the mover's board read before the turn passes) plays as a reading the catalogue holds.

Every reading kept is killed by a 2-player scenario of its own rule on the coloured wall. Left out after writing
them, as only 3- and 4-player scenarios, other rules' scenarios and the properties kill them: a factory's rest moved
with `if tile:` over tile codes, its blue tiles skipped and lost (offer-rest-blue-skipped, OFFER-3), the rest moved
through `set(rest)`, one tile of each colour reaching the centre (offer-rest-once-per-colour, OFFER-3), and the
wall-row check returning at the row's first tile, so that only the leftmost tile of the row refuses its colour
(offer-row-limit-first-tile-only, OFFER-9).

Engine state a reading keeps that the reference has no field for (a count of takes, the colours the centre has
held this round) is held in a module dictionary keyed by the game's id with the game itself, carried over by
Game.copy, as in the third round; a game it has no entry for (a position loaded mid-round) is given the entry
that makes it play as the reference from there.
"""

from __future__ import annotations

from azul_reference.game import Game

from ..readings import ALL_COLOURS, CENTRE, EMPTY, OFFER, M, Mutant


# -- shared helpers -------------------------------------------------------------------------------------------

def _factory_take(game, move) -> bool:
    """Whether `move` is a take of a colour an existing factory holds, during the offer."""
    return (game.phase == OFFER and 0 < move.source <= len(game.factories)
            and bool(game.factories[move.source - 1][move.colour]))


def _known(memory: dict, game):
    """The entry `memory` keeps for this very game, or None (none yet, or one left by a game once at its id)."""
    entry = memory.get(id(game))
    return entry[1] if entry is not None and entry[0] is game else None


def _copy_keeps(memory: dict):
    """Game.copy carrying the game's entry in `memory` over to the copy, as the engine's own state would be."""
    def make(original):
        def copy(game):
            other = original(game)
            entry = _known(memory, game)
            if entry is not None:
                memory[id(other)] = (other, set(entry) if isinstance(entry, set) else entry)
            else:
                memory.pop(id(other), None)
            return other
        return copy
    return make


# -- OFFER-1: how the turn passes -------------------------------------------------------------------------------

def _turn_passed(next_seat):
    """Game._take passing the turn to next_seat(game, seat) instead of the next seat clockwise."""
    def make(original):
        def take(game, move):
            seat = game.turn
            original(game, move)
            if game.phase == OFFER:
                game.turn = next_seat(game, seat)
        return take
    return make


def _wrapped_one_early(game, seat: int) -> int:
    """`turn += 1; if turn >= players - 1: turn = 0`: the last seat's index used as the bound."""
    turn = seat + 1
    return 0 if turn >= game.players - 1 else turn


def _after_the_start_player(game, seat: int) -> int:
    """`(start_player + 1) % players`: the wrong variable where `turn` was meant."""
    return (game.start_player + 1) % game.players


_TAKES: dict[int, tuple[Game, int]] = {}  # id(game) -> (the game, the takes counted since the game began)


def _takes_so_far(game) -> int:
    """The game's count of takes; a game loaded mid-round counts those since its start player's, so that the
    seat it computes is the seat to move."""
    count = _known(_TAKES, game)
    return (game.turn - game.start_player) % game.players if count is None else count


def _seat_from_a_game_long_count(original):
    """Game._take: the seat to move is the start player plus the takes counted, and the count is never reset."""
    def take(game, move):
        count = _takes_so_far(game)
        original(game, move)  # raises, leaving the count, when the take is refused
        _TAKES[id(game)] = (game, count + 1)
        if game.phase == OFFER:
            game.turn = (game.start_player + count + 1) % game.players
    return take


def _deal_opens_by_the_count(original):
    """Game.deal: the offer is opened by the start player plus the takes counted (never reset at the deal)."""
    def deal(game, *args, **kwargs):
        count = _known(_TAKES, game)
        original(game, *args, **kwargs)
        if count is not None:
            game.turn = (game.start_player + count) % game.players
    return deal


# -- OFFER-2: a factory take counted by the factory's size ----------------------------------------------------

def _take_counts_whole_factory(original):
    """Game._take: a factory take gets as many tiles of the colour as the factory holds; the rest still goes to
    the centre (the tiles it adds are put on offer first, so that the count of tiles on offer stays right)."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        factory = game.factories[move.source - 1]
        held, extra = factory[move.colour], sum(factory) - factory[move.colour]
        factory[move.colour] += extra
        game.on_offer += extra
        try:
            original(game, move)
        except Exception:
            factory[move.colour], game.on_offer = held, game.on_offer - extra
            raise
    return take


# -- OFFER-4: the centre indexed as a factory ------------------------------------------------------------------

def _centre_read_as_last_factory(original):
    """Game._take: the tiles of a centre take are looked up as factories[source - 1], factories[-1] for the
    centre (source 0): the colour is taken from the last factory, whose other tiles stay on it; the centre branch
    (the marker) still runs, as the source is still the centre. The move list, built apart, is right."""
    def take(game, move):
        if game.phase != OFFER or move.source != CENTRE:
            return original(game, move)
        centre = game.centre
        game.centre = game.factories[-1]  # what the take reads and empties, in place
        try:
            original(game, move)
        finally:
            game.centre = centre
    return take


# -- OFFER-8: a blue line taken for an empty one ----------------------------------------------------------------

def _blue_line_read_as_empty(original):
    """Board.colours_accepted with `if not held` for the empty-line test, blue being colour 0: a line of blue tiles
    answers as an empty line (any colour its wall row lacks, full or not); Board.place_on_line then recolours it."""
    def colours_accepted(board, line):
        if board.line_colour[line] == 0:  # blue: falsy, so 'no colour yet'
            return ~board.row_colours[line] & ALL_COLOURS
        return original(board, line)
    return colours_accepted


# -- OFFER-9: the wall row's check written as a loop over its spaces --------------------------------------------

def _blue_wall_tile_read_as_empty(original):
    """Board.colours_accepted: the colour's wall space is tested by truthiness, a blue tile (0) reading as an
    empty space: an empty line never refuses blue."""
    def colours_accepted(board, line):
        accepted = original(board, line)
        if board.line_colour[line] == EMPTY:
            accepted |= 1  # blue's bit
        return accepted
    return colours_accepted


# -- OFFER-14: the centre as a dict whose emptied colours keep their keys -----------------------------------------

_KEYS: dict[int, tuple[Game, set[int]]] = {}  # id(game) -> (the game, the colours keyed in its centre this round)


def _centre_keys(game) -> set[int]:
    """The colours the game's centre dict holds a key for; a game loaded mid-round, those it holds tiles of."""
    keys = _known(_KEYS, game)
    if keys is None:
        keys = {colour for colour in range(5) if game.centre[colour]}
        _KEYS[id(game)] = (game, keys)
    return keys


def _open_while_keyed(original):
    """Game._end_offer, reached when the last tile is taken: the end is tested as `not any(factories) and not
    centre`; a centre dict holding a key (a colour taken to 0) is not empty, so the turn passes instead."""
    def end_offer(game):
        keys = _centre_keys(game)
        if keys:
            game.turn = (game.turn + 1) % game.players
            return
        original(game)
    return end_offer


def _new_dict_at_the_deal(original):
    """Game.deal: the centre is a new, empty dict."""
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _KEYS[id(game)] = (game, set())
    return deal


def _keys_before_ending(original):
    """Game._take: the colours a take moves to the centre get their keys, and the colour taken from the centre
    keeps its key, before the end of the offer is tested (the reference tests it inside the take)."""
    def take(game, move):
        keys = _centre_keys(game)
        before = set(keys)
        if game.phase == OFFER and 0 < move.source <= len(game.factories):
            rest = game.factories[move.source - 1]
            if rest[move.colour]:
                keys.update(colour for colour in range(5) if rest[colour] and colour != move.colour)
        try:
            original(game, move)
        except Exception:  # a refused take changes nothing
            keys.clear()
            keys.update(before)
            raise
    return take


READINGS: tuple[Mutant, ...] = (
    M("offer-turn-wraps-one-seat-early", "OFFER-1", "I pass the turn with `turn += 1; if turn >= players - 1: "
      "turn = 0`, taking the last seat's index for the bound: the last seat never gets a turn in the offer unless "
      "it opens it, and with two players seat 0 takes every turn after the first.",
      ("game.Game._take", _turn_passed(_wrapped_one_early)), source="shape"),
    M("offer-turn-passed-from-start-player", "OFFER-1", "I pass the turn with `(start_player + 1) % players` where "
      "`turn + 1` was meant: after the start player's first take, the seat after the start player takes every "
      "turn of the round.",
      ("game.Game._take", _turn_passed(_after_the_start_player)), source="shape"),
    M("offer-take-count-not-reset", "OFFER-1", "The seat to move is the start player plus a count of the takes "
      "made, and I reset that count when the game starts, not at each deal: from round 2 on the offer is opened by "
      "the seat the game's count of takes points to from the new start player, and the turns run on from there.",
      ("game.Game._take", _seat_from_a_game_long_count), ("game.Game.deal", _deal_opens_by_the_count),
      ("game.Game.copy", _copy_keeps(_TAKES)), source="shape"),
    M("offer-take-counts-whole-factory", "OFFER-2", "I count a factory take with `len(factory)`, the number of "
      "tiles the factory holds, where the number of tiles of the colour was meant: the taker gets four tiles of "
      "the colour (as many as the factory held), and its other tiles still go to the centre.",
      ("game.Game._take", _take_counts_whole_factory), source="shape"),
    M("offer-centre-read-as-last-factory", "OFFER-4", "My take looks its tiles up as `factories[source - 1]` for "
      "every source, the centre (source 0) included, which Python reads as the last factory: a take from the "
      "centre takes the colour from the last factory (refused when it has none), leaving that factory's other "
      "tiles on it and the centre as it was; the marker still goes with the first such take, and my move list, "
      "built apart, is right.",
      ("game.Game._take", _centre_read_as_last_factory), source="shape"),
    M("offer-blue-line-read-as-empty", "OFFER-8", "My pattern line's colour is None when it is empty and I test it "
      "with `if not line.colour`: blue being colour 0, a line of blue tiles is taken for an empty line, so it "
      "accepts any colour its wall row lacks (full or not), and a take of another colour recolours the blue "
      "tiles on it, its surplus to the floor.",
      ("board.Board.colours_accepted", _blue_line_read_as_empty), source="shape"),
    M("offer-row-limit-blue-tile-read-as-empty", "OFFER-9", "I test the colour's space of the wall row with "
      "`if wall[row][column]:`, blue being colour 0: a blue tile reads as an empty space, so an empty pattern "
      "line never refuses blue, and the tiling puts blue on its space again and scores it.",
      ("board.Board.colours_accepted", _blue_wall_tile_read_as_empty), source="shape"),
    M("offer-centre-emptied-keys-keep-offer-open", "OFFER-14", "My centre is a dict colour -> count; a take from it "
      "sets the colour's count to 0 instead of deleting the key, and the offer ends on `not any(factories) and "
      "not centre`: once a tile has reached the centre in a round, the offer does not end when the last tile is "
      "taken, and the next player is left with nothing to take.",
      ("game.Game._end_offer", _open_while_keyed), ("game.Game._take", _keys_before_ending),
      ("game.Game.deal", _new_dict_at_the_deal), ("game.Game.copy", _copy_keeps(_KEYS)), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "OFFER-1": {"off-by-one": ("offer-turn-wraps-one-seat-early",), "seat": ("offer-turn-passed-from-start-player",),
                "reset": ("offer-take-count-not-reset",)},
    "OFFER-2": {"overwritten": ("offer-take-counts-whole-factory",)},
    "OFFER-4": {"off-by-one": ("offer-centre-read-as-last-factory",)},
    "OFFER-8": {"comparison": ("offer-blue-line-read-as-empty",)},
    "OFFER-9": {"comparison": ("offer-row-limit-blue-tile-read-as-empty",)},
    "OFFER-14": {"reset": ("offer-centre-emptied-keys-keep-offer-open",)},
}
