"""Readings of the end of the game (END-1 .. END-8) written from the rules' text alone (see CLEAN-ROOM.md).

Each is a slip an engine author plausibly makes when coding the end check, the end bonuses or the winners; the
patches go where the reference engine really decides (Game._end_round, Game._end_game, Board.end_bonus and the
counts it reads).
"""

from __future__ import annotations

from ..readings import ALL_COLOURS, DEAL, EMPTY, IN_CENTRE, WALL_SIZE, M, _rows_hidden, _top, _winners, value


# -- END-1: what ends the game, and when -------------------------------------------------------------------------

def _ends_when(ends):
    """Game._end_round whose END-1 test is `ends(game)` instead of 'any board has a complete row'; the rest of the
    round's end (END-8, the next round) is the reference's."""
    def make(original):
        def end_round(game):
            if ends(game):
                game._end_game()
                return
            with _rows_hidden(game):
                original(game)
        return end_round
    return make


def _full_rows_of_six(board) -> int:
    """A row counted complete only past five tiles (`> 5` for `>= 5`): never."""
    return sum(sum(cell != EMPTY for cell in row) > WALL_SIZE for row in board.wall)


def _no_return_after_end(original):
    """The end check has no `return`: the game is scored, then the next round is prepared all the same."""
    def end_round(game):
        if any(board.complete_rows() for board in game.boards):
            game._end_game()
        with _rows_hidden(game):
            original(game)
    return end_round


def _next_round_prepared_first(original):
    """The next round's housekeeping (round number, start player, marker back) runs before the end check."""
    def end_round(game):
        if not any(board.complete_rows() for board in game.boards):
            return original(game)
        game.round += 1
        if game.marker != IN_CENTRE:
            game.start_player = game.marker
        game.marker = IN_CENTRE
        game.turn = game.start_player
        game._end_game()
    return end_round


def _round_ends_as_ever(original):
    """Game._end_round that never ends the game on a complete row: the next round is prepared."""
    def end_round(game):
        with _rows_hidden(game):
            original(game)
    return end_round


def _end_checked_at_the_deal(original):
    """The deal first checks for a complete wall row: if there is one, the game ends there instead."""
    def deal(game, *args, **kwargs):
        if game.phase == DEAL and any(board.complete_rows() for board in game.boards):
            game._end_game()
            return
        original(game, *args, **kwargs)
    return deal


# -- END-2 .. END-4: the bonuses ----------------------------------------------------------------------------------

def _full(cells) -> bool:
    """Whether every cell of a row or column is filled."""
    return all(cell != EMPTY for cell in cells)


def _bonus(rows=None, columns=None, colours=None):
    """Board.end_bonus with one of its three counts replaced (a function of the board); the others as ever."""
    def end_bonus(board):
        return (2 * (rows or type(board).complete_rows)(board)
                + 7 * (columns or type(board).complete_columns)(board)
                + 10 * (colours or type(board).complete_colours)(board))
    return end_bonus


def _rows_counted(rows: slice):
    """Complete rows counted among `rows` of the wall only (a loop bound one off)."""
    return lambda board: sum(_full(row) for row in board.wall[rows])


def _columns_read_as_rows(board) -> int:
    """Complete columns counted with the indices swapped (wall[column][row]): the complete rows."""
    return sum(_full([board.wall[column][row] for row in range(WALL_SIZE)]) for column in range(WALL_SIZE))


def _rows_read_as_columns(board) -> int:
    """Complete rows counted with the indices swapped (wall[column][row]): the complete columns."""
    return sum(_full([board.wall[column][row] for column in range(WALL_SIZE)]) for row in range(WALL_SIZE))


def _colours_counted(colours: range, rows: slice = slice(None)):
    """Colours on every one of the wall's `rows`, among `colours` only (a loop bound one off)."""
    def count(board) -> int:
        return sum(all(mask >> colour & 1 for mask in board.row_colours[rows]) for colour in colours)
    return count


def _colours_on_any_row(board) -> int:
    """The colour sets of the rows joined with | where & was meant: a colour counts with one tile anywhere."""
    on_some_row = 0
    for colours in board.row_colours:
        on_some_row |= colours
    return (on_some_row & ALL_COLOURS).bit_count()


def _bonus_assigned(original):
    """`score = bonus` for `score += bonus`: each score is replaced by its bonus."""
    def end_game(game):
        for board in game.boards:
            board.score = 0  # Game._end_game then adds the bonus to nothing
        original(game)
    return end_game


def _bonus_on_completion(original):
    """Board.tile_line adds the bonuses its tile completes (a row, a column, a colour) at once, as it is placed."""
    def tile_line(board, line, column, lid):
        before = board.end_bonus()
        original(board, line, column, lid)
        board.score += board.end_bonus() - before
    return tile_line


def _no_bonus_at_the_end(original):
    """Game._end_game without its bonuses (they were scored as completed)."""
    def end_game(game):
        for board in game.boards:
            board.score -= board.end_bonus()  # taken out for the reference to add back
        original(game)
    return end_game


