"""The rule-level mutants written by the project: realistic wrong readings of the rules, as an engine author would
get them wrong (some after meeting the engine that showed them: Mutant.prompted_by), and the helpers their patches
share. catalogue.py joins them with those written from the rules' text alone (clean_room/).

Each `Mutant` names the rule it breaks (an ID of spec/rules) and carries its patches: pairs of a target inside
azul_reference (`board.Board.placement_points`, `board.FLOOR_SPACES`) and a function that, given the original,
returns the wrong version. Patches go where the engine really looks: `Board.colours_accepted` and `Board.reopen`
feed the `open_lines` cache that listing and checking takes read; module constants are patched in the module
that uses them (board.py imports FLOOR_SPACES and wall_column by name).
"""

from __future__ import annotations

import copy
import random
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from azul_reference.board import ALL_COLOURS, EMPTY
from azul_reference.errors import IllegalDeal, IllegalMove
from azul_reference.game import DEAL, FACTORIES_BY_PLAYERS, IN_CENTRE, OFFER, OVER, TILING
from azul_reference.moves import (
    CENTRE, FLOOR, PLACEMENTS, TAKE_OF_TEXT, TAKES, TAKES_FROM, TAKES_TO, Placement, Take, parse_move, takes_to,
)
from azul_reference.tiles import (
    FLOOR_PENALTIES, MARKER, TILES_PER_COLOUR, TILES_PER_FACTORY, WALL_SIZE, wall_column,
)

Patch = tuple[str, Callable[[Any], Any]]


@dataclass(frozen=True)
class Mutant:
    id: str
    rule: str  # the rule it breaks, an ID of spec/rules
    description: str  # the wrong reading, in the words of an engine author who made it
    patches: tuple[Patch, ...]
    source: str = "slip"  # "slip", "divergence" (a DIV- entry read the other way), "ruling" (taken the other way),
    # "shape" (a shape of slip derived from the rule's text, shapes.TABLE, prompted by no engine) or "choice"
    # (another choice where an implementation-defined rule leaves one open: ALTERNATIVES)
    # the engines (their folders under docs/reports/) whose failures prompted this reading: it was written, or
    # reshaped, after they showed it. () for a reading taken from a rulebook clause, a divergence, a ruling or a
    # shape of slip before any engine of the matrix showed it. Each engine's diagnosis is also scored without the
    # readings it prompted (benchmarks/eval_causes.py: held out), since those could only flatter its score.
    prompted_by: tuple[str, ...] = ()


def value(new: Any) -> Callable[[Any], Any]:
    return lambda original: new


def kept_by_copies(memory: dict[int, Any]) -> Callable[[Any], Any]:
    """A patch of a copy method (Game.copy, Board.copy) for a reading that keeps state the reference has no field
    for in `memory`, keyed by the object's id: the copy gets a copy of the original's entry, or none (so that a
    stale entry of an object once at the same address is not taken for its own)."""
    def patch(original):
        def copied(obj):
            other = original(obj)
            if id(obj) in memory:
                memory[id(other)] = copy.copy(memory[id(obj)])
            else:
                memory.pop(id(other), None)
            return other
        return copied
    return patch


# -- scoring ---------------------------------------------------------------------------------------------------

ACROSS_AND_DOWN = ((0, -1), (0, 1), (-1, 0), (1, 0))


def runs(board, row: int, column: int, ways=ACROSS_AND_DOWN, reach: int = WALL_SIZE) -> tuple[int, int]:
    """The lengths of the horizontal and vertical runs through a (placed) tile, looking only along `ways` and at
    most `reach` tiles away (the rules: every way, as far as the run goes)."""
    wall = board.wall

    def run(dr: int, dc: int) -> int:
        r, c, n = row + dr, column + dc, 0
        while n < reach and 0 <= r < WALL_SIZE and 0 <= c < WALL_SIZE and wall[r][c] != EMPTY:
            r, c, n = r + dr, c + dc, n + 1
        return n
    across = 1 + sum(run(dr, dc) for dr, dc in ways if dr == 0)
    return across, 1 + sum(run(dr, dc) for dr, dc in ways if dc == 0)


def tiles_in_row_and_column(board, row: int, column: int) -> tuple[int, int]:
    """Every tile of the tile's row and column, gaps or not."""
    wall = board.wall
    return sum(cell != EMPTY for cell in wall[row]), sum(wall[r][column] != EMPTY for r in range(WALL_SIZE))


def scored(across: int, down: int, lone: int = 1, shortest: int = 2) -> int:
    """Each run of at least `shortest` tiles scores its length; a tile in no such run scores `lone`."""
    return (across if across >= shortest else 0) + (down if down >= shortest else 0) or lone


def points(rule: Callable[[int, int], int] = scored, measure=runs) -> Callable[[Any], Any]:
    return lambda original: lambda board, row, column: rule(*measure(board, row, column))


def looking(**how) -> Callable[..., tuple[int, int]]:
    """The runs measured another way (see `runs`)."""
    return lambda board, row, column: runs(board, row, column, **how)


def has_neighbour(board, row: int, column: int) -> bool:
    return runs(board, row, column) != (1, 1)


def _diagonal(original):
    def placement_points(board, row, column):
        near = [(row + dr, column + dc) for dr in (-1, 1) for dc in (-1, 1)]
        return original(board, row, column) + sum(1 for r, c in near if 0 <= r < WALL_SIZE and 0 <= c < WALL_SIZE
                                                  and board.wall[r][c] != EMPTY)
    return placement_points


def _all_at_once(original):
    def tile_coloured_wall(board, lid):
        complete = [(line, wall_column(line, board.line_colour[line])) for line in range(5)
                    if board.line_count[line] == line + 1]
        for line, column in complete:  # every tile on the wall before any is scored
            board.wall[line][column] = board.line_colour[line]
        for line, column in complete:
            board.tile_line(line, column, lid)
    return tile_coloured_wall


def _coloured_end_offer(tile_to: str, floor_to: str, floor_first: bool = False):
    def tiling(board, game):
        if floor_first:
            board.clear_floor(getattr(game, floor_to))
        board.tile_coloured_wall(getattr(game, tile_to))
        if not floor_first:
            board.clear_floor(getattr(game, floor_to))
    return _coloured_tiling(tiling)


def _coloured_tiling(tiling):
    """The coloured wall's end of the offer, each board's tiling and floor done by `tiling(board, game)`."""
    def make(original):
        def end_offer(game):
            if game.grey:
                return original(game)
            for board in game.boards:
                tiling(board, game)
            game._end_round()
        return end_offer
    return make


def _no_clamp(original):
    def clear_floor(board, lid):
        board.score -= board.floor_penalty()
        for tile in board.floor:
            if tile != MARKER:
                lid[tile] += 1
        board.floor = []
    return clear_floor


def _bonus_when_completed(original):
    def tile_line(board, line, column, lid):
        before = _end_bonus(board)
        original(board, line, column, lid)
        board.score += _end_bonus(board) - before  # before the floor is scored, and so under its clamp at 0
    return tile_line


def _bonus_in_loaded_score(original):
    def build(document):
        game = original(document)
        if game.phase != OVER:  # a position's score holds the bonuses its wall has earned so far
            for board in game.boards:
                board.score += _end_bonus(board)
        return game
    return build


# The bonuses scored as the tile completing them is placed, never at the end (two readings: a loaded score)
BONUSES_WHEN_COMPLETED = (("board.Board.tile_line", _bonus_when_completed),
                          ("board.Board.end_bonus", value(lambda board: 0)))


def _end_bonus(board) -> int:
    return 2 * board.complete_rows() + 7 * board.complete_columns() + 10 * board.complete_colours()


def _unscored_without_complete_line(original):
    def end_offer(game):
        if game.grey or any(board.line_complete(line) for board in game.boards for line in range(5)):
            return original(game)
        game._end_round()  # no tiling, so no floor penalty and no clearing: the floors wait for the deal
    return end_offer


def _marker_back_at_the_deal(original):
    def deal(game, *args, **kwargs):
        if game.phase == DEAL:  # a floor left uncleared gives the marker back to the centre only now
            for board in game.boards:
                if MARKER in board.floor:
                    board.floor.remove(MARKER)
        original(game, *args, **kwargs)
    return deal


def _against_round_start(original):
    def tile_coloured_wall(board, lid):
        start = [row[:] for row in board.wall]
        for line in range(5):
            if board.line_count[line] == line + 1:
                column = wall_column(line, board.line_colour[line])
                wall, board.wall = board.wall, [row[:] for row in start]
                board.wall[line][column] = board.line_colour[line]  # this tile alone on the wall the round began with
                gained = board.placement_points(line, column)
                board.wall = wall
                score = board.score
                board.tile_line(line, column, lid)
                board.score = score + gained
    return tile_coloured_wall


def _wall_scored_at_the_end():
    """Placements score nothing in play; at the end each tile of the finished wall scores its runs there."""
    scoring = {}

    def unscored(original):
        scoring["points"] = original
        return lambda board, row, column: 0

    def end_game(original):
        def _end_game(game):
            for board in game.boards:
                board.score += sum(scoring["points"](board, row, column) for row in range(WALL_SIZE)
                                   for column in range(WALL_SIZE) if board.wall[row][column] != EMPTY)
            original(game)
        return _end_game
    return ("board.Board.placement_points", unscored), ("game.Game._end_game", end_game)


def _floor_charged_only_after(counts: Callable[[Any, int, int], bool], kept: bool = False):
    """The floor is charged only if some tile placed this tiling `counts(board, row, column)` (on the wall as
    the tiling leaves it: a placed tile with a neighbour there had one when placed, or the tile beside it did);
    an uncharged floor is cleared all the same, or `kept` for the next round (its marker back at the deal)."""
    def tiling(board, game):
        before = [row[:] for row in board.wall]
        board.tile_coloured_wall(game.lid)
        placed = [(r, c) for r in range(WALL_SIZE) for c in range(WALL_SIZE) if board.wall[r][c] != before[r][c]]
        charged = any(counts(board, r, c) for r, c in placed)
        if kept and not charged:
            return
        score = board.score
        board.clear_floor(game.lid)
        if not charged:
            board.score = score
    return tiling


def _round_clamped(board, game):
    score = board.score
    board.tile_coloured_wall(game.lid)
    won = board.score - score - board.floor_penalty()
    board.clear_floor(game.lid)
    board.score = score + max(won, 0)  # the round's own score, never below 0, onto the total


def _clamped_at_the_end(original):
    def _end_game(game):
        for board in game.boards:
            board.score = max(board.score, 0)
        original(game)
    return _end_game


def _unpayable_floor_waived(original):
    def clear_floor(board, lid):
        score, penalty = board.score, board.floor_penalty()
        original(board, lid)
        if penalty > score:
            board.score = score
    return clear_floor


def _short_of_the_first_row_and_column(board, row: int, column: int) -> tuple[int, int]:
    """Runs scanned leftwards and upwards with range(i - 1, 0, -1): the scans stop one short of the wall's first
    column and first row, which count only for a tile placed in them."""
    wall = board.wall
    board.wall = [[EMPTY if c == 0 < column else cell for c, cell in enumerate(cells)] for cells in wall]
    across = runs(board, row, column)[0]
    board.wall = [[EMPTY] * WALL_SIZE if r == 0 < row else cells for r, cells in enumerate(wall)]
    down = runs(board, row, column)[1]
    board.wall = wall
    return across, down


def _floor_with_each_tile(original):
    def tile_line(board, line, column, lid):
        original(board, line, column, lid)
        board.score = max(0, board.score - board.floor_penalty())
    return tile_line


def _short_of_the_last_row_and_column(board, row: int, column: int) -> tuple[int, int]:
    """Runs scanned rightwards and downwards with range(i + 1, 4): the scans stop one short of the wall's last
    column and last row, which count only for a tile placed in them."""
    wall, last = board.wall, WALL_SIZE - 1
    board.wall = [[EMPTY if c == last > column else cell for c, cell in enumerate(cells)] for cells in wall]
    across = runs(board, row, column)[0]
    board.wall = [[EMPTY] * WALL_SIZE if r == last > row else cells for r, cells in enumerate(wall)]
    down = runs(board, row, column)[1]
    board.wall = wall
    return across, down


def _points_assigned(original):
    def tile_line(board, line, column, lid):
        score = board.score
        original(board, line, column, lid)
        board.score -= score  # `=` where `+=` was meant: the score is the last tile's points
    return tile_line


# -- the floor line --------------------------------------------------------------------------------------------

def _overflow_lost(original):
    def to_floor(board, tile, count, lid):
        original(board, tile, count, [0] * 5)
    return to_floor


def _floor_tiles_lost(original):
    def clear_floor(board, lid):
        original(board, [0] * 5)
    return clear_floor


def _floor_kept(original):
    def clear_floor(board, lid):
        kept = board.floor[:]
        original(board, [0] * 5)
        board.floor = kept
    return clear_floor


def _marker_free(original):
    return lambda board: sum(FLOOR_PENALTIES[:sum(1 for tile in board.floor if tile != MARKER)])


def _marker_due(game, move) -> bool:
    return move.source == CENTRE and game.marker == IN_CENTRE


def _marker_stays_when_full(original):
    def take(game, move):
        stays = _marker_due(game, move) and len(game.boards[game.turn].floor) >= len(FLOOR_PENALTIES)
        original(game, move)
        if stays and game.phase == OFFER:
            game.marker = IN_CENTRE
    return take


def _marker_bumps_tile(original):
    def take(game, move):
        board = game.boards[game.turn]
        bumps = _marker_due(game, move) and len(board.floor) >= len(FLOOR_PENALTIES) and board.floor[-1] != MARKER
        original(game, move)
        if bumps and game.phase == OFFER:
            game.lid[board.floor[-1]] += 1
            board.floor[-1] = MARKER
    return take


def _marker_after_tiles(original):
    def take(game, move):
        board = game.boards[game.turn]
        due = _marker_due(game, move)
        original(game, move)
        if due and MARKER in board.floor:
            board.floor.remove(MARKER)
            board.floor.append(MARKER)
    return take


def _last_space_value(original):
    return lambda board: FLOOR_PENALTIES[len(board.floor) - 1] if board.floor else 0


def _cleared_before_penalties(original):
    def clear_floor(board, lid):
        floor, board.floor = board.floor, []  # emptied first: nothing is left to charge
        original(board, lid)
        for tile in floor:
            if tile != MARKER:
                lid[tile] += 1
    return clear_floor


def _floor_charged_kept(original):
    def clear_floor(board, lid):
        kept = board.floor[:]
        original(board, lid)
        for tile in kept:  # charged now, but the tiles wait on the floor for the next deal
            if tile != MARKER:
                lid[tile] -= 1
        board.floor = kept
    return clear_floor


def _floor_cleared_at_the_deal(original):
    def deal(game, *args, **kwargs):
        if game.phase == DEAL:
            for board in game.boards:
                for tile in board.floor:
                    if tile != MARKER:
                        game.lid[tile] += 1
                board.floor = []
        original(game, *args, **kwargs)
    return deal


def _latest_first(original):
    def to_floor(board, tile, count, lid):
        earlier, board.floor = board.floor, []
        original(board, tile, count, lid)  # the take's tiles from the left; the earlier ones pushed right
        for each in earlier:
            if len(board.floor) < len(FLOOR_PENALTIES):
                board.floor.append(each)
            elif each == MARKER:  # the marker is never pushed off: the last tile makes way for it
                lid[board.floor[-1]] += 1
                board.floor[-1] = MARKER
            else:
                lid[each] += 1
    return to_floor


def _overflow_to_bag(original):
    def take(game, move):
        lid = game.lid[:]
        original(game, move)
        for colour in range(5):  # what the take added to the lid went into the bag instead
            extra = game.lid[colour] - lid[colour]
            if extra > 0 and game.phase == OFFER:
                game.lid[colour] -= extra
                game.bag[colour] += extra
    return take



