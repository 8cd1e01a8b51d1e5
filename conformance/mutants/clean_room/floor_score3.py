"""Third-round readings of the floor line (FLOOR-1..6), the wall's layout (WALL-1), the wall tiling (TILING-1..3)
and its scoring (SCORE-1..5), written from the rules' text and the reference engine alone (CLEAN-ROOM.md).

The angle of this round: each version's own words. For every rule, each of the eight versions (FR, DE, EN, IT,
UK, ES, PT, IT-2) was read at the lines `azul spec show` cites and around them, as by an engine author who had
only that version and implemented its verbs, quantifiers and moments literally, and what it leaves unsaid as
nothing to do. A reading the catalogue already held in behaviour (the UK marker neither charged nor cleared,
IT-2's flat point, PT's missing clamp, the game ended before the last floor in IT-2, the overflow to the first
penalty box, EN's 'tile placement phase' ending the game before the floor) was not written again.

Left out after writing it: score-floors-charged-at-end-of-phase (SCORE-4; DE, l. 108 puts the floor 'Am Ende
der Fliesungsphase', a phase that l. 96 has all the players carry out together, so the floors were charged once
every board's placements were done): it differs from the rule only on the grey wall, while a later board still
places, and no scenario kills it. Considered and not written: FR/EN/IT's 'once all pattern rows are completed'
(FR l. 34, EN l. 154, IT l. 210) read as 'the rest stays on the tiled line' alone, the behaviour of
tiling-line-not-emptied (the reading kept, tiling-rest-kept-until-all-lines-complete, also bars the line as the
wall-row rule reads); and WALL-1, whose layout no version writes down (the text-made layouts are all there).

Engine state a slip keeps that the reference has no field for is held in module dictionaries keyed by the
board's id, carried over by copies and dropped by a new board, as in the second round.
"""

from __future__ import annotations

from azul_reference.tiles import COLOURS

from ..readings import (
    EMPTY, FLOOR_PENALTIES, IN_CENTRE, MARKER, IllegalMove, M, _no_clamp, kept_by_copies, points, scored, value,
    wall_column,
)

SPACES = len(FLOOR_PENALTIES)


# -- FLOOR-1: IT-2 puts the marker in the first penalty box ----------------------------------------------------

_LIDS: list[list[int]] = []  # the lid of the take under way, for a tile the marker pushes off the floor


def _take_knows_lid(original):
    """Game._take: lets the marker's placement reach the game's lid while the take runs."""
    def take(game, move):
        _LIDS.append(game.lid)
        try:
            original(game, move)
        finally:
            _LIDS.pop()
    return take


def _marker_in_first_box(original):
    """Board.take_marker: the marker goes in the first floor space, what lay there moving one space right; on
    a full floor the last tile is pushed off, to the lid."""
    def take_marker(board):
        board.floor.insert(0, MARKER)
        if len(board.floor) > SPACES:
            pushed = board.floor.pop()  # never the marker: it is first
            if _LIDS:
                _LIDS[-1][pushed] += 1
    return take_marker


# -- SCORE-4: PT charges the marker as it is taken -------------------------------------------------------------

def _marker_charged_at_once(original):
    """Board.take_marker: the marker costs its space's value the moment it is taken; the cube stops at 0."""
    def take_marker(board):
        before = len(board.floor)
        original(board)
        if len(board.floor) > before:
            score = board.score - FLOOR_PENALTIES[before]
            board.score = score if score > 0 else 0
    return take_marker


def _marker_space_already_paid(board) -> int:
    """Board.floor_penalty: at the tiling each tile pays the value over its space; the marker's was paid."""
    return sum(FLOOR_PENALTIES[i] for i, tile in enumerate(board.floor) if tile != MARKER)


# -- SCORE-1: PT's consolation point, once a round -------------------------------------------------------------

_ROUND: dict[int, list[int]] = {}  # id(board) -> [tiles placed, points they made] in the tiling under way


def _round_init(original):
    def init(board):
        original(board)
        _ROUND.pop(id(board), None)
    return init


_round_copied = kept_by_copies(_ROUND)


def _round_counted(original):
    """Board.tile_line: each placement's points are added up for the round."""
    def tile_line(board, line, column, lid):
        before = board.score
        original(board, line, column, lid)
        made = _ROUND.setdefault(id(board), [0, 0])
        made[0] += 1
        made[1] += board.score - before
    return tile_line


