"""Readings of OFFER-9 .. OFFER-16 written from the rules' text alone (clean room; see NOTES.md of the folder).

Each reading is one slip an engine author makes implementing one of these rules: a wrong comparison, a forgotten
case, a check made in the wrong step, or a rule kept in the legal-move list but not in the check of a played
move (or the reverse).
"""

from __future__ import annotations

from ..readings import (
    ALL_COLOURS, CENTRE, EMPTY, FLOOR, OFFER, TAKES, IllegalMove, M, Take,
    _accepts, _line_refusals, _refuse_unlisted, _reopen_every_line, _room, _tiles_of,
)
from azul_reference.tiles import FLOOR_SPACES


# -- helpers -----------------------------------------------------------------------------------------------------

def _listing(game, line_ok=None, floor_ok=None) -> list:
    """The takes listed in the reference's order (factories, then the centre; colours B Y R K W; lines 1-5, then
    the floor), with `line_ok(game, board, line, colour, count)` and `floor_ok(game, board, colour, count)` deciding
    each destination (None: the reference's own answer), so a reading can widen or narrow the list."""
    board = game.boards[game.turn]
    moves = []
    sources = [(s + 1, f) for s, f in enumerate(game.factories)] + [(CENTRE, game.centre)]
    for source, tiles in sources:
        for colour in range(5):
            count = tiles[colour]
            if not count:
                continue
            for line in range(5):
                ok = board.accepts(line, colour) if line_ok is None else line_ok(game, board, line, colour, count)
                if ok:
                    moves.append(TAKES[source][colour][line + 1])
            if floor_ok is None or floor_ok(game, board, colour, count):
                moves.append(TAKES[source][colour][FLOOR])
    return moves


def _listed_by(line_ok=None, floor_ok=None):
    """A patch of Game._legal_takes listing with `_listing(line_ok, floor_ok)`."""
    return lambda original: lambda game: _listing(game, line_ok, floor_ok)


def _refused_when(test, rule: str):
    """A patch of Game._take refusing (after the rules' own refusals) a take for which `test(game, move)` holds:
    an engine whose check of a played take holds a rule its list does not (or holds it differently)."""
    def make(original):
        def take(game, move):
            if game.phase == OFFER and move.source <= len(game.factories) and _tiles_of(game, move):
                original(game.copy(), move)  # raises when the rules themselves refuse it
                if test(game, move):
                    raise IllegalMove(f"{move}: refused", rule=rule)
            original(game, move)
        return take
    return make


def _only_row_refuses(game, board, line, colour, count) -> bool:
    """A line the reference refuses for OFFER-9 alone, or one it accepts: the list of an engine without the row
    rule in its listing."""
    refusals = _line_refusals(board, line, colour)
    return board.accepts(line, colour) or (refusals["OFFER-9"] and not refusals["OFFER-8"]
                                           and not refusals["OFFER-12"])


def _row_ignored(board, line, accepted):
    """colours_accepted with no wall-row rule: an empty line takes any colour."""
    return ALL_COLOURS if board.line_colour[line] == EMPTY else accepted


def _colour_index_as_column(board, line, accepted):
    """The wall row is looked up at the colour's number as a column (wall[line][colour]), the diagonal forgotten."""
    if board.line_colour[line] != EMPTY:
        return accepted
    return sum(1 << colour for colour in range(5) if board.wall[line][colour] == EMPTY)


def _bit_not_shifted(board, line, accepted):
    """The wall row's bit set is tested with the colour's number, not its bit (row & colour for row & 1 << colour):
    blue is never refused, and another colour is refused when its number shares a bit with the row's colours."""
    if board.line_colour[line] != EMPTY:
        return accepted
    return sum(1 << colour for colour in range(5) if not board.row_colours[line] & colour)


def _transposed(board, line, accepted):
    """The wall is indexed [column][row]: line N is checked against wall column N, not row N."""
    if board.line_colour[line] != EMPTY:
        return accepted
    return ~board.column_colours[line] & ALL_COLOURS


