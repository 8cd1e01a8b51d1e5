"""The canonical state `azul-state/1` (docs/reference/state.md): conversion both ways, and every problem a
position can have.

`problems(document)` lists all violations at once, each naming the field (`boards[1].lines[3]: ...`);
`from_state` refuses a document with any problem, so a loaded Game is always a real position.
"""

from __future__ import annotations

from typing import Any

from .board import EMPTY, Board
from .errors import InvalidState
from .game import DEAL, IN_CENTRE, OFFER, OVER, TILING, VARIANTS, Game
from .tiles import (
    COLOUR_INDEX, COLOURS, FACTORIES_BY_PLAYERS, FLOOR_SPACES, LETTERS, MARKER, MARKER_LETTER,
    TILES_PER_COLOUR, TILES_PER_FACTORY, WALL_SIZE, counts_to_text, text_to_counts, wall_colour,
)

FORMAT = "azul-state/1"
PHASES = (DEAL, OFFER, TILING, OVER)
FIELDS = ("format", "variant", "players", "round", "phase", "turn", "start_player", "marker",
          "factories", "centre", "bag", "lid", "boards", "winners")
BOARD_FIELDS = ("score", "lines", "wall", "floor")
TILE_LETTERS = frozenset(COLOURS)
WALL_LETTERS = TILE_LETTERS | {"."}
FLOOR_LETTERS = TILE_LETTERS | {MARKER_LETTER}
# The rows the coloured wall allows (WALL-1): its printed colours, any of them still empty ("." for each).
COLOURED_ROWS = [{"".join(COLOURS[wall_colour(r, c)] if keep >> c & 1 else "." for c in range(WALL_SIZE))
                  for keep in range(2 ** WALL_SIZE)} for r in range(WALL_SIZE)]


def to_state(game: Game) -> dict[str, Any]:
    """The game as an azul-state/1 document (plain JSON types)."""
    return {
        "format": FORMAT, "variant": game.variant, "players": game.players, "round": game.round,
        "phase": game.phase, "turn": game.turn, "start_player": game.start_player,
        "marker": "centre" if game.marker == IN_CENTRE else game.marker,
        "factories": [counts_to_text(f) for f in game.factories],
        "centre": counts_to_text(game.centre),
        "bag": counts_to_text(game.bag), "lid": counts_to_text(game.lid),
        "boards": [_board_to_json(board) for board in game.boards],
        "winners": None if game.winners is None else list(game.winners),
    }


CELL_LETTERS = {EMPTY: ".", **{colour: letter for colour, letter in enumerate(COLOURS)}}  # a wall cell


class _RowTexts(dict):
    """Wall row (a tuple of cells) -> its text, `B.R..`; each row written once, then looked up (at most 6^5)."""

    def __missing__(self, row: tuple[int, ...]) -> str:
        text = self[row] = "".join(map(CELL_LETTERS.__getitem__, row))
        return text


ROW_TEXTS = _RowTexts()


def _board_to_json(board: Board) -> dict[str, Any]:
    # lookups and map(): a state is written after every step of every fuzzed game
    return {
        "score": board.score,
        "lines": [COLOURS[colour] * count if count else "" for colour, count in zip(board.line_colour,
                                                                                     board.line_count)],
        "wall": [ROW_TEXTS[tuple(row)] for row in board.wall],
        "floor": "".join(map(LETTERS.__getitem__, board.floor)),  # LETTERS[MARKER] is the marker's letter
    }


def from_state(document: Any) -> Game:
    """A Game in the position the document describes; InvalidState lists every problem found."""
    found = problems(document)
    if found:
        raise InvalidState(found)
    return _build(document)


def _build(doc: dict[str, Any]) -> Game:
    """The Game of a document already checked by problems()."""
    game = Game(doc["players"], doc["variant"], doc["start_player"])
    game.round, game.phase, game.turn = doc["round"], doc["phase"], doc["turn"]
    game.marker = IN_CENTRE if doc["marker"] == "centre" else doc["marker"]
    game.factories = [text_to_counts(text) for text in doc["factories"]]
    game.centre = text_to_counts(doc["centre"])
    game.bag, game.lid = text_to_counts(doc["bag"]), text_to_counts(doc["lid"])
    game.boards = [_board_from_json(b) for b in doc["boards"]]
    game.winners = None if doc["winners"] is None else sorted(doc["winners"])
    game.on_offer = sum(map(sum, game.factories)) + sum(game.centre)
    return game