def _bonuses_twice(original):
    """The bonuses added as the last round ends, and again by the end of the game."""
    def end_game(game):
        for board in game.boards:
            board.score += board.end_bonus()
        original(game)
    return end_game


# -- END-5 .. END-7: the winners ----------------------------------------------------------------------------------

def _winners_from_1(original):
    """The winners reported as player numbers 1..N, not seats 0..N-1."""
    def end_game(game):
        original(game)
        game.winners = [seat + 1 for seat in game.winners]
    return end_game


def _first_top_score(ranks):
    """max(range(n), key=score): the first seat with the highest score, alone; rows never looked at."""
    scores = [score for score, _ in ranks]
    return [scores.index(max(scores))]


def _last_top_score(ranks):
    """A scan with `>=`: each seat with a score at least the best so far takes the win; the last one keeps it."""
    best, winner = None, None
    for seat, (score, _) in enumerate(ranks):
        if best is None or score >= best:
            best, winner = score, seat
    return [winner]


def _first_of_remaining_tie(ranks):
    """max() over (score, rows) keeping the first seat found: a remaining tie goes to the lowest seat."""
    return _top(ranks)[:1]


def _first_in_turn_order(original):
    """A remaining tie goes to the tied player who comes first in turn order from the round's start player."""
    def end_game(game):
        original(game)
        if len(game.winners) > 1:
            game.winners = [min(game.winners, key=lambda seat: (seat - game.start_player) % game.players)]
    return end_game


# -- END-8: no tile to deal ---------------------------------------------------------------------------------------

def _empty_supply_ends(ends):
    """Game._end_round whose END-8 test is `ends(game)` instead of 'bag and lid both empty'."""
    def make(original):
        def end_round(game):
            if not any(board.complete_rows() for board in game.boards) and ends(game):
                game._end_game()
                return
            bag, lid = game.bag, game.lid
            game.bag = bag if any(bag) or any(lid) else [1, 0, 0, 0, 0]  # the reference's END-8 test answers no
            try:
                original(game)
            finally:
                game.bag = bag
        return end_round
    return make


