#!/usr/bin/env python3
"""Protocol v1 for BoardGameBench's Azul (BJTerry/BoardGameBench, bgbench/games/azul_game.py), for the suite to judge.

This file is part of azul-conformance (MIT) and imports nothing of it: it runs in any Python 3.10+ (the engine's Azul
needs nothing beyond the standard library). The engine is yours: $BGBENCH_ROOT names your copy of
BJTerry/BoardGameBench (the folder holding bgbench/; this project holds none of it). Run it:
    BGBENCH_ROOT=/path/to/BoardGameBench azul conform --engine "python3 adapters/bgbench-azul-py/adapter.py"

The engine is AzulGame (states are AzulState dataclasses, moves AzulMove). Its match runner (bgbench/match/runner.py)
shows each player get_player_view's valid moves, reads the answer with parse_move, checks it with validate_move and
plays it with get_next_state (apply_move), which at the offer's last take also tiles, scores, and either ends the
game with its bonuses or prepares and deals the next round; get_winner names the winner. The adapter calls the same
functions, one request at a time. README.md beside this file says what the adapter adds; line numbers are at commit
649e674.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import random
import sys
from collections import Counter

if not os.environ.get("BGBENCH_ROOT"):
    sys.exit("adapter.py: set BGBENCH_ROOT to your copy of BJTerry/BoardGameBench (the folder with bgbench/)")
sys.path.insert(0, os.environ["BGBENCH_ROOT"])

# bgbench/games/__init__.py imports every game of the benchmark (poker needs pokerkit): the Azul module is loaded by
# its path, with the two bgbench modules it imports (game.py, match/view.py).
_SPEC = importlib.util.spec_from_file_location(
    "bgbench_azul_game", os.path.join(os.environ["BGBENCH_ROOT"], "bgbench", "games", "azul_game.py"))
azul = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = azul
_SPEC.loader.exec_module(azul)

# the protocol loop every Python adapter here shares (adapters/python_protocol_v1.py: standard library only)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from python_protocol_v1 import (  # noqa: E402
    ArrangedShuffle, ProtocolTable, Refused, check_factories, check_new_game, check_state, check_take, pop_order, serve,
    seat_value)

ORDER = "BYRKW"
COLOUR_OF = {"B": azul.TileColor.BLUE, "Y": azul.TileColor.YELLOW, "R": azul.TileColor.RED,
             "K": azul.TileColor.BLACK, "W": azul.TileColor.WHITE}
LETTER_OF = {colour: letter for letter, colour in COLOUR_OF.items()}
SEED = int(os.environ.get("BGBENCH_AZUL_SEED", "0"))

# validate_move's refusals (azul_game.py:718-762) whose message says which rule; "Cannot place ... in pattern line"
# stands for three rules at once (can_place_in_pattern_line, 96-115), and is answered without one
RULE_OF_REFUSAL = (("It's not your turn", "OFFER-15"), ("Moves can only be made", "OFFER-15"),
                   ("tiles available", "OFFER-6"))


class Table(ProtocolTable):
    """One game of the engine, seen as protocol v1 states."""

    def __init__(self) -> None:
        self.engine: azul.AzulGame | None = None
        self.game: azul.AzulState | None = None
        self.phase = "deal"
        self.start = 0  # the round's start player: the engine does not keep it
        self.winners: list[int] | None = None

    # -- requests ----------------------------------------------------------------------------------------------

    def hello(self) -> dict:
        return {"name": "BJTerry/BoardGameBench Azul (Python, via adapter)", "version": "649e674", "protocol": 1,
                "capabilities": {"players": [2, 3, 4], "variants": ["colour"], "load_state": True, "deal": True}}

    def new_game(self, players, variant="colour", start_player=0) -> dict:
        check_new_game(players, variant, start_player)  # what the protocol refuses of any engine
        if variant != "colour":
            raise Refused("unsupported", "the engine has only the coloured wall (WALL_COLOR_ARRANGEMENT, "
                                         "azul_game.py:34-40)")
        engine = azul.AzulGame(players)
        # get_initial_state fills and shuffles the bag, draws a start player at random and deals the first round
        # (azul_game.py:539-571); its randomness comes from a generator seeded by the request.
        game = with_random(random.Random(f"{SEED}:new_game:{players}:{start_player}"), engine.get_initial_state)
        # The protocol's deal comes as its own request: the tiles dealt go back into the bag (they were drawn
        # from it, and no lid tile is needed for a first deal).
        game.tile_bag.extend(tile for factory in game.factory_displays for tile in tiles_in(factory))
        clear(game.factory_displays)
        # The start player is chosen outside the game (SETUP-5); the engine draws one at random (557-558) and
        # keeps it only as the player to move.
        game.current_player = start_player
        self.engine, self.game, self.phase, self.start, self.winners = engine, game, "deal", start_player, None
        return self.state()

    def _deal_random(self, game) -> dict:
        # Each deal is drawn by the engine from a bag shuffled by the position, never by what this process did
        # before: the suite runs its cases in any order over several engine processes (-j).
        rng = random.Random(f"{SEED}:{json.dumps(self.to_state(), sort_keys=True)}")
        rng.shuffle(game.tile_bag)
        with_random(rng, game.fill_factories_from_bag)
        self.phase = "offer"
        return self.state()

    def _deal_given(self, game, factories) -> dict:
        check_factories(factories)
        if len(factories) != len(game.factory_displays):
            raise Refused("illegal_move", f"the engine has {len(game.factory_displays)} factories, not "
                                          f"{len(factories)}", "SETUP-3")
        saved = copy.deepcopy(game)
        wanted = [[COLOUR_OF[c] for c in f] for f in factories]
        # The bag's order before this draw was left to chance: the order under which the draw deals the asked
        # factories, as far as the bag holds them; the rest is asked of the poured lid. The deal's only shuffle is
        # that of the lid poured into the emptied bag (fill_factories_from_bag, azul_game.py:485-490), once every
        # tile the bag held has been drawn (pop from the end, 496-498).
        game.tile_bag[:], remainder = pop_order(game.tile_bag, wanted)
        try:
            with_random(ArrangedShuffle(remainder), game.fill_factories_from_bag)
        except Exception:
            self.game = saved
            raise
        got = [letters(factory) for factory in game.factory_displays]
        if got != ["".join(sorted(f, key=ORDER.index)) for f in factories]:
            self.game = saved
            raise Refused("illegal_move", f"the engine's draw cannot deal {factories} from this bag and lid: "
                                          f"it would deal {got}")
        self.phase = "offer"
        return self.state()

    def legal_moves(self) -> dict:
        game = self._game()
        if self.phase != "offer":
            return {"moves": []}
        view = self.engine.get_player_view(game, game.current_player)  # valid_moves: azul_game.py:970-1000
        return {"moves": sorted({move_text(text) for text in view.valid_moves})}

    def play(self, move) -> dict:
        game = self._game()
        check_take(move, ORDER)
        if self.phase == "deal":
            # The engine deals inside the offer's last take (prepare_next_round, azul_game.py:500-520): no move
            # can reach it between a tiling and the next deal.
            raise Refused("illegal_move", f"{move}: no take is due before the deal", "OFFER-15")
        parsed = self.engine.parse_move(engine_text(move))
        if parsed is None:
            raise Refused("illegal_move", f"{move}: parse_move reads no move in {engine_text(move)!r}")
        valid, reason = self.engine.validate_move(game, game.current_player, parsed)
        if not valid:
            rule = next((rule for text, rule in RULE_OF_REFUSAL if text in reason), None)
            raise Refused("illegal_move", f"{move}: {reason} (validate_move, azul_game.py:718-762)", rule)
        after = self.engine.get_next_state(game, parsed)  # a new state: the old one is untouched (772)
        if self.engine.is_terminal(after):
            self.phase = "over"
            self.winners = winners_of(self.engine, after)
        elif after.round_number != game.round_number:
            # The engine dealt the next round at once (prepare_next_round, 509-510); the protocol's deal comes as
            # its own request, so that draw is put back.
            undeal(after, game.tile_bag)
            self.phase = "deal"
            self.start = after.current_player
        self.game = after
        return self.state()

    def load_state(self, state) -> dict:
        self.engine, self.game, self.phase, self.start = build(state)
        self.winners = None
        return self.state()

    # -- the state ---------------------------------------------------------------------------------------------

    def to_state(self) -> dict:
        game = self.game
        holders = [seat for seat, board in enumerate(game.player_boards) if board.has_first_player_marker]
        marker = holders[0] if self.phase == "offer" and not game.first_player_marker_in_center and holders \
            else "centre"
        return {
            "format": "azul-state/1", "variant": "colour", "players": len(game.player_boards),
            "round": game.round_number, "phase": self.phase, "turn": game.current_player,
            "start_player": game.current_player if self.phase == "deal" else self.start, "marker": marker,
            "factories": [letters(factory) for factory in game.factory_displays],
            "centre": letters(game.center_tiles), "bag": sorted_letters(game.tile_bag),
            "lid": sorted_letters(game.lid),
            "boards": [board_state(board) for board in game.player_boards],
            "winners": self.winners if self.phase == "over" else None,
        }


def with_random(rng, call):
    """call() with the engine module's random (it uses only shuffle and randint) standing for `rng`."""
    saved = azul.random
    azul.random = rng
    try:
        return call()
    finally:
        azul.random = saved


