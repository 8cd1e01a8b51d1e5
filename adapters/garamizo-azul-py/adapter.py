#!/usr/bin/env python3
"""Protocol v1 for garamizo/Azul-Board-Game's Python engine (azul/logic.py), for the suite to judge.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.10+ with numpy (the
engine's one import beyond the standard library). The engine is yours: $GARAMIZO_AZUL_ROOT names your copy of
garamizo/Azul-Board-Game (the folder holding azul/logic.py; this project holds none of it). Run it:
    GARAMIZO_AZUL_ROOT=/path/to/Azul-Board-Game azul conform --engine "python3 adapters/garamizo-azul-py/adapter.py"

The engine is the class Table of logic.py, as the repository's pygame front end played it: is_valid(colour,
factory, line) checks a take, step_move(colour, factory, line) makes it, and as the offer's last take is made
step_move tiles and scores every board, ends the game or deals the next round (reset). Colours are 1 to 5
(B Y R K W by the wall's pattern), the marker -1; factory -1 is the centre, line -1 the floor. The engine lists
no moves: its front end asks is_valid. README.md beside this file says what the adapter adds; line numbers are
in logic.py at commit 3f5dedd.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import sys

if not os.environ.get("GARAMIZO_AZUL_ROOT"):
    sys.exit("adapter.py: set GARAMIZO_AZUL_ROOT to your copy of garamizo/Azul-Board-Game (the folder with "
             "azul/logic.py)")
sys.path.insert(0, os.path.join(os.environ["GARAMIZO_AZUL_ROOT"], "azul"))

import logic  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import (  # noqa: E402
    ProtocolTable, Refused, check_factories, check_new_game, check_state, check_take, seat_value, serve)

ORDER = "BYRKW"  # colour k of the engine is ORDER[k - 1]: GRID_PATTERN (logic.py:15-20) is the coloured wall
MARKER = -1
FLOOR_SPACES = 7
SEED = int(os.environ.get("GARAMIZO_AZUL_SEED", "0"))


@contextlib.contextmanager
def engine_speaking():
    """The engine prints as a round or the game ends (logic.py:293, 306-308): stdout is the protocol's, so its
    prints go to stderr."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


