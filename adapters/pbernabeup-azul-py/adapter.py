#!/usr/bin/env python3
"""Protocol v1 for pbernabeup/azul, an Azul in Python with computer players (MIT), so the suite can judge it.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.11+. The engine is
yours: $PBERNABEUP_AZUL_ROOT names your copy of pbernabeup/azul (the folder holding src/azul/game.py; this project
holds none of it). Run it:
    PBERNABEUP_AZUL_ROOT=/path/to/azul azul conform --engine "python3 adapters/pbernabeup-azul-py/adapter.py"

The engine is the class AzulGame (src/azul/game.py), its GameLogic (game_logic.py) and its computer players'
move list (cpu.py). Its game loop (AzulGame.play_game) plays whole games; the adapter calls the methods that loop
calls, one request at a time, and never the loop itself. README.md beside this file says, row by row, what the
engine offers and what the adapter adds; line numbers are at commit 3935bba.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

if not os.environ.get("PBERNABEUP_AZUL_ROOT"):
    sys.exit("adapter.py: set PBERNABEUP_AZUL_ROOT to your copy of pbernabeup/azul "
             "(the folder holding src/azul/game.py)")
sys.path.insert(0, str(Path(os.environ["PBERNABEUP_AZUL_ROOT"]) / "src"))

import azul.game as engine_game  # noqa: E402  (the path is set just above)
from azul.cpu import AzulCPU  # noqa: E402
from azul.game import AzulGame  # noqa: E402
from azul.models import Tile  # noqa: E402

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import ProtocolTable, Refused, check_factories, check_new_game, check_take, serve  # noqa: E402

ORDER = "BYRKW"  # the engine's colour letters are ours (game.py:26); its first-player token is the tile "1"
MARKER = "1"
SEED = int(os.environ.get("PBERNABEUP_AZUL_SEED", "0"))


class ArrangedShuffle:
    """Stands in for the engine module's `random` during a given deal: its shuffle puts the bag in the order
    under which the engine's draw (popping from the end, game.py:58 and 373) deals the asked factories."""

    def __init__(self, wanted: list[list[str]]) -> None:
        self.wanted = wanted

    def shuffle(self, bag: list) -> None:
        bag[:] = pop_order(bag, self.wanted)


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.game: AzulGame | None = None
        self.phase = "deal"
        self.start_player = 0
        self.winners: list[int] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "pbernabeup/azul (Python, via adapter)", "version": "3935bba", "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            # The engine's "free" mode asks each column at the keyboard in the middle of its tiling
            # (game.py:319-344); the adapter does not drive that dialogue.
            raise Refused("unsupported", "the adapter plays the engine's pattern mode (the coloured wall) only")
        game = AzulGame(players, "pattern", verbose=False)
        game.bag = [Tile(c) for c in game.colors for _ in range(20)]  # what setup_game fills it with (game.py:55)
        game.first_player_token = game.active_player = start_player
        self.game, self.phase, self.start_player, self.winners = game, "deal", start_player, None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal draws from a generator seeded by the position, never by what this process did before: the
        # suite runs its cases in any order over several engine processes (-j).
        engine_game.random.seed(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        self._draw(game)
        self._after_deal(game)
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        return {"moves": sorted({move_text(game, *m) for m in self._engine_moves(game)})}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER, "the adapter plays no grey wall, so no placements")
        if self.phase != "offer":
            raise Refused("illegal_move", f"{move}: no take is due in phase {self.phase}", "OFFER-15")
        if move[0] != "C" and int(move[0]) > len(game.factories):
            raise Refused("illegal_move", f"{move}: the game has factories 1 to {len(game.factories)}", "SETUP-3")
        source = game.center if move[0] == "C" else game.factories[int(move[0]) - 1]
        line = -1 if move[2] == "F" else int(move[2]) - 1
        # The engine's execute_move checks nothing (game.py:151-192): its players choose among the moves its
        # move list offers (cpu.py:421-445, the keyboard's choices game.py:224-296), and so does the adapter.
        if not any(s is source and c == move[1] and n == line for s, c, n in self._engine_moves(game)):
            raise Refused("illegal_move", f"{move}: not among the engine's possible moves")
        game.execute_move(game.players[game.active_player], source, move[1], line)
        game.active_player = (game.active_player + 1) % len(game.players)  # game.py:106
        if not (any(f.tiles for f in game.factories) or game.is_center_valid_choice()):  # game.py:96-99
            self._end_round(game)
        return self.state()

    def load_state(self, state) -> dict:
        self.game, self.phase, self.start_player = build(state)
        self.winners = list(state["winners"]) if self.phase == "over" and state.get("winners") else None
        return self.state()

    # -- helpers -----------------------------------------------------------------------------------------------

    @staticmethod
    def _engine_moves(game: AzulGame) -> list:
        """The engine's own list of possible moves for the player to move (cpu.py:421-445), over the sources its
        players choose from (cpu.py:73-75)."""
        sources = game.factories + ([game.center] if game.is_center_valid_choice() else [])
        return AzulCPU(game, "dummy").get_possible_moves(game.players[game.active_player], sources)

    def _draw(self, game: AzulGame) -> None:
        """The engine's draw: setup_game in the first round (game.py:53-59), reset_factories after each later
        round (game.py:362-376)."""
        if game.round_num == 1 and not game.discard:
            game.setup_game()
        else:
            game.reset_factories()
        self.phase = "offer"

    def _deal_given(self, game: AzulGame, factories) -> dict:
        check_factories(factories)
        if len(factories) != len(game.factories):
            raise Refused("illegal_move", f"the engine has {len(game.factories)} factories, not {len(factories)}",
                          "SETUP-3")
        wanted = [list(f) for f in factories]
        saved = snapshot(game)
        # The engine's only shuffles are random.shuffle of its bag (game.py:56, 369); this one orders the bag so
        # that its unchanged draw deals the asked tiles: any deal its draw could make by chance can be asked for.
        real_random = engine_game.random
        engine_game.random = ArrangedShuffle(wanted)
        try:
            if not (game.round_num == 1 and not game.discard) and len(game.bag) >= len(game.factories) * 4:
                game.bag[:] = pop_order(game.bag, wanted)  # no pour, no shuffle: the order was left to chance
            self._draw(game)
        finally:
            engine_game.random = real_random
        got = [letters(f.tiles) for f in game.factories]
        if got != [letters(Tile(c) for c in f) for f in factories]:
            restore(game, saved)
            self.phase = "deal"
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")
        self._after_deal(game)
        return self.state()

    def _end_round(self, game: AzulGame) -> None:
        """What the game loop does after a round's offer (game.py:78-82, 298-302), the deal held back."""
        for player in game.players:
            game.move_to_wall(player)
        game.active_player = game.first_player_token  # play_round starts each round there (game.py:95)
        self.start_player = game.first_player_token
        # The loop counts the next round before it tests the end (game.py:79-80); the state's round is the last
        # one played once the game is over.
        if game.is_game_over():  # game.py:75
            game.end_game_scoring()
            top = max(game.players, key=lambda p: p.score)  # the winner play_game announces (game.py:85)
            self.winners = [game.players.index(top)]
            self.phase = "over"
        else:
            game.round_num += 1
            self.phase = "deal"

    def _after_deal(self, game: AzulGame) -> None:
        """A deal that leaves nothing to take: play_round's loop ends at once (game.py:96-99) and the tiling
        follows, as in the engine's loop."""
        if not (any(f.tiles for f in game.factories) or game.is_center_valid_choice()):
            self._end_round(game)

    def to_state(self) -> dict:
        game = self.game
        offer = self.phase == "offer"
        in_centre = any(t.color == MARKER for t in game.center.tiles)
        marker = "centre" if not offer or in_centre else game.first_player_token
        return {
            "format": "azul-state/1", "variant": "colour", "players": len(game.players), "round": game.round_num,
            "phase": self.phase, "turn": game.active_player, "start_player": self.start_player, "marker": marker,
            "factories": [letters(f.tiles) if offer else "" for f in game.factories],
            "centre": letters(game.center.tiles) if offer else "", "bag": letters(game.bag),
            # The engine's floor list has no end (game.py:184, 190-192): what lies past its seventh piece costs
            # nothing (game_logic.py:113-122 sums the first 7 penalties) and goes to the discard with the floor at
            # the tiling (game.py:359). The state shows the seven spaces, and the tiles past them in the lid.
            "lid": letters(list(game.discard) + [t for p in game.players for t in p.floor_line[7:]]),
            "boards": [{"score": p.score,
                        "lines": ["".join(t.color for t in line) for line in p.pattern_lines],
                        "wall": ["".join(c or "." for c in row) for row in p.wall],
                        "floor": "".join("M" if t.color == MARKER else t.color for t in p.floor_line[:7])}
                       for p in game.players],
            "winners": self.winners if self.phase == "over" else None,
        }


