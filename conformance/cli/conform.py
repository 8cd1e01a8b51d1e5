"""`azul conform`: run the conformance suite (scenarios and properties) against an engine."""

from __future__ import annotations

import click

# The packages export their names lazily: --help loads none of the harness, the diagnosis or the mutants.
from .. import diagnosis, engines, harness, mutants
from ..engines import recording as recordings
from ..processes import default_jobs
from ..readers import public_text
from .engine_option import ENGINE, ENGINE_HELP, RECORD_HELP, RECORDING_HELP
from .numbers import DAY, JOBS, SEEDS, Number, parse_duration

FORMAT_CHOICES = (*harness.FORMATS, "all")
RESERVED = ("format", "hello", "suite_version", "command", "seed", "examples", "timeout", "date")


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "engine", type=ENGINE, metavar="ENGINE", default=None, help=ENGINE_HELP)
@click.option("--report-dir", type=click.Path(file_okay=False), default=None,
              help="Write report.jsonl (as the run goes), junit.xml, report.md and counterexamples/ here (one run "
                   "at a time: a second run on the folder refuses). Default: no report files, counterexamples in a "
                   "new temporary folder.")
@click.option("--only", multiple=True, metavar="RULE-or-SCENARIO",
              help="Run only these cases: a rule ID (OFFER-6), a chapter (FLOOR), a scenario or property id, "
                   "or a glob (floor-*). Repeat or separate with commas.")
@click.option("--examples", type=Number(int, 1, 10 ** 6), default=None,
              help="Random games per property.  [default: 50, or the recording's]")
@click.option("--seed", type=Number(int, *SEEDS), default=None,
              help="Seed of the property runs (same seed, same games).  [default: 0, or the recording's]")
@click.option("--compare", "compare_with", type=click.Path(exists=True, dir_okay=False), default=None,
              metavar="OLD_REPORT",
              help="A report.jsonl of an earlier run: lead with each deviation gone, still there or new (with "
                   "its cases), say why a level's count of judged cases moved, then list the cases fixed, newly "
                   "failing, still failing and no longer judged (now skip, not_run or out_of_time).")
@click.option("--timeout", type=Number(float, 0.05, DAY), default=5.0, show_default=True,
              help="Seconds the engine gets to answer each request.")
@click.option("--format", "formats", multiple=True, type=click.Choice(FORMAT_CHOICES), default=("all",),
              show_default=True, help="Which reports to produce (repeatable).")
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(exists=True),
              help="Scenario files or folders to run instead of the bundled corpus (a case id given twice is "
                   "refused, naming both places).")
@click.option("--no-properties", is_flag=True, help="Run the scenarios only.")
@click.option("--jobs", "-j", type=Number(int, 0, JOBS), default=None,
              help="Worker processes, each with its own engine (a process of the command, or an in-process "
                   "engine of its own). Default and 0: one per core this process may use. Same verdicts, "
                   "messages and report order as -j 1. The longest cases (the properties) are handed out first.")
@click.option("--case-timeout", callback=parse_duration, default=None, metavar="DURATION",
              help="Time budget of each case (30, 30s, 2m). A case that overruns it is cut between two requests "
                   "and judged out_of_time, keeping what it checked (games played, a failure found).")
@click.option("--budget", callback=parse_duration, default=None, metavar="DURATION",
              help="Time budget of the whole run (90s, 10m, 2h). The cases running when it ends are out_of_time, "
                   "those not started not_run; every report is written as usual.")
@click.option("--rules-only", is_flag=True,
              help="Exit 1 only for failures of the rulebooks' own rules, not of our rulings (both are reported).")
@click.option("--no-diagnose", is_flag=True,
              help="Do not diagnose the failures (group them by the state field that differed instead).")
@click.option("--record", "record", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help=RECORD_HELP)
@click.option("--record-about", "record_about", multiple=True, metavar="KEY=VALUE",
              help="A field of the recording's header, such as upstream=URL or commit=SHA (repeatable): where the "
                   "engine came from.")
