"""Readings of OFFER-1 .. OFFER-8 (the factory offer: turn order, what a take removes, where the rest goes, the
marker, a take needing a tile, the pattern line's spaces and colour), written from the rules' text alone.

Every engine here ends the offer as engines commonly do, when the factories and the centre hold no tile, so a
reading that loses or adds tiles recounts the table (_recount) instead of trusting the reference's counter.
"""

from __future__ import annotations

from azul_reference.board import EMPTY
from azul_reference.game import IN_CENTRE, OFFER, DEAL
from azul_reference.moves import CENTRE, FLOOR, TAKES_FROM
from azul_reference.tiles import MARKER, wall_column

from ..readings import (
    M, _accepts, _any_colour_on_a_started_line, _empty_take_empties_source, _line_check_without, _refuse_unlisted,
)


# -- shared helpers ----------------------------------------------------------------------------------------------

def _recount(game) -> None:
    """The engine ends the offer when the table is bare: recount it after tiles were lost or added."""
    game.on_offer = sum(map(sum, game.factories)) + sum(game.centre)
    if game.phase == OFFER and game.on_offer == 0:
        game._end_offer()


def _factory_take(game, move) -> bool:
    """Whether `move` is a take from an existing factory during the offer (the case these readings change)."""
    return game.phase == OFFER and 0 < move.source <= len(game.factories)


def _centre_take(game, move) -> bool:
    """Whether `move` is a take from the centre during the offer (the case these readings change)."""
    return game.phase == OFFER and move.source == CENTRE


# -- OFFER-1 ---------------------------------------------------------------------------------------------------


def _marker_held_until_deal_end_round(original):
    """The holder keeps the marker between rounds; it goes to the centre only when the next offer opens."""
    def end_round(game):
        holder = game.marker
        original(game)
        if game.phase == DEAL and holder != IN_CENTRE:
            game.marker = holder
    return end_round


