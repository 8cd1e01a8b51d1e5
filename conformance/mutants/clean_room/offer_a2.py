"""Readings of OFFER-1 .. OFFER-8, second round: written from the rules' text alone, from two angles the first round
took less: the data model an engine holds the table and boards in (a list of tiles edited while iterated, a dict
of all five colours, a 1-based number used as an index, an alias in place of a copy, a line's count assigned, the
marker's flag kept per take, per board or outside its test, the turn as a count of takes), and the moment of the
cycle a step is done at (the marker put on the floor at the offer's end, the start player changed at the take,
the turn or the marker handled in one branch of the take only).

Each reading holds in a position the suite loads directly: nothing here depends on history a loaded position
lacks (the marker's holder and floor, the turn and the start player are all read from the position).
"""

from __future__ import annotations

from azul_reference.errors import IllegalMove
from azul_reference.board import ALL_COLOURS, EMPTY
from azul_reference.game import IN_CENTRE, OFFER
from azul_reference.moves import CENTRE, FLOOR, TAKES, TAKES_FROM
from azul_reference.tiles import FLOOR_SPACES, MARKER

from ..readings import M, _empty_take_empties_source, _reopen_every_line


# -- shared helpers ----------------------------------------------------------------------------------------------

def _factory_take(game, move) -> bool:
    """Whether `move` is a take from an existing factory during the offer (the case these readings change)."""
    return game.phase == OFFER and 0 < move.source <= len(game.factories)


def _centre_take(game, move) -> bool:
    """Whether `move` is a take from the centre during the offer (the case these readings change)."""
    return game.phase == OFFER and move.source == CENTRE


# -- OFFER-2, OFFER-4: the tiles removed one by one from a list, while iterating over it ---------------------------

def _removed_while_iterating(from_centre: bool):
    """A source held as a list of tiles sorted by colour, the colour's tiles removed inside a loop over that same
    list: each removal shifts the next tile under the loop's index, so of k tiles in a row only (k + 1) // 2 are
    taken; the skipped ones stay (a factory's go to the centre with the rest)."""
    def make(original):
        def take(game, move):
            chosen = _centre_take(game, move) if from_centre else _factory_take(game, move)
            if not chosen:
                return original(game, move)
            tiles = game.centre if from_centre else game.factories[move.source - 1]
            count = tiles[move.colour]
            if count < 2:
                return original(game, move)
            original(game.copy(), move)  # raises when the rules refuse the take itself
            tiles[move.colour] = (count + 1) // 2
            original(game, move)
            game.centre[move.colour] += count // 2  # skipped: left in the centre, or moved there with the rest
        return take
    return make


# -- OFFER-5 ------------------------------------------------------------------------------------------------------

def _marker_with_every_centre_take(start_is_last: bool):
    """No test of whether the marker is still in the centre: every take from the centre puts a marker on the
    taker's floor line (before its tiles); the start player is the last such taker, or (the test wrapping only the
    start player's update) the first."""
    def make(original):
        def take(game, move):
            if not _centre_take(game, move) or game.marker == IN_CENTRE:
                return original(game, move)
            original(game.copy(), move)  # raises when the rules refuse the take itself
            game.boards[game.turn].take_marker()
            if start_is_last:
                game.marker = game.turn
            original(game, move)
        return take
    return make


# -- OFFER-6 ------------------------------------------------------------------------------------------------------

def _all_colours_of_all_sources(original):
    """Sources as dicts made with all five colours at 0: the list walks every colour of every source, counts of 0
    included, empty factories and the bare centre too."""
    def legal_takes(game):
        if game.phase != OFFER:
            return original(game)
        lines = game.boards[game.turn].open_lines
        moves = []
        for takes in TAKES_FROM[len(game.factories)]:
            for colour in range(5):
                moves += takes[colour][lines[colour]]
        return moves
    return legal_takes


def _zero_take_accepted(original):
    """A take of 0 tiles is played as any other: nothing reaches the board, a factory's rest goes to the centre,
    from the centre the marker is taken if still there, and the turn passes."""
    accept = _empty_take_empties_source(original)

    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        if tiles[move.colour]:
            return original(game, move)
        return accept(game, move)
    return take


# -- OFFER-7 ------------------------------------------------------------------------------------------------------

