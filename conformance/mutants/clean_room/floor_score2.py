"""Second-round readings of the floor line (FLOOR-1..6), the wall's layout (WALL-1), the wall tiling (TILING-1..3)
and its scoring (SCORE-1..5), written from the rules' text and the reference engine alone (CLEAN-ROOM.md).

Two angles first: the data model (the floor held as tiles beside a marker flag or as counts per colour, the
wall held as colours per row, as one flat list, or as filled spaces with the colours worked out for display,
the penalties worked out by a formula, the scores kept in a list apart from the boards) and the moment in the
cycle (the floor charged as tiles fall on it, the marker put down at the tiling, the clean-up done only once the
game is known to go on, the clamp at the deal). Engine state a slip keeps that the reference has no field
for is held in module dictionaries keyed by the board's id, carried over by copies and dropped by a new board.
"""

from __future__ import annotations

from azul_reference.board import EMPTY
from azul_reference.game import OVER
from azul_reference.tiles import COLOURS, FLOOR_PENALTIES, MARKER, WALL_SIZE, wall_column

from ..readings import M, _no_clamp, kept_by_copies, value

SPACES = len(FLOOR_PENALTIES)
LAST = WALL_SIZE - 1


# -- FLOOR-3: the penalties worked out by a formula -----------------------------------------------------------

def _space_value(first_two: int, up_to_five: int):
    """The value of floor space i (from 0) as `1 if i < first_two else 2 if i < up_to_five else 3`."""
    return tuple(1 if i < first_two else 2 if i < up_to_five else 3 for i in range(SPACES))


# -- FLOOR-4: the marker held as a flag beside a count of floor tiles ---------------------------------------

def _marker_flat_one(board) -> int:
    """The floor's tiles pay the printed values from the first space; the marker, a flag, costs a flat 1."""
    tiles = sum(1 for tile in board.floor if tile != MARKER)
    return sum(FLOOR_PENALTIES[:tiles]) + (1 if MARKER in board.floor else 0)


# -- SCORE-4, SCORE-5: the floor charged as tiles fall on it ------------------------------------------------

def _charged_as_placed(clamp: bool):
    """Board.to_floor / take_marker: each tile (or the marker) pays its space's value the moment it lands;
    `clamp`: the score is put back to 0 at once, else only at the end of the tiling."""
    def make(original):
        def place(board, *args):
            before = len(board.floor)
            original(board, *args)
            board.score -= sum(FLOOR_PENALTIES[before:len(board.floor)])
            if clamp and board.score < 0:
                board.score = 0
        return place
    return make


def _cleared_uncharged(original):
    """Board.clear_floor: the floor was paid as it filled; the clean-up only clamps and clears."""
    def clear_floor(board, lid):
        if board.score < 0:
            board.score = 0
        for tile in board.floor:
            if tile != MARKER:
                lid[tile] += 1
        board.floor = []
    return clear_floor


# -- FLOOR-6: the floor's clean-up: for which board, and when ------------------------------------------------

def _floor_of_turn(seat):
    """Game._end_offer (coloured wall): each board is tiled, but the floor charged and cleared in the loop is
    `self.boards[seat(game)]`: that board pays once, the others keep their floors uncharged."""
    def make(original):
        def end_offer(game):
            if game.grey:
                return original(game)
            for board in game.boards:
                board.tile_coloured_wall(game.lid)
                game.boards[seat(game)].clear_floor(game.lid)
            game._end_round()
        return end_offer
    return make


def _charged_not_cleared(original):
    """Board.clear_floor: the floor pays (never below 0) but stays as it is until the round's clean-up."""
    def clear_floor(board, lid):
        score = board.score - board.floor_penalty()
        board.score = score if score > 0 else 0
    return clear_floor


def _floor_cleanup_after_end_check(original):
    """Game._end_round: the floors are cleared (tiles to the lid) only once the game is known to go on."""
    def end_round(game):
        original(game)
        if game.phase != OVER:
            for board in game.boards:
                for tile in board.floor:
                    if tile != MARKER:
                        game.lid[tile] += 1
                board.floor = []
    return end_round


# -- TILING-2: the tiled lines' clean-up after the end check -------------------------------------------------

