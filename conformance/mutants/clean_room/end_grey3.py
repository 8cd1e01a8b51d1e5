"""END-1 .. END-8 and GREY-1 .. GREY-5, third round: wrong readings written from the rules' text and the reference
alone.

The angle of this round is each version's own words. For every rule of the two chapters, each version's sentence
(and its neighbours) was read as an engine author who had only that version would read it, implementing its
verbs, quantifiers and omissions literally; a reading was kept where the version invites a behaviour our rule
does not allow and the catalogue lacks (end.py, end_grey2.py, grey.py and readings.py already hold many), and a
scenario of two players kills it. What the wording invited, and was kept:

- END-1: FR, EN and IT end the game after a "tile placement phase" whose name matches neither of their phase
  headers (the pattern phase, where tiles are placed on lines, or the paving phase).
- END-2, END-3: PT's final count calls the pattern lines "linhas" throughout and says "each complete line" for
  the row bonus; it gives the column bonus with no "each".
- END-2: UK and PT say to *count* the extra points, not to add them to the score track.
- END-6, END-7: PT has no tie rule (the one "in front" wins); UK ends a remaining tie with a draw.

Written and left out, because no scenario of two players kills them:
- grey-unfit-line-dropped-when-filled (GREY-3): FR, l. 58, EN, l. 179 and IT, l. 234 set the special case in a
  "tile-laying phase" matching neither phase header, and say "immediately": a take that completes a line whose
  tile fits no space sends the line to the floor at once, during the offer. Only a state shown mid-offer, a
  refill of the emptied line or a floor overflow tells it from the rule; no scenario looks there (no scenario
  fails it at all).
- grey-floors-after-every-board (GREY-5): EN, l. 162 ("at the end of the paving phase") with DE, l. 96 (everyone
  tiles at once): the floors charged only after every board's lines. Only the earlier boards' floors and scores
  while a later seat's placement is pending show it; no scenario checks them then (no scenario fails it).
- grey-lines-in-lockstep (GREY-5): DE, ll. 96-97, UK, ll. 40-41, ES, ll. 83-85 (all at once, each top to
  bottom): every seat's line 1, then every seat's line 2, floors at the end. No scenario has an earlier seat
  with a complete line lower than a later seat's (no scenario fails it).
- A tie on points broken by the most complete rows among all the players, not only the tied ones (IT, l. 229 and
  UK, l. 65 say "the player who completed the most horizontal rows", not "the tied player"): with two players
  both are tied, so only a game of three or more shows it (end/winners.yaml has such a scenario).
- The empty deal of END-8 read as the six full rulebooks write it ("begin the new round normally": the game goes
  on to a deal with no tile), and the same case handled at the deal after the next round is prepared: bag and
  lid can both be empty only at a table of four.
- GREY-1, GREY-2, GREY-4: every reading their versions invite (ES's "any space" without "empty", IT-2's missing
  column rule, the normal game's row rule kept or moved) is in the catalogue already.
"""

from __future__ import annotations

from ..readings import M, _tied_on_points, _top, _winners
from .end import _bonus, _round_ends_as_ever

# -- END-1: the end taken to follow the pattern phase ------------------------------------------------------------

def _ends_after_the_offer(original):
    """Game._end_offer of an engine for which the game ends right after the phase in which tiles are placed on the
    pattern lines: a complete wall row seen as the offer ends ends the game there, that round untiled and its
    floors uncharged; otherwise the tiling runs and the round ends as ever (with Game._end_round, below, no
    longer looking for a row)."""
    def end_offer(game):
        if any(board.complete_rows() for board in game.boards):
            game._end_game()
            return
        original(game)
    return end_offer


# -- END-2, END-3: the bonuses as PT counts them ------------------------------------------------------------------

def _complete_pattern_lines(board) -> int:
    """'Each complete line' counted on the pattern lines: after the last tiling none is complete (tiled lines are
    emptied, unfit grey lines sent to the floor), so the row bonus is always 0."""
    return sum(board.line_complete(line) for line in range(5))


def _any_complete_column(board) -> int:
    """'For complete columns, 7 points': one bonus if the wall has any complete column, however many."""
    return min(1, type(board).complete_columns(board))


