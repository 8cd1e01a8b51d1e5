"""One whole run, as `azul conform` and `azul scenarios run` do it: open the engine, collect and select the
cases, run them, and hand every result to the reporters as it comes.

    session = Session(engine_command="./my-engine", only=("FLOOR",), report_dir="reports")
    results, status = run_session(session)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..engines import opening
from ..engines.base import Engine, EngineError
from ..results import CaseResult
from .cases import Case, Collected, property_cases, scenario_cases, select
from .findings import failing
from .report import compare, read_report
from .reporters import REPORTERS, Finished, Output, reporters
from .runner import RunOptions, run_cases
from .terminal import print_comparison

FORMATS = tuple(REPORTERS)


@dataclass(frozen=True, kw_only=True)
class Session:
    """What to run, against which engine, and where the reports go."""

    engine_command: str | None = None  # None: the in-process reference engine
    only: tuple[str, ...] = ()  # selectors, as harness.cases.select reads them
    scenario_paths: tuple[str, ...] = ()  # empty: the bundled corpus
    properties: bool = True
    examples: int = 50
    seed: int = 0
    timeout: float = 5.0
    report_dir: str | None = None
    formats: tuple[str, ...] = FORMATS
    compare_with: str | None = None
    verbose: bool = False
    jobs: int = 1  # engine processes running cases at once (harness/parallel.py); 1: this process's engine
    rules_only: bool = False  # the exit status fails on the rulebooks' rules alone, not on our rulings


def open_engine(session: Session) -> Engine:
    return opening.open_engine(session.engine_command, timeout=session.timeout, seed=session.seed)


def collect(session: Session) -> Collected:
    """The selected cases, and the scenario files that could not be loaded."""
    found = scenario_cases(list(session.scenario_paths) or None)
    cases = list(found.cases) + (property_cases() if session.properties else [])
    return Collected(tuple(select(cases, session.only)), found.problems)


def header(session: Session, engine: Engine, cases: tuple[Case, ...]) -> dict:
    info = engine.info
    return {"engine": {"name": info.name, "version": info.version, "protocol": info.protocol,
                       "capabilities": info.capabilities.to_json()},
            "command": session.engine_command or "(in-process reference engine)", "seed": session.seed,
            "examples": session.examples, "timeout": session.timeout, "only": list(session.only),
            "cases": len(cases)}


def run_session(session: Session, console: Console | None = None) -> tuple[list[CaseResult], int]:
    """Run the suite; returns the results and the exit status: 1 when a case failed at level rule or ruling
    (rule only with `rules_only`) or a scenario file could not be loaded, 2 on a setup error."""
    console = console or Console(stderr=False)
    old = read_report(session.compare_with) if session.compare_with else None
    if old is not None and not old.header and not old.results:  # checked before the run: a typo costs nothing
        console.print(f"[bold red]--compare {session.compare_with}: not a conformance report[/] "
                      f"(no header, no case){': ' + old.problems[0] if old.problems else ''}")
        return [], 2
    try:
        engine = open_engine(session)
    except EngineError as error:
        console.print("[bold red]cannot start the engine:[/] ", escape(error.message), sep="")
        if error.stderr:
            console.print(escape(error.stderr))
        _write_unstarted(session, error)
        return [], 2
    collected = collect(session)
    for problem in collected.problems:
        console.print(f"[red]scenario problem:[/] {problem}")
    if not collected.cases and (session.only or not collected.problems):  # a typo must not look like a clean run
        console.print(f"[bold red]--only {', '.join(session.only)} selects no case:[/] give a rule ID (OFFER-6), "
                      "a chapter (FLOOR), a scenario or property id, or a glob (floor-*)" if session.only
                      else "[bold red]no case to run[/]")
        engine.close()
        return [], 2
    folder = Path(session.report_dir) if session.report_dir else None
    outputs = reporters(session.formats, Output(console, folder, session.verbose))
    options = RunOptions(session.examples, session.seed,
                         str(folder / "counterexamples") if folder else _temp_counterexamples())
    started = time.perf_counter()
    done: list[CaseResult] = []
    try:
        run_header = header(session, engine, collected.cases)
        for reporter in outputs:
            reporter.start(run_header)

        def on_result(result: CaseResult) -> None:
            done.append(result)
            for reporter in outputs:
                reporter.case(result)

        try:
            if session.jobs > 1 and len(collected.cases) > 1:
                from .parallel import run_cases_parallel

                results = run_cases_parallel(session, list(collected.cases), options, session.jobs, on_result)
            else:
                results = run_cases(engine, list(collected.cases), options, on_result)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: every report keeps what was judged, marked unfinished
            finished = Finished(run_header, tuple(done), time.perf_counter() - started, collected.problems,
                                interrupted=True)
            for reporter in outputs:
                reporter.finish(finished)
            raise
        finished = Finished(run_header, tuple(results), time.perf_counter() - started, collected.problems)
        for reporter in outputs:
            reporter.finish(finished)
    finally:
        engine.close()
        for reporter in outputs:
            reporter.close()
    if old is not None:
        print_comparison(console, compare(old.results, results), session.compare_with)
    if folder:
        console.print(f"reports: {folder}/")
    bad = bool(failing(results, session.rules_only)) or bool(collected.problems)
    return results, 1 if bad else 0


def _write_unstarted(session: Session, error: EngineError) -> None:
    """An engine that cannot be talked to still gets its reports, saying why (and no case judged)."""
    if not session.report_dir:
        return
    run_header = {"engine": None, "command": session.engine_command, "seed": session.seed, "cases": 0,
                  "problem": f"cannot start the engine: {error.message}"}
    outputs = reporters(tuple(f for f in session.formats if f != "terminal"),
                        Output(Console(file=open(os.devnull, "w")), Path(session.report_dir)))
    try:
        for reporter in outputs:
            reporter.start(run_header)
        for reporter in outputs:
            reporter.finish(Finished(run_header, (), 0.0, (run_header["problem"],)))
    finally:
        for reporter in outputs:
            reporter.close()


def _temp_counterexamples() -> str:
    import tempfile

    # made only when a counterexample is written
    return str(Path(tempfile.gettempdir()) / "azul-counterexamples" / time.strftime("%Y%m%d-%H%M%S"))
