"""`azul serve`: the reference engine over protocol v1."""

from __future__ import annotations

import click

from .numbers import Number, SEEDS


@click.command()
@click.option("--seed", type=Number(int, *SEEDS), default=None,
              help="Seed for the deals the engine draws itself (reproducible runs).")
def serve(seed: int | None) -> None:
    """Serve the reference engine over protocol v1 on stdin/stdout (one JSON object per line).

    \b
    Example:
      printf '%s\\n' '{"id":1,"cmd":"hello","protocol":1}' \\
                     '{"id":2,"cmd":"new_game","players":2}' '{"cmd":"quit"}' | azul serve
    """
    from azul_conformance.engines.reference import serve_protocol

    raise SystemExit(serve_protocol(seed=seed))
