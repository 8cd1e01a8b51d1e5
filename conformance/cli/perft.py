"""`azul perft`: count legal move sequences within a round (a move-generator oracle)."""

from __future__ import annotations

import random
import time

import click

from ..cli.render import read_state_path
from ..engines.base import EngineError, Rejected
from ..engines.opening import open_engine
from ..engines.reference import ReferenceEngine
from ..properties.canonical import draw_deal
from .. import perft as counting
from .engine_option import ENGINE
from .numbers import DAY, Number, SEEDS


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "engine", type=ENGINE, metavar="CMD", default=None,
              help="Command of a protocol-v1 engine, or py:MODULE:FACTORY for a Python engine in-process (needs "
                   "load_state): its counts are compared with the reference's at each depth from 1, and the "
                   "first position where the two list other moves is shown (exit status 1). Default: the "
                   "reference engine alone, in-process.")
@click.option("--state", "state_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="An azul-state/1 JSON file. Default: a new two-player game after a deal drawn with --seed.")
@click.option("--depth", type=Number(int, 0, 200), required=True,
              help="Number of moves (sequences stop at the round's end).")
@click.option("--divide", is_flag=True, help="Show the count after each first move.")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True,
              help="Seed of the deal for the default position.")
@click.option("--players", type=Number(int, 2, 4), default=2, show_default=True,
              help="Players for the default position.")
@click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0, show_default=True,
              help="Seconds per request (--engine).")
def perft(engine, state_file, depth, divide, seed, players, timeout) -> None:
    """Count the legal move sequences of DEPTH moves from a position, within its round.

    Two engines with the same counts at every depth generate the same legal moves. With --engine, the
    engine's counts are compared with the reference's at each depth up to DEPTH; at the first depth where they
    differ, the first position where the two list other moves (or where one side's round ends and the other's
    goes on) is shown, with the moves from the start and the moves only one side lists (exit status 1).
    --divide shows the counts under each first move.

    \b
    Examples:
      azul perft --depth 2                       # reference engine, a dealt two-player position
      azul perft --state position.json --depth 3 --divide
      azul perft --engine "./my-engine" --state position.json --depth 3   # compared with the reference
    """
    try:
        runner = _open(engine, timeout)
    except EngineError as error:
        raise click.ClickException(f"cannot start the engine: {error.message}") from None
    try:
        if engine is not None:
            position = _position(ReferenceEngine(), state_file, seed, players)
            if not _compare(runner, position, depth, divide):
                raise SystemExit(1)
            return
        position = _position(runner, state_file, seed, players)
        started = time.perf_counter()
        if divide:
            counts = counting.divide(runner, position, depth)
            for move, count in counts.items():
                click.echo(f"{move}: {count}")
            total = sum(counts.values())
        else:
            total = counting.perft(runner, position, depth)
        click.echo(f"perft({depth}) = {total}  ({time.perf_counter() - started:.2f} s)")
    except Rejected as error:
        raise click.ClickException(f"the engine refused: {error.code}: {error.message}") from None
    except EngineError as error:
        raise click.ClickException(f"engine failure: {error.message}") from None
    finally:
        runner.close()


def _compare(engine, position, depth: int, divide: bool) -> bool:
    """The engine's counts beside the reference's at each depth; at the first that differs, where. True: the same."""
    reference = ReferenceEngine()
    for level in range(1, depth + 1):
        theirs, ours = counting.perft(engine, position, level), counting.perft(reference, position, level)
        click.echo(f"perft({level}): engine {theirs}, reference {ours}" + ("" if theirs == ours else "  <- differs"))
        if theirs != ours:
            _show_parting(counting.first_parting(engine, reference, position, level))
            return False
    if divide and depth >= 1:
        theirs, ours = counting.divide(engine, position, depth), counting.divide(reference, position, depth)
        for move in sorted(set(theirs) | set(ours)):
            click.echo(f"{move}: engine {theirs.get(move, '-')}, reference {ours.get(move, '-')}")
    click.echo(f"The same counts as the reference at every depth from 1 to {depth}.")
    return True


def _show_parting(parting) -> None:
    if parting is None:  # equal trees give equal counts: a count that differs has a place where they part
        click.echo("(the two move trees were walked again and found equal: the engine answers differently from "
                   "one walk to the next)")
        return
    where = "after " + " ".join(parting.path) if parting.path else "at the start position"
    if parting.ends:
        other = "reference" if parting.ends == "engine" else "engine"
        click.echo(f"First parting, {where}: the {parting.ends}'s round ends there, the {other}'s goes on.")
        return
    click.echo(f"First parting, {where}: the engine lists {len(parting.theirs)} moves, the reference "
               f"{len(parting.ours)}.")
    only_theirs = sorted(set(parting.theirs) - set(parting.ours))
    only_ours = sorted(set(parting.ours) - set(parting.theirs))
    click.echo("  only the engine lists:    " + (" ".join(only_theirs) or "none"))
    click.echo("  only the reference lists: " + (" ".join(only_ours) or "none"))


def _open(command, timeout):
    return open_engine(command, timeout=timeout)


def _position(engine, state_file, seed, players):
    if state_file:
        return read_state_path(state_file)  # a regular file, JSON, format and schema checked, file:line:col named

    state = engine.new_game(players)
    return engine.deal(draw_deal(state, random.Random(seed)))
