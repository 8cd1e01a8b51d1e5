"""`azul conform`: run the conformance suite (scenarios and properties) against an engine."""

from __future__ import annotations

import click

from ..engines.opening import ENGINE_HELP
from ..harness.reporters import REPORTERS

FORMAT_CHOICES = (*REPORTERS, "all")


@click.command(context_settings={"max_content_width": 100})
@click.option("--engine", "engine", metavar="ENGINE", default=None, help=ENGINE_HELP)
@click.option("--report-dir", type=click.Path(file_okay=False), default=None,
              help="Write report.jsonl (as the run goes), junit.xml, report.md and counterexamples/ here.")
@click.option("--only", multiple=True, metavar="RULE-or-SCENARIO",
              help="Run only these cases: a rule ID (OFFER-6), a chapter (FLOOR), a scenario or property id, "
                   "or a glob (floor-*). Repeat or separate with commas.")
@click.option("--examples", type=click.IntRange(1), default=50, show_default=True,
              help="Random games per property.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the property runs (same seed, same games).")
@click.option("--compare", "compare_with", type=click.Path(exists=True, dir_okay=False), default=None,
              metavar="OLD_REPORT", help="A report.jsonl of an earlier run: show what is fixed and what newly fails.")
@click.option("--timeout", type=click.FloatRange(0.05), default=5.0, show_default=True,
              help="Seconds the engine gets to answer each request.")
@click.option("--format", "formats", multiple=True, type=click.Choice(FORMAT_CHOICES), default=("all",),
              show_default=True, help="Which reports to produce (repeatable).")
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(exists=True),
              help="Scenario files or folders to run instead of the bundled corpus.")
@click.option("--no-properties", is_flag=True, help="Run the scenarios only.")
@click.option("--jobs", "-j", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes, each with its own engine process (0: one per core). Same verdicts and "
                   "report order as -j 1.")
@click.option("--rules-only", is_flag=True,
              help="Exit 1 only for failures of the rulebooks' own rules, not of our rulings (both are reported).")
def conform(engine, report_dir, only, examples, seed, compare_with, timeout, formats, scenario_paths,
            no_properties, jobs, rules_only) -> None:
    """Run the conformance suite against an Azul engine and judge every case.

    Each case ends as pass, fail, differs (another choice where the rules let an engine choose: never a
    failure), error, crash, timeout, skip (a capability the engine does not offer; never a pass) or not_run,
    and is judged at a level: the rulebooks' own rules, our rulings where they are silent or disagree, or
    implementation-defined. Failures are grouped into deviations (the same field wrong in the same way),
    each shown by its smallest case. A crashing or hanging engine is restarted and the run goes on. The exit
    status is 1 when a case fails, errs, crashes or times out at level rule or ruling (rule only with
    --rules-only), 2 when the engine cannot be started.

    \b
    Examples:
      azul conform                                   # the bundled reference engine, in-process
      azul conform --engine "azul serve"             # the reference engine as a subprocess
      azul conform --engine "./my-engine --quiet" --report-dir reports
      azul conform --engine "python3 my_engine.py" --only OFFER-6 --only floor-overflow-to-lid
      azul conform --engine py:my_engine.adapter:make_engine   # a Python engine, in-process
      azul conform --engine "./my-engine" --compare reports/report.jsonl --report-dir reports-new
      azul conform --examples 200 --seed 7           # longer property runs
      azul conform --engine "./my-engine" -j 2       # two engine processes at once
      azul conform --engine "./my-engine" --rules-only  # fail only where the rulebooks' text is broken
    """
    import os

    from azul_conformance.harness.session import FORMATS, Session, run_session

    session = Session(engine_command=engine, report_dir=report_dir, only=tuple(only), examples=examples, seed=seed,
                      timeout=timeout, formats=FORMATS if "all" in formats else tuple(formats),
                      compare_with=compare_with, scenario_paths=tuple(scenario_paths), properties=not no_properties,
                      jobs=jobs or os.cpu_count() or 1, rules_only=rules_only)
    _, status = run_session(session)
    raise SystemExit(status)