def _bonuses_tallied_apart(original):
    """Game._end_game of an engine that counts the extra points in a final tally of its own: the winners are
    found on score + bonus, but the bonus never reaches the score track, so the scores reported lack it."""
    def end_game(game):
        original(game)
        for board in game.boards:
            board.score -= board.end_bonus()  # the wall no longer changes: the same bonus the reference added
    return end_game


# -- END-6, END-7: who wins a tie ----------------------------------------------------------------------------------

def _only_one_in_front(ranks):
    """PT: the player in front wins; players level on points are none of them in front, so nobody wins."""
    tied = _tied_on_points(ranks)
    return tied if len(tied) == 1 else []


def _draw_declared(ranks):
    """UK: a tie on points goes to the most complete rows; if that does not settle it, a draw: nobody wins."""
    top = _top(ranks)
    return top if len(top) == 1 else []


READINGS = (
    # END-1
    M("end-ends-after-the-pattern-phase", "END-1", "I end the game right after the tile placement phase, the one in "
      "which tiles are placed on the pattern lines: the tiling that completes a row ends its round as any other, "
      "and the game ends as the next offer ends, that round neither tiled nor charged for its floors. (EN, l. 169: "
      "'tile placement phase' names neither the Pattern nor the Paving Phase of ll. 138 and 152, and l. 144 "
      "places the tiles on a pattern row; FR, l. 48 and IT, l. 224 likewise).",
      ("game.Game._end_offer", _ends_after_the_offer), ("game.Game._end_round", _round_ends_as_ever),
      source="shape"),
    # END-2
    M("end-row-bonus-counts-pattern-lines", "END-2", "I give 2 points for each complete line, and a line, as "
      "everywhere else in my rules, is a pattern line: at the end none is complete any more, so nobody gets a "
      "row bonus. (PT, l. 100: 'Cada linha completa' uses the word the walk-through gives the pattern lines, "
      "ll. 71 and 80).",
      ("board.Board.end_bonus", lambda original: _bonus(rows=_complete_pattern_lines)), source="shape"),
    M("end-bonuses-tallied-apart", "END-2", "I count the extra points at the end in a final tally and rank the "
      "players on score plus tally; the score track itself is left as the last round left it. (UK, l. 60 and "
      "PT, l. 97: 'count the additional points', where FR, l. 48 has 'you receive').",
      ("game.Game._end_game", _bonuses_tallied_apart), source="shape"),
    # END-3
    M("end-column-bonus-once", "END-3", "I give 7 points to a wall with complete columns, however many columns "
      "are complete; rows and colours earn theirs for each one. (PT, l. 102: 'Para colunas completas' has no "
      "'each', where ll. 100 and 104 have one).",
      ("board.Board.end_bonus", lambda original: _bonus(columns=_any_complete_column)), source="shape"),
    # END-6
    M("end-level-on-points-nobody-wins", "END-6", "My winner is the player in front, strictly ahead on points; "
      "players level on points are none of them in front, so a tie on points has no winner and I never look at "
      "the rows. (PT, l. 106: 'Quem estiver na frente agora, venceu', and PT says nothing about ties).",
      ("game.Game._end_game", _winners(_only_one_in_front)), source="shape"),
    # END-7
    M("end-remaining-tie-is-a-draw", "END-7", "When points and complete rows do not separate the leaders, I "
      "declare a draw: the game ends with no winner. (UK, l. 65: 'оголошується нічия', a draw is declared, "
      "where FR, l. 54 has several players win).",
      ("game.Game._end_game", _winners(_draw_declared)), source="shape"),
)

CELLS = {
    "END-1": {"order": ("end-ends-after-the-pattern-phase",)},
    "END-2": {"comparison": ("end-row-bonus-counts-pattern-lines",), "overwritten": ("end-bonuses-tallied-apart",)},
    "END-3": {"comparison": ("end-column-bonus-once",)},
    "END-6": {"comparison": ("end-level-on-points-nobody-wins",)},
    "END-7": {"comparison": ("end-remaining-tie-is-a-draw",)},
}
