"""Readings of the set-up (SETUP-1..6), the deal (DEAL-1..4) and the next round (ROUND-1..3), third round: written
from the rules' text and the reference code alone (clean room), from one angle: each version's own words. For each
rule, each of the eight versions was read on its own (the lines `azul spec show` cites, and their neighbours), as
an engine author who had only that version and implemented its words literally would read it: its verbs, its
quantifiers, who acts and when, and what it leaves unsaid (an omission: the author implements only what the
version says). A reading is kept when its behaviour is new to the catalogue, whatever its words.

Engine memory the reference has no field for (the seat that started the game) is kept beside the game, keyed by
id(game), and carried over by copies; the round's last taker is score_round's memory of it.

Left out:
- Two readings killed only by scenarios of three or four players, since two boards hold at most 80 tiles and so
  a two-player deal never runs out of tiles (bag and lid together keep 20 or more):
  deal-empty-factories-not-set-out (DEAL-3): out of tiles, the factories a deal leaves empty are not set out and
  the round is played with those that got tiles (EN l. 167, FR l. 46, IT l. 222: 'even if not all the Factory
  tiles have been placed', where a 'Factory tile' is the factory itself); and round-prepared-with-nothing-to-deal
  (ROUND-1): with no complete row the next round is always prepared, even with bag and lid empty, and its offer
  opens with no tile and no move (every version: 'prepare the next round', 'begin the new round normally'; none
  has END-8's exception).
- SETUP-1: an engine knowing only the coloured side (UK, l. 4 points to a variant section the edition lacks; PT,
  l. 25 says only 'Lado colorido para cima'), refusing a grey game or playing it on the coloured wall. The first
  simply offers no grey wall (a capability, not a reading); the second fails only grey scenarios, which an engine
  offering the coloured wall never runs.
- SETUP-5: a start player drawn by the engine (DE l. 72, UK l. 11, ES l. 21 name 'the one most recently in
  Portugal', which no engine can know): it ignores the given seat as setup-seat-0-starts does, but at random, so
  its failures would come and go with the draw.
- DEAL-1: the factories filled with the bag's first tiles, not random ones (UK l. 54, ES l. 133 and PT l. 93 say
  only 'from the bag' for the later rounds): no scenario looks at which tiles a random deal gives; none kills it.
- ROUND-1: the round number advanced at every turn (IT-2 calls a player's turn, l. 33, and the round, ll. 55-59,
  both 'turno'), and IT-2's 'not used for the next round' (l. 60) read as a lid whose newest tiles wait a round
  before a refill may take them: judged too far-fetched for an engine to ship.
"""

from __future__ import annotations

from ..readings import DEAL, FACTORIES_BY_PLAYERS, IN_CENTRE, M, _next_start, kept_by_copies, value
from .score_round import _last_taker_copied, _remember_last_taker
from .score_round import _next_start as _next_start_after


# -- set-up ----------------------------------------------------------------------------------------------------


class _PlayersElseNine(dict):
    """The factory table written as `if players == 2: 5 elif players == 3: 7 else: 9`: the last case is the else,
    so any other number of players is set up, with nine factories."""

    def __contains__(self, players) -> bool:
        return isinstance(players, int)

    def __missing__(self, players) -> int:
        return FACTORIES_BY_PLAYERS[4]


# -- the next round --------------------------------------------------------------------------------------------


_FIRST: dict[int, int] = {}  # id(game) -> the seat that started the game ('il giocatore iniziale')


def _first_player_noted(original):
    """A new game (and the Game a position is loaded into) notes its start player as the game's first player."""
    def init(game, *args, **kwargs):
        original(game, *args, **kwargs)
        _FIRST[id(game)] = game.start_player
    return init


_first_player_copied = kept_by_copies(_FIRST)


def _first_player_deals(original):
    """Between rounds the table waits for the game's first player to deal; the deal then gives the first turn to
    the marker's holder (the reference's deal sets the turn to the start player)."""
    def end_round(game):
        original(game)
        if game.phase == DEAL:
            game.turn = _FIRST.get(id(game), game.start_player)
    return end_round


