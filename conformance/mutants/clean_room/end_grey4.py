"""END-1 .. END-8, GREY-1 .. GREY-5 and ROUND-1 .. ROUND-3, fourth round: wrong readings written from the rules'
text and the reference alone.

The angle of this round is the code an engine author writes for each rule. For every rule of the chapter two or
three ordinary implementations were pictured (the end test over the boards, the bonus counts over the wall, the
winner loop, the round's housekeeping, the search for the marker's holder), and each was gone through for the
slips such code invites in haste: loops one short or stopping at the first match, a value read before or after
its update, 0 or -1 or an empty value taken for "none" or counted as a colour, a tie broken by position, a sum
over the wrong collection, an accumulator or a list not reset, a set where a count matters. A reading was kept
where the slip gives a plausible engine a behaviour the rule forbids and the catalogue (readings.py, end.py,
end_grey2.py, end_grey3.py, grey.py, score_round.py) does not already hold, and where a scenario of its own rule
that a 2-player engine on the coloured wall runs kills it. What was kept:

- END-1: the end test written `complete_rows() > 1`; a row (and a column) taken for complete when its five
  cells hold five distinct values, the empty space's value among them.
- END-2: the rows' loop that breaks at the first complete row; a truthiness test on the cells (blue being 0)
  that never sees a complete row or column, nor a blue tile in the colour tally; a bonus accumulator declared
  outside the loop over the boards.
- END-4: the colours tallied in a list indexed by the cell's value, the empty space's -1 landing on white; a
  colour's spaces looked up as the column numbered like the colour.
- END-5: the winner loop's `if not leader` that takes seat 0 for no leader; the winners list appended to, not
  reset, when a better score is found; the tie-break's most rows taken over every board.
- END-7: the loop that adds the other tied players to the winners, one short. With two players it plays as
  end-remaining-tie-to-first-seat-found; it parts from it when three or more players all tie.
- ROUND-2: the holder looked for in the first floor space. The suite tells it from floor-full-marker-lost only
  where the holder had put floor tiles before taking the marker, which no scenario does: both are killed by the
  full floor's scenario alone.
- ROUND-3: the "nobody took from the centre" branch that passes the start on as a turn does.

Considered and not written:
- ROUND-1: the round's `round += 1` indented under the marker holder's branch (a round in which nobody took from
  the centre is not counted). Written and left out: every scenario that kills it is one of ROUND-3 (a round
  without a centre take); no scenario of ROUND-1 plays such a round.
- END-2: the truthiness slip limited to rows and columns (`all(row)` with blue as 0) plays exactly as
  end-only-colour-bonus-kept (only the colour bonus left); it was widened to the colour tally's `if cell:`, the
  same engine's other test, which drops blue from the colour bonus too.
- GREY-1 .. GREY-5: every scenario of these rules runs on the grey wall only, so no reading of them can be
  killed by a scenario of its own rule on the coloured wall. The slips pictured there (the column loop from 1,
  the free columns listed with the pending line's index, the placement loop that stops at the first free column,
  the unfit line's tiles counted before the line is emptied) are also mostly held already (grey.py,
  end_grey2.py).
- END-8: every scenario of the rule but one is of four players (with two, bag and lid are never both empty);
  the slips pictured (`not bag and not lid` on lists of counts, which are never empty, so the game never ends
  for want of tiles; a test `< 4` tiles for `== 0`) differ from the rule only there.
- END-3, END-6: the slips pictured (a column counted from rows 1-4, a tie-break over the wrong list of seats)
  either repeat a reading held (end-partial-column, end-column-bonus-at-four) or differ from the rule only at a
  table of three or more; a dict of row counts keyed by score (tied players colliding) was judged too contrived.
  The tie-break's "most rows over every board" is written under END-5, as the 2-player scenarios that kill it are
  a clear win's.
- ROUND-2: the holder found by `MARKER in floor` (it misses a holder whose floor was full) plays exactly as
  floor-full-marker-lost; a per-board "took the marker" flag never cleared needs two rounds with two holders,
  which no 2-player scenario of the rule plays. ROUND-1: a round end that deals the next round itself is the
  protocol's question more than the rule's.
- END-1: an end flag kept on the class (shared by every game) would make a reading whose behaviour depends on
  the order the suite runs in.
"""

