"""Readings of OFFER-1 .. OFFER-16, third round: written from the rules' text and the reference engine alone, from
one angle, each version's own words. For every rule of the chapter the sentence each of the eight versions gives
it (FR, DE, EN, IT, UK, ES, PT, IT-2; `azul spec show RULE` names the lines) was read with its neighbours, and
implemented as literally as an author holding only that version would: its verbs, its quantifiers, its time
words, who acts, and what it leaves unsaid. A reading was kept where that literal implementation parts from the
rule and the catalogue holds no reading of the same behaviour.

Most of the chapter's wording invites nothing the first two rounds left out: the versions' slips (PT's wall row
unnamed, IT-2's missing line limits, its marker in the first box, the floor 'by choice', UK's garbled end of the
phase) already have their readings. What is left is the marker's part in the offer: FR, EN and IT's 'this
turn' for the round, and the marker that PT calls a tile ('azulejo número 1') and that EN, FR and IT leave the
centre 'completely empty' without.

Every reading written is killed by a 2-player scenario of its own rule; none was dropped. Considered and not
written: the wall-row limit checked only from round 2 (DE, l. 91; UK, l. 32; ES, l. 59 'in all later rounds'),
which no position can tell from the rule, since a loaded position's round follows its walls; a pass-by-pass
marker that puts a new marker on each pass's first centre taker instead of moving the one marker, since one
marker is what the versions name; and IT-2's 'one or more tiles' (l. 39), a partial take no move can name.

Engine state a reading keeps that the reference has no field for (whether the marker was claimed in the current
pass around the table) is held in a module dictionary keyed by the game's id, carried over by Game.copy; a game
it has no entry for (a position loaded mid-round) is taken to have had the marker claimed in the current pass
when someone holds it, so that it behaves as the reference until the next pass begins.
"""

from __future__ import annotations

from azul_reference.game import Game
from azul_reference.tiles import MARKER

from ..readings import CENTRE, IN_CENTRE, OFFER, M, Mutant, _unclaimed_marker_to_floor


# -- OFFER-14: the marker counted as something left in the centre ------------------------------------------------

def _offer_held_open_by_marker(original):
    """The emptiness test of the offer counts the centre's marker as content: while the marker lies in the centre
    (nobody took from it this round) the last take does not end the offer; the turn passes to a player with
    nothing to take (every take is refused, none is listed)."""
    def end_offer(game):
        if game.marker != IN_CENTRE:
            return original(game)
        game.turn = (game.turn + 1) % game.players  # the offer goes on: the centre is not 'completely empty'
    return end_offer


def _next_seat(game) -> int:
    """The seat after the round's last taker (game.turn is still the last taker when the offer ends)."""
    return (game.turn + 1) % game.players


# -- OFFER-5: 'this turn' read as one pass around the table ---------------------------------------------------------

_CLAIMED: dict[int, tuple[Game, bool]] = {}  # id(game) -> (the game, whether the marker was claimed this pass)


def _claimed_this_pass(game) -> bool:
    entry = _CLAIMED.get(id(game))
    if entry is not None and entry[0] is game:
        return entry[1]
    return game.marker != IN_CENTRE  # unknown history (a loaded position): as the reference, until the next pass


def _copy_keeps_pass(original):
    """Game.copy carrying the pass's flag over, as the engine's own state would be copied."""
    def copy(game):
        other = original(game)
        entry = _CLAIMED.get(id(game))
        if entry is not None and entry[0] is game:
            _CLAIMED[id(other)] = (other, entry[1])
        return other
    return copy


def _marker_claimed_each_pass(original):
    """A pass around the table begins with the start player's take. The first take from the centre in each pass
    collects the marker: from the centre, or off the floor line of whoever collected it in an earlier pass, and
    puts it on the leftmost free floor space of the taker, before the take's tiles; the taker will start."""
    def take(game, move):
        if game.phase != OFFER:
            return original(game, move)
        seat, holder = game.turn, game.marker
        claimed = False if seat == game.start_player else _claimed_this_pass(game)
        if move.source == CENTRE and not claimed and holder not in (IN_CENTRE, seat):
            original(game.copy(), move)  # raises when the rules refuse the take itself
            floor = game.boards[holder].floor
            if MARKER in floor:  # FLOOR-5: a holder whose floor was full holds it off the floor line
                floor.remove(MARKER)
            game.marker = IN_CENTRE  # so the take below collects it, before its tiles
        original(game, move)
        _CLAIMED[id(game)] = (game, claimed or move.source == CENTRE)
    return take


READINGS: tuple[Mutant, ...] = (
    M("offer-marker-keeps-offer-open", "OFFER-14", "My centre holds the first-player marker like its tiles, and the "
      "offer ends when the factories and the centre are completely empty: in a round where nobody took from the "
      "centre the marker is still there after the last tile is taken, so the offer goes on and the next player "
      "is left with nothing to take. (EN, l. 151; FR, l. 30; IT, l. 207: 'completely empty', with no word "
      "that only tiles count, where DE, l. 94, says emptied 'of tiles').",
      ("game.Game._end_offer", _offer_held_open_by_marker), source="shape"),
    M("offer-lone-marker-taken-by-next-seat", "OFFER-14", "The marker is tile number 1: while it lies in the "
      "centre there is still something to take, and a player must take something and must take number 1 when it "
      "is there; so when the last coloured tile is taken in a round where nobody took from the centre, the next "
      "player takes the marker onto their floor line and starts the next round, and only then does the offer "
      "end. (PT, l. 53: 'azulejo número 1'; l. 65: 'Se o número 1 estiver lá, você deve pegá-lo'; l. 66: "
      "'Você deve pegar algo'; l. 79: the phase ends when no tile is left to take).",
      ("game.Game._end_offer", _unclaimed_marker_to_floor(_next_seat)), source="shape"),
    M("offer-marker-claimed-each-pass", "OFFER-5", "A 'turn' is one pass around the table, from the start player: "
      "the first player to take from the centre in each pass collects the marker, from the centre or off the "
      "floor line of whoever collected it in an earlier pass, and places it on the leftmost free space of their "
      "own floor line; the last to collect it starts the next round. (EN, l. 142: 'the first player to collect "
      "tiles from the center of the table this turn'; FR, l. 21 'lors de ce tour' and IT, l. 199 'in questo "
      "turno' alike: several players take in one 'turn', so it is not a player's turn).",
      ("game.Game._take", _marker_claimed_each_pass), ("game.Game.copy", _copy_keeps_pass), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "OFFER-5": {"reset": ("offer-marker-claimed-each-pass",)},
    "OFFER-14": {"comparison": ("offer-marker-keeps-offer-open", "offer-lone-marker-taken-by-next-seat")},
}
