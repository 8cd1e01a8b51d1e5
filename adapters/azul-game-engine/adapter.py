#!/usr/bin/env python3
"""Protocol v1 for the third-party engine `azul-game-engine` (PyPI), so the conformance suite can judge it.

Licence note: azul-game-engine is GPL-3.0-or-later. This adapter only drives it from a separate process
over a pipe (protocol v1, JSON lines); no module of azul-conformance imports it, and this file imports nothing
of azul-conformance. This file itself is part of azul-conformance (MIT).

Run it with a Python that has the engine installed (Python >= 3.12); ./build makes one under .build/:
    adapters/azul-game-engine/build
    azul conform --engine "adapters/azul-game-engine/.build/venv/bin/python adapters/azul-game-engine/adapter.py"

How the engine's API maps to the protocol:
- State: the engine's objects are read attribute by attribute into azul-state/1 (factories, centre, bag, lid,
  pattern lines, wall, floor with the marker, scores). The engine has no round counter, no notion of the
  round's start player and no `deal` phase; the adapter counts rounds and records who starts each round.
- The deal: the engine deals by itself (in `Game()` and at the end of each round's tiling). Its tiling and its
  next deal happen in one call; the adapter splits them at the engine's own seam (`prepare_for_next_round`,
  deferred by a subclass until the protocol's `deal`), so the deal is an explicit step. The engine has no way
  to take a given deal from the bag (`change_factory_display` does not touch the bag): capability deal=false.
- Legal moves: the engine has no generator. Every move the notation can write is tried on a copy of the game;
  the ones the engine accepts are listed. That reports what the engine allows, not what the rules allow
  (checking by rules here would hide the engine's deviations from the suite).
- Moves: `<source><colour><line>` maps to `execute_factory_offer_phase_with_factory/center` with nothing put
  on the floor by choice; `...F` puts every taken tile on the floor. A move is played on a copy and kept only
  if the engine accepts it, because the engine changes the table before it raises (the protocol asks that a
  refused move leave the state unchanged).
- load_state: built from the engine's own constructors and attributes (Board, PatternLine, Wall, Floor, Lid,
  Bag, Center, FactoryDisplay), for the coloured wall in phases deal, offer and over.
- The grey wall does not exist in the engine: variants=["colour"].
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import random
import sys
from collections import OrderedDict
from importlib.metadata import version

from azul_game_engine.action_not_allowed_exception import ActionNotAllowedException
from azul_game_engine.bag import Bag
from azul_game_engine.board import Board
from azul_game_engine.center import Center
from azul_game_engine.factory_display import FactoryDisplay
from azul_game_engine.floor import Floor
from azul_game_engine.game import Game
from azul_game_engine.lid import Lid
from azul_game_engine.player import Player
from azul_game_engine.tile import Tile
from azul_game_engine.wall import Wall

COLOURS = "BYRKW"
TILE = {tile.value: tile for tile in Tile}
SEED: str | None = None  # --seed N: the engine's random deals repeat (see Adapter.seed_the_deal)
# The legal moves of the positions met, by a digest of the whole game (Adapter.legal_moves): the engine lists
# none, so each list is found by trying every take the notation can write, hundreds of them, on a copy
MOVES_SEEN: OrderedDict[bytes, list[str]] = OrderedDict()
MOVES_SEEN_LIMIT = 50_000  # positions kept, the least recently asked dropped first (a few MB)


class SteppedGame(Game):
    """The engine's Game, with the next round's deal deferred until the protocol asks for it."""

    deal_due = False

    def prepare_for_next_round(self):
        self.deal_due = True

    def deal_now(self):
        self.deal_due = False
        Game.prepare_for_next_round(self)


class Refused(Exception):
    def __init__(self, code, message, rule=None):
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


def text(tiles) -> str:
    letters = [str(t) for t in tiles]
    return "".join(c * letters.count(c) for c in COLOURS)


def tiles_of(letters: str) -> list:
    return [TILE[c] for c in letters]


class Adapter:
    def __init__(self) -> None:
        self.game: SteppedGame | None = None
        self.players = 2
        self.round = 1
        self.start_player = 0
        self.fresh = False  # a new game before its first deal (the engine deals as it is constructed)
        self.moves_cache: list[str] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self, request):
        if type(request.get("protocol", 1)) is not int or request.get("protocol", 1) != 1:  # not true, not 1.0
            raise Refused("bad_request", f"this adapter speaks protocol 1, not {request.get('protocol')!r}")
        return {"name": "azul-game-engine (via adapter)", "version": version("azul-game-engine"), "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour"], "load_state": True, "deal": False}}

    def new_game(self, request):
        players, variant = request.get("players"), request.get("variant", "colour")
        start = request.get("start_player", 0)
        if variant != "colour":
            raise Refused("unsupported", "azul-game-engine has no grey wall")
        if players not in (2, 3, 4) or not isinstance(start, int) or not 0 <= start < players:
            raise Refused("bad_request", f"players {players!r} / start_player {start!r}")
        self.game, self.players, self.round, self.start_player, self.fresh = None, players, 1, start, True
        self.moves_cache = None
        return {"state": self.state_json()}

    def seed_the_deal(self) -> None:
        """With --seed, seed the engine's `random` before each deal from the seed and the position to deal, so a
        deal depends on the game alone and not on what this process played before: the suite may run its cases
        in any order and spread them over several engine processes (-j), and each must get the same deals."""
        if SEED is not None:
            random.seed(f"{SEED}:{json.dumps(self.state_json(), sort_keys=True)}")

    def deal(self, request):
        if request.get("factories") is not None:
            raise Refused("unsupported", "azul-game-engine deals by itself; it cannot take a given deal")
        self.seed_the_deal()
        if self.fresh:
            lid = Lid()
            seats = [Player(Board(floor=Floor(lid)), name=str(i)) for i in range(self.players)]
            self.game = SteppedGame(seats, Center(), self.start_player, lid)
            self.fresh = False
        elif self.game is not None and self.game.deal_due:
            self.game.deal_now()
            self.start_player = self.game.current_player
        else:
            raise Refused("illegal_move", "no deal is due", "DEAL-1")
        self.moves_cache = None
        return {"state": self.state_json()}

    def legal_moves(self, request):
        if self.moves_cache is None:
            candidates = self.candidates()  # none before the first deal, in the deal phase, once it is over
            if not candidates:
                self.moves_cache = []
                return {"moves": []}
            # The list is a function of the game alone: one seen before (a property's shrinking plays the same
            # games again and again: 7 of 10 asked in a run) is answered from the positions' memo
            game = pickle.dumps(self.game, pickle.HIGHEST_PROTOCOL)
            key = hashlib.sha256(game).digest()
            if key not in MOVES_SEEN:
                table = Table.save(self.game)

                def accepted(move: str) -> bool:
                    taken = self.take(move, table)
                    return taken == "taken" if taken != "tiling" else self.try_move(move, blob=game) is not None

                MOVES_SEEN[key] = [m for m in candidates if accepted(m)]
                if len(MOVES_SEEN) > MOVES_SEEN_LIMIT:
                    MOVES_SEEN.popitem(last=False)
            MOVES_SEEN.move_to_end(key)
            self.moves_cache = MOVES_SEEN[key]
        return {"moves": list(self.moves_cache)}

    def play(self, request):
        move = request.get("move")
        if not isinstance(move, str) or len(move) != 3:
            raise Refused("bad_request", f"move {move!r} is not in the compact notation")
        if "@" in move:
            raise Refused("illegal_move", "there is no grey wall in this engine", "OFFER-15")
        game = self.try_move(move, keep_error=True)
        self.game, self.moves_cache = game, None
        if game.deal_due and game.is_running:
            self.round += 1
        return {"state": self.state_json()}

    def state(self, request):
        if self.game is None and not self.fresh:
            raise Refused("bad_request", "no game yet")
        return {"state": self.state_json()}

    def load_state(self, request):
        self.game, self.moves_cache = build_game(request.get("state")), None
        state = request["state"]
        self.players, self.round, self.start_player, self.fresh = state["players"], state["round"], \
            state["start_player"], False
        return {"state": self.state_json()}

    # -- moves -------------------------------------------------------------------------------------------------

    def candidates(self) -> list[str]:
        if self.game is None or self.game.deal_due or not self.game.is_running:
            return []
        sources = [str(i + 1) for i in range(len(self.game.factory_displays))] + ["C"]
        return [s + c + d for s in sources for c in COLOURS for d in "12345F"]

    def take(self, move: str, table: bytes) -> str:
        """Whether the engine accepts `move`, tried on a copy of the table alone (a copy of the whole game costs
        four times as much, and legal_moves tries every move the notation can write): "refused", "taken",
        or "tiling" when the take empties the table. The engine's Game adds nothing to a take but the turn and,
        once the table is empty, the tiling, so only a "tiling" take needs trying on a copy of the whole game."""
        player, factories, centre = Table.restore(table, self.game)
        source, tile, line = move[0], TILE[move[1]], move[2]
        pool = centre if source == "C" else factories[int(source) - 1]
        to_floor, index = (pool.count(tile), 0) if line == "F" else (0, int(line) - 1)
        try:
            if source == "C":
                player.take_tiles_from_center(centre, tile, to_floor, index)
            else:
                player.take_tiles_from_factory(pool, tile, to_floor, index)
        except (ActionNotAllowedException, IndexError, KeyError, ValueError, TypeError):
            return "refused"
        return "tiling" if all(f.is_empty() for f in factories) and centre.is_empty() else "taken"

    def try_move(self, move: str, keep_error: bool = False, blob: bytes | None = None):
        """The game after `move`, played on a copy; None (or Refused) when the engine refuses it."""
        try:
            if self.game is None or self.game.deal_due:
                raise Refused("illegal_move", "a deal is due: no move can be played", "OFFER-15")
            game = pickle.loads(blob or pickle.dumps(self.game, pickle.HIGHEST_PROTOCOL))
            apply_move(game, move)
            return game
        except Refused:
            if keep_error:
                raise
        except ActionNotAllowedException as error:
            if keep_error:
                raise Refused("illegal_move", f"the engine refused {move}: {error.message}") from None
        except (IndexError, KeyError, ValueError, TypeError) as error:
            if keep_error:
                raise Refused("illegal_move", f"the engine raised {type(error).__name__} for {move}: {error}") \
                    from None
        return None

    # -- the state ---------------------------------------------------------------------------------------------

    def state_json(self) -> dict:
        if self.game is None:
            return fresh_state(self.players, self.start_player)
        game = self.game
        holders = [i for i, p in enumerate(game.players) if p.board.floor.first_player_marker_position > -1]
        if game.deal_due or game.center.nobody_has_taken_from_center or not holders:
            marker = "centre"
        else:
            marker = holders[0]
        phase = "over" if not game.is_running else ("deal" if game.deal_due else "offer")
        turn = game.current_player
        return {
            "format": "azul-state/1", "variant": "colour", "players": len(game.players), "round": self.round,
            "phase": phase, "turn": turn, "start_player": turn if phase == "deal" else self.start_player,
            "marker": marker,
            "factories": [text(f.tiles) for f in game.factory_displays],
            "centre": text(game.center.tiles), "bag": text(game.bag.tiles), "lid": text(game.lid.tiles),
            "boards": [board_json(p) for p in game.players],
            "winners": [i for i, p in enumerate(game.players) if p.name in game.winners()] if phase == "over" else None,
        }


class Table(pickle.Pickler):
    """A copy of what a take can change: the player to move (pattern lines, floor), the factories, the centre.
    Two parts of the player's board are not copied: the wall, which a take only reads (`Board.
    add_tile_to_pattern_line` asks `wall.already_has`; only the tiling writes it), and the lid, which a take only
    adds the floor's overflow to: the copy gets an empty Lid of its own."""

    def persistent_id(self, obj):
        return "wall" if isinstance(obj, Wall) else "lid" if isinstance(obj, Lid) else None

    @classmethod
    def save(cls, game: Game) -> bytes:
        out = io.BytesIO()
        cls(out, pickle.HIGHEST_PROTOCOL).dump((game.players[game.current_player], game.factory_displays,
                                                game.center))
        return out.getvalue()

    @staticmethod
    def restore(blob: bytes, game: Game) -> tuple:
        wall = game.players[game.current_player].board.wall
        unpickler = pickle.Unpickler(io.BytesIO(blob))
        unpickler.persistent_load = lambda name: wall if name == "wall" else Lid()
        return unpickler.load()


def apply_move(game: Game, move: str) -> None:
    source, colour, line = move[0], move[1], move[2]
    tile = TILE.get(colour)
    if tile is None or line not in "12345F" or source not in "123456789C":
        raise Refused("bad_request", f"{move!r} is not a take in the compact notation")
    if source == "C":
        count = game.center.count(tile)
    else:
        count = game.factory_displays[int(source) - 1].count(tile)
    to_floor, index = (count, 0) if line == "F" else (0, int(line) - 1)
    if source == "C":
        game.execute_factory_offer_phase_with_center(tile, to_floor, index)
    else:
        game.execute_factory_offer_phase_with_factory(int(source) - 1, tile, to_floor, index)


def board_json(player: Player) -> dict:
    board = player.board
    floor = "".join(board.floor.json_list())
    if len(floor) > 7:  # the marker taken onto a full floor: the engine keeps it beyond the 7 spaces
        floor = floor.replace("M", "")
    return {"score": player.score,
            "lines": [str(line.tile) * line.tile_count if line.tile else "" for line in board.pattern_lines],
            "wall": ["".join(str(cell.tile) if cell.is_placed else "." for cell in row) for row in board.wall.tiles],
            "floor": floor}


def fresh_state(players: int, start: int) -> dict:
    board = {"score": 0, "lines": [""] * 5, "wall": ["....."] * 5, "floor": ""}
    return {"format": "azul-state/1", "variant": "colour", "players": players, "round": 1, "phase": "deal",
            "turn": start, "start_player": start, "marker": "centre", "factories": [""] * (1 + 2 * players),
            "centre": "", "bag": "".join(c * 20 for c in COLOURS), "lid": "",
            "boards": [dict(board, lines=[""] * 5, wall=["....."] * 5) for _ in range(players)], "winners": None}


def build_game(state) -> SteppedGame:
    """An engine Game in the position of an azul-state/1 document (coloured wall; phases deal, offer, over)."""
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        raise Refused("bad_request", "state: expected an azul-state/1 object")
    if state.get("variant") != "colour":
        raise Refused("unsupported", "azul-game-engine has no grey wall")
    if state.get("phase") not in ("deal", "offer", "over"):
        raise Refused("unsupported", f"phase {state.get('phase')!r} does not exist in this engine")
    try:
        lid = Lid()
        lid.tiles = tiles_of(state["lid"])
        seats = [build_player(i, b, lid, state["marker"] == i) for i, b in enumerate(state["boards"])]
        centre = Center()
        centre.tiles = tiles_of(state["centre"])
        centre.nobody_has_taken_from_center = state["marker"] == "centre"
        game = SteppedGame(seats, centre, state["turn"], lid)
        game.set_bag(Bag(tiles_of(state["bag"])))
        game.factory_displays = [FactoryDisplay(centre, tiles_of(f)) for f in state["factories"]]
        game.deal_due = state["phase"] == "deal"
        game.is_running = state["phase"] != "over"
        return game
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot build it ({type(error).__name__}: {error})") from None


def build_player(seat: int, data: dict, lid: Lid, has_marker: bool) -> Player:
    board = Board(floor=Floor(lid))
    for line, letters in zip(board.pattern_lines, data["lines"]):
        if letters:
            line.tile, line.tile_count = TILE[letters[0]], len(letters)
    for row, letters in zip(board.wall.tiles, data["wall"]):
        for cell, letter in zip(row, letters):
            cell.is_placed = letter != "."
    floor = data["floor"]
    board.floor.tiles = tiles_of(floor.replace("M", ""))
    if "M" in floor:
        board.floor.first_player_marker_position = floor.index("M")
    elif has_marker:
        board.floor.first_player_marker_position = len(board.floor.tiles)  # set aside beyond a full floor
    player = Player(board, name=str(seat))
    player.score = data["score"]
    return player


def serve(adapter: Adapter | None = None) -> int:
    """The protocol loop, around `adapter` (the azul-marl-env adapter passes its own)."""
    global SEED
    if "--seed" in sys.argv:
        SEED = sys.argv[sys.argv.index("--seed") + 1]
    adapter = adapter or Adapter()
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise Refused("bad_request", "a request is a JSON object")
            command = request.get("cmd")
            if command == "quit":
                return 0
            if not isinstance(request.get("id"), (int, str)) or isinstance(request.get("id"), bool):
                raise Refused("bad_request", "a request needs an id (an integer or a string)")
            request_id = request["id"]
            handler = getattr(adapter, command, None) if command in (
                "hello", "new_game", "deal", "legal_moves", "play", "state", "load_state") else None
            if handler is None:
                raise Refused("bad_request", f"unknown cmd {command!r}")
            reply = {"id": request_id, "ok": True, **handler(request)}
        except Refused as error:
            reply = {"id": request_id, "ok": False, "error": {"code": error.code, "message": error.message,
                                                             **({"rule": error.rule} if error.rule else {})}}
        except ValueError as error:
            reply = {"id": request_id, "ok": False, "error": {"code": "bad_request", "message": str(error)}}
        except Exception as error:  # noqa: BLE001 - an engine failure is reported, the adapter serves on
            print(f"internal: {type(error).__name__}: {error}", file=sys.stderr)
            reply = {"id": request_id, "ok": False, "error": {"code": "internal",
                                                             "message": f"{type(error).__name__}: {error}"}}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