def _line_number_as_index(original):
    """The take's line number (1-5) is used as an index into [line 1 .. line 5, floor] without subtracting 1:
    a take to line N is checked and placed on line N + 1, and a take to line 5 lands on the floor line."""
    def take(game, move):
        if game.phase != OFFER or move.line == FLOOR:
            return original(game, move)
        target = move.line + 1 if move.line < 5 else FLOOR
        return original(game, TAKES[move.source][move.colour][target])
    return take


# -- turns, sources, the marker at another moment, lines read at the wrong index ----------------------------------

def _turn_kept_when(test):
    """The turn is passed in one branch of the take's code only: when test(game, move) holds, the same seat moves
    again."""
    def make(original):
        def take(game, move):
            seat = game.turn
            chosen = game.phase == OFFER and test(game, move)
            original(game, move)
            if chosen and game.phase == OFFER:
                game.turn = seat
        return take
    return make


def _source_number_as_index(original):
    """The take's factory number (1-9) is used as an index into [factory 1 .. factory N, centre] without
    subtracting 1: a take from factory K takes from factory K + 1, and one from the last factory from the centre."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        target = move.source + 1 if move.source < len(game.factories) else CENTRE
        return original(game, TAKES[target][move.colour][move.line])
    return take


def _marker_at_offer_end():
    """The take from the centre only records who took the marker; it is put on that player's floor line when the
    offer ends, after every tile that player put there during the round (none if the floor is full)."""
    saved: dict = {}

    def take_marker(original):
        saved["take_marker"] = original
        return lambda board: None

    def end_offer(original):
        def act(game):
            if game.marker != IN_CENTRE:
                board = game.boards[game.marker]
                if MARKER not in board.floor:
                    saved["take_marker"](board)
            original(game)
        return act
    return (("board.Board.take_marker", take_marker), ("game.Game._end_offer", end_offer))


def _colour_read_one_below(original):
    """The line's state (colour, count) is read at index N, the line's 1-based number, while the wall row and the
    placement use N - 1: line N is judged by line N + 1's tiles, and line 5 (index 5, nothing there) as empty."""
    def colours_accepted(board, line):
        below = line + 1
        held = board.line_colour[below] if below < 5 else EMPTY
        if held == EMPTY:
            return ~board.row_colours[line] & ALL_COLOURS
        return 1 << held if board.line_count[below] <= line else 0
    return colours_accepted


def _zero_counts_listed_only(original):
    """The list of _all_colours_of_all_sources, the reference's check: takes of 0 tiles are listed, refused when
    played."""
    return _all_colours_of_all_sources(original)


def _turn_from_new_start_player(original):
    """The seat to move is the start player plus the round's count of takes (mod the seats), and the marker's
    taker is made the start player the moment they take it: the count runs on from the new start player."""
    def take(game, move):
        if not (_centre_take(game, move) and game.marker == IN_CENTRE):
            return original(game, move)
        seat, was = game.turn, game.start_player
        original(game, move)
        if game.phase == OFFER:
            game.start_player = seat
            game.turn = (2 * seat - was + 1) % game.players  # seat + (takes so far, this one included)
    return take


def _marker_first_at_offer_end():
    """The take from the centre only records who took the marker; when the offer ends the marker is put in the
    first space of that player's floor line, their tiles moved one space right (the last off the floor to the lid)."""
    def take_marker(original):
        return lambda board: None

    def end_offer(original):
        def act(game):
            if game.marker != IN_CENTRE:
                board = game.boards[game.marker]
                if MARKER not in board.floor:
                    board.floor.insert(0, MARKER)
                    if len(board.floor) > FLOOR_SPACES:
                        game.lid[board.floor.pop()] += 1
            original(game)
        return act
    return (("board.Board.take_marker", take_marker), ("game.Game._end_offer", end_offer))


def _last_centre_taker_holds(original):
    """The next start player is written at every take from the centre (outside the 'marker still in the centre'
    test that puts the marker on the floor): the last taker from the centre starts, the first keeps the marker."""
    def take(game, move):
        if not _centre_take(game, move) or game.marker == IN_CENTRE:
            return original(game, move)
        seat = game.turn
        original(game, move)
        if game.phase == OFFER:
            game.marker = seat
    return take