def _row_checked_at_tiling(to: str):
    """Board.tile_coloured_wall of an engine that checks the wall row only when the line is tiled: a complete line
    whose colour's space is already filled goes to the floor line (to "floor"), to the lid ("lid"), or stays
    where it is, full ("kept")."""
    def make(original):
        def tile_coloured_wall(board, lid):
            kept = []
            for line in range(5):
                colour = board.line_colour[line]
                if board.line_count[line] == line + 1 and board.row_colours[line] >> colour & 1:
                    if to == "kept":
                        kept.append(line)
                        board.line_count[line] = 0  # hidden from the tiling, put back after it
                        continue
                    if to == "floor":
                        board.to_floor(colour, line + 1, lid)
                    else:
                        lid[colour] += line + 1
                    board.line_colour[line], board.line_count[line] = EMPTY, 0
                    board.reopen(line)
            original(board, lid)
            for line in kept:
                board.line_count[line] = line + 1
        return tile_coloured_wall
    return make


def _repeat_in_row(board, line: int) -> bool:
    """Whether complete pattern `line` holds a colour its wall row already holds."""
    colour = board.line_colour[line]
    return colour != EMPTY and bool(board.row_colours[line] >> colour & 1)


def _grey_repeat_kept(original):
    """Board.line_to_floor: on the grey wall a line refused at the tiling for its row stays where it is."""
    def line_to_floor(board, line, lid):
        if _repeat_in_row(board, line):
            return
        original(board, line, lid)
    return line_to_floor


def _pending_line_past_repeats(original):
    """Game._pending_line: a kept line (its colour already in its row) is never asked for a placement."""
    def pending_line(game):
        board = game.boards[game.turn]
        return next(line for line in range(5) if board.line_complete(line) and not _repeat_in_row(board, line))
    return pending_line


def _floor_as_line_5(original):
    """Game._take: the floor line's number 0, less one, indexes pattern line 5 (lines[-1]): a take to the floor is
    checked and placed as a take to line 5."""
    def take(game, move):
        if move.line == FLOOR:
            return original(game, Take(move.source, move.colour, 5))
        return original(game, move)
    return take


def _grey_row_checked_at_tiling(original):
    """Board.free_columns: on the grey wall a line whose colour its row already holds fits no column (GREY-3 sends
    it to the floor), the row being checked only when the line is tiled."""
    def free_columns(board, line):
        if board.row_colours[line] >> board.line_colour[line] & 1:
            return []
        return original(board, line)
    return free_columns


def _grey_row_repeat_to_lid(original):
    """Board.line_to_floor: a line refused at the tiling because its row holds the colour goes to the lid; a line
    that fits no column for the column rule still goes to the floor (GREY-3)."""
    def line_to_floor(board, line, lid):
        colour = board.line_colour[line]
        if colour != EMPTY and board.row_colours[line] >> colour & 1:
            lid[colour] += board.line_count[line]
            board.line_colour[line], board.line_count[line] = EMPTY, 0
            board.reopen(line)
            return
        original(board, line, lid)
    return line_to_floor


def _overflow_against_capacity(original):
    """Board.place_on_line: the overflow is what exceeds the line's size, not its free spaces; the line is filled
    and the tiles in between are lost."""
    def place_on_line(board, line, colour, count, lid):
        capacity = line + 1
        board.line_colour[line] = colour
        board.line_count[line] = min(capacity, board.line_count[line] + count)
        board.reopen(line)
        if count > capacity:
            board.to_floor(colour, count - capacity, lid)
    return place_on_line


def _overflows(game, move) -> bool:
    """A take to a pattern line larger than the line's free spaces."""
    return move.line != FLOOR and _tiles_of(game, move) > _room(game.boards[game.turn], move.line - 1)


def _fits_whole(game, board, line, colour, count) -> bool:
    """A line listed only when it takes the colour and has room for the whole take."""
    return board.accepts(line, colour) and count <= _room(board, line)


