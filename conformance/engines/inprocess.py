"""A Python engine run inside the suite's own process: `--engine py:MODULE:FACTORY` or `py:PATH.py:FACTORY`.

The factory is called with no arguments and returns an `Engine` (azul_conformance.engines.base). Whatever it
answers is held to the checks the subprocess adapter makes of a protocol reply, so a case gets the same verdict
either way:
    an exception other than Rejected          crash (with its traceback as the stderr tail); the engine is
      (SystemExit and KeyboardInterrupt       discarded and the factory called again for the next case; a
      included)                               KeyboardInterrupt is the user's (the run stops) only when a
                                              SIGINT or SIGTERM came to this process during the call
    a reply that is not what the protocol     crash, as a malformed line would be
      allows (a state of the wrong shape, moves that are not strings, an unknown error code, data that is not JSON)
    an answer that came after the deadline    timeout
What one process cannot isolate: a call that never returns (a hang stops the run, there is no thread to kill),
memory the engine exhausts, os._exit or a crash of the interpreter (the run ends), and any global state the
engine changes (random seeds, modules, files). Run an engine you do not trust over the protocol instead.
States and moves are copied through JSON both ways, so neither side can change the other's objects.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Callable

from . import messages as msg
from .base import Engine, EngineCrash, EngineInfo, EngineTimeout, Rejected, CanonicalState

PREFIX = "py:"
DEFAULT_FACTORY = "make_engine"


def load_factory(spec: str) -> Callable[[], Engine]:
    """The factory named by `py:package.module:make_engine` or `py:path/to/file.py:make_engine` (the factory
    name defaults to make_engine). A module name is imported as usual, the current directory first; a file is
    loaded by its path, so an adapter folder needs no package. Raises EngineCrash saying what is wrong."""
    target = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
    path_like = target.endswith(".py") or "/" in target or os.sep in target
    name = DEFAULT_FACTORY
    if ":" in target and not (path_like and target.endswith(".py")):
        target, name = target.rsplit(":", 1)
        path_like = target.endswith(".py") or "/" in target or os.sep in target
    if not target or not name.isidentifier():
        raise EngineCrash(f"--engine {spec!r}: expected py:MODULE:FACTORY or py:FILE.py:FACTORY")
    try:
        module = _load_file(target) if path_like else _import(target)
    except EngineCrash:
        raise
    except BaseException as error:  # noqa: BLE001 - the engine's import failed: say so, never a traceback
        raise EngineCrash(f"--engine {spec!r}: importing {target} failed: {type(error).__name__}: {error}"
                          f"{_where(error)}") from None
    factory = getattr(module, name, None)
    if not callable(factory):
        raise EngineCrash(f"--engine {spec!r}: {target} has no callable {name!r}")
    return factory


def _import(name: str):
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    return importlib.import_module(name)


def _load_file(target: str):
    path = Path(target).resolve()
    if not path.is_file():
        raise EngineCrash(f"--engine: no file {target}")
    module_name = f"azul_inprocess_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    return module


class InProcessEngine(Engine):
    """`InProcessEngine(factory)`: the engine the factory makes, judged like one behind the protocol."""

    def __init__(self, factory: Callable[[], Engine], label: str = "in-process engine",
                 timeout: float = 5.0) -> None:
        self.factory, self.label, self.timeout = factory, label, timeout
        self.engine: Engine | None = None
        self.last_error: EngineCrash | EngineTimeout | None = None
        self._tail = ""
        _count_signals()
        self.start()

    def start(self) -> None:
        engine = self._call(msg.Hello(), self.factory)
        if not isinstance(engine, Engine):
            self._crash(msg.Hello().to_json(0), f"the factory returned {type(engine).__name__}, not an Engine")
        self.engine = engine
        self.hello()

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except BaseException:  # noqa: BLE001 - closing a broken engine must not end the run
                pass

    def stderr_tail(self) -> str:
        return self._tail

    # -- one request, one answer -------------------------------------------------------------------------------

    def _call(self, message: msg.Request, method: Callable[..., Any], *args: Any) -> Any:
        request = message.to_json(0)
        started = time.perf_counter()
        signalled = _signalled
        try:
            answer = method(*args)
        except Rejected as error:
            problem = msg.check_reply({"id": 0, "ok": False, "error": _error_json(error)}, request, message.reply)
            if problem:
                self._crash(request, f"malformed refusal ({problem})")
            raise Rejected(error.code, error.message, error.rule, request=request) from None
        except (EngineCrash, EngineTimeout):
            raise
        except BaseException as error:  # noqa: BLE001 - SystemExit too: the engine's failure is a verdict
            if isinstance(error, KeyboardInterrupt) and _signalled != signalled:  # the user's Ctrl-C, or SIGTERM
                raise
            self._tail = _traceback(error)
            self._crash(request, f"the engine raised {type(error).__name__}: {error}")
        if time.perf_counter() - started > self.timeout:
            self.close()
            self.last_error = EngineTimeout(f"no answer within {self.timeout:g} s (it came after "
                                            f"{time.perf_counter() - started:.1f} s)", request=request)
            raise self.last_error
        return answer

    def _checked(self, message: msg.Request, field: str, method: Callable[..., Any], *args: Any) -> Any:
        if self.engine is None:
            raise EngineCrash("the engine is not running (it crashed before): restart it",
                              request=message.to_json(0))
        value = self._call(message, method, *args)
        request = message.to_json(0)
        try:
            value = json.loads(json.dumps(value))  # a copy, and proof that it would cross the protocol
        except (TypeError, ValueError) as error:
            self._crash(request, f"the answer is not JSON data: {error}")
        problem = msg.check_reply({"id": 0, "ok": True, field: value}, request, message.reply)
        if problem:
            self._crash(request, f"malformed answer ({problem})")
        return value

    def _crash(self, request: dict, message: str) -> None:
        self.close()
        self.last_error = EngineCrash(message, request=request, stderr=self._tail)
        raise self.last_error

    # -- the Engine interface ----------------------------------------------------------------------------------

    def hello(self) -> EngineInfo:
        info = self._call(msg.Hello(), self.engine.hello)
        if not isinstance(info, EngineInfo):
            self._crash(msg.Hello().to_json(0), f"hello() returned {type(info).__name__}, not an EngineInfo")
        if info.capabilities.lacking():  # the schema's minItems, for a hello that is no JSON
            self._crash(msg.Hello().to_json(0), f"hello() offers {info.capabilities.lacking()}: it can play no "
                                                "game, so nothing could be judged")
        self.info = info
        return info

    def new_game(self, players: int, variant: str = "colour", start_player: int = 0) -> CanonicalState:
        return self._checked(msg.NewGame(players, variant, start_player), "state",
                             lambda: self.engine.new_game(players, variant, start_player))

    def deal(self, factories: list[str] | None = None) -> CanonicalState:
        factories = None if factories is None else list(factories)
        return self._checked(msg.Deal(factories), "state", lambda: self.engine.deal(factories))

    def load_state(self, state: CanonicalState) -> CanonicalState:
        copy = json.loads(json.dumps(state))
        return self._checked(msg.LoadState(copy), "state", lambda: self.engine.load_state(copy))

    def legal_moves(self) -> list[str]:
        return self._checked(msg.LegalMoves(), "moves", lambda: self.engine.legal_moves())

    def play(self, move: str) -> CanonicalState:
        return self._checked(msg.Play(move), "state", lambda: self.engine.play(move))

    def state(self) -> CanonicalState:
        return self._checked(msg.State(), "state", lambda: self.engine.state())

    def __repr__(self) -> str:
        return f"InProcessEngine({self.label!r})"


def _error_json(error: Rejected) -> dict:
    data: dict[str, Any] = {"code": error.code}
    if error.message:
        data["message"] = error.message
    if error.rule is not None:
        data["rule"] = error.rule
    return data


# -- a KeyboardInterrupt: the user's or the engine's ----------------------------------------------------------

_signalled = 0  # SIGINT and SIGTERM received by this process since its first in-process engine


class _Counted:
    """A signal handler that counts the signal, then does what the handler it stands in for does."""

    def __init__(self, handler: Callable[..., Any]) -> None:
        self.handler = handler

    def __call__(self, number: int, frame: Any) -> Any:
        global _signalled
        _signalled += 1
        return self.handler(number, frame)


def _count_signals() -> None:
    """Count the SIGINT and SIGTERM this process receives, so that a KeyboardInterrupt raised inside an engine's
    call is told from the user's: the same on every -j (a worker ignores SIGINT, and its engine's exception was
    its death, `error`, where in the main process it stopped the run). Only the main thread receives signals;
    a handler that is not Python's (ignored, the default) raises nothing and is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(number)
        if callable(handler) and not isinstance(handler, _Counted):
            signal.signal(number, _Counted(handler))


def _where(error: BaseException) -> str:
    """` (at file:line)`: the innermost frame outside the import machinery, where the engine's import broke."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith("<frozen") and "importlib" not in f.filename
              and f.filename != __file__]
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _traceback(error: BaseException, lines: int = 20) -> str:
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])