def _marker_to_centre_at_deal(original):
    """At the deal (the start of the offer phase) the start player puts the marker in the centre."""
    def deal(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.marker = IN_CENTRE
    return deal


def _marker_given_at_set_up(original):
    """At set-up the marker is placed before the start player; only a round's end puts it in the centre."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        game.marker = game.start_player
    return init


def _take_passing_the_marker_by(original, game, move) -> None:
    """Play a take from the centre that leaves the marker there: nobody claims it, so the start player stays
    (ROUND-3)."""
    original(game.copy(), move)  # raises when the rules refuse the take itself
    game.marker = game.start_player  # seen as held, so the take passes it by; the round's end keeps the start
    original(game, move)
    if game.phase != DEAL and game.marker == game.start_player:
        game.marker = IN_CENTRE


def _marker_never_taken(original):
    """The take from the centre never looks at the marker: it stays in the centre all round, claimed by nobody."""
    def take(game, move):
        if _centre_take(game, move) and game.marker == IN_CENTRE:
            return _take_passing_the_marker_by(original, game, move)
        return original(game, move)
    return take


# -- OFFER-2 ---------------------------------------------------------------------------------------------------

def _listed_per_tile(original):
    """The list is built tile by tile, not colour by colour: a colour's takes appear once for each of its tiles."""
    def legal_takes(game):
        moves = original(game)
        if game.phase != OFFER:
            return moves
        out, group = [], []
        for move in moves:
            group.append(move)
            if move.line == FLOOR:  # the floor closes each (source, colour) group
                tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
                out += group * tiles[move.colour]
                group = []
        return out + group
    return legal_takes


# -- OFFER-3 ---------------------------------------------------------------------------------------------------

def _taken_colour_also_to_centre(original):
    """The whole factory is copied to the centre, the taken colour not left out: those tiles are doubled."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        original(game.copy(), move)  # raises when the rules refuse the take itself
        count = game.factories[move.source - 1][move.colour]
        game.centre[move.colour] += count
        game.on_offer += count
        original(game, move)
    return take


def _factory_not_cleared(original):
    """The rest is copied to the centre but the factory is never emptied: the rest stays on it as well."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        rest = game.factories[move.source - 1][:]
        rest[move.colour] = 0
        original(game, move)
        if game.phase == OFFER and any(rest):
            game.factories[move.source - 1][:] = rest
            _recount(game)
    return take


def _rest_sets_centre(per_colour: bool):
    """The rest is assigned to the centre, not added: the whole centre (a list) or each colour's count replaced."""
    def make(original):
        def take(game, move):
            if not _factory_take(game, move):
                return original(game, move)
            before = game.centre[:]
            rest = game.factories[move.source - 1][:]
            rest[move.colour] = 0
            original(game, move)
            if game.phase != OFFER:
                return
            if per_colour:
                game.centre[:] = [r if r else b for r, b in zip(rest, before)]
            else:
                game.centre[:] = rest
            _recount(game)
        return take
    return make


def _rest_last_colour_dropped(original):
    """The loop moving the rest stops one colour short (range(4)): the factory's white tiles are cleared, lost."""
    def take(game, move):
        if not _factory_take(game, move):
            return original(game, move)
        white = game.factories[move.source - 1][4] if move.colour != 4 else 0
        original(game, move)
        if white and game.phase == OFFER:
            game.centre[4] -= white
            _recount(game)
    return take


# -- OFFER-4 ---------------------------------------------------------------------------------------------------

def _centre_as_factory(doubled: bool):
    """The factory's steps run on the centre: its rest 'moved to the centre' then cleared (lost), or not cleared
    (doubled)."""
    def make(original):
        def take(game, move):
            if not _centre_take(game, move):
                return original(game, move)
            original(game, move)
            if game.phase != OFFER or not any(game.centre):
                return
            if doubled:
                game.centre[:] = [2 * n for n in game.centre]
            else:
                game.centre[:] = [0] * 5
            _recount(game)
        return take
    return make


# -- OFFER-5 ---------------------------------------------------------------------------------------------------

def _marker_after_the_tiles():
    """The marker is put on the floor after the take's own floor tiles: the first free space they leave, if any."""
    pending: list = []
    saved: dict = {}

    def take_marker(original):
        saved["take_marker"] = original

        def hold(board):
            pending.append(board)
        return hold

    def flush():
        while pending:
            saved["take_marker"](pending.pop(0))

    def take(original):
        def act(game, move):
            try:
                original(game, move)
            finally:
                flush()
        return act

    def end_offer(original):
        def act(game):
            flush()
            original(game)
        return act
    return (("board.Board.take_marker", take_marker), ("game.Game._take", take),
            ("game.Game._end_offer", end_offer))


def _marker_overwritten_by_floor_tiles():
    """The floor's first free slot is found once: the marker is written there, then the take's floor tiles are
    written from that same slot, the first over the marker."""
    pending: list = []

    def take_marker(original):
        def act(board):
            before = len(board.floor)
            original(board)
            if len(board.floor) > before:
                pending.append(board)
        return act

    def to_floor(original):
        def act(board, tile, count, lid):
            if any(board is b for b in pending) and count and MARKER in board.floor:
                board.floor.remove(MARKER)
                pending[:] = [b for b in pending if b is not board]
            original(board, tile, count, lid)
        return act

    def take(original):
        def act(game, move):
            try:
                original(game, move)
            finally:
                pending.clear()
        return act

    def end_offer(original):
        def act(game):
            pending.clear()
            original(game)
        return act
    return (("board.Board.take_marker", take_marker), ("board.Board.to_floor", to_floor),
            ("game.Game._take", take), ("game.Game._end_offer", end_offer))


def _marker_into_first_slot(original):
    """The marker is written into floor slot 0, as if the floor were always empty then: a tile there is lost."""
    def take_marker(board):
        if board.floor:
            board.floor[0] = MARKER
        else:
            original(board)
    return take_marker


def _seat_0_holder_falsy(original):
    """The holder is tested by truthiness (`if not holder`): while seat 0 holds the marker, the next take from the
    centre takes a marker again, seat 0 keeping its own on the floor."""
    def take(game, move):
        if not (_centre_take(game, move) and game.marker == 0):
            return original(game, move)
        game.marker = IN_CENTRE
        try:
            original(game, move)
        except Exception:
            game.marker = 0
            raise
    return take


# -- OFFER-6 ---------------------------------------------------------------------------------------------------

def _source_checked_not_colour(original):
    """The take checks only that the source is not empty (the marker counts in the centre), not the colour."""
    accept = _empty_take_empties_source(original)

    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        if tiles[move.colour] or not (any(tiles) or (move.source == CENTRE and game.marker == IN_CENTRE)):
            return original(game, move)
        return accept(game, move)
    return take


def _every_colour_listed(original):
    """The list offers every colour from every source holding a tile, not only the colours it holds."""
    def legal_takes(game):
        if game.phase != OFFER:
            return original(game)
        lines = game.boards[game.turn].open_lines
        moves = []
        for takes, counts in zip(TAKES_FROM[len(game.factories)], [*game.factories, game.centre]):
            if any(counts):
                for colour in range(5):
                    moves += takes[colour][lines[colour]]
        return moves
    return legal_takes


def _absent_colour_passes_turn(original):
    """A take of a colour the source lacks takes nothing and moves nothing; only the turn passes."""
    def take(game, move):
        if game.phase != OFFER or move.source > len(game.factories):
            return original(game, move)
        tiles = game.centre if move.source == CENTRE else game.factories[move.source - 1]
        if tiles[move.colour] or not any(tiles):
            return original(game, move)
        game.turn = (game.turn + 1) % game.players
    return take


# -- OFFER-7 ---------------------------------------------------------------------------------------------------

def _longer_accepts(original):
    """Line index i is given i + 2 spaces (its 1-based number plus one): a started line takes one tile more."""
    def colours_accepted(board, line):
        held = board.line_colour[line]
        if held == EMPTY:
            return original(board, line)
        return 1 << held if board.line_count[line] <= line + 1 else 0
    return colours_accepted


def _longer_place(original):
    """Fill a line of i + 2 spaces; what does not fit goes to the floor."""
    def place_on_line(board, line, colour, count, lid):
        room = line + 2 - board.line_count[line]
        fits = min(count, room)
        board.line_colour[line] = colour
        board.line_count[line] += fits
        board.reopen(line)
        if count > fits:
            board.to_floor(colour, count - fits, lid)
    return place_on_line


def _longer_complete(original):
    """A line of index i is complete with i + 2 tiles."""
    return lambda board, line: board.line_count[line] == line + 2


def _longer_tiled(original):
    """Tile every line holding i + 2 tiles."""
    def tile_coloured_wall(board, lid):
        for line in range(5):
            if board.line_count[line] == line + 2:
                board.tile_line(line, wall_column(line, board.line_colour[line]), lid)
    return tile_coloured_wall


def _longer_rest(original):
    """A tiled line of i + 2 tiles leaves i + 1 to the lid."""
    def tile_line(board, line, column, lid):
        colour = board.line_colour[line]
        original(board, line, column, lid)
        lid[colour] += 1
    return tile_line


# -- OFFER-8 ---------------------------------------------------------------------------------------------------

def _other_colour_listed(original):
    """The list forgets the colour test: a started, not full line is listed for any colour its wall row lacks."""
    def legal_takes(game):
        if game.phase != OFFER:
            return original(game)
        board = game.boards[game.turn]
        extra = [0] * 5
        for line in range(5):
            held = board.line_colour[line]
            if held != EMPTY and not board.line_complete(line):
                for colour in range(5):
                    if colour != held and not board.row_colours[line] >> colour & 1:
                        extra[colour] |= 1 << line
        lines = [board.open_lines[c] | extra[c] for c in range(5)]
        moves = []
        for takes, counts in zip(TAKES_FROM[len(game.factories)], [*game.factories, game.centre]):
            for colour in range(5):
                if counts[colour]:
                    moves += takes[colour][lines[colour]]
        return moves
    return legal_takes


def _started_lines_unlisted(original):
    """The list offers only empty pattern lines (and the floor); a started line is never listed."""
    def legal_takes(game):
        moves = original(game)
        if game.phase != OFFER:
            return moves
        board = game.boards[game.turn]
        return [m for m in moves if m.line == FLOOR or board.line_colour[m.line - 1] == EMPTY]
    return legal_takes


def _closed_if_started(original):
    """Board.colours_accepted asking for an empty line, not for one of the take's colour: a started line is closed."""
    def colours_accepted(board, line):
        if board.line_colour[line] != EMPTY:
            return 0
        return original(board, line)
    return colours_accepted


def _other_colour_joins(original):
    """The line's colour is set only when it is empty: tiles of another colour join it counted as its colour;
    what exceeds its room falls to the floor as the tiles they are."""
    def place_on_line(board, line, colour, count, lid):
        held = board.line_colour[line]
        if held in (EMPTY, colour):
            return original(board, line, colour, count, lid)
        fits = min(count, line + 1 - board.line_count[line])
        board.line_count[line] += fits
        board.reopen(line)
        if count > fits:
            board.to_floor(colour, count - fits, lid)
    return place_on_line

READINGS = (
    # OFFER-1
    M("offer-marker-held-until-deal", "OFFER-1", "The marker stays with the player who took it until the next "
      "offer opens: it is put back in the centre at the deal, so between rounds it is still held by its taker.",
      ("game.Game._end_round", _marker_held_until_deal_end_round), ("game.Game.deal", _marker_to_centre_at_deal),
      source="shape"),
    M("offer-marker-not-in-centre-first-round", "OFFER-1", "At set-up I place the marker before the start player, "
      "as the set-up says, and put it in the centre only when a round ends: in round 1 no take from the centre "
      "claims it, and the start player starts round 2 as well.",
      ("game.Game.__init__", _marker_given_at_set_up), source="shape"),
    # OFFER-2
    M("offer-listed-per-tile", "OFFER-2", "My move list walks the tiles of each source, not its colours: a colour "
      "with three tiles has each of its takes listed three times.",
      ("game.Game._legal_takes", _listed_per_tile), source="shape"),
    # OFFER-3
    M("offer-taken-colour-also-to-centre", "OFFER-3", "After a take from a factory I move the factory's tiles to "
      "the centre without leaving out the taken colour: the taker gets them and the centre gets them too.",
      ("game.Game._take", _taken_colour_also_to_centre), source="shape"),
    M("offer-factory-not-cleared", "OFFER-3", "After a take from a factory I copy its other tiles to the centre but "
      "never empty the factory: they stay there as well and can be taken again.",
      ("game.Game._take", _factory_not_cleared), source="shape"),
    M("offer-rest-replaces-centre", "OFFER-3", "I assign the rest of the factory to the centre instead of adding it: "
      "the tiles already in the centre are gone (the marker, kept apart, stays).",
      ("game.Game._take", _rest_sets_centre(per_colour=False)), source="shape"),
    M("offer-rest-last-colour-dropped", "OFFER-3", "My loop moving the rest of the factory to the centre runs over "
      "four colours, not five: the factory's white tiles are cleared with it and lost.",
      ("game.Game._take", _rest_last_colour_dropped), source="shape"),
    # OFFER-4
    M("offer-centre-rest-lost", "OFFER-4", "A take from the centre goes through my factory code: the rest is "
      "'moved to the centre' and then the source is cleared, so the centre's other tiles are lost.",
      ("game.Game._take", _centre_as_factory(doubled=False)), source="shape"),
    M("offer-centre-rest-doubled", "OFFER-4", "A take from the centre goes through my factory code: the rest is "
      "added to the centre again and the source is never cleared, so the centre's other tiles are doubled.",
      ("game.Game._take", _centre_as_factory(doubled=True)), source="shape"),
    # OFFER-5
    M("offer-marker-after-the-tiles", "OFFER-5", "I put the taken tiles down first and the marker after them: it "
      "takes the first floor space the take's own floor tiles leave free, and none if they fill the floor.",
      *_marker_after_the_tiles(), source="shape"),
    M("offer-marker-overwritten-by-floor-tiles", "OFFER-5", "I find the floor's first free slot once: the marker is "
      "written there, and then the take's floor tiles are written from that same slot, the first over the marker.",
      *_marker_overwritten_by_floor_tiles(), source="shape"),
    M("offer-marker-into-first-slot", "OFFER-5", "I write the marker into floor slot 0, as if the floor were empty "
      "when it is taken: a tile already there is overwritten and lost.",
      ("board.Board.take_marker", _marker_into_first_slot), source="shape"),
    M("offer-marker-never-taken", "OFFER-5", "My take from the centre moves the tiles and forgets the marker: it "
      "stays in the centre all round, nobody's floor gets it, and the start player never changes.",
      ("game.Game._take", _marker_never_taken), source="shape"),
    M("offer-marker-seat-0-not-holder", "OFFER-5", "I test whether someone holds the marker with `if not holder`: "
      "while seat 0 holds it, the next take from the centre takes a marker again onto the taker's floor, seat 0 "
      "keeping its own.", ("game.Game._take", _seat_0_holder_falsy), source="shape"),
    # OFFER-6
    M("offer-every-colour-listed", "OFFER-6", "My list offers every colour from every source that holds a tile, "
      "not only the colours it holds; a take of an absent colour is refused when played.",
      ("game.Game._legal_takes", _every_colour_listed), source="shape"),
    M("offer-absent-colour-listed-and-taken", "OFFER-6", "I offer and accept every colour from every source that "
      "holds a tile: an absent colour takes nothing, but a factory's tiles still go to the centre (from the "
      "centre, the marker is taken) and the turn passes.",
      ("game.Game._legal_takes", _every_colour_listed), ("game.Game._take", _source_checked_not_colour),
      source="shape"),
    M("offer-absent-colour-listed-turn-passes", "OFFER-6", "I offer and accept every colour from every source "
      "that holds a tile: a take of an absent colour finds nothing to take and moves nothing, and the turn passes.",
      ("game.Game._legal_takes", _every_colour_listed), ("game.Game._take", _absent_colour_passes_turn),
      source="shape"),
)

# Readings of the check alone (the list is the reference's): random play never plays a move the list leaves out,
# so they change play only from their witness positions (probe.WITNESSES).
READINGS += (
    M("offer-source-checked-not-colour", "OFFER-6", "My check of a take only asks whether the source is empty (the "
      "marker counts in the centre), not whether it holds the colour: an absent colour takes nothing, but a "
      "factory's tiles still go to the centre (from the centre, the marker is taken) and the turn passes.",
      ("game.Game._take", _source_checked_not_colour), source="shape"),
    M("offer-other-colour-joins-line-unchecked", "OFFER-8", "My apply does not check a started line's colour (my "
      "list does): the line's colour is set only when it is empty, so tiles of another colour join it counted as "
      "its colour; what exceeds its room falls to the floor as the tiles they are.",
      ("game.Game._check_line", _line_check_without("OFFER-8")), ("board.Board.place_on_line", _other_colour_joins),
      source="shape"),
)

READINGS += (
    # OFFER-7
    M("offer-lines-one-longer", "OFFER-7", "I give pattern line i (counted from 0) i + 2 spaces, adding 1 to a "
      "number that is already 1-based: line 1 holds 2 tiles, line 5 holds 6.",
      ("board.Board.colours_accepted", _longer_accepts), ("board.Board.place_on_line", _longer_place),
      ("board.Board.line_complete", _longer_complete), ("board.Board.tile_coloured_wall", _longer_tiled),
      ("board.Board.tile_line", _longer_rest), source="shape"),
    # OFFER-8
    M("offer-other-colour-listed", "OFFER-8", "My list of moves forgets the colour of a started line: it lists a "
      "take of another colour onto it (the move is refused when played).",
      ("game.Game._legal_takes", _other_colour_listed), source="shape"),
    M("offer-started-line-closed", "OFFER-8", "I let a take onto a pattern line only if the line is empty: a "
      "started line is never added to, even with its own colour; such takes are neither listed nor accepted.",
      ("board.Board.colours_accepted", _closed_if_started), ("game.Game._take", _refuse_unlisted("OFFER-8")),
      source="shape"),
    M("offer-started-line-unlisted", "OFFER-8", "My list of moves offers only empty pattern lines: a started line "
      "is never listed, though a take of its colour onto it is accepted when played.",
      ("game.Game._legal_takes", _started_lines_unlisted), source="shape"),
    M("offer-other-colour-joins-line", "OFFER-8", "I set a pattern line's colour only when it is empty and never "
      "compare it: a take of another colour onto a started line that is not full is listed and accepted, its tiles "
      "joining the line counted as the line's colour; what exceeds its room falls to the floor as the tiles they "
      "are.", ("board.Board.colours_accepted", _accepts(_any_colour_on_a_started_line)),
      ("board.Board.place_on_line", _other_colour_joins), source="shape"),
)


CELLS = {
    "OFFER-1": {"order": ("offer-marker-held-until-deal",), "once": ("offer-marker-not-in-centre-first-round",)},
    "OFFER-2": {"list": ("offer-listed-per-tile",)},
    "OFFER-3": {"comparison": ("offer-taken-colour-also-to-centre",), "reset": ("offer-factory-not-cleared",),
                "overwritten": ("offer-rest-replaces-centre",), "off-by-one": ("offer-rest-last-colour-dropped",)},
    "OFFER-4": {"order": ("offer-centre-rest-lost", "offer-centre-rest-doubled")},
    "OFFER-5": {"order": ("offer-marker-after-the-tiles",),
                "overwritten": ("offer-marker-overwritten-by-floor-tiles", "offer-marker-into-first-slot"),
                "comparison": ("offer-marker-seat-0-not-holder", "offer-marker-never-taken")},
    "OFFER-6": {"list": ("offer-every-colour-listed",), "check": ("offer-source-checked-not-colour",),
                "both": ("offer-absent-colour-listed-and-taken", "offer-absent-colour-listed-turn-passes"),
                "comparison": ("offer-absent-colour-listed-and-taken",)},
    "OFFER-7": {"off-by-one": ("offer-lines-one-longer",)},
    "OFFER-8": {"list": ("offer-other-colour-listed", "offer-started-line-unlisted"),
                "check": ("offer-other-colour-joins-line-unchecked",),
                "comparison": ("offer-started-line-closed",),
                "both": ("offer-started-line-closed", "offer-other-colour-joins-line"),
                "overwritten": ("offer-other-colour-joins-line",)},
}
