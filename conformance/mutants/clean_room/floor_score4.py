"""Fourth-round readings of the floor line (FLOOR-1..6), the wall tiling (TILING-1..3) and its scoring
(SCORE-1..5), written from the rules' text and the reference engine alone (CLEAN-ROOM.md).

The angle of this round: the code an engine author writes for each rule. For every rule two or three ordinary
implementations were pictured (the floor as a list, as seven slots, as a count per colour; the marker in the
floor list or as a holder seat kept by the game; the runs scanned from the tile or counted around it; the round's
scoring as one loop per board or as separate loops for the wall, the floor and the clean-up), and for each the
slips that code invites in haste: a range one short or from 1, a loop that breaks where it should go on, a list
shared by every board, a value read before the update that changes it, 0 (blue, seat 0) taken for "none", a dict
whose length is taken for a count, a flag not reset between rounds, the wrong key into the lid or the wall. A
slip was kept where it gives a plausible engine a behaviour the catalogue does not already hold.

Written: the floor as seven slots found free by `if not slot` (a blue tile is overwritten); the overflow loop
that breaks after its first extra tile; the floor's room read before the marker is put down; the floor as a
count per colour charged by its length; the marker's space counted through `if game.marker and ...` (seat 0);
the runs measured around the colour's index instead of its column; the round's running total added after each
tile; the floor charged in a loop over range(1, players); the clamp tested on the score the round began with;
the tiling loop that breaks at the first incomplete line; the clean-up's own test one short of the line's
capacity; the rest of a tiled line put in the lid under its wall column. Each is killed by a 2-player scenario
of its own rule on the coloured wall.

Left out after writing them: floor-one-list-for-all-from-round-2 (FLOOR-6: the floors reset each round as
`[[]] * players` and emptied in place, so that from the second round every board shares one floor, the first
board charged paying for all of it), killed only by a TILING-2 scenario and the properties, no FLOOR-6 scenario
playing a floor take in a second round of the same game; score-lone-test-wraps-to-last (SCORE-1: the lone-tile
test reads wall[r][c - 1] unguarded, so at the first column or row index -1 reads the last one, and such a tile
with a tile at the far end scores 0), killed only by the differential property, no scenario placing a lone tile
in the first column or row with the far end filled; and tiling-line-full-flag-kept (TILING-2: a per-line "full"
flag never cleared by the tiling, so a line once tiled never takes a tile again), whose random games never end
once every line has been tiled (the floor's tiles keep the lid from running out), so it ran into the time limit
rather than fail a check.

Considered and not written: the penalties read from the wrong end of the table (`PENALTIES[-n:]`), which sums
exactly as floor-penalties-reversed on every floor; the cumulative table indexed [n - 1] for an empty floor,
which wraps to the full floor's 14 (a slip any first test shows, and one more sum of the table the catalogue
has many of); min() for max() in the clamp, which leaves every score at 0 after each round (no engine that plays
a game could keep it); the clamp skipped when the penalty is 0 (the same as the rule: a score is never below 0
before the floor); the marker put in the lid by the clean-up (lid[MARKER] is out of range: no engine plays on);
the marker's holder assigned inside the room test of a full floor (the marker then stays in the centre:
floor-full-marker-stays); the vertical run read with its indexes transposed (wall[c][r]), close to
score-runs-around-colour-index and less plausible; an incomplete line's colour reset with the tiled lines' (a
line holding tiles and no colour, which the state cannot show); and the points read on the wall before the tile
is set (the reference's scan never reads the tile's own space, so nothing changes).

Engine state a slip keeps that the reference has no field for (the board whose marker the take under way has
just put down) is held in a module set keyed by the board's id, emptied after every take.
"""

from __future__ import annotations

from azul_reference.board import EMPTY
from azul_reference.tiles import FLOOR_PENALTIES, MARKER, wall_column

from ..readings import M, value

SPACES = len(FLOOR_PENALTIES)
BLUE = 0


# -- FLOOR-1: seven slots, a free one found by `if not slot` ---------------------------------------------------

