"""Applying a mutant: its patches set on azul_reference for the length of a `with` block, then undone.

`MutantEngine` is the reference engine's adapter with the mutant applied only while one of its own calls runs,
so that the unmutated reference the differential properties compare against stays the real one.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from typing import Any, Iterator

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


class MutantEngine(ReferenceEngine):
    """The reference engine reading one rule wrongly."""

    def __init__(self, mutant: Mutant, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mutant = mutant

    def new_game(self, *args, **kwargs):
        with applied(self.mutant):
            return super().new_game(*args, **kwargs)

    def deal(self, *args, **kwargs):
        with applied(self.mutant):
            return super().deal(*args, **kwargs)

    def load_state(self, state):
        with applied(self.mutant):
            return super().load_state(state)

    def legal_moves(self):
        with applied(self.mutant):
            return super().legal_moves()

    def play(self, move):
        with applied(self.mutant):
            return super().play(move)

    def state(self):
        with applied(self.mutant):
            return super().state()