def _lines_left_full(original):
    """Board.tile_coloured_wall: the tiles go to the wall and score, but the tiled lines keep their tiles (the
    rest is not yet in the lid) until the round's clean-up."""
    def tile_coloured_wall(board, lid):
        held = [(board.line_colour[line], board.line_count[line]) for line in range(5)]
        original(board, lid)
        for line, (colour, count) in enumerate(held):
            if count == line + 1 and board.line_count[line] == 0:
                board.line_colour[line], board.line_count[line] = colour, count
                lid[colour] -= line
                board.reopen(line)
    return tile_coloured_wall


def _lines_cleanup_after_end_check(original):
    """Game._end_round: a full line whose colour is on its wall row (so tiled) is emptied, its rest to the
    lid, only once the game is known to go on."""
    def end_round(game):
        original(game)
        if game.phase != OVER and not game.grey:
            for board in game.boards:
                for line in range(5):
                    colour = board.line_colour[line]
                    if board.line_count[line] == line + 1 and board.row_colours[line] >> colour & 1:
                        game.lid[colour] += line
                        board.line_colour[line], board.line_count[line] = EMPTY, 0
                        board.reopen(line)
    return end_round


# -- SCORE-2: the wall held as the colours of each row --------------------------------------------------------

def _rows_holding(board, row: int, colour: int) -> int:
    """The run of rows around `row` whose colour set holds `colour` (the 'column' of a colour, read as the
    same colour in the rows above and below)."""
    top = row
    while top > 0 and board.row_colours[top - 1] >> colour & 1:
        top -= 1
    bottom = row
    while bottom < LAST and board.row_colours[bottom + 1] >> colour & 1:
        bottom += 1
    return bottom - top + 1


def _colours_beside(board, row: int, colour: int) -> int:
    """The run of colours around `colour` (by colour number, 0 to 4, no wrap) that the row holds."""
    colours = board.row_colours[row]
    low = colour
    while low > 0 and colours >> (low - 1) & 1:
        low -= 1
    high = colour
    while high < LAST and colours >> (high + 1) & 1:
        high += 1
    return high - low + 1


def _score(across: int, down: int) -> int:
    """The rule's scoring of two run lengths."""
    if across == 1 and down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


def _runs_by_colour(across_by_colour: bool, down_by_colour: bool):
    """Board.placement_points with the horizontal and/or vertical run looked up in the rows' colour sets."""
    def make(original):
        def placement_points(board, row, column):
            colour = board.wall[row][column]
            cells = board.wall[row]
            left = column
            while left > 0 and cells[left - 1] != EMPTY:
                left -= 1
            right = column
            while right < LAST and cells[right + 1] != EMPTY:
                right += 1
            top = row
            while top > 0 and board.wall[top - 1][column] != EMPTY:
                top -= 1
            bottom = row
            while bottom < LAST and board.wall[bottom + 1][column] != EMPTY:
                bottom += 1
            across = _colours_beside(board, row, colour) if across_by_colour else right - left + 1
            down = _rows_holding(board, row, colour) if down_by_colour else bottom - top + 1
            return _score(across, down)
        return placement_points
    return make


# -- WALL-1: the wall held as filled spaces, its colours worked out for display -----------------------------

def _wall_shown_by(colour_at):
    """state._board_to_json: on the coloured wall each filled space is shown as colour_at(row, column)."""
    def make(original):
        def board_to_json(board):
            data = original(board)
            if any(cell != EMPTY and wall_column(r, cell) != c for r, row in enumerate(board.wall)
                   for c, cell in enumerate(row)):
                return data  # a grey wall: its colours are where the players put them
            data["wall"] = ["".join(COLOURS[colour_at(r, c)] if cell != EMPTY else "." for c, cell in enumerate(row))
                            for r, row in enumerate(board.wall)]
            return data
        return board_to_json
    return make


# -- more of the data model and of the cycle ------------------------------------------------------------------

