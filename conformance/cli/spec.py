"""`azul spec`: check the rule specification and its traceability to the rulebooks."""

from __future__ import annotations

import os
from pathlib import Path

import click

# The packages export their names lazily: --help loads neither the checks nor the scenarios.
from .. import scenario, spec_check
from ..spec_data import load_spec
from ..spec_show import find_rules, show_rule

EXIT_PROBLEMS = 1
EXIT_NO_RULEBOOKS = 2


@click.group()
def spec() -> None:
    """Work with the rule specification (rules, clause index, divergences).

    \b
    Examples:
      azul spec check          # every rulebook line traced, every citation proved by its own words
      azul spec show OFFER-6   # one rule: statement, level, the 8 versions, ruling, scenarios
    """


@spec.command()
@click.option("--rulebooks", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of rulebook files (default: $AZUL_RULEBOOKS, else ../shared/rulebooks beside the "
                   "project or the current folder).")
@click.option("--spec", "spec_root", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Spec folder to check (default: the bundled spec).")
@click.option("--quiet", "-q", is_flag=True, help="Print problems only; no summary on success.")
def check(rulebooks: Path | None, spec_root: Path | None, quiet: bool) -> None:
    """Check the specification: schemas, rule IDs, citations, full clause coverage of every rulebook line, that
    every citation carries a fragment of the version's own words found in exactly the lines it cites, that a
    rule's label for a version (states, printed, partly, example, diverges, silent) agrees with the divergence
    register for the same lines, and that every level `rule` explains each diverging version in its basis.

    Each problem is printed as `path:line: message`; the exit status is 0 when all is well, 1 when there are
    problems, 2 when the rulebooks cannot be found (an error under CI=true).

    \b
    Examples:
      azul spec check
      azul spec check --rulebooks ../shared/rulebooks --quiet
      AZUL_RULEBOOKS=/data/azul/rulebooks azul spec check
    """
    found = spec_check.find_rulebooks(rulebooks)
    report = spec_check.check_spec(spec_root, found)
    for problem in report.problems:
        click.echo(str(problem))
    if found is None:
        in_ci = os.environ.get("CI", "").lower() == "true"
        label = "error" if in_ci else "warning"
        click.echo(f"{label}: {_no_rulebooks(rulebooks)}; citations and clause coverage were not checked", err=True)
        raise SystemExit(EXIT_PROBLEMS if in_ci or report.problems else EXIT_NO_RULEBOOKS)
    if report.problems:
        click.echo(f"spec check failed: {len(report.problems)} problem(s)", err=True)
        raise SystemExit(EXIT_PROBLEMS)
    if not quiet:
        click.echo(f"spec check passed: {report.summary()}")


def _no_rulebooks(given: Path | None) -> str:
    """Why no rulebook was found, naming where the check looked."""
    if given is not None:
        what = "holds no" if given.is_dir() else "is not a folder of"
        return f"--rulebooks {given} {what} rulebook (*.txt) files"
    if os.environ.get("AZUL_RULEBOOKS"):
        return f"AZUL_RULEBOOKS={os.environ['AZUL_RULEBOOKS']} holds no rulebook (*.txt) files"
    return "rulebooks not found (pass --rulebooks or set AZUL_RULEBOOKS)"


@spec.command()
@click.argument("targets", nargs=-1, required=True, metavar="RULE-ID|CHAPTER...")
def show(targets: tuple[str, ...]) -> None:
    """Print a rule, or every rule of a chapter: its statement and level, what each of the eight rulebook
    versions says (citations by version and line, "EN, l. 162", each version's file named once; quoted
    fragments; notes), its divergences, our ruling and its authority, and
    the scenarios that check it.

    \b
    Examples:
      azul spec show OFFER-6
      azul spec show floor          # the whole chapter (also FLOOR)
      azul spec show END-8 ROUND-3
    """
    spec_data = load_spec()
    chosen = [rule for target in targets for rule in find_rules(spec_data, target)]
    unknown = [target for target in targets if not find_rules(spec_data, target)]
    if unknown:
        chapters = ", ".join(chapter.name for chapter in spec_data.chapters)
        raise click.UsageError(f"no rule or chapter {', '.join(unknown)}: give a rule ID (OFFER-6) or a chapter "
                               f"({chapters})")
    checked: dict[str, list[tuple[str, str]]] = {}
    for case in scenario.load_scenarios():
        for rule_id in case.rules:
            checked.setdefault(rule_id, []).append((case.id, case.where))
    click.echo("\n".join(show_rule(spec_data, rule, checked.get(rule.id, [])) for rule in chosen), nl=False)
