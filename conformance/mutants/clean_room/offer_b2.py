"""Readings of OFFER-9 .. OFFER-16 written from the rules' text alone, second round (clean room; see NOTES.md of the
folder). Taken first from the data model (how an engine holds the wall row's colours, the lines' open/closed state,
the centre with its marker, the count of tiles on offer, whose turn it is) and from the moment in the round a step
is done, then from the shapes of slip the first round left open.
"""

from __future__ import annotations

from ..readings import (
    CENTRE, EMPTY, FLOOR, IN_CENTRE, OFFER, TAKES, M, Take,
    _accepts, _listed_for_previous_seat, _listed_for_seat_0, _listed_for_start_player, _refuse_unlisted,
    _reopen_every_line, _tiles_of,
)
from azul_reference.board import ALL_COLOURS


# -- helpers -----------------------------------------------------------------------------------------------------

def _inverse_layout(board, line, accepted):
    """colours_accepted looking for the colour at column (colour - row) mod 5, the layout's inverse (wall_colour's
    formula used where wall_column's belongs): an empty line refuses a colour when that space is filled."""
    if board.line_colour[line] != EMPTY:
        return accepted
    return sum(1 << colour for colour in range(5) if board.wall[line][(colour - line) % 5] == EMPTY)


def _overflow_after_filling(original):
    """Board.place_on_line computing the surplus after filling the line: the take's count less the free spaces
    left then, so tiles that went on the line also fall to the floor."""
    def place_on_line(board, line, colour, count, lid):
        room = line + 1 - board.line_count[line]
        fits = count if count <= room else room
        board.line_colour[line] = colour
        board.line_count[line] += fits
        board.reopen(line)
        surplus = count - (line + 1 - board.line_count[line])
        if surplus > 0:
            board.to_floor(colour, surplus, lid)
    return place_on_line


def _floor_take_handled(handle):
    """Game._take whose floor branch is code of its own: the colour is taken off its source and handle(game, move,
    tiles, count) does the rest of the take (the source's other tiles, the marker, where the taken tiles go); then
    the turn passes, or the offer ends, as in the reference."""
    def make(original):
        def take(game, move):
            if game.phase != OFFER or move.line != FLOOR or move.source > len(game.factories) \
                    or not _tiles_of(game, move):
                return original(game, move)
            original(game.copy(), move)  # raises when the rules refuse the take itself
            tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
            count = tiles[move.colour]
            tiles[move.colour] = 0
            handle(game, move, tiles, count)
            game.on_offer -= count
            if game.on_offer == 0:
                game._end_offer()
            else:
                game.turn = (game.turn + 1) % game.players
        return take
    return make


def _rest_to_centre(game, tiles):
    """The source's other tiles moved to the centre (a factory's rest, as the reference moves it)."""
    for colour in range(5):
        game.centre[colour] += tiles[colour]
    tiles[:] = [0] * 5


def _discarded_to_lid(game, move, tiles, count):
    """A take named to the floor line is discarded to the lid (no floor space, no penalty); the marker of a first
    centre take still goes to the floor, and the rest of a factory to the centre."""
    if move.source == CENTRE:
        if game.marker == IN_CENTRE:
            game.marker = game.turn
            game.boards[game.turn].take_marker()
    else:
        _rest_to_centre(game, tiles)
    game.lid[move.colour] += count


_floor_choice_to_lid = _floor_take_handled(_discarded_to_lid)


def _joins_building_line(original):
    """Game._take: a take to an empty line of a colour another unfinished line already holds goes on that line
    (the first such from the top), its surplus to the floor."""
    def take(game, move):
        if game.phase == OFFER and move.line != FLOOR and move.source <= len(game.factories) \
                and _tiles_of(game, move):
            board = game.boards[game.turn]
            line = move.line - 1
            if board.line_colour[line] == EMPTY and board.accepts(line, move.colour):
                for other in range(5):
                    if other != line and board.line_colour[other] == move.colour \
                            and not board.line_complete(other):
                        return original(game, Take(move.source, move.colour, other + 1))
        return original(game, move)
    return take


