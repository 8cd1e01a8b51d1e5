"""Hypothesis strategies for Azul games, public so that other projects can drive their own engines with them.

    game_plans()      whole games: players, variant, start player, deal seed, move choices (shrinkable)
    positions()       canonical states reached by random play (phase deal, offer, tiling or over)
    deals(state)      drawable deals for a position in phase deal, drawn as DEAL-1..3 say

    from azul_conformance.properties.strategies import game_plans, positions
    @given(game_plans())
    def test_my_engine(plan): walk(MyEngine(), plan, [Invariants()], give_deals=True)
    @given(positions())
    def test_my_loader(state): assert MyEngine().load_state(state) == state
"""

from __future__ import annotations

import random
from typing import Callable

from hypothesis import strategies as st

from ..engines.base import Capabilities, Engine
from ..engines.reference import ReferenceEngine
from ..notation import PLAYER_COUNTS, VARIANTS
from .canonical import CanonicalState, draw_deal
from .play import GamePlan

MAX_CHOICES = 400  # enough choices for the longest random game; later picks take the first option


def player_counts(capabilities: Capabilities | None = None, wanted=PLAYER_COUNTS) -> st.SearchStrategy[int]:
    """The counts the engine offers, among `wanted` when it offers any of them."""
    offered = [n for n in PLAYER_COUNTS if capabilities is None or n in capabilities.players]
    return st.sampled_from([n for n in offered if n in wanted] or offered or [2])


def variants(capabilities: Capabilities | None = None, wanted=VARIANTS) -> st.SearchStrategy[str]:
    offered = [v for v in VARIANTS if capabilities is None or v in capabilities.variants]
    return st.sampled_from([v for v in offered if v in wanted] or offered or ["colour"])


def seeds() -> st.SearchStrategy[int]:
    return st.integers(0, 2**32 - 1)


def move_choices(max_size: int = MAX_CHOICES) -> st.SearchStrategy[tuple[int, ...]]:
    """One number per decision; a decision among n options takes number mod n."""
    return st.lists(st.integers(0, 1 << 20), max_size=max_size).map(tuple)


def game_plans(capabilities: Capabilities | None = None, players=PLAYER_COUNTS,
               variant=VARIANTS) -> st.SearchStrategy[GamePlan]:
    """Whole games: players, variant, start player, the seed of the deals and the move choices; `players` and
    `variant` narrow the counts and walls played (to those the engine offers)."""
    return st.builds(_plan, player_counts(capabilities, players), variants(capabilities, variant),
                     st.integers(0, 3), seeds(), move_choices())


def _plan(players: int, variant: str, start: int, deal_seed: int, choices: tuple[int, ...]) -> GamePlan:
    return GamePlan(players, variant, start % players, deal_seed, choices)


def deals(state: CanonicalState) -> st.SearchStrategy[list[str]]:
    """Drawable deals for `state` (phase deal): four tiles per factory in turn from the bag, the lid poured in
    when the bag runs dry, partly filled factories when both run out."""
    return seeds().map(lambda seed: draw_deal(state, random.Random(seed)))


def positions(capabilities: Capabilities | None = None, engine: Callable[[], Engine] | None = None,
              max_steps: int = 200, phase: str | None = None) -> st.SearchStrategy[CanonicalState]:
    """Positions reached by playing a random game plan for up to `max_steps` steps (deals and moves), on the
    reference engine unless `engine` builds another. With `phase`, play on to the next position in that phase
    (or the last one passed, if the game ends first). Shrinks towards early positions."""
    found = st.builds(_position, game_plans(capabilities), st.integers(0, max_steps), st.just(engine),
                      st.just(phase))
    return found.filter(lambda state: state is not None)  # only a grey-wall `tiling` can be missed


def _position(plan: GamePlan, steps: int, make: Callable[[], Engine] | None,
              phase: str | None) -> CanonicalState | None:
    if make is None:
        make = ReferenceEngine
    engine = make()
    rng = random.Random(plan.deal_seed)
    state = engine.new_game(plan.players, plan.variant, plan.start_player)
    seen = state if phase in (None, state["phase"]) else None
    step = 0
    while state["phase"] != "over" and (step < steps or (phase is not None and state["phase"] != phase)):
        if state["phase"] == "deal":
            state = engine.deal(draw_deal(state, rng))
        else:
            moves = engine.legal_moves()
            choice = plan.choices[step] if step < len(plan.choices) else 0
            state = engine.play(moves[choice % len(moves)])
        step += 1
        if phase in (None, state["phase"]):
            seen = state
    return state if phase in (None, state["phase"]) else seen