def snapshot(game: AzulGame) -> tuple:
    return list(game.bag), list(game.discard), [list(f.tiles) for f in game.factories], list(game.center.tiles)


def restore(game: AzulGame, saved: tuple) -> None:
    game.bag, game.discard = list(saved[0]), list(saved[1])
    for factory, tiles in zip(game.factories, saved[2]):
        factory.tiles = list(tiles)
    game.center.tiles = list(saved[3])


def move_text(game: AzulGame, source, colour: str, line: int) -> str:
    name = "C" if source is game.center else str(game.factories.index(source) + 1)
    return name + colour + ("F" if line == -1 else str(line + 1))


def letters(tiles) -> str:
    found = [t.color for t in tiles if t.color in ORDER]
    return "".join(sorted(found, key=ORDER.index))


def pop_order(bag: list, wanted: list[list[str]]) -> list:
    """The bag's tiles ordered so that popping from the end gives the asked factories, 4 pops a factory while
    the bag lasts, as far as its tiles allow (else the deal comes out different and is refused)."""
    pool = list(bag)
    drawn = []
    for want in wanted:
        need = list(want)
        for _ in range(4):
            if not pool:
                break
            tile = next((t for t in pool if need and t.color in need), None)
            if tile is None:
                tile = pool[-1]  # an asked tile is missing (or a factory asked short): the deal will differ
            else:
                need.remove(tile.color)
            pool.remove(tile)
            drawn.append(tile)
    return pool + drawn[::-1]