def _lines_only_listed(original):
    """Game._legal_takes listing takes to pattern lines only: the floor is never listed."""
    def legal_takes(game):
        return [m for m in original(game) if m.line != FLOOR]
    return legal_takes


def _has_line_take(game, seat: int) -> bool:
    """Whether `seat` has a take to some pattern line from what is on offer."""
    board = game.boards[seat]
    return any(tiles[c] and board.open_lines[c] for tiles in [*game.factories, game.centre] for c in range(5))


def _row_refuses_only(board, line: int, colour: int) -> bool:
    """Whether the reference refuses `colour` on `line` for OFFER-9 alone (an empty line, its row holding it)."""
    return board.line_colour[line] == EMPTY and bool(board.row_colours[line] >> colour & 1)


def _row_rule_skipped_for(centre: bool):
    """Game._legal_takes and Game._take of an engine whose code for the centre's takes (centre True) or the
    factories' (centre False), written apart, forgets the wall-row check: such takes are listed and placed."""
    def skipped(game, source) -> bool:
        return (source == CENTRE) == centre

    def listing(original):
        def legal_takes(game):
            board = game.boards[game.turn]
            extra = []
            sources = [(s + 1, f) for s, f in enumerate(game.factories)] + [(CENTRE, game.centre)]
            for source, tiles in sources:
                if skipped(game, source):
                    extra += [TAKES[source][c][line + 1] for c in range(5) if tiles[c]
                              for line in range(5) if _row_refuses_only(board, line, c)]
            moves = original(game)
            return sorted(moves + extra, key=_order(game))
        return legal_takes

    def take(original):
        def act(game, move):
            if game.phase == OFFER and move.line != FLOOR and move.source <= len(game.factories) \
                    and skipped(game, move.source) and _tiles_of(game, move):
                board = game.boards[game.turn]
                if _row_refuses_only(board, move.line - 1, move.colour):
                    board.open_lines[move.colour] |= 1 << (move.line - 1)
                    try:
                        return original(game, move)
                    finally:
                        board.reopen(move.line - 1)
            return original(game, move)
        return act
    return (("game.Game._legal_takes", listing), ("game.Game._take", take))


def _order(game):
    """The reference's order of the list: factories 1.. then the centre; colours B Y R K W; lines 1-5, then F."""
    factories = len(game.factories)
    return lambda m: (m.source if m.source != CENTRE else factories + 1, m.colour, m.line if m.line else 6)


def _floor_take_returns_early(marker_only: bool):
    """Game._take whose floor branch is handled (and returns) before the source's bookkeeping: the marker stays
    in the centre and, unless marker_only, the rest of a factory stays on it."""
    def to_floor(game, move, tiles, count):
        if move.source != CENTRE and marker_only:  # the rest still goes to the centre
            _rest_to_centre(game, tiles)
        game.boards[game.turn].to_floor(move.colour, count, game.lid)
    return _floor_take_handled(to_floor)


def _joins_line_of_colour(original):
    """Game._take: a take to an empty line of a colour another line already holds (full or not) goes on that line
    (the first from the top); what does not fit falls to the floor."""
    def take(game, move):
        if game.phase == OFFER and move.line != FLOOR and move.source <= len(game.factories) \
                and _tiles_of(game, move):
            board = game.boards[game.turn]
            line = move.line - 1
            if board.line_colour[line] == EMPTY and board.accepts(line, move.colour):
                for other in range(5):
                    if other != line and board.line_colour[other] == move.colour:
                        if board.line_complete(other):
                            board.open_lines[move.colour] |= 1 << other
                            try:
                                return original(game, Take(move.source, move.colour, other + 1))
                            finally:
                                board.reopen(other)
                        return original(game, Take(move.source, move.colour, other + 1))
        return original(game, move)
    return take


