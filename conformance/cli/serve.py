"""`azul serve`: the reference engine over protocol v1 (or, with --misreading, the reference reading a rule
wrongly: how the diagnosis is tested over the protocol, and how an engine author sees a misreading at work)."""

from __future__ import annotations

import click

from ..engines.reference import serve_protocol
from ..readers import safe_text
from .numbers import Number, SEEDS


@click.command()
@click.option("--seed", type=Number(int, *SEEDS), default=None,
              help="Seed for the deals the engine draws itself (reproducible runs).")
@click.option("--misreading", default=None, metavar="ID[+ID]",
              help="Serve the reference with a catalogued misreading of the rules applied (azul mutants --list), "
                   "or a value of a rule that is a number as the diagnosis names it (end-column-bonus-8), or two "
                   "joined by +.")
def serve(seed: int | None, misreading: str | None) -> None:
    """Serve the reference engine over protocol v1 on stdin/stdout (one JSON object per line).

    \b
    Examples:
      printf '%s\\n' '{"id":1,"cmd":"hello","protocol":1}' \\
                     '{"id":2,"cmd":"new_game","players":2}' '{"cmd":"quit"}' | azul serve
      azul conform --engine "azul serve --misreading floor-penalties-flat"   # what the diagnosis names
      azul conform --engine "azul serve --misreading end-column-bonus-8"     # a rule's number, fitted
    """
    if misreading is None:
        raise SystemExit(serve_protocol(seed=seed))
    # deferred: the catalogue and the diagnosis load the harness, which plain `azul serve` does without
    from ..diagnosis.cover import pair
    from ..mutants.catalogue import reading
    from ..mutants.patching import applied

    names = misreading.split("+")
    # what cannot be served is refused, never dropped: A+B+C served A+B alone and said nothing
    if len(names) > 2:
        raise click.BadParameter(f"{len(names)} misreadings given: one, or two joined by + (the diagnosis tries "
                                 "no more at once)", param_hint="--misreading")
    unknown = [safe_text(name, 60) or '""' for name in names if reading(name) is None]
    if unknown:  # (clipped: the input is echoed, and an id of 100 KB was echoed whole)
        raise click.BadParameter(f"{', '.join(unknown)}: not in the catalogue (azul mutants --list), nor a "
                                 "value of a rule that is a number (floor-penalties-0-1-2-2-2-3-3)",
                                 param_hint="--misreading")
    if len(names) == 2 and names[0] == names[1]:
        raise click.BadParameter(f"{names[0]} twice: give it once, or two different misreadings",
                                 param_hint="--misreading")
    parts = [reading(name) for name in names]
    mutant = parts[0] if len(parts) == 1 else pair(*parts)
    with applied(mutant):
        raise SystemExit(serve_protocol(seed=seed))