@contextlib.contextmanager
def engine_draw(draw):
    """Stands in for the `randint` logic.py imported (logic.py:3), which draw_tiles alone uses (logic.py:218-228)."""
    saved = logic.randint
    logic.randint = draw
    try:
        yield
    finally:
        logic.randint = saved


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: logic.Table | None = None
        self.phase = "deal"
        self.start = 0

    def hello(self) -> dict:
        return {"name": "garamizo/Azul-Board-Game (Python, via adapter)", "version": "3f5dedd", "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall (GRID_PATTERN, logic.py:15-20)")
        game = logic.Table(players)  # fills the bag and deals the first round at once (logic.py:141-149)
        undeal(game)
        # The engine has no start player to choose: seat 0 opens every game (activePlayer = 0, logic.py:139),
        # whatever start_player asks; the adapter plays the engine as it is.
        self.game, self.phase, self.start = game, "deal", game.activePlayer
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal is drawn from a generator seeded by the position, never by what this process did before: the
        # suite runs its cases in any order over several engine processes (-j).
        rng = random.Random(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        self._deal(game, rng.randint)
        return self.state()

    def _deal_given(self, game, factories) -> dict:
        check_factories(factories)
        if len(factories) != game.numFactories:
            raise Refused("illegal_move", f"the engine has {game.numFactories} factories, not {len(factories)}",
                          "SETUP-3")
        if any(len(f) != logic.NUM_COLORS_PER_FACTORY for f in factories):
            raise Refused("illegal_move", f"the engine's deal puts 4 tiles on every factory (logic.py:257-258), "
                                          f"not {factories}")
        # reset pours the lid into the bag when the bag holds fewer tiles than the deal (logic.py:247-250), then
        # draws from it: the asked tiles must be in what it draws from.
        needed = game.numFactories * logic.NUM_COLORS_PER_FACTORY
        pool = [b + (d if sum(game.bag) < needed else 0) for b, d in zip(game.bag, game.discard)]
        asked = [ORDER.index(c) + 1 for f in factories for c in f]
        if any(asked.count(colour) > pool[colour - 1] for colour in range(1, 6)):
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories}: it draws from "
                                          f"{letters_of_counts(pool)!r}")
        wanted = iter(asked)

        def draw(low, high):
            # draw_tiles walks the colours, taking away each one's count from the drawn index (logic.py:221-227):
            # the first index of a colour's run draws that colour.
            colour = next(wanted)
            return sum(game.bag[:colour - 1])
        self._deal(game, draw)
        return self.state()

    def _deal(self, game, draw) -> None:
        saved = copy.deepcopy(game)
        try:
            with engine_draw(draw), engine_speaking():
                game.reset()
        except Exception:
            self.game = saved
            raise
        self.phase, self.start = "offer", game.activePlayer

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        return {"moves": sorted(listed_moves(game))}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER)
        if self.phase != "offer":
            raise Refused("illegal_move", f"{move}: no take is due in phase {self.phase}", "OFFER-15")
        if move not in listed_moves(game):
            raise Refused("illegal_move", f"{move} is not a take the engine accepts (Table.is_valid, "
                                          "logic.py:367-383)")
        source, colour, line = parse(move)
        saved = copy.deepcopy(game)
        dealt = []
        # The engine deals the next round at once (reset, logic.py:310-311); the protocol's deal comes as its own
        # request, so the engine's reset is called then instead, on the same bag and lid.
        game.reset = lambda: dealt.append(True)
        try:
            with engine_speaking():
                game.step_move(colour, source, line)
        except Exception:
            self.game = saved
            raise
        finally:
            vars(game).pop("reset", None)
        if dealt:
            game.factory = [[] for _ in range(game.numFactories)]
            game.center = []
            self.phase = "deal"
        elif game.is_game_over():
            self.phase = "over"
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.start = build(state)
        return self.state()

    def to_state(self) -> dict:
        game = self.game
        holders = [seat for seat, board in enumerate(game.player) if MARKER in board.floor]
        if self.phase == "offer" and MARKER not in game.center and holders:
            marker = holders[0]
        else:
            marker = "centre"
        # Tiles the engine keeps on its floor list beyond the seven spaces are charged nothing and go to the lid
        # at the tiling (logic.py:66, 78): the rules put them in the lid at once (FLOOR-2).
        beyond = [tile for board in game.player for tile in board.floor[FLOOR_SPACES:] if tile != MARKER]
        lid = list(game.discard)
        for tile in beyond:
            lid[tile - 1] += 1
        if self.phase == "over":
            scores = [board.score for board in game.player]
            # game.py:336, the engine's only winner: max(enumerate(scores), key=score), the first top seat alone
            winners = [max(enumerate(scores), key=lambda x: x[1])[0]]
            rounds = game.roundIdx
        else:
            winners, rounds = None, game.roundIdx + 1
        return {
            "format": "azul-state/1", "variant": "colour", "players": game.numPlayers, "round": rounds,
            "phase": self.phase, "turn": game.activePlayer,
            "start_player": game.activePlayer if self.phase == "deal" else self.start,
            "marker": marker,
            "factories": [letters(f) for f in game.factory],
            "centre": letters(game.center),
            "bag": letters_of_counts(game.bag),
            "lid": letters_of_counts(lid),
            "boards": [board_state(board) for board in game.player],
            "winners": winners,
        }


def undeal(game) -> None:
    """Puts a deal the engine made by itself back into its bag (a count of each colour)."""
    for factory in game.factory:
        for tile in factory:
            game.bag[tile - 1] += 1
    game.factory = [[] for _ in range(game.numFactories)]
    game.center = []


def parse(move: str) -> tuple[int, int, int]:
    """A take in the notation as the engine's (factory, colour, line): the centre and the floor are -1."""
    source = -1 if move[0] == "C" else int(move[0]) - 1
    line = -1 if move[2] == "F" else int(move[2]) - 1
    return source, ORDER.index(move[1]) + 1, line


def listed_moves(game) -> set[str]:
    """The takes the engine accepts: each colour of each source, to each line Table.is_valid allows and to the
    floor, which it always allows (logic.py:367-383)."""
    moves = set()
    sources = [(-1, game.center)] + list(enumerate(game.factory))
    for source, tiles in sources:
        label = "C" if source == -1 else str(source + 1)
        for colour in sorted({t for t in tiles if t != MARKER}):
            for line in range(-1, 5):
                if game.is_valid(colour, source, line):
                    moves.add(f"{label}{ORDER[colour - 1]}{'F' if line == -1 else line + 1}")
    return moves


def board_state(board) -> dict:
    return {"score": int(board.score),
            "lines": [letters(line, keep_order=True) for line in board.line],
            "wall": ["".join(ORDER[int(v) - 1] if v else "." for v in row) for row in board.grid],
            "floor": "".join("M" if t == MARKER else ORDER[t - 1] for t in board.floor[:FLOOR_SPACES])}


