#!/usr/bin/env python3
"""Protocol v1 for ummatias/azul, a command-line Azul in plain Python (MIT), so the suite can judge it.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.9+. The engine is
yours: $UMMATIAS_AZUL_ROOT names your copy of ummatias/azul (the folder holding src/game.py; this project holds
none of it). Run it:
    UMMATIAS_AZUL_ROOT=/path/to/azul azul conform --engine "python3 adapters/ummatias-azul-py/adapter.py"

The engine is three classes (src/game.py Game, src/gameboard.py GameBoard, src/playerboard.py PlayerBoard) and
a game loop that reads moves from the keyboard (Game.play_game). The adapter calls the same methods that loop
calls, one request at a time, and never the loop itself (it prints and waits for input). README.md beside this
file says, row by row, what the engine offers and what the adapter adds; line numbers are at commit 4e89370.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from pathlib import Path

if not os.environ.get("UMMATIAS_AZUL_ROOT"):
    sys.exit("adapter.py: set UMMATIAS_AZUL_ROOT to your copy of ummatias/azul (the folder holding src/game.py)")
sys.path.insert(0, str(Path(os.environ["UMMATIAS_AZUL_ROOT"]) / "src"))

import game as engine_game  # noqa: E402  (the path is set just above)
from game import Game  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import ProtocolTable, Refused, check_factories, check_new_game, check_take, serve  # noqa: E402

# The engine's tiles are emoji; its wall (playerboard.py:9-15) puts them where the coloured wall puts B Y R K W,
# so its green is our white and its square black is our black.
TILE = {"B": "🟦", "Y": "🟧", "R": "🟥", "K": "⬛", "W": "🟩"}
LETTER = {tile: letter for letter, tile in TILE.items()}
MARKER = "⬜"  # the engine's first-player marker: a piece in the centre and on the floor (gameboard.py:11)
ENGINE_PICK = {"B": "U", "Y": "Y", "R": "R", "K": "B", "W": "G"}  # the letters its pick input reads
ORDER = "BYRKW"
SEED = int(os.environ.get("UMMATIAS_AZUL_SEED", "0"))


class ArrangedShuffle:
    """Stands in for the engine module's `random` during a given deal: its shuffle puts the bag in the order
    under which the engine's draw (popping from the end, gameboard.py:24-28) deals the asked factories."""

    def __init__(self, wanted: list[list[str]]) -> None:
        self.wanted = wanted

    def shuffle(self, bag: list[str]) -> None:
        bag[:] = pop_order(bag, self.wanted)


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.phase = "deal"
        self.round = 1
        self.start_player = 0
        self.marker: str | int = "centre"
        self.winners: list[int] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "ummatias/azul (Python, via adapter)", "version": "4e89370", "protocol": 1,
                "capabilities": {"players": [2], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall")
        if players != 2:
            # Game(3) builds 7 factories, but its game loop shows exactly two boards (util.py:17, print_boards)
            # and records players 0 and 1 only (game.py:55-68): it plays two players.
            raise Refused("unsupported", "the engine's game loop plays two players")
        game = Game(players)
        game.current_player = start_player
        self.game, self.phase, self.round, self.start_player = game, "deal", 1, start_player
        self.marker, self.winners = "centre", None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal draws from a generator seeded by the position, never by what this process did before: the
        # suite runs its cases in any order over several engine processes (-j).
        engine_game.random.seed(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        saved = copy.deepcopy(game)
        try:
            self._draw(game)
        except IndexError:  # distribute_pieces pops from an empty bag (gameboard.py:24-28): the engine fails
            self.game = saved
            raise
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        moves = []
        sources = [str(i + 1) for i in range(len(game.game_board.stores))] + ["C"]
        for source in sources:
            for colour in ORDER:
                if TILE[colour] not in self._source(game, source):
                    continue
                for line in "12345F":
                    try:
                        take(trial_copy(game), source + colour + line)
                    except ValueError:
                        continue
                    moves.append(source + colour + line)
        return {"moves": moves}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER)
        if self.phase != "offer":
            raise Refused("illegal_move", f"{move}: no take is due in phase {self.phase}", "OFFER-15")
        if move[0] != "C" and int(move[0]) > len(game.game_board.stores):
            raise Refused("illegal_move", f"{move}: the game has factories 1 to {len(game.game_board.stores)}",
                          "SETUP-3")
        trial = trial_copy(game)  # the engine takes before it checks the line (game.py:85-96): undo on refusal
        marker_here = MARKER in trial.game_board.center
        try:
            take(trial, move)
        except ValueError as error:
            raise Refused("illegal_move", f"the engine refused {move}: {error}") from None
        self.game = game = trial
        if marker_here and move[0] == "C":
            self.marker = game.current_player
        game._advance_turn()  # game.py:104
        if game.all_stores_empty():  # game.py:63: the offer goes on while a factory or the centre holds a piece
            self._end_round(game)
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.round, self.start_player, self.marker = build(state)
        self.winners = list(state["winners"]) if self.phase == "over" and state.get("winners") else None
        return self.state()

    # -- helpers -----------------------------------------------------------------------------------------------

    @staticmethod
    def _source(game: Game, source: str) -> list[str]:
        return game.game_board.center if source == "C" else game.game_board.stores[int(source) - 1]

    def _draw(self, game: Game) -> None:
        """The engine's draw: the first round's start() shuffles the full bag (game.py:24-26), every later round
        refills the bag when it runs low (game.py:108, 151-154); then distribute_pieces fills each factory."""
        if self.round == 1 and not game.used_pieces:
            engine_game.random.shuffle(game.bag)
        else:
            game._refill_bag_if_needed()
        game.game_board.distribute_pieces(game.bag)  # may raise IndexError on an empty bag (gameboard.py:27)
        self.phase, self.marker = "offer", "centre"

    def _deal_given(self, game: Game, factories) -> dict:
        check_factories(factories)
        if len(factories) != len(game.game_board.stores):
            raise Refused("illegal_move", f"the engine has {len(game.game_board.stores)} factories, "
                                          f"not {len(factories)}", "SETUP-3")
        wanted = [[TILE[c] for c in f] for f in factories]
        saved = copy.deepcopy(game)
        # The engine's only shuffles are random.shuffle of its bag (game.py:25, 154); this one orders the bag so
        # that its unchanged draw deals the asked tiles: any deal its draw could make by chance can be asked for.
        real_random = engine_game.random
        engine_game.random = ArrangedShuffle(wanted)
        try:
            if self.round == 1 and not game.used_pieces:
                engine_game.random.shuffle(game.bag)
            else:
                game._refill_bag_if_needed()
            game.bag[:] = pop_order(game.bag, wanted)  # the bag's order before this draw was left to chance
            game.game_board.distribute_pieces(game.bag)
        except IndexError:
            self.game = saved
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories}: its bag runs out "
                                          "(gameboard.py:24-28 draws 4 tiles a factory)") from None
        finally:
            engine_game.random = real_random
        got = [letters(store) for store in game.game_board.stores]
        if got != [letters(w) for w in wanted]:
            self.game = saved
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")
        self.phase, self.marker = "offer", "centre"
        return self.state()

    def _end_round(self, game: Game) -> None:
        """What the game loop does once every factory and the centre are empty (game.py:105-109)."""
        game.current_player = game.find_starting_player()
        game.used_pieces.extend(game.turn_placement())
        if game.check_end_game():  # game.py:62: the loop stops when a wall row is complete
            self.phase = "over"
            scores = [player.score for player in game.players]
            # The engine's one statement of a winner, written to its history file (game.py:114-118).
            self.winners = [0] if scores[0] > scores[1] else [1]
            return
        # The loop refills and deals at once (game.py:108-109); the protocol's `deal` does that draw.
        self.phase, self.round = "deal", self.round + 1
        self.start_player, self.marker = game.current_player, "centre"

    def to_state(self) -> dict:
        game = self.game
        centre = [] if self.phase != "offer" else [p for p in game.game_board.center if p != MARKER]
        return {
            "format": "azul-state/1", "variant": "colour", "players": len(game.players), "round": self.round,
            "phase": self.phase, "turn": game.current_player, "start_player": self.start_player,
            "marker": self.marker,
            "factories": [letters(store) if self.phase == "offer" else "" for store in game.game_board.stores],
            "centre": letters(centre), "bag": letters(game.bag), "lid": letters(game.used_pieces),
            "boards": [{"score": player.score,
                        "lines": ["".join(LETTER[p] for p in line if p is not None) for line in player.build_tower],
                        "wall": ["".join(LETTER[tile] if filled else "." for tile, filled in row)
                                 for row in player.board],
                        "floor": "".join("M" if p == MARKER else LETTER[p]
                                         for p in player.broken_pieces if p is not None)}
                       for player in game.players],
            "winners": self.winners if self.phase == "over" else None,
        }


