"""END-1 .. END-8 and GREY-1 .. GREY-5, second round: wrong readings written from the rules' text alone.

Taken from two angles the first round (end.py, grey.py) did not: how an engine holds what these rules touch (the
bonus and tie-break counts, the grey placement as an option number, the column colours held once for the table)
and where in the cycle it does a step (the last clean-up left to the next round's preparation, the end check on
the grey wall's own path or after each grey board).
"""

from __future__ import annotations

from ..readings import (
    EMPTY, OVER, PLACEMENTS, TILING, WALL_SIZE, IllegalMove, M, _first_line_that_fits, _top, _winners,
)
from azul_reference.tiles import MARKER

from .grey import _listed_row_unchecked_on_grey

# -- END-1: the clean-up of the last tiling, done with the next round's preparation ------------------------------

_FLOORS: dict[int, list[int]] = {}  # id(board) -> the floor its last clear_floor emptied (this tiling)
_RESTS: dict[int, list[tuple[int, int]]] = {}  # id(board) -> (line, colour) of each line tiled this tiling


def _floor_noted(original):
    """Board.clear_floor noting what the floor held, so that the end of the game can show it still there."""
    def clear_floor(board, lid):
        _FLOORS[id(board)] = board.floor[:]
        original(board, lid)
    return clear_floor


def _rest_noted(original):
    """Board.tile_line noting the line it tiles, so that the end of the game can show its rest still there."""
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        _RESTS.setdefault(id(board), []).append((line, colour))
    return tile_line


def _clean_up_with_next_round(floors: bool, rests: bool):
    """Game._end_round of an engine whose clean-up (floor tiles, rests of tiled lines to the lid) is a step of
    preparing the next round: the penalties and points are taken at the tiling, but a game that ends there is
    never cleaned up, so its floors and/or tiled lines still hold their tiles, and the lid lacks them."""
    def make(original):
        def end_round(game):
            original(game)
            try:
                if game.phase != OVER:
                    return
                for board in game.boards:
                    if floors:
                        board.floor = _FLOORS.get(id(board), [])
                        for tile in board.floor:
                            if tile != MARKER:
                                game.lid[tile] -= 1
                    if rests:
                        for line, colour in _RESTS.get(id(board), []):
                            if line:
                                board.line_colour[line], board.line_count[line] = colour, line
                                game.lid[colour] -= line
                                board.reopen(line)
            finally:
                for board in game.boards:
                    _FLOORS.pop(id(board), None)
                    _RESTS.pop(id(board), None)
        return end_round
    return make


# -- END-1 on the grey wall ---------------------------------------------------------------------------------------

def _grey_path_unchecked(original):
    """Game._end_round of an engine whose grey tiling goes straight on to the next round: the END-1 test is only on
    the coloured wall's path (END-8's test is on both)."""
    def end_round(game):
        if not game.grey:
            return original(game)
        rows = [board.row_colours for board in game.boards]
        for board in game.boards:
            board.row_colours = [0] * WALL_SIZE
        try:
            original(game)
        finally:
            for board, kept in zip(game.boards, rows):
                board.row_colours = kept
    return end_round


def _grey_ends_with_first_row(original):
    """Game._continue_grey_tiling checking for a complete row as each board's tiling is done: the first board that
    has one ends the game there, the boards after it untiled and their floors uncharged."""
    def continue_grey_tiling(game):
        done = (game.turn - game.start_player) % game.players
        for k in range(done, game.players):
            seat = (game.start_player + k) % game.players
            board = game.boards[seat]
            for line in range(5):
                if board.line_complete(line):
                    if board.free_columns(line):
                        game.phase, game.turn = TILING, seat
                        return
                    board.line_to_floor(line, game.lid)
            board.clear_floor(game.lid)
            if board.complete_rows():
                game._end_game()
                return
        game._end_round()
    return continue_grey_tiling


def _grey_bonuses_left_out(original):
    """Game._end_game reached from the grey wall's own path, which adds no bonuses: the winners are found on the
    scores as the last tiling left them."""
    def end_game(game):
        if game.grey:
            for board in game.boards:
                board.score -= board.end_bonus()  # taken out for the reference to add back
        original(game)
    return end_game


# -- END-2 .. END-4: the bonus counts ------------------------------------------------------------------------------

def _bonus_with(rows=None, columns=None, colours=None):
    """Board.end_bonus with one of its counts (a function of the board) read another way; the others as ever."""
    def end_bonus(board):
        return (2 * (rows or type(board).complete_rows)(board)
                + 7 * (columns or type(board).complete_columns)(board)
                + 10 * (colours or type(board).complete_colours)(board))
    return end_bonus


