"""A player's board: score track, five pattern lines, the wall, the floor line.

Colours are ints 0-4 (B Y R K W); EMPTY marks an empty pattern line or wall cell.
"""

from __future__ import annotations

from .tiles import FLOOR_PENALTIES, FLOOR_SPACES, MARKER, WALL_SIZE, wall_column

EMPTY = -1
LAST = WALL_SIZE - 1  # the last row, the last column
ALL_LINES = 0b11111  # a bit set of the five pattern lines
ALL_COLOURS = 0b11111  # a bit set of the five colours
# WITH_LINE[line][opened]: a colour's bit set of open pattern lines -> the same set with `line` opened (True) or
# closed (False), as a tuple indexed by the set. LINE_OPEN_TO[line][colours]: for each colour, the WITH_LINE entry
# that opens `line` to it if `colours` (a bit set) holds that colour, else the one that closes it; what
# Board.reopen applies to open_lines (which lines accept a colour: OFFER-8, OFFER-9, OFFER-12). Tables, since bit
# arithmetic costs several times a lookup in CPython.
WITH_LINE = [[tuple(lines | 1 << line if opened else lines & ~(1 << line) for lines in range(32))
              for opened in (False, True)] for line in range(5)]
LINE_OPEN_TO = [[tuple(WITH_LINE[line][colours >> colour & 1] for colour in range(5)) for colours in range(32)]
                for line in range(5)]