def _floor_when_no_line(game, board, colour, count) -> bool:
    """The floor is a destination by choice only when no pattern line takes the colour (the catalogue's
    offer-floor-only-overflow), here for the list alone."""
    return not any(board.accepts(line, colour) for line in range(5))


def _floor_by_choice(game, move) -> bool:
    """A take to the floor of a colour some pattern line of the player could take."""
    board = game.boards[game.turn]
    return move.line == FLOOR and any(board.accepts(line, move.colour) for line in range(5))


def _floor_when_stuck(game, board, colour, count) -> bool:
    """The floor is listed only for a player none of whose takes fits any pattern line."""
    sources = [*game.factories, game.centre]
    return not any(tiles[c] and board.accepts(line, c) for tiles in sources for c in range(5) for line in range(5))


def _floor_when_nothing_fits_whole(game, board, colour, count) -> bool:
    """The floor by choice only when no pattern line has room for the whole take."""
    return not any(board.accepts(line, colour) and count <= _room(board, line) for line in range(5))


def _floor_replaced(original):
    """Game._take: a take to the floor line is assigned to the floor, not appended: what lay there, the marker
    included, is lost; the take's tiles beyond seven go to the lid."""
    def take(game, move):
        if game.phase != OFFER or move.line != FLOOR or move.source > len(game.factories) \
                or not _tiles_of(game, move):
            return original(game, move)
        board, count, colour = game.boards[game.turn], _tiles_of(game, move), move.colour
        lid_before = game.lid[colour]
        original(game, move)
        board.floor = [colour] * min(count, FLOOR_SPACES)
        game.lid[colour] = lid_before + max(0, count - FLOOR_SPACES)
    return take


def _full_line_open(board, line, accepted):
    """colours_accepted comparing the count with the capacity non-strictly (<= line + 1): a full line still takes
    its own colour."""
    held = board.line_colour[line]
    if held != EMPTY and board.line_count[line] == line + 1:
        return 1 << held
    return accepted


def _full_line_listed(game, board, line, colour, count) -> bool:
    """A line listed when it accepts the colour, or is full of that colour (the room not looked at)."""
    return board.accepts(line, colour) or (board.line_colour[line] == colour and board.line_complete(line))


def _colour_elsewhere(board, line, colour, unfinished_only=False) -> bool:
    """Whether another pattern line of the board holds `colour` (only an unfinished one, if asked)."""
    return any(board.line_colour[other] == colour and other != line
               and not (unfinished_only and board.line_complete(other)) for other in range(5))


def _one_line_listed(game, board, line, colour, count) -> bool:
    """An empty line listed only for a colour no other line of the player holds."""
    return board.accepts(line, colour) and not (board.line_colour[line] == EMPTY
                                                and _colour_elsewhere(board, line, colour))


def _second_line(game, move) -> bool:
    """A take starting an empty line with a colour another line of the player already holds."""
    board = game.boards[game.turn]
    line = move.line - 1
    return move.line != FLOOR and board.line_colour[line] == EMPTY and _colour_elsewhere(board, line, move.colour)


def _one_unfinished_line_per_colour(board, line, accepted):
    """colours_accepted: an empty line refuses the colours that an unfinished line of the board holds."""
    if board.line_colour[line] != EMPTY:
        return accepted
    building = sum(1 << board.line_colour[other] for other in range(5)
                   if board.line_colour[other] != EMPTY and not board.line_complete(other))
    return accepted & ~building


def _ends_with_factories(centre_to):
    """Game._take: the offer ends when the factories are empty; the centre's tiles left then are lost
    (centre_to None) or stay in the centre for the next round (centre_to "kept")."""
    def make(original):
        def take(game, move):
            original(game, move)
            if game.phase == OFFER and not any(map(any, game.factories)):
                left = game.centre[:]
                game.centre[:] = [0] * 5
                game.on_offer = 0
                game._end_offer()
                if centre_to == "kept":
                    for colour in range(5):
                        game.centre[colour] += left[colour]
        return take
    return make


