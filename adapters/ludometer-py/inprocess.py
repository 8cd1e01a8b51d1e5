"""ludometer's Python engine in the suite's own process: `azul conform --engine
py:adapters/ludometer-py/inprocess.py:make_engine`, run by a Python that has numpy and azul-conformance, with
LUDOMETER_ROOT naming your copy of ludometer.

It is the protocol adapter's `Table` (adapter.py, the same translation, line for line) behind the `Engine`
interface instead of a JSON loop, so the two must give the same verdicts (tests/test_adapters_ludometer.py).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from azul_conformance.engines import Capabilities, Engine, EngineInfo, Rejected, CanonicalState


def _adapter():
    name = "azul_adapter_ludometer_py"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("adapter.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class LudometerEngine(Engine):
    def __init__(self) -> None:
        self.adapter = _adapter()
        self.table = self.adapter.Table()
        self.info = self.hello()

    def _ask(self, method, *args):
        try:
            return method(*args)
        except self.adapter.Refused as refusal:
            raise Rejected(refusal.code, refusal.message, refusal.rule) from None

    def hello(self) -> EngineInfo:
        data = self.table.hello()
        return EngineInfo(data["name"].replace("via adapter", "in-process"), data["version"], data["protocol"],
                          Capabilities.from_json(data["capabilities"]))

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        return self._ask(self.table.new_game, players, variant, start_player)["state"]

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        return self._ask(self.table.deal, factories)["state"]

    def load_state(self, state: CanonicalState) -> CanonicalState:
        return self._ask(self.table.load_state, state)["state"]

    def legal_moves(self) -> list[str]:
        return self._ask(self.table.legal_moves)["moves"]

    def play(self, move: str) -> CanonicalState:
        return self._ask(self.table.play, move)["state"]

    def state(self) -> CanonicalState:
        return self._ask(self.table._game) and self.table.state()["state"]


def make_engine() -> Engine:
    return LudometerEngine()
