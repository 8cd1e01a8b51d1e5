"""Invariants every position of every game must satisfy, checked on canonical state dicts.

Each check returns (rule, message) pairs, so a failure names the rule it breaks. These are the rules that hold
at every step, whatever was played; what a particular move must do is the differential checks' business.
"""

from __future__ import annotations

from collections import Counter

from ..notation import (
    COLOURS, DESTINATIONS, FACTORIES_BY_PLAYERS, FLOOR_SPACES, MARKER, TILES_PER_COLOUR, wall_colour,
)
from .canonical import CanonicalState, on_offer, tile_counts

Problem = tuple[str, str]


def state_problems(state: CanonicalState) -> list[Problem]:
    """Everything wrong with one position."""
    found = tile_problems(state) + table_problems(state) + seat_problems(state)
    for seat, board in enumerate(state["boards"]):
        found += board_problems(state["variant"], seat, board)
    return found + phase_problems(state)


def tile_problems(state: CanonicalState) -> list[Problem]:
    """SETUP-4: 100 tiles, 20 of each colour, always (none created, none lost)."""
    counts = tile_counts(state)
    return [("SETUP-4", f"{counts[c]} {c} tiles in the game, expected {TILES_PER_COLOUR}")
            for c in COLOURS if counts[c] != TILES_PER_COLOUR]


def table_problems(state: CanonicalState) -> list[Problem]:
    found = []
    players = state["players"]
    if len(state["factories"]) != FACTORIES_BY_PLAYERS.get(players, -1):
        found.append(("SETUP-3", f"{len(state['factories'])} factories with {players} players"))
    if len(state["boards"]) != players:
        found.append(("SETUP-3", f"{len(state['boards'])} boards with {players} players"))
    for i, text in enumerate(state["factories"]):
        if len(text) > 4:
            found.append(("DEAL-1", f"factory {i + 1} holds {len(text)} tiles ({text!r}), at most 4"))
    return found


def seat_problems(state: CanonicalState) -> list[Problem]:
    """The seats a position names (the player to move, the start player, the marker's holder, the winners) that
    are not seats of its table: to be checked before a board is read by seat (else an IndexError, no finding)."""
    seats = min(state["players"], len(state["boards"]))
    named = [("OFFER-1", "turn", state["turn"]), ("SETUP-5", "start_player", state["start_player"])]
    if state["marker"] != "centre":
        named.append(("OFFER-5", "marker", state["marker"]))
    named += [("END-5", "winner", seat) for seat in state["winners"] or ()]
    return [(rule, f"{name} {seat!r} is not a seat of this {seats}-player table (seats 0 to {seats - 1})")
            for rule, name, seat in named if type(seat) is not int or not 0 <= seat < seats]


def board_problems(variant: str, seat: int, board: dict) -> list[Problem]:
    where = f"board {seat}"
    found = []
    if not isinstance(board.get("score"), int) or board["score"] < 0:
        found.append(("SCORE-5", f"{where}: score {board.get('score')!r} is below 0"))
    wall = board["wall"]
    for i, text in enumerate(board["lines"]):
        if len(text) > i + 1:
            found.append(("OFFER-7", f"{where}: pattern line {i + 1} holds {len(text)} tiles ({text!r})"))
        if len(set(text)) > 1:
            found.append(("OFFER-8", f"{where}: pattern line {i + 1} mixes colours ({text!r})"))
        elif text and text[0] in wall[i]:
            found.append(("OFFER-9", f"{where}: pattern line {i + 1} holds {text[0]}, already on wall row {i + 1}"))
    floor = board["floor"]
    if len(floor) > FLOOR_SPACES:
        found.append(("FLOOR-1", f"{where}: floor {floor!r} uses more than {FLOOR_SPACES} spaces"))
    if floor.count(MARKER) > 1:
        found.append(("FLOOR-4", f"{where}: floor {floor!r} shows the marker twice"))
    return found + wall_problems(variant, where, wall)


