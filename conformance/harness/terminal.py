"""The terminal side of a run: a live progress bar, then the summary, failures first and grouped by rule."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterator

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .report import Comparison, by_rule, rule_key
from .verdicts import VERDICTS, CaseResult, tally

STYLE = {"pass": "green", "fail": "bold red", "error": "red", "crash": "bold magenta", "timeout": "magenta",
         "skip": "yellow", "not_run": "dim"}


@contextmanager
def progress_bar(console: Console, total: int) -> Iterator:
    """Yields `advance(result)`; the bar shows the case being judged and the bad ones so far."""
    bad = 0
    with Progress(TextColumn("[bold]conform"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("", total=total)

        def advance(result: CaseResult) -> None:
            nonlocal bad
            bad += result.bad
            progress.update(task, advance=1, description=f"{escape(result.id)}  [red]{bad} bad[/]" if bad
                            else escape(result.id))

        yield advance


def summary(console: Console, results: list[CaseResult], seconds: float, limit: int = 40) -> None:
    bad = [r for r in results if r.bad]
    if bad:
        console.rule("[bold red]failures, by rule")
        shown = 0
        for rule, cases in by_rule(bad).items():
            if shown >= limit:
                break
            console.print(f"[bold]{rule}[/]")
            for result in cases:
                if shown >= limit:
                    break
                shown += 1
                _print_bad(console, result)
        if len(bad) > shown:
            console.print(f"... and {len(bad) - shown} more (see the reports)")
    skipped = [r for r in results if r.verdict in ("skip", "not_run")]
    if skipped:
        reasons: dict[str, int] = {}
        for result in skipped:
            reasons[f"{result.verdict}: {result.message}"] = reasons.get(f"{result.verdict}: {result.message}", 0) + 1
        console.rule("[yellow]not judged")
        for reason, count in sorted(reasons.items(), key=lambda item: -item[1])[:10]:
            console.print(f"  {count:4d} x {escape(reason)}")
    _totals(console, results, seconds)


DIFF_LINES = 16  # the terminal shows the start of a failure's diff; the reports keep all of it


def _print_bad(console: Console, result: CaseResult) -> None:
    colour = STYLE[result.verdict]
    console.print(f"  [{colour}]{result.verdict.upper()}[/] {escape(result.id)} ({escape(result.where)})")
    console.print(f"      {escape(result.message[:400])}")
    if result.diff and result.verdict == "fail":  # each failing assertion, where it is, and what was found
        for line in result.diff.splitlines()[:DIFF_LINES]:
            console.print(f"      {escape(line)}", highlight=False)
    else:
        for name in ("expected", "actual"):
            value = getattr(result, name)
            if value is not None and result.verdict == "fail":
                console.print(f"      {name}: {escape(json.dumps(value, default=str)[:300])}")
    if result.request is not None:
        console.print(f"      request: {escape(json.dumps(result.request, default=str)[:200])}")
    if result.exit_code is not None:
        console.print(f"      exit status: {result.exit_code}")
    if result.stderr:
        tail = result.stderr.strip().splitlines()[-3:]
        console.print("      stderr: " + escape(" | ".join(tail))[:300])
    if result.counterexample:
        console.print(f"      minimal failing game: [bold]{escape(result.counterexample)}[/]")


def _totals(console: Console, results: list[CaseResult], seconds: float) -> None:
    counts = tally(results)
    table = Table(show_header=True, header_style="bold", box=None)
    for verdict in VERDICTS:
        table.add_column(verdict, justify="right", style=STYLE[verdict])
    table.add_row(*(str(counts[v]) for v in VERDICTS))
    console.print(table)
    rules = by_rule(results)
    broken = sorted({r.main_rule for r in results if r.bad}, key=rule_key)
    console.print(f"{len(results)} cases over {len(rules)} rules in {seconds:.1f} s"
                  + (f"; rules broken: {', '.join(broken)}" if broken else ""))


def print_comparison(console: Console, comparison: Comparison, old_path: str) -> None:
    console.rule(f"compared with {escape(old_path)}")
    for title, rows, colour in (("fixed", comparison.fixed, "green"), ("newly failing", comparison.broken, "red"),
                                ("still failing", comparison.still_bad, "yellow")):
        console.print(f"[{colour}]{title}: {len(rows)}[/]")
        for case_id, old, new in rows[:30]:
            console.print(f"    {escape(case_id)}: {old} -> {new}")
    if comparison.new_cases:
        console.print(f"new cases: {len(comparison.new_cases)}")
    if comparison.gone_cases:
        console.print(f"cases no longer run: {len(comparison.gone_cases)}")
