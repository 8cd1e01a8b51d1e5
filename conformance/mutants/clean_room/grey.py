"""GREY-1 .. GREY-5 (the grey wall variant): wrong readings written from the rules' text alone.

Each reading is a slip an engine author could make implementing the grey wall: where the owner may put the tile
(GREY-1), the column rule (GREY-2), the line whose tile fits nowhere (GREY-3), what a line may take (GREY-4) and
the order of the placements (GREY-5); and, for each, where the engine applies it (its list of moves, its check of
a played move, or both).
"""

from __future__ import annotations

from ..readings import (
    ALL_COLOURS, EMPTY, PLACEMENTS, TILING, WALL_SIZE, IllegalMove, M, _accepts, _first_line_that_fits,
    _fits_a_column, _placed_as_listed, _recount, _reopen_every_line,
)
from azul_reference.moves import FLOOR
from azul_reference.tiles import COLOURS

# -- helpers -----------------------------------------------------------------------------------------------------


def _place_as_listed(rule: str):
    """Game._place for a reading whose list of placements differs: what it lists is played (over a tile if one is
    there), what it does not list is refused (as the rules say when they refuse it too)."""
    def make(original):
        def place(game, move):
            if str(move) in {str(m) for m in game.legal_moves()}:
                board = game.boards[game.turn]
                line, column = move.line - 1, move.column - 1
                covered = board.wall[line][column] != EMPTY
                board.tile_line(line, column, game.lid)
                if covered:
                    _recount(board)
                game._continue_grey_tiling()
                return
            original(game.copy(), move)  # raises when the rules themselves refuse it
            raise IllegalMove(f"{move}: not among the legal placements", rule=rule)
        return place
    return make


def _free_columns_where(test):
    """Board.free_columns read another way: test(board, line, column, colour) says whether the column is open."""
    def make(original):
        def free_columns(board, line):
            colour = board.line_colour[line]
            return [column for column in range(WALL_SIZE) if test(board, line, column, colour)]
        return free_columns
    return make


def _transposed_space(board, line, column, colour):
    """The space is looked up as wall[column][line] (indices swapped), the column rule as the rules say."""
    return board.wall[column][line] == EMPTY and not board.column_colours[column] >> colour & 1


def _column_below_only(board, line, column, colour):
    """The column is searched for the colour only in the rows below the placement (the loop's bounds inverted)."""
    return board.wall[line][column] == EMPTY and all(board.wall[row][column] != colour
                                                     for row in range(line + 1, WALL_SIZE))


def _column_to_row_4(board, line, column, colour):
    """The column is searched in rows 1 to 4 only (range(WALL_SIZE - 1)): the bottom row is left out."""
    return board.wall[line][column] == EMPTY and all(board.wall[row][column] != colour
                                                     for row in range(WALL_SIZE - 1))


def _column_of_line_index(board, line, column, colour):
    """The column rule is tested on column number `line` (the loop's other variable) for every candidate."""
    return board.wall[line][column] == EMPTY and not board.column_colours[line] >> colour & 1


def _column_read_from_0(original):
    """The column of `<line>@<column>` is used as an index as it stands (no - 1): 2@3 goes to the fourth column,
    and 2@5 names no column."""
    def place(game, move):
        if move.column >= WALL_SIZE:
            raise IllegalMove(f"{move}: there is no wall column {move.column + 1}", rule="GREY-1")
        return original(game, PLACEMENTS[move.line][move.column + 1])
    return place


def _seat_kept_on_move(seat_at_offer_end):
    """Game._end_offer, Game._place and Game.legal_moves for a reading in which the seat on move during the grey
    tiling is seat_at_offer_end(game, last_taker), kept through every placement: the pending board's placement is
    still the one asked for and played."""
    def end_offer(original):
        def run(game):
            last = game.turn
            original(game)
            if game.phase == TILING:
                game.turn = seat_at_offer_end(game, last)
        return run

    def act(original):
        def run(game, *args):
            if game.phase != TILING:
                return original(game, *args)
            kept = game.turn
            game.turn = _pending_seat(game)
            try:
                return original(game, *args)
            finally:
                if game.phase == TILING:
                    game.turn = kept
        return run
    return end_offer, act


