"""The reference engine for Azul: every rule, readable as the rulebook, fast enough to fuzz.

    >>> import random
    >>> from azul_reference import Game, to_state
    >>> game = Game(players=2)
    >>> game.deal(rng=random.Random(7))
    >>> move = game.legal_moves()[0]
    >>> game.play(move)
    >>> to_state(game)["boards"][0]["lines"]  # doctest: +SKIP

The rules each piece of code applies are named by their IDs in spec/rules (`OFFER-5`, `SCORE-2`...).
"""

from .errors import AzulError, IllegalDeal, IllegalMove, InvalidSetup, InvalidState, MalformedDeal, NotationError
from .game import DEAL, OFFER, OVER, TILING, Game
from .moves import CENTRE, FLOOR, Move, Placement, Take, parse_move
from .state import FORMAT, from_state, problems, to_state

__version__ = "0.1.0"

__all__ = [
    "AzulError", "IllegalDeal", "IllegalMove", "InvalidSetup", "InvalidState", "MalformedDeal", "NotationError",
    "DEAL", "OFFER", "OVER", "TILING", "Game",
    "CENTRE", "FLOOR", "Move", "Placement", "Take", "parse_move",
    "FORMAT", "from_state", "problems", "to_state",
]
