"""Readings of SCORE-1..5 (scoring during the wall tiling) and ROUND-1..3 (preparing the next round), written from
the rules' text and the reference code alone (clean room), shape by shape (shapes.SHAPES).

Engine state a slip keeps that the reference has no field for (a penalty counter never reset, the seat that made
the round's last take) is held in module dictionaries keyed by the object's id, carried over by copies.
"""

from __future__ import annotations

from ..readings import (
    DEAL, EMPTY, IN_CENTRE, MARKER, WALL_SIZE, M, _coloured_end_offer, _no_clamp, kept_by_copies, points, runs,
    scored,
)

LAST = WALL_SIZE - 1


# -- SCORE-1, SCORE-2: the points of one placed tile -----------------------------------------------------------

def _diagonal_not_lone(board, row: int, column: int) -> int:
    """The lone test looks at the 3x3 box around the tile: a diagonal neighbour makes it 'not lone', and with no
    run of 2 it then scores 0."""
    wall = board.wall
    near = any(wall[r][c] != EMPTY for r in range(max(row - 1, 0), min(row + 2, WALL_SIZE))
               for c in range(max(column - 1, 0), min(column + 2, WALL_SIZE)) if (r, c) != (row, column))
    return scored(*runs(board, row, column), lone=0) if near else 1


def _wrapping_runs(board, row: int, column: int) -> tuple[int, int]:
    """The reference's scan with `left >= 0` / `top >= 0` for `> 0`: at index 0 Python reads cells[-1], the last
    column (row), so a run reaching the first column (row) takes in the last one when it is filled."""
    wall = board.wall
    cells = wall[row]
    left = column
    while left >= 0 and cells[left - 1] != EMPTY:
        left -= 1
    right = column
    while right < LAST and cells[right + 1] != EMPTY:
        right += 1
    top = row
    while top >= 0 and wall[top - 1][column] != EMPTY:
        top -= 1
    bottom = row
    while bottom < LAST and wall[bottom + 1][column] != EMPTY:
        bottom += 1
    return right - left + 1, bottom - top + 1


def _every_way_counted(across: int, down: int) -> int:
    """Lone test right, but then both directions added whatever their length: a run of 1 adds its 1."""
    return 1 if across == 1 and down == 1 else across + down


def _short_down(across: int, down: int) -> int:
    """Neighbours counted each way; the +1 for the tile itself forgotten in the vertical run."""
    h, v = across - 1, down - 1
    if h == 0 and v == 0:
        return 1
    return (h + 1 if h else 0) + (v if v else 0)


def _short_across(across: int, down: int) -> int:
    """Neighbours counted each way; the +1 for the tile itself forgotten in the horizontal run."""
    h, v = across - 1, down - 1
    if h == 0 and v == 0:
        return 1
    return (h if h else 0) + (v + 1 if v else 0)


def _blue_not_seen(board, row: int, column: int) -> tuple[int, int]:
    """Runs scanned with `while cells[c]:` and None for an empty space: blue, colour 0, is falsy and ends a run
    as a gap would (the placed tile itself is always counted)."""
    wall = board.wall
    board.wall = [[EMPTY if cell == 0 and (r, c) != (row, column) else cell for c, cell in enumerate(cells)]
                  for r, cells in enumerate(wall)]
    try:
        return runs(board, row, column)
    finally:
        board.wall = wall


def _down_overwrites(across: int, down: int) -> int:
    """`points = across` then `points = down` where `+=` was meant: a vertical run replaces the horizontal one."""
    got = 0
    if across > 1:
        got = across
    if down > 1:
        got = down
    return got or 1


# -- SCORE-3: when the tiles score -------------------------------------------------------------------------------

def _wall_points(board) -> int:
    """The points of every tile on the wall, each by its runs on the wall as it stands."""
    return sum(board.placement_points(r, c) for r in range(WALL_SIZE) for c in range(WALL_SIZE)
               if board.wall[r][c] != EMPTY)


def _whole_wall_each_round(original):
    """After the round's placements, every tile on the wall scores again, not only the new ones."""
    def tile_coloured_wall(board, lid):
        score = board.score
        original(board, lid)
        if board.score != score:  # some tile was placed this round
            board.score = score + _wall_points(board)
    return tile_coloured_wall