def _rows_with_a_tile(board) -> int:
    """Rows counted with any() where all() was meant: a row with one tile counts as complete."""
    return sum(any(cell != EMPTY for cell in row) for row in board.wall)


def _columns_with_a_tile(board) -> int:
    """Columns counted with any() where all() was meant: a column with one tile counts as complete."""
    return sum(any(board.wall[row][column] != EMPTY for row in range(WALL_SIZE)) for column in range(WALL_SIZE))


def _columns_among(columns: range):
    """Complete columns counted over `columns` only (a loop bound one off)."""
    return lambda board: sum(all(board.wall[r][column] != EMPTY for r in range(WALL_SIZE)) for column in columns)


def _columns_of_four(board) -> int:
    """Columns counted complete with four tiles (`>= 4` for `== 5`)."""
    return sum(sum(board.wall[r][column] != EMPTY for r in range(WALL_SIZE)) >= WALL_SIZE - 1
               for column in range(WALL_SIZE))


def _colours_absent(board) -> int:
    """Colours counted with the test inverted (`not mask >> colour & 1`): the colours on no row at all."""
    return sum(all(not mask >> colour & 1 for mask in board.row_colours) for colour in range(5))


def _bonus_for_seat_to_act_only(original):
    """Game._end_game whose bonus step reads `self.boards[self.turn]` (the current player) instead of looping over
    the boards: only the seat on move as the game ends gets its bonuses."""
    def end_game(game):
        for seat, board in enumerate(game.boards):
            if seat != game.turn:
                board.score -= board.end_bonus()  # taken out for the reference to add back
        original(game)
    return end_game


def _bonus_of_seat_to_act_for_all(original):
    """Game._end_game looping over the scores but reading the bonus of `self.boards[self.turn]`: every player
    gets the bonuses of the seat on move."""
    def end_game(game):
        due = game.boards[game.turn].end_bonus()
        for board in game.boards:
            board.score += due - board.end_bonus()
        original(game)
    return end_game


# -- END-5 .. END-7: the winners --------------------------------------------------------------------------------

def _row_completers_win(ranks_of):
    """Game._end_game of an engine for which completing a row wins the game: the winners are among the players
    with a complete row (the highest score among them, then the most rows); the others cannot win."""
    def make(original):
        def end_game(game):
            original(game)
            finishers = [seat for seat, board in enumerate(game.boards) if board.complete_rows()]
            if finishers:
                ranks = {seat: ranks_of(game.boards[seat]) for seat in finishers}
                best = max(ranks.values())
                game.winners = [seat for seat in finishers if ranks[seat] == best]
        return end_game
    return make


def _last_seat_left_out(original):
    """Game._end_game whose winner loop runs over range(players - 1): the last seat is never compared, so never
    wins (the best of the other seats, ties shared, then the most rows)."""
    def end_game(game):
        original(game)
        ranks = [(board.score, board.complete_rows()) for board in game.boards[:-1]]
        game.winners = _top(ranks)
    return end_game


def _rows_with_a_tile_tie_break(board) -> int:
    """The tie-break counts the rows that hold a tile (any() where all() was meant)."""
    return _rows_with_a_tile(board)


def _wall_tiles(board) -> int:
    """The tie-break counts the wall's tiles ('the most tiles in rows'), not its complete rows."""
    return sum(cell != EMPTY for row in board.wall for cell in row)


def _columns_for_rows(board) -> int:
    """The tie-break's rows counted with the wall's indices swapped (wall[c][r]): the complete columns."""
    return sum(all(board.wall[r][c] != EMPTY for r in range(WALL_SIZE)) for c in range(WALL_SIZE))


# -- GREY: helpers ----------------------------------------------------------------------------------------------

def _free_columns_by(test):
    """Board.free_columns read another way: test(board, line, column, colour) says whether the column is open."""
    def make(original):
        def free_columns(board, line):
            colour = board.line_colour[line]
            return [column for column in range(WALL_SIZE) if test(board, line, column, colour)]
        return free_columns
    return make


def _placed_only_as_listed(original):
    """Game._place of an engine whose check is its list: a listed placement is played (the pending line's tile to
    the space named), any other is refused."""
    def place(game, move):
        if str(move) in {str(m) for m in game.legal_moves()}:
            game.boards[game.turn].tile_line(move.line - 1, move.column - 1, game.lid)
            game._continue_grey_tiling()
            return
        original(game.copy(), move)  # raises when the rules themselves refuse it
        raise IllegalMove(f"{move}: not among the legal placements", rule="GREY-2")
    return place