def _charge_each_clear_turn_seat(original):
    """Game._end_offer (coloured wall): each board is tiled and charged for its own floor (never below 0), but
    the floor emptied in the loop is `self.boards[self.turn]`'s (its tiles to the lid)."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            board.tile_coloured_wall(game.lid)
            score = board.score - board.floor_penalty()
            board.score = score if score > 0 else 0
            cleared = game.boards[game.turn]
            for tile in cleared.floor:
                if tile != MARKER:
                    game.lid[tile] += 1
            cleared.floor = []
        game._end_round()
    return end_offer


def _floor_kept_beyond_seven(original):
    """Board.to_floor: `floor.extend(tiles)` with no bound; the penalty's slice of the seven values charges
    nothing beyond the seventh, and the clean-up sends every floor tile to the lid."""
    def to_floor(board, tile, count, lid):
        board.floor.extend([tile] * count)
    return to_floor


def _flat_runs(board, row: int, column: int) -> tuple[int, int]:
    """The wall as one list of 25 spaces: the horizontal scan runs while the index stays in 0..24, so it
    goes on from a row's first space to the row above's last, and from its last to the next row's first."""
    flat = [cell for cells in board.wall for cell in cells]
    here = row * WALL_SIZE + column
    left = here
    while left - 1 >= 0 and flat[left - 1] != EMPTY:
        left -= 1
    right = here
    while right + 1 < len(flat) and flat[right + 1] != EMPTY:
        right += 1
    top = row
    while top > 0 and board.wall[top - 1][column] != EMPTY:
        top -= 1
    bottom = row
    while bottom < LAST and board.wall[bottom + 1][column] != EMPTY:
        bottom += 1
    return right - left + 1, bottom - top + 1


def _flat_points(original):
    """Board.placement_points over the flat wall's runs."""
    return lambda board, row, column: _score(*_flat_runs(board, row, column))


def _points_carried_over_boards(original):
    """Game._end_offer (coloured wall): the round's wall points are summed in a variable set to 0 once, before
    the loop over the boards: each board is given its own points plus every earlier board's."""
    def end_offer(game):
        if game.grey:
            return original(game)
        points = 0
        for board in game.boards:
            before = board.score
            board.tile_coloured_wall(game.lid)
            points += board.score - before
            board.score = before + points
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


def _clamp_at_the_deal(original):
    """Game.deal: every score below 0 is put back to 0 as the next round is dealt."""
    def deal(game, *args, **kwargs):
        if game.phase == "deal":
            for board in game.boards:
                if board.score < 0:
                    board.score = 0
        original(game, *args, **kwargs)
    return deal


_HELD: dict[int, list[int]] = {}  # id(board) -> the tiles beyond the seventh, held beside the floor by colour


def _held_init(original):
    """Board.__init__: a new board holds nothing beside its floor."""
    def init(board):
        original(board)
        _HELD.pop(id(board), None)
    return init


_held_copied = kept_by_copies(_HELD)


def _held_to_floor(original):
    """Board.to_floor: what finds no floor space is held beside the floor line, not yet put in the lid."""
    def to_floor(board, tile, count, lid):
        room = max(0, SPACES - len(board.floor))
        placed = min(count, room)
        board.floor.extend([tile] * placed)
        if count > placed:
            _HELD.setdefault(id(board), [0] * 5)[tile] += count - placed
    return to_floor


def _held_cleared(original):
    """Board.clear_floor: the floor's tiles and those held beside it go to the lid together."""
    def clear_floor(board, lid):
        original(board, lid)
        for colour, count in enumerate(_HELD.pop(id(board), [0] * 5)):
            lid[colour] += count
    return clear_floor


def _grouped(original):
    """Board.to_floor / take_marker: the floor is held as a marker flag and a count per colour, so it reads
    the marker first, then its tiles colour by colour (B Y R K W), whatever the order they came in."""
    def place(board, *args):
        original(board, *args)
        board.floor = [MARKER] * board.floor.count(MARKER) + sorted(t for t in board.floor if t != MARKER)
    return place


def _rest_under_line_number(original):
    """Board.tile_line: the rest of the tiled line is added to the lid under the line's number (lid[line])
    instead of its colour's."""
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        lid[colour] -= line
        lid[line] += line
    return tile_line


def _to_turn_seat(points: bool):
    """Game._end_offer (coloured wall): in the loop over the boards, each board's wall points (`points`) or
    its floor penalty (else) are written to `self.boards[self.turn]` (who took the last tile)."""
    def make(original):
        def end_offer(game):
            if game.grey:
                return original(game)
            target = game.boards[game.turn]
            for board in game.boards:
                before = board.score
                board.tile_coloured_wall(game.lid)
                gained = board.score - before
                if points:
                    board.score = before
                    target.score += gained
                    board.clear_floor(game.lid)
                else:
                    score = target.score - board.floor_penalty()
                    target.score = score if score > 0 else 0
                    for tile in board.floor:
                        if tile != MARKER:
                            game.lid[tile] += 1
                    board.floor = []
            game._end_round()
        return end_offer
    return make


