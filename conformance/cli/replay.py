"""`azul replay`: replay an annotated game record (.azr), checking every move and claim, drawing the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from azul_conformance.records import RecordError, ReplayError, Step, read_record, replay as replay_record
from azul_conformance.records.table import table


def _names(record: Any) -> dict[int, str]:
    return {seat: name for seat in range(record.players) if (name := record.header(f"Seat{seat}"))}


class _Show:
    """What happens at each step: the terminal table after each round, an SVG per step when asked."""

    def __init__(self, console: Console, names: dict[int, str], svg_dir: Path | None, quiet: bool) -> None:
        self.console, self.names, self.svg_dir, self.quiet = console, names, svg_dir, quiet
        self.count = 0
        self.deal = ""

    def __call__(self, step: Step) -> None:
        if self.svg_dir is not None:
            self.write_svg(step)
        self.count += 1
        if step.kind == "deal":
            self.deal = " ".join(f or "-" for f in step.state["factories"])
        state = step.state
        round_over = step.kind in ("take", "placement") and state["phase"] in ("deal", "over")
        if round_over and not self.quiet:
            self.console.rule(f"after round {step.round} (dealt {self.deal})")
            self.console.print(table(state, self.names))

    def write_svg(self, step: Step) -> None:
        from azul_conformance.render_svg import render_state  # only needed with --svg

        label = "start" if step.kind == "start" else f"round{step.round}-{step.label}"
        path = self.svg_dir / f"{self.count:04d}-{label}.svg"
        path.write_text(render_state(step.state) + "\n", encoding="utf-8")


def _fail(console: Console, error: RecordError, names: dict[int, str]) -> None:
    click.echo(str(error), err=True)
    if isinstance(error, ReplayError) and error.state:
        console.print("The table at that point:", style="bold")
        console.print(table(error.state, names))
    raise SystemExit(1)


@click.command()
@click.argument("record_file", metavar="FILE.azr", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write an SVG of the table after every step into this folder (numbered files).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the canonical state after every step (a JSON array of azul-state/1) to this file.")
@click.option("--lenient", is_flag=True, help="Repair what can be repaired (lower case, a missing round "
              "label...) and list every repair, instead of stopping at the first problem.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict (and errors).")
def replay(record_file: Path, svg_dir: Path | None, json_out: Path | None, lenient: bool, quiet: bool) -> None:
    """Replay an annotated game record, checking each deal, move and claim.

    The table is shown after every round. The replay stops at the first illegal deal or move, or the first
    wrong claim, naming its line:column and showing the table there (exit status 1).

    \b
    Examples:
      azul replay game.azr
      azul replay game.azr --svg frames/ --json states.json
      azul replay scribbled.azr --lenient
    """
    console = Console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    names: dict[int, str] = {}
    try:
        record, repairs = read_record(record_file, lenient=lenient)
        names = _names(record)
        for repair in repairs:
            click.echo(f"{record_file}:{repair} (repaired)", err=True)
        if svg_dir is not None:
            svg_dir.mkdir(parents=True, exist_ok=True)
        show = _Show(console, names, svg_dir, quiet)
        text = record_file.read_text(encoding="utf-8", errors="replace")
        result = replay_record(record, text=text, on_step=show)
    except RecordError as error:
        _fail(errors, error, names)
        return
    except OSError as error:
        raise click.ClickException(f"{error.filename or record_file}: {error.strerror or error}") from None
    if json_out is not None:
        json_out.write_text(json.dumps(result.states, indent=1) + "\n", encoding="utf-8")
    _verdict(record, result)


def _verdict(record: Any, result: Any) -> None:
    final = result.final
    moves = sum(1 for step in result.steps if step.kind in ("take", "placement"))
    rounds = sum(1 for step in result.steps if step.kind == "deal")
    summary = f"{rounds} rounds, {moves} moves, {result.claims_checked} claims checked: all correct."
    if final["phase"] == "over":
        scores = " ".join(str(board["score"]) for board in final["boards"])
        won = ", ".join(record.seat_name(seat) for seat in final["winners"])
        summary += f" Final scores {scores}; won by {won}."
    else:
        summary += f" The record stops before the end (round {final['round']}, phase {final['phase']})."
    click.echo(summary)
