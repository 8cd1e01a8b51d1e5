"""The engines interface: how the suite reaches any engine (API for engine authors).

A Python engine implements `Engine` (base.py) and hands the suite a factory: `azul conform --engine
py:my_package.adapter:make_engine` runs it in-process (inprocess.py says what that can and cannot isolate).
Any other engine speaks protocol v1 as a subprocess (subprocess.py).
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    ".base": "CanonicalState Capabilities Engine EngineCrash EngineError EngineInfo EngineTimeout Rejected",
    ".opening": "load_recording open_engine",
})

__all__ = ["CanonicalState", "Capabilities", "Engine", "EngineCrash", "EngineError", "EngineInfo", "EngineTimeout",
           "Rejected", "load_recording", "open_engine"]
