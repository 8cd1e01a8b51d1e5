"""The first line of every report: which engine, which suite, and how the run was asked for; built here for
`azul conform` (session.py) and `azul fuzz` (fuzz/report.py) alike, so the two headers say the same things."""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from .. import readers
from ..readers import public_text
from ..engines.base import EngineInfo
from ..scenario import scenario_files
from ..scenario_rules import MAX_SCENARIO_FILE


def suite_version(scenario_paths: Iterable[str | Path] | None = None) -> str:
    """The package version and a fingerprint of the suite: the bytes of its scenario files (the bundled corpus
    unless others are named) and its properties' ids, e.g. `0.1.0+3f2a9c01`. Two runs with the same suite
    version ran the same cases; a report says which suite judged the engine."""
    # deferred: the properties load hypothesis (0.3 s), which scenarios alone never need
    from ..properties.suite import PROPERTIES

    try:
        version = metadata.version("azul-conformance")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        version = "0+unknown"
    digest = hashlib.sha256()
    for path in scenario_files(list(scenario_paths) if scenario_paths else None):
        try:  # as the loader reads it: a FIFO, a device or a huge file is refused, never waited on or read whole
            data = readers.read_file(path, MAX_SCENARIO_FILE)
        except (readers.InputError, OSError) as error:  # the loader says what is wrong; the fingerprint notes it
            data = f"unreadable: {error}".encode()
        digest.update(path.name.encode() + b"\0" + data)
    digest.update(" ".join(p.id for p in PROPERTIES).encode())
    return f"{version}+{digest.hexdigest()[:8]}"


def run_header(info: EngineInfo, *, command: str, seed: int, examples: int | None, timeout: float,
               only: Iterable[str], cases: int, scenario_paths: Iterable[str | Path] | None = None,
               **more: Any) -> dict[str, Any]:
    """A report's header: the engine's hello, the run's settings, the suite version of the scenario files it
    loaded (the bundled corpus unless others are named), then `more` (fields only some runs have). The command,
    and a recording's, as `public_text` shows them."""
    if isinstance(more.get("recording"), dict) and isinstance(more["recording"].get("command"), str):
        more["recording"] = {**more["recording"], "command": public_text(more["recording"]["command"])}
    return {"engine": {"name": info.name, "version": info.version, "protocol": info.protocol,
                       "capabilities": info.capabilities.to_json()},
            "command": public_text(command), "seed": seed, "examples": examples, "timeout": timeout,
            "only": list(only), "cases": cases, "suite_version": suite_version(scenario_paths), **more}
