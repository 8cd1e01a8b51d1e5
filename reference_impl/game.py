"""The game of Azul: set-up, the deal, the factory offer, wall tiling, the next round and the end.

A `Game` is driven by two kinds of step, so that a log of steps replays a game exactly:
    deal(...)   chance: fill the factories (phase "deal")
    play(move)  a player's decision: a take (phase "offer") or, on the grey wall, a placement (phase "tiling")
Everything that follows from a step without a choice (the tiling of the coloured wall, floor penalties, the
end-of-game bonuses) happens inside that step.
"""

from __future__ import annotations

import random
from itertools import compress
from operator import mul

from .board import EMPTY, Board
from .errors import IllegalDeal, IllegalMove, InvalidSetup, MalformedDeal
from .moves import CENTRE, FLOOR, PLACEMENTS, TAKES_FROM, Move, Placement, Take, parse_move
from .tiles import (
    COLOURS, FACTORIES_BY_PLAYERS, TILES_PER_COLOUR, TILES_PER_FACTORY, text_to_counts,
)

DEAL, OFFER, TILING, OVER = "deal", "offer", "tiling", "over"
VARIANTS = ("colour", "grey")
IN_CENTRE = -1  # Game.marker while the marker lies in the centre (and during the deal)
COLOUR_RANGE = range(5)
NO_TILES = (0, 0, 0, 0, 0)
TILE_BYTES = tuple(bytes([colour]) for colour in range(5))  # a tile of each colour as one byte


def _one_by_one(counts: list[int]) -> bytearray:
    """Tiles counted by colour, laid out one by one, colour after colour (B Y R K W): the order in which the draw
    numbers the bag's tiles. One byte a tile, as a bytearray gives a tile up more cheaply than a list."""
    return bytearray(b"".join(map(mul, TILE_BYTES, counts)))