READINGS = (
    # END-1
    M("end-every-board-needs-a-row", "END-1", "The end test asks whether all the players have a complete row "
      "(all() where any() was meant): one complete row does not end the game.",
      ("game.Game._end_round", _ends_when(lambda game: all(b.complete_rows() for b in game.boards))), source="shape"),
    M("end-row-needs-six-tiles", "END-1", "A row is taken for complete with more than five tiles (`> 5` for "
      "`>= 5`): no row ever ends the game.",
      ("game.Game._end_round", _ends_when(lambda game: any(_full_rows_of_six(b) for b in game.boards))),
      source="shape"),
    M("end-only-seat-to-act-checked", "END-1", "Only the board of the seat whose turn it is as the round ends (the "
      "last to take) is checked for a complete row.",
      ("game.Game._end_round", _ends_when(lambda game: game.boards[game.turn].complete_rows())), source="shape"),
    M("end-only-seat-0-checked", "END-1", "Only seat 0's board is checked for a complete row.",
      ("game.Game._end_round", _ends_when(lambda game: game.boards[0].complete_rows())), source="shape"),
    M("end-only-start-player-checked", "END-1", "Only the round's start player's board is checked for a complete "
      "row.", ("game.Game._end_round", _ends_when(lambda game: game.boards[game.start_player].complete_rows())),
      source="shape"),
    M("end-next-round-after-game-over", "END-1", "The end check scores the game but does not return: the next "
      "round is prepared after it (round number, start player, phase 'deal') over the finished game.",
      ("game.Game._end_round", _no_return_after_end), source="shape"),
    M("end-next-round-prepared-first", "END-1", "The round's end moves the round number on, hands the start to the "
      "marker's holder and puts the marker back before checking for the end: a finished game shows all three.",
      ("game.Game._end_round", _next_round_prepared_first), source="shape"),
    M("end-checked-at-the-next-deal", "END-1", "The end is checked when the next round starts, at the deal: the round "
      "that completes a row ends as any other (round number, start player, phase 'deal'), and the game ends, "
      "scored, when the deal is asked for.", ("game.Game._end_round", _round_ends_as_ever),
      ("game.Game.deal", _end_checked_at_the_deal), source="shape"),
    # END-2
    M("end-row-bonus-skips-top-row", "END-2", "The complete rows are counted for the bonus from the second row "
      "(the loop starts at 1): a complete top row earns nothing.",
      ("board.Board.end_bonus", value(_bonus(rows=_rows_counted(slice(1, None))))), source="shape"),
    M("end-bonus-assigned-not-added", "END-2", "The end bonus is written to the score instead of added to it: each "
      "player ends with their bonus alone.", ("game.Game._end_game", _bonus_assigned), source="shape"),
    M("end-bonuses-added-twice", "END-2", "The bonuses are added with the last round's scoring and again when the "
      "game ends: every bonus counts twice.", ("game.Game._end_game", _bonuses_twice), source="shape"),
    M("end-rows-counted-as-columns", "END-2", "The complete rows are counted for the bonus with the wall's indices "
      "swapped (wall[column][row]): each complete column earns the row bonus, a complete row none.",
      ("board.Board.end_bonus", value(_bonus(rows=_rows_read_as_columns))), source="shape"),
    # END-3
    M("end-only-colour-bonus-kept", "END-3", "The bonuses are each assigned to one variable (`=` for `+=`): the "
      "colour bonus, computed last, replaces the row and column bonuses.",
      ("board.Board.end_bonus", value(lambda board: 10 * board.complete_colours())), source="shape"),
    M("end-bonus-added-at-completion", "END-3", "A row, column or colour bonus is added once, at the tiling whose "
      "tile completes it, not at the end of the game.",
      ("board.Board.tile_line", _bonus_on_completion), ("game.Game._end_game", _no_bonus_at_the_end),
      source="shape"),
    M("end-columns-counted-as-rows", "END-3", "The complete columns are counted with the wall's indices swapped "
      "(wall[column][row]): each complete row earns the column bonus, a complete column none.",
      ("board.Board.end_bonus", value(_bonus(columns=_columns_read_as_rows))), source="shape"),
    # END-4
    M("end-colour-on-any-row", "END-4", "The rows' colour sets are joined with | where & was meant: every colour "
      "with a tile on the wall earns 10.",
      ("board.Board.end_bonus", value(_bonus(colours=_colours_on_any_row))), source="shape"),
    M("end-colour-bonus-skips-white", "END-4", "The colours are counted for the bonus with range(4): the fifth "
      "colour (white) never earns it.",
      ("board.Board.end_bonus", value(_bonus(colours=_colours_counted(range(4))))), source="shape"),
    # END-5
    M("end-winners-numbered-from-1", "END-5", "The winners are given as player numbers counted from 1, not as "
      "seats from 0.", ("game.Game._end_game", _winners_from_1), source="shape"),
    # END-6
    M("end-first-top-score-wins", "END-6", "The winner is max(seats, key=score): the first seat with the highest "
      "score wins alone; complete rows are never compared.",
      ("game.Game._end_game", _winners(_first_top_score)), source="shape"),
    M("end-last-top-score-wins", "END-6", "The winner is found by a scan with `>=`: the last seat with the highest "
      "score wins alone; complete rows are never compared.",
      ("game.Game._end_game", _winners(_last_top_score)), source="shape"),
    M("end-tie-break-skips-top-row", "END-6", "The tie-break counts complete rows from the second row (the loop "
      "starts at 1): a complete top row does not count.",
      ("game.Game._end_game", _winners(_top, _rows_counted(slice(1, None)))), source="shape"),
    # END-7
    M("end-remaining-tie-to-first-seat-found", "END-7", "A tie on points and rows goes to the lowest of the tied "
      "seats alone (max() keeps the first it finds).", ("game.Game._end_game", _winners(_first_of_remaining_tie)),
      source="shape"),
    M("end-tie-to-first-in-turn-order", "END-7", "A tie on points and rows goes to the tied player who comes first "
      "in turn order from the start player.", ("game.Game._end_game", _first_in_turn_order), source="shape"),
    # END-8
    M("end-empty-lid-ends-game", "END-8", "The end for lack of tiles tests bag or lid empty (`or` for `and`): a "
      "round that leaves the lid empty ends the game though the bag holds tiles.",
      ("game.Game._end_round", _empty_supply_ends(lambda game: not any(game.bag) or not any(game.lid))),
      source="shape"),
)

CELLS = {
    "END-1": {"comparison": ("end-every-board-needs-a-row",), "off-by-one": ("end-row-needs-six-tiles",),
              "seat": ("end-only-seat-to-act-checked", "end-only-seat-0-checked", "end-only-start-player-checked"),
              "overwritten": ("end-next-round-after-game-over",),
              "order": ("end-next-round-prepared-first", "end-checked-at-the-next-deal")},
    "END-2": {"comparison": ("end-rows-counted-as-columns",), "off-by-one": ("end-row-bonus-skips-top-row",),
              "overwritten": ("end-bonus-assigned-not-added",), "once": ("end-bonuses-added-twice",)},
    "END-3": {"comparison": ("end-columns-counted-as-rows",), "overwritten": ("end-only-colour-bonus-kept",),
              "once": ("end-bonus-added-at-completion",)},
    "END-4": {"comparison": ("end-colour-on-any-row",), "off-by-one": ("end-colour-bonus-skips-white",),
              "once": ("end-bonus-added-at-completion",)},
    "END-5": {"off-by-one": ("end-winners-numbered-from-1",)},
    "END-6": {"seat": ("end-first-top-score-wins",), "comparison": ("end-last-top-score-wins",),
              "off-by-one": ("end-tie-break-skips-top-row",)},
    "END-7": {"seat": ("end-remaining-tie-to-first-seat-found", "end-tie-to-first-in-turn-order")},
    "END-8": {"comparison": ("end-empty-lid-ends-game",)},
}
