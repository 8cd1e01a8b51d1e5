#!/usr/bin/env python3
"""Protocol v1 for Fionan-Oxford/Azul-Python's Azul engine (azul_backend/), for the suite to judge.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.10+ (the engine
needs nothing beyond the standard library). The engine is yours: $FIONAN_AZUL_ROOT names your copy of
Fionan-Oxford/Azul-Python (the folder holding azul_backend/; this project holds none of it). Run it:
    FIONAN_AZUL_ROOT=/path/to/Azul-Python azul conform --engine "python3 adapters/fionan-azul-py/adapter.py"

The engine is one facade, Game (game.py): make_factory_offer(factory, colour) puts a take in the player's hand,
place_on_patternlines("lineN") puts it on a pattern line; a take no line can hold goes to the floor by itself.
The tiling, scoring, next round (with its deal) and end are done by the engine as the offer's last take is placed.
The engine lists no moves: its GUI (AzulGUI.py) asks Game for the lines a hand may go to. README.md beside this
file says what the adapter adds; line numbers are at commit 3dd6f72.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from collections import deque

if not os.environ.get("FIONAN_AZUL_ROOT"):
    sys.exit("adapter.py: set FIONAN_AZUL_ROOT to your copy of Fionan-Oxford/Azul-Python (the folder with "
             "azul_backend/)")
sys.path.insert(0, os.environ["FIONAN_AZUL_ROOT"])

import azul_backend.tilebag as tilebag_module  # noqa: E402
from azul_backend.game import Game  # noqa: E402
from azul_backend.states import GameState  # noqa: E402
from azul_backend.tiles import ColourTile, P1Tile  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import (  # noqa: E402
    ArrangedShuffle, ProtocolTable, Refused, check_factories, check_new_game, check_state, check_take, pop_order, serve,
    seat_value)

ORDER = "BYRKW"
NAME_OF = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
LETTER_OF = {name: letter for letter, name in NAME_OF.items()}
LINES = ["line1", "line2", "line3", "line4", "line5"]
SEED = int(os.environ.get("FIONAN_AZUL_SEED", "0"))


def parts(game: Game) -> dict:
    """The engine's private parts, by their mangled names (the facade exposes copies only)."""
    return {
        "factory": game._Game__my_factories,
        "patternlines": [game._Game__player1_patternlines, game._Game__player2_patternlines],
        "floors": [game._Game__player1_floor, game._Game__player2_floor],
        "walls": [game._Game__player1_wall, game._Game__player2_wall],
    }


def bag_of(game: Game):
    return game._Game__my_factories._Factory__my_tiles


def factory_lists(game: Game) -> list[list]:
    factory = game._Game__my_factories
    return [factory._factory1, factory._factory2, factory._factory3, factory._factory4, factory._factory5]