def _clamp_by_abs(original):
    """Board.clear_floor: 'never below 0' written as abs(): a score the floor takes below 0 turns positive."""
    def clear_floor(board, lid):
        board.score = abs(board.score - board.floor_penalty())
        for tile in board.floor:
            if tile != MARKER:
                lid[tile] += 1
        board.floor = []
    return clear_floor


def _removed_while_iterating(original):
    """Board.clear_floor: the penalty is taken, then the floor is emptied by removing each tile inside a loop
    over the same list: Python skips the element after each one removed, so every second entry stays on the
    floor (out of the lid) into the next round."""
    def clear_floor(board, lid):
        score = board.score - board.floor_penalty()
        board.score = score if score > 0 else 0
        floor = board.floor
        for tile in floor:
            floor.remove(tile)
            if tile != MARKER:
                lid[tile] += 1
    return clear_floor


def _credited_to_next_seat(original):
    """Game._end_offer (coloured wall): the scores are kept in a list indexed from 1 (`enumerate(boards, 1)`):
    each board's round (its wall points less its floor, never below 0) goes to the next seat's score."""
    def end_offer(game):
        if game.grey:
            return original(game)
        count = len(game.boards)
        for seat, board in enumerate(game.boards, 1):
            before = board.score
            board.tile_coloured_wall(game.lid)
            gained = board.score - before - board.floor_penalty()
            board.score = before
            for tile in board.floor:
                if tile != MARKER:
                    game.lid[tile] += 1
            board.floor = []
            target = game.boards[seat % count]
            score = target.score + gained
            target.score = score if score > 0 else 0
        game._end_round()
    return end_offer


def _marker_noted(original):
    """Board.take_marker: taking the marker only notes its holder (Game.marker); nothing goes on the floor yet."""
    return lambda board: None


def _marker_put_at_tiling(original):
    """Game._end_offer: the marker goes on its holder's floor as the tiling begins, after all the round's floor
    tiles (unless the floor already shows it, as a loaded position may), in the first free space if any."""
    def end_offer(game):
        if game.marker != -1:
            board = game.boards[game.marker]
            if MARKER not in board.floor and len(board.floor) < SPACES:
                board.floor.append(MARKER)
        original(game)
    return end_offer


def _base_point_plus_runs(across: int, down: int) -> int:
    """Every placed tile scores 1, plus the length of each run of 2 or more through it."""
    return 1 + (across if across > 1 else 0) + (down if down > 1 else 0)


def _base_point_points(original):
    """Board.placement_points: 1 for the tile, plus its runs."""
    def placement_points(board, row, column):
        wall = board.wall
        left = column
        while left > 0 and wall[row][left - 1] != EMPTY:
            left -= 1
        right = column
        while right < LAST and wall[row][right + 1] != EMPTY:
            right += 1
        top = row
        while top > 0 and wall[top - 1][column] != EMPTY:
            top -= 1
        bottom = row
        while bottom < LAST and wall[bottom + 1][column] != EMPTY:
            bottom += 1
        return _base_point_plus_runs(right - left + 1, bottom - top + 1)
    return placement_points


def _charged_twice(original):
    """Board.clear_floor: the scoring step takes the floor's penalty (never below 0), and the clean-up, written
    apart, takes it again before emptying the floor."""
    def clear_floor(board, lid):
        score = board.score - board.floor_penalty()
        board.score = score if score > 0 else 0
        original(board, lid)
    return clear_floor


def _blue_kept_as_marker(original):
    """Board.clear_floor: the marker is coded 0 on the floor, as blue is: the clean-up skips every 0 as the
    marker, so the blue floor tiles never reach the lid (and the marker is skipped as before)."""
    def clear_floor(board, lid):
        score = board.score - board.floor_penalty()
        board.score = score if score > 0 else 0
        for tile in board.floor:
            if tile != MARKER and tile != 0:
                lid[tile] += 1
        board.floor = []
    return clear_floor