def _board_from_json(data: dict[str, Any]) -> Board:
    board = Board()
    board.score = data["score"]
    for i, text in enumerate(data["lines"]):
        if text:
            board.line_colour[i], board.line_count[i] = COLOUR_INDEX[text[0]], len(text)
    for r, row in enumerate(data["wall"]):
        for c, letter in enumerate(row):
            if letter != ".":
                colour = COLOUR_INDEX[letter]
                board.wall[r][c] = colour
                board.row_colours[r] |= 1 << colour
                board.column_colours[c] |= 1 << colour
    board.floor = [MARKER if letter == MARKER_LETTER else COLOUR_INDEX[letter] for letter in data["floor"]]
    board.reopen_all()
    return board


# -- validation -------------------------------------------------------------------------------------------------

def problems(doc: Any) -> list[str]:
    """Every way the document falls short of a real azul-state/1 position (empty when it is one)."""
    if not isinstance(doc, dict):
        return [f"state: expected a JSON object, got {type(doc).__name__}"]
    found = _shape_problems(doc)
    if found:  # the deeper checks need a well-formed document
        return found
    for check in (_tile_problems, _board_problems, _phase_problems, _marker_problems, _winner_problems,
                  _history_problems):
        found += check(doc)
    return found


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tiles(value: Any, where: str, limit: int | None = None) -> list[str]:
    if not isinstance(value, str):
        return [f"{where}: expected a string of colour letters, got {value!r}"]
    bad = sorted(set(value) - TILE_LETTERS)
    if bad:
        return [f"{where}: {value!r} has {''.join(bad)!r}, not colour letters (B Y R K W)"]
    if limit is not None and len(value) > limit:
        return [f"{where}: {value!r} holds {len(value)} tiles, at most {limit}"]
    return []


def _shape_problems(doc: dict) -> list[str]:
    found = [f"{name}: missing" for name in FIELDS if name not in doc]
    found += [f"{name}: unknown field" for name in doc if name not in FIELDS]
    if found:
        return found
    if doc["format"] != FORMAT:
        found.append(f"format: expected {FORMAT!r}, got {doc['format']!r}")
    if doc["variant"] not in VARIANTS:
        found.append(f"variant: expected 'colour' or 'grey', got {doc['variant']!r}")
    players = doc["players"]
    if not _is_int(players) or players not in FACTORIES_BY_PLAYERS:  # unhashable values must not reach `in`
        return found + [f"players: expected 2, 3 or 4, got {players!r}"]
    if not _is_int(doc["round"]) or doc["round"] < 1:
        found.append(f"round: expected a whole number from 1, got {doc['round']!r}")
    if doc["phase"] not in PHASES:
        found.append(f"phase: expected one of {', '.join(PHASES)}, got {doc['phase']!r}")
    for name in ("turn", "start_player"):
        if not _is_int(doc[name]) or not 0 <= doc[name] < players:
            found.append(f"{name}: expected a seat from 0 to {players - 1}, got {doc[name]!r}")
    marker = doc["marker"]
    if marker != "centre" and not (_is_int(marker) and 0 <= marker < players):
        found.append(f"marker: expected 'centre' or a seat from 0 to {players - 1}, got {marker!r}")
    factories = doc["factories"]
    if not isinstance(factories, list) or len(factories) != FACTORIES_BY_PLAYERS[players]:
        found.append(f"factories: expected a list of {FACTORIES_BY_PLAYERS[players]} strings "
                     f"for {players} players (SETUP-3)")
    else:
        for i, text in enumerate(factories):
            found += _tiles(text, f"factories[{i}]", TILES_PER_FACTORY)
    for name in ("centre", "bag", "lid"):
        found += _tiles(doc[name], name)
    boards = doc["boards"]
    if not isinstance(boards, list) or len(boards) != players:
        return found + [f"boards: expected a list of {players} boards"]
    for seat, board in enumerate(boards):
        found += _board_shape_problems(board, f"boards[{seat}]")
    return found