from __future__ import annotations

from azul_reference.tiles import MARKER

from ..readings import DEAL, EMPTY, IN_CENTRE, WALL_SIZE, M, _winners
from .end import _bonus, _ends_when

# -- END-1: what counts as a complete row --------------------------------------------------------------------------


def _five_distinct(cells) -> bool:
    """`len(set(cells)) == 5`, meant as 'five different colours': a row of four tiles and one empty space holds
    five distinct values too (the empty space's own among them)."""
    return len(set(cells)) == WALL_SIZE


def _rows_of_five_values(board) -> int:
    return sum(_five_distinct(row) for row in board.wall)


def _columns_of_five_values(board) -> int:
    return sum(_five_distinct([board.wall[row][column] for row in range(WALL_SIZE)]) for column in range(WALL_SIZE))


# -- END-2: the row and column bonuses -------------------------------------------------------------------------------


def _rows_until_first(board) -> int:
    """The complete rows counted by a loop that breaks at the first one it finds."""
    rows = 0
    for row in board.wall:
        if all(cell != EMPTY for cell in row):
            rows += 1
            break  # meant to leave the inner test, it leaves the loop over the rows
    return rows


def _tile(cell) -> bool:
    """`if cell:` in an engine whose empty space is None and whose colours are 0..4: blue (0) is as false as an
    empty space."""
    return cell != EMPTY and bool(cell)


def _rows_by_truth(board) -> int:
    return sum(all(_tile(cell) for cell in row) for row in board.wall)


def _columns_by_truth(board) -> int:
    return sum(all(_tile(board.wall[row][column]) for row in range(WALL_SIZE)) for column in range(WALL_SIZE))


def _colours_by_truth(board) -> int:
    """The colours tallied with `if cell: counts[cell] += 1`, to skip the empty spaces: the blue tiles are
    skipped too."""
    counts = [0] * 5
    for row in board.wall:
        for cell in row:
            if _tile(cell):
                counts[cell] += 1
    return sum(count == WALL_SIZE for count in counts)


def _bonus_accumulated(original):
    """Game._end_game of an engine whose `bonus = 0` stands before the loop over the boards: each board is given
    the running total, its own bonus and those of every board before it."""
    def end_game(game):
        earlier = 0
        for board in game.boards:
            own = board.end_bonus()  # the walls no longer change: the same bonus the reference adds below
            board.score += earlier
            earlier += own
        original(game)
    return end_game


# -- END-4: the colour bonus ---------------------------------------------------------------------------------------


def _colours_tallied_by_value(board) -> int:
    """counts[cell] += 1 over every space of the wall, then the colours counted five times: an empty space (-1)
    is counted at counts[-1], white's."""
    counts = [0] * 5
    for row in board.wall:
        for cell in row:
            counts[cell] += 1
    return sum(count == WALL_SIZE for count in counts)


def _colours_as_columns(board) -> int:
    """A colour's five spaces looked up as wall[row][colour], the layout's shift from row to row forgotten: the
    column numbered like the colour is what is tested."""
    return sum(all(board.wall[row][colour] != EMPTY for row in range(WALL_SIZE)) for colour in range(5))


# -- END-5, END-7: the winners ---------------------------------------------------------------------------------------


def _seat_0_read_as_no_leader(ranks):
    """A scan keeping the leader's seat, tested with `if not leader` for `if leader is None`: while seat 0 leads
    the next seat takes the lead whatever its rank."""
    leader, winners = None, []
    for seat, rank in enumerate(ranks):
        if not leader or rank > ranks[leader]:
            leader, winners = seat, [seat]
        elif rank == ranks[leader]:
            winners.append(seat)
    return winners