def _unclaimed(after_last_taker):
    """Only a holder of the marker is handed the start (`if holder is not None`); with none, the seat that
    after_last_taker(game, last taker) gives starts."""
    return _next_start_after(lambda game, holder, was, last:
                             holder if holder != IN_CENTRE else after_last_taker(game, last))


READINGS = (
    # SETUP-3
    M("setup-factory-counts-largest-first", "SETUP-3", "The factory counts are copied into a list in the order "
      "the rules give them, 9, 7, 5, and read at players - 2: two players get 9 factories, three 7 and four 5. "
      "(IT-2, ll. 12-14: the note lists '4 giocatori' first, then 3, then 2).",
      ("game.FACTORIES_BY_PLAYERS", value({2: 9, 3: 7, 4: 5})), source="shape"),
    # SETUP-6
    M("setup-player-count-else-branch", "SETUP-6", "The factory table is an if-chain whose last case is the else: "
      "2 players get 5 factories, 3 get 7, and any other number, one or five players among them, gets 9; no "
      "number of players is refused. (EN, ll. 130-133: the list of 2, 3 and 4 players is the only bound the "
      "version gives, and it states no limit).",
      ("game.FACTORIES_BY_PLAYERS", value(_PlayersElseNine(FACTORIES_BY_PLAYERS))), source="shape"),
    # ROUND-2
    M("round-game-first-player-deals", "ROUND-2", "The player who started the game deals every round; the "
      "marker's holder takes the first turn once the deal is made, so between rounds the table waits on the "
      "game's first player. (IT-2, l. 61: 'Il giocatore iniziale' deals 'come nel primo turno', read as the "
      "player who began the game, l. 21; l. 57 gives the first turn to the holder).",
      ("game.Game.__init__", _first_player_noted), ("game.Game.copy", _first_player_copied),
      ("game.Game._end_round", _first_player_deals), source="shape"),
    # ROUND-3
    M("round-unclaimed-last-seat", "ROUND-3", "The next start player is set from the marker's holder with no "
      "test for a marker left in the centre; its 'centre' value, -1, is read as a seat from the end: when nobody "
      "took from the centre the last seat starts. (EN, l. 166: only 'the player with the First Player marker' "
      "deals; no version covers a marker nobody took).",
      ("game.Game._end_round", _next_start(lambda game, holder, was: holder % game.players)), source="shape"),
    M("round-unclaimed-seat-after-last-taker", "ROUND-3", "Only a holder of the marker is handed the next round; "
      "when nobody took from the centre nothing is set, and the turn passes on from the round's last take as "
      "after any take: the seat after the last taker starts. (FR, l. 45: 'le joueur possédant le marqueur' deals; "
      "the version says nothing of a marker nobody holds, and l. 18 passes the turn clockwise).",
      ("game.Game._end_offer", _remember_last_taker), ("game.Game.copy", _last_taker_copied),
      ("game.Game._end_round", _unclaimed(lambda game, last: (last + 1) % game.players)), source="shape"),
    M("round-unclaimed-turn-stays-with-last-taker", "ROUND-3", "Only a holder of the marker is handed the next "
      "round; when nobody took from the centre nothing is set, and the turn stays with the player who made the "
      "round's last take, who starts the next round. (DE, l. 111: only 'der Spieler, der den "
      "Startspielermarker besitzt' deals; the version says nothing of a marker nobody holds).",
      ("game.Game._end_offer", _remember_last_taker), ("game.Game.copy", _last_taker_copied),
      ("game.Game._end_round", _unclaimed(lambda game, last: last)), source="shape"),
)


CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "SETUP-3": {"order": ("setup-factory-counts-largest-first",)},
    "SETUP-6": {"comparison": ("setup-player-count-else-branch",)},
    "ROUND-2": {"seat": ("round-game-first-player-deals",)},
    "ROUND-3": {"seat": ("round-unclaimed-last-seat", "round-unclaimed-seat-after-last-taker",
                         "round-unclaimed-turn-stays-with-last-taker")},
}
