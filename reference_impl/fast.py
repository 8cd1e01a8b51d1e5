"""The coloured-wall game on flat tables: the reference engine's fast path for whole games of random play.

`Game` is the engine written as the rules read; `FastGame` plays the same games in about 70% of the time, or
45% compiled with mypyc (setup.py), for `azul simulate` and long random campaigns. It keeps each board as a few
small integers and lists, so a move is one function with no calls into board methods, and it lists legal takes
from ready-made tuples, one per source, colour and set of open lines:

    the same deals      deal(rng) draws the same tiles from the same generator as Game.deal(rng=rng)
    the same moves      legal_moves() lists the same shared Take objects in the same order as Game.legal_moves()
    the same game       to_game() gives the Game this one stands for; from_game() starts from any Game

tests/test_engine_fast_game.py holds the two equal at every step of seeded games (2-4 players), and of games
continued at random from the scenarios' positions: the same legal moves, and the same Game, field by field.

It plays the coloured wall only (the grey wall's placements are choices: Game plays them). A move Game refuses,
FastGame refuses too, with Game's message and rule (it asks Game). The rules it applies are those of the Game and
Board methods named beside each step, which stay the readable statement of them.
"""

from __future__ import annotations

import random
from typing import Final

from .board import EMPTY
from .errors import IllegalDeal, InvalidSetup
from .game import DEAL, IN_CENTRE, OFFER, OVER, Game, _one_by_one  # the bag's tiles, numbered as Game draws them
from .moves import TAKES_TO, Move, Take, parse_move
from .tiles import FACTORIES_BY_PLAYERS, FLOOR_PENALTIES, FLOOR_SPACES, MARKER, TILES_PER_COLOUR, TILES_PER_FACTORY

# A seat's open lines: per colour a bit set, bit `line` (1-5) set when that pattern line accepts the colour
# (Board.open_lines shifted left by one) and bit 0, the floor line, always set. ACCEPTS[bits][line] reads it.
FLOOR_OPEN: Final = 1
ALL_OPEN: Final = 0b111111
ACCEPTS: Final = [tuple(bool(bits >> line & 1) for line in range(6)) for bits in range(64)]
SHUT: Final = [ALL_OPEN & ~(1 << line) for line in range(6)]  # SHUT[line]: the bit set without `line`
OTHER_COLOURS: Final = [tuple(other for other in range(5) if other != colour) for colour in range(5)]
COLOURS_IN: Final = [tuple(colour for colour in range(5) if mask >> colour & 1) for mask in range(32)]
LACKING: Final = [tuple(colour for colour in range(5) if not mask >> colour & 1) for mask in range(32)]

# A source's key: its number (Take.source, the centre 0) times 32 plus the bit set of the colours it holds.
# BY_KEY[key]: for each colour held, in colour order, that source's takes of the colour by a seat's open-line
# bits (moves.TAKES_TO, in Game's order), and the colour. REST[key][colour]: the bit set of the source's other
# colours.
HELD: Final = [1 << colour for colour in range(5)]
NOT_HELD: Final = [~(1 << colour) for colour in range(5)]
BY_KEY: Final = [tuple((tuple(TAKES_TO[key >> 5][colour][bits >> 1] for bits in range(64)), colour)
                       for colour in COLOURS_IN[key & 31]) for key in range(320)]
REST: Final = [[key & 31 & ~(1 << colour) for colour in range(5)] for key in range(320)]

# A factory: its tiles counted by colour, then its key. FOUR[source][code]: factory `source` after the draws a, b,
# c, d (code ((a * 5 + b) * 5 + c) * 5 + d). DRAWS[n]: the four draws from a bag of n tiles, each as (tiles in
# the bag, the bits random.Random._randbelow asks for).
def _factory(source: int, tiles: list[int]) -> tuple[int, ...]:
    counts = [tiles.count(colour) for colour in range(5)]
    return (*counts, source * 32 + sum(1 << colour for colour in range(5) if counts[colour]))


