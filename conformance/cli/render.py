"""`azul render`: draw a canonical azul-state/1 JSON file as an SVG picture."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .numbers import Number

from azul_conformance import readers
from azul_conformance.harness.outputs import write_atomically
from azul_conformance.render_svg import render_board, render_state
from azul_conformance.state_file import StateError, read_state


MAX_STATE = 1 << 20  # characters: a state is a few kilobytes; /dev/zero or a flood on stdin must not fill memory


def read_state_path(path: str) -> dict:
    """The state in the file `path` (`-`: standard input), read and checked: a FIFO, a device or a folder is
    refused by name (readers.read_file), never waited on; every failure a ClickException naming the file."""
    if path == "-":
        return load_state_file(sys.stdin, "<stdin>")
    try:
        data = readers.read_file(path, MAX_STATE)
    except readers.InputError as error:
        raise click.ClickException(f"{path}: cannot be read: {error}") from None
    except OSError as error:
        raise click.ClickException(f"{path}: cannot be read: {error.strerror or error}") from None
    return load_state_file(data, path)


def load_state_file(stream: Any, name: str) -> dict:
    """Read and check one state (from a stream, or the bytes of a file read by read_state_path); every failure is
    a ClickException naming the file (and line/column for JSON)."""
    try:
        text = stream.decode("utf-8") if isinstance(stream, bytes) else stream.read(MAX_STATE + 1)
        if len(text) > MAX_STATE:
            raise click.ClickException(f"{name}: more than {MAX_STATE:,} characters: larger than any state")
        return read_state(text, name)
    except UnicodeDecodeError as error:
        raise click.ClickException(f"{name}: not UTF-8 text (byte {error.start}): a state is a JSON file") from None
    except StateError as error:
        raise click.ClickException(str(error)) from None


@click.command()
@click.argument("state_file", type=click.Path(dir_okay=False, allow_dash=True), metavar="STATE.json")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default="stdout",
              metavar="OUT.svg", help="Where to write the SVG (written whole; a link there is replaced, never "
                                      "written through).")
@click.option("--seat", type=Number(int, 0, 3), default=None,
              help="Draw only this player's board (seats count from 0).")
def render(state_file: str, output: str, seat: int | None) -> None:
    """Draw a canonical state (azul-state/1 JSON) as an SVG picture.

    STATE.json may be `-` to read the state from standard input.

    \b
    Examples:
      azul render position.json -o position.svg
      azul render position.json --seat 1 -o seat1.svg
      cat position.json | azul render - > position.svg
    """
    name = "<stdin>" if state_file == "-" else state_file
    state = read_state_path(state_file)
    try:
        svg = render_state(state) if seat is None else render_board(state, seat)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise click.ClickException(f"{name}: cannot draw this state: {error}") from None
    if output == "-":
        click.echo(svg)
    else:
        write_atomically(Path(output), svg + "\n", make_folder=False)