def _checked_on(seat_of):
    """Game._take checking the destination line on the board of seat_of(game) (a stale or wrong reference to the
    current board), and placing the tiles on the mover's board."""
    def make(original):
        def take(game, move):
            if game.phase != OFFER or move.line == FLOOR or move.source > len(game.factories) \
                    or not _tiles_of(game, move):
                return original(game, move)
            board = game.boards[game.turn]
            other = game.boards[seat_of(game)]
            line = move.line - 1
            if not other.accepts(line, move.colour):
                game._check_line(move, other, line, move.colour)
            if not board.accepts(line, move.colour):
                board.open_lines[move.colour] |= 1 << line
                try:
                    return original(game, move)
                finally:
                    board.reopen(line)
            return original(game, move)
        return take
    return make


def _placed_on_next_board(original):
    """Game._take passing the turn before the tiles are put down: the take is checked on the mover's board, and
    the tiles (the marker, the surplus) go on the next seat's board, unchecked there."""
    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories) or not _tiles_of(game, move):
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse it on the mover's board
        following = (game.turn + 1) % game.players
        game.turn = following
        board = game.boards[following]
        line = move.line - 1
        opened = move.line != FLOOR and not board.accepts(line, move.colour)
        if opened:
            board.open_lines[move.colour] |= 1 << line
        try:
            original(game, move)
        finally:
            if opened:
                board.reopen(line)
        if game.phase == OFFER:
            game.turn = following
    return take


def _unlisted_player_passes(original):
    """Game._take: after a take the turn passes over players whose list (takes to pattern lines only) is empty,
    unless every player's is."""
    def take(game, move):
        original(game, move)
        if game.phase != OFFER:
            return
        seat = game.turn
        for step in range(game.players):
            candidate = (seat + step) % game.players
            if _has_line_take(game, candidate):
                game.turn = candidate
                return
        game.turn = seat
    return take


def _ends_when_either_empty(to_lid: bool):
    """Game._take testing the offer's end with `or` for `and`: it ends after a take that leaves the factories
    empty or the centre empty; the tiles left elsewhere are swept into the lid (to_lid) or off the table."""
    def make(original):
        def take(game, move):
            original(game, move)
            if game.phase == OFFER and (not any(map(any, game.factories)) or not any(game.centre)):
                for tiles in [*game.factories, game.centre]:
                    if to_lid:
                        for colour in range(5):
                            game.lid[colour] += tiles[colour]
                    tiles[:] = [0] * 5
                game.on_offer = 0
                game._end_offer()
        return take
    return make


def _whole_take_also_to_floor(original):
    """Board.place_on_line filling the line, then, when the take overflowed, counting the surplus against the
    free spaces left then (none): every tile of the take falls to the floor as well."""
    def place_on_line(board, line, colour, count, lid):
        room = line + 1 - board.line_count[line]
        original(board, line, colour, count if count <= room else room, lid)
        if count > room:
            board.to_floor(colour, count, lid)
    return place_on_line


def _rows_reversed(board, line, accepted):
    """colours_accepted with the wall rows counted from the bottom: pattern line N is checked against row 6 - N."""
    if board.line_colour[line] != EMPTY:
        return accepted
    return ~board.row_colours[4 - line] & ALL_COLOURS


def _end_tested_after_centre_takes(original):
    """Game._take whose test for the offer's end sits in the centre branch: when the last tiles come from a
    factory the offer does not end, and the turn passes to a player with no take."""
    def take(game, move):
        if game.phase != OFFER or move.source == CENTRE or move.source > len(game.factories) \
                or not _tiles_of(game, move) or _tiles_of(game, move) != game.on_offer:
            return original(game, move)
        seat = game.turn
        end_offer = type(game)._end_offer
        type(game)._end_offer = lambda g: None
        try:
            original(game, move)
        finally:
            type(game)._end_offer = end_offer
        game.turn = (seat + 1) % game.players
    return take


# -- the readings ------------------------------------------------------------------------------------------------

