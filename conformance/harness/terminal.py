"""The terminal reporter: the summary, failures first and grouped by rule (the live progress display while the
cases run is progress.py's)."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..results import VERDICTS, CaseResult, Verdict, tally
from .findings import Deviation, closeness_text, deviations, rule_text, score_text, scores
from .outputs import Finished, Reporter
from .progress import plural
from .report import Comparison, by_rule, lead_line, recording_line, suite_line


def output_console(**options: Any) -> Console:
    """A console for a command's output. Off a terminal (a pipe, a file, CI's log) no line is wrapped: rich would
    break them at 80 columns, in the middle of case ids and paths that a reader or a script looks for whole."""
    console = Console(**options)
    return console if console.is_terminal else Console(soft_wrap=True, **options)


class TerminalReporter(Reporter):
    """With --verbose, a line per case that passes; the summary at the end."""

    needs_folder = False

    def case(self, result: CaseResult) -> None:
        if self.output.verbose and not result.bad:
            self.output.console.print(f"[{result.verdict.style}]{result.verdict.upper()}[/] {escape(result.id)} "
                                      f"({escape(result.where)})" + (f": {escape(result.message)}"
                                                                    if result.message else ""), soft_wrap=True)

    def finish(self, run: Finished) -> None:
        summary(self.output.console, list(run.results), run.seconds, found=run.deviations)
        if run.header.get("suite_version"):
            self.output.console.print(f"[dim]{escape(suite_line(run.header))}[/]")
        if recording_line(run.header):
            self.output.console.print(f"[bold]{escape(recording_line(run.header))}[/]")


def _print_deviation(console: Console, number: int, deviation: Deviation) -> None:
    count = len(deviation.cases)
    console.print(f"[bold]{number}. {escape(deviation.title)}[/] {escape(f'[{deviation.level}]')} "
                  f"{count} case{'s' * (count != 1)}", soft_wrap=False)
    if deviation.kind == "misreading":
        evidence = deviation.shown_evidence
        console.print(f"   evidence: {escape(evidence.text)}", highlight=False)
        for other in deviation.alike:
            console.print(f"   or, indistinguishable here: {escape(other.heading)}", highlight=False)
    else:
        console.print(f"   {escape(rule_text(deviation.rule))}", highlight=False)
        _print_bad(console, deviation.smallest)
        for reading, score in deviation.nearest:
            console.print(f"   nearest misreading ({closeness_text(score)}): {escape(reading.heading)}",
                          highlight=False)
    others = [c.id for c in deviation.cases[1:]]
    if others:
        console.print(f"      also: {escape(', '.join(others))}")


def summary(console: Console, results: list[CaseResult], seconds: float, limit: int = 30,
            found: tuple[Deviation, ...] | None = None) -> None:
    """The deviations first (each cause in words, its level, the evidence on its smallest case, its cases),
    then what differs and what was not judged, then the scores by level."""
    found = tuple(deviations(results)) if found is None else found
    console = _Plain(console)
    if found:
        console.rule(f"[bold red]{escape(lead_line(found))}")
        ordered = [d for d in found if not d.of_ruling] + [d for d in found if d.of_ruling]
        for number, deviation in enumerate(ordered[:limit], 1):
            if deviation.of_ruling and (number == 1 or not ordered[number - 2].of_ruling):
                console.rule("[magenta]differs from our rulings (where the rulebooks are silent or disagree: "
                             "not a misreading of the rules)")
            _print_deviation(console, number, deviation)
        if len(found) > limit:
            console.print(f"... and {len(found) - limit} more deviations (see the reports)")
    differing = [r for r in results if r.verdict is Verdict.DIFFERS]
    if differing:
        console.rule("[cyan]differs where the rules let an engine choose (implementation-defined)")
        for result in differing:
            console.print(f"  {escape(result.id)} ({escape(result.where)}): {escape(result.message[:200])}",
                          soft_wrap=True)
    skipped = [r for r in results if not r.verdict.judged]
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
    colour = result.verdict.style
    console = _Unwrapped(console)  # a path or a diff line cut in two cannot be copied
    console.print(f"  [{colour}]{result.verdict.upper()}[/] {escape(result.id)} ({escape(result.where)})")
    console.print(f"      {escape(result.message[:400])}")
    if result.diff and result.verdict is Verdict.FAIL:  # each failing assertion, where it is, and what was found
        for line in result.diff.splitlines()[:DIFF_LINES]:
            console.print(f"      {escape(line)}", highlight=False)
    else:
        for name in ("expected", "actual"):
            value = getattr(result, name)
            if value is not None and result.verdict is Verdict.FAIL:
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


class _Plain:
    """The console, with no `:name:` turned into an emoji (a scenario's `file.yaml:100:` is no smiley)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def print(self, text: str, **options: Any) -> None:
        self.console.print(text, emoji=False, **options)

    def rule(self, title: str = "", **options: Any) -> None:
        self.console.rule(title, **options)


class _Unwrapped(_Plain):
    def __init__(self, console: "Console | _Plain") -> None:
        super().__init__(console.console if isinstance(console, _Plain) else console)

    def print(self, text: str, **options: Any) -> None:
        self.console.print(text, soft_wrap=True, emoji=False, **options)


def _totals(console: Console, results: list[CaseResult], seconds: float) -> None:
    counts = tally(results)
    shown = ", ".join(f"[{v.style}]{counts[v]} {v}[/]" for v in VERDICTS if counts[v])
    rules = by_rule(results)
    console.print(f"{plural(len(results), 'case')} over {plural(len(rules), 'rule')} in {seconds:.1f} s: "
                  f"{shown or 'none'}")
    console.print("; ".join(score_text(level, row) for level, row in scores(results).items() if row["judged"]))


def print_comparison(console: Console, comparison: Comparison, old_path: str) -> None:
    console.rule(f"compared with {escape(old_path)}")
    if comparison.changes:  # a rerun leads with its bugs, not its cases
        console.print("[bold]by deviation:[/]")
        for line in comparison.lead():
            console.print(f"    {escape(line)}", highlight=False)
    if comparison.drift:
        console.print("[bold]cases judged:[/]")
        for line in comparison.drift:
            console.print(f"    {escape(line)}", highlight=False)
    colours = {"fixed": "green", "newly failing": "red", "still failing": "yellow", "no longer judged": "magenta"}
    for title, _, rows in comparison.lists():
        console.print(f"[{colours[title]}]{title}: {len(rows)}[/]"
                      + (" (by deviation above; report.jsonl's footer lists the cases)"
                         if title == "still failing" and comparison.changes and rows else ""))
        if title == "still failing" and comparison.changes:
            continue  # the same bugs, case by case: the lines above say it per deviation
        for case_id, old, new in rows[:30]:
            console.print(f"    {escape(case_id)}: {old} -> {new}")
    if comparison.new_cases:
        console.print(f"new cases: {len(comparison.new_cases)}")
    if comparison.gone_cases:
        console.print(f"cases no longer run: {len(comparison.gone_cases)}")