class Game:
    """One game of Azul. Seats are 0..players-1 and play in that order (clockwise, OFFER-1)."""

    __slots__ = ("players", "variant", "round", "phase", "turn", "start_player", "marker",
                 "factories", "centre", "bag", "lid", "boards", "winners", "on_offer")

    def __init__(self, players: int = 2, variant: str = "colour", start_player: int = 0) -> None:
        if not isinstance(players, int) or players not in FACTORIES_BY_PLAYERS:
            raise InvalidSetup(f"players must be 2, 3 or 4, not {players!r}", rule="SETUP-6")
        if variant not in VARIANTS:
            raise InvalidSetup(f"variant must be 'colour' or 'grey', not {variant!r}", rule="SETUP-1")
        if not (isinstance(start_player, int) and 0 <= start_player < players):
            raise InvalidSetup(f"start_player must be a seat from 0 to {players - 1}, not {start_player!r}",
                               rule="SETUP-5")
        self.players = players
        self.variant = variant  # SETUP-1: every board shows the same side
        self.round = 1
        self.phase = DEAL
        self.turn = start_player
        self.start_player = start_player  # SETUP-5
        self.marker = IN_CENTRE
        self.factories = [[0] * 5 for _ in range(FACTORIES_BY_PLAYERS[players])]  # SETUP-3; counts by colour
        self.centre = [0] * 5
        self.bag = [TILES_PER_COLOUR] * 5  # SETUP-4: all 100 tiles start in the bag
        self.lid = [0] * 5
        self.boards = [Board() for _ in range(players)]  # SETUP-2: scores start at 0
        self.winners: list[int] | None = None
        self.on_offer = 0  # tiles left in the factories and the centre

    def copy(self) -> "Game":
        other = Game.__new__(Game)
        for name in ("players", "variant", "round", "phase", "turn", "start_player", "marker", "on_offer"):
            setattr(other, name, getattr(self, name))
        other.factories = [f[:] for f in self.factories]
        other.centre = self.centre[:]
        other.bag = self.bag[:]
        other.lid = self.lid[:]
        other.boards = [b.copy() for b in self.boards]
        other.winners = None if self.winners is None else self.winners[:]
        return other

    @property
    def grey(self) -> bool:
        return self.variant == "grey"

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return [board.score for board in self.boards]

    # -- the deal (chance) ---------------------------------------------------------------------------------

    def deal(self, factories: list[str] | None = None, rng: random.Random | None = None) -> None:
        """Fill the factories: with the given contents (checked drawable), or by drawing from the bag with `rng`."""
        # A malformed deal is refused as such (bad_request) before asking whether the rules allow it here.
        wanted = None if factories is None else [self._parse_factory(i, text)
                                                 for i, text in enumerate(self._factory_texts(factories))]
        if self.phase != DEAL:
            raise IllegalDeal(f"no deal is due in phase {self.phase!r}", rule="DEAL-1")
        if wanted is None:
            self._draw(rng or random.Random())
        else:
            self._deal_given(wanted)
        self.on_offer = sum(map(sum, self.factories))
        self.phase = OFFER
        self.turn = self.start_player  # OFFER-1

    def _draw(self, rng: random.Random) -> None:
        """DEAL-1..3: four random tiles per factory in turn; the lid refills an empty bag; stop when both are out."""
        bag, lid, getrandbits = self.bag, self.lid, rng.getrandbits
        tiles = _one_by_one(bag)
        for factory in self.factories:
            for _ in range(TILES_PER_FACTORY):
                if not tiles:  # DEAL-2: the lid is poured into the bag
                    tiles = _one_by_one(lid)
                    bag[:], lid[:] = lid, NO_TILES
                    if not tiles:
                        return
                # One of the bag's tiles, uniformly: rng.randrange(len(tiles)) spelt out, the same numbers (the
                # rejection sampling of random.Random._randbelow) without its checks on every tile.
                in_bag = len(tiles)
                bits = in_bag.bit_length()
                pick = getrandbits(bits)
                while pick >= in_bag:
                    pick = getrandbits(bits)
                colour = tiles.pop(pick)
                bag[colour] -= 1
                factory[colour] += 1

    def _deal_given(self, wanted: list[list[int]]) -> None:
        dealt = [sum(col) for col in zip(*wanted)]
        total = sum(dealt)
        in_bag = sum(self.bag)
        available = in_bag + sum(self.lid)
        expected = min(TILES_PER_FACTORY * len(self.factories), available)
        sizes = [sum(f) for f in wanted]
        full, rest = divmod(expected, TILES_PER_FACTORY)
        if sizes != [4] * full + ([rest] if rest else []) + [0] * (len(sizes) - full - (1 if rest else 0)):
            raise IllegalDeal(f"a deal fills the factories in order with 4 tiles each while tiles last "
                              f"({available} in bag and lid), not {sizes}",
                              rule="DEAL-3" if expected < TILES_PER_FACTORY * len(sizes) else "DEAL-1")
        if total <= in_bag:
            if any(d > b for d, b in zip(dealt, self.bag)):
                raise IllegalDeal(f"the bag holds {self._text(self.bag)!r}: it cannot give {self._text(dealt)!r}",
                                  rule="DEAL-1")
            bag = [b - d for b, d in zip(self.bag, dealt)]
            lid = self.lid[:]
        else:  # DEAL-2: the whole bag first, then the lid poured in
            self._check_bag_runs_out(wanted)
            pool = [b + l for b, l in zip(self.bag, self.lid)]
            bag = [p - d for p, d in zip(pool, dealt)]
            lid = [0] * 5
        self.bag, self.lid, self.factories = bag, lid, wanted

    def _check_bag_runs_out(self, wanted: list[list[int]]) -> None:
        """Factories fill in order, so the bag's n tiles are the first n drawn: they fill the first n // 4
        factories and n % 4 tiles of the next; everything after comes from the lid poured into the bag."""
        full = sum(self.bag) // TILES_PER_FACTORY
        from_bag = [sum(col) for col in zip(*wanted[:full])] if full else [0] * 5
        left = [b - d for b, d in zip(self.bag, from_bag)]  # the bag's tiles still to draw: part of them
        split = wanted[full]
        later = [sum(col) for col in zip(*wanted[full + 1:])] if full + 1 < len(wanted) else [0] * 5
        split_from_lid = [s - x for s, x in zip(split, left)]
        from_lid = [s + l for s, l in zip(split_from_lid, later)]
        if min(left) < 0 or min(split_from_lid) < 0 or any(n > l for n, l in zip(from_lid, self.lid)):
            raise IllegalDeal(f"with bag {self._text(self.bag)!r} and lid {self._text(self.lid)!r}, the first "
                              f"{sum(self.bag)} tiles dealt (factories in order) must be the whole bag and the "
                              f"rest must come from the lid", rule="DEAL-2")

    def _factory_texts(self, factories: list[str]) -> list[str]:
        counts = FACTORIES_BY_PLAYERS.values()
        if not isinstance(factories, (list, tuple)) or not min(counts) <= len(factories) <= max(counts):
            raise MalformedDeal(f"a deal is a list of {min(counts)} to {max(counts)} factories, got {factories!r}",
                                rule="SETUP-3")
        if len(factories) != len(self.factories):
            raise IllegalDeal(f"a deal names all {len(self.factories)} factories (empty ones as \"\"), "
                              f"got {len(factories)}", rule="SETUP-3")
        return list(factories)

    @staticmethod
    def _parse_factory(index: int, text: str) -> list[int]:
        # More than 4 letters, or letters that are no colour, is no deal at all (protocol schema): bad_request.
        if not isinstance(text, str) or any(ch not in COLOURS for ch in text) or len(text) > TILES_PER_FACTORY:
            raise MalformedDeal(f"factory {index + 1}: {text!r} is not up to 4 tiles of B Y R K W", rule="DEAL-1")
        return text_to_counts(text)

    @staticmethod
    def _text(counts: list[int]) -> str:
        return "".join(letter * n for letter, n in zip(COLOURS, counts))

    # -- moves -------------------------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: takes in the offer phase, placements while a grey-wall choice is pending (GREY-5: the
        topmost complete line first; GREY-1, GREY-2: its free columns)."""
        if self.phase == OFFER:
            return self._legal_takes()
        if self.phase == TILING:
            board = self.boards[self.turn]
            line = self._pending_line()
            return [PLACEMENTS[line + 1][col + 1] for col in board.free_columns(line)]
        return []

    def _legal_takes(self) -> list[Take]:
        """OFFER-2, OFFER-4, OFFER-11: all tiles of one colour from one factory or the centre, to a pattern line
        that accepts them (Board.accepts: OFFER-8, OFFER-9, OFFER-12, read from the board's open_lines) or to
        the floor line."""
        # Per colour, the bit set of the pattern lines open to it; written colour by colour, as this runs at
        # every turn (tests/test_engine_fast_paths.py holds the list to the rules read plainly).
        blue, yellow, red, black, white = self.boards[self.turn].open_lines
        moves: list[Take] = []
        for takes, (b, y, r, k, w) in zip(TAKES_FROM[len(self.factories)], [*self.factories, self.centre]):
            if b:
                moves += takes[0][blue]
            if y:
                moves += takes[1][yellow]
            if r:
                moves += takes[2][red]
            if k:
                moves += takes[3][black]
            if w:
                moves += takes[4][white]
        return moves

    def play(self, move: Move | str) -> None:
        """Play a take or a placement for the seat whose turn it is; IllegalMove leaves the game unchanged."""
        if self.phase == OFFER and type(move) is Take:  # nearly every move, so checked first (isinstance costs more)
            self._take(move)
            return
        if isinstance(move, str):
            move = parse_move(move)
        if self.phase == OFFER and isinstance(move, Take):
            self._take(move)
        elif self.phase == TILING and isinstance(move, Placement):
            self._place(move)
        elif self.phase == TILING:
            raise IllegalMove(f"{move}: seat {self.turn} must first place the tile of pattern line "
                              f"{self._pending_line() + 1} on the wall", rule="GREY-5")
        else:
            raise IllegalMove(f"{move}: no {type(move).__name__.lower()} can be played in phase {self.phase!r}",
                              rule="OFFER-15")

    def _take(self, move: Take) -> None:
        source, colour, line = move.source, move.colour, move.line
        if source > len(self.factories):
            raise IllegalMove(f"{move}: there is no factory {source} with {self.players} players", rule="SETUP-3")
        tiles = self.centre if source == CENTRE else self.factories[source - 1]
        count = tiles[colour]
        if not count:
            where = "the centre" if source == CENTRE else f"factory {source}"
            raise IllegalMove(f"{move}: {where} holds no {COLOURS[colour]} tile", rule="OFFER-6")
        board = self.boards[self.turn]
        if line != FLOOR and not board.open_lines[colour] >> (line - 1) & 1:  # OFFER-8, OFFER-9, OFFER-12
            self._check_line(move, board, line - 1, colour)
        tiles[colour] = 0  # OFFER-2, OFFER-4: every tile of the colour
        if source == CENTRE:
            if self.marker == IN_CENTRE:  # OFFER-5: the marker goes first, before the tiles
                self.marker = self.turn
                board.take_marker()
        else:  # OFFER-3: the rest of the factory goes to the centre
            centre = self.centre
            for c in compress(COLOUR_RANGE, tiles):
                centre[c] += tiles[c]
            tiles[:] = NO_TILES
        if line == FLOOR:
            board.to_floor(colour, count, self.lid)  # OFFER-11
        else:
            board.place_on_line(line - 1, colour, count, self.lid)
        self.on_offer -= count
        if self.on_offer == 0:  # OFFER-14
            self._end_offer()
        else:
            self.turn = (self.turn + 1) % self.players  # OFFER-1: the next seat clockwise

    @staticmethod
    def _check_line(move: Take, board: Board, line: int, colour: int) -> None:
        """Raise naming the rule by which pattern `line` refuses `colour`. Called only for a line that
        Board.accepts refuses (through open_lines), so it explains a refusal and never grants a line."""
        held = board.line_colour[line]
        if held != EMPTY and held != colour:
            raise IllegalMove(f"{move}: pattern line {line + 1} holds {COLOURS[held]}, not {COLOURS[colour]}",
                              rule="OFFER-8")
        if held == EMPTY and board.row_colours[line] >> colour & 1:
            raise IllegalMove(f"{move}: wall row {line + 1} already holds {COLOURS[colour]}", rule="OFFER-9")
        if board.line_complete(line):
            raise IllegalMove(f"{move}: pattern line {line + 1} is full", rule="OFFER-12")

    # -- wall tiling -------------------------------------------------------------------------------------------

    def _end_offer(self) -> None:
        if self.grey:
            self.turn = self.start_player  # GREY-5: seat by seat from the start player
            self._continue_grey_tiling()
            return
        for board in self.boards:  # TILING-1: on the coloured wall nothing is left to choose
            board.tile_coloured_wall(self.lid)
            board.clear_floor(self.lid)
        self._end_round()

    def _pending_line(self) -> int:
        board = self.boards[self.turn]
        return next(line for line in range(5) if board.line_complete(line))

    def _place(self, move: Placement) -> None:
        board = self.boards[self.turn]
        line, column = self._pending_line(), move.column - 1
        if move.line - 1 != line:
            raise IllegalMove(f"{move}: pattern line {line + 1} is tiled first (top to bottom)", rule="GREY-5")
        if board.wall[line][column] != EMPTY:
            raise IllegalMove(f"{move}: wall row {line + 1}, column {column + 1} is taken", rule="GREY-1")
        if board.column_colours[column] >> board.line_colour[line] & 1:
            raise IllegalMove(f"{move}: wall column {column + 1} already holds "
                              f"{COLOURS[board.line_colour[line]]}", rule="GREY-2")
        board.tile_line(line, column, self.lid)
        self._continue_grey_tiling()

    def _continue_grey_tiling(self) -> None:
        """Tile seat by seat from `turn`; stop where a placement choice is pending (GREY-5)."""
        done = (self.turn - self.start_player) % self.players
        for k in range(done, self.players):
            seat = (self.start_player + k) % self.players
            board = self.boards[seat]
            for line in range(5):
                if board.line_complete(line):
                    if board.free_columns(line):
                        self.phase, self.turn = TILING, seat
                        return
                    board.line_to_floor(line, self.lid)  # GREY-3
            board.clear_floor(self.lid)
        self._end_round()

    # -- next round and end of game ----------------------------------------------------------------------------

    def _end_round(self) -> None:
        if any(board.complete_rows() for board in self.boards):  # END-1
            self._end_game()
            return
        if not any(self.bag) and not any(self.lid):  # END-8: the next deal would find no tile at all
            self._end_game()
            return
        self.round += 1  # ROUND-1: the next round is dealt while tiles remain (DEAL-3), even if no row can be won
        if self.marker != IN_CENTRE:  # ROUND-2; ROUND-3: nobody took from the centre, same start player
            self.start_player = self.marker
        self.marker = IN_CENTRE
        self.phase = DEAL
        self.turn = self.start_player

    def _end_game(self) -> None:
        for board in self.boards:  # END-2..4
            board.score += board.end_bonus()
        # END-5..7: most points, then most complete rows; a tie beyond that is shared
        ranks = [(board.score, board.complete_rows()) for board in self.boards]
        best = max(ranks)
        self.winners = [seat for seat, rank in enumerate(ranks) if rank == best]
        self.phase = OVER

    def __repr__(self) -> str:
        return (f"<Game {self.players} players, {self.variant} wall, round {self.round}, {self.phase}, "
                f"seat {self.turn} to act, scores {self.scores()}>")
