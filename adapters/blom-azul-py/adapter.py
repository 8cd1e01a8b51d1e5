#!/usr/bin/env python3
"""Protocol v1 for michelleblom/AZUL, the COMP90054 (University of Melbourne) Azul framework, so the suite can judge it.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.9+ with numpy (the
engine imports it). The engine is yours: $BLOM_AZUL_ROOT names your copy of michelleblom/AZUL (the folder holding
model.py; this project holds none of it). Run it:
    BLOM_AZUL_ROOT=/path/to/AZUL azul conform --engine "python3 adapters/blom-azul-py/adapter.py"

The engine is model.py's GameState (factories, centre, bag, used bag) and PlayerState (pattern lines, wall grid,
floor, scoring), played by GameRunner.Run, a loop that asks each player object for a move from
PlayerState.GetAvailableMoves and executes it. The adapter calls the same methods that loop calls, in the same
order, one request at a time, and never the loop itself (it plays a whole game with its own players). README.md
beside this file says, row by row, what the engine offers and what the adapter adds; line numbers are at commit
2c984ac.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys

if not os.environ.get("BLOM_AZUL_ROOT"):
    sys.exit("adapter.py: set BLOM_AZUL_ROOT to your copy of michelleblom/AZUL (the folder holding model.py)")
sys.path.insert(0, os.environ["BLOM_AZUL_ROOT"])

import model  # noqa: E402  (the path is set just above)
from model import GameState, Move, Tile  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import (  # noqa: E402
    ProtocolTable, Refused, check_factories, check_new_game, check_state, check_take, serve)

ORDER = "BYRKW"  # the engine's Tile enum counts BLUE 0, YELLOW 1, RED 2, BLACK 3, WHITE 4: our order
SEED = int(os.environ.get("BLOM_AZUL_SEED", "0"))
FLOOR_SPACES = 7  # PlayerState.floor (model.py:120)


class ArrangedShuffle:
    """Stands in for model.py's `random` during a given deal. The engine's one shuffle in a deal is that of the
    used bag when the bag holds fewer than 4 tiles at the start of a factory (model.py:495-498), the used tiles
    then drawn after the bag's last ones; this shuffle orders them so that the unchanged draw (bag.pop(0),
    model.py:500-504) deals the asked tiles."""

    def __init__(self, wanted: list[list[int]], state: GameState) -> None:
        self.wanted, self.state = wanted, state

    def shuffle(self, tiles: list) -> None:
        # InitialiseFactory has emptied the factory being filled; those before it were filled with 4 tiles (the
        # used bag is poured only while it holds tiles), those after are still empty.
        filling = sum(1 for factory in self.state.factories if factory.total > 0)
        need = list(self.wanted[filling]) if filling < len(self.wanted) else []
        for tile in self.state.bag:  # the bag's last tiles are drawn first, into this factory
            if tile in need:
                need.remove(tile)
        tiles[:] = front_order(tiles, [need, *self.wanted[filling + 1:]])


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states. The engine's GameRunner.Run keeps whose turn it is as
    its loop's position in `player_order` (model.py:623-628, 634-661); the table keeps the same list and
    position."""

    def __init__(self) -> None:
        self.game: GameState | None = None
        self.phase = "deal"
        self.round = 1
        self.order: list[int] = []  # Run's player_order for the round under way, its entries as the engine has them
        self.pos = 0
        self.marker_space: dict[int, int] = {}  # the floor space the marker took, per seat (the engine keeps 0/1s)
        self.winners: list[int] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "michelleblom/AZUL (Python, via adapter)", "version": "2c984ac", "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall (model.py:76-112)")
        # The constructor shuffles the bag (model.py:452) and deals the first round at once (458-465); the new game
        # waits for its deal, so the factories' tiles go back into the bag, which is shuffled again.
        model.random.seed(f"{SEED}:new_game:{players}:{start_player}")
        game = GameState(players)
        game.bag = [tile for tile in Tile for _ in range(GameState.NUM_TILE_TYPE)]
        model.random.shuffle(game.bag)
        for factory in game.factories:
            empty(factory)
        game.first_player = start_player  # the constructor draws one at random (model.py:469)
        game.next_first_player = start_player  # what SetupNewRound makes the round's start player (model.py:518)
        start_traces(game)
        self.game, self.phase, self.round, self.order, self.pos = game, "deal", 1, [], 0
        self.marker_space, self.winners = {}, None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal draws from a generator seeded by the position, never by what this process did before: the
        # suite runs its cases in any order over several engine processes (-j).
        model.random.seed(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        self._setup_round(game)
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        return {"moves": sorted({move_text(move) for move in self._engine_moves(game)})}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER)
        if self.phase != "offer":
            raise Refused("illegal_move", f"{move}: no take is due in phase {self.phase}", "OFFER-15")
        listed = {move_text(m): m for m in self._engine_moves(game)}
        if move not in listed:
            # Run plays only a move of GetAvailableMoves' list (assert ValidMove, model.py:643): ExecuteMove
            # itself checks nothing.
            raise Refused("illegal_move", f"{move} is not among the engine's moves (GetAvailableMoves, "
                                          "model.py:204-304), the only ones its game loop plays (model.py:643)")
        player_id = self.order[self.pos]  # as Run passes it (model.py:635, 651), -1 included
        seat = player_id % len(game.players)
        saved = (copy.deepcopy(game), dict(self.marker_space))
        try:
            if listed[move][0] == Move.TAKE_FROM_CENTRE and not game.first_player_taken:
                taken = int(sum(game.players[seat].floor))
                if taken < FLOOR_SPACES:  # GiveFirstPlayerToken takes the leftmost free space (model.py:158-162)
                    self.marker_space[seat] = taken
            game.ExecuteMove(player_id, listed[move])
            if game.TilesRemaining():  # model.py:656-661: the loop goes on with the next entry of its order
                self.pos = (self.pos + 1) % len(self.order)
            else:
                self._end_round(game)
        except Exception:
            self.game, self.marker_space = saved
            raise
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.round, self.order, self.pos, self.marker_space = build(state)
        self.winners = list(state["winners"]) if self.phase == "over" and state.get("winners") else None
        return self.state()

    # -- helpers -----------------------------------------------------------------------------------------------

    def _engine_moves(self, game: GameState) -> list:
        return game.players[self.order[self.pos]].GetAvailableMoves(game)  # model.py:636-637

    def _setup_round(self, game: GameState) -> None:
        """The deal: SetupNewRound (model.py:509-522) fills each factory (InitialiseFactory, 483-504) and makes the
        marker's holder, or -1 when nobody took it, the round's first player; Run then orders the seats from it
        (model.py:679-686)."""
        game.SetupNewRound()
        n = len(game.players)
        self.order = list(range(game.first_player, n)) + list(range(0, game.first_player))
        self.pos, self.phase = 0, "offer"

    def _deal_given(self, game: GameState, factories) -> dict:
        check_factories(factories)
        if len(factories) != len(game.factories):
            raise Refused("illegal_move", f"the engine has {len(game.factories)} factories, not {len(factories)}",
                          "SETUP-3")
        wanted = [[Tile(ORDER.index(c)) for c in f] for f in factories]
        saved = (copy.deepcopy(game), list(self.order), self.pos)
        game.bag[:] = front_order(game.bag, wanted)  # the bag's order before this draw was left to chance
        real_random = model.random
        model.random = ArrangedShuffle(wanted, game)
        try:
            self._setup_round(game)
        except Exception:
            self.game, self.order, self.pos = saved
            self.phase = "deal"
            raise
        finally:
            model.random = real_random
        got = [letters_of(factory) for factory in game.factories]
        if got != ["".join(sorted(f, key=ORDER.index)) for f in factories]:
            self.game, self.order, self.pos = saved
            self.phase = "deal"
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")
        return self.state()

    def _end_round(self, game: GameState) -> None:
        """What Run does once no tile is left (model.py:659-687): every board's tiling, then the end if some
        board has a complete wall row, its bonuses added once per entry of the round's player order."""
        game.ExecuteEndOfRound()
        if any(game.players[i].GetCompletedRows() > 0 for i in self.order):  # model.py:670-676
            for i in self.order:  # model.py:694-696
                game.players[i].EndOfGameScore()
            scores = [int(player.score) for player in game.players]
            # The engine names no winner (Run returns the scores, run.py:27-30 prints them): the seats with the
            # top score, a tie shared (docs/validate-your-engine.md, 5.7).
            self.phase, self.winners = "over", [s for s, score in enumerate(scores) if score == max(scores)]
            return
        # Run sets up the next round at once (model.py:679-680); the protocol's `deal` does it.
        self.phase, self.round = "deal", self.round + 1

    def to_state(self) -> dict:
        game = self.game
        n = len(game.players)
        if self.phase == "offer":
            turn, start = self.order[self.pos] % n, game.first_player % n
            marker = game.next_first_player % n if game.first_player_taken else "centre"
        else:  # the next round's first player, as SetupNewRound will make it (model.py:518), -1 the last seat
            turn = start = game.next_first_player % n
            marker = "centre"
        return {
            "format": "azul-state/1", "variant": "colour", "players": n, "round": self.round,
            "phase": self.phase, "turn": turn, "start_player": start, "marker": marker,
            "factories": [letters_of(factory) for factory in game.factories],
            "centre": letters_of(game.centre_pool), "bag": letters(game.bag), "lid": letters(game.bag_used),
            "boards": [board_state(player, self.marker_space.get(seat)) for seat, player in enumerate(game.players)],
            "winners": self.winners if self.phase == "over" else None,
        }


