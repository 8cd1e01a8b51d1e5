"""Readings of the floor line (FLOOR-1..6), the wall's layout (WALL-1) and the wall tiling (TILING-1..3), written
from the rules' text and the reference engine alone (CLEAN-ROOM.md): each rule gone through shape by shape
(shapes.SHAPES) and by where an engine applies it (its list of legal moves, its check of a played move, or both).
"""

from __future__ import annotations

from azul_reference.board import EMPTY
from azul_reference.errors import IllegalMove
from azul_reference.game import OFFER
from azul_reference.moves import CENTRE, FLOOR
from azul_reference.tiles import FLOOR_PENALTIES, MARKER, WALL_SIZE, wall_column

from ..readings import M, value

SPACES = len(FLOOR_PENALTIES)


# -- the floor line: where its tiles go ------------------------------------------------------------------------

def _floor_replaced(original):
    """`floor = tiles` where `floor += tiles` was meant: each batch of floor tiles replaces what lay there."""
    def to_floor(board, tile, count, lid):
        board.floor = []
        original(board, tile, count, lid)
    return to_floor


def _room_checked_once(original):
    """The room is checked once for the whole batch: any free space takes the whole batch."""
    def to_floor(board, tile, count, lid):
        if len(board.floor) < SPACES:
            board.floor.extend([tile] * count)
        else:
            lid[tile] += count
    return to_floor


def _batch_to_lid_unless_it_fits(original):
    """A batch that does not fit whole on the floor goes to the lid whole."""
    def to_floor(board, tile, count, lid):
        if count <= SPACES - len(board.floor):
            board.floor.extend([tile] * count)
        else:
            lid[tile] += count
    return to_floor


def _last_space_overwritten(to_lid: bool):
    """A seven-slot array written at index min(filled, 6): each tile beyond the seventh overwrites the last
    space; the tile it displaces is lost (or, `to_lid`, goes to the lid)."""
    def make(original):
        def to_floor(board, tile, count, lid):
            for _ in range(count):
                if len(board.floor) < SPACES:
                    board.floor.append(tile)
                    continue
                displaced = board.floor[-1]
                board.floor[-1] = tile
                if to_lid and displaced != MARKER:
                    lid[displaced] += 1
        return to_floor
    return make


def _floor_take_unlisted(original):
    """The list leaves out takes to the floor line while it is full."""
    def legal_takes(game):
        moves = original(game)
        if len(game.boards[game.turn].floor) < SPACES:
            return moves
        return [m for m in moves if m.line != FLOOR]
    return legal_takes


def _floor_take_refused(original):
    """A played take to a full floor line is refused (FLOOR-2 read as: no room, no take)."""
    def take(game, move):
        if move.line == FLOOR and game.phase == OFFER and len(game.boards[game.turn].floor) >= SPACES:
            source = game.centre if move.source == CENTRE else (
                game.factories[move.source - 1] if move.source <= len(game.factories) else None)
            if source is not None and source[move.colour]:
                raise IllegalMove(f"{move}: the floor line is full", rule="FLOOR-2")
        original(game, move)
    return take


# -- the floor line: its penalties and the marker ---------------------------------------------------------------

def _one_space_extra(board) -> int:
    """The slice runs one space past the last occupied one."""
    return sum(FLOOR_PENALTIES[:len(board.floor) + 1])


def _marker_uncharged(board) -> int:
    """Only tiles are counted for the penalty; the marker's space is not counted."""
    return sum(FLOOR_PENALTIES[:sum(1 for tile in board.floor if tile != MARKER)])


def _marker_space_uncharged(board) -> int:
    """Each tile pays the value over its own space; the marker's space is skipped."""
    return sum(FLOOR_PENALTIES[i] for i, tile in enumerate(board.floor) if tile != MARKER)


_DEFERRED: list[list] = []  # [board, state]: a marker waiting for its take's tiles (state None, "wait", "done")


def _marker_after_tiles_take(original):
    """Game._take: the marker taken with this take is placed after the take's tiles."""
    def take(game, move):
        if not (move.source == CENTRE and game.marker == -1 and game.phase == OFFER):
            return original(game, move)
        _DEFERRED.append([game.boards[game.turn], None])
        try:
            original(game, move)
        finally:
            _DEFERRED.pop()
    return take