def _column_read_as_row(board, line, column, colour):
    """The column is searched as wall[column][r] (indices swapped): the row numbered like the column is looked at."""
    return board.wall[line][column] == EMPTY and all(board.wall[column][r] != colour for r in range(WALL_SIZE))


def _unfit_when_one_space_closed(board, line, column, colour):
    """Whether a space is open, by an engine that sends the line to the floor when any empty space of its row is
    closed by the column rule (any() where all() was meant): every empty space is open, or none."""
    row = board.wall[line]
    empty = [c for c in range(WALL_SIZE) if row[c] == EMPTY]
    return column in empty and not any(board.column_colours[c] >> colour & 1 for c in empty)


# -- GREY-1: the column as an index among the free ones ------------------------------------------------------------

def _choices_numbered(original):
    """Game.legal_moves offering a pending placement as its owner's options numbered 1..n (the free columns, left
    to right): `2@1` is the first free column, whatever its place in the row."""
    def legal_moves(game):
        if game.phase != TILING:
            return original(game)
        line = game._pending_line()
        return [PLACEMENTS[line + 1][k + 1] for k in range(len(game.boards[game.turn].free_columns(line)))]
    return legal_moves


def _choice_numbered_played(original):
    """Game._place reading the column of a placement as the number of an option: the n-th free column."""
    def place(game, move):
        board = game.boards[game.turn]
        line = game._pending_line()
        free = board.free_columns(line)
        if move.line - 1 == line and 1 <= move.column <= len(free):
            return original(game, PLACEMENTS[move.line][free[move.column - 1] + 1])
        if move.line - 1 == line:
            raise IllegalMove(f"{move}: there are only {len(free)} choices", rule="GREY-1")
        return original(game, move)
    return place


# -- GREY-2: one set of column colours for the whole table ----------------------------------------------------------

_TABLE: list[list] = []  # the boards of the game whose request is running (innermost last)


def _columns_from_the_wall(board) -> int:
    """Complete columns counted from the wall's spaces (the bonus does not read the column colour sets)."""
    return sum(all(board.wall[r][column] != EMPTY for r in range(WALL_SIZE)) for column in range(WALL_SIZE))


def _column_set_not_updated(original):
    """Board.tile_line that records a placed tile in its row's colour set but not in its column's: the column sets
    hold only what the position was set up (or loaded) with."""
    def tile_line(board, line, column, lid):
        kept = board.column_colours[column]
        original(board, line, column, lid)
        board.column_colours[column] = kept
    return tile_line


def _column_set_at_line_index(original):
    """Board.tile_line recording the placed colour in column_colours[line] (the row's index) instead of
    column_colours[column]."""
    def tile_line(board, line, column, lid):
        kept = board.column_colours[column]
        colour = board.line_colour[line]
        original(board, line, column, lid)
        board.column_colours[column] = kept
        board.column_colours[line] |= 1 << colour
    return tile_line


# -- GREY-3 ---------------------------------------------------------------------------------------------------------

_SENT: set[tuple[int, int]] = set()  # (id(board), line) of the unfit lines already sent to the floor this tiling


def _unfit_line_copied(original):
    """Board.line_to_floor that puts the line's tiles on the floor but never empties the line: it stays full."""
    def line_to_floor(board, line, lid):
        if (id(board), line) in _SENT:
            return
        _SENT.add((id(board), line))
        board.to_floor(board.line_colour[line], board.line_count[line], lid)
    return line_to_floor


def _sent_forgotten(original):
    """Game._end_round forgetting which lines went to the floor in the tiling just done."""
    def end_round(game):
        for board in game.boards:
            for line in range(5):
                _SENT.discard((id(board), line))
        original(game)
    return end_round


# -- GREY-4 ---------------------------------------------------------------------------------------------------------