def board_state(player, marker_space: int | None) -> dict:
    floor = [ORDER[tile] for tile in player.floor_tiles]
    if int(sum(player.floor)) > len(player.floor_tiles):  # a space is taken by the marker, not a tile
        floor.insert(marker_space if marker_space is not None else 0, "M")
    return {"score": int(player.score),
            "lines": [ORDER[player.lines_tile[i]] * player.lines_number[i] if player.lines_tile[i] != -1 else ""
                      for i in range(5)],
            "wall": ["".join(ORDER[colour_at(player, r, c)] if player.grid_state[r][c] == 1 else "."
                             for c in range(5)) for r in range(5)],
            "floor": "".join(floor)}


def colour_at(player, row: int, column: int) -> int:
    """The colour printed at a wall space: grid_scheme[row][colour] is its column (model.py:83-112)."""
    return next(tile for tile in Tile if int(player.grid_scheme[row][tile]) == column)


def move_text(move) -> str:
    kind, factory, grab = move
    source = "C" if kind == Move.TAKE_FROM_CENTRE else str(factory + 1)
    line = "F" if grab.pattern_line_dest == -1 else str(grab.pattern_line_dest + 1)
    return source + ORDER[grab.tile_type] + line


def letters(tiles) -> str:
    return "".join(sorted((ORDER[tile] for tile in tiles), key=ORDER.index))


