"""Reading a canonical state (azul-state/1 JSON) from a file a user gives: every failure a located StateError.

    read_state(text, name) -> dict     JSON, the format tag and the published schema checked
"""

from __future__ import annotations

from typing import Any

from .located import LocatedError, Span
from .readers import JsonError, json_document
from .schemas import validator


class StateError(LocatedError):
    """A state file that is not JSON, not an azul-state/1 state, or breaks the state schema."""


def read_state(text: str, name: str) -> dict[str, Any]:
    try:
        state = json_document(text)
    except JsonError as error:
        raise StateError(error.message, Span.at(name, error.line, error.column), text) from None
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        found = state.get("format") if isinstance(state, dict) else type(state).__name__
        raise StateError(f"not a canonical state: expected \"format\": \"azul-state/1\", found {found!r}",
                         Span(file=name))
    problems = sorted(validator("state.schema.json").iter_errors(state), key=lambda e: list(e.path))
    if problems:
        lines = [f"  at {_json_path(p.absolute_path)}: {p.message}" for p in problems[:10]]
        raise StateError("not a valid azul-state/1 state:\n" + "\n".join(lines), Span(file=name))
    return state


def _json_path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".") or "(top level)"