def _pending_seat(game) -> int:
    """The board whose placement is pending: the first from the start player with a complete line."""
    return next((seat for seat in ((game.start_player + k) % game.players for k in range(game.players))
                 if any(game.boards[seat].line_complete(line) for line in range(5))), game.start_player)


_LAST_TAKER_END, _LAST_TAKER_ACT = _seat_kept_on_move(lambda game, last: last)
_NEXT_SEAT_END, _NEXT_SEAT_ACT = _seat_kept_on_move(lambda game, last: (last + 1) % game.players)


def _column_bit_held_back(original):
    """Board.tile_line of an engine that records a placed tile's column only when the board's tiling is over:
    the column set of the wall does not see this tiling's placements yet."""
    def tile_line(board, line, column, lid):
        had = board.column_colours[column]
        original(board, line, column, lid)
        board.column_colours[column] = had
    return tile_line


def _columns_recorded_with_floor(original):
    """Board.clear_floor for the same engine: the board is done, the wall's columns are read again."""
    def clear_floor(board, lid):
        original(board, lid)
        _recount(board)
    return clear_floor


def _tiling(wait=lambda board, line: bool(board.free_columns(line)), auto=None, unfit_after_floor=False,
            floor_first=False):
    """Game._continue_grey_tiling read another way (the reference's: seat by seat from the start player, each board
    top to bottom, waiting at a line with a free column, a line with none to the floor at once, the floor scored
    when the board is done). wait(board, line): whether a complete line waits for its owner; auto(free): the column
    the engine picks itself (None: ask); unfit_after_floor: lines that fit nowhere go to the floor after it is
    scored; floor_first: the floor is scored as the board's tiling begins."""
    def make(original):
        def continue_grey_tiling(game, fresh=False):
            done = (game.turn - game.start_player) % game.players
            for k in range(done, game.players):
                seat = (game.start_player + k) % game.players
                board = game.boards[seat]
                if floor_first and (fresh or k > done):
                    board.clear_floor(game.lid)
                for line in range(5):
                    if board.line_complete(line):
                        free = board.free_columns(line)
                        column = auto(free) if auto and free else None
                        if column is not None:
                            board.tile_line(line, column, game.lid)
                        elif wait(board, line):
                            game.phase, game.turn = TILING, seat
                            return
                        elif not unfit_after_floor:
                            board.line_to_floor(line, game.lid)
                if not floor_first:
                    board.clear_floor(game.lid)
                for line in range(5):  # what is still complete here fits no column
                    if board.line_complete(line):
                        board.line_to_floor(line, game.lid)
            game._end_round()
        return continue_grey_tiling
    return make


def _fresh_tiling(original):
    """Game._end_offer for the floor-first reading: the grey tiling starts afresh (every board's floor is due)."""
    def end_offer(game):
        if not game.grey:
            return original(game)
        game.turn = game.start_player
        game._continue_grey_tiling(fresh=True)
    return end_offer


def _row_has_space(board, line) -> bool:
    """A complete line waits for its owner while its wall row has an empty space, whatever the columns hold."""
    return any(cell == EMPTY for cell in board.wall[line])


def _unfit_leftovers_to_floor(original):
    """Board.line_to_floor done as a tiling without the wall: the tile meant for the wall goes to the lid and the
    line's other tiles (those a tiling leaves over) to the floor."""
    def line_to_floor(board, line, lid):
        colour, count = board.line_colour[line], board.line_count[line]
        board.to_floor(colour, count - 1, lid)
        lid[colour] += 1
        board.line_colour[line], board.line_count[line] = EMPTY, 0
        board.reopen(line)
    return line_to_floor


def _unfit_line_replaces_floor(original):
    """Board.line_to_floor that assigns the line's tiles to the floor line instead of adding them: what was on the
    floor is lost; tiles beyond the seventh space go to the lid."""
    def line_to_floor(board, line, lid):
        colour, count = board.line_colour[line], board.line_count[line]
        board.floor = []
        board.to_floor(colour, count, lid)
        board.line_colour[line], board.line_count[line] = EMPTY, 0
        board.reopen(line)
    return line_to_floor