def _deferred_entry(board):
    """The pending marker entry of this board, if any."""
    return _DEFERRED[-1] if _DEFERRED and _DEFERRED[-1][0] is board else None


def _marker_after_tiles_marker(original):
    """Board.take_marker: held back until the take's tiles are placed."""
    def take_marker(board):
        entry = _deferred_entry(board)
        if entry is not None and entry[1] is None:
            entry[1] = "wait"
            return
        original(board)
    return take_marker


def _marker_after_tiles_place(original):
    """Board.to_floor / place_on_line: once the take's tiles are down, the held-back marker follows."""
    def place(board, *args):
        original(board, *args)
        entry = _deferred_entry(board)
        if entry is not None and entry[1] == "wait":
            entry[1] = "done"
            board.take_marker()
    return place


def _marker_never_cleared(original):
    """Only tiles are cleared off the floor; the marker stays where it was."""
    def clear_floor(board, lid):
        markers = [tile for tile in board.floor if tile == MARKER]
        original(board, lid)
        board.floor = markers
    return clear_floor


def _clear_lid_overwritten(original):
    """The floor's tiles counted by colour and written to the lid (`=`) instead of added to it."""
    def clear_floor(board, lid):
        counts = [0] * 5
        for tile in board.floor:
            if tile != MARKER:
                counts[tile] += 1
        original(board, [0] * 5)
        for colour, count in enumerate(counts):
            if count:
                lid[colour] = count
    return clear_floor


# -- wall tiling ------------------------------------------------------------------------------------------------

def _lines_with_tiles_tiled(original):
    """A line is taken for complete when it has a colour: each line holding tiles moves one to the wall, the
    rest of what it held to the lid."""
    def tile_coloured_wall(board, lid):
        for line in range(5):
            colour, held = board.line_colour[line], board.line_count[line]
            if colour != EMPTY and held:
                if board.wall[line][wall_column(line, colour)] != EMPTY:
                    continue
                board.tile_line(line, wall_column(line, colour), lid)
                lid[colour] += held - 1 - line
    return tile_coloured_wall


def _lines_in(lines):
    """Board.tile_coloured_wall over the pattern lines `lines` only (a loop bound off by one)."""
    def make(original):
        def tile_coloured_wall(board, lid):
            for line in lines:
                if board.line_count[line] == line + 1:
                    board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
        return tile_coloured_wall
    return make


def _current_board_tiled(original):
    """Coloured wall: `self.boards[self.turn]` in the tiling loop: the board of the player who took the last
    tile is tiled, every floor is charged."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            game.boards[game.turn].tile_coloured_wall(game.lid)
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


def _rest_lid_overwritten(original):
    """`lid[colour] = line` where `+=` was meant for the rest of a tiled line."""
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        lid[colour] = line
    return tile_line


def _incomplete_to_bag(original):
    """Board.tile_coloured_wall cannot reach the bag: the end of the offer returns the incomplete lines to it."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            board.tile_coloured_wall(game.lid)
            for line in range(5):
                if board.line_count[line]:
                    game.bag[board.line_colour[line]] += board.line_count[line]
                    board.line_colour[line], board.line_count[line] = EMPTY, 0
                    board.reopen(line)
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


def _from_the_right(original):
    """Board.to_floor / take_marker: each tile or marker goes in at the right end of the line, so the floor
    string reads from the latest to the earliest (the penalties read from the right too)."""
    def place(board, *args):
        board.floor.reverse()
        original(board, *args)
        board.floor.reverse()
    return place


def _one_line_a_round(original):
    """A `return` inside the tiling loop: only the topmost complete line is tiled each round."""
    def tile_coloured_wall(board, lid):
        for line in range(5):
            if board.line_count[line] == line + 1:
                board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
                return
    return tile_coloured_wall