READINGS = (
    # OFFER-9
    M("offer-row-limit-inverse-layout", "OFFER-9", "I look for the colour in the wall row at column (colour - row) "
      "mod 5, the layout's inverse: an empty line refuses a colour when that space is filled, and takes a colour "
      "its row holds elsewhere.",
      ("board.Board.colours_accepted", _accepts(_inverse_layout)),
      ("game.Game._take", _refuse_unlisted("OFFER-9",)), source="shape"),
    M("offer-row-limit-rows-reversed", "OFFER-9", "My wall rows are stored bottom to top: pattern line N is "
      "checked against wall row 6 - N.", ("board.Board.colours_accepted", _accepts(_rows_reversed)),
      ("board.Board.reopen", _reopen_every_line), ("game.Game._take", _refuse_unlisted("OFFER-9",)),
      source="shape"),
    M("offer-row-limit-not-for-centre", "OFFER-9", "My code for a take from the centre is written apart from the "
      "factories' and forgets the wall-row check: from the centre, a colour is listed and placed on an empty line "
      "whose wall row already holds it.", *_row_rule_skipped_for(True), source="shape"),
    M("offer-row-limit-only-for-centre", "OFFER-9", "My code for a take from a factory is written apart from the "
      "centre's and forgets the wall-row check: from a factory, a colour is listed and placed on an empty line "
      "whose wall row already holds it.", *_row_rule_skipped_for(False), source="shape"),
    # OFFER-10
    M("offer-overflow-counted-after-filling", "OFFER-10", "I fill the line first and then count the surplus as the "
      "take's tiles less the free spaces left: the tiles that went on the line fall to the floor as well.",
      ("board.Board.place_on_line", _overflow_after_filling), source="shape"),
    M("offer-overflow-whole-take-also-to-floor", "OFFER-10", "When a take overflows I fill the line, then count "
      "the surplus against the free spaces left (none): every tile of the take falls to the floor as well as "
      "filling the line.", ("board.Board.place_on_line", _whole_take_also_to_floor), source="shape"),
    # OFFER-11
    M("offer-floor-choice-to-lid", "OFFER-11", "A take named to the floor line is discarded: its tiles go to the "
      "lid, not onto floor spaces, and cost nothing; only a line's surplus lands on the floor.",
      ("game.Game._take", _floor_choice_to_lid), source="shape"),
    M("offer-floor-take-skips-source-clean-up", "OFFER-11", "I handle a take to the floor first and return: the "
      "tiles go to the floor, but the rest of a factory stays on it and, from the centre, the marker stays there.",
      ("game.Game._take", _floor_take_returns_early(False)), source="shape"),
    M("offer-floor-take-skips-marker", "OFFER-11", "My take to the floor line skips the marker: the first take "
      "from the centre sent to the floor leaves the marker in the centre for the next centre take.",
      ("game.Game._take", _floor_take_returns_early(True)), source="shape"),
    # (the floor take that keeps the turn: the same reading as offer_a2's offer-floor-take-keeps-turn, OFFER-1)
    # OFFER-12
    # OFFER-13
    M("offer-colour-joins-building-line", "OFFER-13", "A take to an empty line of a colour another unfinished line "
      "already holds goes on that line instead (my lines are found by colour), its surplus to the floor.",
      ("game.Game._take", _joins_building_line), source="shape"),
    M("offer-colour-joins-its-line-even-full", "OFFER-13", "My pattern lines are found by colour: a take to an "
      "empty line of a colour another line holds goes on that line, and when that line is full the whole take "
      "falls to the floor.", ("game.Game._take", _joins_line_of_colour), source="shape"),
    # OFFER-14
    M("offer-ends-when-factories-or-centre-empty", "OFFER-14", "I test the end of the offer with `or` for `and`: "
      "it ends after a take that leaves the factories empty or the centre empty, and what is left elsewhere is "
      "cleared away.", ("game.Game._take", _ends_when_either_empty(False)), source="shape"),
    M("offer-ends-when-factories-or-centre-empty-to-lid", "OFFER-14", "I test the end of the offer with `or` for "
      "`and`: it ends after a take that leaves the factories empty or the centre empty, and what is left "
      "elsewhere is swept into the lid with the round's discards.",
      ("game.Game._take", _ends_when_either_empty(True)), source="shape"),
    M("offer-end-tested-after-centre-takes", "OFFER-14", "I test for the end of the offer after a take from the "
      "centre only: when the last tiles come from a factory the offer does not end, and the next player is left "
      "with no take.", ("game.Game._take", _end_tested_after_centre_takes), source="shape"),
    # OFFER-15
    M("offer-listed-and-checked-on-previous-board", "OFFER-15", "My list and my check of a played take both look "
      "at the lines of the player who moved last (a current-board reference updated after the move); the tiles "
      "go on the mover's board.", ("game.Game._legal_takes", _listed_for_previous_seat),
      ("game.Game._take", _checked_on(lambda game: (game.turn - 1) % game.players)), source="shape"),
    M("offer-listed-and-checked-on-seat-0-board", "OFFER-15", "My list and my check of a played take both look at "
      "seat 0's lines, whoever is to move; the tiles go on the mover's board.",
      ("game.Game._legal_takes", _listed_for_seat_0), ("game.Game._take", _checked_on(lambda game: 0)),
      source="shape"),
    M("offer-listed-and-checked-on-start-player-board", "OFFER-15", "My list and my check of a played take both "
      "look at the lines of the round's start player, whoever is to move; the tiles go on the mover's board.",
      ("game.Game._legal_takes", _listed_for_start_player),
      ("game.Game._take", _checked_on(lambda game: game.start_player)), source="shape"),
    M("offer-placed-on-next-board", "OFFER-15", "I pass the turn before I put the tiles down: a take is checked on "
      "the mover's board, but its tiles (and the marker, and the surplus) go on the next player's board.",
      ("game.Game._take", _placed_on_next_board), source="shape"),
    # OFFER-16
    M("offer-unlisted-player-passes", "OFFER-16", "My list holds the takes to pattern lines only, and a player "
      "whose list is empty passes: the turn goes on to the next player with a listed take (when nobody has one, "
      "the player to move may still play a take to the floor).",
      ("game.Game._legal_takes", _lines_only_listed), ("game.Game._take", _unlisted_player_passes),
      source="shape"),
    M("offer-floor-never-listed", "OFFER-16", "My list holds the takes to pattern lines only; a take to the floor "
      "is accepted when played but never listed, so a player whose takes fit no line is listed no move.",
      ("game.Game._legal_takes", _lines_only_listed), source="shape"),
)