def _line_count_assigned(original):
    """The line's count is assigned the tiles placed (=, not +=): the room and the overflow are right, but the
    tiles already on the line are forgotten."""
    def place_on_line(board, line, colour, count, lid):
        room = line + 1 - board.line_count[line]
        fits = count if count <= room else room
        board.line_colour[line] = colour
        board.line_count[line] = fits
        board.reopen(line)
        if count > fits:
            board.to_floor(colour, count - fits, lid)
    return place_on_line


def _marker_once_per_player(original):
    """The 'took the marker' flag is kept per board, not per round: each player's first take from the centre in a
    round puts a marker on their floor line (before its tiles); the first taker from the centre starts."""
    def take(game, move):
        if not _centre_take(game, move) or game.marker in (IN_CENTRE, game.turn):
            return original(game, move)
        board = game.boards[game.turn]
        if MARKER in board.floor:
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse the take itself
        board.take_marker()
        original(game, move)
    return take


def _colour_read_one_above(original):
    """The line's state (colour, count) is read at index N - 2 (the 0-based index decremented once more), while
    the wall row and the placement use N - 1: line N is judged by line N - 1's tiles, line 1 by line 5's (index -1)."""
    def colours_accepted(board, line):
        above = line - 1  # -1: Python's last line
        held = board.line_colour[above]
        if held == EMPTY:
            return ~board.row_colours[line] & ALL_COLOURS
        return 1 << held if board.line_count[above] <= line else 0
    return colours_accepted


def _listed_by_line_below(original):
    """The move list judges each pattern line by _colour_read_one_below; the board (and the check of a played
    take) stays right."""
    judge = _colour_read_one_below(None)

    def legal_takes(game):
        if game.phase != OFFER:
            return original(game)
        board = game.boards[game.turn]
        lines = [sum(1 << line for line in range(5) if judge(board, line) >> colour & 1) for colour in range(5)]
        moves = []
        for takes, counts in zip(TAKES_FROM[len(game.factories)], [*game.factories, game.centre]):
            for colour in range(5):
                if counts[colour]:
                    moves += takes[colour][lines[colour]]
        return moves
    return legal_takes


def _index_past_end_refused(of_line: bool):
    """The line (or factory) number used as a 0-based index, in an array holding only the lines (or only the
    factories): line N (factory K) is read as N + 1 (K + 1), and the last one, past the end, is refused."""
    def make(original):
        def take(game, move):
            if game.phase != OFFER or (move.line == FLOOR if of_line else not _factory_take(game, move)):
                return original(game, move)
            last = 5 if of_line else len(game.factories)
            number = move.line if of_line else move.source
            if number == last:
                original(game.copy(), move)  # raises when the rules refuse the take itself
                raise IllegalMove(f"{move}: {'pattern line' if of_line else 'factory'} {number} is out of range",
                                  rule="OFFER-7" if of_line else "OFFER-2")
            if of_line:
                return original(game, TAKES[move.source][move.colour][move.line + 1])
            return original(game, TAKES[move.source + 1][move.colour][move.line])
        return take
    return make


def _marker_take_keeps_turn(original):
    """The branch that hands over the marker returns before the turn is passed: after the first take from the
    centre the same player moves again."""
    def take(game, move):
        seat = game.turn
        chosen = _centre_take(game, move) and game.marker == IN_CENTRE
        original(game, move)
        if chosen and game.phase == OFFER:
            game.turn = seat
    return take


def _zero_take_colours_line(original):
    """A take of 0 tiles runs the whole take: the line is checked, a factory's rest goes to the centre, the
    marker is taken from the centre, and the 0 tiles are placed on the line, which sets its colour (count 0)."""
    accept = _empty_take_empties_source(original)

    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        if tiles[move.colour]:
            return original(game, move)
        board = game.boards[game.turn]
        if move.line != FLOOR and not board.accepts(move.line - 1, move.colour):
            game._check_line(move, board, move.line - 1, move.colour)
            raise IllegalMove(f"{move}: pattern line {move.line} refuses it", rule="OFFER-8")
        accept(game, move)
        if move.line != FLOOR:
            board.place_on_line(move.line - 1, move.colour, 0, game.lid)
    return take