def _marker_takes_no_space(original):
    def to_floor(board, tile, count, lid):
        place = board.floor.index(MARKER) if MARKER in board.floor else None
        if place is not None:
            board.floor.remove(MARKER)
        original(board, tile, count, lid)
        if place is not None:  # back in its place: seven tiles fit whether or not it is there
            board.floor.insert(place, MARKER)
    return to_floor

def _one_space_short_charged(board) -> int:
    return sum(FLOOR_PENALTIES[:max(len(board.floor) - 1, 0)])  # the slice stops one space short


# -- wall tiling -----------------------------------------------------------------------------------------------

def _lid_change(extra: Callable[[int], int]):
    def make(original):
        def tile_line(board, line, column, lid):
            colour = board.line_colour[line]
            original(board, line, column, lid)
            lid[colour] += extra(line)
        return tile_line
    return make


def _tiled_when_complete(original):
    def place_on_line(board, line, colour, count, lid):
        original(board, line, colour, count, lid)
        if board.line_count[line] == line + 1 and board.wall[line][wall_column(line, colour)] == EMPTY:
            board.tile_line(line, wall_column(line, colour), lid)
    return place_on_line


def _bottom_to_top(original):
    def tile_coloured_wall(board, lid):
        for line in reversed(range(5)):
            if board.line_count[line] == line + 1:
                board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
    return tile_coloured_wall


def _incomplete(leave: Callable[[Any, int, int, Any], None]):
    """After the tiling, each line still holding tiles is emptied: `leave(board, colour, count, lid)` says where
    its tiles go (the lid, the floor before it is charged, nowhere)."""
    def patch(original):
        def tile_coloured_wall(board, lid):
            original(board, lid)
            for line in range(5):
                if board.line_count[line]:
                    leave(board, board.line_colour[line], board.line_count[line], lid)
                    board.line_colour[line], board.line_count[line] = EMPTY, 0
                    board.reopen(line)
        return tile_coloured_wall
    return patch


def _to_lid(board, colour: int, count: int, lid) -> None:
    lid[colour] += count


def _to_floor(board, colour: int, count: int, lid) -> None:
    board.to_floor(colour, count, lid)  # before the floor is charged, so they cost points


def _lost(board, colour: int, count: int, lid) -> None:
    pass


def _line_not_emptied(original):
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        if line:  # the rest stays on the line: only the tile that went to the wall left it
            lid[colour] -= line
            board.line_colour[line], board.line_count[line] = colour, line
            board.reopen(line)
    return tile_line


def _one_short_complete(board, line: int) -> bool:
    """A line counts as complete at `line` tiles, its number less one (line 1: as soon as it holds a tile)."""
    return board.line_colour[line] != EMPTY and board.line_count[line] >= max(line, 1)


def _tile_lines_taken_for_complete(original):
    def tile_coloured_wall(board, lid):
        for line in range(5):
            if board.line_complete(line):
                board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
    return tile_coloured_wall


def _rest_of_what_the_line_holds(original):
    def tile_line(board, line, column, lid):
        colour, held = board.line_colour[line], board.line_count[line]
        original(board, line, column, lid)
        lid[colour] += held - 1 - line  # the rest of what the line held, not of a full line
    return tile_line


def _line_colour_kept(original):
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        board.line_colour[line] = colour  # emptied, but its colour never reset
        board.reopen(line)
    return tile_line


# -- the factory offer -----------------------------------------------------------------------------------------

def _accepts(rule: Callable[[Any, int, int], int]):
    """A new Board.colours_accepted; rule(board, line, the original answer) -> the bit set of colours."""
    return lambda original: lambda board, line: rule(board, line, original(board, line))