READINGS = (
    # END-1
    M("end-final-floors-kept", "END-1", "The floors are emptied into the lid when the next round is prepared: the "
      "tiling that ends the game takes the penalties, but its floors keep their tiles (the lid lacks them).",
      ("board.Board.clear_floor", _floor_noted),
      ("game.Game._end_round", _clean_up_with_next_round(floors=True, rests=False)), source="shape"),
    M("end-final-line-rests-kept", "END-1", "The rests of the tiled pattern lines go to the lid when the next "
      "round is prepared: after the tiling that ends the game, each tiled line still holds its other tiles.",
      ("board.Board.tile_line", _rest_noted),
      ("game.Game._end_round", _clean_up_with_next_round(floors=False, rests=True)), source="shape"),
    M("end-final-clean-up-skipped", "END-1", "The whole clean-up (rests of tiled lines and floor tiles to the lid) "
      "is a step of preparing the next round: a game that ends keeps them on its boards.",
      ("board.Board.clear_floor", _floor_noted), ("board.Board.tile_line", _rest_noted),
      ("game.Game._end_round", _clean_up_with_next_round(floors=True, rests=True)), source="shape"),
    M("end-not-checked-after-grey-tiling", "END-1", "The grey wall's tiling has a path of its own that goes "
      "straight on to the next round: a complete row ends the game only on the coloured wall.",
      ("game.Game._end_round", _grey_path_unchecked), source="shape"),
    M("end-grey-ends-with-first-completing-board", "END-1", "On the grey wall the end is checked as each board's "
      "tiling is done: the first board with a complete row ends the game, the boards after it are not tiled.",
      ("game.Game._continue_grey_tiling", _grey_ends_with_first_row), source="shape"),
    # END-2
    M("end-grey-game-unscored", "END-2", "The grey wall's tiling has its own path to the end of the game, without "
      "the bonus step: a grey-wall game ends with no row, column or colour bonus.",
      ("game.Game._end_game", _grey_bonuses_left_out), source="shape"),
    M("end-row-bonus-any-tile", "END-2", "The row bonus counts the rows with any() where all() was meant: every "
      "wall row holding a tile earns 2.",
      ("board.Board.end_bonus", lambda original: _bonus_with(rows=_rows_with_a_tile)), source="shape"),
    M("end-bonuses-for-seat-to-act-only", "END-2", "The bonuses are added to the current player's board "
      "(boards[turn]) instead of each board: only the seat on move as the game ends gets its bonuses.",
      ("game.Game._end_game", _bonus_for_seat_to_act_only), source="shape"),
    # END-3
    M("end-column-bonus-any-tile", "END-3", "The column bonus counts the columns with any() where all() was meant: "
      "every wall column holding a tile earns 7.",
      ("board.Board.end_bonus", lambda original: _bonus_with(columns=_columns_with_a_tile)), source="shape"),
    M("end-column-bonus-skips-first-column", "END-3", "The complete columns are counted from the second (the loop "
      "starts at 1): a complete first column earns nothing.",
      ("board.Board.end_bonus", lambda original: _bonus_with(columns=_columns_among(range(1, WALL_SIZE)))),
      source="shape"),
    M("end-column-bonus-at-four", "END-3", "A column earns the column bonus with four tiles (the count compared "
      "with 4, not 5).", ("board.Board.end_bonus", lambda original: _bonus_with(columns=_columns_of_four)),
      source="shape"),
    M("end-bonuses-of-seat-to-act-for-all", "END-3", "The bonus loop runs over the players but counts "
      "boards[turn]: every player gets the bonuses of the seat on move as the game ends.",
      ("game.Game._end_game", _bonus_of_seat_to_act_for_all), source="shape"),
    # END-4
    M("end-colour-bonus-for-absent-colours", "END-4", "The colour test is inverted (`not` on the row's bit): a "
      "colour earns 10 when no row of the wall holds it, and a complete colour earns nothing.",
      ("board.Board.end_bonus", lambda original: _bonus_with(colours=_colours_absent)), source="shape"),
    # END-5
    M("end-row-completer-wins", "END-5", "Completing a row wins: the winner is found among the players with a "
      "complete wall row (the highest score among them, then the most rows); a player without one cannot win.",
      ("game.Game._end_game", _row_completers_win(lambda board: (board.score, board.complete_rows()))),
      source="shape"),
    M("end-last-seat-never-compared", "END-5", "The winner loop runs over range(players - 1): the last seat is "
      "never compared and cannot win.", ("game.Game._end_game", _last_seat_left_out), source="shape"),
    # END-6
    M("end-tie-break-rows-with-a-tile", "END-6", "The tie-break counts the rows with any() where all() was meant: "
      "the tied player with the most rows holding a tile wins.",
      ("game.Game._end_game", _winners(_top, _rows_with_a_tile_tie_break)), source="shape"),
    M("end-tie-break-most-wall-tiles", "END-6", "A tie on points goes to the player with the most tiles on the "
      "wall, not the most complete rows.", ("game.Game._end_game", _winners(_top, _wall_tiles)), source="shape"),
    M("end-tie-break-counts-columns-only", "END-6", "The tie-break counts the complete rows with the wall's "
      "indices swapped (wall[c][r]): a tie on points goes to the most complete columns.",
      ("game.Game._end_game", _winners(_top, _columns_for_rows)), source="shape"),
    # GREY-1
    M("grey-placement-numbered-among-free-columns", "GREY-1", "A pending placement is offered as its owner's "
      "options numbered 1 to n, the free columns left to right: `2@1` puts the tile in the first free column, "
      "wherever it is, and a number past the options is refused.",
      ("game.Game.legal_moves", _choices_numbered), ("game.Game._place", _choice_numbered_played), source="shape"),
    # GREY-2
    M("grey-column-searched-as-row", "GREY-2", "The column is searched with the indices swapped (wall[column][r]): "
      "a space is open when the row numbered like its column lacks the colour; the check of a played placement "
      "is the same list.",
      ("board.Board.free_columns", _free_columns_by(_column_read_as_row)),
      ("game.Game._place", _placed_only_as_listed), source="shape"),
    M("grey-column-sets-never-updated", "GREY-2", "A placed tile is added to its row's colour set but not to its "
      "column's: the column rule sees only the tiles the position started (or was loaded) with, never a "
      "placement made since; the column bonus is counted from the wall.",
      ("board.Board.tile_line", _column_set_not_updated),
      ("board.Board.complete_columns", lambda original: _columns_from_the_wall), source="shape"),
    M("grey-column-colour-recorded-at-row-index", "GREY-2", "A placed tile's colour is recorded in the column set "
      "numbered like its row (column_colours[line] for column_colours[column]); the column bonus is counted from "
      "the wall.", ("board.Board.tile_line", _column_set_at_line_index),
      ("board.Board.complete_columns", lambda original: _columns_from_the_wall), source="shape"),
    # GREY-3
    M("grey-unfit-line-left-full", "GREY-3", "A line whose tile fits nowhere puts its tiles on the floor but is "
      "never emptied: it stays full, and goes to the floor again at the next tiling.",
      ("board.Board.line_to_floor", _unfit_line_copied), ("game.Game._end_round", _sent_forgotten),
      ("game.Game._pending_line", _first_line_that_fits), source="shape"),
    M("grey-unfit-when-one-space-closed", "GREY-3", "A line goes to the floor when any empty space of its row is "
      "closed by the column rule (any() where all() was meant); when none is, its owner chooses among them all.",
      ("board.Board.free_columns", _free_columns_by(_unfit_when_one_space_closed)), source="shape"),
    # GREY-4
    M("grey-row-colour-listed-on-grey", "GREY-4", "On the grey wall the list of takes offers an empty line every "
      "colour (the wall being settled at tiling); a take of a colour the row holds is refused when played.",
      ("game.Game._legal_takes", _listed_row_unchecked_on_grey), source="shape"),
)