def set_factories(game: Game, lists: list[list]) -> None:
    factory = game._Game__my_factories
    factory._factory1, factory._factory2, factory._factory3, factory._factory4, factory._factory5 = lists


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.phase = "deal"
        self.start = 0
        self.winners: list[int] | None = None

    def hello(self) -> dict:
        return {"name": "Fionan-Oxford/Azul-Python (Python, via adapter)", "version": "3dd6f72", "protocol": 1,
                "capabilities": {"players": [2], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall (tiles.py:214-259)")
        if players != 2:
            raise Refused("unsupported", "the engine plays 2 players only (game.py:9, factory.py:28-34)")
        game = Game()  # fills the bag and deals the first round at once (factory.py:36-57)
        undeal(game)
        # The engine has no start player to choose: player 1 always opens the game (game.py:10, 147), whatever
        # start_player asks; the adapter plays the engine as it is.
        self.game, self.phase, self.start, self.winners = game, "deal", 0, None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal is drawn by the engine from a bag shuffled by the position, never by what this process did
        # before: the suite runs its cases in any order over several engine processes (-j).
        rng = random.Random(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        rng.shuffle(bag_of(game)._TileBag__tile_bag)
        saved = tilebag_module.random
        tilebag_module.random = rng
        try:
            game._Game__my_factories.reset_factory()
        finally:
            tilebag_module.random = saved
        self.phase = "offer"
        return self.state()

    def _deal_given(self, game: Game, factories) -> dict:
        check_factories(factories)
        if len(factories) != 5:
            raise Refused("illegal_move", f"the engine has 5 factories, not {len(factories)}", "SETUP-3")
        saved_game = copy.deepcopy(game)
        bag = bag_of(game)
        wanted = [list(f) for f in factories]
        letters_in_bag = [LETTER_OF[t.get_tile_type()] for t in bag._TileBag__tile_bag]
        ordered, remainder = pop_order(letters_in_bag, wanted)
        bag._TileBag__tile_bag = [ColourTile(NAME_OF[c]) for c in ordered]
        saved = tilebag_module.random
        # The bag is refilled and shuffled only when it runs empty mid-deal (tilebag.py:71-76); the draw pops from
        # the end (tilebag.py:78). Tiles are alike by their colour.
        tilebag_module.random = ArrangedShuffle([ColourTile(NAME_OF[c]) for c in remainder],
                                                key=lambda tile: tile.get_tile_type())
        try:
            game._Game__my_factories.reset_factory()
        except Exception:
            self.game = saved_game
            raise
        finally:
            tilebag_module.random = saved
        got = [letters(f) for f in factory_lists(game)]
        if got != ["".join(sorted(f, key=ORDER.index)) for f in factories]:
            self.game = saved_game
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag: it would "
                                          f"deal {got}")
        self.phase = "offer"
        return self.state()

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
            raise Refused("illegal_move", f"{move} is not a take the engine accepts (make_factory_offer and "
                                          "place_on_patternlines, game.py:264-350)")
        saved = copy.deepcopy(game)
        bag_before = copy.deepcopy(bag_of(game))
        rounds = game.rounds_played
        try:
            source = 0 if move[0] == "C" else int(move[0])
            game.make_factory_offer(source, NAME_OF[move[1]])
            if game.show_hand():  # else the engine put the take on the floor itself (_forced_move, game.py:382)
                game.place_on_patternlines(f"line{move[2]}")
        except Exception:
            self.game = saved
            raise
        if game.show_game_state() == GameState.GAMEOVER:
            scores = [game.show_score(1), game.show_score(2)]
            self.phase = "over"
            # The engine names no winner (game.py:13 and nowhere else): the seats with the top score, a tie shared.
            self.winners = [seat for seat, score in enumerate(scores) if score == max(scores)]
        elif game.rounds_played != rounds:
            # The engine dealt the next round at once (game.py:511); the protocol's deal comes as its own request,
            # so that draw is put back: the bag as it stood before it (the deal is the bag's only use).
            factory = game._Game__my_factories
            factory._Factory__my_tiles = bag_before
            set_factories(game, [[], [], [], [], []])
            self.phase = "deal"
            self.start = game.show_current_player() - 1
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.start = build(state)
        self.winners = None
        return self.state()

    def to_state(self) -> dict:
        game = self.game
        p = parts(game)
        centre = game._Game__my_factories._centretable
        holders = [seat for seat in (0, 1) if p["floors"][seat].check_player1_tile]
        if self.phase == "offer":
            marker = "centre" if any(type(t) is P1Tile for t in centre) or not holders else holders[0]
        else:
            marker = "centre"
        return {
            "format": "azul-state/1", "variant": "colour", "players": 2, "round": game.rounds_played + 1,
            "phase": self.phase, "turn": game.show_current_player() - 1,
            "start_player": self.start if self.phase != "deal" else game.show_current_player() - 1,
            "marker": marker,
            "factories": [letters(f) for f in factory_lists(game)],
            "centre": letters(centre),
            "bag": letters(bag_of(game)._TileBag__tile_bag),
            "lid": "",  # the engine has no lid: discarded tiles are deleted (game.py:16)
            "boards": [board_state(game, seat) for seat in (0, 1)],
            "winners": self.winners if self.phase == "over" else None,
        }


def undeal(game: Game) -> None:
    """Puts a deal the engine made by itself back into its bag, in the order it was drawn (pops from the end)."""
    bag = bag_of(game)
    for tiles in reversed(factory_lists(game)):
        for tile in reversed(tiles):
            bag._TileBag__tile_bag.append(tile)
            bag._TileBag__size += 1
    set_factories(game, [[], [], [], [], []])


def listed_moves(game: Game) -> set[str]:
    """The takes the engine accepts: a colour from a source, to each line _is_move_valid allows (game.py:352-380),
    or to the floor when _is_move_possible finds no line (game.py:302-308, 452-469). The engine offers no other
    way to the floor: place_on_patternlines takes only line1 to line5."""
    seat = game.show_current_player() - 1
    p = parts(game)
    lines, wall = p["patternlines"][seat], p["walls"][seat]
    fitting = {name: [n for n, line in enumerate(LINES, 1)
                      if name in lines.get_possible_moves(line) and name in wall.get_possible_moves(line)]
               for name in NAME_OF.values()}
    moves = set()
    for source in range(6):
        present = {t.get_tile_type() for t in game.show_factory(source) if type(t) is ColourTile}
        label = "C" if source == 0 else str(source)
        for name in present:
            for n in fitting[name] or ["F"]:
                moves.add(f"{label}{LETTER_OF[name]}{n}")
    return moves


def board_state(game: Game, seat: int) -> dict:
    p = parts(game)
    lines = []
    for line in LINES:
        tiles = [t for t in p["patternlines"][seat]._PatternLines__player_patternlines[line] if t is not None]
        lines.append("".join(LETTER_OF[t.get_tile_type()] for t in tiles))
    wall = p["walls"][seat]._Wall__player_wall
    # The engine puts each floor tile in at the left (floor.py:48-52): the first tile laid is the rightmost.
    floor = [t for t in reversed(p["floors"][seat]._Floor__player_floor) if t is not None]
    return {"score": game.show_score(seat + 1), "lines": lines,
            "wall": ["".join(LETTER_OF[t.get_tile_type()] if t is not None else "." for t in wall[line])
                     for line in LINES],
            "floor": "".join("M" if type(t) is P1Tile else LETTER_OF[t.get_tile_type()] for t in floor)}


def letters(tiles) -> str:
    return "".join(sorted((LETTER_OF[t.get_tile_type()] for t in tiles if type(t) is ColourTile),
                          key=ORDER.index))


def tiles_of(text) -> list:
    if not isinstance(text, str) or set(text) - set(ORDER):
        raise Refused("bad_request", f"state: {text!r} is not a string of the letters B Y R K W")
    return [ColourTile(NAME_OF[c]) for c in text]


def build(state) -> tuple:
    """The engine's objects in the position of an azul-state/1 document (phases deal and offer)."""
    players = check_state(state)  # what no adapter loads, whatever its engine offers
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the engine has only the coloured wall (tiles.py:214-259)")
    if players != 2:
        raise Refused("unsupported", "the engine plays 2 players only (game.py:9)")
    phase = state.get("phase")
    if phase not in ("deal", "offer"):
        raise Refused("unsupported", f"phase {phase!r}: the engine holds no game that is over or mid-tiling")
    try:
        game = Game()
        undeal(game)
        bag = bag_of(game)
        bag._TileBag__tile_bag = tiles_of(state["bag"])
        random.Random(f"{SEED}:{state['bag']}").shuffle(bag._TileBag__tile_bag)
        bag._TileBag__size = len(bag._TileBag__tile_bag)
        if state["lid"]:
            raise Refused("unsupported", "the engine has no lid (game.py:16): a position with lid tiles cannot "
                                         "be set up")
        if not isinstance(state["factories"], list) or len(state["factories"]) != 5:
            raise Refused("bad_request", "state: a 2-player game has 5 factories")
        set_factories(game, [tiles_of(text) for text in state["factories"]])
        turn, start, marker = state["turn"], state["start_player"], state["marker"]
        if not seat_value(turn, 2) or not seat_value(start, 2) or (marker != "centre" and not seat_value(marker, 2)):
            raise Refused("bad_request", "state: turn, start_player and marker are seats (marker or \"centre\")")
        centre = tiles_of(state["centre"])
        if phase == "deal" or marker == "centre":
            centre.insert(0, P1Tile())  # the marker goes back to the empty centre between rounds (game.py:494)
        game._Game__my_factories._centretable = centre
        game._Game__current_player = turn + 1
        boards = state["boards"]
        if not isinstance(boards, list) or len(boards) != 2:
            raise Refused("bad_request", "state: 2 boards expected")
        p = parts(game)
        for seat, board in enumerate(boards):
            score = board["score"]
            if not isinstance(score, int) or isinstance(score, bool) or score < 0:
                raise Refused("bad_request", "state: a score is a whole number, never below 0")
            setattr(game, f"_Game__player{seat + 1}score", score)
            lines = board["lines"]
            if not isinstance(lines, list) or len(lines) != 5 \
                    or any(not isinstance(line, str) or len(line) > n + 1 or len(set(line)) > 1
                           for n, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            pattern = p["patternlines"][seat]
            for n, (name, line) in enumerate(zip(LINES, lines), 1):
                tiles = tiles_of(line)
                pattern._PatternLines__player_patternlines[name] = deque([None] * (n - len(tiles)) + tiles,
                                                                          maxlen=n)
                pattern._PatternLines__line_state[name] = (
                    "" if not tiles else "full" if len(tiles) == n else NAME_OF[line[0]])
            wall = board["wall"]
            if not isinstance(wall, list) or len(wall) != 5 \
                    or any(not isinstance(row, str) or len(row) != 5 for row in wall):
                raise Refused("bad_request", "state: a wall is five rows of five spaces")
            rows = p["walls"][seat]._Wall__player_wall
            for r, name in enumerate(LINES):
                for c in range(5):
                    if wall[r][c] == ".":
                        continue
                    tile = tiles_of(wall[r][c])[0]
                    if tile.wall_position(name) != c:
                        raise Refused("bad_request", f"state: wall row {r + 1} has {wall[r][c]} off its printed "
                                                     "space (the engine's wall is the coloured one)")
                    rows[name][c] = tile
            floor = board["floor"]
            if not isinstance(floor, str) or len(floor) > 7 or floor.count("M") > 1:
                raise Refused("bad_request", "state: a floor has at most 7 spaces and one marker")
            laid = [P1Tile() if c == "M" else tiles_of(c)[0] for c in floor]
            space = p["floors"][seat]
            space._Floor__player_floor = deque(list(reversed(laid)) + [None] * (7 - len(laid)), maxlen=7)
            space._Floor__floor_size = len(laid)
        rnd = state["round"]
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
            raise Refused("bad_request", "state: round is a whole number from 1")
        game.rounds_played = rnd - 1
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, phase, start


if __name__ == "__main__":
    sys.exit(serve(Table()))