def trial_copy(game: Game) -> Game:
    """A copy of the game to take on: a take changes only the factories, the centre and the mover's board."""
    trial = copy.copy(game)
    trial.game_board = copy.deepcopy(game.game_board)
    trial.players = list(game.players)
    trial.players[game.current_player] = copy.deepcopy(game.players[game.current_player])
    return trial


def take(game: Game, move: str) -> None:
    """One take as the game loop makes it (game.py:80-100): the pick, then the pieces placed on the chosen line;
    what the line cannot hold goes to the floor (the loop would ask for another line, game.py:92-99: the
    notation has one destination, and the rules send the rest to the floor)."""
    source, colour, line = move
    pick = ("C" if source == "C" else str(int(source) - 1)) + ENGINE_PICK[colour]
    picked = game.turn_select(pick)
    player = game.players[game.current_player]
    rest = player.place_pieces_tower(picked, "b" if line == "F" else str(int(line) - 1))
    if rest:
        player.place_pieces_tower(rest, "b")


def letters(pieces) -> str:
    found = [LETTER[p] for p in pieces if p in LETTER]
    return "".join(sorted(found, key=ORDER.index))


def pop_order(bag: list[str], wanted: list[list[str]]) -> list[str]:
    """The bag's tiles ordered so that popping from the end gives the asked factories, 4 pops a factory, as far
    as the bag's tiles allow (else the deal comes out different and is refused)."""
    pool = list(bag)
    drawn = []
    for want in wanted:
        need = list(want)
        for _ in range(4):
            if not pool:
                break
            tile = next((t for t in need if t in pool), None)
            if tile is None:
                tile = pool[-1]  # an asked tile is missing (or a factory asked short): the deal will differ
            else:
                need.remove(tile)
            pool.remove(tile)
            drawn.append(tile)
    return pool + drawn[::-1]