def _refused_when_unplaceable(original):
    """Game._take of an engine whose check of a played take refuses a colour no free column of the line's row
    could take, though its list of moves offers it."""
    def take(game, move):
        if game.grey and move.line != FLOOR:
            board = game.boards[game.turn]
            line = move.line - 1
            if board.line_colour[line] == EMPTY and not _fits_a_column(board, line, ALL_COLOURS) >> move.colour & 1:
                original(game.copy(), move)  # raises when the rules themselves refuse it
                raise IllegalMove(f"{move}: no column of wall row {move.line} can take "
                                  f"{COLOURS[move.colour]}", rule="GREY-4")
        original(game, move)
    return take


def _every_complete_line_listed(original):
    """Game.legal_moves listing the placements of every complete line of the pending board, not only the top one."""
    def legal_moves(game):
        if game.phase != TILING:
            return original(game)
        board = game.boards[game.turn]
        return [PLACEMENTS[line + 1][column + 1] for line in range(5) if board.line_complete(line)
                for column in board.free_columns(line)]
    return legal_moves


def _any_line_first(original):
    """Game._place accepting a placement of any complete line that has a free column, in whatever order."""
    def place(game, move):
        board = game.boards[game.turn]
        line, column = move.line - 1, move.column - 1
        if board.line_complete(line) and column in board.free_columns(line):
            board.tile_line(line, column, game.lid)
            game._continue_grey_tiling()
            return
        original(game, move)
    return place


def _any_order_tiling(original):
    """Game._continue_grey_tiling of an engine that lets the owner place the complete lines in any order: the
    board waits while any complete line has a free column; then the lines left over fall to the floor."""
    def continue_grey_tiling(game):
        done = (game.turn - game.start_player) % game.players
        for k in range(done, game.players):
            seat = (game.start_player + k) % game.players
            board = game.boards[seat]
            if any(board.line_complete(line) and board.free_columns(line) for line in range(5)):
                game.phase, game.turn = TILING, seat
                return
            for line in range(5):
                if board.line_complete(line):
                    board.line_to_floor(line, game.lid)
            board.clear_floor(game.lid)
        game._end_round()
    return continue_grey_tiling


def _single(free):
    """The one column there is, when there is only one; else None (the owner is asked)."""
    return free[0] if len(free) == 1 else None


_GREY_TAKE: list[bool] = []  # while a take is played: whether on the grey wall (Game._check_line cannot see it)


def _take_noted(original):
    """Game._take noting the wall it is played on, for the patched Game._check_line below."""
    def take(game, move):
        _GREY_TAKE.append(game.grey)
        try:
            original(game, move)
        finally:
            _GREY_TAKE.pop()
    return take


def _row_unchecked_on_grey(original):
    """Game._check_line of an engine that settles every wall restriction at tiling time on the grey wall: a line
    is not refused for a colour its wall row holds (OFFER-9), only for another colour or a full line."""
    def check_line(move, board, line, colour):
        if _GREY_TAKE and _GREY_TAKE[-1] and board.line_colour[line] == EMPTY:
            return
        return original(move, board, line, colour)
    return staticmethod(check_line)


def _listed_row_unchecked_on_grey(original):
    """Game._legal_takes of the same engine: on the grey wall, an empty line is listed for every colour."""
    def legal_takes(game):
        if not game.grey:
            return original(game)
        board = game.boards[game.turn]
        kept = board.open_lines
        board.open_lines = [sum(1 << line for line in range(5) if board.line_colour[line] == EMPTY
                                or (board.line_colour[line] == colour and board.line_count[line] <= line))
                            for colour in range(5)]
        try:
            return original(game)
        finally:
            board.open_lines = kept
    return legal_takes


def _row_checked_at_tiling(board, line, column, colour):
    """At tiling the space must be empty, its column and its row lack the colour (the row's check moved here)."""
    return (board.wall[line][column] == EMPTY and not board.column_colours[column] >> colour & 1
            and not board.row_colours[line] >> colour & 1)