def _winners_appended_on_lead(ranks):
    """A scan that appends the seat to the winners when it takes the lead, where the list should start again:
    every seat that led at some point of the scan wins."""
    best, winners = None, []
    for seat, rank in enumerate(ranks):
        if best is None or rank > best:
            best = rank
            winners.append(seat)  # `winners = [seat]` meant
        elif rank == best:
            winners.append(seat)
    return winners


def _most_rows_of_every_board(ranks):
    """The players on the top score kept, then those of them with the most complete rows, the most taken over
    every board (max over the wrong list): a leader with fewer rows than a player behind is kept by nobody."""
    top = max(score for score, _ in ranks)
    most = max(rows for _, rows in ranks)  # over every board, not only the tied ones
    return [seat for seat, (score, rows) in enumerate(ranks) if score == top and rows == most]


def _tied_added_one_short(ranks):
    """The seats ranked best first (a stable sort), the first a winner, and a loop over range(1, n - 1) adding
    those equal to it: it stops one short, so the last of the ranking is never added (with two players, the
    tie is never shared)."""
    ranked = sorted(range(len(ranks)), key=lambda seat: ranks[seat], reverse=True)
    winners = [ranked[0]]
    for i in range(1, len(ranked) - 1):
        if ranks[ranked[i]] == ranks[ranked[0]]:
            winners.append(ranked[i])
    return sorted(winners)


# -- ROUND-1 .. ROUND-3: the next round ------------------------------------------------------------------------------


def _holder_in_first_floor_space(original):
    """Game._end_offer of an engine that finds the next start player by looking at each floor line's first space
    (floor[0] == MARKER) before the floors are cleared: a holder who had floor tiles before taking the marker
    (or whose floor was full) is not found, and the round reads as one nobody took from the centre."""
    def end_offer(game):
        if game.marker != IN_CENTRE and game.boards[game.marker].floor[:1] != [MARKER]:
            game.marker = IN_CENTRE
        original(game)
    return end_offer


def _unclaimed_start_passed_on(original):
    """Game._end_round whose branch for a marker left in the centre passes the start on clockwise, as a turn
    passes (`(start + 1) % players`), where it should leave it."""
    def end_round(game):
        unclaimed, was = game.marker == IN_CENTRE, game.start_player
        original(game)
        if game.phase == DEAL and unclaimed:
            game.start_player = game.turn = (was + 1) % game.players
    return end_round


