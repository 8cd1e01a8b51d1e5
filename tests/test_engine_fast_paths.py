"""The engine's speed-ups held equal to the readable rule functions they stand in for.

`Board.open_lines` caches, per colour, which pattern lines accept it (`Board.reopen` updates it by table lookups);
`Game._legal_takes` and `Game._take` read it instead of calling `Board.accepts` line by line. `Game.play` takes a
Take object during the offer by a shortcut: it must leave the game as the same move given as text does.
`Board.complete_rows`, `complete_columns` and `complete_colours` count from the rows' and columns' colour sets
instead of scanning the cells. Over random games
(2-4 players, both walls), at every position, each cached or shortened answer must equal the one the plain
rule gives, and a game rebuilt from its state must rebuild the cache the same. `Game._draw` spells
rng.randrange out (popping tiles from a bytearray), and must draw what the plain draw does; `Board.placement_points`
must score what the runs counted cell by cell score; the state document's lookups (the coloured wall's
allowed rows, wall row texts) must say what the cells read one by one say.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_reference import DEAL, OFFER, Game, IllegalMove, from_state, to_state
from azul_reference.board import EMPTY
from azul_reference.moves import CENTRE, FLOOR, Take

SEEDS = st.integers(0, 2**32 - 1)


def takes_by_the_rules(game: Game) -> set[Take]:
    """OFFER-2..12 read plainly: every colour held by a source, to each line Board.accepts, or to the floor."""
    board = game.boards[game.turn]
    sources = [(number, tiles) for number, tiles in enumerate(game.factories, 1)] + [(CENTRE, game.centre)]
    return {Take(source, colour, line)
            for source, tiles in sources for colour in range(5) if tiles[colour]
            for line in [FLOOR] + [n for n in range(1, 6) if board.accepts(n - 1, colour)]}


def check_position(game: Game) -> None:
    for seat, board in enumerate(game.boards):
        for colour in range(5):
            for line in range(5):
                cached = bool(board.open_lines[colour] >> line & 1)
                assert cached == board.accepts(line, colour), (seat, line, colour)
        assert board.complete_rows() == sum(1 for row in board.wall if EMPTY not in row)
        assert board.complete_columns() == sum(1 for col in range(5) if all(row[col] != EMPTY for row in board.wall))
        assert board.complete_colours() == sum(1 for colour in range(5) if all(colour in row for row in board.wall))
    rebuilt = from_state(to_state(game))
    assert [b.open_lines for b in rebuilt.boards] == [b.open_lines for b in game.boards]
    if game.phase == OFFER:
        listed = game.legal_moves()
        assert len(listed) == len(set(listed))
        assert set(listed) == takes_by_the_rules(game)


def play_checked(players: int, variant: str, seed: int) -> None:
    game = Game(players, variant)
    deals, picks = random.Random(seed), random.Random(~seed)
    check_position(game)
    while not game.is_over():
        if game.phase == DEAL:
            game.deal(rng=deals)
        else:
            legal = game.legal_moves()
            move = legal[picks.randrange(len(legal))]
            as_text = game.copy()
            as_text.play(str(move))  # the general path: parsed, then checked by isinstance
            game.play(move)
            assert to_state(game) == to_state(as_text)
        check_position(game)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["colour", "grey"])
def test_fast_paths_agree_with_the_rule_functions_over_seeded_games(players, variant):
    for seed in range(3):
        play_checked(players, variant, seed)


@given(players=st.sampled_from([2, 3, 4]), variant=st.sampled_from(["colour", "grey"]), seed=SEEDS)
@settings(max_examples=15, deadline=None)
def test_fast_paths_agree_with_the_rule_functions_over_random_games(players, variant, seed):
    play_checked(players, variant, seed)


def test_a_refused_line_still_names_its_rule():
    """The cache only decides; the refusal is explained by the rule that applies (here OFFER-8: line 1 holds
    blue, so red cannot go there)."""
    game = Game(2)
    game.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    game.play("1B1")  # seat 0: line 1 full with one blue, three to the floor
    game.play("2Y2")  # seat 1
    with pytest.raises(IllegalMove) as refused:
        game.play("3R1")
    assert refused.value.rule == "OFFER-8"


# -- the deal: Game._draw against the draw read plainly ----------------------------------------------------------

def draw_by_the_rules(game: Game, rng: random.Random) -> None:
    """DEAL-1..3 read plainly: factory by factory, four tiles each, every tile one of the bag's tiles picked with
    rng.randrange (the bag's tiles in colour order); an empty bag gets the lid's tiles; no tile left, stop."""
    for factory in game.factories:
        for _ in range(4):
            if not sum(game.bag):
                game.bag, game.lid = [b + l for b, l in zip(game.bag, game.lid)], [0] * 5
                if not sum(game.bag):
                    return
            tiles = [colour for colour in range(5) for _ in range(game.bag[colour])]
            colour = tiles[rng.randrange(len(tiles))]
            game.bag[colour] -= 1
            factory[colour] += 1


@given(players=st.sampled_from([2, 3, 4]), seed=SEEDS,
       bag=st.lists(st.integers(0, 20), min_size=5, max_size=5), lid=st.lists(st.integers(0, 20), min_size=5,
                                                                             max_size=5))
@settings(max_examples=200, deadline=None)
def test_the_draw_takes_the_tiles_randrange_picks(players, seed, bag, lid):
    """Game._draw spells rng.randrange out (getrandbits with rejection): the same tiles, in the same factories,
    leaving bag, lid and the generator as the plain draw does, whatever is in bag and lid."""
    fast, plain = Game(players), Game(players)
    for game in (fast, plain):
        game.bag, game.lid = bag[:], lid[:]
    fast_rng, plain_rng = random.Random(seed), random.Random(seed)
    fast._draw(fast_rng)
    draw_by_the_rules(plain, plain_rng)
    assert (fast.factories, fast.bag, fast.lid) == (plain.factories, plain.bag, plain.lid)
    assert fast_rng.getstate() == plain_rng.getstate()


# -- scoring: placement_points against the runs counted cell by cell ----------------------------------------------

def points_by_the_rules(wall: list[list[int]], row: int, column: int) -> int:
    """SCORE-1, SCORE-2 read plainly: walk from the tile in each of the four directions while cells are filled."""
    def run(dr: int, dc: int) -> int:
        r, c, n = row + dr, column + dc, 0
        while 0 <= r < 5 and 0 <= c < 5 and wall[r][c] != EMPTY:
            r, c, n = r + dr, c + dc, n + 1
        return n
    across, down = 1 + run(0, -1) + run(0, 1), 1 + run(-1, 0) + run(1, 0)
    if across == down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


@given(filled=st.lists(st.booleans(), min_size=25, max_size=25), row=st.integers(0, 4), column=st.integers(0, 4))
@settings(max_examples=300, deadline=None)
def test_placement_points_are_the_runs_counted_cell_by_cell(filled, row, column):
    from azul_reference.board import Board

    board = Board()
    board.wall = [[(r + c) % 5 if filled[5 * r + c] else EMPTY for c in range(5)] for r in range(5)]
    board.wall[row][column] = (row + column) % 5  # the tile just placed
    assert board.placement_points(row, column) == points_by_the_rules(board.wall, row, column)


# -- state documents: the lookups against the cells read one by one ----------------------------------------------

def test_the_coloured_rows_allowed_are_those_whose_every_tile_is_printed_there():
    """state.COLOURED_ROWS against WALL-1 read cell by cell, for every row of letters and dots."""
    from itertools import product

    from azul_reference.state import COLOURED_ROWS
    from azul_reference.tiles import COLOURS, wall_colour

    for r in range(5):
        for cells in product("." + COLOURS, repeat=5):
            row = "".join(cells)
            plain = all(letter == "." or letter == COLOURS[wall_colour(r, c)] for c, letter in enumerate(row))
            assert (row in COLOURED_ROWS[r]) == plain, (r, row)


@given(rows=st.lists(st.lists(st.integers(-1, 4), min_size=5, max_size=5), min_size=5, max_size=5))
@settings(max_examples=100, deadline=None)
def test_wall_row_texts_are_the_cells_letter_by_letter(rows):
    from azul_reference.board import Board
    from azul_reference.state import _board_to_json
    from azul_reference.tiles import COLOURS

    board = Board()
    board.wall = [row[:] for row in rows]
    assert _board_to_json(board)["wall"] == ["".join("." if cell == EMPTY else COLOURS[cell] for cell in row)
                                             for row in rows]