READINGS = (
    # GREY-1: the owner chooses the space in the row
    M("grey-space-looked-up-transposed", "GREY-1", "The emptiness of a space is looked up as wall[column][row]: the "
      "placements offered (and accepted) are the columns whose mirrored space is empty, a tile may go over one "
      "already there and a free space can be refused.",
      ("board.Board.free_columns", _free_columns_where(_transposed_space)),
      ("game.Game._place", _place_as_listed("GREY-1")), source="shape"),
    M("grey-column-read-from-0", "GREY-1", "The column of a placement `<line>@<column>` is used as a 0-based index: "
      "2@3 puts the tile in the fourth column (checked there), and 2@5 is refused as no column.",
      ("game.Game._place", _column_read_from_0), source="shape"),
    M("grey-placement-asked-of-last-taker", "GREY-1", "After the last take the turn is not moved: the seat that "
      "took the last tile stays on move through the grey tiling, and every board's placements are asked of it.",
      ("game.Game._end_offer", _LAST_TAKER_END), ("game.Game.play", _LAST_TAKER_ACT),
      ("game.Game.legal_moves", _LAST_TAKER_ACT), source="shape"),
    M("grey-placement-asked-of-next-seat", "GREY-1", "The last take passes the turn on as every take does: the seat "
      "after the one that took the last tile is on move through the grey tiling and is asked for every placement.",
      ("game.Game._end_offer", _NEXT_SEAT_END), ("game.Game.play", _NEXT_SEAT_ACT),
      ("game.Game.legal_moves", _NEXT_SEAT_ACT), source="shape"),
    M("grey-occupied-space-listed", "GREY-1", "The placements listed are the columns that lack the colour, taken "
      "spaces included; a placement on a taken space is refused when played.",
      ("board.Board.free_columns", _free_columns_where(
          lambda board, line, column, colour: not board.column_colours[column] >> colour & 1)), source="shape"),
    M("grey-occupied-space-allowed", "GREY-1", "A placement may go to any column that lacks the colour, taken "
      "spaces included, in the list and when played: the tile is written over the one there, which is lost.",
      ("board.Board.free_columns", _free_columns_where(
          lambda board, line, column, colour: not board.column_colours[column] >> colour & 1)),
      ("game.Game._place", _place_as_listed("GREY-1")), source="shape"),
    # GREY-2: no colour twice in a column
    M("grey-column-checked-below", "GREY-2", "A column is checked for the colour only in the rows below the "
      "placement (the loop runs from the row down).",
      ("board.Board.free_columns", _free_columns_where(_column_below_only)),
      ("game.Game._place", _placed_as_listed), source="shape"),
    M("grey-column-checked-to-row-4", "GREY-2", "A column is checked for the colour in rows 1 to 4 only (the loop "
      "stops one short): a colour in the bottom row does not close its column.",
      ("board.Board.free_columns", _free_columns_where(_column_to_row_4)),
      ("game.Game._place", _placed_as_listed), source="shape"),
    M("grey-column-rule-on-line-number", "GREY-2", "The column rule is tested on the column numbered like the "
      "pattern line, for every candidate space: every empty space of the row is open, or none.",
      ("board.Board.free_columns", _free_columns_where(_column_of_line_index)),
      ("game.Game._place", _place_as_listed("GREY-2")), source="shape"),
    M("grey-columns-recorded-after-board", "GREY-2", "A placed tile's colour is recorded in its column only when "
      "the board's tiling is over: a lower line of the same colour may take the column an upper line just took.",
      ("board.Board.tile_line", _column_bit_held_back), ("board.Board.clear_floor", _columns_recorded_with_floor),
      source="shape"),
    # GREY-3: a tile that fits nowhere sends its line to the floor
    M("grey-unfit-line-waits", "GREY-3", "A complete line waits for its owner while its wall row has an empty "
      "space, the column rule not considered: a line whose tile fits nowhere waits with no placement to play.",
      ("game.Game._continue_grey_tiling", _tiling(wait=_row_has_space)), source="shape"),
    M("grey-unfit-leftovers-to-floor", "GREY-3", "A line that fits nowhere is tiled without the wall: the tile "
      "meant for the wall goes to the lid, the line's other tiles to the floor.",
      ("board.Board.line_to_floor", _unfit_leftovers_to_floor), source="shape"),
    M("grey-unfit-line-replaces-floor", "GREY-3", "A line that fits nowhere is put on the floor line in place of "
      "what was there (the floor assigned, not added to): the tiles already on the floor are lost.",
      ("board.Board.line_to_floor", _unfit_line_replaces_floor), source="shape"),
    M("grey-unfit-line-after-floor-scored", "GREY-3", "Lines that fit nowhere go to the floor after the board's "
      "floor is scored and cleared: they stay there and are penalised next round.",
      ("game.Game._continue_grey_tiling", _tiling(unfit_after_floor=True)),
      ("game.Game._pending_line", _first_line_that_fits), source="shape"),
    # GREY-4: taking is limited only by the wall row
    M("grey-unplaceable-unlisted", "GREY-4", "The list of takes leaves out a line whose row has no free column for "
      "the colour; a take to it is accepted when played.",
      ("board.Board.colours_accepted", _accepts(_fits_a_column)), ("board.Board.reopen", _reopen_every_line),
      source="shape"),
    M("grey-unplaceable-refused-when-played", "GREY-4", "A take to a line whose row has no free column for the "
      "colour is listed, but refused when played.",
      ("game.Game._take", _refused_when_unplaceable), source="shape"),
    M("grey-drafting-row-checked-at-tiling", "GREY-4", "On the grey wall nothing limits a take: the row is checked "
      "at tiling with the column, so a line that took a colour its row holds fits nowhere and goes to the floor.",
      ("game.Game._legal_takes", _listed_row_unchecked_on_grey), ("game.Game._take", _take_noted),
      ("game.Game._check_line", _row_unchecked_on_grey),
      ("board.Board.free_columns", _free_columns_where(_row_checked_at_tiling)), source="shape"),
    # GREY-5: the order of the placements
    M("grey-every-complete-line-listed", "GREY-5", "The placements listed are those of every complete line of the "
      "board; one of a lower line is refused when played while an upper one waits.",
      ("game.Game.legal_moves", _every_complete_line_listed), source="shape"),
    M("grey-complete-lines-any-order", "GREY-5", "The owner places the complete lines in any order; the lines "
      "left with no free column go to the floor once nothing else can be placed.",
      ("game.Game.legal_moves", _every_complete_line_listed), ("game.Game._place", _any_line_first),
      ("game.Game._continue_grey_tiling", _any_order_tiling), source="shape"),
    M("grey-forced-placement-automatic", "GREY-5", "A line with a single legal space is placed there by the engine; "
      "the owner is asked only when there are two or more.",
      ("game.Game._continue_grey_tiling", _tiling(auto=_single)), source="shape"),
    M("grey-floor-scored-before-placements", "GREY-5", "A board's floor is scored and cleared as its tiling "
      "begins, before its placements; a line that fits nowhere then stays on the floor until the next round.",
      ("game.Game._end_offer", _fresh_tiling), ("game.Game._continue_grey_tiling", _tiling(floor_first=True)),
      source="shape"),
)