CELLS = {
    "OFFER-9": {"comparison": ("offer-row-limit-inverse-layout",), "off-by-one": ("offer-row-limit-rows-reversed",),
                "list": ("offer-row-limit-not-for-centre", "offer-row-limit-only-for-centre"),
                "both": ("offer-row-limit-not-for-centre", "offer-row-limit-only-for-centre")},
    "OFFER-10": {"order": ("offer-overflow-counted-after-filling", "offer-overflow-whole-take-also-to-floor")},
    "OFFER-11": {"overwritten": ("offer-floor-choice-to-lid",),
                 "order": ("offer-floor-take-skips-source-clean-up", "offer-floor-take-skips-marker")},
    "OFFER-13": {"overwritten": ("offer-colour-joins-building-line", "offer-colour-joins-its-line-even-full")},
    "OFFER-14": {"comparison": ("offer-ends-when-factories-or-centre-empty",
                                "offer-ends-when-factories-or-centre-empty-to-lid"),
                 "once": ("offer-end-tested-after-centre-takes",)},
    "OFFER-15": {"seat": ("offer-placed-on-next-board",
                          "offer-listed-and-checked-on-previous-board", "offer-listed-and-checked-on-seat-0-board",
                          "offer-listed-and-checked-on-start-player-board"),
                 "both": ("offer-listed-and-checked-on-previous-board", "offer-listed-and-checked-on-seat-0-board",
                          "offer-listed-and-checked-on-start-player-board"),
                 "order": ("offer-placed-on-next-board",)},
    "OFFER-16": {"list": ("offer-floor-never-listed", "offer-unlisted-player-passes")},
}
