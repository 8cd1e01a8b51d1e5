"""`azul diagnose`: diagnose a saved report again, away from the engine that wrote it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

# The packages export their names lazily: --help loads neither the harness nor the diagnosis.
from .. import diagnosis, harness
from ..harness import folder_lock
from ..harness.progress import RunProgress
from ..harness.terminal import output_console
from ..processes import default_jobs
from .numbers import JOBS, SEEDS, Number

REWRITTEN = ("junit.xml", "report.md")  # beside report.jsonl, which is moved in last


@click.command(context_settings={"max_content_width": 100})
@click.argument("report", type=click.Path(exists=True))
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(exists=True),
              help="The scenario files or folders the report's run used, if not the bundled corpus.")
@click.option("--jobs", "-j", type=Number(int, 0, JOBS), default=0, show_default=True,
              help="Worker processes for the experiments (0: one per core).")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True,
              help="Seed of the reference's own deals.")
@click.option("--write", is_flag=True,
              help="Rewrite the report's report.jsonl, report.md and junit.xml with this diagnosis (refused "
                   "while a run uses the folder, or when a line of the report could not be read).")
def diagnose(report, scenario_paths, jobs, seed, write) -> None:
    """Name the misreadings behind the failures of a saved conformance report.

    REPORT is a report folder (as `azul conform --report-dir` writes it) or its report.jsonl. The engine is not
    needed: what it did is in the report (the failing assertions' values, the property games and the answers
    that differed), and each failing case is run again on the reference engine with each catalogued
    misreading of the rules, as `azul conform` does at the end of a run. So a report from CI can be explained
    on a laptop, or again after the catalogue grows. While the failing cases run again, standard error shows
    the progress: a live line on a terminal, a plain line every 10 s elsewhere.

    \b
    Examples:
      azul diagnose reports/                 # print the deviations, each named by its misreading
      azul diagnose reports/report.jsonl -j 2 --write
    """
    path = Path(report)
    path = path / "report.jsonl" if path.is_dir() else path
    if path.exists() and not path.is_file():
        raise click.ClickException(f"{path}: not a regular file: only regular files are read")
    if not path.is_file():
        raise click.ClickException(f"{path}: no report.jsonl there (azul conform --report-dir writes one)")
    # a rewrite under a running `azul conform` would mix its rows with the run's: the folder's lock, as it takes
    lock = _locked(path.parent) if write else None
    try:
        _diagnose(path, scenario_paths, jobs, seed, write)
    finally:
        if lock is not None:
            lock.release()


def _locked(folder: Path) -> folder_lock.Lock:
    try:
        return folder_lock.take(folder / folder_lock.LOCK_NAME, f"the report folder {folder}")
    except folder_lock.Busy as busy:
        raise click.ClickException(f"--write: {busy.message}") from None
    except OSError as error:
        raise click.ClickException(f"--write: cannot lock the report folder {folder}: {error.strerror}") from None


def _diagnose(path: Path, scenario_paths: tuple[str, ...], jobs: int, seed: int, write: bool) -> None:
    saved = harness.read_report(path)
    if not saved.header and not saved.results:
        raise click.ClickException(f"{path}: not a conformance report"
                                   + (f" ({saved.problems[0]})" if saved.problems else ""))
    console = output_console()
    for problem in saved.problems:  # (a report's text: never markup)
        console.print(f"[yellow]{escape(problem)}[/]", highlight=False, soft_wrap=True, emoji=False)
    if write and saved.left_out:
        raise click.ClickException(f"{path}: not rewritten: {saved.left_out} line(s) or field(s) of it could not "
                                   "be read (above), and a rewrite would lose them")
    collected = harness.scenario_cases(list(scenario_paths) or None)
    cases = {case.id: case for case in collected.cases + tuple(harness.property_cases())}
    unknown = [r.id for r in saved.results if r.bad and r.id not in cases]
    if unknown:
        console.print(f"[yellow]{len(unknown)} failing case(s) not in these scenarios, left undiagnosed:[/] "
                      + escape(", ".join(unknown[:10])), highlight=False, emoji=False)
    results = list(saved.results)
    if any(r.bad for r in results):
        # a long diagnosis shows its progress, as azul conform shows its cases: on standard error, a live line
        # on a terminal, a plain line every 10 s elsewhere
        progress = RunProgress(Console(stderr=True, highlight=False), None, label="diagnose", unit="case")

        def on_case(done_cases: int, total: int) -> None:
            progress.total = total
            progress.count(done_cases, 0)

        with progress:
            found, results, done = diagnosis.diagnoser(jobs or default_jobs(), seed, on_case)(results, cases)
    else:
        found, done = (), None
    results = harness.with_deviation_ids(results, found)
    seconds = float((saved.footer or {}).get("seconds") or 0.0)
    harness.summary(console, results, seconds, found=tuple(found))
    if write:
        run = harness.Finished({k: v for k, v in saved.header.items() if k != "format"}, tuple(results), seconds,
                       tuple((saved.footer or {}).get("problems") or ()), interrupted=saved.interrupted,
                       found=tuple(found), diagnosis=done)
        _rewrite(path, saved, run)
        console.print(f"rewritten: {escape(str(path.parent))}/"
                      + (" (an unfinished run's report: still marked interrupted)" if saved.interrupted else ""),
                      highlight=False, emoji=False)


def _rewrite(path: Path, saved: harness.RunReport, run: harness.Finished) -> None:
    """The report written again: every file made whole in a scratch folder of the report folder, report.jsonl
    read back there and refused if it holds fewer case rows than were read, then each moved over the old one
    (a rename: a killed rewrite leaves each file old or new, never half of one)."""
    scratch = None
    try:
        scratch = Path(tempfile.mkdtemp(prefix=".azul-diagnose-", dir=path.parent))
        _write(scratch, run)
        written = harness.read_report(scratch / "report.jsonl")
        if len(written.results) < len(saved.results) or written.left_out:
            raise click.ClickException(f"{path}: the rewrite would hold {len(written.results)} case rows of the "
                                       f"{len(saved.results)} read; not rewritten")
        for name in REWRITTEN:
            os.replace(scratch / name, path.parent / name)
        os.replace(scratch / "report.jsonl", path)
    except OSError as error:
        raise click.ClickException(f"{path.parent}: cannot rewrite the report: "
                                   f"{error.strerror or error}{f' ({error.filename})' if error.filename else ''}"
                                   ) from None
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _write(folder: Path, run: harness.Finished) -> None:
    """The reports of `run` in `folder`, as a run writes them: each case streamed (an unfinished run's report
    is written so, with its footer after the last case), then the ends."""
    outputs = harness.reporters_for(("jsonl", "junit", "markdown"), harness.Output(Console(quiet=True), folder))
    try:
        for reporter in outputs:
            reporter.start(run.header)
        for result in run.results:
            for reporter in outputs:
                reporter.case(result)
        for reporter in outputs:
            reporter.finish(run)
    finally:
        for reporter in outputs:
            reporter.close()