def letters_of(display) -> str:
    return "".join(ORDER[tile] * display.tiles[tile] for tile in Tile)


def empty(display) -> None:
    display.total = 0
    for tile in Tile:
        display.tiles[tile] = 0


def fill(display, text: str) -> None:
    empty(display)
    for c in text:
        display.AddTiles(1, Tile(ORDER.index(c)))


def start_traces(game: GameState) -> None:
    """Run starts every player's trace before the first turn (model.py:631-632): ExecuteMove and ScoreRound
    write to the round's entry (model.py:537, 407)."""
    for player in game.players:
        player.player_trace.StartRound()


def front_order(pool: list, wanted: list[list[int]]) -> list:
    """The pool's tiles ordered so that drawing from the front, 4 tiles a factory, gives the wanted factories (each
    a list of tiles in any order), as far as the pool holds them; from the first factory the pool cannot complete
    on, the rest follows in any order (the bag's last tiles, then the used bag's, or a deal that comes out
    different and is refused)."""
    rest = list(pool)
    front = []
    for factory in wanted:
        short = False
        for tile in factory:
            if tile in rest:
                rest.remove(tile)
                front.append(tile)
            else:
                short = True
        if short:
            break
    return front + rest


def tiles_of(text) -> list:
    if not isinstance(text, str) or set(text) - set(ORDER):
        raise Refused("bad_request", f"state: {text!r} is not a string of the letters B Y R K W")
    return [Tile(ORDER.index(c)) for c in text]