def build(state) -> tuple:
    """The engine's objects in the position of an azul-state/1 document (phases deal, offer, over)."""
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        raise Refused("bad_request", "state: expected an azul-state/1 object")
    if state.get("variant") != "colour" or state.get("players") != 2:
        raise Refused("unsupported", "the engine plays only the 2-player game on the coloured wall")
    phase = state.get("phase")
    if phase not in ("deal", "offer", "over"):
        raise Refused("unsupported", f"phase {phase!r} does not exist on the coloured wall")
    try:
        game = Game(2)
        game.bag = [TILE[c] for c in state["bag"]]
        random.Random(SEED).shuffle(game.bag)
        game.used_pieces = [TILE[c] for c in state["lid"]]
        if len(state["factories"]) != 5:
            raise Refused("bad_request", "state: a 2-player game has 5 factories")
        game.game_board.stores = [[TILE[c] for c in f] for f in state["factories"]]
        centre = [TILE[c] for c in state["centre"]]
        marker = state["marker"]
        game.game_board.center = ([MARKER] if marker == "centre" and phase == "offer" else []) + centre
        for player, board in zip(game.players, state["boards"]):
            player.score = int(board["score"])
            lines = board["lines"]
            if len(lines) != 5 or any(len(line) > n + 1 or len(set(line)) > 1 for n, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            player.fill([[TILE[c] for c in line] + [None] * (n + 1 - len(line)) for n, line in enumerate(lines)])
            wall = board["wall"]
            for r in range(5):
                for col in range(5):
                    tile, _ = player.board[r][col]
                    if wall[r][col] not in (".", LETTER[tile]):
                        raise Refused("bad_request", f"state: wall row {r + 1} has {wall[r][col]} off its "
                                                     "printed space (the engine's wall is the coloured one)")
                    player.board[r][col] = (tile, 0 if wall[r][col] == "." else 1)
            floor = [MARKER if c == "M" else TILE[c] for c in board["floor"]]
            if len(floor) > 7:
                raise Refused("bad_request", "state: a floor has at most 7 spaces")
            player.broken_pieces = floor + [None] * (7 - len(floor))
        game.current_player = state["turn"]
        rnd, start = int(state["round"]), state["start_player"]
        if not (isinstance(game.current_player, int) and 0 <= game.current_player < 2 and start in (0, 1)):
            raise Refused("bad_request", "state: turn and start_player are seats 0 and 1")
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, phase, rnd, start, marker


if __name__ == "__main__":
    sys.exit(serve(Table()))