def _round_points_assigned(original):
    """`score = round_points` where `+=` was meant: the score becomes the round's wall points, then the floor."""
    def tile_coloured_wall(board, lid):
        score = board.score
        original(board, lid)
        if board.score != score:
            board.score -= score
    return tile_coloured_wall


# -- SCORE-4, SCORE-5: the floor's cost and the clamp ------------------------------------------------------------

def _clamped_before_penalty(original):
    """`if score < 0: score = 0` written before the subtraction: the score may end a round below 0, and is put
    back to 0 only at the next floor charge, before that charge."""
    unclamped = _no_clamp(original)

    def clear_floor(board, lid):
        if board.score < 0:
            board.score = 0
        unclamped(board, lid)
    return clear_floor


def _marker_alone_free(original):
    """`if floor_tiles:` guards the charge, the marker kept apart: a floor holding only the marker costs nothing."""
    def floor_penalty(board):
        if all(tile == MARKER for tile in board.floor):
            return 0
        return original(board)
    return floor_penalty


def _grey_floor_first(original):
    """On the grey wall too, each board's floor is charged (and clamped) and cleared as the offer ends, before
    any placement; what GREY-3 puts on the floor later is charged after that board's placements."""
    def end_offer(game):
        if game.grey:
            for board in game.boards:
                board.clear_floor(game.lid)
        original(game)
    return end_offer


# -- ROUND-1, ROUND-2, ROUND-3: the next round's start -----------------------------------------------------------

def _ends_when_bag_or_lid_empty(original):
    """END-8's test written with `or`: the game ends when the bag or the lid is empty after a round."""
    def end_round(game):
        if not any(board.complete_rows() for board in game.boards) and (not any(game.bag) or not any(game.lid)) \
                and (any(game.bag) or any(game.lid)):
            game.bag, game.lid, kept = [0] * 5, [0] * 5, (game.bag, game.lid)
            original(game)  # ends the game (bag and lid seen empty)
            game.bag, game.lid = kept
            return
        original(game)
    return end_round


def _holder_truthy(original):
    """`if self.marker:` for `if self.marker is not None`: seat 0 holding the marker counts as nobody."""
    def end_round(game):
        holder, was = game.marker, game.start_player
        original(game)
        if game.phase == DEAL and holder == 0:
            game.start_player = game.turn = was
    return end_round


_LAST_TAKER: dict[int, int] = {}  # id(game) -> the seat that made the round's last take


def _remember_last_taker(original):
    """Note who made the last take as the offer ends (game.turn is still theirs)."""
    def end_offer(game):
        _LAST_TAKER[id(game)] = game.turn
        original(game)
    return end_offer


_last_taker_copied = kept_by_copies(_LAST_TAKER)


def _next_start(choose):
    """choose(game, holder or IN_CENTRE, the start player that was, the last taker) -> the next start player."""
    def make(original):
        def end_round(game):
            holder, was = game.marker, game.start_player
            last = _LAST_TAKER.pop(id(game), game.turn)
            original(game)
            if game.phase == DEAL:
                game.start_player = game.turn = choose(game, holder, was, last)
        return end_round
    return make


def _turn_left_on_last_taker(original):
    """The round's end moves the start player but leaves the turn where it was until the deal sets it."""
    def end_round(game):
        last = _LAST_TAKER.pop(id(game), game.turn)
        original(game)
        if game.phase == DEAL:
            game.turn = last
    return end_round


def _marker_held_to_the_deal(original):
    """The round's end leaves marker and start player as they are; the deal reads the marker."""
    def end_round(game):
        holder, was = game.marker, game.start_player
        original(game)
        if game.phase == DEAL:
            game.marker, game.start_player, game.turn = holder, was, was
    return end_round


def _start_read_at_the_deal(original):
    """The deal makes the marker's holder the start player and puts the marker back in the centre."""
    def deal(game, *args, **kwargs):
        if game.phase == DEAL and game.marker != IN_CENTRE:
            game.start_player, game.marker = game.marker, IN_CENTRE
            game.turn = game.start_player
        original(game, *args, **kwargs)
    return deal


_NEXT_TURN: dict[int, int] = {}  # id(game) -> the seat the next deal gives the first turn to


def _game_init(original):
    """A new game starts with no remembered seat."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _NEXT_TURN.pop(id(game), None)
    return init


_game_copy = kept_by_copies(_NEXT_TURN)


def _start_field_not_moved(original):
    """The round's end gives the turn to the marker holder but leaves the start player field as it was."""
    def end_round(game):
        was = game.start_player
        original(game)
        if game.phase == DEAL:
            _NEXT_TURN[id(game)] = game.turn
            game.start_player = was
    return end_round