def _first_free_slot(board) -> int | None:
    """`next((i for i, slot in enumerate(slots) if not slot), None)` over seven slots holding None when free: a
    slot holding blue (colour 0) is taken for free as well."""
    for index, tile in enumerate(board.floor):
        if tile == BLUE:
            return index
    return len(board.floor) if len(board.floor) < SPACES else None


def _put_in_slot(board, tile: int) -> bool:
    index = _first_free_slot(board)
    if index is None:
        return False
    if index < len(board.floor):
        board.floor[index] = tile  # the blue tile there is written over: it is lost, in no lid
    else:
        board.floor.append(tile)
    return True


def _slot_to_floor(original):
    def to_floor(board, tile, count, lid):
        for _ in range(count):
            if not _put_in_slot(board, tile):
                lid[tile] += 1
    return to_floor


def _slot_marker(original):
    def take_marker(board):
        _put_in_slot(board, MARKER)
    return take_marker


# -- FLOOR-2: the overflow loop breaks after its first extra tile ---------------------------------------------

def _first_extra_only(original):
    """`for tile in tiles: if room: floor.append(tile) else: lid[tile] += 1; break`: the `break` meant to end the
    loop once the floor is full comes after the first extra tile, and the others are dropped."""
    def to_floor(board, tile, count, lid):
        placed = min(count, max(SPACES - len(board.floor), 0))
        board.floor.extend([tile] * placed)
        if count > placed:
            lid[tile] += 1
    return to_floor


# -- FLOOR-2: the floor's room read before the marker is put down ---------------------------------------------

_MARKED: set[int] = set()  # id(board) of the board the take under way has just put the marker on


def _marker_noted(original):
    def take_marker(board):
        before = len(board.floor)
        original(board)
        if len(board.floor) > before:
            _MARKED.add(id(board))
    return take_marker


def _room_before_marker(original):
    """Board.to_floor: the room is the one counted at the top of the take, before the marker took a space."""
    def to_floor(board, tile, count, lid):
        if id(board) not in _MARKED:
            return original(board, tile, count, lid)
        _MARKED.discard(id(board))
        placed = min(count, max(SPACES - (len(board.floor) - 1), 0))  # the marker not yet counted
        board.floor.extend([tile] * placed)
        if count > placed:
            lid[tile] += count - placed
    return to_floor


def _take_forgets_marker(original):
    def take(game, move):
        try:
            original(game, move)
        finally:
            _MARKED.clear()
    return take


# -- FLOOR-4: the marker's space counted through the holder seat ----------------------------------------------

def _marker_counted_if_holder_truthy(original):
    """Game._end_offer (coloured wall): each floor is charged for its tiles plus the marker's space when
    `game.marker and game.marker == seat`: seat 0 holding the marker reads as nobody holding it."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for seat, board in enumerate(game.boards):
            board.tile_coloured_wall(game.lid)
            if not (game.marker and game.marker == seat) and MARKER in board.floor:
                board.floor.remove(MARKER)  # the tiles alone are charged, from the first space
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


# -- SCORE-2: the runs measured around the colour's index ----------------------------------------------------

def _scored_at_colour_index(original):
    """Board.tile_coloured_wall: the tile goes to its colour's column, but its points are asked as
    `placement_points(line, colour)`: the runs around the space whose column number is the colour's."""
    def tile_coloured_wall(board, lid):
        for line in range(5):
            if board.line_complete(line):
                colour = board.line_colour[line]
                score = board.score
                board.tile_line(line, wall_column(line, colour), lid)
                board.score = score + board.placement_points(line, colour)
    return tile_coloured_wall


# -- SCORE-3: the round's running total added after each tile ------------------------------------------------

def _running_total_added(original):
    """Board.tile_coloured_wall: `gained += points; score += gained` inside the loop: each tile adds the points
    of every tile placed before it in the round as well as its own."""
    def tile_coloured_wall(board, lid):
        gained = 0
        for line in range(5):
            if board.line_complete(line):
                score = board.score
                board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
                gained += board.score - score
                board.score = score + gained
    return tile_coloured_wall