class Board:
    __slots__ = ("score", "line_colour", "line_count", "wall", "row_colours", "column_colours", "floor",
                 "open_lines")

    def __init__(self) -> None:
        self.score = 0
        self.line_colour = [EMPTY] * 5  # pattern line i (capacity i + 1): its colour, or EMPTY
        self.line_count = [0] * 5
        self.wall = [[EMPTY] * WALL_SIZE for _ in range(WALL_SIZE)]  # wall[row][column] = colour or EMPTY
        self.row_colours = [0] * WALL_SIZE  # bit c set: colour c is on that wall row (OFFER-9)
        self.column_colours = [0] * WALL_SIZE  # bit c set: colour c is in that wall column (GREY-2)
        self.floor: list[int] = []  # left to right; MARKER for the first-player marker
        # open_lines[c]: bit l set when pattern line l accepts colour c, that is accepts(l, c). Kept up to date
        # by every change to a line or the wall, so listing legal takes needs no loop over the lines.
        self.open_lines = [ALL_LINES] * 5

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.score = self.score
        other.line_colour = self.line_colour[:]
        other.line_count = self.line_count[:]
        other.wall = [row[:] for row in self.wall]
        other.row_colours = self.row_colours[:]
        other.column_colours = self.column_colours[:]
        other.floor = self.floor[:]
        other.open_lines = self.open_lines[:]
        return other

    # -- the factory offer -------------------------------------------------------------------------------

    def accepts(self, line: int, colour: int) -> bool:
        """Whether pattern line `line` (0-4) can take tiles of `colour` (OFFER-8, OFFER-9, OFFER-12)."""
        return bool(self.colours_accepted(line) >> colour & 1)

    def colours_accepted(self, line: int) -> int:
        """The bit set of colours pattern line `line` (0-4) can take: an empty line, any colour its wall row
        lacks (OFFER-9); a line holding tiles, only their colour (OFFER-8), and only until it is full (OFFER-12)."""
        held = self.line_colour[line]
        if held == EMPTY:
            return ~self.row_colours[line] & ALL_COLOURS
        return 1 << held if self.line_count[line] <= line else 0

    def reopen(self, line: int) -> None:
        """Bring open_lines up to date after a change to pattern line `line` or to its wall row (the colours it
        accepts: OFFER-8, OFFER-9, OFFER-12)."""
        blue, yellow, red, black, white = LINE_OPEN_TO[line][self.colours_accepted(line)]
        open_lines = self.open_lines  # written colour by colour: this runs after every take
        open_lines[0] = blue[open_lines[0]]
        open_lines[1] = yellow[open_lines[1]]
        open_lines[2] = red[open_lines[2]]
        open_lines[3] = black[open_lines[3]]
        open_lines[4] = white[open_lines[4]]

    def reopen_all(self) -> None:
        """Rebuild open_lines from scratch (after a board is set up square by square): OFFER-8, OFFER-9, OFFER-12."""
        for line in range(5):
            self.reopen(line)

    def to_floor(self, tile: int, count: int, lid: list[int]) -> None:
        """Put tiles on the leftmost free floor spaces (FLOOR-1); what finds no space goes to the lid (FLOOR-2)."""
        room = FLOOR_SPACES - len(self.floor)
        placed = count if count <= room else room
        self.floor.extend([tile] * placed)
        if count > placed:
            lid[tile] += count - placed

    def take_marker(self) -> None:
        """OFFER-5, FLOOR-5: the marker takes the leftmost free space; with a full floor it takes none."""
        if len(self.floor) < FLOOR_SPACES:
            self.floor.append(MARKER)

    def place_on_line(self, line: int, colour: int, count: int, lid: list[int]) -> None:
        """OFFER-7, OFFER-10: fill the pattern line; what does not fit goes to the floor line."""
        room = line + 1 - self.line_count[line]
        fits = count if count <= room else room
        self.line_colour[line] = colour
        self.line_count[line] += fits
        self.reopen(line)
        if count > fits:
            self.to_floor(colour, count - fits, lid)

    # -- wall tiling ---------------------------------------------------------------------------------------

    def line_complete(self, line: int) -> bool:
        """Whether every space of pattern line `line` is filled: only such a line is tiled (TILING-1)."""
        return self.line_count[line] == line + 1

    def free_columns(self, line: int) -> list[int]:
        """Grey wall: the columns (0-4) where the colour of `line` may go (GREY-1, GREY-2)."""
        colour = self.line_colour[line]
        row = self.wall[line]
        return [col for col in range(WALL_SIZE)
                if row[col] == EMPTY and not self.column_colours[col] >> colour & 1]

    def tile_line(self, line: int, column: int, lid: list[int]) -> None:
        """Move one tile of a complete line to the wall and score it (TILING-1, SCORE-1..3); the rest to the lid."""
        colour = self.line_colour[line]
        self.wall[line][column] = colour
        bit = 1 << colour  # the row's and column's colours: OFFER-9 and GREY-2 read them
        self.row_colours[line] |= bit
        self.column_colours[column] |= bit
        self.score += self.placement_points(line, column)
        lid[colour] += line  # TILING-2: a line of capacity line + 1 leaves `line` tiles
        self.line_colour[line] = EMPTY
        self.line_count[line] = 0
        self.reopen(line)

    def tile_coloured_wall(self, lid: list[int]) -> None:
        """Coloured wall: every complete line, top to bottom, to the space of its colour (WALL-1)."""
        for line in range(5):
            if self.line_count[line] == line + 1:
                self.tile_line(line, wall_column(line, self.line_colour[line]), lid)

    def line_to_floor(self, line: int, lid: list[int]) -> None:
        """GREY-3: a complete line whose tile fits no column goes to the floor line whole."""
        self.to_floor(self.line_colour[line], self.line_count[line], lid)
        self.line_colour[line] = EMPTY
        self.line_count[line] = 0
        self.reopen(line)

    def placement_points(self, row: int, column: int) -> int:
        """SCORE-1, SCORE-2: 1 for a lone tile, else each run of 2 or more through the tile, both ways."""
        wall = self.wall
        cells = wall[row]
        left = column
        while left > 0 and cells[left - 1] != EMPTY:
            left -= 1
        right = column
        while right < LAST and cells[right + 1] != EMPTY:
            right += 1
        top = row
        while top > 0 and wall[top - 1][column] != EMPTY:
            top -= 1
        bottom = row
        while bottom < LAST and wall[bottom + 1][column] != EMPTY:
            bottom += 1
        across = right - left + 1
        down = bottom - top + 1
        if across == 1 and down == 1:
            return 1
        return (across if across > 1 else 0) + (down if down > 1 else 0)

    def floor_penalty(self) -> int:
        """FLOOR-3, FLOOR-4: the printed penalties of the occupied spaces, the marker included."""
        return sum(FLOOR_PENALTIES[: len(self.floor)])

    def clear_floor(self, lid: list[int]) -> None:
        """SCORE-4, SCORE-5, FLOOR-6: lose the penalties (never below 0); tiles to the lid, the marker kept."""
        score = self.score - self.floor_penalty()
        self.score = score if score > 0 else 0
        for tile in self.floor:
            if tile != MARKER:
                lid[tile] += 1
        self.floor = []

    # -- end of game ----------------------------------------------------------------------------------------

    def complete_rows(self) -> int:
        """Wall rows holding all five colours, so full (END-1, END-2)."""
        return self.row_colours.count(ALL_COLOURS)

    def complete_columns(self) -> int:
        """Wall columns holding all five colours, so full (END-3): a column never holds a colour twice."""
        return self.column_colours.count(ALL_COLOURS)

    def complete_colours(self) -> int:
        """Colours on every wall row (END-4): the bits set in all five rows' colour sets."""
        on_every_row = ALL_COLOURS
        for colours in self.row_colours:
            on_every_row &= colours
        return on_every_row.bit_count()

    def end_bonus(self) -> int:
        """END-2, END-3, END-4."""
        return 2 * self.complete_rows() + 7 * self.complete_columns() + 10 * self.complete_colours()