CELLS = {
    "END-1": {"order": ("end-final-floors-kept", "end-final-line-rests-kept", "end-final-clean-up-skipped",
                        "end-grey-ends-with-first-completing-board"),
              "once": ("end-not-checked-after-grey-tiling",)},
    "END-2": {"comparison": ("end-row-bonus-any-tile",), "seat": ("end-bonuses-for-seat-to-act-only",),
              "once": ("end-grey-game-unscored",)},
    "END-3": {"comparison": ("end-column-bonus-any-tile",),
              "off-by-one": ("end-column-bonus-skips-first-column", "end-column-bonus-at-four"),
              "seat": ("end-bonuses-of-seat-to-act-for-all",)},
    "END-4": {"comparison": ("end-colour-bonus-for-absent-colours",)},
    "END-5": {"comparison": ("end-row-completer-wins",), "off-by-one": ("end-last-seat-never-compared",)},
    "END-6": {"comparison": ("end-tie-break-rows-with-a-tile", "end-tie-break-most-wall-tiles"),
              "off-by-one": ("end-tie-break-counts-columns-only",)},
    "GREY-1": {"off-by-one": ("grey-placement-numbered-among-free-columns",)},
    "GREY-2": {"comparison": ("grey-column-searched-as-row",),
               "reset": ("grey-column-sets-never-updated",),
               "off-by-one": ("grey-column-colour-recorded-at-row-index",)},
    "GREY-3": {"reset": ("grey-unfit-line-left-full",), "comparison": ("grey-unfit-when-one-space-closed",)},
    "GREY-4": {"list": ("grey-row-colour-listed-on-grey",)},
}
