"""Applying a mutant: its patches set on azul_reference for the length of a `with` block, then undone.

`MutantEngine` is the reference engine's adapter with the mutant applied only while one of its own calls runs,
so that the unmutated reference the differential properties compare against stays the real one.
"""

from __future__ import annotations

import functools
import importlib
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Callable, Iterator

from ..engines.reference import ReferenceEngine
from .catalogue import Mutant


def _owner(target: str) -> tuple[Any, str]:
    """`board.Board.placement_points` -> (the Board class, "placement_points"), inside azul_reference."""
    module, *path, name = target.split(".")
    owner: Any = importlib.import_module(f"azul_reference.{module}")
    for part in path:
        owner = getattr(owner, part)
    return owner, name


@contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    saved = []
    try:
        for target, make in mutant.patches:
            owner, name = _owner(target)
            original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
            saved.append((owner, name, original))
            setattr(owner, name, make(original))
        yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


def _inside(method: Callable) -> Callable:
    """A request of the reference's adapter, run inside the engine's `within()`."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        with self.within():
            return method(self, *args, **kwargs)
    return call


class WithinEngine(ReferenceEngine):
    """The reference engine's adapter with each request the suite makes run inside `within()`: a context that
    changes the reference (a mutant's patches, a generated mutant's package) and undoes the change after."""

    def __init__(self, within: Callable[[], AbstractContextManager], seed: int | None = None) -> None:
        super().__init__(seed)
        self.within = within

    new_game = _inside(ReferenceEngine.new_game)
    deal = _inside(ReferenceEngine.deal)
    load_state = _inside(ReferenceEngine.load_state)
    legal_moves = _inside(ReferenceEngine.legal_moves)
    play = _inside(ReferenceEngine.play)
    state = _inside(ReferenceEngine.state)
    play_game = _inside(ReferenceEngine.play_game)  # a whole game in one request (azul fuzz): mutated too


class MutantEngine(WithinEngine):
    """The reference engine reading one rule wrongly."""

    def __init__(self, mutant: Mutant, seed: int | None = None) -> None:
        super().__init__(functools.partial(applied, mutant), seed)
        self.mutant = mutant
