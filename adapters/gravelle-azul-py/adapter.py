#!/usr/bin/env python3
"""Protocol v1 for jhgravelle/azul-alphazero's Azul engine (engine/game.py, engine/player.py), for the suite to judge.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.10+ (the engine
needs nothing beyond the standard library). The engine is yours: $GRAVELLE_AZUL_ROOT names your copy of
jhgravelle/azul-alphazero (the folder holding engine/; this project holds none of it). Run it:
    GRAVELLE_AZUL_ROOT=/path/to/azul-alphazero azul conform --engine "python3 adapters/gravelle-azul-py/adapter.py"

The engine is Game (factories, centre, bag, discard, whose turn, setup_round, legal_moves, make_move, advance) and
Player (pattern lines, wall, floor, cached scoring). Its web game (api/main.py) checks a move against
Game.legal_moves, plays it with make_move and then calls advance, which moves the turn on and, at the end of the
offer, tiles, scores and ends the game or sets up the next round. The adapter calls the same methods in the same
order, one request at a time. README.md beside this file says what the engine offers and what the adapter adds;
line numbers are at commit ceb6c64.
"""

from __future__ import annotations

import json
import os
import random
import sys
import zlib

if not os.environ.get("GRAVELLE_AZUL_ROOT"):
    sys.exit("adapter.py: set GRAVELLE_AZUL_ROOT to your copy of jhgravelle/azul-alphazero (the folder with engine/)")
sys.path.insert(0, os.environ["GRAVELLE_AZUL_ROOT"])

from engine.constants import CENTER, COLUMN_FOR_TILE_IN_ROW, FLOOR, WALL_PATTERN, Tile  # noqa: E402
from engine.game import Game  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import (  # noqa: E402
    ArrangedShuffle, ProtocolTable, Refused, check_factories, check_new_game, check_state, check_take, pop_order, serve,
    seat_value)

ORDER = "BYRKW"
TILE_OF = {"B": Tile.BLUE, "Y": Tile.YELLOW, "R": Tile.RED, "K": Tile.BLACK, "W": Tile.WHITE}
LETTER_OF = {tile: letter for letter, tile in TILE_OF.items()}
SEED = int(os.environ.get("GRAVELLE_AZUL_SEED", "0"))
FLOOR_SPACES = 7  # FLOOR_PENALTIES (engine/constants.py:35); the engine's list holds more (player.py:58-61)


