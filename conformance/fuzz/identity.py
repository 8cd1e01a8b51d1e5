"""Which engine a campaign is played against: what its hello says it is (name and version) and a digest of each
file its command names, so that a campaign resumes only for the same engine. A command line alone says too
little: `node engine.js` is the same command before and after engine.js is fixed, and results recorded against
the engine before the fix would be reported again as if it still had the bug."""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path
from typing import Any

from .campaign import CampaignSpec, engines_for

WHOLE = 64 << 20  # bytes: a larger file (an interpreter, a packed build) is known by its size and time instead


def engine_identity(spec: CampaignSpec) -> dict[str, Any]:
    """{"name", "version", "files": {path as named: digest}} of the campaign's engine (started if not yet)."""
    engine, _, _ = engines_for(spec)
    return {"name": engine.info.name, "version": engine.info.version, "files": named_files(spec.engine)}


def named_files(command: str | None) -> dict[str, str]:
    """A digest of each regular file the command names (its program where given as a path, its arguments)."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        return {}
    files = {}
    for number, word in enumerate(words):
        path = Path(word)
        if (number or "/" in word) and path.is_file():
            files[word] = _digest(path)
    return files


def _digest(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > WHOLE:
            return f"size {size}, modified {path.stat().st_mtime_ns}"
        return "sha256 " + hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        return f"unreadable ({error.strerror})"


def why_not_the_same(recorded: Any, now: dict[str, Any]) -> str:
    """Why the engine that played a recorded campaign is not `now`'s ('' when it is the same)."""
    if not isinstance(recorded, dict):
        return "the record does not say which engine played it (written before campaigns were keyed on the engine)"
    before = (recorded.get("name"), recorded.get("version"))
    if before != (now["name"], now["version"]):
        return f"the engine's hello says {now['name']} {now['version']}, the record {before[0]} {before[1]}"
    files = recorded.get("files") if isinstance(recorded.get("files"), dict) else {}
    changed = sorted(name for name in set(files) | set(now["files"]) if files.get(name) != now["files"].get(name))
    if changed:
        return f"{', '.join(changed[:5])} changed since it was recorded"
    return ""