READINGS = (
    # FLOOR-3
    M("floor-third-space-costs-one", "FLOOR-3", "A floor space's value is worked out as `1 if i <= 2 else 2 if "
      "i < 5 else 3`: the first three spaces cost 1, so the floor costs 1, 2, 3, 5, 7, 10, 13.",
      ("board.FLOOR_PENALTIES", value(_space_value(3, 5))), source="shape"),
    M("floor-sixth-space-costs-two", "FLOOR-3", "A floor space's value is worked out as `1 if i < 2 else 2 if "
      "i <= 5 else 3`: the sixth space costs 2, so six tiles cost 10 and seven 13.",
      ("board.FLOOR_PENALTIES", value(_space_value(2, 6))), source="shape"),
    # FLOOR-4
    M("floor-marker-costs-one", "FLOOR-4", "I keep the floor's tiles in a list and the marker as a flag: the "
      "marker takes a space, the tiles are charged the printed values from the first space, and the marker adds "
      "a flat 1 point.", ("board.Board.floor_penalty", value(_marker_flat_one)), source="shape"),
    # FLOOR-6
    M("floor-clean-up-for-turn-seat", "FLOOR-6", "In the loop over the boards, the floor charged and cleared is "
      "`self.boards[self.turn]` (who took the last tile): that floor pays once, the other boards keep their "
      "floors, uncharged, into the next round.",
      ("game.Game._end_offer", _floor_of_turn(lambda game: game.turn)), source="shape"),
    M("floor-clean-up-for-seat-0", "FLOOR-6", "In the loop over the boards, the floor charged and cleared is "
      "`self.boards[0]`: seat 0's floor pays once, the other boards keep their floors, uncharged, into the "
      "next round.", ("game.Game._end_offer", _floor_of_turn(lambda game: 0)), source="shape"),
    M("floor-cleared-after-end-check", "FLOOR-6", "The floor is charged with the tiling, but cleared (tiles to "
      "the lid) in the clean-up that prepares the next round, after the end of the game is checked: a finished "
      "game keeps its last floors, and the lid lacks their tiles when the lack of tiles is checked.",
      ("board.Board.clear_floor", _charged_not_cleared), ("game.Game._end_round", _floor_cleanup_after_end_check),
      source="shape"),
    # TILING-2
    M("tiling-lines-cleared-after-end-check", "TILING-2", "The tiled lines are emptied (their rest to the lid) in "
      "the clean-up that prepares the next round, after the end of the game is checked: a finished game keeps "
      "its last tiled lines full, and the lid lacks their rest when the lack of tiles is checked.",
      ("board.Board.tile_coloured_wall", _lines_left_full),
      ("game.Game._end_round", _lines_cleanup_after_end_check), source="shape"),
    # SCORE-2
    M("score-down-run-same-colour", "SCORE-2", "I keep each wall row as its set of colours; the vertical run is "
      "the rows above and below holding the same colour (which lie diagonally), the horizontal run is counted "
      "along the row's spaces.", ("board.Board.placement_points", _runs_by_colour(False, True)),
      source="shape"),
    M("score-across-run-by-colour-number", "SCORE-2", "I keep each wall row as its set of colours; the horizontal "
      "run is the colours next to the tile's by number (blue, yellow, red, black, white, no wrap) that the row "
      "holds, not the spaces next to it.", ("board.Board.placement_points", _runs_by_colour(True, False)),
      source="shape"),
    M("score-runs-by-colour", "SCORE-2", "I keep each wall row as its set of colours and score in colours: the "
      "horizontal run is the colours next to the tile's by number that the row holds, the vertical run the rows "
      "above and below holding the same colour.",
      ("board.Board.placement_points", _runs_by_colour(True, True)), source="shape"),
    # SCORE-4
    M("score-floor-charged-as-tiles-fall", "SCORE-4", "Each tile (or the marker) costs its floor space's value "
      "the moment it lands there, during the offer; the score is put back to 0 at once if it falls below, and "
      "the tiling's placements come after.",
      ("board.Board.to_floor", _charged_as_placed(True)), ("board.Board.take_marker", _charged_as_placed(True)),
      ("board.Board.clear_floor", _cleared_uncharged), source="shape"),
    M("score-floor-charged-as-tiles-fall-clamped-later", "SCORE-4", "Each tile (or the marker) costs its floor "
      "space's value the moment it lands there, during the offer (the score may show below 0); the clamp at 0 "
      "comes at the end of the tiling, after the placements.",
      ("board.Board.to_floor", _charged_as_placed(False)), ("board.Board.take_marker", _charged_as_placed(False)),
      ("board.Board.clear_floor", _cleared_uncharged), source="shape"),
    # WALL-1
    M("wall-shown-mirrored", "WALL-1", "I keep the wall as filled spaces, placed by the right layout (column "
      "(c + r) mod 5), but show a filled space's colour by the inverse written the wrong way round, (column + "
      "row) mod 5.", ("state._board_to_json", _wall_shown_by(lambda r, c: (c + r) % WALL_SIZE)), source="shape"),
    M("floor-cleared-for-turn-seat-only", "FLOOR-6", "Each board is charged for its own floor, but the floor "
      "emptied in the loop is `self.boards[self.turn]`'s: the other boards keep their floor tiles into the next "
      "round (and pay for them again), and the last taker's floor is emptied before its own charge if it comes "
      "later in the loop.", ("game.Game._end_offer", _charge_each_clear_turn_seat), source="shape"),
    M("floor-overflow-kept-uncharged", "FLOOR-2", "The floor line is a list the tiles are appended to without a "
      "bound: tiles beyond the seventh stay on it, cost nothing (the penalty sums the seven printed values "
      "over the occupied spaces) and go to the lid with the rest at the clean-up.",
      ("board.Board.to_floor", _floor_kept_beyond_seven), source="shape"),
    M("score-flat-wall-run-wraps-rows", "SCORE-2", "I keep the wall as one list of 25 spaces: the horizontal run "
      "is scanned while the index stays in the list, so it goes on from a row's first space into the last "
      "space of the row above, and from its last space into the first of the row below.",
      ("board.Board.placement_points", _flat_points), source="shape"),
    M("score-round-points-carried-over-boards", "SCORE-3", "The round's wall points are summed in a variable set "
      "to 0 once, before the loop over the players: each board gets its own points plus those of every board "
      "tiled before it.", ("game.Game._end_offer", _points_carried_over_boards), source="shape"),
    M("score-clamped-at-the-deal", "SCORE-5", "The score is put back to 0 when the next round is dealt, not "
      "after the floor penalties: between rounds it may show below 0, and after the last round it stays below "
      "0, the bonuses added to it.", ("board.Board.clear_floor", _no_clamp), ("game.Game.deal", _clamp_at_the_deal),
      source="shape"),
    M("floor-overflow-to-lid-at-clean-up", "FLOOR-2", "The tiles that find no floor space are set aside by the "
      "floor line and go to the lid with the floor's tiles at the clean-up after the penalties, not at once: "
      "during the offer the lid does not show them.", ("board.Board.__init__", _held_init),
      ("board.Board.copy", _held_copied), ("board.Board.to_floor", _held_to_floor),
      ("board.Board.clear_floor", _held_cleared), source="shape"),
    M("round-clean-up-after-end-check", "TILING-2", "The round's clean-up (the tiled lines emptied, their rest to "
      "the lid; the floors emptied, their tiles to the lid) is done when preparing the next round, after the "
      "end of the game is checked: a finished game keeps its last tiled lines full and its last floors, and "
      "the lid lacks their tiles when the lack of tiles is checked.",
      ("board.Board.tile_coloured_wall", _lines_left_full), ("board.Board.clear_floor", _charged_not_cleared),
      ("game.Game._end_round", _lines_cleanup_after_end_check),
      ("game.Game._end_round", _floor_cleanup_after_end_check), source="shape"),
    M("floor-held-by-colour", "FLOOR-1", "I keep the floor as a marker flag and a count of tiles per colour: "
      "its penalty counts the spaces right, but it reads the marker first and then its tiles colour by colour "
      "(B Y R K W), not in the order they came.", ("board.Board.to_floor", _grouped),
      ("board.Board.take_marker", _grouped), source="shape"),
    M("floor-penalty-pairs-formula", "FLOOR-3", "A floor space's value is worked out as `i // 2 + 1` (spaces in "
      "pairs): 1 1 2 2 3 3 4, so the floor costs 1, 2, 4, 6, 9, 12, 16.",
      ("board.FLOOR_PENALTIES", value(tuple(i // 2 + 1 for i in range(SPACES)))), source="shape"),
    M("tiling-rest-to-lid-under-line-number", "TILING-2", "The rest of a tiled line is added to the lid under the "
      "line's number (lid[line]) where its colour's was meant: line 2's rest counts as yellow, line 3's as red.",
      ("board.Board.tile_line", _rest_under_line_number), source="shape"),
    M("score-points-to-turn-seat", "SCORE-3", "In the loop over the boards, each board's wall points are added to "
      "`self.boards[self.turn]` (who took the last tile): that player scores every board's placements, the "
      "others none; each floor still costs its own board.",
      ("game.Game._end_offer", _to_turn_seat(True)), source="shape"),
    M("score-floor-charged-to-turn-seat", "SCORE-4", "In the loop over the boards, each board's floor penalty is "
      "taken from `self.boards[self.turn]` (who took the last tile), never below 0: that player pays for every "
      "floor, the others for none.", ("game.Game._end_offer", _to_turn_seat(False)), source="shape"),
    M("score-clamp-by-abs", "SCORE-5", "'Never below 0' is written as abs(): a score the floor would take below 0 "
      "becomes the amount it is short (2 points and 5 of penalty give 3).",
      ("board.Board.clear_floor", _clamp_by_abs), source="shape"),
    M("floor-cleared-while-iterating", "FLOOR-6", "The floor is emptied by removing each tile inside a loop over "
      "the floor list itself: the loop skips the entry after each one removed, so every second tile (or the "
      "marker) stays on the floor, out of the lid, into the next round.",
      ("board.Board.clear_floor", _removed_while_iterating), source="shape"),
    M("score-credited-to-next-seat", "SCORE-3", "The scores are kept in a list indexed from 1 while the boards are "
      "looped from 0: each board's round (its wall points less its floor, never below 0) is credited to the next "
      "seat's score.", ("game.Game._end_offer", _credited_to_next_seat), source="shape"),
    M("floor-marker-put-at-tiling", "FLOOR-4", "Taking the marker only notes who holds it; the marker is put on "
      "the holder's floor line as the tiling begins, after all the tiles that reached the floor during the round, "
      "in the first free space (none on a full floor).", ("board.Board.take_marker", _marker_noted),
      ("game.Game._end_offer", _marker_put_at_tiling), source="shape"),
    M("score-base-point-plus-runs", "SCORE-1", "Every tile placed scores 1 point, and a tile with neighbours adds "
      "its runs of 2 or more to it: two side by side score 3, four across and three down score 8.",
      ("board.Board.placement_points", _base_point_points), source="shape"),
    M("score-floor-charged-twice", "SCORE-4", "The floor's penalty is taken twice each round: by the scoring step "
      "after the placements, and again by the clean-up before it empties the floor (never below 0 either time).",
      ("board.Board.clear_floor", _charged_twice), source="shape"),
    M("floor-blue-taken-for-marker", "FLOOR-6", "The marker is coded 0 on the floor line, as blue is: the clean-up "
      "skips every 0 as the marker, so blue floor tiles are never put in the lid.",
      ("board.Board.clear_floor", _blue_kept_as_marker), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "FLOOR-1": {"order": ("floor-held-by-colour",)},
    "FLOOR-2": {"comparison": ("floor-overflow-kept-uncharged",), "order": ("floor-overflow-to-lid-at-clean-up",)},
    "FLOOR-3": {"off-by-one": ("floor-third-space-costs-one", "floor-sixth-space-costs-two",
                               "floor-penalty-pairs-formula")},
    "FLOOR-4": {"overwritten": ("floor-marker-costs-one",), "order": ("floor-marker-put-at-tiling",)},
    "FLOOR-6": {"seat": ("floor-clean-up-for-turn-seat", "floor-clean-up-for-seat-0",
                         "floor-cleared-for-turn-seat-only"),
                "order": ("floor-cleared-after-end-check",), "reset": ("floor-cleared-while-iterating",),
                "comparison": ("floor-blue-taken-for-marker",)},
    "WALL-1": {"comparison": ("wall-shown-mirrored",)},
    "TILING-2": {"order": ("tiling-lines-cleared-after-end-check", "round-clean-up-after-end-check"),
                 "overwritten": ("tiling-rest-to-lid-under-line-number",)},
    "SCORE-1": {"overwritten": ("score-base-point-plus-runs",)},
    "SCORE-2": {"comparison": ("score-down-run-same-colour", "score-across-run-by-colour-number",
                               "score-runs-by-colour"),
                "off-by-one": ("score-flat-wall-run-wraps-rows",)},
    "SCORE-3": {"seat": ("score-points-to-turn-seat", "score-credited-to-next-seat"),
                "reset": ("score-round-points-carried-over-boards",)},
    "SCORE-4": {"once": ("score-floor-charged-as-tiles-fall", "score-floor-charged-as-tiles-fall-clamped-later",
                         "score-floor-charged-twice"),
                "seat": ("score-floor-charged-to-turn-seat",)},
    "SCORE-5": {"once": ("score-clamped-at-the-deal",), "comparison": ("score-clamp-by-abs",)},
}