READINGS = (
    # FLOOR-1
    M("floor-take-replaces-floor", "FLOOR-1", "The tiles sent to the floor line are assigned to it, not added: "
      "each batch replaces what lay there (earlier tiles, and the marker, are lost); what exceeds seven spaces "
      "goes to the lid.", ("board.Board.to_floor", _floor_replaced), source="shape"),
    M("floor-filled-from-the-right", "FLOOR-1", "The floor line is filled from the right: each tile (or the "
      "marker) takes the rightmost free space, so the spaces worth 3 are charged first and the line reads from "
      "the latest tile to the earliest.", ("board.Board.to_floor", _from_the_right),
      ("board.Board.take_marker", _from_the_right),
      ("board.FLOOR_PENALTIES", value(tuple(reversed(FLOOR_PENALTIES)))), source="shape"),
    # FLOOR-2
    M("floor-room-checked-once", "FLOOR-2", "The floor's room is checked once per batch: if any space is free the "
      "whole batch goes on the floor (beyond seven spaces, uncharged); only a floor already full sends it to the "
      "lid.", ("board.Board.to_floor", _room_checked_once), source="shape"),
    M("floor-batch-to-lid-unless-it-fits", "FLOOR-2", "Tiles that do not all fit on the floor line go to the lid "
      "together: a batch larger than the free spaces leaves the floor as it was.",
      ("board.Board.to_floor", _batch_to_lid_unless_it_fits), source="shape"),
    M("floor-overflow-overwrites-last-space", "FLOOR-2", "The floor is a seven-slot array written at index "
      "min(filled, 6): a tile beyond the seventh overwrites the last space, the tile there is lost and nothing "
      "goes to the lid.", ("board.Board.to_floor", _last_space_overwritten(False)), source="shape"),
    M("floor-overflow-displaces-last-tile", "FLOOR-2", "A tile beyond the seventh takes the last space; the tile "
      "it pushes out goes to the lid (a marker pushed out is simply gone from the floor).",
      ("board.Board.to_floor", _last_space_overwritten(True)), source="shape"),
    M("floor-full-floor-take-refused", "FLOOR-2", "A full floor line takes no more tiles: takes to it are neither "
      "listed nor accepted.", ("game.Game._legal_takes", _floor_take_unlisted),
      ("game.Game._take", _floor_take_refused), source="shape"),
    M("floor-full-floor-take-refused-when-played", "FLOOR-2", "A take to a full floor line is listed, but "
      "refused when played.", ("game.Game._take", _floor_take_refused), source="shape"),
    # FLOOR-3
    M("floor-one-space-extra-charged", "FLOOR-3", "The penalties are summed one space past the last occupied one: "
      "one tile costs 2, two cost 4, seven cost 14 (the table has no eighth value).",
      ("board.Board.floor_penalty", value(_one_space_extra)), source="shape"),
    M("floor-penalties-reversed", "FLOOR-3", "The printed values are written down from the right: the spaces, "
      "filled from the left, cost 3 3 2 2 2 1 1.",
      ("board.FLOOR_PENALTIES", value(tuple(reversed(FLOOR_PENALTIES)))), source="shape"),
    # FLOOR-4
    M("floor-marker-uncharged", "FLOOR-4", "The marker takes its space on the floor line, but the penalty counts "
      "only the tiles, from the first space: the marker costs nothing.",
      ("board.Board.floor_penalty", value(_marker_uncharged)), source="shape"),
    M("floor-marker-space-uncharged", "FLOOR-4", "Each floor tile pays the value over its own space; the space "
      "the marker occupies is skipped.", ("board.Board.floor_penalty", value(_marker_space_uncharged)),
      source="shape"),
    M("floor-marker-after-the-tiles", "FLOOR-4", "The marker taken with a take from the centre goes on the floor "
      "after that take's tiles (overflow or floor take), not before them; with the floor then full it takes no "
      "space.", ("game.Game._take", _marker_after_tiles_take),
      ("board.Board.take_marker", _marker_after_tiles_marker),
      ("board.Board.to_floor", _marker_after_tiles_place),
      ("board.Board.place_on_line", _marker_after_tiles_place), source="shape"),
    # FLOOR-5
    # FLOOR-6
    M("floor-marker-never-cleared", "FLOOR-6", "Clearing the floor removes its tiles only: the marker stays on "
      "its holder's floor line into the next round, costing a space there, while a new marker is taken from the "
      "centre.", ("board.Board.clear_floor", _marker_never_cleared), source="shape"),
    M("floor-clear-lid-overwritten", "FLOOR-6", "The floor's tiles are counted by colour and the counts written "
      "to the lid (`=`), not added to what it held.", ("board.Board.clear_floor", _clear_lid_overwritten),
      source="shape"),
    # WALL-1
    M("wall-row-minus-colour", "WALL-1", "The layout's subtraction is written the wrong way round: colour c of "
      "row r at column (r - c) mod 5.",
      ("board.wall_column", value(lambda row, colour: (row - colour) % WALL_SIZE)), source="shape"),
    # TILING-1
    M("tiling-lines-with-tiles-tiled", "TILING-1", "A pattern line is taken for complete when it has a colour: "
      "every line holding tiles moves one to the wall; the rest of what it held goes to the lid.",
      ("board.Board.tile_coloured_wall", _lines_with_tiles_tiled), source="shape"),
    M("tiling-fifth-line-skipped", "TILING-1", "The tiling loop runs over range(4): the fifth pattern line is "
      "never tiled and stays full.", ("board.Board.tile_coloured_wall", _lines_in(range(4))), source="shape"),
    M("tiling-first-line-skipped", "TILING-1", "The tiling loop runs over range(1, 5): the first pattern line is "
      "never tiled and stays full.", ("board.Board.tile_coloured_wall", _lines_in(range(1, 5))), source="shape"),
    M("tiling-only-current-board", "TILING-1", "The tiling loop tiles the board of the player whose turn it is "
      "(who took the last tile), not each board in turn; every floor is still charged.",
      ("game.Game._end_offer", _current_board_tiled), source="shape"),
    M("tiling-one-line-a-round", "TILING-1", "The tiling loop returns after the first complete line it tiles: "
      "each board moves only its topmost complete line to the wall each round; the others stay full.",
      ("board.Board.tile_coloured_wall", _one_line_a_round), source="shape"),
    # TILING-2
    M("tiling-rest-lid-overwritten", "TILING-2", "The rest of a tiled line is written to the lid's count of its "
      "colour (`=`) instead of added to it.", ("board.Board.tile_line", _rest_lid_overwritten), source="shape"),
    # TILING-3
    M("tiling-incomplete-to-bag", "TILING-3", "After the tiling every pattern line is emptied: the tiles of "
      "incomplete lines go back into the bag.", ("game.Game._end_offer", _incomplete_to_bag), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "FLOOR-1": {"overwritten": ("floor-take-replaces-floor",), "order": ("floor-filled-from-the-right",)},
    "FLOOR-2": {"comparison": ("floor-room-checked-once", "floor-batch-to-lid-unless-it-fits"),
                "overwritten": ("floor-overflow-overwrites-last-space", "floor-overflow-displaces-last-tile"),
                "both": ("floor-full-floor-take-refused",),
                "check": ("floor-full-floor-take-refused-when-played",)},
    "FLOOR-3": {"off-by-one": ("floor-one-space-extra-charged",), "order": ("floor-penalties-reversed",)},
    "FLOOR-4": {"comparison": ("floor-marker-uncharged", "floor-marker-space-uncharged"),
                "order": ("floor-marker-after-the-tiles",)},
    "FLOOR-6": {"reset": ("floor-marker-never-cleared",), "overwritten": ("floor-clear-lid-overwritten",)},
    "WALL-1": {"order": ("wall-row-minus-colour",)},
    "TILING-1": {"comparison": ("tiling-lines-with-tiles-tiled",),
                 "off-by-one": ("tiling-fifth-line-skipped", "tiling-first-line-skipped"),
                 "seat": ("tiling-only-current-board",), "once": ("tiling-one-line-a-round",)},
    "TILING-2": {"overwritten": ("tiling-rest-lid-overwritten",)},
    "TILING-3": {"reset": ("tiling-incomplete-to-bag",)},
}