def wall_problems(variant: str, where: str, wall: list[str]) -> list[Problem]:
    found = []
    for r, row in enumerate(wall):
        placed = row.replace(".", "")
        if len(set(placed)) != len(placed):
            found.append(("GREY-2" if variant == "grey" else "WALL-1", f"{where}: wall row {r + 1} {row!r} "
                                                                        "holds a colour twice"))
        if variant == "colour":
            for c, letter in enumerate(row):
                if letter != "." and letter != wall_colour(r, c):
                    found.append(("WALL-1", f"{where}: wall row {r + 1} has {letter} in column {c + 1}, where the "
                                            f"coloured wall shows {wall_colour(r, c)}"))
    for c in range(5):
        column = [row[c] for row in wall if row[c] != "."]
        if len(set(column)) != len(column):
            found.append(("GREY-2", f"{where}: wall column {c + 1} holds a colour twice"))
    return found


def phase_problems(state: CanonicalState) -> list[Problem]:
    found = []
    phase, tiles = state["phase"], on_offer(state)
    if phase == "offer" and not tiles:
        found.append(("OFFER-14", "phase 'offer' with no tile left in the factories and the centre"))
    if phase in ("deal", "tiling", "over") and tiles:
        found.append(("OFFER-14", f"phase {phase!r} while the factories and the centre still hold tiles"))
    if phase in ("deal", "offer") and any("." not in row for b in state["boards"] for row in b["wall"]):
        found.append(("END-1", f"phase {phase!r} with a complete wall row: the game ends at the tiling that "
                               "completes a row"))
    holders = [seat for seat, board in enumerate(state["boards"]) if MARKER in board["floor"]]
    if phase != "over" and holders and state["marker"] != holders[0]:
        found.append(("OFFER-5", f"board {holders[0]} shows the marker on its floor, but marker is "
                                 f"{state['marker']!r}"))
    if phase == "over":
        found += winner_problems(state)
    elif state["winners"] is not None:
        found.append(("END-5", f"winners {state['winners']!r} before the game is over"))
    return found


def winner_problems(state: CanonicalState) -> list[Problem]:
    """END-5..7: the winners are the best (score, complete rows) of all seats."""
    winners = state["winners"]
    if not isinstance(winners, list) or not winners:
        return [("END-5", f"the game is over but winners is {winners!r}")]
    ranks = [(b["score"], sum("." not in row for row in b["wall"])) for b in state["boards"]]
    best = max(ranks)
    expected = [seat for seat, rank in enumerate(ranks) if rank == best]
    if sorted(winners) == expected:
        return []
    top = max(score for score, _ in ranks)
    rule = "END-6" if sum(score == top for score, _ in ranks) > 1 else "END-5"
    return [(rule, f"winners {sorted(winners)}, but scores and complete rows {ranks} make {expected} the winners")]


def moves_problems(state: CanonicalState, moves: list[str]) -> list[Problem]:
    """The legal-move list: a set of well-formed moves; non-empty while the offer (or a placement) is pending,
    empty when no move is possible (the deal, the end of the game)."""
    found = []
    duplicates = sorted(m for m, n in Counter(moves).items() if n > 1)
    if duplicates:
        found.append(("OFFER-15", f"legal moves list {duplicates} more than once"))
    malformed = [m for m in moves if not _well_formed(m, len(state["factories"]))]
    if malformed:
        found.append(("OFFER-15", f"legal moves include {malformed[:5]}, not moves of this table"))
    if state["phase"] in ("offer", "tiling") and not moves:
        found.append(("OFFER-15", f"no legal move in phase {state['phase']!r}: the player to act must have one "
                                  "(the floor always takes tiles)"))
    if state["phase"] in ("deal", "over") and moves:
        found.append(("OFFER-15", f"legal moves {sorted(moves)[:5]} in phase {state['phase']!r}, where no move "
                                  "can be played"))
    if state["phase"] == "offer" and any("@" in m for m in moves):
        found.append(("OFFER-15", "a wall placement listed as legal during the offer"))
    if state["phase"] == "tiling" and any("@" not in m for m in moves):
        found.append(("GREY-5", "a take listed as legal while a wall placement is pending"))
    return found


def _well_formed(move: str, factories: int) -> bool:
    if len(move) == 3 and move[1] == "@":
        return move[0] in "12345" and move[2] in "12345"
    if len(move) != 3 or move[1] not in COLOURS or move[2] not in DESTINATIONS:
        return False
    return move[0] == "C" or (move[0].isdigit() and 1 <= int(move[0]) <= factories)
