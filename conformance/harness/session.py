"""One whole run, as `azul conform` and `azul scenarios run` do it: open the engine, collect and select the
cases, run them, and hand every result to the reporters as it comes.

    session = Session(engine_command="./my-engine", only=("FLOOR",), report_dir="reports")
    results, status = run_session(session)
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape

from .. import readers
from ..engines import opening
from ..engines.base import Engine, EngineError, EngineInfo
from ..engines.recording import RecordingError
from ..results import CaseKind, CaseResult, Verdict
from .cases import Case, Collected, given_twice, property_cases, scenario_cases, select
from .findings import Deviation, deviations, failing, with_deviation_ids
from .header import run_header
from .outputs import own_folder
from .parallel import Workers
from .progress import RunProgress
from . import folder_lock, record_file
from .formats import FORMATS
from .interrupts import held
from .report import MAX_REPORT_BYTES, RunReport, compare, read_report
from .reporters import Finished, Output, reporters_for
from .runner import OneLane, RunOptions, _result
from .terminal import output_console, print_comparison


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
    case_timeout: float | None = None  # seconds a case may take, then it is out_of_time (budget.py)
    budget: float | None = None  # seconds the whole run may take: cases cut or not run after it
    # Diagnosis (conformance/diagnosis, given by the CLI: the harness knows no misreading): called with the
    # results and the cases by id once every case is judged; returns (deviations, results, what it did).
    diagnoser: Callable[[list[CaseResult], dict[str, Case]], Diagnosed] | None = None
    # the suite's published catch power, for the report's header: the CLI passes it (mutants/published.py's
    # mutation_score), since the harness knows nothing of the mutants
    mutation_score: dict | None = None
    # Recorded sessions (engines/recording.py): `record` writes every exchange with the engine to that file,
    # the header's fields besides the hello in `record_about`; `recording` plays a recording back as the engine.
    record: str | None = None
    record_about: dict | None = None
    recording: str | None = None

    def engine_source(self) -> opening.EngineSource:
        """How this run's engine is opened: in this process, or in each worker's."""
        return opening.EngineSource(self.engine_command, self.timeout, self.seed, self.record, self.record_about,
                                    self.recording)

    def open_engine(self) -> Engine:
        """This run's engine, opened here (a tool that runs cases of its own, as the diagnosis's evaluation)."""
        return self.engine_source().open()


def collect(session: Session, properties: list[Case] | None = None) -> Collected:
    """The selected cases (the scenarios, then the properties), and the scenario files that could not be loaded.
    `properties`: those already selected (`selected_properties`), to be the same Case objects."""
    found = scenario_cases(list(session.scenario_paths) or None)
    if properties is None:
        properties = selected_properties(session)
    return Collected(tuple(select(found.cases, session.only)) + tuple(properties), found.problems)


def selected_properties(session: Session) -> list[Case]:
    """The properties the run selects: known at once, unlike the scenarios, which are files to load."""
    return select(property_cases(), session.only) if session.properties else []


def header(session: Session, info: EngineInfo, cases: tuple[Case, ...]) -> dict:
    # only when set: a run without budgets (or without a published score) reads as before
    more = {name: getattr(session, name) for name in ("mutation_score", "case_timeout", "budget")
            if getattr(session, name) is not None}
    command = session.engine_command or "(in-process reference engine)"
    if session.recording:
        recorded = opening.load_recording(session.recording)
        command = recorded.header.get("command") or "?"
        more["recording"] = {"file": session.recording, **{key: recorded.header[key] for key in RECORDING_FIELDS
                                                           if key in recorded.header}}
    if session.record:
        more["recorded_to"] = session.record
    return run_header(info, command=command, seed=session.seed,
                      examples=session.examples, timeout=session.timeout, only=session.only, cases=len(cases),
                      scenario_paths=session.scenario_paths, **more)


RECORDING_FIELDS = ("date", "suite_version", "command", "seed", "examples", "upstream", "commit")


def run_session(session: Session, console: Console | None = None) -> tuple[list[CaseResult], int]:
    """Run the suite; returns the results and the exit status: 1 when a case failed at level rule or ruling
    (rule only with `rules_only`) or a scenario file could not be loaded, 2 on a setup error (the engine, an
    unreadable --compare report, a report folder another run is using)."""
    console = console or output_console()
    begun = time.monotonic()  # the run's budget counts from here
    old = None
    if session.compare_with:  # checked before the run: a typo or a damaged file costs nothing
        old, problem = earlier_report(session.compare_with)
        if problem:
            console.print(f"[bold red]--compare {escape(session.compare_with)}:[/] {escape(problem)}")
            return [], 2
    record_lock = None
    try:  # a recording to play back is read whole (and checked) before anything runs; one to make is begun
        if session.recording:
            recorded = opening.load_recording(session.recording)
            console.print(f"judged from the recording {escape(session.recording)}: {escape(recorded.describe())}",
                          highlight=False, soft_wrap=True)
            if recorded.problem:
                console.print(f"[yellow]{escape(recorded.problem)}[/]", highlight=False, soft_wrap=True)
        if session.record:  # locked for the whole run: a second run recording there is refused, naming this one
            record_lock = record_file.claim(session.record, session.report_dir, session.compare_with)
    except (RecordingError, folder_lock.Busy) as error:
        console.print(f"[bold red]{'--recording' if session.recording else '--record'}:[/] {escape(str(error))}",
                      highlight=False, soft_wrap=True)
        return [], 2
    lock = None
    if session.report_dir:
        try:
            lock = folder_lock.take(Path(session.report_dir) / folder_lock.LOCK_NAME,
                                    f"the report folder {session.report_dir}")
        except folder_lock.Busy as busy:
            console.print(f"[bold red]--report-dir {escape(session.report_dir)}:[/] {escape(busy.message)}",
                          highlight=False, soft_wrap=True)  # (a path is never broken in the middle)
            if record_lock is not None:
                record_lock.release()
            return [], 2
    folder = Path(session.report_dir) if session.report_dir else None
    # (own_folder: once the folder is ours, a counterexamples/ that is a link is replaced, not written through)
    counterexamples = str(own_folder(folder / "counterexamples")) if folder else \
        temporary_folder("azul-counterexamples-")
    try:
        return _run(session, console, old, begun, counterexamples)
    finally:
        for held_lock in (lock, record_lock):
            if held_lock is not None:
                held_lock.release()
        if folder is None:
            said_where(console, counterexamples)


def _run(session: Session, console: Console, old: RunReport | None, begun: float,
         counterexamples: str) -> tuple[list[CaseResult], int]:
    folder = Path(session.report_dir) if session.report_dir else None
    options = RunOptions(session.examples, session.seed, counterexamples,
                         case_timeout=session.case_timeout, budget=session.budget,
                         run_deadline=None if session.budget is None else begun + session.budget)
    # The plan: the cases, and one runner for them: N worker processes each with its own engine (parallel.py),
    # or this process's one engine (runner.py); the same interface, so the rest of the run is one path.
    runner: Workers | OneLane | None = None
    try:
        properties = selected_properties(session)
        if session.jobs > 1 and properties and not session.scenario_paths:
            # the workers start on the properties while this process loads the bundled scenarios (files given
            # are loaded first: an id they give twice refuses the run before anything runs)
            runner = Workers(session.engine_source(), options, min(session.jobs, len(properties) + 1))
            runner.add(properties)
        collected = collect(session, properties)
        twice = given_twice(collected.cases)
        if twice:
            if runner is not None:
                runner.close()
            more = f" (and {len(twice) - 5} more)" if len(twice) > 5 else ""
            console.print(f"[bold red]cases given twice:[/] {escape('; '.join(twice[:5]))}{more}; give each "
                          "scenario file once, and each case an id of its own", highlight=False, soft_wrap=True)
            return [], 2
        if runner is None:
            runner = Workers(session.engine_source(), options, min(session.jobs, len(collected.cases))) \
                if session.jobs > 1 and len(collected.cases) > 1 else OneLane(session.engine_source(), options)
        runner.add([case for case in collected.cases if case.kind is not CaseKind.PROPERTY])
        info = runner.engine_info()
    except EngineError as error:
        if runner is not None:
            runner.close()
        console.print("[bold red]cannot start the engine:[/] ", escape(error.message), sep="")
        if error.stderr:
            console.print(escape(error.stderr))
        _write_unstarted(session, error)
        return [], 2
    for problem in collected.problems:
        console.print(f"[red]scenario problem:[/] {problem}")
    if not collected.cases and (session.only or not collected.problems):  # a typo must not look like a clean run
        given = escape(readers.clipped(", ".join(session.only), 200))
        console.print(f"[bold red]--only {given} selects no case:[/] give a rule ID (OFFER-6), "
                      "a chapter (FLOOR), a scenario or property id, or a glob (floor-*)" if session.only
                      else f"[bold red]no case to run:[/] {escape(_no_scenarios_in(session.scenario_paths))}")
        runner.close()
        return [], 2
    outputs = reporters_for(session.formats, Output(console, folder, session.verbose))
    progress = RunProgress(console, len(collected.cases), moves=runner.moves)
    started = time.perf_counter()
    done: list[CaseResult] = []
    comparison = None
    try:
        run_header = header(session, info, collected.cases)
        for reporter in outputs:
            reporter.start(run_header)

        def on_result(result: CaseResult) -> None:
            with held():  # an interrupt never falls between two reporters
                done.append(result)
                for reporter in outputs:
                    reporter.case(result)

        def on_start(case: Case) -> None:
            progress.started(case.id)

        def on_done(result: CaseResult) -> None:
            progress.finished(result.id, result.bad)

        def unfinished(why: str, problems: tuple[str, ...] = ()) -> None:
            """Every report keeps what was judged, marked unfinished: the cases judged but not yet passed on
            (workers pass them on in case order), then the rest, not_run saying `why`."""
            with held():
                judged = runner.judged()
                for case in collected.cases[len(done):]:
                    on_result(judged.get(id(case)) or _result(case, Verdict.NOT_RUN, f"not run: {why}"))
                finished = Finished(run_header, tuple(done), time.perf_counter() - started,
                                    (*collected.problems, *problems), interrupted=True)
                for reporter in outputs:
                    reporter.finish(finished)

        try:
            with _shown(progress, "terminal" in session.formats):
                results = runner.run(list(collected.cases), on_result, on_start, on_done)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM
            unfinished("the run was interrupted")
            raise
        except RecordingError as error:  # the harness's own file, never the engine's fault: the run stops
            stopped = f"the run stopped: {error}"
            unfinished(stopped, (stopped,))
            console.print(f"[bold red]--record:[/] {escape(str(error))}; the run stopped (no case is blamed on "
                          "the engine)", highlight=False, soft_wrap=True)
            return done, 2
        results, found, diagnosis = _diagnosed(session, console, results, collected.cases)
        comparison = compare(old.results, results, old.deviations, found) if old is not None else None
        finished = Finished(run_header, tuple(results), time.perf_counter() - started, collected.problems,
                            found=found, diagnosis=diagnosis,
                            compared=comparison.to_json(session.compare_with) if comparison else None)
        for reporter in outputs:
            reporter.finish(finished)
    finally:
        try:
            runner.close()
        except RecordingError as error:  # the last case's lines, written as the engine closes
            console.print(f"[bold red]--record:[/] {escape(str(error))}", highlight=False, soft_wrap=True)
        for reporter in outputs:
            reporter.close()
    if comparison is not None:
        print_comparison(console, comparison, session.compare_with)
    if folder:
        console.print(f"reports: {folder}/")
    bad = bool(failing(results, session.rules_only)) or bool(collected.problems)
    if not any(result.verdict.judged for result in results):  # all skip, not_run, out_of_time: no pass
        console.print(f"[bold red]nothing was judged:[/] {escape(_unjudged(results))}; a run that judged no case "
                      "is no pass", highlight=False, soft_wrap=True)
        bad = True
    return results, 1 if bad else 0


def _unjudged(results: list[CaseResult]) -> str:
    """`242 cases: 240 not_run, 2 skip`."""
    counts: dict[str, int] = {}
    for result in results:
        counts[str(result.verdict)] = counts.get(str(result.verdict), 0) + 1
    return f"{len(results)} case{'s' * (len(results) != 1)}: " + ", ".join(f"{n} {v}" for v, n in counts.items())


Diagnosed = tuple[tuple[Deviation, ...], list[CaseResult], dict]


def _diagnosed(session: Session, console: Console, results: list[CaseResult],
               cases: tuple[Case, ...]) -> tuple[list[CaseResult], tuple[Deviation, ...] | None, dict | None]:
    """The results with their deviation ids, the deviations (None: by symptom), and what the diagnosis did."""
    if session.diagnoser is None or not any(r.bad for r in results):
        found, diagnosis = tuple(deviations(results)), None
    else:
        failing = sum(r.bad for r in results)
        if "terminal" in session.formats:
            console.print(f"[dim]diagnosing {failing} failing case{'s' * (failing != 1)}: each run again on the "
                          "reference with each catalogued misreading[/]")
        try:
            found, results, diagnosis = session.diagnoser(results, {case.id: case for case in cases})
        except KeyboardInterrupt:  # Ctrl-C while diagnosing: every verdict is in; the reports are written by symptom
            console.print("[yellow]the diagnosis was interrupted; the failures are grouped by symptom[/]")
            found, diagnosis = tuple(deviations(results)), {"interrupted": True}
        except Exception as error:  # noqa: BLE001 - the run's verdicts are kept, grouped by symptom
            console.print(f"[bold red]the diagnosis failed[/] ({escape(type(error).__name__)}: {escape(str(error))}"
                          "); the failures are grouped by symptom")
            found, diagnosis = tuple(deviations(results)), {"failed": f"{type(error).__name__}: {error}"[:300]}
    return with_deviation_ids(results, found), found, diagnosis


@contextmanager
def _shown(progress: RunProgress, shown: bool):
    """The progress display while the cases run, when the terminal output is wanted."""
    if not shown:
        yield
        return
    progress.start()
    try:
        yield
    finally:
        progress.stop()


def _write_unstarted(session: Session, error: EngineError) -> None:
    """An engine that cannot be talked to still gets its reports, saying why (and no case judged)."""
    if not session.report_dir:
        return
    run_header = {"engine": None, "command": session.engine_command, "seed": session.seed, "cases": 0,
                  "problem": f"cannot start the engine: {error.message}"}
    outputs = reporters_for(tuple(f for f in session.formats if f != "terminal"),
                        Output(Console(file=open(os.devnull, "w")), Path(session.report_dir)))
    try:
        for reporter in outputs:
            reporter.start(run_header)
        for reporter in outputs:
            reporter.finish(Finished(run_header, (), 0.0, (run_header["problem"],)))
    finally:
        for reporter in outputs:
            reporter.close()


def temporary_folder(prefix: str) -> str:
    """A new folder of this user's alone under the system's temporary folder (tempfile.mkdtemp: a name nobody
    can guess or plant a symlink at beforehand), for what a run without --report-dir writes."""
    return tempfile.mkdtemp(prefix=prefix)


def said_where(console: Console, folder: str) -> None:
    """Say where a run without --report-dir wrote its counterexamples; remove the folder when it wrote none."""
    try:
        os.rmdir(folder)  # only when empty
    except OSError:
        if os.path.isdir(folder):
            console.print(f"counterexamples: {escape(folder)}/", highlight=False, soft_wrap=True)


def earlier_report(path: str) -> tuple[RunReport | None, str]:
    """The report `--compare` names, and "" or what makes it unusable: not a regular file, too large, not a
    report, a damaged line (a case without a string id, an unknown verdict...). A run killed while writing its
    last line is no damage: that line is left out."""

    try:
        info = os.stat(path)
    except OSError as error:
        return None, f"cannot be read: {error.strerror}"
    if not stat.S_ISREG(info.st_mode):
        return None, "not a regular file"
    if info.st_size > MAX_REPORT_BYTES:
        return None, f"{info.st_size:,} bytes: larger than any conformance report ({MAX_REPORT_BYTES:,})"
    old = read_report(path)
    if not old.header and not old.results:
        return None, "not a conformance report (no header, no case)" + (f": {old.problems[0]}" if old.problems else "")
    try:
        data = readers.read_file(path, MAX_REPORT_BYTES)
    except (readers.InputError, OSError) as error:  # replaced since it was read: not waited on, not read whole
        return None, f"cannot be read: {error}"
    lines = data.count(b"\n") + 1
    last = f"{path}:{lines}:"  # a line without its newline: torn by a kill
    problems = [p for p in old.problems if data.endswith(b"\n") or not p.startswith(last)]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return None, "damaged: " + "; ".join(problems[:3]) + more
    return old, ""


def _no_scenarios_in(paths: tuple[str, ...]) -> str:
    """Why a run found nothing to run, naming what it was given (an empty folder looks like a clean run)."""
    if not paths:
        return "the bundled corpus is empty"
    return f"no scenario in {', '.join(paths)}"
