"""`azul replay`: replay annotated game records (.azr), checking every move and claim.

One record: the table after every round, and on a disagreement the step where the record and our rules
part ways, the rule that decides it and both sides' values. Several records (files, folders): a progress bar,
one line per game that does not agree, and a summary grouped by the rule that decides each disagreement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from azul_conformance.readers import safe_text
from azul_conformance.records import RecordError, ReplayError, Step, read_record, replay as replay_record
from azul_conformance.records.batch import BatchResult, GameVerdict, VERDICTS, record_files, replay_all
from azul_conformance.records.table import table
from azul_conformance.spec_data import rule_titles
from ..render_svg import render_state


def _names(record: Any) -> dict[int, str]:
    # a record is outside text: no terminal escapes through to the screen
    return {seat: safe_text(name, 40) for seat in range(record.players) if (name := record.header(f"Seat{seat}"))}


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
        label = "start" if step.kind == "start" else f"round{step.round}-{step.label}"
        path = self.svg_dir / f"{self.count:04d}-{label}.svg"
        path.write_text(render_state(step.state) + "\n", encoding="utf-8")


def _fail(console: Console, error: RecordError, names: dict[int, str]) -> None:
    click.echo(str(error), err=True)
    found = getattr(error, "disagreement", None)
    if found is not None:
        click.echo("\n".join(found.lines(rule_titles())), err=True)
    if isinstance(error, ReplayError) and error.state:
        console.print("The table at that point:", style="bold")
        console.print(table(error.state, names))
    if found is not None and found.declared:
        click.echo("The record declares this rule difference: the disagreement is explained (exit status 0).",
                   err=True)
        raise SystemExit(0)
    raise SystemExit(1)


@click.command()
@click.argument("paths", metavar="FILE.azr|FOLDER...", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="One record: write an SVG of the table after every step into this folder (numbered files).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), default=None,
              help="One record: write the canonical state after every step (a JSON array of azul-state/1). "
                   "Several: write every game's verdict and the summary (- for standard output).")
@click.option("--lenient", is_flag=True, help="One record: repair what can be repaired (lower case, a missing "
              "round label...) and list every repair, instead of stopping at the first problem.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict (and errors).")
def replay(paths: tuple[Path, ...], svg_dir: Path | None, json_out: Path | None, lenient: bool, quiet: bool) -> None:
    """Replay annotated game records, checking each deal, move and claim.

    With one record, the table is shown after every round. The replay stops at the first illegal deal or
    move, or the first false claim, naming its line:column, the step where the record and our rules part
    ways, the rule that decides it and both sides' values (exit status 1; 0 when the record declares that
    rule difference with [%differs RULE "..."]).

    With several records or a folder (searched for *.azr), every game is replayed with a progress bar and
    summed up: games, moves, claims checked, the games that disagree grouped by the rule that decides, and
    the speed (exit status 1 if a game disagrees without a declared reason or is not a valid record).

    \b
    Examples:
      azul replay game.azr
      azul replay game.azr --svg frames/ --json states.json
      azul replay scribbled.azr --lenient
      azul replay imported/ --json report.json
    """
    if len(paths) == 1 and paths[0].is_file():
        _replay_one(paths[0], svg_dir, json_out, lenient, quiet)
        return
    if svg_dir is not None or lenient:
        raise click.UsageError("--svg and --lenient work on one record; give a single FILE.azr")
    files = record_files(paths)
    if not files:
        raise click.UsageError("no .azr records in " + ", ".join(str(p) for p in paths))
    to_stdout = json_out is not None and str(json_out) == "-"
    result = replay_batch(files, quiet, summary_to_stderr=to_stdout)  # `--json -`: standard output is JSON only
    _write_json(json_out, result.to_json())
    if not result.ok:
        raise SystemExit(1)


def _replay_one(record_file: Path, svg_dir: Path | None, json_out: Path | None, lenient: bool, quiet: bool) -> None:
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
    _write_json(json_out, result.states)
    _verdict(record, result)


def _write_json(path: Path | None, data: Any) -> None:
    """--json: the document to the file, or to standard output for `-` (nothing without --json)."""
    if path is not None:
        text = json.dumps(data, indent=1) + "\n"
        if str(path) == "-":
            click.echo(text, nl=False)
        else:
            path.write_text(text, encoding="utf-8")


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
    click.echo(summary, err=False)


def replay_batch(files: list[Path], quiet: bool = False, summary_to_stderr: bool = False) -> BatchResult:
    """Replay every file with a progress bar on standard error, then print the summary."""
    errors = Console(stderr=True, highlight=False)
    with Progress(TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=errors, transient=True) as progress:
        task = progress.add_task("games", total=len(files))

        def on_game(game: GameVerdict) -> None:
            progress.advance(task)
            if game.verdict != "agrees" and not quiet:
                progress.console.print(_game_line(game), highlight=False, markup=False, soft_wrap=True)

        result = replay_all(files, on_game)
    click.echo(summary_text(result), err=summary_to_stderr)
    return result


def _game_line(game: GameVerdict) -> str:
    error = game.error
    where = f"{error.where}: " if error is not None else f"{game.path}: "
    found = getattr(error, "disagreement", None)
    if found is None:
        return f"{game.verdict}: {where}{error.message if error else ''}"
    rule = found.rule or "rule not identified"
    text = f"{game.verdict} [{rule}]: {where}{found.where}: ours {found.ours}; record {found.record}"
    return text + (f" (declared: {found.declared})" if found.declared else "")


def _verb(verdict: str, count: int) -> str:
    return verdict[:-1] if count != 1 and verdict in ("agrees", "disagrees") else verdict


def summary_text(result: BatchResult) -> str:
    lines = [f"{len(result.games)} games, {result.moves} moves, {result.claims} claims checked in "
             f"{result.seconds:.2f} s ({result.games_per_second:.1f} games/s): "
             + ", ".join(f"{result.count(v)} {_verb(v, result.count(v))}" for v in VERDICTS) + "."]
    titles = rule_titles()
    for verdict, heading in (("explained", "Explained by a rule difference the record declares"),
                             ("disagrees", "Disagreeing with our rules")):
        groups = result.by_rule(verdict)
        if groups:
            lines.append(f"{heading}:")
            for rule, games in groups.items():
                title = f" ({titles[rule]})" if rule in titles else " (rule not identified)" if rule == "?" else ""
                names = ", ".join(Path(g.path).name for g in games[:5]) + (" ..." if len(games) > 5 else "")
                lines.append(f"  {rule}{title}: {len(games)} game{'s' if len(games) != 1 else ''}: {names}")
    invalid = [g for g in result.games if g.verdict == "invalid"]
    if invalid:
        lines.append(f"Not valid records: {len(invalid)}: " + ", ".join(Path(g.path).name for g in invalid[:5])
                     + (" ..." if len(invalid) > 5 else ""))
    return "\n".join(lines)