def build(state) -> tuple:
    """The engine's objects in the position of an azul-state/1 document (phases deal, offer, over)."""
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        raise Refused("bad_request", "state: expected an azul-state/1 object")
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the adapter plays the engine's pattern mode (the coloured wall) only")
    phase = state.get("phase")
    if phase not in ("deal", "offer", "over"):
        raise Refused("unsupported", f"phase {phase!r} does not exist on the coloured wall")
    try:
        n = state["players"]
        if n not in (2, 3, 4):
            raise Refused("bad_request", "state: players must be 2, 3 or 4")
        game = AzulGame(n, "pattern", verbose=False)
        tile = lambda c: Tile(MARKER if c == "M" else c)  # noqa: E731
        for field in ("bag", "lid", "centre"):
            if set(state[field]) - set(ORDER):
                raise Refused("bad_request", f"state: {field} holds letters other than B Y R K W")
        game.bag = [Tile(c) for c in state["bag"]]
        random.Random(SEED).shuffle(game.bag)
        game.discard = [Tile(c) for c in state["lid"]]
        if len(state["factories"]) != len(game.factories):
            raise Refused("bad_request", f"state: a {n}-player game has {len(game.factories)} factories")
        for factory, text in zip(game.factories, state["factories"]):
            factory.tiles = [Tile(c) for c in text]
        marker = state["marker"]
        game.center.tiles = ([Tile(MARKER)] if marker == "centre" and phase == "offer" else []) + \
            [Tile(c) for c in state["centre"]]
        if len(state["boards"]) != n:
            raise Refused("bad_request", f"state: {n} boards expected")
        for player, board in zip(game.players, state["boards"]):
            player.score = int(board["score"])
            lines = board["lines"]
            if len(lines) != 5 or any(len(line) > r + 1 or len(set(line)) > 1 or set(line) - set(ORDER)
                                      for r, line in enumerate(lines)):
                raise Refused("bad_request", "state: five pattern lines, line n holding up to n tiles of one colour")
            player.pattern_lines = [[Tile(c) for c in line] for line in lines]
            for r in range(5):
                for col in range(5):
                    cell = board["wall"][r][col]
                    if cell not in (".", game.wall_pattern[r][col]):
                        raise Refused("bad_request", f"state: wall row {r + 1} has {cell} off its printed space")
                    player.wall[r][col] = None if cell == "." else cell
            player.floor_line = [tile(c) for c in board["floor"]]
        turn, start = state["turn"], state["start_player"]
        if not all(isinstance(s, int) and 0 <= s < n for s in (turn, start)):
            raise Refused("bad_request", "state: turn and start_player are seats of the game")
        game.active_player = turn
        game.first_player_token = marker if isinstance(marker, int) and not isinstance(marker, bool) else start
        game.round_num = int(state["round"])
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return game, phase, start


if __name__ == "__main__":
    sys.exit(serve(Table()))
