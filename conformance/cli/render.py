"""`azul render`: draw a canonical azul-state/1 JSON file as an SVG picture."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import click

from azul_conformance.readers import JsonError, json_document
from azul_conformance.render_svg import render_board, render_state


def _schema() -> dict | None:
    """The published state schema, when spec/ ships it (it may not exist yet in an early tree)."""
    try:
        path = resources.files("azul_spec") / "schema" / "state.schema.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    except (ModuleNotFoundError, OSError, ValueError):
        return None
    return None


def _json_path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".") or "(top level)"


def load_state_file(stream: Any, name: str) -> dict:
    """Read and check one state; every failure is a ClickException naming the file (and line/column for JSON)."""
    try:
        text = stream.read()
    except UnicodeDecodeError as error:
        raise click.ClickException(f"{name}: not UTF-8 text (byte {error.start}): a state is a JSON file") from None
    try:
        state = json_document(text)
    except JsonError as error:
        where = f":{error.line}:{error.column}" if error.line else ""
        raise click.ClickException(f"{name}{where}: {error.message}") from None
    if not isinstance(state, dict) or state.get("format") != "azul-state/1":
        found = state.get("format") if isinstance(state, dict) else type(state).__name__
        raise click.ClickException(f"{name}: not a canonical state: expected \"format\": \"azul-state/1\", "
                                   f"found {found!r}")
    schema = _schema()
    if schema is not None:
        import jsonschema  # imported here so `azul --help` stays fast

        problems = sorted(jsonschema.Draft202012Validator(schema).iter_errors(state), key=lambda e: list(e.path))
        if problems:
            lines = [f"  at {_json_path(p.absolute_path)}: {p.message}" for p in problems[:10]]
            raise click.ClickException(f"{name}: not a valid azul-state/1 state:\n" + "\n".join(lines))
    return state


@click.command()
@click.argument("state_file", type=click.File("r", encoding="utf-8"), metavar="STATE.json")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", show_default="stdout",
              metavar="OUT.svg", help="Where to write the SVG.")
@click.option("--seat", type=int, default=None, help="Draw only this player's board (seats count from 0).")
def render(state_file: Any, output: Any, seat: int | None) -> None:
    """Draw a canonical state (azul-state/1 JSON) as an SVG picture.

    STATE.json may be `-` to read the state from standard input.

    \b
    Examples:
      azul render position.json -o position.svg
      azul render position.json --seat 1 -o seat1.svg
      cat position.json | azul render - > position.svg
    """
    name = "<stdin>" if state_file.name == "<stdin>" else state_file.name
    state = load_state_file(state_file, name)
    try:
        svg = render_state(state) if seat is None else render_board(state, seat)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise click.ClickException(f"{name}: cannot draw this state: {error}") from None
    output.write(svg + "\n")
