"""Perft for Azul: the number of legal move sequences of a given length from a position, within its round.

A sequence stops early where the offer phase ends (the tiling follows; the next round needs a deal, which is
chance, not a move), so perft(depth) counts the leaves of the move tree cut at `depth` or at the round's end.
It works through the Engine interface only (load_state, legal_moves, play), so it compares move generators
of any two engines: equal perft values at every depth are strong evidence of equal legal-move sets.
"""

from __future__ import annotations

from .engines.base import Engine, CanonicalState


def _continues(state: CanonicalState) -> bool:
    return state["phase"] in ("offer", "tiling")


def perft(engine: Engine, state: CanonicalState, depth: int) -> int:
    """The number of move sequences of length `depth` (or ending the round sooner) from `state`."""
    if depth == 0 or not _continues(state):
        return 1
    engine.load_state(state)
    total = 0
    for move in sorted(engine.legal_moves()):
        engine.load_state(state)
        total += perft(engine, engine.play(move), depth - 1)
    return total


def divide(engine: Engine, state: CanonicalState, depth: int) -> dict[str, int]:
    """perft(depth - 1) after each legal first move: where two engines differ, the first move to look at."""
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    engine.load_state(state)
    counts: dict[str, int] = {}
    for move in sorted(engine.legal_moves()):
        engine.load_state(state)
        counts[move] = perft(engine, engine.play(move), depth - 1)
    return counts
