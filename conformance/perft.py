"""Perft for Azul: the number of legal move sequences of a given length from a position, within its round.

A sequence stops early where the offer phase ends (the tiling follows; the next round needs a deal, which is
chance, not a move), so perft(depth) counts the leaves of the move tree cut at `depth` or at the round's end.
It works through the Engine interface only (load_state, legal_moves, play), so it compares move generators
of any two engines: equal perft values at every depth are strong evidence of equal legal-move sets.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Parting:
    """The first position, in the order perft walks, where two engines' move trees part: the moves from the
    start (`path`), and each side's legal moves there (or, for a move that ends the round on one side only,
    `ends`: which side's round ends after `path`)."""

    path: tuple[str, ...]
    theirs: tuple[str, ...]
    ours: tuple[str, ...]
    ends: str = ""


def first_parting(engine: Engine, reference: Engine, state: CanonicalState, depth: int) -> Parting | None:
    """Walk both move trees as perft does, each engine on its own states, up to `depth` moves; the first place
    where the legal moves or the round's end differ (None: the same trees, so the same counts)."""
    return _walk(engine, reference, state, state, depth, ())


def _walk(engine: Engine, reference: Engine, theirs: CanonicalState, ours: CanonicalState, depth: int,
          path: tuple[str, ...]) -> Parting | None:
    if _continues(theirs) != _continues(ours):
        return Parting(path, (), (), ends="engine" if _continues(ours) else "reference")
    if depth == 0 or not _continues(ours):
        return None
    engine.load_state(theirs)
    reference.load_state(ours)
    their_moves, our_moves = sorted(engine.legal_moves()), sorted(reference.legal_moves())
    if their_moves != our_moves:
        return Parting(path, tuple(their_moves), tuple(our_moves))
    for move in our_moves:
        engine.load_state(theirs)
        reference.load_state(ours)
        found = _walk(engine, reference, engine.play(move), reference.play(move), depth - 1, path + (move,))
        if found is not None:
            return found
    return None