READINGS = (
    # END-1
    M("end-needs-two-complete-rows", "END-1", "My end test reads `if board.complete_rows() > 1`, written for 'at "
      "least one': a single complete row does not end the game, a second one does.",
      ("game.Game._end_round", _ends_when(lambda game: any(board.complete_rows() > 1 for board in game.boards))),
      source="shape"),
    M("end-five-distinct-values-complete", "END-1", "I take a row or column for complete when its five cells hold "
      "five different values (`len(set(cells)) == 5`), the empty space's value counting as one of them: a row "
      "of four tiles and a gap ends the game, and such rows and columns earn their bonuses and count in the "
      "tie-break.",
      ("board.Board.complete_rows", lambda original: _rows_of_five_values),
      ("board.Board.complete_columns", lambda original: _columns_of_five_values), source="shape"),
    # END-2
    M("end-row-bonus-stops-at-first-row", "END-2", "My loop over the wall's rows breaks at the first complete row "
      "it finds: a wall with several complete rows earns the row bonus once, 2 points.",
      ("board.Board.end_bonus", lambda original: _bonus(rows=_rows_until_first)), source="shape"),
    M("end-bonus-blue-read-as-empty", "END-2", "My empty space is None and blue is colour 0, and my bonus code "
      "tests the cells for truth: `all(row)` for a row or a column, `if cell:` to skip the empty spaces when "
      "tallying the colours. Every complete row and column holds a blue tile, so none earns its bonus, and blue "
      "never earns the colour bonus.",
      ("board.Board.end_bonus",
       lambda original: _bonus(rows=_rows_by_truth, columns=_columns_by_truth, colours=_colours_by_truth)),
      source="shape"),
    M("end-bonus-accumulator-not-reset", "END-2", "My `bonus = 0` stands before the loop over the boards, not in "
      "it: each player is given their own bonus plus the bonuses of every seat before them.",
      ("game.Game._end_game", _bonus_accumulated), source="shape"),
    # END-4
    M("end-empty-spaces-counted-as-white", "END-4", "I tally the wall's colours in a list indexed by each cell's "
      "value, the empty spaces included: their -1 lands on the last entry, white, so white earns its 10 only "
      "when its tiles and the wall's empty spaces make exactly five.",
      ("board.Board.end_bonus", lambda original: _bonus(colours=_colours_tallied_by_value)), source="shape"),
    M("end-colour-read-as-column", "END-4", "I look for a colour's five tiles at wall[row][colour] in every row, "
      "forgetting that the layout shifts the colour one space a row: each complete column numbered like a "
      "colour earns the colour bonus, and a complete colour earns nothing of itself.",
      ("board.Board.end_bonus", lambda original: _bonus(colours=_colours_as_columns)), source="shape"),
    # END-5
    M("end-seat-0-read-as-no-leader", "END-5", "My winner scan keeps the leader's seat and tests it with `if not "
      "leader` for `if leader is None`: seat 0 leading reads as no leader, so the next seat takes the lead "
      "whatever its score; with two players seat 1 always wins alone.",
      ("game.Game._end_game", _winners(_seat_0_read_as_no_leader)), source="shape"),
    M("end-winners-appended-on-new-lead", "END-5", "My winner scan appends the seat to the winners when it finds a "
      "better score, where the list should start again: every seat that led at some point of the scan wins "
      "(seat 0 always among them).",
      ("game.Game._end_game", _winners(_winners_appended_on_lead)), source="shape"),
    M("end-most-rows-over-every-board", "END-5", "I keep the players on the top score, then those of them with the "
      "most complete rows, the most taken with max() over every board instead of the top scorers: a leader on "
      "points with fewer rows than a player behind is kept by neither test, and nobody wins.",
      ("game.Game._end_game", _winners(_most_rows_of_every_board)), source="shape"),
    # END-7
    M("end-tied-winners-loop-one-short", "END-7", "I rank the seats best first, make the first a winner and add "
      "those level with it in a loop over range(1, n - 1), one short: the last of the ranking is never added, "
      "so with two players a remaining tie goes to the lower seat alone, and with more the last tied seat is "
      "left out.", ("game.Game._end_game", _winners(_tied_added_one_short)), source="shape"),
    # ROUND-2
    M("round-holder-sought-in-first-floor-space", "ROUND-2", "I find the next start player by looking for the "
      "marker in the first space of each floor line (`floor[0] == MARKER`) before the floors are cleared: a "
      "holder who had put tiles on the floor before taking the marker is not found, and the start player stays.",
      ("game.Game._end_offer", _holder_in_first_floor_space), source="shape"),
    # ROUND-3
    M("round-unclaimed-start-passes-on", "ROUND-3", "My branch for a marker left in the centre passes the start on "
      "clockwise as a turn passes (`(start + 1) % players`): when nobody took from the centre the seat after "
      "the round's start player starts the next round.",
      ("game.Game._end_round", _unclaimed_start_passed_on), source="shape"),
)

CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    "END-1": {"off-by-one": ("end-needs-two-complete-rows",),
              "comparison": ("end-five-distinct-values-complete",)},
    "END-2": {"comparison": ("end-bonus-blue-read-as-empty",), "off-by-one": ("end-row-bonus-stops-at-first-row",),
              "reset": ("end-bonus-accumulator-not-reset",)},
    "END-4": {"comparison": ("end-empty-spaces-counted-as-white",), "off-by-one": ("end-colour-read-as-column",)},
    "END-5": {"seat": ("end-seat-0-read-as-no-leader",), "reset": ("end-winners-appended-on-new-lead",),
              "comparison": ("end-most-rows-over-every-board",)},
    "END-7": {"off-by-one": ("end-tied-winners-loop-one-short",)},
    "ROUND-2": {"seat": ("round-holder-sought-in-first-floor-space",)},
    "ROUND-3": {"seat": ("round-unclaimed-start-passes-on",)},
}
