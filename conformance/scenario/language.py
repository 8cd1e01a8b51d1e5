"""The scenario language's public parse functions: positions, steps and assertions.

    parse_position(text, origin) -> Given        (`given`: a canonical state or a fresh game)
    parse_steps(text, origin, players) -> tuple[Step, ...]
    parse_expect(text, origin, players) -> tuple[Assertion, ...]
`players` sizes deals and factory lists (unlisted factories are empty).
"""

from __future__ import annotations

from lark import Token, Tree

from ..notation import FACTORIES_BY_PLAYERS, MARKER, canonical
from . import grammar
from .checks import matches
from .errors import Origin
from .model import Assertion, Check, Given, Rejection, Step
from .position import (
    Located, build_given, collect_boards, floor_of, line_of, seat_of, tiles_of,
)


def parse_position(text: str, origin: Origin | None = None) -> Given:
    origin = origin or Origin()
    return build_given(grammar.parse(text, "position", origin), origin, text)


def parse_steps(text: str, origin: Origin | None = None, players: int = 2) -> tuple[Step, ...]:
    origin = origin or Origin()
    tree = grammar.parse(text, "steps", origin)
    at, lines = Located(origin), text.split("\n")
    steps = []
    for step in tree.find_data("step"):
        action, _arrow, code, rule = step.children
        line = step.meta.line
        source = lines[line - 1][step.meta.column - 1:step.meta.end_column - 1]
        rules = [str(t) for t in rule.children if t.type == "RULE_ID"] if rule is not None else [None]
        reject = Rejection(str(code), rules[0], tuple(rules[1:])) if code is not None else None
        base = {"text": source, "where": origin.where(line), "reject": reject}
        if action.data == "move":
            steps.append(Step("move", move=str(action.children[0]), **base))
        elif action.data == "deal_random":
            steps.append(Step("deal_random", **base))
        else:
            steps.append(Step("deal", factories=tuple(_factories(action.children, at, players)), **base))
    return tuple(steps)


def _factories(entries: list[Tree], at: Located, players: int) -> list[str]:
    count = FACTORIES_BY_PLAYERS.get(players, 5)
    factories = [""] * count
    seen = set()
    for entry in entries:
        number = int(entry.children[0])
        if not 1 <= number <= count:
            raise at.error(f"there is no factory {number}: {players} players use factories 1 to {count}", entry)
        if number in seen:
            raise at.error(f"factory {number} is stated twice", entry)
        seen.add(number)
        factories[number - 1] = canonical(tiles_of(entry.children[1], f"factory {number}", at))
    return factories


def parse_expect(text: str, origin: Origin | None = None, players: int = 2) -> tuple[Assertion, ...]:
    origin = origin or Origin()
    tree = grammar.parse(text, "expect", origin)
    builder = ExpectBuilder(Located(origin), players, text.split("\n"))
    pending: list[Tree] = []  # the lines of a board block being read
    assertions: list[Assertion] = []
    for line in tree.children:
        node = line.children[0]
        if node.data in ("board_header", "board_line"):
            if node.data == "board_header" and pending:
                assertions.append(builder.board(pending))
                pending = []
            pending.append(node)
            continue
        if pending:
            assertions.append(builder.board(pending))
            pending = []
        assertions.append(builder.assertion(node))
    if pending:
        assertions.append(builder.board(pending))
    return tuple(assertions)