def undeal(game, bag_before: list) -> None:
    """Puts the deal prepare_next_round made back into bag and lid as the tiling left them. The bag was drawn
    from its end (azul_game.py:496-498) and, only once empty, refilled with the whole lid (485-490): with no more
    tiles dealt than the bag held, the bag as it stood and the lid unchanged; otherwise the lid held what is
    left in the bag and the tiles dealt beyond the old bag's."""
    dealt = [tile for factory in game.factory_displays for tile in tiles_in(factory)]
    if len(dealt) > len(bag_before):
        beyond = Counter(dealt) - Counter(bag_before)
        game.lid = list(game.tile_bag) + list(beyond.elements())
    game.tile_bag = list(bag_before)
    clear(game.factory_displays)


def winners_of(engine, game) -> list[int]:
    """get_winner's seat (azul_game.py:862-893); its None at the end is a tie it leaves shared ("If still tied,
    players share the victory", its rules text, 637-638): the seats with the top score and, among them, the
    most complete wall rows, as get_winner compares them."""
    winner = engine.get_winner(game)
    if winner is not None:
        return [winner]
    scores = [board.score for board in game.player_boards]
    top = [seat for seat, score in enumerate(scores) if score == max(scores)]
    rows = {seat: sum(all(row) for row in game.player_boards[seat].wall) for seat in top}
    return [seat for seat in top if rows[seat] == max(rows.values())]