def _one_line_per_colour(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    elsewhere = sum(1 << colour for colour in set(board.line_colour) if colour != EMPTY)
    return accepted & ~elsewhere


def _fits_a_column(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    fits = 0
    for column in range(WALL_SIZE):
        if board.wall[line][column] == EMPTY:
            fits |= ~board.column_colours[column] & ALL_COLOURS
    return accepted & fits


def _reopen_every_line(original):
    """A line's answer now depends on the other lines or the wall's columns: refresh every line's cache."""
    def reopen(board, line):
        for each in range(5):
            original(board, each)
    return reopen


def _floor_only_for_overflow(original):
    def legal_takes(game):
        moves = original(game)
        to_lines = {(m.source, m.colour) for m in moves if m.line != FLOOR}
        return [m for m in moves if m.line != FLOOR or (m.source, m.colour) not in to_lines]
    return legal_takes


def _overflow_to_lid(original):
    def place_on_line(board, line, colour, count, lid):
        room = line + 1 - board.line_count[line]
        fits = min(count, room)
        original(board, line, colour, fits, lid)
        lid[colour] += count - fits
    return place_on_line


def _rest_stays(original):
    def take(game, move):
        factory = None if move.source == CENTRE else game.factories[move.source - 1][:]
        original(game, move)
        if factory is not None and game.phase == OFFER:
            factory[move.colour] = 0
            for colour, count in enumerate(factory):
                game.centre[colour] -= count
            game.factories[move.source - 1] = factory
    return take


def _counterclockwise(original):
    def take(game, move):
        seat = game.turn
        original(game, move)
        if game.phase == OFFER:
            game.turn = (seat - 1) % game.players
    return take


def _seat_0_opens(original):
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.turn = 0
    return deal


def _empty_take_passes(original):
    def take(game, move):
        if move.source <= len(game.factories):
            tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
            if not tiles[move.colour]:
                game.turn = (game.turn + 1) % game.players
                return
        original(game, move)
    return take


def _refuse_unlisted(rule: str, noun: str = "takes", phase: str | None = OFFER):
    """For a mutant that lists fewer moves (a patched listing, Board.colours_accepted or Board.free_columns): the
    patched Game._take (or, with noun "placements" and no phase, Game._place) refuses what the mutant does not list,
    as an engine reading the rule that way would (the reference's own check explains only the rulebooks'
    refusals). A move the rules refuse anyway is refused as the rules say."""
    def make(original):
        def act(game, move):
            if (phase is None or game.phase == phase) and str(move) not in {str(m) for m in game.legal_moves()}:
                original(game.copy(), move)  # raises when the rules themselves refuse it
                raise IllegalMove(f"{move}: not among the legal {noun}", rule=rule)
            original(game, move)
        return act
    return make


def _phase_unchecked(original):
    def play(game, move):
        move = parse_move(move) if isinstance(move, str) else move
        if isinstance(move, Take) and game.phase in (DEAL, OVER):  # no phase check: an empty table refuses it
            return game._take(move)
        if not isinstance(move, Take) and game.phase != TILING:  # a placement meets whatever line is complete
            return game._place(move)
        return original(game, move)
    return play


def _marker_to_each_centre_taker(original):
    def take(game, move):
        holder, seat = game.marker, game.turn
        original(game, move)
        if move.source == CENTRE and holder not in (IN_CENTRE, seat) and game.phase == OFFER:
            game.boards[holder].floor.remove(MARKER)
            game.boards[seat].floor.insert(0, MARKER)
            game.marker = seat
    return take


def _line_overwritten(original):
    def place_on_line(board, line, colour, count, lid):
        board.line_count[line] = 0
        original(board, line, colour, count, lid)
    return place_on_line


def _marker_left_in_centre(original):
    def take(game, move):
        before = game.marker
        original(game, move)
        if before == IN_CENTRE and game.marker != IN_CENTRE and game.phase == OFFER:
            _marker_back_to_centre(game, game.marker)
    return take


def _marker_back_to_centre(game, seat: int) -> None:
    """The marker `seat` has just taken put back in the centre: off its floor, where it lies unless the floor
    was full (FLOOR-5: then it took no space)."""
    floor = game.boards[seat].floor
    if MARKER in floor:
        floor.remove(MARKER)
    game.marker = IN_CENTRE


def _offer_ends_with_factories(original):
    def take(game, move):
        original(game, move)
        if game.phase == OFFER and not any(map(any, game.factories)):
            for colour in range(5):  # what is left in the centre is cleared away with the table
                game.lid[colour] += game.centre[colour]
                game.centre[colour] = 0
            game.on_offer = 0
            game._end_offer()
    return take


def _listed_for_seat_0(original):
    def legal_takes(game):
        turn, game.turn = game.turn, 0
        try:
            return original(game)
        finally:
            game.turn = turn
    return legal_takes


def _empty_takes_listed(original):
    def legal_takes(game):
        moves = original(game)
        for source, tiles in enumerate([game.centre, *game.factories]):
            for colour in range(5):
                if not tiles[colour]:
                    moves += TAKES[source][colour][1:] + [TAKES[source][colour][FLOOR]]
        return moves
    return legal_takes


def _empty_take_empties_source(original):
    def take(game, move):
        if move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        if tiles[move.colour]:
            return original(game, move)
        if move.source == CENTRE:  # no tile, but the marker all the same
            if game.marker == IN_CENTRE:
                game.marker = game.turn
                game.boards[game.turn].take_marker()
        else:  # no tile, but the rest of the factory goes to the centre
            for colour in range(5):
                game.centre[colour] += tiles[colour]
            tiles[:] = [0] * 5
        game.turn = (game.turn + 1) % game.players
    return take


def _marker_first_round_only(original):
    def take(game, move):
        if game.round == 1 or move.source != CENTRE or game.marker != IN_CENTRE:
            return original(game, move)
        seat = game.turn
        original(game, move)
        if game.marker == seat and game.phase == OFFER:  # the marker taken: undo it
            _marker_back_to_centre(game, seat)
    return take


def _to_the_lid(game, tiles: list[int]) -> None:
    """Tiles that left the table for the lid during the offer; the offer ends if the table is now bare."""
    for colour, count in enumerate(tiles):
        game.centre[colour] -= count
        game.lid[colour] += count
    game.on_offer -= sum(tiles)
    if game.phase == OFFER and game.on_offer == 0:
        game._end_offer()


def _rest_to_lid(original):
    def take(game, move):
        rest = None
        if 0 < move.source <= len(game.factories) and game.phase == OFFER:
            rest = game.factories[move.source - 1][:]
            rest[move.colour] = 0
        original(game, move)
        if rest is not None and game.phase == OFFER:
            _to_the_lid(game, rest)
    return take


def _centre_rest_to_lid(original):
    def take(game, move):
        original(game, move)
        if move.source == CENTRE and game.phase == OFFER:
            _to_the_lid(game, game.centre[:])
    return take


def _one_tile_taken(original):
    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        count = tiles[move.colour]
        if count < 2:
            return original(game, move)
        tiles[move.colour] = 1
        try:
            original(game, move)
        except Exception:
            tiles[move.colour] = count
            raise
        game.centre[move.colour] += count - 1  # the others of the colour: to the centre with the rest, or left there
    return take


def _room(board, line: int) -> int:
    return line + 1 - board.line_count[line]


def _tiles_of(game, move) -> int:
    return (game.centre if move.source == CENTRE else game.factories[move.source - 1])[move.colour]


def _only_what_fits(original):
    def legal_takes(game):
        board = game.boards[game.turn]
        return [m for m in original(game) if m.line == FLOOR or _tiles_of(game, m) <= _room(board, m.line - 1)]
    return legal_takes


def _whole_take_to_floor(original):
    def place_on_line(board, line, colour, count, lid):
        if count > _room(board, line):
            board.to_floor(colour, count, lid)
            return
        original(board, line, colour, count, lid)
    return place_on_line


def _overflow_to_next_line(original):
    def place_on_line(board, line, colour, count, lid):
        rest = count - _room(board, line)
        if rest <= 0 or line == 4 or not board.accepts(line + 1, colour):
            return original(board, line, colour, count, lid)
        original(board, line, colour, count - rest, lid)
        place_on_line(board, line + 1, colour, rest, lid)
    return place_on_line


def _other_colour_to_floor(original):
    def place_on_line(board, line, colour, count, lid):
        held = board.line_colour[line]
        if held != EMPTY and held != colour:
            board.to_floor(colour, count, lid)
            return
        original(board, line, colour, count, lid)
    return place_on_line


def _any_colour_on_a_started_line(board, line, accepted):
    if board.line_colour[line] == EMPTY or board.line_complete(line):
        return accepted
    return accepted | (~board.row_colours[line] & ALL_COLOURS)


def _row_above(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    return ~(board.row_colours[line - 1] if line else 0) & ALL_COLOURS


def _anywhere_on_the_wall(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    on_wall = 0
    for colours in board.row_colours:
        on_wall |= colours
    return accepted & ~on_wall


def _last_space_refused(board, line, accepted):
    if board.line_colour[line] != EMPTY and board.line_count[line] == line:
        return 0
    return accepted


def _marker_first_box(original):
    def take(game, move):
        board = game.boards[game.turn]
        due = _marker_due(game, move) and game.phase == OFFER
        original(game, move)
        if due and game.marker != IN_CENTRE:
            tiles = [tile for tile in board.floor if tile != MARKER]
            board.floor = [MARKER] + tiles  # always the first box: the tiles move right, the last off to the lid
            while len(board.floor) > len(FLOOR_PENALTIES):
                game.lid[board.floor.pop()] += 1
    return take


def _turns_run_on(original):
    """The turn passes on across rounds: the seat after the round's last taker opens the next offer."""
    def take(game, move):
        seat = game.turn
        original(game, move)
        if game.phase == DEAL:
            game.turn = (seat + 1) % game.players
    return take


def _turn_kept_at_the_deal(original):
    def deal(game, *args, **kwargs):
        turn = game.turn
        original(game, *args, **kwargs)
        game.turn = turn
    return deal



def _ends_when_centre_empties(original):
    def take(game, move):
        original(game, move)
        if move.source == CENTRE and game.phase == OFFER and not any(game.centre):
            for factory in game.factories:  # the factories' tiles are cleared away with the table
                for colour in range(5):
                    game.lid[colour] += factory[colour]
                    factory[colour] = 0
            game.on_offer = 0
            game._end_offer()
    return take


def _other_colour_replaces(original):
    def place_on_line(board, line, colour, count, lid):
        held = board.line_colour[line]
        if held != EMPTY and held != colour:  # the tiles there make way for the new colour
            lid[held] += board.line_count[line]
            board.line_colour[line], board.line_count[line] = EMPTY, 0
        original(board, line, colour, count, lid)
    return place_on_line


def _listed_for_start_player(original):
    def legal_takes(game):
        turn, game.turn = game.turn, game.start_player
        try:
            return original(game)
        finally:
            game.turn = turn
    return legal_takes


def _listed_for_previous_seat(original):
    def legal_takes(game):
        turn, game.turn = game.turn, (game.turn - 1) % game.players  # the list made before the turn moved on
        try:
            return original(game)
        finally:
            game.turn = turn
    return legal_takes


def _row_below(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    return ~(board.row_colours[line + 1] if line < WALL_SIZE - 1 else 0) & ALL_COLOURS


def _printed_space_free(board, line, accepted):
    if board.line_colour[line] != EMPTY:
        return accepted
    row = board.wall[line]
    return sum(1 << colour for colour in range(5) if row[wall_column(line, colour)] == EMPTY)


def _factory_pushed_to_centre_first(original):
    def take(game, move):
        if game.phase != OFFER or not 0 < move.source <= len(game.factories):
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse the take itself
        factory = game.factories[move.source - 1]
        for colour in range(5):  # the whole factory into the centre, then the colour taken from there
            game.centre[colour] += factory[colour]
        factory[:] = [0] * 5
        original(game, Take(CENTRE, move.colour, move.line))
    return take


def _marker_with_first_take(original):
    def take(game, move):
        if game.phase != OFFER or game.marker != IN_CENTRE or move.source == CENTRE \
                or move.source > len(game.factories):
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse the take itself
        game.marker = game.turn  # the marker is still in the centre: whoever takes first takes it
        game.boards[game.turn].take_marker()
        original(game, move)
    return take


def _marker_to_the_next_seat(original):
    def take(game, move):
        seat, before = game.turn, game.marker
        original(game, move)
        if before == IN_CENTRE and game.marker == seat and move.source == CENTRE:
            following = (seat + 1) % game.players  # the turn already passed when the marker is handed over
            if MARKER in game.boards[seat].floor:
                game.boards[seat].floor.remove(MARKER)
                game.boards[following].take_marker()
            game.marker = following
    return take


def _wrap_to_start_player(original):
    def take(game, move):
        seat = game.turn
        original(game, move)
        if game.phase == OFFER and seat == game.players - 1:
            game.turn = game.start_player  # past the last seat, back to whoever opened the offer
    return take


# An engine whose move list follows a rule but whose apply does not check it (an AI trusting its own generator, a
# GUI that checks elsewhere): the listing is the reference's, the played move is accepted and applied as such an
# engine applies it. The reference refuses a take a line does not accept in Game._check_line, called only for a
# line its open_lines refuses; without the check, Board.place_on_line overwrites the line's colour and adds the
# tiles, what exceeds the line's room (all of them on a full line) going to the floor.

def _line_refusals(board, line: int, colour: int) -> dict[str, bool]:
    """Which of the rules that close a pattern line to a colour refuse `colour` on `line`, each on its own."""
    held = board.line_colour[line]
    return {"OFFER-8": held != EMPTY and held != colour, "OFFER-9": bool(board.row_colours[line] >> colour & 1),
            "OFFER-12": board.line_complete(line)}


def _line_check_without(rule: str):
    """Game._check_line of an engine whose check of a played take leaves out `rule`: the other rules still refuse
    the take (each checked on its own, as such an engine writes them), else it is accepted."""
    def make(original):
        def check_line(move, board, line, colour):
            for name, refused in _line_refusals(board, line, colour).items():
                if refused and name != rule:
                    raise IllegalMove(f"{move}: pattern line {line + 1} refuses it", rule=name)
        return staticmethod(check_line)
    return make


def _marker_never_on_floor(original):
    return lambda board: None  # the holder is recorded (Game.marker); nothing is put on the floor line


# -- the next round --------------------------------------------------------------------------------------------

def _next_start(choose: Callable[[Any, int, int], int]):
    """choose(game, marker holder or IN_CENTRE, the start player that was) -> the next round's start player."""
    def make(original):
        def end_round(game):
            holder, was = game.marker, game.start_player
            original(game)
            if game.phase == DEAL:
                game.start_player = game.turn = choose(game, holder, was)
        return end_round
    return make


def _round_not_counted(original):
    def end_round(game):
        was = game.round
        original(game)
        game.round = was
    return end_round


def _empty_deal_deals_on(original):
    def end_round(game):
        if any(board.complete_rows() for board in game.boards) or any(game.bag) or any(game.lid):
            return original(game)
        game.round += 1  # the next round prepared as ever, though the deal will find nothing
        if game.marker != IN_CENTRE:
            game.start_player = game.marker
        game.marker, game.phase, game.turn = IN_CENTRE, DEAL, game.start_player
    return end_round


def _start_after_last_take(choose: Callable[[Any, int, bool], int]):
    """choose(game, the seat that made the round's last take, whether nobody took the marker) -> the next round's
    start player, or None for the rules' own; read in Game._take, where the last take ends the round (on the
    coloured wall: on the grey wall the round ends with a placement, and these readings do not apply)."""
    def make(original):
        def take(game, move):
            seat = game.turn
            unclaimed = game.marker == IN_CENTRE and move.source != CENTRE
            original(game, move)
            if game.phase == DEAL:
                start = choose(game, seat, unclaimed)
                if start is not None:
                    game.start_player = game.turn = start
        return take
    return make


def _unclaimed_marker_to_floor(seat_of: Callable[[Any], int]):
    """Nobody took from the centre: before the tiling the marker is handed to seat_of(game) (game.turn is still
    the round's last taker), who puts it on the floor line, pays for it in the tiling and starts the next round."""
    def make(original):
        def end_offer(game):
            if game.marker == IN_CENTRE:
                seat = seat_of(game)
                game.marker = seat
                game.boards[seat].take_marker()
            original(game)
        return end_offer
    return make


def _round_0_at_set_up(original):
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.round = 0  # no round before the first deal
    return init


def _round_counted_at_the_deal(original):
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.round += 1  # the deal opens a round, so it moves the counter
    return deal


def _round_counted_before_end_check(original):
    def end_round(game):
        was = game.round
        original(game)
        if game.phase == OVER:
            game.round = was + 1  # the counter moves as the tiling ends, before the end is checked
    return end_round


def _dealer_passes_first_turn(original):
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        if game.round > 1:  # the marker holder dealt; the player on the dealer's left leads
            game.turn = (game.start_player + 1) % game.players
    return deal


def _seat_before_holder(game, holder: int, was: int) -> int:
    return was if holder == IN_CENTRE else (holder - 1) % game.players


def _marker_kept_by_holder(original):
    def end_round(game):
        holder = game.marker
        original(game)
        if game.phase == DEAL and holder != IN_CENTRE:
            game.marker = holder  # never put back in the centre, so no later take from the centre claims it
    return end_round


# -- the end of the game ---------------------------------------------------------------------------------------

@contextmanager
def _rows_hidden(game) -> Iterator[None]:
    """Hide every complete wall row from Game._end_round's END-1 check (the rest of the round's end stays)."""
    rows = [board.row_colours for board in game.boards]
    for board in game.boards:
        board.row_colours = [0] * WALL_SIZE
    try:
        yield
    finally:
        for board, kept in zip(game.boards, rows):
            board.row_colours = kept


def _column_ends_game(rows_too: bool = False):
    def make(original):
        def end_round(game):
            if any(board.complete_columns() for board in game.boards):
                game._end_game()
            elif rows_too:
                original(game)
            else:
                with _rows_hidden(game):
                    original(game)
        return end_round
    return make


def _tile_and_charge(board, lid) -> None:
    board.tile_coloured_wall(lid)
    board.clear_floor(lid)


def _end_decided_before_tiling(ends: Callable[[Any], bool]):
    """On the coloured wall: whether the game ends is decided by `ends(game)` as the offer ends, before the walls
    are tiled; the tiling and floors follow as ever, then the game ends or the next round comes, whatever rows
    the tiling completed."""
    def make(original):
        def end_offer(game):
            if game.grey:
                return original(game)
            ended = ends(game)
            for board in game.boards:
                _tile_and_charge(board, game.lid)
            if ended:
                game._end_game()
            else:
                with _rows_hidden(game):
                    game._end_round()
        return end_offer
    return make


def _any_complete_row(game) -> bool:
    return any(board.complete_rows() for board in game.boards)


def _ends_with_the_first_row(original):
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:  # seat by seat; the boards after the first complete row are never tiled
            _tile_and_charge(board, game.lid)
            if board.complete_rows():
                break
        game._end_round()
    return end_offer


def _ends_at_the_fifth_tile(original):
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            for line in range(5):
                if board.line_complete(line):
                    board.tile_line(line, wall_column(line, board.line_colour[line]), game.lid)
                    if board.complete_rows():  # play stops at this placement: nothing more tiled, no floor
                        game._end_game()
                        return
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


def _ends_before_the_floor(original):
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            board.tile_coloured_wall(game.lid)
        if _any_complete_row(game):
            game._end_game()  # the floors are left as they are, uncharged
            return
        for board in game.boards:
            board.clear_floor(game.lid)
        game._end_round()
    return end_offer


def _bonuses_before_the_floor(original):
    def end_offer(game):
        if game.grey:
            return original(game)
        for board in game.boards:
            board.tile_coloured_wall(game.lid)
        ended = _any_complete_row(game)
        for board in game.boards:
            bonus = board.end_bonus() if ended else 0
            board.score += bonus  # the floor is charged (and clamped at 0) on the score with its bonus in,
            board.clear_floor(game.lid)
            board.score -= bonus  # taken out again only for Game._end_game to add back
        game._end_round()
    return end_offer


def _round_counted_at_the_end(original):
    def end_round(game):
        was = game.round
        original(game)
        if game.phase == OVER:
            game.round = was + 1
    return end_round


def _empty_deal_ends_unscored(original):
    def end_round(game):
        if _any_complete_row(game) or any(game.bag) or any(game.lid):
            return original(game)
        game.winners = _top([(board.score, board.complete_rows()) for board in game.boards])
        game.phase = OVER
    return end_round


def _printed_spaces_filled(board) -> int:
    """Colours whose five spaces of the coloured wall's layout are all filled, whatever tiles fill them."""
    return sum(all(board.wall[row][wall_column(row, colour)] != EMPTY for row in range(WALL_SIZE))
               for colour in range(5))


def _winner_before_bonuses(original):
    def end_game(game):
        ranks = [(board.score, board.complete_rows()) for board in game.boards]
        original(game)
        game.winners = _top(ranks)
    return end_game


def _empty_bag_ends_game(original):
    def end_round(game):
        if not any(game.bag):
            game._end_game()
            return
        original(game)
    return end_round


def _winners(choose: Callable[[list[tuple[int, Any]]], list[int]],
             tie_break: Callable[[Any], Any] = lambda board: board.complete_rows()):
    """choose(each seat's (score, tie_break(board))) -> the winners; by default the tie-break is the rows."""
    def make(original):
        def end_game(game):
            original(game)
            game.winners = choose([(board.score, tie_break(board)) for board in game.boards])
        return end_game
    return make


def on_rows(board, colour: int) -> int:
    """How many wall rows hold `colour`."""
    return sum(mask >> colour & 1 for mask in board.row_colours)


def _rows_before_points(ranks):
    return _top([(rows, score) for score, rows in ranks])


def _rows_of_everybody(ranks):
    top = max(score for score, _ in ranks)
    most_rows = max(rows for _, rows in ranks)
    best = [seat for seat, (score, rows) in enumerate(ranks) if score == top and rows == most_rows]
    return best or [seat for seat, (score, _) in enumerate(ranks) if score == top]


def _first_top_score(ranks):
    top = max(score for score, _ in ranks)
    return [next(seat for seat, (score, _) in enumerate(ranks) if score == top)]


def _most_rows_of_all_on_a_tie(ranks):
    top = max(score for score, _ in ranks)
    tied = [seat for seat, (score, _) in enumerate(ranks) if score == top]
    if len(tied) == 1:
        return tied
    most_rows = max(rows for _, rows in ranks)
    return [seat for seat, (_, rows) in enumerate(ranks) if rows == most_rows]


def _top(ranks):
    best = max(ranks)
    return [seat for seat, rank in enumerate(ranks) if rank == best]


def _tied_on_points(ranks) -> list[int]:
    top = max(score for score, _ in ranks)
    return [seat for seat, (score, _) in enumerate(ranks) if score == top]


def _tie_break_for_two(ranks):
    tied = _tied_on_points(ranks)
    return _top(ranks) if len(tied) == 2 else tied


def _first_two_tied_compared(ranks):
    first, second = (_tied_on_points(ranks) + [None])[:2]
    if second is None:
        return [first]
    most = max(ranks[first][1], ranks[second][1])
    return [seat for seat in (first, second) if ranks[seat][1] == most]


def _wall_row_tiles(board) -> list[int]:
    return [sum(cell != EMPTY for cell in row) for row in board.wall]


def _row_of_four_ends_game(original):
    def end_round(game):
        if any(tiles >= WALL_SIZE - 1 for board in game.boards for tiles in _wall_row_tiles(board)):
            return game._end_game()
        original(game)
    return end_round


def _last_board_decides(original):
    def end_round(game):
        if game.boards[-1].complete_rows():  # each board's answer overwrites the one before
            return game._end_game()
        with _rows_hidden(game):
            original(game)
    return end_round


def _row_bonus_at_four(board) -> int:
    rows = sum(tiles >= WALL_SIZE - 1 for tiles in _wall_row_tiles(board))
    return 2 * rows + 7 * board.complete_columns() + 10 * board.complete_colours()


def _bonuses_every_round(original):
    def end_round(game):
        ending = any(board.complete_rows() for board in game.boards) or not (any(game.bag) or any(game.lid))
        if not ending:  # the last round's bonuses come with the end of the game, as ever
            for board in game.boards:
                board.score += board.end_bonus()
        original(game)
    return end_round


# -- the deal --------------------------------------------------------------------------------------------------

def _pour(game) -> None:
    """DEAL-2's refill: every tile of the lid into the bag."""
    game.bag, game.lid = [b + t for b, t in zip(game.bag, game.lid)], [0] * 5


def _lid_in_bag_when_loaded(original):
    def build(document):
        game = original(document)
        _pour(game)  # an engine with no lid keeps a position's lid tiles in its bag
        return game
    return build


def _lid_hidden(original):
    def draw(game, *args):
        lid, game.lid = game.lid, [0] * 5
        try:
            original(game, *args)
        finally:
            game.lid = lid
    return draw


def _refused_unchanged_from(game, bag: list[int], lid: list[int], original, *args) -> None:
    """`original` (a draw or a given deal) once the misreading has moved tiles between the bag and the lid: a
    deal it refuses leaves them as they were before, `bag` and `lid` (a refused request changes nothing)."""
    try:
        original(game, *args)
    except Exception:
        game.bag, game.lid = bag, lid
        raise


def _pour_early(original):
    def draw(game, *args):  # a random draw (rng) or a given deal (the factories)
        bag, lid = game.bag[:], game.lid[:]
        _pour(game)
        _refused_unchanged_from(game, bag, lid, original, *args)
    return draw


def _lid_copied(original):
    def draw(game, *args):
        if sum(game.bag) >= 4 * len(game.factories):
            return original(game, *args)
        bag, lid = game.bag[:], game.lid[:]
        game.bag = [b + t for b, t in zip(bag, lid)]
        _refused_unchanged_from(game, bag, lid, original, *args)
    return draw


def _poured_when_short(original):
    """The lid poured into the bag before a deal the bag cannot fill alone; the mix is drawn from."""
    early = _pour_early(original)

    def draw(game, *args):
        if sum(game.bag) >= TILES_PER_FACTORY * len(game.factories):
            return original(game, *args)
        early(game, *args)
    return draw


def _every_other_tile(counts: list[int]) -> list[int]:
    """The tiles at the even places of `counts` laid out one by one, colour after colour: what a loop that moves
    each tile out of the list it walks over moves."""
    taken, place = [0] * 5, 0
    for colour, count in enumerate(counts):
        taken[colour] = (count + 1 - place % 2) // 2
        place += count
    return taken


def _half_lid_poured(original):
    """The refill moves every other tile of the lid into the bag; the rest stays in the lid, out of this deal."""
    def draw(game, *args):
        if sum(game.bag) >= TILES_PER_FACTORY * len(game.factories) or not any(game.lid):
            return original(game, *args)
        poured = _every_other_tile(game.lid)
        kept = [lid - p for lid, p in zip(game.lid, poured)]
        game.lid = poured
        try:
            original(game, *args)
        finally:
            game.lid = [lid + k for lid, k in zip(game.lid, kept)]
    return draw


def _poured_per_factory_draw(short: int):
    """The lid poured in only between factories, before a factory when the bag holds fewer than `short` tiles;
    the factory is then drawn from the bag as it stands (left short if the bag runs out within it)."""
    def make(original):
        def draw(game, rng):
            for factory in game.factories:
                if sum(game.bag) < short:  # the whole lid in before the factory, then drawn from the mix
                    _pour(game)
                for _ in range(min(TILES_PER_FACTORY, sum(game.bag))):
                    pick = rng.randrange(sum(game.bag))
                    colour = next(c for c in range(5) if pick < sum(game.bag[:c + 1]))
                    game.bag[colour] -= 1
                    factory[colour] += 1
        return draw
    return make


def _poured_per_factory_given(short: int):
    return lambda original: lambda game, wanted: _given_per_factory(game, wanted, short)


def _given_per_factory(game, wanted, short: int) -> None:
    """A given deal checked factory by factory against the bag as _poured_per_factory_draw(short) leaves it."""
    bag, lid = game.bag[:], game.lid[:]
    for index, factory in enumerate(wanted):
        if sum(bag) < short:
            bag, lid = [b + l for b, l in zip(bag, lid)], [0] * 5
        if sum(factory) != min(TILES_PER_FACTORY, sum(bag)):
            raise IllegalDeal(f"factory {index + 1} holds {sum(factory)} tiles, not "
                              f"{min(TILES_PER_FACTORY, sum(bag))}", rule="DEAL-3" if sum(bag) < 4 else
                              "DEAL-1")
        if any(f > b for f, b in zip(factory, bag)):
            raise IllegalDeal(f"factory {index + 1}: the bag cannot give it", rule="DEAL-1")
        bag = [b - f for b, f in zip(bag, factory)]
    game.bag, game.lid, game.factories = bag, lid, wanted


def _partial_factory_back(original):
    def draw(game, *args):
        original(game, *args)
        for factory in game.factories:
            if 0 < sum(factory) < 4:
                for colour in range(5):
                    game.bag[colour] += factory[colour]
                    factory[colour] = 0
    return draw


def _tiles_stay_in_bag(original):
    def draw(game, *args):
        original(game, *args)
        for factory in game.factories:
            for colour in range(5):
                game.bag[colour] += factory[colour]
    return draw


def _deal_unchecked(original):
    def deal_given(game, wanted):
        dealt = [sum(column) for column in zip(*wanted)]
        if sum(dealt) > sum(game.bag):  # the lid poured in when the deal needs it, nothing else checked
            _pour(game)
        game.bag = [max(0, b - d) for b, d in zip(game.bag, dealt)]
        game.factories = wanted
    return deal_given


def _deal_any_time(original):
    def deal(game, *args, **kwargs):
        if game.phase == OFFER:
            game.phase = DEAL
        original(game, *args, **kwargs)
    return deal


def _short_deal_ends_game(original):
    def end_round(game):
        left = sum(game.bag) + sum(game.lid)
        if 0 < left < TILES_PER_FACTORY * len(game.factories) and not any(b.complete_rows() for b in game.boards):
            game._end_game()  # no round with factories short of tiles
            return
        original(game)
    return end_round


def _dealt_at_new_game(original):
    def init(game, players=2, variant="colour", start_player=0):
        original(game, players, variant, start_player)
        if players in FACTORIES_BY_PLAYERS:
            game.deal(rng=random.Random(0))  # the first round's deal comes with the new game
    return init



def _round_robin(counts: list[int], sizes: int) -> list[int]:
    """How many tiles each of `sizes` factories gets when `counts` tiles are dealt one a factory in turn."""
    return [counts // sizes + (index < counts % sizes) for index in range(sizes)]


def _short_round_robin_draw(original):
    def draw(game, rng):
        tiles = sum(game.bag) + sum(game.lid)
        if tiles >= TILES_PER_FACTORY * len(game.factories):
            return original(game, rng)
        _pour(game)
        for index, size in enumerate(_round_robin(tiles, len(game.factories))):  # a tile a factory in turn
            for _ in range(size):
                pick = rng.randrange(sum(game.bag))
                colour = next(c for c in range(5) if pick < sum(game.bag[:c + 1]))
                game.bag[colour] -= 1
                game.factories[index][colour] += 1
    return draw


def _short_given(fits: Callable[[list[int], int], bool], how: str):
    """A given deal when bag and lid together cannot fill every factory: all their tiles, on factories whose sizes
    `fits(sizes, tiles)` allows (`how` says so in the refusal)."""
    def make(original):
        def deal_given(game, wanted):
            pool = [b + l for b, l in zip(game.bag, game.lid)]
            if sum(pool) >= TILES_PER_FACTORY * len(game.factories):
                return original(game, wanted)
            if not fits([sum(f) for f in wanted], sum(pool)) or [sum(col) for col in zip(*wanted)] != pool:
                raise IllegalDeal(f"out of tiles, the {sum(pool)} tiles of bag and lid are dealt {how}",
                                  rule="DEAL-3")
            game.bag, game.lid, game.factories = [0] * 5, [0] * 5, wanted
        return deal_given
    return make


def _poured_at_round_end(when: Callable[[Any], bool]):
    """The lid poured into the bag as the next round is prepared, when `when(game)` holds there."""
    def make(original):
        def end_round(game):
            original(game)
            if game.phase == DEAL and when(game):
                _pour(game)
        return end_round
    return make


def _poured_before_an_empty_bag(original):
    """The lid poured in before the deal only if the bag is empty then; a bag that runs out later is not refilled."""
    early, hidden = _pour_early(original), _lid_hidden(original)

    def draw(game, *args):
        (hidden if any(game.bag) else early)(game, *args)
    return draw


def _poured_after_the_deal(original):
    hidden = _lid_hidden(original)

    def draw(game, *args):
        hidden(game, *args)
        if not any(game.bag):  # the bag ran out: refilled for the next deal
            _pour(game)
    return draw

def _bag_refilled_every_round(original):
    def end_round(game):
        original(game)
        if game.phase == DEAL:  # a new round, a new bag: the 100 tiles again, the lid's set aside
            game.bag = [TILES_PER_COLOUR] * 5
            game.lid = [0] * 5
    return end_round


def _first_turn_left_of_start(original):
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        if game.round == 1:  # the chosen start player deals the first round; the player on their left leads
            game.turn = (game.start_player + 1) % game.players
    return deal


# -- the grey wall ---------------------------------------------------------------------------------------------

def _any_free_column(original):
    return lambda board, line: [column for column in range(WALL_SIZE) if board.wall[line][column] == EMPTY]


def _columns_unchecked(original):
    def place(game, move):
        board = game.boards[game.turn]
        kept, board.column_colours = board.column_colours, [0] * WALL_SIZE
        try:
            original(game, move)
        finally:
            for column in range(WALL_SIZE):
                kept[column] |= board.column_colours[column]
            board.column_colours = kept
    return place


def _coloured_layout(original):
    def free_columns(board, line):
        column = wall_column(line, board.line_colour[line])
        return [column] if column in original(board, line) else []
    return free_columns


def _unfit_line(to_floor: int):
    """GREY-3 misread: `to_floor` tiles of the line go to the floor line (None: all), the rest to the lid."""
    def make(original):
        def line_to_floor(board, line, lid):
            colour, count = board.line_colour[line], board.line_count[line]
            board.to_floor(colour, min(count, to_floor), lid)
            lid[colour] += count - min(count, to_floor)
            board.line_colour[line], board.line_count[line] = EMPTY, 0
            board.reopen(line)
        return line_to_floor
    return make


def _grey_order(first_seat: Callable[[Any], int], lines: tuple[int, ...],
                column: Callable[[list[int]], int] | None = None, unfit: str = "at once"):
    """Game._continue_grey_tiling read another way: seats from first_seat(game), pattern lines in `lines` order;
    `column(free)` picks the space itself instead of asking the owner. A line no column fits falls to the floor
    `unfit` "at once" (GREY-3), "last" (after the board's placements), or never: "asked", its owner is asked
    for a placement all the same."""
    def make(original):
        def continue_grey_tiling(game):
            first = first_seat(game)
            for k in range((game.turn - first) % game.players, game.players):
                seat = (first + k) % game.players
                board = game.boards[seat]
                for line in lines:
                    if board.line_complete(line):
                        free = board.free_columns(line)
                        if free and column:
                            board.tile_line(line, column(free), game.lid)
                        elif free or unfit == "asked":
                            game.phase, game.turn = TILING, seat
                            return
                        elif unfit == "at once":
                            board.line_to_floor(line, game.lid)
                for line in lines:  # what is still complete here fits no column
                    if board.line_complete(line):
                        board.line_to_floor(line, game.lid)
                board.clear_floor(game.lid)
            game._end_round()
        return continue_grey_tiling
    return make


def _placements(board, lines) -> list:
    return [PLACEMENTS[line + 1][column + 1] for line in lines if board.line_complete(line)
            for column in board.free_columns(line)]


def _any_line_listed(original):
    def legal_moves(game):
        if game.phase != TILING:
            return original(game)
        return _placements(game.boards[game.turn], range(5))
    return legal_moves


def _placed_as_listed(original):
    """Game._place for a misreading that lists other placements: one it lists is played, others as the rules say."""
    def place(game, move):
        if str(move) in {str(m) for m in game.legal_moves()}:
            game.boards[game.turn].tile_line(move.line - 1, move.column - 1, game.lid)
            game._continue_grey_tiling()
            return
        original(game, move)
    return place


def _any_order_tiling(original):
    def continue_grey_tiling(game):
        first = game.start_player
        for k in range((game.turn - first) % game.players, game.players):
            seat = (first + k) % game.players
            board = game.boards[seat]
            for line in range(5):  # a line no column fits falls at once; the owner picks among the others
                if board.line_complete(line) and not board.free_columns(line):
                    board.line_to_floor(line, game.lid)
            if any(board.line_complete(line) for line in range(5)):
                game.phase, game.turn = TILING, seat
                return
            board.clear_floor(game.lid)
        game._end_round()
    return continue_grey_tiling


def _first_line_that_fits(original):
    return lambda game: next(line for line in range(5) if game.boards[game.turn].line_complete(line)
                             and game.boards[game.turn].free_columns(line))


def _unfit_judged_at_the_offer_end(original):
    def end_offer(game):
        if game.grey:  # which lines fit no column is settled once, before any placement
            for board in game.boards:
                for line in range(5):
                    if board.line_complete(line) and not board.free_columns(line):
                        board.line_to_floor(line, game.lid)
        original(game)
    return end_offer


def _placements_in_the_offer(original):
    def legal_moves(game):
        moves = original(game)
        if game.grey and game.phase == OFFER:
            moves = moves + _placements(game.boards[game.turn], range(5))
        return moves
    return legal_moves


def _placed_in_the_offer(original):
    def play(game, move):
        if game.grey and game.phase == OFFER:
            move = parse_move(move) if isinstance(move, str) else move
            if isinstance(move, Placement) and str(move) in {str(m) for m in game.legal_moves()}:
                game.boards[game.turn].tile_line(move.line - 1, move.column - 1, game.lid)  # not a turn
                return
        original(game, move)
    return play


def _column_checked_above(original):
    def free_columns(board, line):
        colour = board.line_colour[line]
        return [column for column in range(WALL_SIZE) if board.wall[line][column] == EMPTY
                and all(board.wall[row][column] != colour for row in range(line))]
    return free_columns


def _unfit_overflow_lost(original):
    def line_to_floor(board, line, lid):
        original(board, line, [0] * 5)  # what finds no floor space is lost, not put in the lid
    return line_to_floor


def _colour_on_printed_spaces(board) -> int:
    """The colours whose five tiles stand where the coloured wall prints them."""
    return sum(1 for colour in range(5) if all(board.wall[row][wall_column(row, colour)] == colour
                                               for row in range(WALL_SIZE)))


def _no_colour_bonus_on_grey(original):
    def end_game(game):
        if game.grey:  # taken off before the bonuses are added: the colour bonus cancels out
            for board in game.boards:
                board.score -= 10 * board.complete_colours()
        original(game)
    return end_game


def _scored_at_printed_space(original):
    def tile_line(board, line, column, lid):
        printed = wall_column(line, board.line_colour[line])
        original(board, line, column, lid)
        board.score += board.placement_points(line, printed) - board.placement_points(line, column)
    return tile_line


def _ends_at_the_row(original):
    def place(game, move):
        original(game, move)
        if game.phase == TILING and any(board.complete_rows() for board in game.boards):
            game._end_game()
    return place


def _grey_tiling_from_seat_0(original):
    def end_offer(game):
        if not game.grey:
            return original(game)
        game.turn = 0
        game._continue_grey_tiling()
    return end_offer


def _lowest_complete_line(original):
    return lambda game: max(line for line in range(5) if game.boards[game.turn].line_complete(line))


def _column_checked_from_row_2(original):
    def free_columns(board, line):
        colour = board.line_colour[line]
        return [column for column in range(WALL_SIZE) if board.wall[line][column] == EMPTY
                and all(board.wall[row][column] != colour for row in range(1, WALL_SIZE))]
    return free_columns


def _single_space_unfit(original):
    def free_columns(board, line):
        columns = original(board, line)
        return columns if len(columns) > 1 else []  # `> 1` where `>= 1` was meant
    return free_columns


def _pending_seat(game) -> int:
    """The board whose placement is pending: the first from the start player with a complete line (the boards
    before it are done, their lines tiled or sent to the floor)."""
    return next((seat for seat in ((game.start_player + k) % game.players for k in range(game.players))
                 if any(game.boards[seat].line_complete(line) for line in range(5))), game.start_player)


def _asked_of_start_player(original):
    """Game.play and Game.legal_moves for the reading in which the start player is on move through the grey
    tiling: the pending board's placement is still what is asked."""
    def act(game, *args):
        if game.phase != TILING:
            return original(game, *args)
        game.turn = _pending_seat(game)
        try:
            return original(game, *args)
        finally:
            if game.phase == TILING:
                game.turn = game.start_player
    return act


def _start_player_stays_on_move(original):
    def continue_grey_tiling(game):
        original(game)
        if game.phase == TILING:
            game.turn = game.start_player
    return continue_grey_tiling


def _recount(board) -> None:
    """The wall's row and column colour sets (and the lines' answers) read again from the wall, after a tile
    was written over another."""
    board.row_colours = [sum(1 << cell for cell in set(row) if cell != EMPTY) for row in board.wall]
    board.column_colours = [sum(1 << cell for cell in {row[column] for row in board.wall} if cell != EMPTY)
                            for column in range(WALL_SIZE)]
    board.reopen_all()


def _placement_check_without(rule: str):
    """Game._place of an engine whose check of a played placement leaves out `rule` (GREY-1, GREY-2 or GREY-5),
    which its listing still follows: the tile of the line named goes to the space named, written over whatever is
    there. A placement no complete line could make is refused as the rules say."""
    def make(original):
        def place(game, move):
            board = game.boards[game.turn]
            line, column = move.line - 1, move.column - 1
            if not board.line_complete(line):
                return original(game, move)
            refusals = {"GREY-5": line != game._pending_line(), "GREY-1": board.wall[line][column] != EMPTY,
                        "GREY-2": bool(board.column_colours[column] >> board.line_colour[line] & 1)}
            for name, refused in refusals.items():
                if refused and name != rule:
                    raise IllegalMove(f"{move}: this placement is refused", rule=name)
            covered = board.wall[line][column] != EMPTY
            board.tile_line(line, column, game.lid)
            if covered:
                _recount(board)
            game._continue_grey_tiling()
        return place
    return make


# -- set-up ----------------------------------------------------------------------------------------------------

# A tenth factory (10 at a table of four): its takes, written `10B1` as the notation would go on past factory 9,
# listed after factory 9's and played like any other, so that the reading is played at every table it reaches.
_TENTH = [[Take(10, colour, line) for line in range(6)] for colour in range(5)]
_TENTH_TO = [takes_to(by_line) for by_line in _TENTH]

def _seat_0_starts(original):
    def init(game, players=2, variant="colour", start_player=0):
        original(game, players, variant, start_player)
        game.start_player = game.turn = 0
    return init


def _start_seat_modulo(original):
    def init(game, players=2, variant="colour", start_player=0):
        if isinstance(start_player, int) and isinstance(players, int) and players > 0:
            start_player %= players  # no check of the seat: any number names one
        original(game, players, variant, start_player)
    return init


def _player_count_clamped(original):
    def init(game, players=2, variant="colour", start_player=0):
        if isinstance(players, int):
            players = min(max(players, 2), 4)  # 1 plays as 2, 5 as 4
        original(game, players, variant, start_player)
    return init


def _tiles_start_in_lid(original):
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.bag, game.lid = [0] * 5, game.bag  # the first deal pours them in, as when the bag runs out
    return init


def _marker_on_start_floor(original):
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.marker = game.start_player  # placed in front of the start player: on their floor line
        game.boards[game.start_player].take_marker()
    return init


def _seats_from_1(original):
    def init(game, players=2, variant="colour", start_player=0):
        if isinstance(start_player, int) and isinstance(players, int) and 0 <= start_player <= players:
            start_player = range(players)[start_player - 1]  # start 1 is the first seat; 0, index -1, the last
        original(game, players, variant, start_player)
    return init


def _loaded_seats_from_0(original):
    def build(document):  # a position's start player is read as written: only new_game counts from 1
        return original({**document, "start_player": document["start_player"] + 1})
    return build


def _unknown_variant_coloured(original):
    def init(game, players=2, variant="colour", start_player=0):
        original(game, players, "grey" if variant == "grey" else "colour", start_player)
    return init


class _AnyCount(dict):
    """Factories for any number of players, 2n + 1: no player count is refused."""

    def __contains__(self, players) -> bool:
        return isinstance(players, int) and players >= 1

    def __missing__(self, players: int) -> int:
        return 2 * players + 1


def M(id: str, rule: str, description: str, *patches: Patch, source: str = "slip",
      prompted_by: str | tuple[str, ...] = ()) -> Mutant:
    return Mutant(id, rule, description, tuple(patches), source,
                  (prompted_by,) if isinstance(prompted_by, str) else tuple(prompted_by))


MUTANTS: tuple[Mutant, ...] = (
    # scoring
    M("score-lone-tile-2", "SCORE-1", "A tile with no neighbour is counted in both directions and scores 2.",
      ("board.Board.placement_points", points(lambda a, d: scored(a, d, lone=2)))),
    M("score-lone-tile-0", "SCORE-1", "Only runs score: a tile with no neighbour scores nothing.",
      ("board.Board.placement_points", points(lambda a, d: scored(a, d, lone=0)))),
    M("score-longer-run-only", "SCORE-2", "A tile in two runs scores only the longer one.",
      ("board.Board.placement_points", points(lambda a, d: max(a, d)))),
    M("score-tile-counted-once", "SCORE-2", "A tile in both a row and a column run is counted once, not twice.",
      ("board.Board.placement_points", points(lambda a, d: a + d - 1))),
    M("score-horizontal-only", "SCORE-2", "Only the horizontal run through the tile is scored.",
      ("board.Board.placement_points", points(lambda a, d: a))),
    M("score-neighbours-only", "SCORE-2", "A tile with neighbours scores its neighbours in each run, not itself.",
      ("board.Board.placement_points", points(lambda a, d: max(1, a - 1 + d - 1)))),
    M("score-it2-flat", "SCORE-2", "IT-2's summary: every tile placed scores 1, whatever its neighbours.",
      ("board.Board.placement_points", value(lambda board, row, column: 1)), source="divergence"),
    M("score-it2-diagonal", "SCORE-2", "IT-2's summary: a diagonal neighbour scores a point too.",
      ("board.Board.placement_points", _diagonal), source="divergence"),
    M("score-all-at-once", "SCORE-3", "All of a round's tiles go on the wall first, then each is scored.",
      ("board.Board.tile_coloured_wall", _all_at_once)),
    M("score-floor-before-wall", "SCORE-4", "The floor line is scored (and clamped at 0) before the wall.",
      ("game.Game._end_offer", _coloured_end_offer("lid", "lid", floor_first=True)), source="divergence"),
    M("score-no-clamp", "SCORE-5", "PT and IT-2: nothing stops a score from going below zero.",
      ("board.Board.clear_floor", _no_clamp), source="divergence"),
    M("score-no-line-no-scoring", "SCORE-4", "A round in which nobody completes a pattern line is not scored: no "
      "floor penalties, and the floor tiles stay for the next round.",
      ("game.Game._end_offer", _unscored_without_complete_line), ("game.Game.deal", _marker_back_at_the_deal),
      prompted_by="myzul-ts"),
    M("score-lone-direction-counted", "SCORE-2", "Once a tile has a neighbour it scores its horizontal run plus its "
      "vertical run, a way with no neighbour counting the tile alone, 1: a tile beside one other scores 2 + 1 = 3.",
      ("board.Board.placement_points", points(lambda a, d: 1 if a == d == 1 else a + d)),
      prompted_by="cbermudez-azul-pl"),
    M("score-vertical-only", "SCORE-2", "Only the vertical run through the tile is scored.",
      ("board.Board.placement_points", points(lambda a, d: d))),
    M("score-either-run", "SCORE-2", "A tile scores its horizontal run if it has one, else its vertical run: "
      "never both.", ("board.Board.placement_points", points(lambda a, d: a if a > 1 else d))),
    M("score-runs-from-the-tile-on", "SCORE-2", "A run is counted from the placed tile rightwards and downwards; "
      "the tiles to its left and above it are not looked at.",
      ("board.Board.placement_points", points(measure=looking(ways=((0, 1), (1, 0)))))),
    M("score-runs-up-to-the-tile", "SCORE-2", "A run is counted from its start up to the placed tile: the tiles to "
      "its left and above it count, those to its right and below it do not.",
      ("board.Board.placement_points", points(measure=looking(ways=((0, -1), (-1, 0)))))),
    M("score-gaps-join", "SCORE-2", "Every tile of the tile's row and column counts, gaps or not: three tiles in a "
      "row score 3 wherever they lie.", ("board.Board.placement_points", points(measure=tiles_in_row_and_column))),
    M("score-touching-tiles-only", "SCORE-2", "Only the tiles touching the placed tile count in its runs, not those "
      "beyond them.", ("board.Board.placement_points", points(measure=looking(reach=1)))),
    M("score-one-per-neighbour", "SCORE-2", "A tile scores 1, and 1 more for each tile touching it.",
      ("board.Board.placement_points", points(lambda a, d: a + d - 1, looking(reach=1)))),
    M("score-pair-no-run", "SCORE-2", "A run takes three tiles: a tile beside only one other scores 1, as a lone "
      "tile.", ("board.Board.placement_points", points(lambda a, d: scored(a, d, shortest=3)))),
    M("score-round-start-wall", "SCORE-3", "Each tile is scored against the wall as it stood before the round's "
      "tiling: tiles placed in the same round do not count for one another.",
      ("board.Board.tile_coloured_wall", _against_round_start)),
    M("score-wall-at-game-end", "SCORE-3", "The wall is scored once, at the end of the game, each tile by its runs "
      "on the finished wall; until then only the floor line counts (never below 0).", *_wall_scored_at_the_end()),
    M("score-floor-only-after-adjacent-tile", "SCORE-4", "FR, EN and IT list the floor penalties under 'if the "
      "tile is adjacent': the floor is charged at the end of the tiling only if a tile placed that round had a "
      "neighbour.", ("game.Game._end_offer", _coloured_tiling(_floor_charged_only_after(has_neighbour))),
      source="divergence"),
    M("score-floor-only-with-placement", "SCORE-4", "The floor is charged as part of a player's wall tiling: a player "
      "who moves no tile to the wall that round pays nothing for it (the floor is cleared all the same).",
      ("game.Game._end_offer", _coloured_tiling(_floor_charged_only_after(lambda board, row, column: True)))),
    M("score-floor-kept-until-a-placement", "SCORE-4", "The floor is charged, and emptied, with a player's wall "
      "tiling: a player who moves no tile to the wall keeps the floor's tiles into the next round and pays for "
      "them at a later tiling that places a tile.",
      ("game.Game._end_offer", _coloured_tiling(_floor_charged_only_after(lambda board, row, column: True,
                                                                          kept=True))),
      ("game.Game.deal", _marker_back_at_the_deal), prompted_by="ummatias-azul-py"),
    M("score-floor-adds", "SCORE-4", "The floor penalties are kept as printed, -1 -1 -2 ..., and subtracted: each "
      "floor space adds its value to the score.",
      ("board.Board.floor_penalty", lambda original: lambda board: -original(board))),
    M("score-round-clamped", "SCORE-5", "Each round is scored on its own, its placements less its floor and never "
      "below 0, then added to the total: a round never takes back points won earlier.",
      ("game.Game._end_offer", _coloured_tiling(_round_clamped))),
    M("score-clamped-at-game-end", "SCORE-5", "A score may fall below 0 during the game; it is put back to 0 at the "
      "end, before the bonuses.", ("board.Board.clear_floor", _no_clamp), ("game.Game._end_game", _clamped_at_the_end)),
    M("score-unpayable-floor-waived", "SCORE-5", "A floor that would take the score below 0 costs nothing that "
      "round.", ("board.Board.clear_floor", _unpayable_floor_waived)),
    M("score-first-column-not-reached", "SCORE-2", "The runs are scanned leftwards and upwards down to index 1, "
      "not 0: a tile in the wall's first column or first row never joins the run of a tile beyond it.",
      ("board.Board.placement_points", points(measure=_short_of_the_first_row_and_column))),
    M("score-floor-with-each-tile", "SCORE-4", "FR, EN and IT list the floor penalties among the steps of scoring a "
      "placed tile: the floor is charged after each tile moved to the wall, and not in a round with none.",
      ("board.Board.tile_line", _floor_with_each_tile), ("board.Board.clear_floor", _cleared_before_penalties),
      source="divergence"),
    M("score-last-column-not-reached", "SCORE-2", "The runs are scanned rightwards and downwards up to index 3, "
      "not 4: a tile in the wall's last column or last row never joins the run of a tile before it.",
      ("board.Board.placement_points", points(measure=_short_of_the_last_row_and_column)), source="shape"),
    M("score-lone-test-or", "SCORE-2", "A tile is taken for lone when it has no neighbour across or none down "
      "('or' where 'and' was meant): a tile in a run one way only scores 1.",
      ("board.Board.placement_points", points(lambda a, d: 1 if a == 1 or d == 1 else a + d)), source="shape"),
    M("score-assigned-not-added", "SCORE-3", "A placed tile's points are written to the score instead of added "
      "to it: the score shows the last tile's points, less the floor.",
      ("board.Board.tile_line", _points_assigned), source="shape"),
    # the floor line
    M("floor-six-spaces", "FLOOR-1", "The floor line has six spaces (the penalties 1 1 2 2 2 3, one 3 short).",
      ("board.FLOOR_SPACES", value(6))),
    M("floor-overflow-lost", "FLOOR-2", "Tiles that find no free floor space vanish instead of going to the lid.",
      ("board.Board.to_floor", _overflow_lost), source="divergence"),
    M("floor-penalties-shifted", "FLOOR-3", "The penalty table is read from its second entry: 1 2 2 2 3 3 ...",
      ("board.FLOOR_PENALTIES", value(FLOOR_PENALTIES[1:] + (3,)))),
    M("floor-penalties-flat", "FLOOR-3", "Every floor space costs 1 point.",
      ("board.FLOOR_PENALTIES", value((1,) * 7)), source="divergence"),
    M("floor-first-space-free", "FLOOR-3", "The first floor space costs nothing: penalties are counted from the "
      "second space on (0 1 2 2 2 3 3).", ("board.FLOOR_PENALTIES", value((0,) + FLOOR_PENALTIES[1:])),
      prompted_by="myzul-ts"),
    M("floor-marker-free", "FLOOR-4", "The marker on the floor costs nothing; only tiles are penalised.",
      ("board.Board.floor_penalty", _marker_free), source="divergence", prompted_by="myzul-ts"),
    M("floor-full-marker-stays", "FLOOR-5", "With a full floor line the marker is not taken: it stays in the centre.",
      ("game.Game._take", _marker_stays_when_full), source="ruling"),
    M("floor-full-marker-bumps-tile", "FLOOR-5", "With a full floor line the marker takes the last space; its "
      "tile goes to the lid.", ("game.Game._take", _marker_bumps_tile), source="ruling"),
    M("floor-tiles-lost", "FLOOR-6", "Floor tiles are thrown away when the floor is cleared, not put in the lid.",
      ("board.Board.clear_floor", _floor_tiles_lost)),
    M("floor-not-cleared", "FLOOR-6", "IT-2: the floor line is never cleared; its tiles stay for the next round.",
      ("board.Board.clear_floor", _floor_kept), source="divergence"),
    M("floor-last-space-value", "FLOOR-3", "The floor costs the value printed over its last occupied space, not "
      "the sum of the occupied spaces' values.", ("board.Board.floor_penalty", _last_space_value)),
    M("floor-cleared-before-penalties", "FLOOR-6", "The floor line is emptied into the lid before its penalties "
      "are counted, so it costs nothing.", ("board.Board.clear_floor", _cleared_before_penalties)),
    M("floor-cleared-at-the-deal", "FLOOR-6", "The floor is charged at the end of the round, but its tiles (and "
      "the marker) leave it only when the next round is dealt.", ("board.Board.clear_floor", _floor_charged_kept),
      ("game.Game.deal", _floor_cleared_at_the_deal)),
    M("floor-latest-first", "FLOOR-1", "Each take's floor tiles go in at the left: earlier ones move right, and "
      "those pushed off the end go to the lid.", ("board.Board.to_floor", _latest_first)),
    M("floor-unbounded", "FLOOR-2", "The floor line never runs out of room: each tile beyond the seventh costs 3.",
      ("board.FLOOR_SPACES", value(5 * 20)), ("board.FLOOR_PENALTIES", value(FLOOR_PENALTIES + (3,) * 93))),
    M("floor-marker-takes-no-space", "FLOOR-4", "The marker lies on the floor line but takes none of its spaces "
      "and costs nothing: seven tiles fit beside it.", ("board.Board.to_floor", _marker_takes_no_space),
      ("board.Board.floor_penalty", _marker_free)),
    M("floor-one-space-short-charged", "FLOOR-3", "The penalties are summed over the occupied spaces but the "
      "last, the slice stopping one short: one tile on the floor costs nothing, two cost 1, seven cost 11.",
      ("board.Board.floor_penalty", value(_one_space_short_charged)), source="shape"),
    M("floor-eight-spaces", "FLOOR-1", "The floor line has eight spaces, the last costing 3 like the two before "
      "it: an eighth tile costs 3 instead of going to the lid.", ("board.FLOOR_SPACES", value(8)),
      ("board.FLOOR_PENALTIES", value(FLOOR_PENALTIES + (3,))), source="shape"),
    M("floor-overflow-to-bag", "DEAL-4", "Tiles that find no room on a full floor line go back into the bag.",
      ("game.Game._take", _overflow_to_bag)),
    # wall tiling
    M("tiling-rest-lost", "TILING-2", "The tiles left on a tiled line are thrown away, not put in the lid.",
      ("board.Board.tile_line", _lid_change(lambda line: -line))),
    M("tiling-whole-line-to-lid", "TILING-2", "The whole line goes to the lid, the tile moved to the wall too.",
      ("board.Board.tile_line", _lid_change(lambda line: 1))),
    M("tiling-rest-to-bag", "DEAL-4", "The rest of a tiled line goes straight back into the bag.",
      ("game.Game._end_offer", _coloured_end_offer("bag", "lid")), source="divergence"),
    M("floor-tiles-to-bag", "DEAL-4", "Floor tiles go straight back into the bag, not into the lid.",
      ("game.Game._end_offer", _coloured_end_offer("lid", "bag")), source="divergence"),
    M("tiling-bottom-to-top", "TILING-1", "Complete lines are tiled from the bottom line up.",
      ("board.Board.tile_coloured_wall", _bottom_to_top), ("game.Game._pending_line", _lowest_complete_line),
      ("game.Game._continue_grey_tiling", _grey_order(lambda game: game.start_player, (4, 3, 2, 1, 0)))),
    M("tiling-when-complete", "TILING-1", "A pattern line moves its tile to the wall as soon as it is complete, "
      "during the offer.", ("board.Board.place_on_line", _tiled_when_complete)),
    M("tiling-incomplete-discarded", "TILING-3", "Incomplete lines are emptied into the lid at the end of a round.",
      ("board.Board.tile_coloured_wall", _incomplete(_to_lid)), source="divergence"),
    M("wall-mirrored", "WALL-1", "The coloured wall's diagonal runs the other way: colour c of row r at column "
      "c - r.", ("board.wall_column", value(lambda row, colour: (colour - row) % WALL_SIZE))),
    M("wall-colour-columns", "WALL-1", "Each colour has its own column on the coloured wall, the same in every "
      "row: colour c at column c.", ("board.wall_column", value(lambda row, colour: colour))),
    M("wall-rows-from-the-bottom", "WALL-1", "The wall's rows are counted from the bottom: row r is laid out as "
      "row 4 - r (colour c at column c - r - 1).",
      ("board.wall_column", value(lambda row, colour: (colour + WALL_SIZE - 1 - row) % WALL_SIZE))),
    M("tiling-line-not-emptied", "TILING-2", "Only the tile that goes to the wall leaves a complete line; the rest "
      "stay on it.", ("board.Board.tile_line", _line_not_emptied)),
    M("tiling-incomplete-to-floor", "TILING-3", "The tiles of incomplete lines fall to the floor line at the end "
      "of the round, before it is charged.", ("board.Board.tile_coloured_wall", _incomplete(_to_floor))),
    M("tiling-incomplete-lost", "TILING-3", "The tiles of incomplete lines are cleared away at the end of the "
      "round, into no lid.", ("board.Board.tile_coloured_wall", _incomplete(_lost))),
    M("tiling-line-one-short-complete", "TILING-1", "A pattern line counts as complete when it holds as many "
      "tiles as its index from 0 (line 1 as soon as it holds one): a line one tile short moves a tile to the wall "
      "and its rest to the lid.", ("board.Board.line_complete", value(_one_short_complete)),
      ("board.Board.tile_coloured_wall", _tile_lines_taken_for_complete),
      ("board.Board.tile_line", _rest_of_what_the_line_holds), source="shape"),
    M("tiling-rest-one-short", "TILING-2", "The rest of a tiled line is counted as its number less two: one tile "
      "fewer than the line leaves goes to the lid (none from line 2), the other is lost.",
      ("board.Board.tile_line", _lid_change(lambda line: -1 if line else 0)), source="shape"),
    M("tiling-line-colour-kept", "TILING-2", "A tiled line is emptied but keeps its colour: in later rounds it "
      "takes only that colour again (which its wall row now holds) and no other.",
      ("board.Board.tile_line", _line_colour_kept), source="shape"),
    M("wall-rows-from-1", "WALL-1", "The rows are numbered from 1 in the layout: colour c of row r at column "
      "(c + r + 1) mod 5, the whole wall shifted one column right.",
      ("board.wall_column", value(lambda row, colour: (colour + row + 1) % WALL_SIZE)), source="shape"),
    # the factory offer
    M("offer-row-limit-ignored", "OFFER-9", "IT-2: a line may take a colour its wall row already holds.",
      ("board.Board.colours_accepted", _accepts(lambda b, line, acc: 1 << b.line_colour[line]
                                                  if b.line_colour[line] != EMPTY and acc else
                                                  (ALL_COLOURS if b.line_colour[line] == EMPTY else acc))),
      source="divergence"),
    M("offer-mixed-colours", "OFFER-8", "IT-2: a pattern line that is not full takes tiles of any colour.",
      ("board.Board.colours_accepted", _accepts(lambda b, line, acc: ~b.row_colours[line] & ALL_COLOURS
                                                  if b.line_count[line] <= line else acc)), source="divergence"),
    M("offer-full-line-choosable", "OFFER-12", "A full pattern line may be chosen: all the tiles go to the floor.",
      ("board.Board.colours_accepted", _accepts(lambda b, line, acc: 1 << b.line_colour[line]
                                                  if b.line_colour[line] != EMPTY else acc)), source="ruling",
      prompted_by="azul-game-engine"),
    M("offer-one-line-per-colour", "OFFER-13", "A colour already building on one line may not start another.",
      ("board.Board.colours_accepted", _accepts(_one_line_per_colour)), ("board.Board.reopen", _reopen_every_line),
      ("game.Game._take", _refuse_unlisted("OFFER-13")), source="ruling"),
    M("offer-floor-only-overflow", "OFFER-11", "Tiles may go to the floor by choice only when no line takes them.",
      ("game.Game._legal_takes", _floor_only_for_overflow), ("game.Game._take", _refuse_unlisted("OFFER-11")),
      source="ruling"),
    M("offer-overflow-to-lid", "OFFER-10", "Tiles beyond a line's free spaces go to the lid, not the floor.",
      ("board.Board.place_on_line", _overflow_to_lid)),
    M("offer-marker-after-tiles", "OFFER-5", "IT-2: the marker goes on the floor after the tiles taken with it.",
      ("game.Game._take", _marker_after_tiles), source="divergence", prompted_by="myzul-ts"),
    M("offer-rest-stays", "OFFER-3", "The rest of a factory stays on it instead of going to the centre.",
      ("game.Game._take", _rest_stays)),
    M("offer-counterclockwise", "OFFER-1", "Turns go counter-clockwise (seat 0, then the last seat).",
      ("game.Game._take", _counterclockwise)),
    M("offer-seat-0-opens", "OFFER-1", "Seat 0 opens every round's offer, whoever holds the marker.",
      ("game.Game.deal", _seat_0_opens)),
    M("offer-empty-take-passes", "OFFER-6", "A take of a colour the source lacks is accepted as a pass.",
      ("game.Game._take", _empty_take_passes), source="ruling", prompted_by="azul-game-engine"),
    M("offer-empty-take-empties-source", "OFFER-6", "A take of a colour the source lacks is listed and accepted: "
      "it gets no tile, but the factory's tiles still go to the centre (from the centre, the marker is taken).",
      ("game.Game._legal_takes", _empty_takes_listed), ("game.Game._take", _empty_take_empties_source),
      source="ruling", prompted_by="azul-game-engine"),
    M("offer-marker-left-in-centre", "OFFER-4", "The first take from the centre leaves the marker there; it only "
      "marks who starts, at the end of the round.", ("game.Game._take", _marker_left_in_centre)),
    M("offer-marker-to-each-centre-taker", "OFFER-4", "Every take from the centre takes the marker, from "
      "whoever held it.", ("game.Game._take", _marker_to_each_centre_taker)),
    M("offer-marker-first-round-only", "OFFER-5", "The marker is handed out once a game: from round 2 on the first "
      "take from the centre leaves it in the centre.", ("game.Game._take", _marker_first_round_only),
      prompted_by=("azul-game-engine", "azul-marl-env")),
    M("offer-line-overwritten", "OFFER-7", "Tiles taken to a line replace those already on it.",
      ("board.Board.place_on_line", _line_overwritten)),
    M("offer-ends-with-factories", "OFFER-14", "The offer ends when the factories are empty; what is left in "
      "the centre is cleared away.", ("game.Game._take", _offer_ends_with_factories)),
    M("offer-rest-to-lid", "OFFER-3", "The rest of a factory is discarded to the lid, not moved to the centre.",
      ("game.Game._take", _rest_to_lid)),
    M("offer-ends-when-centre-empties", "OFFER-14", "The offer ends when a take empties the centre; tiles left "
      "on the factories are cleared away.", ("game.Game._take", _ends_when_centre_empties)),
    M("offer-other-colour-replaces-line", "OFFER-8", "A take of another colour may go on a line that holds "
      "tiles: they go to the lid and the new colour takes the line.",
      ("board.Board.colours_accepted", _accepts(_any_colour_on_a_started_line)),
      ("board.Board.place_on_line", _other_colour_replaces)),
    M("offer-centre-rest-to-lid", "OFFER-4", "A take from the centre clears it: the tiles of the other colours "
      "go to the lid.", ("game.Game._take", _centre_rest_to_lid)),
    M("offer-one-tile-taken", "OFFER-2", "A take is one tile of the colour; the others of that colour go to the "
      "centre with the rest of the factory (or stay in the centre).", ("game.Game._take", _one_tile_taken)),
    M("offer-only-what-fits", "OFFER-10", "A take may go to a pattern line only if the line has room for all of "
      "it; a larger take must go to the floor.", ("game.Game._legal_takes", _only_what_fits),
      ("game.Game._take", _refuse_unlisted("OFFER-10"))),
    M("offer-overflow-whole-take-to-floor", "OFFER-10", "A take larger than the line's free spaces goes to the "
      "floor whole; the line gets none of it.", ("board.Board.place_on_line", _whole_take_to_floor)),
    M("offer-overflow-to-next-line", "OFFER-7", "Tiles beyond a line's free spaces go on to the next line down "
      "when it takes the colour, and only then to the floor.", ("board.Board.place_on_line", _overflow_to_next_line)),
    M("offer-other-colour-to-floor", "OFFER-8", "A take of another colour than its line holds is accepted: every "
      "tile of it goes to the floor.",
      ("board.Board.colours_accepted", _accepts(_any_colour_on_a_started_line)),
      ("board.Board.place_on_line", _other_colour_to_floor)),
    M("offer-row-limit-row-above", "OFFER-9", "Pattern line N is checked against wall row N - 1 (line 1 against "
      "none): the rows are counted from 1, the lines from 0.", ("board.Board.colours_accepted", _accepts(_row_above)),
      ("board.Board.reopen", _reopen_every_line), ("game.Game._take", _refuse_unlisted("OFFER-9"))),
    M("offer-pt-colour-anywhere-on-wall", "OFFER-9", "PT: a colour anywhere on the wall may go on no pattern line "
      "again.", ("board.Board.colours_accepted", _accepts(_anywhere_on_the_wall)),
      ("board.Board.reopen", _reopen_every_line), ("game.Game._take", _refuse_unlisted("OFFER-9")),
      source="divergence"),
    M("offer-last-space-refused", "OFFER-12", "A line with one free space left is taken for full: it accepts no "
      "more tiles.", ("board.Board.colours_accepted", _accepts(_last_space_refused)),
      ("game.Game._take", _refuse_unlisted("OFFER-12"))),
    M("offer-it2-marker-first-box", "OFFER-5", "IT-2: the marker goes in the first floor space whatever is there; "
      "the floor's tiles move right, the last off to the lid.", ("game.Game._take", _marker_first_box),
      source="divergence"),
    M("offer-turns-run-on", "OFFER-1", "Turns run on across rounds: the seat after the last taker opens the next "
      "offer, whoever holds the marker (who still starts the round on paper).",
      ("game.Game._take", _turns_run_on), ("game.Game.deal", _turn_kept_at_the_deal)),
    M("offer-phase-unchecked", "OFFER-15", "Moves are checked against the table, not the phase: between rounds "
      "a take finds an empty factory (OFFER-6), a placement no pending line.", ("game.Game.play", _phase_unchecked)),
    M("offer-listed-for-seat-0", "OFFER-15", "The legal moves are listed for seat 0's board, whoever is to move.",
      ("game.Game._legal_takes", _listed_for_seat_0)),
    M("offer-listed-for-start-player", "OFFER-15", "The legal moves are listed for the round's start player's "
      "board, whoever is to move.", ("game.Game._legal_takes", _listed_for_start_player)),
    M("offer-row-limit-row-below", "OFFER-9", "Pattern line N is checked against wall row N + 1 (line 5 against "
      "none): the row index is one too high.", ("board.Board.colours_accepted", _accepts(_row_below)),
      ("board.Board.reopen", _reopen_every_line), ("game.Game._take", _refuse_unlisted("OFFER-9")), source="shape"),
    M("offer-row-limit-printed-space", "OFFER-9", "A line refuses a colour when that colour's printed space in its "
      "wall row is filled: on the grey wall the colour may sit elsewhere in the row, and another colour on its "
      "space refuses it.", ("board.Board.colours_accepted", _accepts(_printed_space_free)),
      ("game.Game._take", _refuse_unlisted("OFFER-9")), source="shape"),
    M("offer-factory-pushed-to-centre-first", "OFFER-3", "A take from a factory pushes the whole factory into the "
      "centre first and then takes the colour from the centre: the centre's tiles of that colour come along, "
      "and the marker if it is still there.", ("game.Game._take", _factory_pushed_to_centre_first), source="shape"),
    M("offer-listed-for-previous-seat", "OFFER-15", "The legal moves are listed for the board of the player who "
      "moved last (the list is made before the turn moves on), whoever is to move.",
      ("game.Game._legal_takes", _listed_for_previous_seat), source="shape"),
    M("offer-marker-to-the-next-seat", "OFFER-5", "The turn passes before the marker is handed over: the first "
      "taker from the centre gets the tiles, the next player the marker on their floor line, and the start.",
      ("game.Game._take", _marker_to_the_next_seat), source="shape"),
    M("offer-marker-with-first-take", "OFFER-5", "The first take of the round takes the marker, whatever its "
      "source: the engine checks that the marker is still in the centre, not that the take is from there.",
      ("game.Game._take", _marker_with_first_take), source="shape"),
    M("offer-marker-kept-by-holder", "OFFER-1", "The marker stays with its holder between rounds instead of going "
      "back to the centre: from round 2 on no take from the centre claims it, and its holder starts every round.",
      ("game.Game._end_round", _marker_kept_by_holder), source="shape"),
    M("offer-wrap-to-start-player", "OFFER-1", "After the last seat the turn goes back to the player who opened "
      "the offer, not to seat 0.", ("game.Game._take", _wrap_to_start_player), source="shape"),
    # the next round
    # the take's checks left out of the apply, the listing right (LINE_REFUSALS' readings "in the list and the check"
    # are offer-mixed-colours, offer-row-limit-ignored and offer-full-line-choosable)
    M("offer-other-colour-recolours-line", "OFFER-8", "Accepts a take of another colour onto a pattern line "
      "holding tiles although it never lists it: the line's colour is overwritten, not checked, so the line is "
      "recoloured and counts the tiles already on it as the new colour; what exceeds its room goes to the floor.",
      ("game.Game._check_line", _line_check_without("OFFER-8"))),
    M("offer-row-limit-unchecked", "OFFER-9", "Accepts a take of a colour its wall row already holds although it "
      "never lists it: the tiles go on the empty line, and the tiling puts the colour on its own space again and "
      "scores it.", ("game.Game._check_line", _line_check_without("OFFER-9"))),
    M("offer-full-line-unchecked", "OFFER-12", "Accepts a take onto a full pattern line although it never lists "
      "it: the line has no room, so every tile of the take goes to the floor line as overflow.",
      ("game.Game._check_line", _line_check_without("OFFER-12"))),
    M("offer-empty-take-unchecked", "OFFER-6", "Accepts a take of a colour the source lacks although it never "
      "lists it: no tile is taken, but the rest of a factory still goes to the centre (from the centre, the "
      "marker is taken) and the turn passes.", ("game.Game._take", _empty_take_empties_source)),
    M("offer-marker-never-on-floor", "OFFER-5", "The first take from the centre makes the taker the next start "
      "player, but the marker never goes on their floor line: it takes no space and costs no point.",
      ("board.Board.take_marker", _marker_never_on_floor)),
    M("round-seat-after-holder", "ROUND-2", "The seat after the marker holder starts the next round.",
      ("game.Game._end_round", _next_start(lambda g, holder, was: g.start_player if holder == IN_CENTRE
                                           else (holder + 1) % g.players))),
    M("round-start-rotates", "ROUND-2", "The start player passes clockwise each round, whoever took the marker.",
      ("game.Game._end_round", _next_start(lambda g, holder, was: (was + 1) % g.players))),
    M("round-last-taker-starts", "ROUND-2", "The player who made the round's last take starts the next round, "
      "whoever holds the marker.", ("game.Game._take", _start_after_last_take(lambda g, seat, unclaimed: seat)),
      prompted_by=("azul-game-engine", "azul-marl-env")),
    M("round-unclaimed-next-seat", "ROUND-3", "Nobody took from the centre: the next seat clockwise starts.",
      ("game.Game._end_round", _next_start(lambda g, holder, was: (was + 1) % g.players if holder == IN_CENTRE
                                           else g.start_player)), source="ruling",
      prompted_by=("ludometer-js", "ludometer-py")),
    M("round-unclaimed-seat-0", "ROUND-3", "Nobody took from the centre: seat 0 starts.",
      ("game.Game._end_round", _next_start(lambda g, holder, was: 0 if holder == IN_CENTRE else g.start_player)),
      source="ruling"),
    M("round-unclaimed-after-last-taker", "ROUND-3", "Nobody took from the centre: the seat after the round's last "
      "taker starts, as turns alternate.",
      ("game.Game._take", _start_after_last_take(lambda g, seat, unclaimed: (seat + 1) % g.players if unclaimed
                                                 else None)), source="ruling",
      prompted_by=("ludometer-js", "ludometer-py")),
    M("round-not-counted", "ROUND-1", "The round number is not advanced when the next round is prepared.",
      ("game.Game._end_round", _round_not_counted)),
    M("round-unclaimed-last-taker-starts", "ROUND-3", "Nobody took from the centre: the player who made the "
      "round's last take starts the next round.",
      ("game.Game._take", _start_after_last_take(lambda g, seat, unclaimed: seat if unclaimed else None)),
      source="ruling", prompted_by=("azul-game-engine", "azul-marl-env", "azul-tiles-js", "comp1110-azul-java")),
    M("round-unclaimed-to-player-on-floor", "ROUND-3", "Nobody took from the centre: the marker goes to the player "
      "whose turn it would be next, who puts it on their floor line (it costs its space's points in the tiling) "
      "and starts the next round.",
      ("game.Game._end_offer", _unclaimed_marker_to_floor(lambda g: (g.turn + 1) % g.players)), source="ruling",
      prompted_by="cbermudez-azul-pl"),
    M("round-unclaimed-seat-after-next", "ROUND-3", "Nobody took from the centre: the player after the one whose "
      "turn it would be next starts the next round.",
      ("game.Game._take", _start_after_last_take(lambda g, seat, unclaimed: (seat + 2) % g.players if unclaimed
                                                 else None)), source="ruling", prompted_by="comp1110-azul-java"),
    M("round-unclaimed-start-player-on-floor", "ROUND-3", "Nobody took from the centre: the start player takes the "
      "marker back onto their own floor line, pays for it in the tiling and starts again.",
      ("game.Game._end_offer", _unclaimed_marker_to_floor(lambda g: g.start_player)), source="ruling"),
    M("round-same-start-player", "ROUND-2", "The same player starts every round (PT: 'O mesmo jogador começa a "
      "próxima rodada'): the start player keeps the start, whoever took the marker.",
      ("game.Game._end_round", _next_start(lambda g, holder, was: was)), source="divergence"),
    M("round-dealer-passes-first-turn", "ROUND-2", "The marker holder deals the next round and, as a dealer does, "
      "leaves the first turn to the player on their left.", ("game.Game.deal", _dealer_passes_first_turn)),
    M("round-counted-at-the-deal", "ROUND-1", "The round number goes up when the factories are dealt: 0 at set-up, "
      "and between rounds it still shows the round just played.", ("game.Game.__init__", _round_0_at_set_up),
      ("game.Game._end_round", _round_not_counted), ("game.Game.deal", _round_counted_at_the_deal)),
    M("round-counted-before-end-check", "ROUND-1", "The round number goes up as each tiling ends, before the end of "
      "the game is checked, so a finished game shows one round more than were played.",
      ("game.Game._end_round", _round_counted_before_end_check)),
    M("round-seat-before-holder", "ROUND-2", "The seat before the marker holder starts the next round (the index "
      "one too low).", ("game.Game._end_round", _next_start(_seat_before_holder)), source="shape"),
    # the end of the game
    M("end-column-ends-game", "END-1", "A complete wall column, not a row, ends the game.",
      ("game.Game._end_round", _column_ends_game())),
    M("end-mid-tiling", "END-1", "On the grey wall the game ends as soon as a placement completes a row, before "
      "the other placements.", ("game.Game._place", _ends_at_the_row)),
    M("end-empty-bag-ends-game", "END-8", "The game ends as soon as the bag is empty, though the lid could refill it.",
      ("game.Game._end_round", _empty_bag_ends_game), source="ruling"),
    M("end-empty-deal-deals-on", "END-8", "With bag and lid both empty the next round is prepared all the same.",
      ("game.Game._end_round", _empty_deal_deals_on), source="ruling",
      prompted_by=("azul-ai-go", "azul-game-engine", "azul-marl-env", "myzul-ts")),
    M("end-rows-before-points", "END-5", "The most complete rows wins; points only break a tie on rows.",
      ("game.Game._end_game", _winners(_rows_before_points))),
    M("end-bonuses-when-completed", "END-2", "The row, column and colour bonuses are scored when the tile that "
      "completes them is placed, not at the end of the game.",
      *BONUSES_WHEN_COMPLETED, ("state._build", _bonus_in_loaded_score), prompted_by="myzul-ts"),
    M("end-bonuses-when-completed-score-as-loaded", "END-2", "The row, column and colour bonuses are scored when "
      "the tile that completes them is placed; a position's score is taken as it stands, so what its wall had "
      "completed before never earns a bonus.", *BONUSES_WHEN_COMPLETED, prompted_by="cbermudez-azul-pl"),
    M("end-row-column-swapped", "END-2", "The row and column bonuses swapped: 7 a row, 2 a column.",
      ("board.Board.end_bonus", value(lambda b: 7 * b.complete_rows() + 2 * b.complete_columns()
                                      + 10 * b.complete_colours()))),
    M("end-partial-column", "END-3", "A column counts as complete with rows 2-5 filled (the loop starts at 1).",
      ("board.Board.complete_columns", value(lambda b: sum(1 for col in range(WALL_SIZE)
                                                           if all(row[col] != EMPTY for row in b.wall[1:]))))),
    M("end-colour-at-four", "END-4", "A colour on four of the five rows earns the colour bonus.",
      ("board.Board.complete_colours", value(lambda b: sum(1 for colour in range(5) if on_rows(b, colour) >= 4)))),
    M("end-it2-bonus-once", "END-2", "IT-2: each bonus is earned once, however many rows, columns, colours.",
      ("board.Board.end_bonus", value(lambda b: 2 * (b.complete_rows() > 0) + 7 * (b.complete_columns() > 0)
                                      + 10 * (b.complete_colours() > 0))), source="divergence"),
    M("end-fewest-rows-wins", "END-6", "A tie on points goes to the player with the fewest complete rows.",
      ("game.Game._end_game", _winners(lambda ranks: _top([(s, -r) for s, r in ranks])))),
    M("end-no-tie-break", "END-6", "Tied players share the win; complete rows are not compared.",
      ("game.Game._end_game", _winners(lambda ranks: _top([(s, 0) for s, _ in ranks]))), source="divergence"),
    M("end-rows-of-everybody", "END-6", "The tie-break compares everybody's complete rows, not the tied players'.",
      ("game.Game._end_game", _winners(_rows_of_everybody)), prompted_by=("azul-game-engine", "azul-marl-env")),
    M("end-most-rows-of-all-on-a-tie", "END-6", "On a tie for the top score, the players with the most complete "
      "rows of anybody win, whatever their points.", ("game.Game._end_game", _winners(_most_rows_of_all_on_a_tie)),
      prompted_by=("azul-game-engine", "azul-marl-env")),
    M("end-lowest-seat-wins-tie", "END-6", "The first seat with the top score wins alone: rows are not compared "
      "and a tie is never shared.", ("game.Game._end_game", _winners(_first_top_score)), prompted_by="myzul-ts"),
    M("end-highest-seat-wins-tie", "END-6", "Scores are compared with a strict 'greater than', the later seat kept "
      "on equal points: the last seat with the top score wins alone, rows are not compared and a tie is never "
      "shared.", ("game.Game._end_game", _winners(lambda ranks: _tied_on_points(ranks)[-1:])),
      prompted_by="ummatias-azul-py"),
    M("end-first-seat-wins-tie", "END-7", "A remaining tie goes to the lowest seat alone.",
      ("game.Game._end_game", _winners(lambda ranks: _top(ranks)[:1])), source="divergence", prompted_by="myzul-ts"),
    M("end-lowest-score-wins", "END-5", "The winner is found with the comparison reversed: the lowest score wins, "
      "and a tie on it goes to the fewest complete rows.",
      ("game.Game._end_game", _winners(lambda ranks: [seat for seat, rank in enumerate(ranks)
                                                       if rank == min(ranks)]))),
    M("end-checked-before-tiling", "END-1", "Whether a wall row is complete is checked as the offer ends, before "
      "the tiling: the round that completes a row is followed by one more.",
      ("game.Game._end_offer", _end_decided_before_tiling(_any_complete_row))),
    M("end-with-the-first-board", "END-1", "The boards are tiled seat by seat and the game ends with the first "
      "that completes a row: the boards after it are not tiled, their floors not charged.",
      ("game.Game._end_offer", _ends_with_the_first_row)),
    M("end-it2-at-the-fifth-tile", "END-1", "IT-2: on the coloured wall the game ends at the placement that puts "
      "a fifth tile in a wall row: nothing more is tiled and no floor is charged.",
      ("game.Game._end_offer", _ends_at_the_fifth_tile), source="divergence"),
    M("end-before-the-floor", "END-1", "IT-2 read literally: the game ends once the walls are tiled; the last "
      "round's floor penalties are never taken.", ("game.Game._end_offer", _ends_before_the_floor),
      source="divergence"),
    M("end-bonuses-before-the-floor", "END-1", "The bonuses are added as soon as the walls are tiled, before the "
      "floor penalties and their clamp at 0.", ("game.Game._end_offer", _bonuses_before_the_floor)),
    M("end-fifth-line-ends-game", "END-1", "Five tiles on one line end the game: a full fifth pattern line ends "
      "it after the tiling, whether or not a wall row is complete.",
      ("game.Game._end_offer", _end_decided_before_tiling(
          lambda game: any(board.line_complete(4) for board in game.boards)))),
    M("end-row-or-column-ends-game", "END-1", "A complete wall row or a complete column ends the game.",
      ("game.Game._end_round", _column_ends_game(rows_too=True))),
    M("end-round-counted", "END-1", "The round number moves on when a round ends, before the check for the end: "
      "a finished game shows the round after its last.", ("game.Game._end_round", _round_counted_at_the_end)),
    M("end-column-colour-swapped", "END-3", "The column and colour bonuses swapped: 10 a column, 7 a colour.",
      ("board.Board.end_bonus", value(lambda b: 2 * b.complete_rows() + 10 * b.complete_columns()
                                      + 7 * b.complete_colours()))),
    M("end-row-colour-swapped", "END-2", "The row and colour bonuses swapped: 10 a row, 2 a colour.",
      ("board.Board.end_bonus", value(lambda b: 10 * b.complete_rows() + 7 * b.complete_columns()
                                      + 2 * b.complete_colours()))),
    M("end-bonus-per-tile", "END-2", "Each bonus is counted per tile: 2 for each tile of a complete row, 7 of a "
      "complete column, 10 of a complete colour.",
      ("board.Board.end_bonus", lambda original: lambda board: 5 * original(board))),
    M("end-bonuses-for-row-owners", "END-3", "Only the players with a complete row earn end bonuses; the others' "
      "columns and colours count for nothing.",
      ("board.Board.end_bonus", lambda original: lambda board: original(board) if board.complete_rows() else 0)),
    M("end-colour-on-printed-spaces", "END-4", "A colour is complete when its five printed spaces are filled; on "
      "the grey wall, the spaces the coloured wall prints for it.",
      ("board.Board.complete_colours", value(_printed_spaces_filled))),
    M("end-winner-before-bonuses", "END-5", "The winner is decided on the points before the bonuses; the bonuses "
      "are added to the scores after.", ("game.Game._end_game", _winner_before_bonuses)),
    M("end-it2-tie-break-for-two", "END-6", "IT-2: complete rows break a tie between two players; three or more "
      "tied on points all win.", ("game.Game._end_game", _winners(_tie_break_for_two)), source="divergence"),
    M("end-first-two-tied-compared", "END-6", "A tie on points is broken by comparing the rows of the first two "
      "tied players in seat order; any other tied player is left out.",
      ("game.Game._end_game", _winners(_first_two_tied_compared))),
    M("end-tie-break-counts-columns", "END-6", "The tie-break counts every complete row, the vertical rows "
      "(columns) too.", ("game.Game._end_game", _winners(_top, lambda board: board.complete_rows()
                                                           + board.complete_columns()))),
    M("end-remaining-tie-by-columns", "END-7", "A tie on points and rows is broken by complete columns, then "
      "colours; only a tie on all of them is shared.",
      ("game.Game._end_game", _winners(_top, lambda board: (board.complete_rows(), board.complete_columns(),
                                                            board.complete_colours())))),
    M("end-last-seat-wins-tie", "END-7", "A remaining tie goes to the tied player with the highest seat alone.",
      ("game.Game._end_game", _winners(lambda ranks: _top(ranks)[-1:]))),
    M("end-empty-deal-unscored", "END-8", "With nothing left to deal the game stops as it stands: no end "
      "bonuses.", ("game.Game._end_round", _empty_deal_ends_unscored), source="ruling"),
    M("end-row-of-four-ends-game", "END-1", "A wall row is taken for complete at four tiles: the round that puts "
      "a fourth tile in a row ends the game.", ("game.Game._end_round", _row_of_four_ends_game), source="shape"),
    M("end-last-board-decides", "END-1", "The end is checked board by board, each answer overwriting the one "
      "before: only the last seat's complete row ends the game.", ("game.Game._end_round", _last_board_decides),
      source="shape"),
    M("end-row-bonus-at-four", "END-2", "A wall row with four tiles earns the row bonus (the count compared with "
      "4, not 5).", ("board.Board.end_bonus", value(_row_bonus_at_four)), source="shape"),
    M("end-bonuses-every-round", "END-3", "The bonuses are added at the end of every round for what the wall then "
      "holds, not once at the end of the game: a complete column or colour earns its bonus again each round.",
      ("game.Game._end_round", _bonuses_every_round), source="shape"),
    # the deal
    M("deal-no-refill", "DEAL-2", "The lid is never poured into the bag: the deal stops when the bag is empty.",
      ("game.Game._draw", _lid_hidden), ("game.Game._deal_given", _lid_hidden), source="divergence"),
    M("deal-early-refill", "DEAL-2", "The lid is poured into the bag before every deal, not when it runs out.",
      ("game.Game._draw", _pour_early), ("game.Game._deal_given", _pour_early),
      prompted_by=("azul-game-engine", "azul-marl-env", "myzul-ts")),
    M("deal-lid-copied", "DEAL-2", "The lid's tiles are added to the bag but the lid is not emptied.",
      ("game.Game._draw", _lid_copied), ("game.Game._deal_given", _lid_copied)),
    M("deal-poured-when-short", "DEAL-2", "When the bag holds fewer tiles than the deal needs, the lid is poured "
      "in and the deal drawn from the mix.",
      ("game.Game._draw", _poured_when_short), ("game.Game._deal_given", _poured_when_short), prompted_by="myzul-ts"),
    M("deal-poured-per-factory", "DEAL-2", "A factory the bag cannot fill gets the lid poured in first and is "
      "filled from the mix.",
      ("game.Game._draw", _poured_per_factory_draw(TILES_PER_FACTORY)),
      ("game.Game._deal_given", _poured_per_factory_given(TILES_PER_FACTORY)),
      prompted_by=("azul-game-engine", "azul-marl-env")),
    M("deal-half-lid-poured", "DEAL-2", "Refilling the bag moves every other tile of the lid; the rest stays in "
      "the lid.", ("game.Game._draw", _half_lid_poured), ("game.Game._deal_given", _half_lid_poured),
      prompted_by="myzul-ts"),
    M("deal-partial-factory-back", "DEAL-3", "Out of tiles, a factory that cannot be filled to four stays empty.",
      ("game.Game._draw", _partial_factory_back), ("game.Game._deal_given", _partial_factory_back),
      source="divergence"),
    M("deal-tiles-stay-in-bag", "DEAL-1", "Dealt tiles are copied from the bag, not taken out of it.",
      ("game.Game._draw", _tiles_stay_in_bag), ("game.Game._deal_given", _tiles_stay_in_bag)),
    M("deal-unchecked", "DEAL-1", "A given deal is taken as it comes: neither the bag's tiles nor the factory "
      "sizes are checked.", ("game.Game._deal_given", _deal_unchecked)),
    M("deal-any-time", "DEAL-1", "A deal is accepted in the middle of the offer: it fills the factories again.",
      ("game.Game.deal", _deal_any_time)),
    M("deal-at-new-game", "DEAL-1", "A new game comes with its first round dealt; only later rounds wait for a "
      "deal.", ("game.Game.__init__", _dealt_at_new_game)),
    M("deal-short-ends-game", "DEAL-3", "When bag and lid together cannot fill every factory, the game ends "
      "instead of a short round.", ("game.Game._end_round", _short_deal_ends_game)),
    M("deal-short-round-robin", "DEAL-3", "Out of tiles, the deal goes a tile a factory in turn: the tiles left "
      "are spread over all the factories.", ("game.Game._draw", _short_round_robin_draw),
      ("game.Game._deal_given", _short_given(lambda sizes, tiles: sizes == _round_robin(tiles, len(sizes)),
                                             "one a factory in turn"))),
    M("deal-short-any-factories", "DEAL-3", "Out of tiles, a given deal may leave any factories short or empty, "
      "not only the last ones: it must only deal every tile left.",
      ("game.Game._deal_given", _short_given(lambda sizes, tiles: True, "on any factories"))),
    M("deal-lid-poured-every-round-end", "DEAL-2", "There is no lid to keep: at the end of every round the "
      "discarded tiles go back into the bag, whatever it still holds, and a position's lid tiles are bag tiles.",
      ("game.Game._end_round", _poured_at_round_end(lambda game: True)), ("state._build", _lid_in_bag_when_loaded),
      prompted_by="azul-tiles-js"),
    M("deal-lid-poured-into-empty-bag-at-round-end", "DEAL-2", "IT-2: the discarded tiles go back into the bag "
      "between rounds, once it is empty; a deal that empties the bag goes on without them, leaving the next "
      "factories short or empty.", ("game.Game._end_round", _poured_at_round_end(lambda game: not any(game.bag))),
      ("game.Game._draw", _lid_hidden), ("game.Game._deal_given", _lid_hidden), source="divergence"),
    M("deal-refill-before-deal", "DEAL-2", "The bag is checked once, before the deal: if it is empty the lid is "
      "poured in; a bag that runs out during the deal leaves the rest of the factories short.",
      ("game.Game._draw", _poured_before_an_empty_bag), ("game.Game._deal_given", _poured_before_an_empty_bag),
      prompted_by="cbermudez-azul-pl"),
    M("deal-refill-after-deal", "DEAL-2", "The deal draws what the bag holds; if that empties it, the lid is "
      "poured in afterwards, ready for the next round.",
      ("game.Game._draw", _poured_after_the_deal), ("game.Game._deal_given", _poured_after_the_deal)),
    M("deal-refill-between-factories", "DEAL-2", "The bag is refilled between factories: the factory it runs out "
      "on stays short, and the lid is poured in for the next one.",
      ("game.Game._draw", _poured_per_factory_draw(1)), ("game.Game._deal_given", _poured_per_factory_given(1))),
    M("deal-three-tiles-a-factory", "DEAL-1", "Each factory is filled with three tiles (the fill loop stops one "
      "short).", ("game.TILES_PER_FACTORY", value(TILES_PER_FACTORY - 1)), source="shape"),
    M("deal-given-unordered-unchecked", "DEAL-2", "Draws the bag empty before pouring in the lid, but accepts a "
      "given deal that takes lid tiles while the bag still holds others although its own draw never deals one: a "
      "given deal is checked against the bag and the lid together.",
      ("game.Game._deal_given", _poured_when_short)),
    M("grey-no-column-rule", "GREY-2", "IT-2: a colour may go in a column that already holds it.",
      ("board.Board.free_columns", _any_free_column), ("game.Game._place", _columns_unchecked),
      source="divergence"),
    M("grey-coloured-layout", "GREY-1", "On the grey wall each colour still goes to its printed column.",
      ("board.Board.free_columns", _coloured_layout),
      ("game.Game._place", _refuse_unlisted("GREY-1", "placements", phase=None))),
    M("grey-unfit-line-to-lid", "GREY-3", "ES and IT-2: a line whose tile fits no column is discarded to the lid.",
      ("board.Board.line_to_floor", _unfit_line(0)), source="divergence"),
    M("grey-unfit-one-tile-to-floor", "GREY-3", "A line that fits nowhere sends one tile to the floor, the rest "
      "to the lid.", ("board.Board.line_to_floor", _unfit_line(1))),
    M("grey-refuse-unplaceable", "GREY-4", "A line refuses a colour that no free column of its row could take.",
      ("board.Board.colours_accepted", _accepts(_fits_a_column)), ("board.Board.reopen", _reopen_every_line),
      ("game.Game._take", _refuse_unlisted("GREY-4")), source="ruling"),
    M("grey-lines-in-any-order", "GREY-5", "A board tiles its complete lines in the order its owner chooses, so "
      "a lower line may take a column an upper line of the same board needs.",
      ("game.Game._continue_grey_tiling", _any_order_tiling), ("game.Game.legal_moves", _any_line_listed),
      ("game.Game._place", _placed_as_listed), prompted_by="comp1110-azul-java"),
    M("grey-placed-in-the-offer", "GREY-5", "A line's space is chosen when the line is filled: during the offer its "
      "owner places the tile of a complete line on the wall, without using a turn.",
      ("game.Game.legal_moves", _placements_in_the_offer), ("game.Game.play", _placed_in_the_offer)),
    M("grey-unfit-line-kept", "GREY-3", "A line whose tile fits no column stays on its pattern line, full, "
      "instead of going to the floor.", ("board.Board.line_to_floor", value(lambda board, line, lid: None))),
    M("grey-unfit-lines-fall-last", "GREY-3", "Lines whose tile fits no column go to the floor after the board's "
      "placements, not when they are reached.",
      ("game.Game._continue_grey_tiling", _grey_order(lambda game: game.start_player, (0, 1, 2, 3, 4),
                                                      unfit="last")),
      ("game.Game._pending_line", _first_line_that_fits)),
    M("grey-unfit-lines-judged-first", "GREY-3", "Which lines fit no column is settled as the tiling begins: they go "
      "to the floor then, and a line whose last column an upper placement takes is still asked for.",
      ("game.Game._end_offer", _unfit_judged_at_the_offer_end),
      ("game.Game._continue_grey_tiling", _grey_order(lambda game: game.start_player, (0, 1, 2, 3, 4),
                                                      unfit="asked"))),
    M("grey-unfit-overflow-lost", "GREY-3", "A line that fits no column goes to the floor; what finds no floor "
      "space is thrown away, not put in the lid.", ("board.Board.line_to_floor", _unfit_overflow_lost)),
    M("grey-column-checked-above", "GREY-2", "A column is checked for the colour only in the rows above the "
      "placement.", ("board.Board.free_columns", _column_checked_above), ("game.Game._place", _placed_as_listed)),
    M("grey-column-rule-unlisted", "GREY-2", "The column rule is checked when a placement is played, not when the "
      "placements are listed nor when a line is tested for a space: a line whose row has an empty space waits "
      "for its owner.", ("board.Board.free_columns", _any_free_column)),
    M("grey-leftmost-column", "GREY-1", "The engine puts each tile in the leftmost column the rules allow; the "
      "owner is not asked.",
      ("game.Game._continue_grey_tiling", _grey_order(lambda game: game.start_player, (0, 1, 2, 3, 4), column=min))),
    M("grey-scored-at-printed-space", "GREY-1", "A tile is scored as if it stood on the space the coloured wall "
      "prints for it, wherever it was placed.", ("board.Board.tile_line", _scored_at_printed_space)),
    # the colour bonus on the grey wall: misreadings of END-4 (which holds on both walls), not of GREY-1
    M("grey-colour-bonus-on-printed-spaces", "END-4", "A colour earns its bonus only with its five tiles on the "
      "spaces the coloured wall prints for them.", ("board.Board.complete_colours", value(_colour_on_printed_spaces))),
    M("grey-no-colour-bonus", "END-4", "The grey wall has no colours printed, so no colour bonus: only rows and "
      "columns earn one.", ("game.Game._end_game", _no_colour_bonus_on_grey)),
    M("grey-column-checked-from-row-2", "GREY-2", "A column is checked for the colour in rows 2 to 5 only (the "
      "loop starts at 1): a colour in the top row does not close its column.",
      ("board.Board.free_columns", _column_checked_from_row_2), ("game.Game._place", _placed_as_listed),
      source="shape"),
    M("grey-single-space-unfit", "GREY-3", "A line whose tile has a single free space left in its row is sent to "
      "the floor as if it fitted nowhere: the engine asks for more than one free column.",
      ("board.Board.free_columns", _single_space_unfit), ("game.Game._place", _placed_as_listed), source="shape"),
    M("grey-placement-asked-of-start-player", "GREY-1", "During the grey tiling the turn stays with the round's "
      "start player, who is asked for every board's placements.",
      ("game.Game._continue_grey_tiling", _start_player_stays_on_move), ("game.Game.play", _asked_of_start_player),
      ("game.Game.legal_moves", _asked_of_start_player), source="shape"),
    # set-up
    M("grey-occupied-space-unchecked", "GREY-1", "Accepts a placement on a wall space already taken although it "
      "never lists it: the tile is written over the one there, which is lost.",
      ("game.Game._place", _placement_check_without("GREY-1"))),
    M("grey-column-rule-unchecked", "GREY-2", "Accepts a placement in a column that already holds its colour "
      "although it never lists it: the column is not checked when the placement is played.",
      ("game.Game._place", _placement_check_without("GREY-2"))),
    M("grey-line-order-unchecked", "GREY-5", "Accepts a placement of a lower complete line while an upper one "
      "waits although it never lists it: the tile of the line named goes to the wall, the upper line after.",
      ("game.Game._place", _placement_check_without("GREY-5"))),
    M("setup-two-factories-a-player", "SETUP-3", "Two factories a player (4, 6, 8), forgetting the extra one.",
      ("game.FACTORIES_BY_PLAYERS", value({2: 4, 3: 6, 4: 8}))),
    M("setup-seat-0-starts", "SETUP-5", "Seat 0 always starts the game, whatever start player is asked for.",
      ("game.Game.__init__", _seat_0_starts), source="divergence"),
    M("setup-start-seat-modulo", "SETUP-5", "The start seat is not checked: any number is taken modulo the "
      "number of players.", ("game.Game.__init__", _start_seat_modulo)),
    M("setup-any-player-count", "SETUP-6", "Any number of players is accepted, with 2n + 1 factories.",
      ("game.FACTORIES_BY_PLAYERS", value(_AnyCount(FACTORIES_BY_PLAYERS))), prompted_by="azul-ai-go"),
    M("setup-player-count-clamped", "SETUP-6", "A player count out of range is brought into it: 1 player plays "
      "as 2, 5 as 4.", ("game.Game.__init__", _player_count_clamped), prompted_by="azul-ai-go"),
    M("setup-factories-one-too-many", "SETUP-3", "Two factories a player and two more (6, 8, 10): one factory "
      "too many at every table.", ("game.FACTORIES_BY_PLAYERS", value({2: 6, 3: 8, 4: 10})),
      ("game.TAKES_FROM", value(TAKES_FROM + (TAKES_TO[1:] + [_TENTH_TO, TAKES_TO[CENTRE]],))),
      ("moves._TAKES", value({**TAKE_OF_TEXT, **{t.text: t for by_line in _TENTH for t in by_line}}))),
    M("setup-nine-factories-always", "SETUP-3", "All nine factories in the box are set out, whatever the number "
      "of players.", ("game.FACTORIES_BY_PLAYERS", value({2: 9, 3: 9, 4: 9}))),
    M("setup-tiles-start-in-lid", "SETUP-4", "The tiles start in the box lid, and the first deal pours them into "
      "the bag as when it runs empty.", ("game.Game.__init__", _tiles_start_in_lid)),
    M("setup-22-per-colour", "SETUP-4", "The bag is filled with 22 tiles of each colour, the count of the sister "
      "game the code came from.", ("game.TILES_PER_COLOUR", value(22))),
    M("setup-marker-on-start-floor", "SETUP-5", "The start player's marker is placed in front of them, on their "
      "floor line: it costs them its space in the first round, and nobody takes it from the centre.",
      ("game.Game.__init__", _marker_on_start_floor)),
    M("setup-seats-from-1", "SETUP-5", "The start player is given counting seats from 1, as an index into the "
      "list of players: start 1 is the first seat, and start 0, index -1, the last.",
      ("game.Game.__init__", _seats_from_1), ("state._build", _loaded_seats_from_0)),
    M("setup-solo-allowed", "SETUP-6", "One player may play alone, with 3 factories; 2 to 4 players as the rules "
      "say.", ("game.FACTORIES_BY_PLAYERS", value({1: 3, **FACTORIES_BY_PLAYERS}))),
    M("setup-unknown-variant-coloured", "SETUP-1", "Any variant but the grey one is played on the coloured wall: "
      "an unknown variant is not refused.", ("game.Game.__init__", _unknown_variant_coloured)),
    M("setup-four-players-refused", "SETUP-6", "The player count is checked against range(2, 4): a game of four "
      "players is refused.", ("game.FACTORIES_BY_PLAYERS", value({2: 5, 3: 7})), source="shape"),
    M("setup-five-players-accepted", "SETUP-6", "The player count is checked with 'at most 5': five players are "
      "accepted, with 11 factories.", ("game.FACTORIES_BY_PLAYERS", value({**FACTORIES_BY_PLAYERS, 5: 11})),
      source="shape"),
    M("setup-first-turn-left-of-start-player", "SETUP-5", "The start player chosen at set-up deals the first "
      "round, and the player on their left takes its first turn.", ("game.Game.deal", _first_turn_left_of_start),
      source="shape"),
    M("deal-bag-refilled-every-round", "DEAL-4", "Every round starts from a full bag of 100 tiles, as the first "
      "does; the lid is set aside.", ("game.Game._end_round", _bag_refilled_every_round), source="shape"),
)

# Other choices where the rules leave one open (implementation-defined rules): not wrong readings, so not in the
# mutation score (the suite judges them `differs`, never a failure), but the lint uses them to ask whether the
# scenarios of such a rule tell our choice from another.
ALTERNATIVES: tuple[Mutant, ...] = (
    M("grey-seat-0-places-first", "GREY-5", "On the grey wall seat 0 places first, whoever started the round.",
      ("game.Game._end_offer", _grey_tiling_from_seat_0),
      ("game.Game._continue_grey_tiling", _grey_order(lambda game: 0, (0, 1, 2, 3, 4))), source="choice"),
)