def _rest_lost_by_alias(original):
    """The rest is taken from a name bound to the factory's own list (no copy), cleared before the rest is moved:
    the rest of the factory vanishes, neither in the centre nor in the lid."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        rest = game.factories[move.source - 1][:]
        rest[move.colour] = 0
        original(game, move)
        if game.phase != OFFER or not any(rest):
            return
        for colour in range(5):
            game.centre[colour] -= rest[colour]
        game.on_offer -= sum(rest)
        if game.on_offer == 0:
            game._end_offer()
    return take


def _overflow_to_line_above(original):
    """Tiles beyond the line's free spaces go on to the line above when it takes the colour (line by line,
    upwards), and only then to the floor: the take spread over two or more lines."""
    def place_on_line(board, line, colour, count, lid):
        rest = count - (line + 1 - board.line_count[line])
        if rest <= 0 or line == 0 or not board.accepts(line - 1, colour):
            return original(board, line, colour, count, lid)
        original(board, line, colour, count - rest, lid)
        place_on_line(board, line - 1, colour, rest, lid)
    return place_on_line


def _marker_skipped_on_floor_take(original):
    """The marker is handed over in the pattern-line branch only: a first take from the centre straight to the
    floor line leaves the marker in the centre, for the next take from the centre."""
    def take(game, move):
        if not (_centre_take(game, move) and game.marker == IN_CENTRE and move.line == FLOOR):
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse the take itself
        game.marker = game.start_player  # seen as held, so the take passes it by; a round ending here keeps the start
        try:
            original(game, move)
        finally:
            if game.phase in (OFFER, "tiling") and game.marker == game.start_player:
                game.marker = IN_CENTRE
    return take


READINGS = (
    # OFFER-2
    M("offer-factory-removed-while-iterating", "OFFER-2", "My factory is a list of tiles sorted by colour, and I "
      "remove the chosen colour inside a loop over that list: each removal slides the next tile under the loop's "
      "index, so of k tiles of the colour only (k + 1) // 2 are taken; the skipped ones go to the centre with the "
      "rest.", ("game.Game._take", _removed_while_iterating(from_centre=False)), source="shape"),
    # OFFER-3
    # OFFER-4
    M("offer-centre-removed-while-iterating", "OFFER-4", "My centre is a list of tiles kept sorted by colour, and I "
      "remove the chosen colour inside a loop over that list: each removal slides the next tile under the loop's "
      "index, so of k tiles of the colour only (k + 1) // 2 are taken; the skipped ones stay in the centre.",
      ("game.Game._take", _removed_while_iterating(from_centre=True)), source="shape"),
    # OFFER-5
    M("offer-marker-on-every-centre-take", "OFFER-5", "I never ask whether the marker is still in the centre: "
      "every take from the centre puts a marker on the taker's floor line, before its tiles, and makes the taker "
      "the next start player, so the last taker from the centre starts.",
      ("game.Game._take", _marker_with_every_centre_take(start_is_last=True)), source="shape"),
    M("offer-marker-floor-on-every-centre-take", "OFFER-5", "Only my start-player update is inside the 'marker "
      "still in the centre' test: the first taker from the centre starts the next round, but every take from the "
      "centre puts a marker on the taker's floor line, before its tiles.",
      ("game.Game._take", _marker_with_every_centre_take(start_is_last=False)), source="shape"),
    # OFFER-6
    M("offer-zero-counts-listed-and-taken", "OFFER-6", "My sources are dicts holding all five colours, 0 for those "
      "absent, and I list and accept a take of every colour of every source, empty factories and a bare centre "
      "included: a take of 0 tiles puts nothing on the board, a factory's rest still goes to the centre, from the "
      "centre the marker is taken if still there, and the turn passes.",
      ("game.Game._legal_takes", _all_colours_of_all_sources), ("game.Game._take", _zero_take_accepted),
      source="shape"),
    # OFFER-7
    M("offer-line-number-not-decremented", "OFFER-7", "I index the pattern lines (then the floor) with the move's "
      "line number as written, 1 to 5, without subtracting 1: a take to line N is checked and placed on line N + "
      "1, and a take to line 5 goes to the floor line; my move list is right.",
      ("game.Game._take", _line_number_as_index), source="shape"),
    # OFFER-8
)

READINGS += (
    M("offer-floor-take-keeps-turn", "OFFER-1", "I pass the turn at the end of my pattern-line branch; the branch for "
      "a take to the floor line forgets it, so after a take to the floor the same player moves again.",
      ("game.Game._take", _turn_kept_when(lambda game, move: move.line == FLOOR)), source="shape"),
    M("offer-centre-take-keeps-turn", "OFFER-1", "I pass the turn at the end of my factory branch; the branch for a "
      "take from the centre forgets it, so after a take from the centre the same player moves again.",
      ("game.Game._take", _turn_kept_when(lambda game, move: move.source == CENTRE)), source="shape"),
    M("offer-factory-number-not-decremented", "OFFER-2", "I index [factory 1 .. factory N, centre] with the move's "
      "factory number as written, without subtracting 1: a take from factory K takes the colour from factory K + "
      "1 (its rest to the centre), and a take from the last factory takes from the centre; my move list is right.",
      ("game.Game._take", _source_number_as_index), source="shape"),
    M("offer-marker-on-floor-at-offer-end", "OFFER-5", "The first take from the centre records its taker as the "
      "marker's holder; I put the marker on their floor line only when the offer ends, after every tile they put "
      "there during the round (none if the floor is full by then).",
      *_marker_at_offer_end(), source="shape"),
    M("offer-zero-counts-listed", "OFFER-6", "My list walks sources made as dicts of all five colours, 0 for those "
      "absent: it lists a take of every colour of every source, empty factories and a bare centre included; my "
      "check refuses a take of 0 tiles when played.",
      ("game.Game._legal_takes", _zero_counts_listed_only), source="shape"),
    M("offer-line-colour-read-one-below", "OFFER-8", "My check of a pattern line's colour reads the line at the "
      "index of its 1-based number, one line down, while the wall row and the placement use the right line: "
      "line N takes what line N + 1 would (line 5, past the end, counts as empty), and tiles of another colour "
      "recolour the line.",
      ("board.Board.colours_accepted", _colour_read_one_below), ("board.Board.reopen", _reopen_every_line),
      source="shape"),
)

READINGS += (
    M("offer-turn-counted-from-new-start-player", "OFFER-1", "The seat to move is the start player plus the number "
      "of takes made this round, and I make the marker's taker the start player the moment they take it: after "
      "the first take from the centre the count runs on from the taker's seat, so the turn order jumps.",
      ("game.Game._take", _turn_from_new_start_player), source="shape"),
    M("offer-marker-first-on-floor-at-offer-end", "OFFER-5", "The first take from the centre records its taker as "
      "the marker's holder; when the offer ends I put the marker in the first space of their floor line, moving "
      "their floor tiles one space right (a seventh tile falls off to the lid).",
      *_marker_first_at_offer_end(), source="shape"),
)

READINGS += (
    M("offer-last-centre-taker-starts", "OFFER-5", "My 'marker still in the centre' test wraps only the marker's "
      "move to the floor line; the next start player is written at every take from the centre, so the first "
      "taker from the centre keeps the marker on their floor and the last one starts the next round.",
      ("game.Game._take", _last_centre_taker_holds), source="shape"),
    M("offer-line-count-assigned", "OFFER-7", "I set the pattern line's count to the tiles placed (=, not +=): the "
      "free spaces and the overflow to the floor are right, but the tiles already on the line are forgotten.",
      ("board.Board.place_on_line", _line_count_assigned), source="shape"),
)

READINGS += (
    M("offer-marker-once-per-player", "OFFER-5", "I keep the 'has taken the marker' flag on each player's board, not "
      "once for the round: each player's first take from the centre in a round puts a marker on their floor line, "
      "before its tiles; the first taker from the centre starts the next round.",
      ("game.Game._take", _marker_once_per_player), source="shape"),
    M("offer-line-colour-read-one-above", "OFFER-8", "My check of a pattern line's colour decrements the line "
      "number twice and reads the line above, while the wall row and the placement use the right line: line N "
      "takes what line N - 1 would, line 1 what line 5 would (index -1), and tiles of another colour recolour "
      "the line.",
      ("board.Board.colours_accepted", _colour_read_one_above), ("board.Board.reopen", _reopen_every_line),
      source="shape"),
)

READINGS += (
    M("offer-line-colour-listed-one-below", "OFFER-8", "My move generator reads a pattern line's colour at the "
      "index of its 1-based number, one line down (line 5, past the end, as empty), while my check of a played "
      "take reads the right line: the list offers takes the check refuses and leaves out takes it accepts.",
      ("game.Game._legal_takes", _listed_by_line_below), source="shape"),
)

READINGS += (
    M("offer-line-number-past-end-refused", "OFFER-7", "I index my five pattern lines with the move's line number "
      "as written, without subtracting 1: a take to line N is checked and placed on line N + 1, and a take to "
      "line 5 is refused (index out of range); my move list is right.",
      ("game.Game._take", _index_past_end_refused(of_line=True)), source="shape"),
    M("offer-factory-number-past-end-refused", "OFFER-2", "I index my factories with the move's factory number as "
      "written, without subtracting 1: a take from factory K takes the colour from factory K + 1 (its rest to the "
      "centre), and a take from the last factory is refused (index out of range); my move list is right.",
      ("game.Game._take", _index_past_end_refused(of_line=False)), source="shape"),
    M("offer-marker-take-keeps-turn", "OFFER-1", "My branch for the first take from the centre, which hands over "
      "the marker, returns before passing the turn: after taking the marker the same player moves again.",
      ("game.Game._take", _marker_take_keeps_turn), source="shape"),
)

READINGS += (
    M("offer-zero-take-colours-line", "OFFER-6", "My sources are dicts holding all five colours, 0 for those absent, "
      "and I list and accept a take of every colour of every source: a take of 0 tiles runs like any other, so a "
      "factory's rest goes to the centre, the marker is taken from the centre if still there, the turn passes, "
      "and the chosen pattern line takes the colour with no tile on it (it then refuses every other colour).",
      ("game.Game._legal_takes", _all_colours_of_all_sources), ("game.Game._take", _zero_take_colours_line),
      source="shape"),
)

READINGS += (
    M("offer-rest-lost-by-alias", "OFFER-3", "I bind the rest of the factory to a name for the factory's own list, "
      "not a copy, and clear the factory before moving the rest: the rest of the factory vanishes, neither in "
      "the centre nor in the lid.", ("game.Game._take", _rest_lost_by_alias), source="shape"),
    M("offer-overflow-to-line-above", "OFFER-7", "Tiles beyond a line's free spaces go on to the line above when it "
      "takes the colour (and on upwards), and only then to the floor line.",
      ("board.Board.place_on_line", _overflow_to_line_above), source="shape"),
)

READINGS += (
    M("offer-marker-skipped-on-floor-take", "OFFER-5", "I hand over the marker in my pattern-line branch only: a "
      "first take from the centre that goes straight to the floor line leaves the marker in the centre, and the "
      "next take from the centre claims it.",
      ("game.Game._take", _marker_skipped_on_floor_take), source="shape"),
)


CELLS = {
    "OFFER-1": {"seat": ("offer-floor-take-keeps-turn", "offer-centre-take-keeps-turn",
                         "offer-marker-take-keeps-turn"),
                "order": ("offer-turn-counted-from-new-start-player",)},
    "OFFER-2": {"off-by-one": ("offer-factory-removed-while-iterating", "offer-factory-number-not-decremented",
                               "offer-factory-number-past-end-refused")},
    "OFFER-3": {"overwritten": ("offer-rest-lost-by-alias",)},
    "OFFER-4": {"off-by-one": ("offer-centre-removed-while-iterating",)},
    "OFFER-5": {"once": ("offer-marker-on-every-centre-take", "offer-marker-floor-on-every-centre-take",
                         "offer-marker-once-per-player"),
                "order": ("offer-marker-on-floor-at-offer-end", "offer-marker-first-on-floor-at-offer-end"),
                "overwritten": ("offer-last-centre-taker-starts",),
                "comparison": ("offer-marker-on-every-centre-take", "offer-marker-skipped-on-floor-take")},
    "OFFER-6": {"list": ("offer-zero-counts-listed",),
                "both": ("offer-zero-counts-listed-and-taken", "offer-zero-take-colours-line")},
    "OFFER-7": {"off-by-one": ("offer-line-number-not-decremented", "offer-line-number-past-end-refused",
                               "offer-overflow-to-line-above"),
                "overwritten": ("offer-line-count-assigned",)},
    "OFFER-8": {"off-by-one": ("offer-line-colour-read-one-below", "offer-line-colour-read-one-above",
                               "offer-line-colour-listed-one-below"),
                "both": ("offer-line-colour-read-one-below", "offer-line-colour-read-one-above"),
                "list": ("offer-line-colour-listed-one-below",)},
}
