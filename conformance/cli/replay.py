"""`azul replay`: replay annotated game records (.azr), checking every move and claim.

One record: the table after every round, and on a disagreement the step where the record and our rules
part ways, the rule that decides it and both sides' values. Several records (files, folders): a progress bar,
one line per game that does not agree, and a summary grouped by the rule that decides each disagreement.

The files written (--json, --jsonl) are written under a temporary name beside them and renamed once whole: a
replay that fails (a worker process that died, Ctrl-C) leaves none.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from azul_conformance import fuzz as fuzzing  # its names load when first used: --help loads no campaign
from azul_conformance.processes import WorkerLost
from azul_conformance.harness.progress import RunProgress
from azul_conformance.harness.terminal import output_console
from azul_conformance.records import RecordError, ReplayError, Step, replay as replay_record
from azul_conformance.records.engine_replay import replay_on_engine
from azul_conformance.records.batch import VERDICTS, BatchResult, GameVerdict, record_sources, replay_sources
from azul_conformance.records.parser import parse_record, read_text, repair_record
from azul_conformance.readers import is_archive, safe_text
from azul_conformance.records.table import table
from azul_conformance.spec_data import rule_titles
from ..render_svg import render_state
from azul_conformance.cli.numbers import DAY, JOBS, Number
from azul_conformance.cli.engine_option import ENGINE


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


def _fail(console: Console, error: RecordError, names: dict[int, str], engine: Any = None) -> None:
    click.echo(str(error), err=True)
    # a crash or a timeout (no disagreement to show): what the engine said on its way down
    failed = (engine is not None and not getattr(error, "on_reference", True)
              and getattr(error, "disagreement", None) is None)
    stderr = engine.stderr_tail() if failed else ""
    if stderr.strip():
        click.echo("The engine's standard error (its last lines):\n" + stderr.rstrip(), err=True)
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
@click.argument("paths", metavar="FILE.azr|FOLDER|ARCHIVE...", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="One record: write an SVG of the table after every step into this folder (numbered files).")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), default=None,
              help="One record: write the canonical state after every step (a JSON array of azul-state/1). "
                   "Several: write every game's verdict and the summary (- for standard output; it holds every "
                   "verdict in memory: for big datasets use --jsonl).")
@click.option("--jsonl", "jsonl_out", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), default=None,
              help="Several records: write one JSON line per game as it is judged (file, verdict, moves, "
                   "claims_checked, and where it parts ways), then a last line with the summary.")
@click.option("--jobs", "-j", "workers", type=Number(int, 1, JOBS), default=1, show_default=True,
              help="Several records: replay on this many processes of this machine.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
              help="Several records: replay on a Dask cluster (the cluster mode of azul fuzz; pip install "
                   "'azul-conformance[cluster]'); records are read here and sent in chunks. A cluster with no "
                   "worker for 60 s is given up (exit status 2).")
@click.option("--lenient", is_flag=True, help="One record: repair what can be repaired (lower case, a missing "
              "round label...) and list every repair, instead of stopping at the first problem.")
@click.option("--engine", "engine", type=ENGINE, metavar="CMD", default=None,
              help="One record: replay it on this engine (a protocol-v1 command, or py:MODULE:FACTORY in-process) "
                   "and check each claim against the engine's state; the record is first replayed on the "
                   "reference, and must agree with our rules. Default: the reference engine, in-process.")
@click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0, show_default=True,
              help="Seconds per request to the engine (--engine).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict (and errors).")
def replay(paths: tuple[Path, ...], svg_dir: Path | None, json_out: Path | None, jsonl_out: Path | None,
           workers: int, scheduler: str | None, lenient: bool, engine: str | None, timeout: float,
           quiet: bool) -> None:
    """Replay annotated game records, checking each deal, move and claim.

    With one record, the table is shown after every round. The replay stops at the first illegal deal or
    move, or the first false claim, naming its line:column, the step where the record and our rules part
    ways, the rule that decides it and both sides' values (exit status 1; 0 when the record declares that
    rule difference with [%differs RULE "..."]).

    With --engine, one record judges your engine: it is replayed on the reference (it must agree with our
    rules), then on the engine, move by move; the first claim the engine's state contradicts is named by its
    line:column with the rule (the catalogued misreading that gives the engine's value), and a deal or move the
    engine refuses, a crash or a timeout is said as such (exit status 1).

    With several records, folders (searched for *.azr) or archives of them (.tar, .tar.gz, .zip), every game
    is replayed with a progress display and summed up: games, moves, claims checked, the games that disagree
    grouped by the rule that decides, and the speed (exit status 1 if a game disagrees without a declared
    reason or is not a valid record). Records are read one at a time: memory stays flat however many.

    \b
    Examples:
      azul replay game.azr
      azul replay game.azr --svg frames/ --json states.json
      azul replay scribbled.azr --lenient
      azul replay game.azr --engine "./my-engine"
      azul replay imported/ --json report.json
      azul replay dataset.tar.gz -j 2 --jsonl verdicts.jsonl
      azul replay dataset.tar.gz --scheduler tcp://10.0.0.5:8786 --jsonl verdicts.jsonl
    """
    refuse_outputs_among_inputs(paths, [p for p in (json_out, jsonl_out) if p is not None])
    if len(paths) == 1 and paths[0].is_file() and not is_archive(paths[0]):
        if jsonl_out is not None or workers > 1 or scheduler:
            raise click.UsageError("--jsonl, --jobs and --scheduler work on several records; give a folder")
        _replay_one(paths[0], svg_dir, json_out, lenient, quiet, engine, timeout)
        return
    if svg_dir is not None or lenient or engine is not None:
        raise click.UsageError("--svg, --lenient and --engine work on one record; give a single FILE.azr")
    if str(json_out) == "-" and str(jsonl_out) == "-":
        raise click.UsageError("--json - and --jsonl - cannot both write to standard output")
    to_stdout = "-" in (str(json_out), str(jsonl_out))  # standard output holds the JSON alone
    result = replay_batch(list(paths), quiet, summary_to_stderr=to_stdout, workers=workers, scheduler=scheduler,
                          jsonl=jsonl_out, keep=json_out is not None)
    if not result.count_all:
        raise click.UsageError("no .azr records in " + ", ".join(str(p) for p in paths))
    _write_json(json_out, result.to_json())
    if not result.ok:
        raise SystemExit(1)


def refuse_outputs_among_inputs(inputs: tuple[Path, ...], outputs: list[Path]) -> None:
    """An output that is one of the inputs (or a record inside an input folder) would be overwritten while it is
    read, or read as it is written: refused before anything is read or written."""
    for output in outputs:
        if str(output) == "-":
            continue
        target = output.resolve()
        for given in inputs:
            source = given.resolve()
            if target == source or _same_file(output, given):
                raise click.UsageError(f"{output} is one of the inputs: refusing to overwrite it")
            if source.is_dir() and target.is_relative_to(source) and target.name.endswith(".azr"):
                raise click.UsageError(f"{output} is inside the input folder {given} and would be read as a "
                                       f"record: write it elsewhere")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def _replay_one(record_file: Path, svg_dir: Path | None, json_out: Path | None, lenient: bool, quiet: bool,
                engine_spec: str | None = None, timeout: float = 5.0) -> None:
    console = output_console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    names: dict[int, str] = {}
    engine = None
    try:
        text = read_text(record_file)
        source = str(record_file)
        record, repairs = repair_record(text, source) if lenient else (parse_record(text, source), ())
        names = _names(record)
        for repair in repairs:
            click.echo(f"{record_file}:{repair} (repaired)", err=True)
        if svg_dir is not None:
            svg_dir.mkdir(parents=True, exist_ok=True)
        show = _Show(console, names, svg_dir, quiet)
        if engine_spec is None:
            result = replay_record(record, text=text, on_step=show)
        else:
            engine = _start(engine_spec, timeout)
            result = replay_on_engine(record, engine, text=text, on_step=show)
    except RecordError as error:
        if engine_spec is not None and getattr(error, "on_reference", False):
            click.echo("The record itself parts ways with our rules, so it cannot judge an engine past this point "
                       "(the engine was not asked):", err=True)
        _fail(errors, error, names, engine)
        return
    except OSError as error:
        raise click.ClickException(f"{error.filename or record_file}: {error.strerror or error}") from None
    finally:
        if engine is not None:
            engine.close()
    _write_json(json_out, result.states)
    _verdict(record, result, engine)


def _start(spec: str, timeout: float) -> Any:
    """The engine under test, started and greeted; a clear error (never a traceback) when it cannot be."""
    # deferred: --help and a plain replay load no engine machinery
    from azul_conformance.engines.base import EngineError
    from azul_conformance.engines.opening import open_engine

    try:
        return open_engine(spec, timeout=timeout)
    except EngineError as error:
        tail = f"\n{error.stderr.rstrip()}" if getattr(error, "stderr", "") else ""
        raise click.ClickException(f"{error.message}{tail}") \
            from None


def _write_json(path: Path | None, data: Any) -> None:
    """--json: the document to the file, or to standard output for `-` (nothing without --json)."""
    if path is not None:
        text = json.dumps(data, indent=1) + "\n"
        if str(path) == "-":
            click.echo(text, nl=False)
        else:
            out = _Whole(path)
            try:
                out.file.write(text)
            except BaseException:
                out.discard()
                raise
            out.close()


class _Whole:
    """A file written under a temporary name beside `path` (`file`), given its name once whole (`close`), or
    removed (`discard`): a reader never finds it half-written, whatever ends the run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            self.file = self.partial.open("w", encoding="utf-8")
        except OSError as error:
            raise click.ClickException(f"{path}: {error.strerror or error}") from None

    def close(self) -> None:
        try:
            self.file.close()
            os.replace(self.partial, self.path)
        except OSError as error:
            self.partial.unlink(missing_ok=True)
            raise click.ClickException(f"{self.path}: {error.strerror or error}") from None

    def discard(self) -> None:
        try:
            self.file.close()
        finally:
            self.partial.unlink(missing_ok=True)


def _verdict(record: Any, result: Any, engine: Any = None) -> None:
    final = result.final
    moves = sum(1 for step in result.steps if step.kind in ("take", "placement"))
    rounds = sum(1 for step in result.steps if step.kind == "deal")
    on = f" on {safe_text(engine.info.name, 60)} {safe_text(engine.info.version, 30)}" \
        if engine is not None and getattr(engine, "info", None) else ""
    summary = f"{rounds} rounds, {moves} moves, {result.claims_checked} claims checked{on}: all correct."
    if final["phase"] == "over":
        scores = " ".join(str(board["score"]) for board in final["boards"])
        won = ", ".join(record.seat_name(seat) for seat in final["winners"])
        summary += f" Final scores {scores}; won by {won}."
    else:
        summary += f" The record stops before the end (round {final['round']}, phase {final['phase']})."
    click.echo(summary, err=False)


def _executor(workers: int, scheduler: str | None):
    """Where the chunks of records go: the executors of azul fuzz (a Dask cluster, or processes here)."""
    if scheduler:
        return fuzzing.DaskExecutor(scheduler, say=lambda text: click.echo(f"replay: {text}", err=True))
    if workers > 1:
        return fuzzing.LocalExecutor(workers)
    return None


def _total(paths: list[Path]) -> int | None:
    """How many records there are, when that costs only a look at the folders (an archive is read once only)."""
    if any(is_archive(p) for p in paths if not p.is_dir()):
        return None
    return sum(sum(1 for _ in p.rglob("*.azr")) if p.is_dir() else 1 for p in paths)


def replay_batch(paths: list[Path], quiet: bool = False, summary_to_stderr: bool = False, *, workers: int = 1,
                 scheduler: str | None = None, jsonl: Path | None = None, keep: bool = False) -> BatchResult:
    """Replay every record with the progress display on standard error, then print the summary; with `jsonl`,
    one JSON line per game as it comes, then the summary's."""
    errors = Console(stderr=True, highlight=False)
    out = whole = None
    if jsonl is not None:
        if str(jsonl) == "-":
            out = click.get_text_stream("stdout")
        else:
            whole = _Whole(jsonl)
            out = whole.file
    executor = _executor(workers, scheduler)
    progress = RunProgress(errors, _total(paths), label="replay", unit="game", bad_unit="failure",
                           plain_every=0 if quiet else None)  # quiet: the verdicts and the summary only
    bad = 0

    def on_game(game: GameVerdict) -> None:
        nonlocal bad
        bad += game.verdict in ("disagrees", "invalid")
        progress.count(progress.done + 1, bad)
        if out is not None:
            out.write(json.dumps(game.to_json()) + "\n")
        if game.verdict != "agrees" and not quiet:
            errors.print(game.line, highlight=False, markup=False, soft_wrap=True)

    try:
        with progress:
            result = replay_sources(record_sources(paths), executor, on_game, keep=keep)
        if out is not None:
            out.write(json.dumps({"summary": result.summary_json()}) + "\n")
    except BaseException as error:
        if whole is not None:
            whole.discard()
        not_written = f"; {jsonl} not written" if whole is not None else ""
        if isinstance(error, WorkerLost):
            raise click.ClickException(f"a worker process replaying games died (exit status "
                                       f"{error.ended.exit_code}) after {progress.done} games{not_written}") from None
        if isinstance(error, fuzzing.CampaignError):  # a cluster with no worker, or one a task kept killing
            given_up = click.ClickException(f"{error}; {progress.done} games replayed before{not_written}")
            given_up.exit_code = 2
            raise given_up from None
        raise
    finally:
        if executor is not None:
            executor.close()
    if whole is not None:
        whole.close()
    if result.count_all:
        click.echo(summary_text(result), err=summary_to_stderr)
    return result


def _verb(verdict: str, count: int) -> str:
    return verdict[:-1] if count != 1 and verdict in ("agrees", "disagrees") else verdict


def summary_text(result: BatchResult) -> str:
    lines = [f"{result.count_all} games, {result.moves} moves, {result.claims} claims checked in "
             f"{result.seconds:.2f} s ({result.games_per_second:.1f} games/s): "
             + ", ".join(f"{result.count(v)} {_verb(v, result.count(v))}" for v in VERDICTS) + "."]
    titles = rule_titles()
    for verdict, heading in (("explained", "Explained by a rule difference the record declares"),
                             ("disagrees", "Disagreeing with our rules")):
        groups = result.by_rule(verdict)
        if groups:
            lines.append(f"{heading}:")
            for rule, (count, paths) in groups.items():
                title = f" ({titles[rule]})" if rule in titles else " (rule not identified)" if rule == "?" else ""
                names = ", ".join(Path(p).name for p in paths[:5]) + (" ..." if count > 5 else "")
                lines.append(f"  {rule}{title}: {count} game{'s' if count != 1 else ''}: {names}")
    invalid = [path for _, paths in result.by_rule("invalid").values() for path in paths]
    if invalid:
        count = result.count("invalid")
        lines.append(f"Not valid records: {count}: " + ", ".join(Path(p).name for p in invalid[:5])
                     + (" ..." if count > 5 else ""))
    return "\n".join(lines)