def _ends_when_centre_empties_lost(original):
    """Game._take: the offer ends when a take empties the centre; the factories' tiles are swept off the table,
    into no lid."""
    def take(game, move):
        original(game, move)
        if move.source == CENTRE and game.phase == OFFER and not any(game.centre):
            for factory in game.factories:
                factory[:] = [0] * 5
            game.on_offer = 0
            game._end_offer()
    return take


def _centre_counted_at_the_deal(original):
    """Game.deal: the tiles on offer are counted over the factories and the centre (which may hold last round's)."""
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.on_offer = sum(map(sum, game.factories)) + sum(game.centre)
    return deal


def _floor_room(full_only: bool):
    """The floor as a destination only while it has room: any (full_only) or enough for the whole take."""
    def floor_ok(game, board, colour, count):
        room = FLOOR_SPACES - len(board.floor)
        return room > 0 if full_only else count <= room
    return floor_ok


# -- the readings ------------------------------------------------------------------------------------------------

READINGS = (
    # OFFER-9
    M("offer-row-limit-colour-as-column", "OFFER-9", "The wall row is checked at the colour's own number as a "
      "column (wall[line][colour]), the diagonal layout forgotten: a line refuses a colour when the space in that "
      "column is filled, whatever tile is there, and takes a colour its row already holds elsewhere.",
      ("board.Board.colours_accepted", _accepts(_colour_index_as_column)),
      ("game.Game._take", _refuse_unlisted("OFFER-9")), source="shape"),
    M("offer-row-limit-transposed", "OFFER-9", "The wall is indexed [column][row]: pattern line N refuses the "
      "colours wall column N holds, not those of wall row N.",
      ("board.Board.colours_accepted", _accepts(_transposed)), ("board.Board.reopen", _reopen_every_line),
      ("game.Game._take", _refuse_unlisted("OFFER-9")), source="shape"),
    M("offer-row-limit-bit-not-shifted", "OFFER-9", "The wall row's colours are kept as bits and tested with the "
      "colour's number instead of its bit (row & colour): blue is never refused, and yellow, red, black and white "
      "are refused when the row holds a colour whose bit the number shares.",
      ("board.Board.colours_accepted", _accepts(_bit_not_shifted)),
      ("game.Game._take", _refuse_unlisted("OFFER-9")), source="shape"),
    M("offer-row-limit-listed", "OFFER-9", "Lists a take to a line whose wall row already holds the colour (the "
      "list does not look at the wall) but refuses it when it is played.",
      ("game.Game._legal_takes", _listed_by(line_ok=_only_row_refuses)), source="shape"),
    M("offer-row-limit-at-tiling-to-floor", "OFFER-9", "The wall row is checked only when the line is tiled: any "
      "empty line takes any colour, and a complete line whose colour's space is already filled falls to the "
      "floor line then, before the floor is charged.",
      ("board.Board.colours_accepted", _accepts(_row_ignored)),
      ("board.Board.tile_coloured_wall", _row_checked_at_tiling("floor")),
      ("board.Board.free_columns", _grey_row_checked_at_tiling), source="shape"),
    M("offer-row-limit-at-tiling-to-lid", "OFFER-9", "The wall row is checked only when the line is tiled: any "
      "empty line takes any colour, and a complete line whose colour its wall row already holds is discarded to "
      "the lid then, unscored.",
      ("board.Board.colours_accepted", _accepts(_row_ignored)),
      ("board.Board.tile_coloured_wall", _row_checked_at_tiling("lid")),
      ("board.Board.free_columns", _grey_row_checked_at_tiling),
      ("board.Board.line_to_floor", _grey_row_repeat_to_lid), source="shape"),
    M("offer-row-limit-at-tiling-line-kept", "OFFER-9", "The wall row is checked only when the line is tiled: "
      "any empty line takes any colour, and a complete line whose colour's space is already filled is skipped by "
      "the tiling and stays full on its pattern line.",
      ("board.Board.colours_accepted", _accepts(_row_ignored)),
      ("board.Board.tile_coloured_wall", _row_checked_at_tiling("kept")),
      ("board.Board.free_columns", _grey_row_checked_at_tiling),
      ("board.Board.line_to_floor", _grey_repeat_kept), ("game.Game._pending_line", _pending_line_past_repeats),
      source="shape"),
    # OFFER-10
    M("offer-overflow-against-capacity", "OFFER-10", "The overflow is counted against the line's size, not its "
      "free spaces: the line is filled, only what exceeds its size goes to the floor, and the tiles that filled "
      "spaces already taken are lost.", ("board.Board.place_on_line", _overflow_against_capacity), source="shape"),
    M("offer-overflow-unlisted", "OFFER-10", "The list offers a line only takes that fit in its free spaces (a "
      "larger take is listed only to the floor), but a played take that overflows is accepted and its surplus "
      "falls to the floor.", ("game.Game._legal_takes", _listed_by(line_ok=_fits_whole)), source="shape"),
    M("offer-overflow-refused-when-played", "OFFER-10", "Lists every take to a line that takes the colour, but "
      "refuses a played take larger than the line's free spaces.",
      ("game.Game._take", _refused_when(_overflows, "OFFER-10")), source="shape"),
    # OFFER-11
    M("offer-floor-choice-unlisted", "OFFER-11", "The list offers the floor for a colour only when no pattern "
      "line takes it, but a played take to the floor is accepted whatever the lines.",
      ("game.Game._legal_takes", _listed_by(floor_ok=_floor_when_no_line)), source="shape"),
    M("offer-floor-choice-refused-when-played", "OFFER-11", "Lists every take to the floor, but refuses a played "
      "take to the floor of a colour some pattern line could take.",
      ("game.Game._take", _refused_when(_floor_by_choice, "OFFER-11")), source="shape"),
    M("offer-floor-only-when-stuck", "OFFER-11", "The floor is a destination only for a player who has no take "
      "to any pattern line at all; while one exists, no take may go to the floor.",
      ("game.Game._legal_takes", _listed_by(floor_ok=_floor_when_stuck)),
      ("game.Game._take", _refuse_unlisted("OFFER-11")), source="shape"),
    M("offer-floor-only-when-nothing-fits", "OFFER-11", "A take may go to the floor by choice only when no pattern "
      "line has room for all of it ('cannot place' read as cannot place the whole take).",
      ("game.Game._legal_takes", _listed_by(floor_ok=_floor_when_nothing_fits_whole)),
      ("game.Game._take", _refuse_unlisted("OFFER-11")), source="shape"),
    M("offer-floor-take-replaces-floor", "OFFER-11", "A take to the floor line is assigned to it, not appended: "
      "what lay on the floor (the marker included) is lost, and the take's tiles fill it from the left.",
      ("game.Game._take", _floor_replaced), source="shape"),
    M("offer-floor-take-on-line-5", "OFFER-11", "A take to the floor line (destination 0) is indexed as line 0 - "
      "1, the last pattern line: it is checked and placed as a take to line 5, its overflow to the floor.",
      ("game.Game._take", _floor_as_line_5), source="shape"),
    # OFFER-12
    M("offer-full-line-open-non-strict", "OFFER-12", "A line's count is compared with its size non-strictly (<=): "
      "a full line still takes its colour, listed and played, and the whole take falls to the floor.",
      ("board.Board.colours_accepted", _accepts(_full_line_open)), source="shape"),
    M("offer-full-line-listed", "OFFER-12", "Lists a take of its colour to a full pattern line (the list checks "
      "the colour, not the room) but refuses it when it is played.",
      ("game.Game._legal_takes", _listed_by(line_ok=_full_line_listed)), source="shape"),
    # OFFER-13
    M("offer-one-line-per-colour-unlisted", "OFFER-13", "The list offers no empty line a colour another line "
      "holds, but a played take starting a second line of the colour is accepted.",
      ("game.Game._legal_takes", _listed_by(line_ok=_one_line_listed)), source="shape"),
    M("offer-one-line-per-colour-refused-when-played", "OFFER-13", "Lists a take starting a second line of a "
      "colour, but refuses it when it is played because another line holds the colour.",
      ("game.Game._take", _refused_when(_second_line, "OFFER-13")), source="shape"),
    M("offer-one-unfinished-line-per-colour", "OFFER-13", "A colour being built on an unfinished line may not "
      "start another; once that line is full the colour may go on another line.",
      ("board.Board.colours_accepted", _accepts(_one_unfinished_line_per_colour)),
      ("board.Board.reopen", _reopen_every_line), ("game.Game._take", _refuse_unlisted("OFFER-13")),
      source="shape"),
    # OFFER-14
    M("offer-ends-with-factories-centre-kept", "OFFER-14", "The offer ends when the factories are empty; the "
      "tiles left in the centre stay there for the next round.",
      ("game.Game._take", _ends_with_factories("kept")), ("game.Game.deal", _centre_counted_at_the_deal),
      source="shape"),
    M("offer-ends-with-factories-centre-lost", "OFFER-14", "The offer ends when the factories are empty; the "
      "tiles left in the centre are swept off the table, into no lid.",
      ("game.Game._take", _ends_with_factories(None)), source="shape"),
    # OFFER-15
    M("offer-ends-when-centre-empties-factories-lost", "OFFER-14", "The offer ends when a take empties the "
      "centre; the tiles left on the factories are swept off the table, into no lid.",
      ("game.Game._take", _ends_when_centre_empties_lost), source="shape"),
    # OFFER-11 (and OFFER-16: the floor accepts any take)
    M("offer-no-floor-take-on-full-floor", "OFFER-11", "The floor is a destination only while it has a free "
      "space: with seven tiles on it, no take may go to the floor (the overflow of a line still falls there).",
      ("game.Game._legal_takes", _listed_by(floor_ok=_floor_room(True))),
      ("game.Game._take", _refuse_unlisted("OFFER-11")), source="shape"),
    M("offer-floor-take-only-if-it-fits", "OFFER-11", "A take may go to the floor only if the floor's free spaces "
      "hold all of it.", ("game.Game._legal_takes", _listed_by(floor_ok=_floor_room(False))),
      ("game.Game._take", _refuse_unlisted("OFFER-11")), source="shape"),
)

