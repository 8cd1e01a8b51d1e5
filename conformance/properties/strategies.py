"""Hypothesis strategies for Azul games, public so that other projects can drive their own engines with them.

    from azul_conformance.properties.strategies import game_plans
    @given(game_plans())
    def test_my_engine(plan): walk(MyEngine(), plan, [Invariants()], give_deals=True)
"""

from __future__ import annotations

from hypothesis import strategies as st

from ..engines.base import Capabilities
from .play import GamePlan

MAX_CHOICES = 400  # enough choices for the longest random game; later picks take the first option


def player_counts(capabilities: Capabilities | None = None) -> st.SearchStrategy[int]:
    offered = [n for n in (2, 3, 4) if capabilities is None or n in capabilities.players]
    return st.sampled_from(offered or [2])


def variants(capabilities: Capabilities | None = None) -> st.SearchStrategy[str]:
    offered = [v for v in ("colour", "grey") if capabilities is None or v in capabilities.variants]
    return st.sampled_from(offered or ["colour"])


def seeds() -> st.SearchStrategy[int]:
    return st.integers(0, 2**32 - 1)


def move_choices(max_size: int = MAX_CHOICES) -> st.SearchStrategy[tuple[int, ...]]:
    """One number per decision; a decision among n options takes number mod n."""
    return st.lists(st.integers(0, 1 << 20), max_size=max_size).map(tuple)


def game_plans(capabilities: Capabilities | None = None) -> st.SearchStrategy[GamePlan]:
    """Whole games: players, variant, start player, the seed of the deals and the move choices."""
    return st.builds(_plan, player_counts(capabilities), variants(capabilities), st.integers(0, 3), seeds(),
                     move_choices())


def _plan(players: int, variant: str, start: int, deal_seed: int, choices: tuple[int, ...]) -> GamePlan:
    return GamePlan(players, variant, start % players, deal_seed, choices)