def _consolation(original):
    """Board.clear_floor: a player whose placements made no point this round gets 1, then pays the floor."""
    def clear_floor(board, lid):
        placed, made = _ROUND.pop(id(board), [0, 0])
        if placed and not made:
            board.score += 1
        original(board, lid)
    return clear_floor


# -- SCORE-2: ES prints the vertical step twice ----------------------------------------------------------------

def _vertical_twice(across: int, down: int) -> int:
    """The steps as ES prints them: the horizontal run, the vertical run, and the vertical run again."""
    return scored(across, down) + (down if down >= 2 else 0)


# -- SCORE-3: IT-2's grid tiles earn a point at the end of each round ------------------------------------------

def _wall_tiles_paid(original):
    """Board.clear_floor: before the floor, every tile on the wall earns 1 point, this round's and earlier."""
    def clear_floor(board, lid):
        board.score += sum(cell != EMPTY for row in board.wall for cell in row)
        original(board, lid)
    return clear_floor


# -- FLOOR-5: the marker is an extra tile on a full floor ------------------------------------------------------

def _marker_lost_to_lid(original):
    """Game._end_offer: a marker taken onto a full floor went to the lid with the extra tiles, so it never
    reached its taker: nobody holds it, and the start player stays."""
    def end_offer(game):
        if game.marker != IN_CENTRE and MARKER not in game.boards[game.marker].floor:
            game.marker = IN_CENTRE
        original(game)
    return end_offer


# -- SCORE-5: the clamp on the score track only ---------------------------------------------------------------

def _track_shows_zero(original):
    """state._board_to_json: the score shown (the track) never goes below 0; the points kept behind it do."""
    def board_to_json(board):
        data = original(board)
        if data["score"] < 0:
            data["score"] = 0
        return data
    return board_to_json


# -- TILING-2: FR, EN and IT clear the tiled lines once all of them are complete -------------------------------

def _rest_left_on_line(original):
    """Board.tile_line: the rightmost tile goes to the wall; the rest stays on the line for now."""
    def tile_line(board, line, column, lid):
        colour, count = board.line_colour[line], board.line_count[line]
        original(board, line, column, lid)
        if count > 1:
            lid[colour] -= count - 1
            board.line_colour[line], board.line_count[line] = colour, count - 1
            board.reopen(line)
    return tile_line


def _cleared_when_all_complete(original):
    """Board.tile_coloured_wall: only when all five lines were complete are the tiled ones emptied."""
    def tile_coloured_wall(board, lid):
        every = all(board.line_count[line] == line + 1 for line in range(5))
        original(board, lid)
        if every:
            for line in range(5):
                colour = board.line_colour[line]
                if colour != EMPTY and board.wall[line][wall_column(line, colour)] == colour:
                    lid[colour] += board.line_count[line]
                    board.line_colour[line], board.line_count[line] = EMPTY, 0
                    board.reopen(line)
    return tile_coloured_wall


def _row_rule_on_every_line(original):
    """Board.colours_accepted: the wall-row rule read for any line: a line whose colour its row holds takes
    nothing (another colour is barred by the line's own)."""
    def colours_accepted(board, line):
        held = board.line_colour[line]
        if held != EMPTY and board.row_colours[line] >> held & 1:
            return 0
        return original(board, line)
    return colours_accepted


def _row_rule_checked(original):
    """Game._check_line: a refused line that no other rule explains is refused by the wall-row rule."""
    def check_line(move, board, line, colour):
        original(move, board, line, colour)
        raise IllegalMove(f"{move}: wall row {line + 1} already holds {COLOURS[colour]}", rule="OFFER-9")
    return staticmethod(check_line)


