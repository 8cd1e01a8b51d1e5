"""A package's public names, imported when first asked for (PEP 562).

A package such as `harness` names its API in its __init__, but importing every module behind those names up front
makes each command pay for all of them: `azul replay` reached the property suite (and hypothesis) through
`harness.interrupts`, which costs half a second of start-up. With `lazy`, `from azul_conformance.harness import
Session` still works, and `harness.interrupts` alone loads only itself. A command module imports the package and
names what it uses through it (`harness.Session(...)`), so its --help loads nothing behind those names; a module
of the package is reached the same way (`mutants.published`), as after `import mutants.published`.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Callable


def lazy(package: str, homes: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """(__getattr__, __dir__) for `package`, given each module (relative, `.session`) and the names it exports
    (one string, apart by spaces)."""
    home = {name: module for module, names in homes.items() for name in names.split()}

    def __getattr__(name: str) -> Any:
        if name in home:
            return getattr(importlib.import_module(home[name], package), name)
        if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}") is not None:
            return importlib.import_module(f"{package}.{name}")  # a module of the package
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(home)

    return __getattr__, __dir__