def board_state(board) -> dict:
    lines = []
    for row in board.pattern_lines:
        tiles = [tile for tile in row if tile is not None]
        lines.append(LETTER_OF[tiles[0]] * len(tiles) if tiles else "")
    # The floor line as the engine holds it, space by space from the left (add_to_floor_line, 144-161). The engine
    # lays the marker as a blue tile (796): that space shows B, as the engine has it; it never shows M.
    floor = "".join(LETTER_OF[tile] for tile in board.floor_line if tile is not None)
    return {"score": board.score, "lines": lines,
            "wall": ["".join(LETTER_OF[azul.WALL_COLOR_ARRANGEMENT[r][c]] if board.wall[r][c] else "."
                             for c in range(5)) for r in range(5)],
            "floor": floor}


def move_text(text: str) -> str:
    """A valid move of get_player_view ('factory 2 blue 3', 'center center red floor') in the compact notation."""
    source, source_id, colour, line = text.split()
    where = "C" if source == "center" else str(int(source_id) + 1)
    return where + LETTER_OF[azul.TileColor(colour)] + ("F" if line == "floor" else line)


def engine_text(move: str) -> str:
    """A take in the compact notation as the engine's move format (get_move_format_instructions, 641-652)."""
    source = "center center" if move[0] == "C" else f"factory {int(move[0]) - 1}"
    return f"{source} {COLOUR_OF[move[1]].value} {'floor' if move[2] == 'F' else move[2]}"


def tiles_in(display: dict) -> list:
    return [colour for colour in azul.TileColor for _ in range(display.get(colour, 0))]


def clear(displays: list) -> None:
    for display in displays:
        for colour in azul.TileColor:
            display[colour] = 0


def letters(display: dict) -> str:
    return "".join(LETTER_OF[colour] * display.get(colour, 0) for colour in azul.TileColor)