def _board_shape_problems(board: Any, where: str) -> list[str]:
    if not isinstance(board, dict):
        return [f"{where}: expected an object"]
    found = [f"{where}.{name}: missing" for name in BOARD_FIELDS if name not in board]
    found += [f"{where}.{name}: unknown field" for name in board if name not in BOARD_FIELDS]
    if found:
        return found
    if not _is_int(board["score"]) or board["score"] < 0:
        found.append(f"{where}.score: expected a whole number, never below 0 (SCORE-5), got {board['score']!r}")
    lines, wall, floor = board["lines"], board["wall"], board["floor"]
    if not isinstance(lines, list) or len(lines) != 5:
        found.append(f"{where}.lines: expected a list of 5 strings")
    else:
        for i, text in enumerate(lines):
            found += _tiles(text, f"{where}.lines[{i}]", i + 1)
    if not isinstance(wall, list) or len(wall) != WALL_SIZE:
        found.append(f"{where}.wall: expected a list of 5 rows")
    else:
        for r, row in enumerate(wall):
            if not isinstance(row, str) or len(row) != WALL_SIZE or not set(row) <= WALL_LETTERS:
                found.append(f"{where}.wall[{r}]: expected 5 characters of B Y R K W or '.', got {row!r}")
    if not isinstance(floor, str) or not set(floor) <= FLOOR_LETTERS:
        found.append(f"{where}.floor: expected a string of B Y R K W and M, got {floor!r}")
    elif len(floor) > FLOOR_SPACES or floor.count(MARKER_LETTER) > 1:
        found.append(f"{where}.floor: {floor!r} has more than 7 spaces or more than one marker (FLOOR-1)")
    return found


def _tile_problems(doc: dict) -> list[str]:
    """SETUP-4: exactly 20 tiles of each colour in play, wherever they are."""
    places = doc["factories"] + [doc["centre"], doc["bag"], doc["lid"]]
    for board in doc["boards"]:
        places += board["lines"] + board["wall"] + [board["floor"]]
    everything = "".join(places)
    counts = {colour: everything.count(colour) for colour in COLOURS}
    return [f"tiles: {counts[c]} {c} tiles in play, expected {TILES_PER_COLOUR} (SETUP-4)"
            for c in COLOURS if counts[c] != TILES_PER_COLOUR]


def _board_problems(doc: dict) -> list[str]:
    found = []
    for seat, board in enumerate(doc["boards"]):
        where = f"boards[{seat}]"
        wall = board["wall"]
        for r, row in enumerate(wall):
            if doc["variant"] == "colour" and row not in COLOURED_ROWS[r]:  # name each misplaced tile
                for c, letter in enumerate(row):
                    if letter != "." and COLOUR_INDEX[letter] != wall_colour(r, c):
                        found.append(f"{where}.wall[{r}]: {letter} cannot stand in column {c + 1} of the "
                                     f"coloured wall, which shows {COLOURS[wall_colour(r, c)]} there (WALL-1)")
            if len(set(row) - {"."}) != len(row.replace(".", "")):
                found.append(f"{where}.wall[{r}]: {row!r} holds a colour twice in one row (GREY-2)")
        for c, column in enumerate(zip(*wall)):
            tiles = "".join(column).replace(".", "")
            if len(set(tiles)) != len(tiles):
                found.append(f"{where}.wall: column {c + 1} holds a colour twice (GREY-2)")
        for i, text in enumerate(board["lines"]):
            if len(set(text)) > 1:
                found.append(f"{where}.lines[{i}]: {text!r} mixes colours (OFFER-8)")
            elif text and text[0] in wall[i]:
                found.append(f"{where}.lines[{i}]: {text[0]} is already on wall row {i + 1} (OFFER-9)")
    return found


