"""`azul scenarios`: check, run and export the scenario corpus."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

# The package exports its names lazily: --help loads no scenario.
from .. import scenario
from ..harness.outputs import write_atomically

PATHS = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))


@click.group("scenarios", context_settings={"help_option_names": ["-h", "--help"]})
def scenarios() -> None:
    """Check, run or export the scenario corpus (conformance/scenarios/<chapter>/*.yaml).

    \b
    Examples:
      azul scenarios check                       # the whole bundled corpus
      azul scenarios run --only OFFER-5          # the scenarios of one rule, on the reference engine
      azul scenarios export --json -o scenarios.json
    """


@scenarios.command("check")
@PATHS
@click.option("--no-coverage", is_flag=True, help="Do not require every rule to have a scenario.")
@click.option("--no-engine", is_flag=True, help="Do not load each `given` into the reference engine.")
def check(paths: tuple[Path, ...], no_coverage: bool, no_engine: bool) -> None:
    """Check scenario files: schema, grammar, unique IDs, known rules, citations, rule coverage, legal positions.

    PATHS are scenario files or folders (default: the bundled corpus). Exits 1 when a problem is found.

    \b
    Examples:
      azul scenarios check
      azul scenarios check conformance/scenarios/offer --no-coverage
    """
    report = scenario.check_corpus(paths or None, coverage=not no_coverage, legality=not no_engine)
    for problem in report.problems:
        click.echo(problem, err=True)
    if report.uncovered:
        click.echo(f"{len(report.uncovered)} rule(s) without a scenario:", err=True)
        for line in report.uncovered:
            click.echo(f"  {line}", err=True)
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    rules = {rule for case in report.scenarios for rule in case.rules}
    summary = f"{len(report.scenarios)} scenarios, {len(rules)} rules covered, {len(report.problems)} problem(s)"
    click.echo(summary)
    sys.exit(0 if report.ok else 1)


def _load(paths: tuple[Path, ...]) -> list[scenario.Scenario]:
    errors: list[scenario.ScenarioError] = []
    found = scenario.load_scenarios(paths or None, errors)
    for error in errors:
        click.echo(str(error), err=True)
    if errors:
        raise click.exceptions.Exit(2)
    return found


@scenarios.command("run")
@PATHS
@click.option("--only", multiple=True, metavar="SELECTOR",
              help="Run only these scenarios: an id, a rule ID (OFFER-9), a chapter (FLOOR) or a glob (offer-*), "
                   "in any case. Repeat or separate with commas.")
@click.option("-v", "--verbose", is_flag=True, help="Also list the scenarios that pass.")
def run(paths: tuple[Path, ...], only: tuple[str, ...], verbose: bool) -> None:
    """Run scenarios on the bundled reference engine; print `id (file:line)` and a diff for each failure.

    The same run as `azul conform --no-properties` on the reference engine, without report files. Exits 1
    when a scenario fails or errs (or a file cannot be loaded), 2 when --only selects nothing.

    \b
    Examples:
      azul scenarios run
      azul scenarios run --only OFFER-9 --only floor-* -v
      azul scenarios run conformance/scenarios/offer --only offer
    """
    # deferred: the harness loads hypothesis, which only `run` needs (not check or export)
    from ..harness.session import Session, run_session

    session = Session(only=only, scenario_paths=tuple(map(str, paths)), properties=False, formats=("terminal",),
                      verbose=verbose)
    _, status = run_session(session)
    sys.exit(status)


@scenarios.command("export")
@PATHS
@click.option("--json", "as_json", is_flag=True, required=True, help="Write JSON (the only format).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write (default: stdout).")
def export(paths: tuple[Path, ...], as_json: bool, output: Path | None) -> None:
    """Export every scenario as plain JSON (format azul-scenarios/1, canonical states, compiled checks).

    The document is validated against spec/schema/scenario-export.schema.json before it is written.

    \b
    Examples:
      azul scenarios export --json -o scenarios.json
      azul scenarios export --json conformance/scenarios/offer | jq '.scenarios[].id'
    """
    del as_json  # required, so that the format is explicit; JSON is the only one

    document = scenario.export_scenarios(_load(paths))
    problems = scenario.export_problems(document)
    for problem in problems:
        click.echo(f"export: {problem}", err=True)
    if problems:
        sys.exit(1)
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomically(output, text, make_folder=False)
        click.echo(f"{len(document['scenarios'])} scenarios written to {output}", err=True)