@click.option("--recording", "recording", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help=RECORDING_HELP)
def conform(engine, report_dir, only, examples, seed, compare_with, timeout, formats, scenario_paths,
            no_properties, jobs, case_timeout, budget, rules_only, no_diagnose, record, record_about,
            recording) -> None:
    """Run the conformance suite against an Azul engine and judge every case.

    Each case ends as pass, fail, differs (another choice where the rules let an engine choose: never a
    failure), error, crash, timeout, skip (a capability the engine does not offer; never a pass) or not_run, and
    is judged at a level: the rulebooks' own rules, our rulings where they are silent or disagree, or
    implementation-defined. Failures are then diagnosed: each failing case is run again on the reference engine
    with each catalogued misreading of the rules (azul mutants --list), and the fewest misreadings that
    reproduce what the engine did name the deviations ("FLOOR-3: the first floor space costs nothing"), each
    with its evidence; what no misreading explains stays grouped by symptom, marked not diagnosed; crashes,
    timeouts and impossible positions are engine faults (--no-diagnose skips the diagnosis). A crashing or
    hanging engine is restarted and the run goes on. The exit status is 1 when a case fails, errs, crashes or
    times out at level rule or ruling (rule only with --rules-only), 2 when the engine cannot be started. A
    budget that runs out (--case-timeout, --budget) is out_of_time or not_run, never a failure.

    While it runs, a live line on a terminal (cases done, failures so far, the engine's speed, the cases
    running), or a plain line every 10 seconds in a log.

    \b
    Examples:
      azul conform                                   # the bundled reference engine, in-process
      azul conform --engine "azul serve"             # the reference engine as a subprocess
      azul conform --engine "./my-engine --quiet" --report-dir reports
      azul conform --engine "python3 my_engine.py" --only OFFER-6 --only floor-overflow-to-lid
      azul conform --engine py:my_engine.adapter:make_engine   # a Python engine, in-process
      azul conform --engine "./my-engine" --compare reports/report.jsonl --report-dir reports-new
      azul conform --examples 200 --seed 7           # longer property runs
      azul conform --engine "./my-engine" -j 2       # two engine processes at once (default: one per core)
      azul conform --engine "./my-engine" --case-timeout 60 --budget 10m   # time budgets
      azul conform --engine "./my-engine" --rules-only  # fail only where the rulebooks' text is broken
      azul conform --engine "./my-engine" --record session.jsonl.gz   # record the session while judging it
      azul conform --recording session.jsonl.gz      # judge it again, anywhere, without the engine
    """
    if recording and (engine or record):
        raise click.UsageError(f"--recording {recording} is the engine: give it without "
                               f"{'--engine' if engine else '--record'}")
    if record_about and not record:
        raise click.UsageError("--record-about describes a recording being made: give --record FILE too")
    notes = {}
    for item in record_about:
        key, _, value = item.partition("=")
        if not key.isidentifier() or not value or key in RESERVED:
            raise click.BadParameter(f"{item!r}: expected KEY=VALUE, KEY a word other than {', '.join(RESERVED)}",
                                     param_hint="--record-about")
        notes[key] = value
    if recording:
        try:
            recorded = engines.load_recording(recording).header
        except recordings.RecordingError as error:
            raise click.ClickException(str(error)) from None
        seed = recorded.get("seed", 0) if seed is None else seed
        examples = recorded.get("examples") or 50 if examples is None else examples
    seed = 0 if seed is None else seed
    examples = 50 if examples is None else examples
    jobs = jobs or default_jobs()
    about = None
    if record:
        about = recordings.about(suite_version=harness.suite_version(scenario_paths),
                                 command=public_text(engine or "(in-process reference engine)"), seed=seed,
                                 examples=None if no_properties else examples, timeout=timeout, notes=notes)
    session = harness.Session(
        engine_command=engine, report_dir=report_dir, only=tuple(only), examples=examples, seed=seed,
        timeout=timeout, formats=harness.FORMATS if "all" in formats else tuple(formats), compare_with=compare_with,
        scenario_paths=tuple(scenario_paths), properties=not no_properties, jobs=jobs, case_timeout=case_timeout,
        budget=budget, rules_only=rules_only, diagnoser=None if no_diagnose else diagnosis.diagnoser(jobs, seed),
        mutation_score=mutants.mutation_score(scenario_paths), record=record, record_about=about,
        recording=recording)
    _, status = harness.run_session(session)
    raise SystemExit(status)