class ExpectBuilder:
    """Compiles assertion nodes into Checks (kinds listed in model.py)."""

    def __init__(self, at: Located, players: int, lines: list[str]) -> None:
        self.at, self.players, self.lines = at, players, lines

    def _assertion(self, first: int, last: int, checks: list[Check], board: int | None = None) -> Assertion:
        text = "\n".join(line.rstrip() for line in self.lines[first - 1:last])
        return Assertion(text=text, where=self.at.origin.where(first), checks=tuple(checks), board=board)

    def board(self, nodes: list[Tree]) -> Assertion:
        draft = collect_boards(nodes, self.at, self.players)[0]
        base = f"/boards/{draft.seat}"
        checks = []
        if draft.score is not None:
            checks.append(Check("equals", f"{base}/score", draft.score))
        for i, tiles in enumerate(draft.lines or ()):
            checks.append(Check("equals", f"{base}/lines/{i}", tiles))
        for i, row in enumerate(draft.wall or ()):
            checks.append(Check("equals", f"{base}/wall/{i}", row))
        if draft.floor is not None:
            checks.append(Check("equals", f"{base}/floor", draft.floor))
        if not checks:
            raise self.at.error(f"board {draft.seat} states nothing to check", nodes[0])
        last = nodes[-1].meta.line  # (a line's end meta runs into the next line)
        return self._assertion(nodes[0].meta.line, last, checks, draft.seat)

    def assertion(self, node: Tree) -> Assertion:
        checks = getattr(self, "_" + node.data)(node, *node.children)
        return self._assertion(node.meta.line, node.meta.end_line, checks)

    # -- one method per assertion form (named for the grammar's aliases) ----------------------------------
    def _phase_is(self, node, name):
        return [Check("equals", "/phase", str(name.children[0]))]

    def _variant_is(self, node, name):
        return [Check("equals", "/variant", str(name.children[0]))]

    def _round_is(self, node, number):
        return [Check("equals", "/round", int(number))]

    def _players_is(self, node, number):
        return [Check("equals", "/players", int(number))]

    def _turn_is(self, node, seat):
        return [Check("equals", "/turn", seat_of(seat, self.at, self.players, "seat"))]

    def _start_is(self, node, seat):
        return [Check("equals", "/start_player", seat_of(seat, self.at, self.players, "seat"))]

    def _marker_is(self, node, where):
        token = where.children[0]
        if token.type == "CENTRE":
            return [Check("equals", "/marker", "centre")]
        return [Check("equals", "/marker", seat_of(token, self.at, self.players, "marker"))]

    def _winners_is(self, node, seats):
        if isinstance(seats, Token):  # `-`: nobody has won (the game goes on)
            return [Check("equals", "/winners", None)]
        return [Check("set", "/winners", sorted(seat_of(t, self.at, self.players, "winner") for t in seats.children))]

    def _factory_is(self, node, number, tiles):
        index = self._factory_index(number)
        return [Check("multiset", f"/factories/{index}", canonical(tiles_of(tiles, "a factory", self.at)))]

    def _factories_is(self, node, *entries):
        listed = [] if isinstance(entries[0], Token) else list(entries)
        factories = _factories(listed, self.at, self.players)
        return [Check("multiset", f"/factories/{i}", tiles) for i, tiles in enumerate(factories)]

    def _centre_is(self, node, tiles):
        letters = tiles_of(tiles, "the centre", self.at, marker=True)
        checks = [Check("multiset", "/centre", canonical(letters))]
        if MARKER in letters:
            checks.append(Check("equals", "/marker", "centre"))
        return checks

    def _bag_is(self, node, tiles):
        return [Check("multiset", "/bag", canonical(tiles_of(tiles, "the bag", self.at)))]

    def _lid_is(self, node, tiles):
        return [Check("multiset", "/lid", canonical(tiles_of(tiles, "the lid", self.at)))]

    def _score_is(self, node, seat, points):
        return [Check("equals", f"/boards/{seat_of(seat, self.at, self.players, 'board')}/score", int(points))]

    def _floor_is(self, node, seat, tiles):
        return [Check("equals", f"/boards/{seat_of(seat, self.at, self.players, 'board')}/floor",
                      floor_of(tiles, self.at))]

    def _line_is(self, node, seat, number, *cells):
        line = self._line_number(number)
        tiles = line_of("".join(cells), line, node, self.at)
        return [Check("equals", f"/boards/{seat_of(seat, self.at, self.players, 'board')}/lines/{line - 1}", tiles)]

    def _wall_row_is(self, node, seat, number, *cells):
        row = self._line_number(number, "wall row")
        text = "".join(cells)
        if len(text) != 5:
            raise self.at.error(f"a wall row has 5 cells, {len(text)} are drawn", node)
        return [Check("equals", f"/boards/{seat_of(seat, self.at, self.players, 'board')}/wall/{row - 1}", text)]

    def _count_is(self, node, place, number):
        return [Check("count", self._place(place), int(number))]

    def _length_is(self, node, listed, number):
        return [Check("length", "/" + listed.data.split("_")[0], int(number))]

    def _legal_moves_matching(self, node, pattern, moves):
        text, chosen = str(pattern.children[0]), _moves(moves)
        strays = [move for move in chosen if not matches(move, text)]
        if strays:
            raise self.at.error(f"{', '.join(strays)} cannot be among the moves matching {text}", moves,
                                "`?` stands for any one character; every other character must be equal")
        return [Check("moves_equal", "", chosen, pattern=text)]

    def _legal_moves_matching_count(self, node, pattern, number):
        return [Check("moves_count", "", int(number), pattern=str(pattern.children[0]))]

    def _legal_moves_are(self, node, moves):
        return [Check("moves_equal", "", _moves(moves))]

    def _legal_moves_include(self, node, moves):
        return [Check("moves_include", "", _moves(moves))]

    def _legal_moves_exclude(self, node, moves):
        return [Check("moves_exclude", "", _moves(moves))]

    def _legal_moves_count(self, node, number):
        return [Check("moves_count", "", int(number))]

    # -- helpers -----------------------------------------------------------------------------------------
    def _factory_index(self, token: Token) -> int:
        count = FACTORIES_BY_PLAYERS.get(self.players, 5)
        if not 1 <= int(token) <= count:
            raise self.at.error(f"there is no factory {token}: {self.players} players use factories 1 to {count}",
                                token)
        return int(token) - 1

    def _line_number(self, token: Token, what: str = "pattern line") -> int:
        if not 1 <= int(token) <= 5:
            raise self.at.error(f"{what}s are numbered 1 to 5, not {token}", token)
        return int(token)

    def _place(self, place: Tree) -> str:
        kind, args = place.data, place.children
        if kind == "factory_place":
            return f"/factories/{self._factory_index(args[0])}"
        if kind in ("centre_place", "bag_place", "lid_place"):
            return "/" + kind.split("_")[0]
        base = f"/boards/{seat_of(args[0], self.at, self.players, 'board')}"
        if kind == "floor_place":
            return base + "/floor"
        if kind == "line_place":
            return f"{base}/lines/{self._line_number(args[1]) - 1}"
        return base + "/wall"


def _moves(node: Tree) -> list[str]:
    moves = [str(token) for token in node.children if isinstance(token, Token)]
    return sorted(set(moves))