def build(state) -> tuple:
    """The engine's objects in the position of an azul-state/1 document (phases deal, offer, over)."""
    players = check_state(state)  # what no adapter loads, whatever its engine offers
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the engine has only the coloured wall (model.py:76-112)")
    phase = state.get("phase")
    if phase not in ("deal", "offer", "over"):
        raise Refused("unsupported", f"phase {phase!r} does not exist on the coloured wall")
    try:
        model.random.seed(f"{SEED}:load:{json.dumps(state, sort_keys=True)}")
        game = GameState(players)
        game.bag = tiles_of(state["bag"])
        random.Random(f"{SEED}:{state['bag']}").shuffle(game.bag)  # the engine's bag is always in shuffled order
        game.bag_used = tiles_of(state["lid"])
        if len(state["factories"]) != len(game.factories):
            raise Refused("bad_request", f"state: a {players}-player game has {len(game.factories)} factories")
        for factory, text in zip(game.factories, state["factories"]):
            tiles_of(text)
            fill(factory, text)
        tiles_of(state["centre"])
        fill(game.centre_pool, state["centre"])
        turn, start, marker = state["turn"], state["start_player"], state["marker"]
        seats = range(players)
        if any(not isinstance(v, int) or isinstance(v, bool) or v not in seats for v in (turn, start)) \
                or (marker != "centre" and (not isinstance(marker, int) or isinstance(marker, bool)
                                            or marker not in seats)):
            raise Refused("bad_request", "state: turn, start_player and marker are seats (marker or \"centre\")")
        game.first_player = start
        game.first_player_taken = marker != "centre"
        # SetupNewRound makes next_first_player the next round's first player (model.py:518); until the marker is
        # taken the engine holds -1 there (model.py:470, 519).
        game.next_first_player = marker if marker != "centre" else (start if phase == "deal" else -1)
        marker_space = {}
        if len(state["boards"]) != players:
            raise Refused("bad_request", f"state: {players} boards expected")
        for seat, (player, board) in enumerate(zip(game.players, state["boards"])):
            player.score = int(board["score"])
            lines = board["lines"]
            if len(lines) != 5 or any(len(line) > n + 1 or len(set(line)) > 1 for n, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            for n, line in enumerate(lines):
                tiles = tiles_of(line)
                player.lines_number[n] = len(tiles)
                player.lines_tile[n] = tiles[0] if tiles else -1
            wall = board["wall"]
            if len(wall) != 5 or any(not isinstance(row, str) or len(row) != 5 for row in wall):
                raise Refused("bad_request", "state: a wall is five rows of five spaces")
            for r in range(5):
                for c in range(5):
                    if wall[r][c] == ".":
                        continue
                    tile = tiles_of(wall[r][c])[0]
                    if int(player.grid_scheme[r][tile]) != c:
                        raise Refused("bad_request", f"state: wall row {r + 1} has {wall[r][c]} off its printed "
                                                     "space (the engine's wall is the coloured one)")
                    player.grid_state[r][c] = 1
                    player.number_of[tile] += 1  # kept by ScoreRound for the colour bonus (model.py:333)
            floor = board["floor"]
            if not isinstance(floor, str) or len(floor) > FLOOR_SPACES or floor.count("M") > 1:
                raise Refused("bad_request", "state: a floor has at most 7 spaces and one marker")
            player.floor_tiles = tiles_of(floor.replace("M", ""))
            player.floor = [1] * len(floor) + [0] * (FLOOR_SPACES - len(floor))
            if "M" in floor:
                marker_space[seat] = floor.index("M")
        start_traces(game)
        rnd = int(state["round"])
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    order = list(range(start, players)) + list(range(0, start))  # Run's player_order (model.py:623-628)
    return game, phase, rnd, order, order.index(turn), marker_space


if __name__ == "__main__":
    sys.exit(serve(Table()))