READINGS = (
    M("floor-marker-in-first-space", "FLOOR-1", "The marker goes in the first floor space, whatever lies there: "
      "the tiles already on the floor move one space right, and on a full floor the last one is pushed off to "
      "the lid. (IT-2, l. 36: the marker goes 'nella prima casella', the first box, not the first free one).",
      ("game.Game._take", _take_knows_lid), ("board.Board.take_marker", _marker_in_first_box), source="shape"),
    M("score-marker-charged-when-taken", "SCORE-4", "Taking the marker costs at once the value of the floor "
      "space it lands on, the score stopping at 0; at the tiling each floor tile pays its own space and the "
      "marker's space is not charged again: a marker taken at 0 points costs nothing. (PT, l. 65: you must take "
      "it 'e receber pontos negativos', with the take, not at the tiling).",
      ("board.Board.take_marker", _marker_charged_at_once),
      ("board.Board.floor_penalty", value(_marker_space_already_paid)), source="shape"),
    M("score-consolation-point-once-a-round", "SCORE-1", "Only runs of two or more score; a player whose "
      "placements of the round make no point gets one consolation point for the round: two lone tiles score 1 "
      "together, and a lone tile placed beside a scoring one adds nothing. (PT, ll. 83-85: points for rows and "
      "columns 'apenas se pelo menos dois se tocam', a single tile 'pelo menos um ponto de consolação').",
      ("board.Board.placement_points", points(lambda across, down: scored(across, down, lone=0))),
      ("board.Board.__init__", _round_init), ("board.Board.copy", _round_copied),
      ("board.Board.tile_line", _round_counted), ("board.Board.clear_floor", _consolation), source="shape"),
    M("score-vertical-run-counted-twice", "SCORE-2", "I followed the scoring steps as printed: the horizontal "
      "run, then the vertical run, then the vertical run again: a tile in a vertical run scores it twice (two "
      "tiles one above the other score 4). (ES, l. 117: the vertical check of l. 113 is printed a second time, "
      "after the first example).", ("board.Board.placement_points", points(_vertical_twice)), source="shape"),
    M("score-wall-tiles-paid-each-round", "SCORE-3", "A placement scores nothing when made; at the end of each "
      "round every tile on the wall earns 1 point, those placed in earlier rounds again, before the floor is "
      "charged. (IT-2, l. 26: each tile placed in a grid earns points 'alla fine di un turno'; l. 51: each "
      "tile in the grid 'vale 1 punto').", ("board.Board.placement_points", value(lambda board, row, column: 0)),
      ("board.Board.clear_floor", _wall_tiles_paid), source="shape"),
    M("floor-full-marker-lost", "FLOOR-5", "A marker taken onto a full floor line is one more tile that finds no "
      "space: it goes to the lid with the extra tiles and never reaches its taker, so nobody holds it and the "
      "start player stays for the next round. (ES, l. 125: the marker 'cuenta como una ficha normal' there and "
      "reaches its holder only from the floor; l. 65: tiles that find the floor full go to the lid).",
      ("game.Game._end_offer", _marker_lost_to_lid), source="shape"),
    M("score-clamped-on-the-track-only", "SCORE-5", "The floor penalties are subtracted from the points in full; "
      "the score shown, the scoring track, stops at 0 but the points behind it stay below 0, so the next "
      "round's gains first pay back the debt (2 points, 5 of penalty, then 4 more: 1, not 4). (EN, l. 162: the "
      "'score track' is adjusted and 'can never go below 0 points': the clamp is said of the track).",
      ("board.Board.clear_floor", _no_clamp), ("state._board_to_json", _track_shows_zero), source="shape"),
    M("tiling-rest-kept-until-all-lines-complete", "TILING-2", "The tiled lines are emptied only once all five "
      "pattern lines are complete; until then a tiled line keeps its other tiles, its rightmost space empty, "
      "and takes no tile: its colour is on its wall row, and another colour is barred by the tiles it holds. "
      "(EN, l. 154, as FR l. 34 and IT l. 210: 'Once all pattern rows are completed', then the "
      "rest removed).", ("board.Board.tile_line", _rest_left_on_line),
      ("board.Board.tile_coloured_wall", _cleared_when_all_complete),
      ("board.Board.colours_accepted", _row_rule_on_every_line), ("game.Game._check_line", _row_rule_checked),
      source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "FLOOR-1": {"order": ("floor-marker-in-first-space",)},
    "FLOOR-5": {"seat": ("floor-full-marker-lost",)},
    "TILING-2": {"comparison": ("tiling-rest-kept-until-all-lines-complete",)},
    "SCORE-1": {"once": ("score-consolation-point-once-a-round",)},
    "SCORE-2": {"once": ("score-vertical-run-counted-twice",)},
    "SCORE-3": {"once": ("score-wall-tiles-paid-each-round",)},
    "SCORE-4": {"order": ("score-marker-charged-when-taken",)},
    "SCORE-5": {"overwritten": ("score-clamped-on-the-track-only",)},
}
