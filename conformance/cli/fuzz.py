"""`azul fuzz`: a long differential campaign, random games played in lockstep with the reference engine."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import click
from rich.console import Console

# The packages export their names lazily: --help loads no campaign, harness or diagnosis.
from .. import diagnosis, harness
from .. import fuzz as fuzzing
from ..harness import folder_lock
from ..harness.outputs import REPORT_FILES
from ..harness.progress import RunProgress
from ..notation import VARIANTS
from . import parse_players
from .engine_option import ENGINE
from .numbers import DAY, JOBS, SEEDS, Number, parse_duration

FORMAT_CHOICES = ("terminal", "jsonl", "junit", "markdown", "all")


def parse_variants(ctx, param, value: str) -> tuple[str, ...]:
    names = list(VARIANTS) if value == "both" else [v.strip() for v in value.split(",") if v.strip()]
    if not names or any(v not in VARIANTS for v in names):
        raise click.BadParameter(f"{value!r}: expected colour, grey, colour,grey or both")
    return tuple(dict.fromkeys(names))


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", type=ENGINE, metavar="CMD", default=None,
              help="Command that starts the engine under test (protocol v1). Default: the reference, in-process.")
@click.option("--games", type=Number(int, 1, fuzzing.MAX_GAMES), default=None,
              help="Play games 0 .. N-1 of the campaign.")
@click.option("--time", "seconds", callback=parse_duration, default=None, metavar="DURATION",
              help="Stop starting games after this long (90s, 15m, 2h); the state file keeps what was played.")
@click.option("--players", callback=parse_players, default="2", show_default=True, help="Player counts, e.g. 2,3,4.")
@click.option("--variant", "variants", callback=parse_variants, default="colour", show_default=True,
              help="Wall: colour, grey, or both.")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True,
              help="Campaign seed: game i is fixed by seed and i.")
@click.option("--workers", "-j", type=Number(int, 1, JOBS), default=1, show_default=True,
              help="Engine processes on this machine, each playing its own blocks of games.")
@click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
              help="Run the blocks on a Dask distributed cluster (needs the 'cluster' extra). A cluster with no "
                   "worker for 60 s, or when --time runs out, is given up (exit status 2; the state file keeps "
                   "what was played).")
@click.option("--state", "state_path", type=click.Path(dir_okay=False), default=None,
              help="State file recording the games played (default: fuzz-state.jsonl in --report-dir; without "
                   "either, a new temporary folder's). Run again with the same file to resume.")
@click.option("--fresh", is_flag=True, help="Start the campaign over, overwriting the state file.")
@click.option("--report-dir", type=click.Path(file_okay=False), default=None,
              help="Write report.jsonl, junit.xml, report.md and counterexamples/ here.")
@click.option("--format", "formats", multiple=True, type=click.Choice(FORMAT_CHOICES), default=("all",),
              show_default=True, help="Which reports to produce (repeatable).")
@click.option("--block", "block_size", type=Number(int, 1, 10 ** 6), default=50, show_default=True,
              help="Games per block (the unit of work handed to a worker and recorded in the state file).")
@click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0, show_default=True,
              help="Seconds the engine gets to answer each request.")
@click.option("--step-by-step", is_flag=True,
              help="Send every move as its own request even to an engine that offers play_game (about 10-30x "
                   "slower; compares the state after every step, not only at each round's end).")
@click.option("--shrink-seconds", type=Number(float, 0, DAY), default=20.0, show_default=True,
              help="Time spent shrinking each deviation's game (0: keep the game as found).")
def fuzz(engine, games, seconds, players, variants, seed, workers, scheduler, state_path, fresh, report_dir,
         formats, block_size, timeout, step_by_step, shrink_seconds) -> None:
    """Play random games against an engine, in lockstep with the reference engine.

    Game i of a campaign is fixed by --seed and i alone, so a campaign gives the same findings whether it
    runs in one process, on -j N processes or on a cluster, and whether it ran in one go or was resumed.
    It resumes only for the same engine (what its hello says it is, and the files its command names): after
    the engine's file changed it starts afresh, says why, and keeps the old state file beside the new one.
    A difference in a game is a deviation, named by the rule it breaks. After it the engine is put back
    on the reference's position (load_state, where it offers it) and the game goes on, so a bug in nearly
    every game hides no other. The same kind of difference in many games is one deviation, reported with
    how many games showed it and the first such game, shrunk and written as a scenario. The exit status is
    1 when a deviation was found (or the campaign was interrupted: its reports say so), 2 when the campaign
    could not start.

    An engine that offers play_game (docs/reference/protocol.md) gets each game in one request and answers
    with every legal-move list and the state at each round's end; a game whose answer differs from the
    reference's is replayed step by step to find and name its differences. Other engines are sent
    every move as its own request.

    \b
    Examples:
      azul fuzz --games 10000                                  # the reference against itself, in-process
      azul fuzz --engine "./my-engine" --time 2h --players 2,3,4 --variant both --report-dir fuzz
      azul fuzz --engine "./my-engine" --time 2h --report-dir fuzz   # again later: resumes where it stopped
      azul fuzz --engine "node engine.js" --games 500 --report-dir fuzz  # after fixing engine.js: afresh
      azul fuzz --engine "./my-engine" --games 100000 -j 4
      azul fuzz --engine "./my-engine" --games 1000000 --scheduler tcp://10.0.0.5:8786
    """
    if games is None and seconds is None:
        raise click.UsageError("say how long: --games N, --time DURATION, or both")
    chosen = ("terminal", "jsonl", "junit", "markdown") if "all" in formats else tuple(formats)
    spec = fuzzing.CampaignSpec(seed, players, variants, engine, timeout, batched=not step_by_step)
    folder = Path(report_dir) if report_dir else None
    # the state file and the counterexamples live in the report folder, else in a private temporary one
    scratch = None if folder else Path(harness.temporary_folder("azul-fuzz-"))
    path = Path(state_path) if state_path else (folder or scratch) / "fuzz-state.jsonl"
    if folder and path.resolve() in {(folder / name).resolve() for name in REPORT_FILES}:
        raise click.UsageError(f"--state {path}: the report of --report-dir {folder} is written there at the end, "
                               "over the campaign's record; give another file")
    console = Console(soft_wrap=True)  # a line is never broken in the middle of a path
    lock = None
    try:
        if folder:
            lock = folder_lock.take(folder / folder_lock.LOCK_NAME, f"the report folder {folder}")
        state = fuzzing.StateFile(path, spec, fresh, fuzzing.engine_identity(spec))
    except folder_lock.Busy as busy:
        raise click.ClickException(busy.message) from None
    except fuzzing.CampaignError as error:
        fuzzing.close_engines()
        if lock:
            lock.release()
        raise click.ClickException(str(error)) from None
    already = state.findings.games
    if state.afresh:
        console.print(f"fuzz: starting afresh, not resuming {path}: {state.afresh} (the record it had is kept in "
                      f"{state.previous})", highlight=False)
    if scratch:
        console.print(f"state file: {path} (give --report-dir or --state to resume a campaign later)",
                      highlight=False)
    if state.left_out:
        console.print(f"{path}: {state.left_out} blocks recorded twice (two runs at once?) are counted once",
                      highlight=False)
    keep = f"what was played is kept in {path}" + ("" if state_path or folder else
                                                    " (give --report-dir or --state to keep a campaign)")
    try:
        status = _campaign(console, spec, state, games, seconds, workers, scheduler, block_size, folder,
                           chosen, shrink_seconds, already, scratch, keep)
    except fuzzing.CampaignError as error:
        console.print(f"[bold red]fuzz:[/] {error}")
        console.print(f"{keep}; run the same command again to resume")
        status = 2
    finally:
        state.close()
        fuzzing.close_engines()
        if lock:
            lock.release()
    raise SystemExit(status)


def _campaign(console, spec, state, games, seconds, workers, scheduler, block_size, folder, formats,
              shrink_seconds, already, scratch, keep) -> int:
    executor = fuzzing.DaskExecutor(scheduler, say=lambda text: console.print(f"fuzz: {text}", highlight=False)) \
        if scheduler else fuzzing.LocalExecutor(workers)
    where = f"Dask cluster {scheduler} ({_workers(executor.present)})" if scheduler else \
        (f"{workers} local processes" if workers > 1 else "this process")
    aim = " and ".join(x for x in (f"games 0..{games - 1}" if games else "",
                                   f"at most {seconds:g} s" if seconds else "") if x)
    console.print(f"fuzz: seed {spec.seed}, players {','.join(map(str, spec.players))}, wall "
                  f"{','.join(spec.variants)}, {aim}, on {where}"
                  + (f"; resuming: {already} games already played" if already else ""), highlight=False)
    findings = state.findings
    live = RunProgress(console, games, label="fuzz", unit="game", bad_unit="deviation", already=findings.games)
    started = time.perf_counter()
    interrupted = False
    try:
        with live:
            finished = fuzzing.play_campaign(spec, state, executor, games, seconds, block_size,
                                     lambda _: live.count(findings.games, len(findings.deviations)))
    except KeyboardInterrupt:
        console.print(f"interrupted: {keep}; run again to resume")
        finished, interrupted = False, True
    finally:
        executor.close()
    wall = time.perf_counter() - started
    counterexamples = harness.own_folder((folder or scratch) / "counterexamples")  # a link there removed, not followed
    results = fuzzing.results_of(spec, findings, str(counterexamples), shrink_seconds)
    command = "azul fuzz " + shlex.join(sys.argv[2:]) if len(sys.argv) > 1 else "azul fuzz"
    header = {**fuzzing.header_of(spec, findings, command), "complete": finished, "state": str(state.path)}
    fuzzing.write_reports(harness.Output(console, folder), formats, header, results, wall, interrupted,
                          diagnosis.diagnoser(workers or 1, spec.seed))
    played = findings.games - already
    console.print(f"{findings.games} games in all ({played} this session, {played / wall if wall else 0:,.0f} "
                  f"games/s), {len(findings.deviations)} distinct deviations"
                  + ("" if finished or games is None else f"; games up to {games - 1} not all played yet: "
                     "run again to resume")
                  + (f"; all {already} games asked for were played before (resumed from {state.path}): ask for "
                     "more --games, or give --fresh to play them again" if already and not played else ""),
                  highlight=False)
    if folder:
        console.print(f"reports: {folder}/")
    elif counterexamples.is_dir():
        console.print(f"counterexamples: {counterexamples}/", highlight=False)
    if not findings.games:
        console.print("[bold red]nothing was judged:[/] no game was played; a campaign of no game is no pass")
    # interrupted or no game: as azul conform, never a clean pass
    return 1 if findings.deviations or interrupted or not findings.games else 0


def _workers(count: int) -> str:
    return f"{count} worker{'s' if count != 1 else ''}" if count else "no worker yet"
