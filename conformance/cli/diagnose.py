"""`azul diagnose`: diagnose a saved report again, away from the engine that wrote it."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from ..diagnosis import diagnoser
from ..harness.cases import property_cases, scenario_cases
from ..harness.findings import with_deviation_ids
from ..harness.parallel import default_jobs
from ..harness.report import read_report
from ..harness.reporters import Finished, Output, reporters
from ..harness.terminal import summary
from .numbers import JOBS, SEEDS, Number


@click.command(context_settings={"max_content_width": 100})
@click.argument("report", type=click.Path(exists=True))
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(exists=True),
              help="The scenario files or folders the report's run used, if not the bundled corpus.")
@click.option("--jobs", "-j", type=Number(int, 0, JOBS), default=0, show_default=True,
              help="Worker processes for the experiments (0: one per core).")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True,
              help="Seed of the reference's own deals.")
@click.option("--write", is_flag=True,
              help="Rewrite the report's report.jsonl, report.md and junit.xml with this diagnosis.")
def diagnose(report, scenario_paths, jobs, seed, write) -> None:
    """Name the misreadings behind the failures of a saved conformance report.

    REPORT is a report folder (as `azul conform --report-dir` writes it) or its report.jsonl. The engine is not
    needed: what it did is in the report (the failing assertions' values, the property games and the answers
    that differed), and each failing case is run again on the reference engine with each catalogued
    misreading of the rules, as `azul conform` does at the end of a run. So a report from CI can be explained
    on a laptop, or again after the catalogue grows.

    \b
    Examples:
      azul diagnose reports/                 # print the deviations, each named by its misreading
      azul diagnose reports/report.jsonl -j 2 --write
    """
    path = Path(report)
    path = path / "report.jsonl" if path.is_dir() else path
    if not path.is_file():
        raise click.ClickException(f"{path}: no report.jsonl there (azul conform --report-dir writes one)")
    saved = read_report(path)
    if not saved.header and not saved.results:
        raise click.ClickException(f"{path}: not a conformance report"
                                   + (f" ({saved.problems[0]})" if saved.problems else ""))
    console = Console()
    for problem in saved.problems:
        console.print(f"[yellow]{problem}[/]")
    collected = scenario_cases(list(scenario_paths) or None)
    cases = {case.id: case for case in collected.cases + tuple(property_cases())}
    unknown = [r.id for r in saved.results if r.bad and r.id not in cases]
    if unknown:
        console.print(f"[yellow]{len(unknown)} failing case(s) not in these scenarios, left undiagnosed:[/] "
                      + ", ".join(unknown[:10]))
    results = list(saved.results)
    if any(r.bad for r in results):
        found, results, done = diagnoser(jobs or default_jobs(), seed)(results, cases)
    else:
        found, done = (), None
    results = with_deviation_ids(results, found)
    seconds = float((saved.footer or {}).get("seconds") or 0.0)
    summary(console, results, seconds, found=tuple(found))
    if write:
        header = {k: v for k, v in saved.header.items() if k != "format"}
        outputs = reporters(("jsonl", "junit", "markdown"), Output(Console(quiet=True), path.parent))
        run = Finished(header, tuple(results), seconds, tuple((saved.footer or {}).get("problems") or ()),
                       interrupted=saved.interrupted, found=tuple(found), diagnosis=done)
        try:
            for reporter in outputs:
                reporter.start(header)
            for reporter in outputs:
                reporter.finish(run)
        finally:
            for reporter in outputs:
                reporter.close()
        console.print(f"rewritten: {path.parent}/")