CELLS = {
    "OFFER-9": {"comparison": ("offer-row-limit-colour-as-column", "offer-row-limit-transposed",
                               "offer-row-limit-bit-not-shifted"),
                "order": ("offer-row-limit-at-tiling-to-floor", "offer-row-limit-at-tiling-to-lid",
                          "offer-row-limit-at-tiling-line-kept"),
                "check": ("offer-row-limit-listed",)},
    "OFFER-10": {"comparison": ("offer-overflow-against-capacity",), "list": ("offer-overflow-unlisted",),
                 "check": ("offer-overflow-refused-when-played",)},
    "OFFER-11": {"comparison": ("offer-floor-only-when-stuck", "offer-floor-only-when-nothing-fits",
                                "offer-no-floor-take-on-full-floor", "offer-floor-take-only-if-it-fits"),
                 "both": ("offer-no-floor-take-on-full-floor", "offer-floor-take-only-if-it-fits"),
                 "overwritten": ("offer-floor-take-replaces-floor",), "off-by-one": ("offer-floor-take-on-line-5",),
                 "list": ("offer-floor-choice-unlisted",),
                 "check": ("offer-floor-choice-refused-when-played",)},
    "OFFER-12": {"comparison": ("offer-full-line-open-non-strict",), "both": ("offer-full-line-open-non-strict",),
                 "check": ("offer-full-line-listed",)},
    "OFFER-13": {"comparison": ("offer-one-unfinished-line-per-colour",),
                 "list": ("offer-one-line-per-colour-unlisted",),
                 "check": ("offer-one-line-per-colour-refused-when-played",)},
    "OFFER-14": {"comparison": ("offer-ends-with-factories-centre-lost",
                                "offer-ends-when-centre-empties-factories-lost"),
                 "reset": ("offer-ends-with-factories-centre-kept",)},
}