def _phase_problems(doc: dict) -> list[str]:
    phase, found = doc["phase"], []
    on_offer = sum(map(len, doc["factories"])) + len(doc["centre"])
    rows_done = any("." not in row for board in doc["boards"] for row in board["wall"])
    if phase in (DEAL, TILING, OVER) and on_offer:
        found.append(f"phase: {phase!r}, but the factories and the centre still hold tiles")
    if phase == OFFER and not on_offer:
        found.append("phase: 'offer', but the factories and the centre hold no tile: the tiling is due (OFFER-14)")
    if phase in (DEAL, OFFER) and rows_done:
        found.append(f"phase: {phase!r}, but a wall row is complete: the game ended at that tiling (END-1)")
    if phase == DEAL and doc["turn"] != doc["start_player"]:
        found.append("turn: in phase 'deal' the round's start player is to act (ROUND-2)")
    if phase == DEAL and not doc["bag"] and not doc["lid"]:
        found.append("phase: 'deal', but bag and lid are empty: with no tile to deal, the game ended at the tiling "
                     "before (END-8)")
    if phase == TILING:
        found += _tiling_problems(doc)
        tiled = [(doc["start_player"] + k) % doc["players"]
                 for k in range((doc["turn"] - doc["start_player"]) % doc["players"])]
        found += _untiled_problems(doc, tiled, "tiled before the seat to act (GREY-5)")
    if phase in (DEAL, OVER):
        found += _untiled_problems(doc, range(doc["players"]), f"phase {phase!r} comes after the tiling")
    return found


def _untiled_problems(doc: dict, seats: Any, why: str) -> list[str]:
    """A board whose tiling is done holds no complete pattern line (TILING-1) and an empty floor (FLOOR-6)."""
    found = []
    for seat in seats:
        board = doc["boards"][seat]
        found += [f"boards[{seat}].lines[{i}]: complete, but it was tiled: {why}"
                  for i, text in enumerate(board["lines"]) if len(text) == i + 1]
        if board["floor"]:
            found.append(f"boards[{seat}].floor: {board['floor']!r}, but it was cleared: {why}")
    return found


def _tiling_problems(doc: dict) -> list[str]:
    if doc["variant"] != "grey":
        return ["phase: 'tiling' is only ever pending on the grey wall (the coloured wall has no choice)"]
    board = doc["boards"][doc["turn"]]
    full = [i for i, text in enumerate(board["lines"]) if len(text) == i + 1]
    if not full:
        return [f"phase: 'tiling', but seat {doc['turn']} has no complete pattern line to place"]
    line = full[0]
    colour = board["lines"][line][0]
    free = [c for c in range(WALL_SIZE) if board["wall"][line][c] == "."
            and colour not in (row[c] for row in board["wall"])]
    if not free:
        return [f"phase: 'tiling', but seat {doc['turn']}'s pattern line {line + 1} fits no column: "
                "its tiles go to the floor without a choice (GREY-3)"]
    return []


def _marker_problems(doc: dict) -> list[str]:
    if doc["phase"] == OVER:
        return []
    marker, found = doc["marker"], []
    holders = [seat for seat, board in enumerate(doc["boards"]) if MARKER_LETTER in board["floor"]]
    if marker == "centre":
        if holders:
            found.append(f"boards[{holders[0]}].floor: holds the marker, but marker is 'centre'")
    else:
        if doc["phase"] == DEAL:
            found.append("marker: during the deal the marker is 'centre' (its holder has put it out)")
        if any(seat != marker for seat in holders):
            found.append(f"marker: seat {marker} holds it, but another floor shows M")
        floor = doc["boards"][marker]["floor"]
        if doc["phase"] == OFFER and MARKER_LETTER not in floor and len(floor) < FLOOR_SPACES:
            found.append(f"boards[{marker}].floor: seat {marker} took the marker, so M must be on its floor "
                         "(it is only set aside when the floor was full, FLOOR-5)")
    return found