def sorted_letters(tiles: list) -> str:
    return "".join(sorted((LETTER_OF[tile] for tile in tiles), key=ORDER.index))


def colours_of(text) -> list:
    if not isinstance(text, str) or set(text) - set(ORDER):
        raise Refused("bad_request", f"state: {text!r} is not a string of the letters B Y R K W")
    return [COLOUR_OF[c] for c in text]


def display_of(text) -> dict:
    counts = Counter(colours_of(text))
    return {colour: counts[colour] for colour in azul.TileColor}


def build(state) -> tuple:
    """The engine and its AzulState in the position of an azul-state/1 document (phases deal and offer). The
    engine's own loader is deserialize_state (AzulState.from_dict, azul_game.py:407-459): the adapter writes the
    document in the engine's serialized form and lets it read it."""
    players = check_state(state)  # what no adapter loads, whatever its engine offers
    if state.get("variant") != "colour":
        raise Refused("unsupported", "the engine has only the coloured wall (azul_game.py:34-40)")
    phase = state.get("phase")
    if phase not in ("deal", "offer"):
        raise Refused("unsupported", f"phase {phase!r}: the adapter loads a game waiting for a deal or in the offer")
    try:
        engine = azul.AzulGame(players)
        if not isinstance(state["factories"], list) or len(state["factories"]) != engine.num_factories:
            raise Refused("bad_request", f"state: a {players}-player game has {engine.num_factories} factories")
        turn, start, marker = state["turn"], state["start_player"], state["marker"]
        if not seat_value(turn, players) or not seat_value(start, players) \
                or (marker != "centre" and not seat_value(marker, players)):
            raise Refused("bad_request", "state: turn, start_player and marker are seats (marker or \"centre\")")
        boards = state["boards"]
        if not isinstance(boards, list) or len(boards) != players:
            raise Refused("bad_request", f"state: {players} boards expected")
        serialized_boards = []
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
            filled = []
            for r in range(5):
                filled.append([])
                for c in range(5):
                    if wall[r][c] != "." and colours_of(wall[r][c])[0] != azul.WALL_COLOR_ARRANGEMENT[r][c]:
                        raise Refused("bad_request", f"state: wall row {r + 1} has {wall[r][c]} off its printed "
                                                     "space (the engine's wall is the coloured one)")
                    filled[r].append(wall[r][c] != ".")
            floor = board["floor"]
            if not isinstance(floor, str) or len(floor) > 7 or floor.count("M") > 1:
                raise Refused("bad_request", "state: a floor has at most 7 spaces and one marker")
            colours_of(floor.replace("M", ""))
            holds = phase == "offer" and marker == seat
            serialized_boards.append({
                # each line filled from the right (place_tiles_in_pattern_line, 135-140)
                "pattern_lines": [[None] * (n + 1 - len(line)) + [COLOUR_OF[c].value for c in line]
                                  for n, line in enumerate(lines)],
                "wall": filled,
                # the engine's marker on a floor is a blue tile (796)
                "floor_line": ["blue" if c == "M" else COLOUR_OF[c].value for c in floor],
                "score": score, "has_first_player_marker": holds})
        rnd = state["round"]
        if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
            raise Refused("bad_request", "state: round is a whole number from 1")
        bag = [COLOUR_OF[c].value for c in sorted_letters(colours_of(state["bag"]))]
        random.Random(f"{SEED}:{state['bag']}").shuffle(bag)  # the engine's bag is always in shuffled order
        serialized = {
            "factory_displays": [{colour.value: n for colour, n in display_of(text).items()}
                                 for text in state["factories"]],
            "center_tiles": {colour.value: n for colour, n in display_of(state["centre"]).items()},
            # between rounds the marker is back in the centre (prepare_next_round, 513-514)
            "first_player_marker_in_center": phase == "deal" or marker == "centre",
            "player_boards": serialized_boards,
            "tile_bag": bag, "lid": [COLOUR_OF[c].value for c in sorted_letters(colours_of(state["lid"]))],
            "current_player": turn, "phase": "factory_offer", "round_number": rnd,
        }
        game = engine.deserialize_state(serialized)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise Refused("bad_request", f"state: cannot read it ({type(error).__name__}: {error})") from None
    return engine, game, phase, start


if __name__ == "__main__":
    sys.exit(serve(Table()))
