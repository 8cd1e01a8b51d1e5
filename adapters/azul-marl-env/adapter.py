#!/usr/bin/env python3
"""Protocol v1 for azul-marl-env (PyPI, GPL-3.0-or-later), a PettingZoo environment over azul-game-engine.

Licence note: azul-marl-env and azul-game-engine are GPL-3.0-or-later. This adapter drives them only from its
own process over a pipe; no module of azul-conformance imports them, and this file imports nothing of
azul-conformance. This file itself is part of azul-conformance (MIT).
Run it (Python >= 3.12): adapters/azul-marl-env/build, then
    azul conform --engine "adapters/azul-marl-env/.build/venv/bin/python adapters/azul-marl-env/adapter.py"

azul-marl-env 1.0.6 does not import as published: azul_env.py:15 imports
`azul_marl_env.render.azul_renderer.AzulRenderer`, and the wheel has no `render` package. The renderer only
draws (AzulEnv.render and AzulEnv.close, both "pragma: no cover"), so this adapter puts a stand-in module
under that name in its own process before importing the environment: a renderer that draws nothing. Nothing of
the environment's rules or of the engine is replaced.

Seats: the environment always opens with player_0 (`AzulEnv._create_game` builds `Game(..., 0, ...)`). A game
whose start player is seat s is played with player_k in our seat (k + s) mod n: a renaming of the chairs, so the
environment is never told who starts.

The environment is azul-game-engine's `Game` plus what the environment adds, and the adapter uses exactly that:
- legal moves are the environment's own `valid_moves` (`_get_all_valid_moves`), not a trial of every move;
- a move is played with `AzulEnv.step`; the environment's refusal (reward -2, state unchanged) is illegal_move;
- the turn is the environment's `agent_selection` (set from the game after every step).
The state, the deal as a step of its own, and load_state come from the azul-game-engine adapter
(../azul-game-engine/adapter.py), which this file extends: the environment holds that same `Game`.
An action is (source, colour, tiles to the floor, pattern line): `3K4` is (3, 3, 0, 3), `CBF` is (0, 0, n, 0)
with n the blue tiles of the centre, as the environment lists its floor moves.
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
import types
from importlib.metadata import version
from pathlib import Path


class _SilentRenderer:
    """Stands in for azul_marl_env.render.azul_renderer.AzulRenderer, missing from the 1.0.6 wheel."""

    def render(self, *args, **kwargs) -> None:
        pass

    def close(self) -> None:
        pass


def _supply_missing_renderer() -> None:
    try:
        importlib.util.find_spec("azul_marl_env.render.azul_renderer")
        return  # a release that ships it: use the real one
    except ModuleNotFoundError:
        pass
    package = types.ModuleType("azul_marl_env.render")
    package.__path__ = []
    module = types.ModuleType("azul_marl_env.render.azul_renderer")
    module.AzulRenderer = _SilentRenderer
    sys.modules["azul_marl_env.render"] = package
    sys.modules["azul_marl_env.render.azul_renderer"] = module


_supply_missing_renderer()
from azul_marl_env.azul_env import AzulEnv  # noqa: E402  (after the stand-in renderer)


def _engine_adapter():
    path = Path(__file__).resolve().parents[1] / "azul-game-engine" / "adapter.py"
    spec = importlib.util.spec_from_file_location("azul_game_engine_adapter", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


base = _engine_adapter()
Refused = base.Refused
SOURCE = {"C": 0, **{str(k): k for k in range(1, 10)}}


class EnvAdapter(base.Adapter):
    env: AzulEnv | None = None

    def hello(self, request):
        reply = super().hello(request)
        return dict(reply, name="azul-marl-env (via adapter)", version=version("azul-marl-env"))

    rotation = 0  # our seat of the environment's player_0

    def new_game(self, request):
        super().new_game(request)
        self.env, self.rotation, self.start_player = None, self.start_player, 0
        return {"state": self.state_json()}

    def deal(self, request):
        if request.get("factories") is not None:
            raise Refused("unsupported", "azul-game-engine deals by itself; it cannot take a given deal")
        if self.fresh:
            self.seed_the_deal()
            self.env = AzulEnv(player_count=self.players)  # its reset() builds the Game, which deals
            self.env.game.__class__ = base.SteppedGame  # hold each later round's deal until the protocol's deal
            self.game, self.fresh, self.moves_cache = self.env.game, False, None
            return {"state": self.state_json()}
        reply = super().deal(request)
        self._sync()
        return reply

    def legal_moves(self, request):
        if self.env is None or self.game is None:
            return {"moves": []}
        moves = {notation(action) for action in self.env._get_all_valid_moves()}
        return {"moves": sorted(moves)}

    def play(self, request):
        move = request.get("move")
        if not isinstance(move, str) or len(move) != 3:
            raise Refused("bad_request", f"move {move!r} is not in the compact notation")
        if "@" in move:
            raise Refused("illegal_move", f"{move}: there is no grey wall in this environment")
        if move[0] not in SOURCE or move[1] not in base.COLOURS or move[2] not in "12345F":
            raise Refused("bad_request", f"move {move!r} is not in the compact notation")
        if self.env is None or self.game is None:
            raise Refused("illegal_move", "a deal is due: no move can be played")
        action = self.action(move)
        blob = pickle.dumps(self.env.game, pickle.HIGHEST_PROTOCOL)
        try:
            _, reward, *_ = self.env.step(action)
        except Exception as error:  # noqa: BLE001 - the environment let through a move its engine refuses
            self.env.game = pickle.loads(blob)
            self._sync()
            raise Refused("illegal_move", f"the environment accepted {move}, its engine raised "
                                          f"{type(error).__name__}: {error}") from None
        if reward == -2:  # the environment's refusal (azul_env.py:99-103); it changed nothing
            raise Refused("illegal_move", f"the environment refused {move} (not among its valid moves)")
        self.game, self.moves_cache = self.env.game, None
        if self.game.deal_due and self.game.is_running:
            self.round += 1
        return {"state": self.state_json()}

    def load_state(self, request):
        kept, self.rotation = self.rotation, 0  # seats as given: the loaded Game has its own current player
        try:
            reply = super().load_state(request)
        except Exception:
            self.rotation = kept  # a refused state leaves the game as it was
            raise
        self.env = AzulEnv(player_count=self.players)
        self.env.game = self.game
        self._sync()
        return reply

    def state_json(self) -> dict:
        """The engine adapter's state with the environment's players turned to our seats."""
        state = super().state_json()
        shift, n = self.rotation, state["players"]
        if shift:
            state["boards"] = [state["boards"][(seat - shift) % n] for seat in range(n)]
            state["turn"], state["start_player"] = (state["turn"] + shift) % n, (state["start_player"] + shift) % n
            if isinstance(state["marker"], int):
                state["marker"] = (state["marker"] + shift) % n
            if state["winners"] is not None:
                state["winners"] = sorted((seat + shift) % n for seat in state["winners"])
        return state

    def action(self, move: str) -> tuple[int, int, int, int]:
        source, colour = SOURCE[move[0]], base.COLOURS.index(move[1])
        if move[2] != "F":
            return source, colour, 0, int(move[2]) - 1
        state = self.env.state
        pool = state["center"] if source == 0 else (
            state["factories"][source - 1] if source <= len(state["factories"]) else [0] * 5)
        return source, colour, int(pool[colour]), 0

    def _sync(self) -> None:
        """The environment's view after the adapter changed its game (a deal, a loaded position)."""
        self.env._set_state()
        self.env.agent_selection = f"player_{self.game.current_player}"


def notation(action) -> str:
    source, colour, to_floor, line = (int(x) for x in action)
    return ("C" if source == 0 else str(source)) + base.COLOURS[colour] + ("F" if to_floor else str(line + 1))


if __name__ == "__main__":
    sys.exit(base.serve(EnvAdapter()))
