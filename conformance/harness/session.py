"""One conformance run from start to end: the engine, the cases, the reports as the run goes, the summary."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from ..engines.base import Engine, EngineError
from .cases import Case, property_cases, scenario_cases, select
from .report import JsonLinesReport, compare, read_report, write_junit, write_markdown
from .runner import RunOptions, run_cases
from .terminal import print_comparison, progress_bar, summary
from .verdicts import CaseResult

FORMATS = ("terminal", "jsonl", "junit", "markdown")


@dataclass
class Session:
    engine_command: str | None = None  # None: the in-process reference engine
    report_dir: str | None = None
    only: tuple[str, ...] = ()
    examples: int = 50
    seed: int = 0
    timeout: float = 5.0
    formats: tuple[str, ...] = FORMATS
    compare_with: str | None = None
    scenario_paths: tuple[str, ...] = ()
    properties: bool = True
    problems: list[str] = field(default_factory=list)

    def open_engine(self) -> Engine:
        if self.engine_command is None:
            from ..engines.reference import ReferenceEngine

            return ReferenceEngine(self.seed)
        from ..engines.subprocess import ProcessEngine

        return ProcessEngine(self.engine_command, timeout=self.timeout)

    def cases(self) -> list[Case]:
        cases = scenario_cases(list(self.scenario_paths) or None, self.problems)
        if self.properties:
            cases += property_cases()
        return select(cases, self.only)

    def header(self, engine: Engine, cases: list[Case]) -> dict:
        info = engine.info
        return {"engine": {"name": info.name, "version": info.version, "protocol": info.protocol,
                           "capabilities": info.capabilities.to_json()},
                "command": self.engine_command or "(in-process reference engine)", "seed": self.seed,
                "examples": self.examples, "timeout": self.timeout, "only": list(self.only), "cases": len(cases)}


def run_session(session: Session, console: Console | None = None) -> tuple[list[CaseResult], int]:
    """Run the suite; returns the results and the exit status (1 when anything failed, 2 on a setup error)."""
    console = console or Console(stderr=False)
    old = read_report(session.compare_with) if session.compare_with else None
    if old is not None and not old.header and not old.results:  # checked before the run: a typo costs nothing
        console.print(f"[bold red]--compare {session.compare_with}: not a conformance report[/] "
                      f"(no header, no case){': ' + old.problems[0] if old.problems else ''}")
        return [], 2
    try:
        engine = session.open_engine()
    except EngineError as error:
        console.print(f"[bold red]cannot start the engine:[/] {error.message}")
        if error.stderr:
            console.print(error.stderr)
        return [], 2
    cases = session.cases()
    for problem in session.problems:
        console.print(f"[red]scenario problem:[/] {problem}")
    if session.only and not cases:  # a typo in --only must not look like a clean run
        engine.close()
        console.print(f"[bold red]--only {', '.join(session.only)} selects no case:[/] give a rule ID (OFFER-6), "
                      "a chapter (FLOOR), a scenario or property id, or a glob (floor-*)")
        return [], 2
    folder = Path(session.report_dir) if session.report_dir else None
    jsonl = JsonLinesReport(folder / "report.jsonl") if folder and "jsonl" in session.formats else None
    header = session.header(engine, cases)
    if jsonl:
        jsonl.start(header)
    options = RunOptions(session.examples, session.seed,
                         str(folder / "counterexamples") if folder else _temp_counterexamples())
    started = time.perf_counter()
    try:
        with progress_bar(console, len(cases)) as advance:
            def on_result(result: CaseResult) -> None:
                if jsonl:
                    jsonl.case(result)
                advance(result)

            results = run_cases(engine, cases, options, on_result)
    finally:
        engine.close()
    seconds = time.perf_counter() - started
    if jsonl:
        jsonl.finish({"problems": session.problems})
    _write_reports(session, folder, header, results)
    if "terminal" in session.formats:
        summary(console, results, seconds)
    if old is not None:
        print_comparison(console, compare(old.results, results), session.compare_with)
    if folder:
        console.print(f"reports: {folder}/")
    bad = any(result.bad for result in results) or bool(session.problems)
    return results, 1 if bad else 0


def _write_reports(session: Session, folder: Path | None, header: dict, results: list[CaseResult]) -> None:
    if folder is None:
        return
    if "junit" in session.formats:
        write_junit(folder / "junit.xml", results)
    if "markdown" in session.formats:
        write_markdown(folder / "report.md", header, results, _known_rules())


def _known_rules() -> list[str]:
    from ..scenario.corpus import known_rules

    return sorted(known_rules() or {})  # none: the matrix lists the rules the cases name


def _temp_counterexamples() -> str:
    import tempfile

    # made only when a counterexample is written
    return str(Path(tempfile.gettempdir()) / "azul-counterexamples" / time.strftime("%Y%m%d-%H%M%S"))