# -- SCORE-4: the floors charged in a loop from seat 1 -------------------------------------------------------

def _floors_charged_from_seat_1(original):
    """Game._end_offer (coloured wall): the wall, the floor charge and the clean-up are three loops; the charge's
    is `range(1, players)`, seats counted from 1: seat 0 never pays (its floor is emptied all the same)."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            board.tile_coloured_wall(game.lid)
        for seat, board in enumerate(game.boards):
            score = board.score
            board.clear_floor(game.lid)
            if seat == 0:
                board.score = score
        game._end_round()
    return end_offer


# -- SCORE-5: the clamp tested on the score the round began with ---------------------------------------------

def _clamp_tested_on_round_start(original):
    """Game._end_offer (coloured wall): `score = board.score` is read before the wall points are added, and the
    clamp is `if score < penalty: board.score = 0 else: board.score -= penalty`: a floor the round's placements
    would pay still takes the score to 0."""
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            score = board.score
            board.tile_coloured_wall(game.lid)
            penalty = board.floor_penalty()
            board.clear_floor(game.lid)
            if score < penalty:
                board.score = 0
        game._end_round()
    return end_offer


# -- TILING-1: the tiling loop breaks at the first incomplete line ------------------------------------------

def _stops_at_first_incomplete(original):
    def tile_coloured_wall(board, lid):
        for line in range(5):
            if not board.line_complete(line):
                break  # `continue` was meant
            board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
    return tile_coloured_wall


# -- TILING-3: the clean-up's own test, one short ------------------------------------------------------------

def _clean_up_one_short(original):
    """Board.tile_coloured_wall: the tiled lines are emptied in a clean-up loop of its own, whose test is
    `count >= line` (the index from 0 taken for the capacity): a line one tile short of full is emptied into the
    lid too, though it moved nothing to the wall."""
    def tile_coloured_wall(board, lid):
        original(board, lid)
        for line in range(1, 5):
            count = board.line_count[line]
            if count and count >= line:
                lid[board.line_colour[line]] += count
                board.line_colour[line], board.line_count[line] = EMPTY, 0
                board.reopen(line)
    return tile_coloured_wall


# -- TILING-2: the rest put in the lid under the wall column -------------------------------------------------

def _rest_under_wall_column(original):
    """Board.tile_line(line, column, lid): `lid[column] += line`, the variable at hand, where the colour was
    meant."""
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        lid[colour] -= line
        lid[column] += line
    return tile_line


READINGS = (
    M("floor-blue-slot-taken-for-free", "FLOOR-1", "I keep the floor as seven slots, None when free, and find the "
      "leftmost free one with `if not slot`: a slot holding blue (colour 0) is taken for free, so the next floor "
      "tile or the marker is written over the blue tile, which is lost.",
      ("board.Board.to_floor", _slot_to_floor), ("board.Board.take_marker", _slot_marker), source="shape"),
    M("floor-overflow-first-extra-only", "FLOOR-2", "My loop over the tiles going to the floor puts each in the "
      "next free space, else in the lid and `break`s: only the first tile that finds no space reaches the lid, "
      "the others are dropped.", ("board.Board.to_floor", _first_extra_only), source="shape"),
    M("floor-room-read-before-marker", "FLOOR-2", "The floor's room is counted at the top of the take, before the "
      "marker is put down: in the take from the centre that brings the marker, one tile more than the free "
      "spaces goes on the floor (an eighth space, charged nothing) instead of the lid.",
      ("board.Board.take_marker", _marker_noted), ("board.Board.to_floor", _room_before_marker),
      ("game.Game._take", _take_forgets_marker), source="shape"),
    M("floor-penalty-per-colour-held", "FLOOR-3", "I keep the floor as a count per colour (the marker a key of its "
      "own) and charge the spaces `len(floor)`: the length of the dict, one space per colour present, not one "
      "per tile (three red tiles cost 1).",
      ("board.Board.floor_penalty", value(lambda board: sum(FLOOR_PENALTIES[:len(set(board.floor))]))),
      source="shape"),
    M("floor-marker-uncharged-for-seat-0", "FLOOR-4", "The floor's charge counts its tiles, plus the marker's "
      "space `if game.marker and game.marker == seat`: when seat 0 holds the marker the test reads 0 as nobody, "
      "and its marker costs nothing (its tiles are charged from the first space).",
      ("game.Game._end_offer", _marker_counted_if_holder_truthy), source="shape"),
    M("score-runs-around-colour-index", "SCORE-2", "The tile goes to its colour's space, but its points are asked "
      "as `placement_points(line, colour)`, the colour's number passed where the column was meant: the runs "
      "counted are those around the space in that row whose column number is the colour's (the right one "
      "only in the first row).", ("board.Board.tile_coloured_wall", _scored_at_colour_index), source="shape"),
    M("score-running-total-added-each-tile", "SCORE-3", "The round's points are kept in a running total, and the "
      "total (not the tile's points) is added to the score after each tile: a tile's points count again with "
      "every tile placed after it that round.", ("board.Board.tile_coloured_wall", _running_total_added),
      source="shape"),
    M("score-floors-charged-from-seat-1", "SCORE-4", "The floor penalties are charged in a loop of their own over "
      "`range(1, players)`, seats counted from 1: seat 0's floor never costs anything (it is still emptied).",
      ("game.Game._end_offer", _floors_charged_from_seat_1), source="shape"),
    M("score-clamp-tested-on-round-start", "SCORE-5", "I read the score into a variable before the wall points "
      "are added and clamp with `if score < penalty: 0 else: subtract`: a floor that the round's placements "
      "would pay still takes the score to 0 when the score the round began with could not.",
      ("game.Game._end_offer", _clamp_tested_on_round_start), source="shape"),
    M("tiling-stops-at-first-incomplete-line", "TILING-1", "My tiling loop over the pattern lines `break`s at a "
      "line that is not complete where `continue` was meant: the complete lines below the first incomplete "
      "(or empty) one are not tiled and stay full.",
      ("board.Board.tile_coloured_wall", _stops_at_first_incomplete), source="shape"),
    M("tiling-clean-up-test-one-short", "TILING-3", "The tiled lines are emptied in a clean-up loop with its own "
      "test, `count >= line`, the line's index from 0 taken for its capacity: a line one tile short of full is "
      "emptied into the lid with the tiled ones, though it moved nothing to the wall.",
      ("board.Board.tile_coloured_wall", _clean_up_one_short), source="shape"),
    M("tiling-rest-to-lid-under-wall-column", "TILING-2", "The rest of a tiled line is added to the lid as "
      "`lid[column] += line`, the wall column at hand where the colour was meant: a tile placed away from its "
      "colour's number (every row but the first) puts its line's rest in the lid as another colour.",
      ("board.Board.tile_line", _rest_under_wall_column), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "FLOOR-1": {"comparison": ("floor-blue-slot-taken-for-free",)},
    "FLOOR-2": {"off-by-one": ("floor-overflow-first-extra-only",), "order": ("floor-room-read-before-marker",)},
    "FLOOR-3": {"overwritten": ("floor-penalty-per-colour-held",)},
    "FLOOR-4": {"seat": ("floor-marker-uncharged-for-seat-0",)},
    "SCORE-2": {"overwritten": ("score-runs-around-colour-index",)},
    "SCORE-3": {"reset": ("score-running-total-added-each-tile",)},
    "SCORE-4": {"seat": ("score-floors-charged-from-seat-1",)},
    "SCORE-5": {"order": ("score-clamp-tested-on-round-start",)},
    "TILING-1": {"comparison": ("tiling-stops-at-first-incomplete-line",)},
    "TILING-2": {"overwritten": ("tiling-rest-to-lid-under-wall-column",)},
    "TILING-3": {"off-by-one": ("tiling-clean-up-test-one-short",)},
}