def letters(tiles, keep_order=False) -> str:
    found = [ORDER[t - 1] for t in tiles if t != MARKER]
    return "".join(found) if keep_order else "".join(sorted(found, key=ORDER.index))


def letters_of_counts(counts) -> str:
    return "".join(ORDER[k] * n for k, n in enumerate(counts))


def colours_of(text) -> list[int]:
    if not isinstance(text, str) or set(text) - set(ORDER):
        raise Refused("bad_request", f"state: {text!r} is not a string of the letters B Y R K W")
    return [ORDER.index(c) + 1 for c in text]


def counts_of(text) -> list[int]:
    colours = colours_of(text)
    return [colours.count(k) for k in range(1, 6)]


def build(state) -> tuple:
    """The engine's Table in the position of an azul-state/1 document (phases deal and offer), through the
    engine's own loader, Table.load_state (logic.py:230-242)."""
    players = check_state(state)  # what no adapter loads, whatever its engine offers
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the engine has only the coloured wall (GRID_PATTERN, logic.py:15-20)")
    phase = state.get("phase")
    if phase not in ("deal", "offer"):
        raise Refused("unsupported", f"phase {phase!r}: the engine holds no game that is over or mid-tiling")
    try:
        turn, start, marker = state["turn"], state["start_player"], state["marker"]
        if not seat_value(turn, players) or not seat_value(start, players) \
                or (marker != "centre" and not seat_value(marker, players)):
            raise Refused("bad_request", "state: turn, start_player and marker are seats (marker or \"centre\")")
        factories = state["factories"]
        if not isinstance(factories, list) or len(factories) != logic.NUM_FACTORY_VS_PLAYER[players]:
            raise Refused("bad_request", f"state: a {players}-player game has "
                                         f"{logic.NUM_FACTORY_VS_PLAYER[players]} factories")
        boards = state["boards"]
        if not isinstance(boards, list) or len(boards) != players:
            raise Refused("bad_request", f"state: {players} boards expected")
        loaded = []
        for seat, board in enumerate(boards):
            score = board["score"]
            if not isinstance(score, int) or isinstance(score, bool) or score < 0:
                raise Refused("bad_request", "state: a score is a whole number, never below 0")
            lines = board["lines"]
            if not isinstance(lines, list) or len(lines) != 5 \
                    or any(not isinstance(line, str) or len(line) > n + 1 or len(set(line)) > 1
                           for n, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            wall = board["wall"]
            if not isinstance(wall, list) or len(wall) != 5 \
                    or any(not isinstance(row, str) or len(row) != 5 for row in wall):
                raise Refused("bad_request", "state: a wall is five rows of five spaces")
            grid = []
            for r, row in enumerate(wall):
                cells = []
                for c, cell in enumerate(row):
                    if cell == ".":
                        cells.append(0)
                        continue
                    colour = colours_of(cell)[0]
                    if logic.GRID_PATTERN[r][c] != colour:
                        raise Refused("bad_request", f"state: wall row {r + 1} has {cell} off its printed space "
                                                     "(the engine's wall is the coloured one)")
                    cells.append(colour)
                grid.append(cells)
            floor = board["floor"]
            if not isinstance(floor, str) or len(floor) > FLOOR_SPACES or floor.count("M") > 1:
                raise Refused("bad_request", "state: a floor has at most 7 spaces and one marker")
            laid = [MARKER if c == "M" else colours_of(c)[0] for c in floor]
            if phase == "offer" and marker == seat and MARKER not in laid:
                laid.append(MARKER)  # taken onto a full floor: held, on no space (FLOOR-5), as the engine keeps it
            loaded.append({"grid": grid, "line": [colours_of(line) for line in lines], "score": score,
                           "floor": laid})
        centre = colours_of(state["centre"])
        if phase == "offer" and marker == "centre":
            centre.insert(0, MARKER)  # the engine's centre holds the marker until a take claims it (logic.py:259)
        rnd = state["round"]
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
            raise Refused("bad_request", "state: round is a whole number from 1")
        with engine_speaking():
            game = logic.Table(players)
        game.load_state({
            "factory": [colours_of(text) for text in factories], "center": centre, "player": loaded,
            # in phase deal the start player is the one the engine's turn comes back to after the deal
            "activePlayer": turn if phase == "offer" else start, "roundIdx": rnd - 1,
            "bag": counts_of(state["bag"]), "discard": counts_of(state["lid"]),
        })
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, phase, start


if __name__ == "__main__":
    sys.exit(serve(Table()))