def _deal_to_next_turn(original):
    """The deal gives the first turn to the seat the round's end chose, not to the start player field."""
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        if id(game) in _NEXT_TURN:
            game.turn = _NEXT_TURN.pop(id(game))
    return deal


def _prepared_before_end_check(original):
    """The next round is prepared (round counted, start player moved, marker back) before the end is checked."""
    def end_round(game):
        holder = game.marker
        original(game)
        if game.phase != DEAL:  # the game ended: it shows the preparation made before the check
            game.round += 1
            if holder != IN_CENTRE:
                game.start_player = holder
            game.marker = IN_CENTRE
    return end_round


READINGS = (
    # SCORE-1
    M("score-diagonal-neighbour-not-lone", "SCORE-1", "The lone-tile test looks at the eight squares around the "
      "tile: a tile with only a diagonal neighbour is not lone, and as it is in no run of 2 it scores 0.",
      ("board.Board.placement_points", lambda original: _diagonal_not_lone), source="shape"),
    # SCORE-2
    M("score-single-way-counts-one", "SCORE-2", "A tile with a neighbour scores its horizontal run plus its "
      "vertical run, a run of 1 (the tile alone that way) adding 1: two tiles side by side score 3.",
      ("board.Board.placement_points", points(_every_way_counted)), source="shape"),
    M("score-vertical-run-one-short", "SCORE-2", "Each run counts the tile's neighbours that way plus the tile; the "
      "+1 for the tile was forgotten in the vertical run, which scores one short.",
      ("board.Board.placement_points", points(_short_down)), source="shape"),
    M("score-horizontal-run-one-short", "SCORE-2", "Each run counts the tile's neighbours that way plus the tile; "
      "the +1 for the tile was forgotten in the horizontal run, which scores one short.",
      ("board.Board.placement_points", points(_short_across)), source="shape"),
    M("score-scan-wraps-to-last-column", "SCORE-2", "The leftward and upward scans run while the index is >= 0, "
      "not > 0: at the wall's first column (row) they read index -1, the last one, so a run reaching column 1 "
      "(row 1) takes in a filled column 5 (row 5) too.",
      ("board.Board.placement_points", points(measure=_wrapping_runs)), source="shape"),
    M("score-blue-tiles-not-seen", "SCORE-2", "The runs are scanned with a truthiness test on the wall's spaces "
      "(`while row[c]:`, None for empty): a blue tile, colour 0, reads as empty and ends a run like a gap.",
      ("board.Board.placement_points", points(measure=_blue_not_seen)), source="shape"),
    M("score-vertical-run-overwrites", "SCORE-2", "The vertical run's points are assigned where they should be "
      "added: a tile in both runs scores only its vertical run.",
      ("board.Board.placement_points", points(_down_overwrites)), source="shape"),
    # SCORE-3
    M("score-whole-wall-each-round", "SCORE-3", "Each round the wall is scored whole: after the round's "
      "placements every tile on the wall scores its runs again, not only those placed that round.",
      ("board.Board.tile_coloured_wall", _whole_wall_each_round), source="shape"),
    M("score-round-points-assigned", "SCORE-3", "The round's wall points are written to the score instead of "
      "added to it: after a round with a placement the score is that round's points, less the floor.",
      ("board.Board.tile_coloured_wall", _round_points_assigned), source="shape"),
    # SCORE-4
    M("score-floor-first-on-both-walls", "SCORE-4", "The floor is charged (and clamped at 0) before the wall "
      "placements on the grey wall as well: as the offer ends every floor is charged and cleared, and a line "
      "that fits no column falls to a floor charged again after that board's placements.",
      ("game.Game._end_offer", _coloured_end_offer("lid", "lid", floor_first=True)),
      ("game.Game._end_offer", _grey_floor_first), source="shape"),
    M("score-marker-alone-free", "SCORE-4", "The floor is charged only when it holds a tile: a floor line "
      "holding the marker alone costs nothing.", ("board.Board.floor_penalty", _marker_alone_free),
      source="shape"),
    # SCORE-5
    M("score-clamped-before-the-penalty", "SCORE-5", "The clamp at 0 is written before the floor penalty is "
      "taken: a score may end the round below 0, and is set back to 0 only at the next round's floor charge.",
      ("board.Board.clear_floor", _clamped_before_penalty), source="shape"),
    # ROUND-1
    M("round-ends-when-bag-or-lid-empty", "ROUND-1", "The test for a deal with no tile left reads 'bag empty or lid "
      "empty': after a round leaving either one empty the game ends.",
      ("game.Game._end_round", _ends_when_bag_or_lid_empty), source="shape"),
    M("round-prepared-before-end-check", "ROUND-1", "The next round is prepared before the end of the game is "
      "checked: a finished game shows the round after its last, the marker back in the centre and its last "
      "holder as start player.", ("game.Game._end_round", _prepared_before_end_check), source="shape"),
    # ROUND-2
    M("round-seat-0-holder-ignored", "ROUND-2", "The holder is tested as `if marker:`: when seat 0 took the "
      "marker it reads as nobody, and the start player stays the same.",
      ("game.Game._end_round", _holder_truthy), source="shape"),
    M("round-holder-position-read-as-seat", "ROUND-2", "The marker's taker is recorded by position in the round's "
      "turn order (0 for the start player) and that position is then used as a seat number.",
      ("game.Game._end_round", _next_start(lambda g, holder, was, last: was if holder == IN_CENTRE
                                           else (holder - was) % g.players)), source="shape"),
    M("round-last-taker-starts-next-round", "ROUND-2", "The player who made the round's last take starts the next "
      "round.",
      ("game.Game._end_offer", _remember_last_taker), ("game.Game.copy", _last_taker_copied),
      ("game.Game._end_round", _next_start(lambda g, holder, was, last: last)), source="shape"),
    M("round-seat-after-last-taker-starts", "ROUND-2", "The turn passes on as after any take: the player after "
      "the one who made the round's last take starts the next round.",
      ("game.Game._end_offer", _remember_last_taker), ("game.Game.copy", _last_taker_copied),
      ("game.Game._end_round", _next_start(lambda g, holder, was, last: (last + 1) % g.players)), source="shape"),
    M("round-turn-left-on-last-taker", "ROUND-2", "Between rounds the turn is left with the last taker (the start "
      "player is moved to the marker holder, who gets the turn at the deal).",
      ("game.Game._end_offer", _remember_last_taker), ("game.Game.copy", _last_taker_copied),
      ("game.Game._end_round", _turn_left_on_last_taker),
      source="shape"),
    M("round-start-set-at-the-deal", "ROUND-2", "The marker stays with its holder, and the start player as it "
      "was, until the next deal, which makes the holder the start player.",
      ("game.Game._end_round", _marker_held_to_the_deal), ("game.Game.deal", _start_read_at_the_deal),
      source="shape"),
    M("round-start-player-field-not-moved", "ROUND-2", "The marker holder gets the next round's first turn, but "
      "the start player field is never updated: it keeps the seat that started the game.",
      ("game.Game.__init__", _game_init), ("game.Game.copy", _game_copy),
      ("game.Game._end_round", _start_field_not_moved), ("game.Game.deal", _deal_to_next_turn), source="shape"),
)


CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "SCORE-1": {"comparison": ("score-diagonal-neighbour-not-lone",)},
    "SCORE-2": {"comparison": ("score-single-way-counts-one", "score-scan-wraps-to-last-column",
                               "score-blue-tiles-not-seen"),
                "off-by-one": ("score-vertical-run-one-short", "score-horizontal-run-one-short"),
                "overwritten": ("score-vertical-run-overwrites",)},
    "SCORE-3": {"once": ("score-whole-wall-each-round",), "overwritten": ("score-round-points-assigned",)},
    "SCORE-4": {"comparison": ("score-marker-alone-free",), "order": ("score-floor-first-on-both-walls",)},
    "SCORE-5": {"order": ("score-clamped-before-the-penalty",)},
    "ROUND-1": {"comparison": ("round-ends-when-bag-or-lid-empty",), "order": ("round-prepared-before-end-check",)},
    "ROUND-2": {"comparison": ("round-seat-0-holder-ignored",),
                "seat": ("round-holder-position-read-as-seat", "round-last-taker-starts-next-round",
                         "round-seat-after-last-taker-starts"),
                "reset": ("round-turn-left-on-last-taker", "round-start-player-field-not-moved"),
                "order": ("round-start-set-at-the-deal",)},
}
