"""The position builder: a parsed `given` text becomes a canonical azul-state/1 dict (or a fresh game).

Everything not stated takes its default (2 players, colour wall, round 1, offer phase, start player 0,
turn = start player, empty boards with score 0, the marker in the centre unless someone holds it), and the
bag is filled so that 100 tiles are in play: 20 of each colour minus every tile stated elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree

from ..located import Span
from ..notation import (
    COLOURS, FACTORIES_BY_PLAYERS, FLOOR_SPACES, MARKER, PLAYER_COUNTS, TILES_PER_COLOUR, VARIANTS, canonical,
)
from .errors import Origin, ScenarioContentError
from .model import Given, NewGame, Rejection

NEW_GAME_SETTINGS = ("players", "variant", "start")


class Located:
    """Raises content errors at a node of the parse tree, located in the YAML file."""

    def __init__(self, origin: Origin) -> None:
        self.origin = origin

    def error(self, message: str, node: Tree | Token | None = None, hint: str | None = None) -> ScenarioContentError:
        span = Span.of(node)
        return ScenarioContentError.at(message, self.origin, span.line or 1, span.column or 1, span.width,
                                       hint)  # type: ignore[return-value]


def tiles_of(node: Tree, place: str, at: Located, marker: bool = False) -> str:
    """The letters of a `multiset` or `floor_tiles` node (`-` is empty, `18B` is eighteen blue tiles)."""
    letters = ""
    for token in node.children:
        if token.type == "COUNTED":
            letters += token[-1] * int(token[:-1])
        elif token.type == "TILES":
            letters += str(token)
    if MARKER in letters and not marker:
        raise at.error(f"{place} cannot hold the marker M (it is no tile)", node,
                       "the marker stands in the centre or on a floor line")
    if letters.count(MARKER) > 1:
        raise at.error(f"{place} shows the marker M more than once", node)
    return letters


@dataclass
class BoardDraft:
    """What a `board N:` block states; None where it states nothing."""

    seat: int
    node: Tree
    score: int | None = None
    floor: str | None = None
    rows: list[Tree] = field(default_factory=list)
    lines: list[str] | None = None
    wall: list[str] | None = None


def collect_boards(items: list[Tree], at: Located, players: int) -> list[BoardDraft]:
    """Group `board_header` and `board_line` nodes into boards (every line belongs to the header above)."""
    boards: list[BoardDraft] = []
    for node in items:
        if node.data == "board_header":
            seat = seat_of(node.children[0], at, players, "board")
            if any(board.seat == seat for board in boards):
                raise at.error(f"board {seat} is drawn twice", node)
            boards.append(BoardDraft(seat, node))
            _board_items(boards[-1], node.children[1:], at)
        elif not boards:
            raise at.error("this board line has no `board N:` line above it", node)
        elif node.children[0].data == "row":
            boards[-1].rows.append(node.children[0])
        else:
            _board_items(boards[-1], node.children, at)
    for board in boards:
        _rows(board, at)
    return boards


def _board_items(board: BoardDraft, items: list[Tree], at: Located) -> None:
    for item in items:
        if item.data == "score":
            if board.score is not None:
                raise at.error(f"board {board.seat}: the score is stated twice", item)
            board.score = int(item.children[0])
        else:
            if board.floor is not None:
                raise at.error(f"board {board.seat}: the floor is stated twice", item)
            board.floor = floor_of(item.children[0], at)


def floor_of(node: Tree, at: Located) -> str:
    floor = tiles_of(node, "a floor line", at, marker=True)
    if len(floor) > FLOOR_SPACES:
        raise at.error(f"a floor line has 7 spaces, this one shows {len(floor)}", node,
                       "tiles beyond the seventh space go to the lid (FLOOR-2)")
    return floor


def _rows(board: BoardDraft, at: Located) -> None:
    if not board.rows:
        return
    if len(board.rows) != 5:
        raise at.error(f"board {board.seat}: the drawing has {len(board.rows)} rows, a board has 5",
                       board.rows[-1], "draw every row as `pattern line | wall row`, empties as `.`")
    board.lines, board.wall = [], []
    for number, row in enumerate(board.rows, start=1):
        bar = next(i for i, token in enumerate(row.children) if token.type == "BAR")
        left = "".join(row.children[:bar])
        right = "".join(row.children[bar + 1:])
        board.lines.append(line_of(left, number, row, at))
        if len(right) != 5:
            raise at.error(f"wall row {number} has {len(right)} cells, it has 5", row.children[-1])
        board.wall.append(right)


def line_of(cells: str, number: int, node: Tree | Token, at: Located) -> str:
    """The tiles of pattern line `number` drawn as cells; missing cells on the left are empty."""
    if cells == "-":
        return ""
    if len(cells) > number:
        raise at.error(f"pattern line {number} holds {number} tile{'s' * (number > 1)}, "
                       f"{len(cells)} cells are drawn", node)
    tiles = cells.lstrip(".")
    if "." in tiles:
        letters = tiles.replace(".", "")
        aligned = " ".join("." * (number - len(letters)) + letters)
        raise at.error(f"pattern line {number} fills from the right (OFFER-7): {cells!r} has a gap", node,
                       f"write it right-aligned: {aligned!r}")
    return tiles


def seat_of(token: Token, at: Located, players: int, what: str = "seat") -> int:
    seat = int(token)
    if not 0 <= seat < players:
        raise at.error(f"{what} {seat} does not exist with {players} players (seats 0 to {players - 1})", token,
                       "say how many play with `players: 3` (or 4)")
    return seat


def value(node: Tree) -> Any:
    """The value of a setting: a number, a word, `centre`, a list of seats..."""
    child = node.children[0] if node.children else None
    if isinstance(child, Token):
        return int(child) if child.type == "INT" else str(child)
    if isinstance(child, Tree) and child.data in ("phase_name", "variant_name"):
        return str(child.children[0])
    if isinstance(child, Tree) and child.data == "seat_or_centre":
        token = child.children[0]
        return int(token) if token.type == "INT" else "centre"
    return child


def build_given(tree: Tree, origin: Origin, text: str) -> Given:
    at = Located(origin)
    body = tree.children[-1]
    if body.data == "new_game":
        return _new_game(body, at, text, origin)
    return Given(text=text, where=origin.where(), state=TableBuilder(at).build(body))


def _new_game(body: Tree, at: Located, text: str, origin: Origin) -> Given:
    settings: dict[str, tuple[Any, Tree]] = {}
    refusal: Tree | None = None
    for node in body.children:
        if refusal is not None:
            raise at.error("the refusal ends the new game: state players, variant and start before it", node)
        if node.data == "refusal":
            refusal = node
            continue
        if node.data not in NEW_GAME_SETTINGS:
            raise at.error("a new game states only players, variant and start", node,
                           "to start from another position, leave out `new game`")
        if node.data in settings:
            raise at.error(f"{node.data} is stated twice", node)
        settings[node.data] = (value(node), node)
    game = NewGame(*(settings[name][0] if name in settings else default
                     for name, default in zip(NEW_GAME_SETTINGS, (2, "colour", 0))))
    problems = _impossible(game)
    if refusal is None:
        if problems:
            name, message, rule = problems[0]
            raise at.error(message, settings[name][1],
                           f"to check that such a game is refused, end the line with `-> bad_request {rule}`")
        return Given(text=text, where=origin.where(), new_game=game)
    return Given(text=text, where=origin.where(), new_game=game, reject=_refusal(refusal, problems, at))


def _impossible(game: NewGame) -> list[tuple[str, str, str]]:
    """What makes a new game impossible to set up, as (setting, reason, rule)."""
    problems = []
    if game.players not in PLAYER_COUNTS:
        problems.append(("players", f"Azul is played by 2, 3 or 4 players, not {game.players}", "SETUP-6"))
    if game.variant not in VARIANTS:
        problems.append(("variant", f"the wall is `colour` or `grey`, not {game.variant!r}", "SETUP-1"))
    if not 0 <= game.start_player < max(game.players, 0):
        problems.append(("start", f"start {game.start_player} is no seat of a {game.players}-player game",
                         "SETUP-5"))
    return problems


def _refusal(node: Tree, problems: list, at: Located) -> Rejection:
    _arrow, code, rule = node.children
    if not problems:
        raise at.error("this new game can be set up (2-4 players, a colour or grey wall, a start seat), so it "
                       "cannot be expected to be refused", node)
    if str(code) != "bad_request":
        raise at.error(f"a game that cannot be set up is refused with bad_request, not {code}", code)
    return Rejection(str(code), str(rule) if rule is not None else None)


def first_round(boards: list[dict[str, Any]]) -> int:
    """The default round of a position: the first one its walls allow, as a wall row gains at most one tile
    per tiling (TILING-1)."""
    return 1 + max(len(row) - row.count(".") for board in boards for row in board["wall"])


class TableBuilder:
    """Builds the canonical state of a `table` node, checking what the text alone can check."""

    def __init__(self, at: Located) -> None:
        self.at = at
        self.settings: dict[str, tuple[Any, Tree]] = {}
        self.factories: dict[int, tuple[str, Tree]] = {}

    def build(self, body: Tree) -> dict[str, Any]:
        board_items = [node for node in body.children if node.data != "setting_line"]
        for line in body.children:
            if line.data == "setting_line":
                self._settings(line)
        players = self._get("players", 2)
        if players not in FACTORIES_BY_PLAYERS:
            raise self.at.error(f"Azul is played by 2, 3 or 4 players, not {players}", self.settings["players"][1])
        if self._get("variant", "colour") not in VARIANTS:
            raise self.at.error(f"the wall is `colour` or `grey`, not {self._get('variant', '')!r}",
                                self.settings["variant"][1])
        boards = collect_boards(board_items, self.at, players)
        return self._state(players, boards)

    def _settings(self, line: Tree) -> None:
        listing = False
        for node in line.children:
            if node.data == "factory":
                if not (listing or self.factories or "factories" in self.settings):
                    raise self.at.error("a factory is listed without `factories:` before it", node)
                number = int(node.children[0])
                if number in self.factories:
                    raise self.at.error(f"factory {number} is stated twice", node)
                self.factories[number] = (tiles_of(node.children[1], f"factory {number}", self.at), node)
                continue
            if node.data in self.settings:
                raise self.at.error(f"{node.data} is stated twice", node)
            self.settings[node.data] = (value(node), node)
            listing = node.data == "factories"

    def _get(self, name: str, default: Any) -> Any:
        return self.settings[name][0] if name in self.settings else default

    def _seat(self, name: str, players: int, default: int) -> int:
        if name not in self.settings:
            return default
        return seat_of(self.settings[name][1].children[0], self.at, players, name)

    def _state(self, players: int, drafts: list[BoardDraft]) -> dict[str, Any]:
        start = self._seat("start", players, 0)
        phase = self._get("phase", "offer")
        boards = [{"score": 0, "lines": [""] * 5, "wall": ["....."] * 5, "floor": ""} for _ in range(players)]
        for draft in drafts:
            board = boards[draft.seat]
            board["score"] = draft.score if draft.score is not None else 0
            board["floor"] = draft.floor or ""
            if draft.lines is not None:
                board["lines"], board["wall"] = draft.lines, draft.wall
        state = {
            "format": "azul-state/1", "variant": self._get("variant", "colour"), "players": players,
            "round": self._round(boards), "phase": phase, "turn": self._seat("turn", players, start),
            "start_player": start, "marker": None, "factories": self._factory_list(players),
            "centre": "", "bag": "", "lid": "", "boards": boards, "winners": self._winners(players, phase),
        }
        self._centre_and_marker(state)
        self._bag_and_lid(state)
        return state

    def _round(self, boards: list[dict[str, Any]]) -> int:
        number = self._get("round", first_round(boards))
        if number < 1:
            raise self.at.error("rounds count from 1", self.settings["round"][1])
        return number

    def _factory_list(self, players: int) -> list[str]:
        count = FACTORIES_BY_PLAYERS[players]
        factories = [""] * count
        for number, (tiles, node) in self.factories.items():
            if not 1 <= number <= count:
                raise self.at.error(f"there is no factory {number}: {players} players use factories 1 to {count}"
                                    " (SETUP-3)", node)
            factories[number - 1] = canonical(tiles)
        return factories

    def _winners(self, players: int, phase: str) -> list[int] | None:
        if "winners" not in self.settings:
            if phase == "over":
                raise self.at.error("a finished game (phase: over) names its winners, e.g. `winners: 0`",
                                    self.settings["phase"][1])
            return None
        node = self.settings["winners"][1]
        if phase != "over":
            raise self.at.error("winners are only known once the game is over (phase: over)", node)
        return sorted(seat_of(token, self.at, players, "winner") for token in node.children[0].children)

    def _centre_and_marker(self, state: dict[str, Any]) -> None:
        centre, centre_node = "", None
        if "centre" in self.settings:
            centre_node = self.settings["centre"][1]
            centre = tiles_of(centre_node.children[0], "the centre", self.at, marker=True)
        state["centre"] = canonical(centre)
        holders = [seat for seat, board in enumerate(state["boards"]) if MARKER in board["floor"]]
        places = holders + (["centre"] if MARKER in centre else [])
        if len(places) > 1:
            raise self.at.error(f"the marker M is drawn in {len(places)} places", centre_node)
        stated = self._get("marker", None)
        if stated is not None:
            node = self.settings["marker"][1]
            if stated != "centre":
                stated = seat_of(node.children[0].children[0], self.at, state["players"], "marker")
            if places and places[0] != stated:
                raise self.at.error(f"marker: {stated}, but M is drawn "
                                    f"{'in the centre' if places[0] == 'centre' else f'on board {places[0]}'}",
                                    node)
        marker = stated if stated is not None else (places[0] if places else "centre")
        in_play = state["phase"] in ("offer", "tiling")
        if MARKER in centre and not in_play:
            raise self.at.error(f"the marker stands in the centre only while tiles are offered, not in phase "
                                f"{state['phase']!r}", centre_node)
        if marker == "centre" and in_play and centre_node is not None and MARKER not in centre:
            raise self.at.error("the marker is still in the centre, so the centre shows M", centre_node,
                                f"write `centre: M {centre or ''}`".rstrip() + ", or say who took it "
                                "(M on that board's floor, or `marker: 0`)")
        state["marker"] = marker

    def _bag_and_lid(self, state: dict[str, Any]) -> None:
        bag = self._supply("bag", "auto")
        lid = self._supply("lid", "")
        if bag == "auto" and lid == "auto":
            raise self.at.error("only one of bag and lid can be `auto`", self.settings["lid"][1])
        used = "".join(state["factories"]) + state["centre"]
        for board in state["boards"]:
            used += "".join(board["lines"]) + "".join(board["wall"]) + board["floor"]
        used += "" if bag == "auto" else bag
        used += "" if lid == "auto" else lid
        rest = ""
        for colour in COLOURS:
            left = TILES_PER_COLOUR - used.count(colour)
            if left < 0 and "auto" in (bag, lid):
                raise self.at.error(f"{used.count(colour)} {colour} tiles are in play, there are only 20 "
                                    "(SETUP-4)", self._any_node())
            rest += colour * max(left, 0)
        state["bag"] = canonical(rest if bag == "auto" else bag)
        state["lid"] = canonical(rest if lid == "auto" else lid)

    def _supply(self, name: str, default: str) -> str:
        if name not in self.settings:
            return default
        node = self.settings[name][1]
        child = node.children[0]
        if isinstance(child, Token) and child.type == "AUTO":
            return "auto"
        return tiles_of(child, f"the {name}", self.at)

    def _any_node(self) -> Tree | None:
        for _, node in self.settings.values():
            return node
        return None