CELLS = {
    "GREY-1": {"comparison": ("grey-space-looked-up-transposed",), "off-by-one": ("grey-column-read-from-0",),
               "seat": ("grey-placement-asked-of-last-taker", "grey-placement-asked-of-next-seat"),
               "list": ("grey-occupied-space-listed",), "both": ("grey-occupied-space-allowed",)},
    "GREY-2": {"comparison": ("grey-column-checked-below", "grey-column-rule-on-line-number"),
               "off-by-one": ("grey-column-checked-to-row-4",), "order": ("grey-columns-recorded-after-board",)},
    "GREY-3": {"comparison": ("grey-unfit-line-waits",), "off-by-one": ("grey-unfit-leftovers-to-floor",),
               "overwritten": ("grey-unfit-line-replaces-floor",), "order": ("grey-unfit-line-after-floor-scored",)},
    "GREY-4": {"list": ("grey-unplaceable-unlisted",), "check": ("grey-unplaceable-refused-when-played",),
               "both": ("grey-drafting-row-checked-at-tiling",)},
    "GREY-5": {"list": ("grey-every-complete-line-listed",), "both": ("grey-complete-lines-any-order",),
               "comparison": ("grey-forced-placement-automatic",),
               "order": ("grey-floor-scored-before-placements",)},
}