def _history_problems(doc: dict) -> list[str]:
    """What no game's history produces, though each part is well formed: the round and the phase bound what
    can have happened (one tile per wall row per tiling, points only from the wall, nothing taken yet while
    every factory is still full...)."""
    phase, rnd, found = doc["phase"], doc["round"], []
    tilings = rnd - 1 if phase in (DEAL, OFFER) else rnd  # tilings done or under way by now
    for seat, board in enumerate(doc["boards"]):
        wall = board["wall"]
        for r, row in enumerate(wall):
            placed = WALL_SIZE - row.count(".")
            if placed > tilings:
                found.append(f"boards[{seat}].wall[{r}]: {placed} tiles, but a row gains at most one tile per "
                             f"tiling and {tilings} tiling(s) have taken place by round {rnd}, phase {phase!r} "
                             "(TILING-1)")
        if board["score"] > _most_points(wall, phase == OVER):
            found.append(f"boards[{seat}].score: {_clip_number(board['score'])} is more than its wall can have "
                         "scored (at most 10 points per wall tile, SCORE-1 and SCORE-2, plus the end bonuses, "
                         "END-2 to END-4)")
    if phase == OVER and not any(row != "." * WALL_SIZE for board in doc["boards"] for row in board["wall"]):
        found.append("phase: 'over', but every wall is empty: a game ends after a tiling (END-1)")
    elif phase == OVER and (doc["bag"] or doc["lid"]) and not any(
            "." not in row for board in doc["boards"] for row in board["wall"]):
        found.append("phase: 'over', but no wall row is complete (END-1) and bag or lid still holds tiles to deal "
                     "(END-8)")
    if rnd == 1 and phase == DEAL:
        if any(doc["boards"][seat]["lines"] != [""] * WALL_SIZE for seat in range(doc["players"])):
            found.append("boards: pattern lines hold tiles before the first round's offer (SETUP-4)")
        if doc["lid"]:
            found.append("lid: holds tiles before the first round's offer: every tile starts in the bag (SETUP-4)")
    if rnd == 1 and phase == OFFER and doc["lid"] and not any(len(b["floor"]) == FLOOR_SPACES
                                                              for b in doc["boards"]):
        # From the first tiling on (grey: already during it) leftovers and floors reach the lid.
        found.append("lid: holds tiles in round 1, but only a full floor line sends a tile there before the first "
                     "tiling (FLOOR-2)")
    if phase == OFFER:
        found += _untouched_offer_problems(doc)
    return found


def _untouched_offer_problems(doc: dict) -> list[str]:
    """Factories lose tiles only all at once (OFFER-2, OFFER-3): a factory with 1 to 3 tiles was dealt short,
    so the bag ran out (DEAL-3); every factory still full means nobody has taken yet this round."""
    factories, found = doc["factories"], []
    if any(0 < len(f) < TILES_PER_FACTORY for f in factories) and doc["bag"]:
        found.append("factories: one was dealt fewer than 4 tiles, which happens only when bag and lid run out "
                     "(DEAL-3), yet the bag holds tiles")
    if all(len(f) == TILES_PER_FACTORY for f in factories):
        why = "every factory is full, so nobody has taken a tile this round (OFFER-2, OFFER-3)"
        if doc["centre"]:
            found.append(f"centre: holds tiles, but {why}")
        if doc["marker"] != "centre":
            found.append(f"marker: taken, but {why}")
        if doc["turn"] != doc["start_player"]:
            found.append(f"turn: seat {doc['turn']} to move, but {why}: the start player moves first (OFFER-1)")
        if any(board["floor"] for board in doc["boards"]):
            found.append(f"boards: a floor line holds tiles, but {why}")
    return found


def _most_points(wall: list[str], over: bool) -> int:
    """An upper bound of what a wall can have scored: 10 per tile (5 across and 5 down), bonuses at the end."""
    tiles = sum(WALL_SIZE - row.count(".") for row in wall)
    if not over:
        return 10 * tiles
    rows = sum("." not in row for row in wall)
    columns = sum(all(row[c] != "." for row in wall) for c in range(WALL_SIZE))
    colours = sum("".join(wall).count(colour) == WALL_SIZE for colour in COLOURS)
    return 10 * tiles + 2 * rows + 7 * columns + 10 * colours


def _clip_number(value: int) -> str:
    return str(value) if value < 10 ** 30 else "a number of more than 30 digits"


def _winner_problems(doc: dict) -> list[str]:
    winners = doc["winners"]
    if doc["phase"] != OVER:
        return [] if winners is None else [f"winners: must be null until the game is over, got {winners!r}"]
    if not isinstance(winners, list) or not winners or not all(_is_int(w) for w in winners):
        return [f"winners: expected the list of winning seats, got {winners!r}"]
    ranks = [(b["score"], sum("." not in row for row in b["wall"])) for b in doc["boards"]]
    best = max(ranks)
    expected = [seat for seat, rank in enumerate(ranks) if rank == best]
    if sorted(winners) != expected:
        return [f"winners: {winners!r}, but the scores and complete rows make {expected!r} the winners (END-5..7)"]
    return []