def seed_of(text: str) -> int:
    """A seed for Game(seed=...), which takes any falsy seed for 'draw one at random' (game.py:151)."""
    return zlib.crc32(text.encode()) + 1


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.phase = "deal"
        self.start = 0  # the round's start player: the engine does not keep it
        self.winners: list[int] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "jhgravelle/azul-alphazero (Python, via adapter)", "version": "ceb6c64", "protocol": 1,
                "capabilities": {"players": [2], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall (constants.py:48-51)")
        if players != 2:
            raise Refused("unsupported", "the engine plays 2 players only (constants.py:29-33: PLAYERS = 2, "
                                         "5 factories)")
        # The constructor fills and shuffles the bag (game.py:163-167) and deals nothing: the web game calls
        # setup_round next (api/main.py:476), the protocol's deal does.
        game = Game(seed=seed_of(f"{SEED}:new_game:{players}:{start_player}"))
        game.current_player_index = start_player  # the constructor starts seat 0 (game.py:160)
        self.game, self.phase, self.start, self.winners = game, "deal", start_player, None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal draws from a generator seeded by the position, never by what this process did before: the
        # suite runs its cases in any order over several engine processes (-j). The bag stays in shuffled order.
        rng = random.Random(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        rng.shuffle(game.bag)
        game._rng = rng
        self._setup_round(game)
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        return {"moves": sorted({move_text(move) for move in game.legal_moves()})}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER)
        if self.phase != "offer":
            raise Refused("illegal_move", f"{move}: no take is due in phase {self.phase}", "OFFER-15")
        listed = {move_text(m): m for m in game.legal_moves()}
        if move not in listed:
            # The web game refuses a move outside legal_moves (api/main.py:419-420); make_move checks nothing.
            raise Refused("illegal_move", f"{move} is not among the engine's moves (Game.legal_moves, "
                                          "game.py:363-382), the only ones its web game plays (api/main.py:419)")
        saved = game.clone()
        try:
            game.make_move(listed[move])  # api/main.py:426
            # Then advance (api/main.py:349-350, 432): the turn moves on; after the offer's last take, the tiling
            # and scoring (_score_round), the end of the game (is_game_over, _score_game) or, with skip_setup (the
            # web game's own option for factories filled by hand), a wait for the next deal.
            if game.advance(skip_setup=True):
                if game.is_game_over():
                    scores = [player.score for player in game.players]
                    # The web game names the sole top score and none on a tie (api/main.py:249-254): a tie is shared.
                    self.phase = "over"
                    self.winners = [seat for seat, score in enumerate(scores) if score == max(scores)]
                else:
                    self.phase = "deal"
        except Exception:
            self.game = saved
            raise
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.start = build(state)
        self.winners = None
        return self.state()

    # -- helpers -----------------------------------------------------------------------------------------------

    def _setup_round(self, game: Game) -> None:
        """The deal: setup_round (game.py:334-343) puts the marker in the centre and fills each factory with up to
        4 tiles from the bag; the turn is already the round's start player (_score_round, game.py:462-467)."""
        game.setup_round()
        self.start, self.phase = game.current_player_index, "offer"

    def _deal_given(self, game: Game, factories) -> dict:
        check_factories(factories)
        if len(factories) != len(game.factories):
            raise Refused("illegal_move", f"the engine has {len(game.factories)} factories, not {len(factories)}",
                          "SETUP-3")
        wanted = [[TILE_OF[c] for c in f] for f in factories]
        saved = game.clone()
        # The bag's order before this draw was left to chance: the order under which the draw deals the asked
        # factories, as far as the bag holds them; the rest is asked of the poured lid. The deal's only shuffle, in
        # Game._rng, is that of the discard poured into the emptied bag (_refill_bag, game.py:313-320), once every
        # tile the bag held has been drawn (_draw_from_bag pops from the end, 322-332).
        game.bag[:], remainder = pop_order(game.bag, wanted)
        game._rng = ArrangedShuffle(remainder)
        try:
            self._setup_round(game)
        except Exception:
            self.game, self.phase = saved, "deal"
            raise
        got = [letters(factory) for factory in game.factories]
        if got != ["".join(sorted(f, key=ORDER.index)) for f in factories]:
            self.game, self.phase = saved, "deal"
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")
        game._rng = saved._rng  # later draws go on from the game's own generator
        return self.state()

    def to_state(self) -> dict:
        game = self.game
        if self.phase == "offer":
            start = self.start
            holders = [seat for seat, player in enumerate(game.players) if Tile.FIRST_PLAYER in player.floor_line]
            marker = "centre" if Tile.FIRST_PLAYER in game.center or not holders else holders[0]
            rnd = game.round
        else:  # deal: the next round's start player is the turn already (game.py:448, 462-467)
            start, marker = game.current_player_index, "centre"
            rnd = game.round + 1 if self.phase == "deal" else game.round
        return {
            "format": "azul-state/1", "variant": "colour", "players": len(game.players), "round": rnd,
            "phase": self.phase, "turn": game.current_player_index, "start_player": start, "marker": marker,
            "factories": [letters(factory) for factory in game.factories],
            "centre": letters(game.center), "bag": letters(game.bag), "lid": letters(game.discard),
            "boards": [board_state(player) for player in game.players],
            "winners": self.winners if self.phase == "over" else None,
        }


def board_state(player) -> dict:
    lines = []
    for row in range(5):
        count = max(player.pattern_grid[row])
        lines.append(LETTER_OF[WALL_PATTERN[row][player.pattern_grid[row].index(count)]] * count if count else "")
    # The floor line's seven spaces, as the engine's own display shows them (_format_floor, player.py:401-413); the
    # engine keeps the tiles beyond them in the same list, off the spaces and out of the lid, until the tiling.
    floor = "".join("M" if tile == Tile.FIRST_PLAYER else LETTER_OF[tile]
                    for tile in player.floor_line[:FLOOR_SPACES])
    return {"score": player.score, "lines": lines,
            "wall": ["".join(LETTER_OF[WALL_PATTERN[r][c]] if player.wall[r][c] else "." for c in range(5))
                     for r in range(5)],
            "floor": floor}


def move_text(move) -> str:
    source = "C" if move.source == CENTER else str(move.source + 1)
    line = "F" if move.destination == FLOOR else str(move.destination + 1)
    return source + LETTER_OF[move.tile] + line


def letters(tiles) -> str:
    return "".join(sorted((LETTER_OF[tile] for tile in tiles if tile != Tile.FIRST_PLAYER), key=ORDER.index))


def tiles_of(text) -> list:
    if not isinstance(text, str) or set(text) - set(ORDER):
        raise Refused("bad_request", f"state: {text!r} is not a string of the letters B Y R K W")
    return [TILE_OF[c] for c in text]


def build(state) -> tuple:
    """The engine's objects in the position of an azul-state/1 document (phases deal and offer)."""
    players = check_state(state)  # what no adapter loads, whatever its engine offers
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the engine has only the coloured wall (constants.py:48-51)")
    if players != 2:
        raise Refused("unsupported", "the engine plays 2 players only (constants.py:29-33)")
    phase = state.get("phase")
    if phase not in ("deal", "offer"):
        raise Refused("unsupported", f"phase {phase!r}: the engine holds no game that is over or mid-tiling")
    try:
        game = Game(seed=seed_of(f"{SEED}:load:{json.dumps(state, sort_keys=True)}"))
        game.bag = tiles_of(state["bag"])
        random.Random(f"{SEED}:{state['bag']}").shuffle(game.bag)  # the engine's bag is always in shuffled order
        game.discard = tiles_of(state["lid"])
        if not isinstance(state["factories"], list) or len(state["factories"]) != len(game.factories):
            raise Refused("bad_request", f"state: a {players}-player game has {len(game.factories)} factories")
        game.factories = [tiles_of(text) for text in state["factories"]]
        game.center = tiles_of(state["centre"])
        turn, start, marker = state["turn"], state["start_player"], state["marker"]
        if not seat_value(turn, players) or not seat_value(start, players) \
                or (marker != "centre" and not seat_value(marker, players)):
            raise Refused("bad_request", "state: turn, start_player and marker are seats (marker or \"centre\")")
        if phase == "offer" and marker == "centre":
            game.center.append(Tile.FIRST_PLAYER)  # setup_round puts it there (game.py:337)
        game.current_player_index = turn
        boards = state["boards"]
        if not isinstance(boards, list) or len(boards) != players:
            raise Refused("bad_request", f"state: {players} boards expected")
        for seat, (player, board) in enumerate(zip(game.players, boards)):
            score = board["score"]
            if not isinstance(score, int) or isinstance(score, bool) or score < 0:
                raise Refused("bad_request", "state: a score is a whole number, never below 0")
            player.score = score
            lines = board["lines"]
            if not isinstance(lines, list) or len(lines) != 5 \
                    or any(not isinstance(line, str) or len(line) > n + 1 or len(set(line)) > 1
                           for n, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            for row, line in enumerate(lines):
                tiles = tiles_of(line)
                if tiles:
                    player.pattern_grid[row][COLUMN_FOR_TILE_IN_ROW[tiles[0]][row]] = len(tiles)
            wall = board["wall"]
            if not isinstance(wall, list) or len(wall) != 5 \
                    or any(not isinstance(row, str) or len(row) != 5 for row in wall):
                raise Refused("bad_request", "state: a wall is five rows of five spaces")
            for r in range(5):
                for c in range(5):
                    if wall[r][c] == ".":
                        continue
                    if tiles_of(wall[r][c])[0] != WALL_PATTERN[r][c]:
                        raise Refused("bad_request", f"state: wall row {r + 1} has {wall[r][c]} off its printed "
                                                     "space (the engine's wall is the coloured one)")
                    player.wall[r][c] = 1
            floor = board["floor"]
            if not isinstance(floor, str) or len(floor) > FLOOR_SPACES or floor.count("M") > 1:
                raise Refused("bad_request", "state: a floor has at most 7 spaces and one marker")
            player.floor_line = [Tile.FIRST_PLAYER if c == "M" else tiles_of(c)[0] for c in floor]
            if phase == "offer" and marker == seat and "M" not in floor:
                # Taken onto a full floor: the engine appends it past the seventh space (player.py:287-288).
                player.floor_line.append(Tile.FIRST_PLAYER)
            # The scoring the engine caches as the board changes (player.py:112-150), worked out from the board
            # by the engine's own methods, as place() does after each take.
            player._update_pending()
            player._update_penalty()
            player._update_bonus()
        rnd = state["round"]
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
            raise Refused("bad_request", "state: round is a whole number from 1")
        game.round = rnd if phase == "offer" else rnd - 1  # setup_round counts the round it deals (game.py:336)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, phase, start


if __name__ == "__main__":
    sys.exit(serve(Table()))