FOUR: Final = [[_factory(source, [code // 125, code // 25 % 5, code // 5 % 5, code % 5]) for code in range(625)]
               for source in range(10)]
DRAWS: Final = [tuple((size - k, (size - k).bit_length()) for k in range(4))
                 for size in range(5 * TILES_PER_COLOUR + 1)]
NONE: Final = (0, 0, 0, 0, 0, 0)  # an empty factory: no tile, key 0
NO_TILES: Final = (0, 0, 0, 0, 0)  # an empty lid


# RUN[cells][position]: the length of the run of filled cells through `position` of a wall row or column (a bit
# set of cells), 0 for a lone tile: SCORE-1, SCORE-2 count only runs of two or more.
def _run(cells: int, position: int) -> int:
    low = high = position
    while low > 0 and cells >> low - 1 & 1:
        low -= 1
    while high < 4 and cells >> high + 1 & 1:
        high += 1
    return high - low + 1 if high > low else 0


RUN: Final = [[_run(cells, position) for position in range(5)] for cells in range(32)]
PENALTY: Final = [sum(FLOOR_PENALTIES[:spaces]) for spaces in range(FLOOR_SPACES + 1)]  # FLOOR-3, FLOOR-4
ON_FLOOR: Final = [[(colour,) * count for count in range(FLOOR_SPACES + 1)] for colour in range(5)]


class FastGame:
    """One game of Azul on the coloured wall, 2-4 players, seat 0 starting unless told otherwise."""

    __slots__ = ("players", "round", "phase", "turn", "start_player", "marker", "factories", "centre", "sources",
                 "held", "bag", "lid", "on_offer", "winners", "score", "line_colour", "line_count", "row_colours",
                 "row_cells", "column_cells", "floors", "open", "after")

    def __init__(self, players: int = 2, start_player: int = 0) -> None:
        if players not in FACTORIES_BY_PLAYERS or not 0 <= start_player < players:
            Game(players, "colour", start_player)  # raises InvalidSetup naming the rule
            raise InvalidSetup(f"no game of {players!r} players from seat {start_player!r}")
        self.players = players
        self.round = 1
        self.phase = DEAL
        self.turn = self.start_player = start_player
        self.after = tuple((seat + 1) % players for seat in range(players))  # OFFER-1: clockwise
        self.marker = IN_CENTRE
        # By Take.source: the centre (a list of counts by colour), then factories 1-9 (tuples, see FOUR; those
        # beyond this game's factories stay empty, so a take from them is refused like any take of no tile).
        self.factories = FACTORIES_BY_PLAYERS[players]
        self.centre = [0] * 5
        self.sources: list[tuple[int, ...]] = [NONE] * 10  # [0], the centre's place, is never read
        self.held = [0]  # the keys of the factories that hold tiles, in order, then the centre's (0 when empty)
        self.bag = [TILES_PER_COLOUR] * 5
        self.lid = [0] * 5
        self.on_offer = 0
        self.winners: list[int] | None = None
        self.score = [0] * players
        self.line_colour = [[EMPTY] * 5 for _ in range(players)]
        self.line_count = [[0] * 5 for _ in range(players)]
        self.row_colours = [[0] * 5 for _ in range(players)]  # bit colour: on that wall row
        self.row_cells = [[0] * 5 for _ in range(players)]  # bit column: that cell of the row filled
        self.column_cells = [[0] * 5 for _ in range(players)]  # bit row: that cell of the column filled
        self.floors: list[list[int]] = [[] for _ in range(players)]
        self.open = [[ALL_OPEN] * 5 for _ in range(players)]

    def copy(self) -> "FastGame":
        """An independent copy, to play on (a search's rollouts) while this one stays as it is."""
        other = FastGame.__new__(FastGame)
        for name in ("players", "round", "phase", "turn", "start_player", "marker", "factories", "on_offer",
                     "after"):
            setattr(other, name, getattr(self, name))
        other.centre, other.sources, other.held = self.centre[:], self.sources[:], self.held[:]
        other.bag, other.lid, other.score = self.bag[:], self.lid[:], self.score[:]
        other.winners = None if self.winners is None else self.winners[:]
        for name in ("line_colour", "line_count", "row_colours", "row_cells", "column_cells", "floors", "open"):
            setattr(other, name, [per_seat[:] for per_seat in getattr(self, name)])
        return other

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return self.score[:]

    # -- the deal (Game._draw: DEAL-1..3) ----------------------------------------------------------------------

    def deal(self, rng: random.Random) -> None:
        """Fill the factories from the bag with `rng`: the tiles Game.deal(rng=rng) draws."""
        if self.phase != DEAL:
            raise IllegalDeal(f"no deal is due in phase {self.phase!r}", rule="DEAL-1")
        getrandbits, sources, held, bag, lid = rng.getrandbits, self.sources, self.held, self.bag, self.lid
        self.on_offer = min(4 * self.factories, sum(bag) + sum(lid))  # DEAL-1, DEAL-3
        tiles = _one_by_one(bag)
        del held[:-1]  # the centre's key stays last: 0, no tile is left on offer
        for source in range(1, self.factories + 1):
            if not tiles:  # DEAL-2: the lid is poured into the bag
                tiles = _one_by_one(lid)
                lid[:] = NO_TILES
            if len(tiles) < 4:  # the bag runs out inside this factory, or no tile is left: Game draws the rest
                self._deal_by_game(source, tiles, rng)
                break
            pop, code = tiles.pop, 0
            for in_bag, bits in DRAWS[len(tiles)]:  # random.Random.randrange(in_bag), spelt out as Game._draw does
                pick = getrandbits(bits)
                while pick >= in_bag:
                    pick = getrandbits(bits)
                code = code * 5 + pop(pick)
            sources[source] = factory = FOUR[source][code]
            held.insert(-1, factory[5])
        else:
            bag[:] = map(tiles.count, range(5))
        self.phase = OFFER
        self.turn = self.start_player  # OFFER-1

    def deal_given(self, wanted: list[list[int]]) -> None:
        """Fill the factories with the tiles given, counted by colour, factory 1 first (a recorded deal): what
        Game.deal(factories) accepts, it accepts, and what Game refuses, it refuses the same way. The deal that
        takes the bag's tiles alone (every round but the one where the bag runs out) is checked here; any
        other is left to Game's own check (Game._deal_given: DEAL-1..3)."""
        factories = self.factories
        bag = self.bag
        if self.phase == DEAL and len(wanted) == factories and sum(bag) >= 4 * factories:
            dealt = [0] * 5
            for tiles in wanted:
                if len(tiles) != 5 or sum(tiles) != 4:
                    break
                for colour in range(5):
                    dealt[colour] += tiles[colour]
            else:
                if all(dealt[colour] <= bag[colour] for colour in range(5)):
                    for colour in range(5):
                        bag[colour] -= dealt[colour]
                    self._set_factories(wanted)
                    return
        elif self.phase == DEAL and len(wanted) == factories and self._bag_runs_out(wanted):
            return
        stand_in = Game(self.players, "colour")  # the readable check, and its message and rule on a refusal
        stand_in.phase = self.phase
        stand_in.bag, stand_in.lid = bag[:], self.lid[:]
        stand_in.deal([stand_in._text(tiles) for tiles in wanted])
        self.bag[:], self.lid[:] = stand_in.bag, stand_in.lid
        self._set_factories(stand_in.factories)

    def _bag_runs_out(self, wanted: list[list[int]]) -> bool:
        """The deal of every round where the bag runs out (DEAL-2) with the lid holding enough for a full deal,
        checked as Game._check_bag_runs_out checks it: the bag's n tiles are the first n dealt (factories in
        order), the rest comes from the lid poured into the bag. Done (True) when it holds; False leaves the deal
        untouched, for Game to check and refuse with its message."""
        bag, lid, factories = self.bag, self.lid, self.factories
        in_bag = sum(bag)
        if not in_bag < TILES_PER_FACTORY * factories <= in_bag + sum(lid):
            return False
        for tiles in wanted:
            if len(tiles) != 5 or sum(tiles) != TILES_PER_FACTORY:
                return False
        full = in_bag // TILES_PER_FACTORY
        left = bag[:]  # the bag's tiles not drawn by the first `full` factories: all in factory full + 1
        for tiles in wanted[:full]:
            for colour in range(5):
                left[colour] -= tiles[colour]
        split = wanted[full]
        from_lid = [split[colour] - left[colour] for colour in range(5)]
        if min(left) < 0 or min(from_lid) < 0:
            return False
        for tiles in wanted[full + 1:]:
            for colour in range(5):
                from_lid[colour] += tiles[colour]
        if any(from_lid[colour] > lid[colour] for colour in range(5)):
            return False
        for colour in range(5):  # the bag emptied, the lid poured in, the lid's share dealt
            bag[colour] = lid[colour] - from_lid[colour]
            lid[colour] = 0
        self._set_factories(wanted)
        return True

    def _set_factories(self, wanted: list[list[int]]) -> None:
        held = self.held
        del held[:-1]  # the centre's key stays last
        on_offer = 0
        for source, tiles in enumerate(wanted, 1):
            colours = 0
            for colour in range(5):
                if tiles[colour]:
                    colours |= HELD[colour]
            self.sources[source] = (*tiles, source * 32 + colours)
            if colours:
                held.insert(-1, source * 32 + colours)
            on_offer += sum(tiles)
        self.on_offer = on_offer
        self.phase = OFFER
        self.turn = self.start_player  # OFFER-1

    def _deal_by_game(self, first: int, tiles: bytearray, rng: random.Random) -> None:
        """Factories from `first` on, by Game's own draw: the deal in which the bag runs out (the lid poured in,
        DEAL-2, and the deal stopped when both are empty, DEAL-3): seldom, so the readable draw serves."""
        stand_in = Game(self.players, "colour")
        stand_in.bag = [tiles.count(colour) for colour in range(5)]  # the bag's tiles, in Game's numbering
        stand_in.lid = self.lid  # poured in place
        stand_in.factories = stand_in.factories[first - 1:]
        stand_in._draw(rng)
        for source, factory in enumerate(stand_in.factories, first):
            colours = sum(HELD[colour] for colour in range(5) if factory[colour])
            self.sources[source] = (*factory, source * 32 + colours)
            if colours:
                self.held.insert(-1, source * 32 + colours)
        self.bag[:] = stand_in.bag

    # -- the factory offer (Game._legal_takes, Game._take) -------------------------------------------------------

    def legal_moves(self) -> list[Take]:
        """Every legal take, as Game.legal_moves lists them; none outside the offer."""
        if self.phase != OFFER:
            return []
        open_lines = self.open[self.turn]
        moves: list[Take] = []
        for key in self.held:
            for takes, colour in BY_KEY[key]:
                moves += takes[open_lines[colour]]
        return moves

    def play(self, move: Move | str) -> None:
        """Play a take for the seat whose turn it is (OFFER-2..14); a take Game refuses is refused the same way."""
        if type(move) is not Take:
            self._play_other(move)
            return
        source, colour, line = move.source, move.colour, move.line
        seat = self.turn
        open_lines = self.open[seat]
        held = self.held
        floor = self.floors[seat]
        if source:  # OFFER-3: the rest of the factory goes to the centre
            tiles = self.sources[source]
            count = tiles[colour]
            if not count or self.phase is not OFFER or not ACCEPTS[open_lines[colour]][line]:
                self._refuse(move)
            centre = self.centre
            key = tiles[5]
            rest = REST[key][colour]
            for other in COLOURS_IN[rest]:
                centre[other] += tiles[other]
            held.remove(key)
            held[-1] |= rest
            self.sources[source] = NONE
        else:
            centre = self.centre
            count = centre[colour]
            if not count or self.phase is not OFFER or not ACCEPTS[open_lines[colour]][line]:
                self._refuse(move)
            centre[colour] = 0
            held[-1] &= NOT_HELD[colour]  # the centre's number is 0: its key is 0 once it is empty
            if self.marker == IN_CENTRE:  # OFFER-5, FLOOR-5: the marker first, onto a free floor space
                self.marker = seat
                if len(floor) < FLOOR_SPACES:
                    floor.append(MARKER)
        extra = count
        if line:  # OFFER-7, OFFER-10: fill the pattern line, the rest to the floor
            row = line - 1
            counts = self.line_count[seat]
            filled = counts[row]
            shut = SHUT[line]
            if not filled:  # the line now holds this colour alone (OFFER-8)
                self.line_colour[seat][row] = colour
                for other in OTHER_COLOURS[colour]:
                    open_lines[other] &= shut
            room = line - filled
            if count < room:
                counts[row] = filled + count
                extra = 0
            else:  # full (OFFER-12)
                counts[row] = line
                open_lines[colour] &= shut
                extra = count - room
        if extra:  # OFFER-11, FLOOR-1, FLOOR-2
            room = FLOOR_SPACES - len(floor)
            if extra > room:
                self.lid[colour] += extra - room
                extra = room
            floor += ON_FLOOR[colour][extra]
        self.on_offer -= count
        if self.on_offer:
            self.turn = self.after[seat]
        else:  # OFFER-14
            self._tile_walls()

    def _play_other(self, move: Move | str) -> None:
        """A move given as text, or anything else: what Game makes of it."""
        if isinstance(move, str):
            move = parse_move(move)
            if type(move) is Take:
                self.play(move)
                return
        self._refuse(move)

    def _refuse(self, move: Move | str) -> None:
        """Raise what Game raises for `move` here (IllegalMove with its rule); FastGame lists and plays only takes
        that Game accepts, so Game refuses every move that reaches this."""
        self.to_game().play(move)
        raise AssertionError(f"FastGame refused {move}, which Game accepts")

    # -- wall tiling, next round, end (Board.tile_coloured_wall, Board.clear_floor, Game._end_round) -------------

    def _tile_walls(self) -> None:
        lid = self.lid
        for seat in range(self.players):
            colours, counts = self.line_colour[seat], self.line_count[seat]
            row_colours, row_cells, column_cells = self.row_colours[seat], self.row_cells[seat], self.column_cells[seat]
            score, open_lines = self.score[seat], self.open[seat]
            for row in range(5):
                if counts[row] == row + 1:  # WALL-1, TILING-1, TILING-2
                    colour = colours[row]
                    column = (colour + row) % 5  # tiles.wall_column
                    row_cells[row] |= 1 << column
                    column_cells[column] |= 1 << row
                    row_colours[row] |= 1 << colour
                    score += RUN[row_cells[row]][column] + RUN[column_cells[column]][row] or 1  # SCORE-1..3
                    lid[colour] += row
                    colours[row], counts[row] = EMPTY, 0
                    opened = 2 << row
                    for other in LACKING[row_colours[row]]:  # OFFER-9: open to the colours the row lacks
                        open_lines[other] |= opened
            floor = self.floors[seat]
            score -= PENALTY[len(floor)]  # SCORE-4, FLOOR-3..6
            self.score[seat] = score if score > 0 else 0
            for tile in floor:
                if tile != MARKER:
                    lid[tile] += 1
            floor.clear()
        if any(31 in cells for cells in self.row_cells) or not any(self.bag) and not any(self.lid):  # END-1, END-8
            self._end_game()
            return
        self.round += 1  # ROUND-1..3
        if self.marker != IN_CENTRE:
            self.start_player = self.marker
        self.marker = IN_CENTRE
        self.phase = DEAL
        self.turn = self.start_player

    def _end_game(self) -> None:
        ranks = []
        for seat in range(self.players):  # END-2..4
            rows, columns = self.row_cells[seat].count(31), self.column_cells[seat].count(31)
            on_every_row = 31
            for colours in self.row_colours[seat]:
                on_every_row &= colours
            self.score[seat] += 2 * rows + 7 * columns + 10 * on_every_row.bit_count()
            ranks.append((self.score[seat], rows))
        best = max(ranks)  # END-5..7
        self.winners = [seat for seat, rank in enumerate(ranks) if rank == best]
        self.phase = OVER

    # -- to and from Game ---------------------------------------------------------------------------------------

    def to_game(self) -> Game:
        """The Game this one stands for, every field equal (to_state of it is this game's state document)."""
        game = Game(self.players, "colour", self.start_player)
        game.round, game.phase, game.turn, game.marker = self.round, self.phase, self.turn, self.marker
        game.factories = [list(tiles[:5]) for tiles in self.sources[1:self.factories + 1]]
        game.centre = self.centre[:]
        game.bag, game.lid, game.on_offer = self.bag[:], self.lid[:], self.on_offer
        game.winners = None if self.winners is None else self.winners[:]
        for seat, board in enumerate(game.boards):
            board.score = self.score[seat]
            board.line_colour = self.line_colour[seat][:]
            board.line_count = self.line_count[seat][:]
            board.row_colours = self.row_colours[seat][:]
            board.wall = [[(column - row) % 5 if cells >> column & 1 else EMPTY for column in range(5)]  # WALL-1
                          for row, cells in enumerate(self.row_cells[seat])]
            board.column_colours = [sum(1 << (column - row) % 5 for row in range(5) if cells >> row & 1)
                                    for column, cells in enumerate(self.column_cells[seat])]
            board.floor = list(self.floors[seat])
            board.open_lines = [bits >> 1 for bits in self.open[seat]]
        return game

    @classmethod
    def from_game(cls, game: Game) -> "FastGame":
        """The same position, to play on here: a coloured-wall game in any phase."""
        if game.variant != "colour":
            raise InvalidSetup("FastGame plays the coloured wall only; Game plays the grey wall", rule="SETUP-1")
        fast = cls(game.players, game.start_player)
        fast.round, fast.phase, fast.turn, fast.marker = game.round, game.phase, game.turn, game.marker
        fast.centre[:] = game.centre
        fast.held = []
        for number, tiles in enumerate(game.factories, 1):
            colours = sum(HELD[colour] for colour in range(5) if tiles[colour])
            fast.sources[number] = (*tiles, number * 32 + colours)
            if colours:
                fast.held.append(number * 32 + colours)
        fast.held.append(sum(HELD[colour] for colour in range(5) if game.centre[colour]))
        fast.bag, fast.lid, fast.on_offer = game.bag[:], game.lid[:], game.on_offer
        fast.winners = None if game.winners is None else game.winners[:]
        for seat, board in enumerate(game.boards):
            fast.score[seat] = board.score
            fast.line_colour[seat] = board.line_colour[:]
            fast.line_count[seat] = board.line_count[:]
            fast.row_colours[seat] = board.row_colours[:]
            fast.row_cells[seat] = [sum(1 << column for column in range(5) if board.wall[row][column] != EMPTY)
                                    for row in range(5)]
            fast.column_cells[seat] = [sum(1 << row for row in range(5) if board.wall[row][column] != EMPTY)
                                       for column in range(5)]
            fast.floors[seat] = board.floor[:]
            fast.open[seat] = [sum(2 << line for line in range(5) if board.accepts(line, colour)) | FLOOR_OPEN
                               for colour in range(5)]
        return fast

    def __repr__(self) -> str:
        return (f"<FastGame {self.players} players, round {self.round}, {self.phase}, seat {self.turn} to act, "
                f"scores {self.score}>")

