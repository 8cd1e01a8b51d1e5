"""`azul mutants`: how much the suite catches, measured on wrong readings of the rules (the mutation score)."""

from __future__ import annotations

import os
import time

import click
from rich.console import Console
from rich.markup import escape

# The packages export their names lazily: --help loads neither the harness nor the catalogue.
from .. import harness
from .. import mutants as misreadings
from ..mutants import clean_room  # light: its modules load only when their readings are asked for
from ..mutants import families

from .numbers import DAY, JOBS, SEEDS, Number


@click.command(context_settings={"max_content_width": 100})
@click.option("--only", multiple=True, metavar="MUTANT-or-RULE",
              help="Run only these mutants: a mutant id (score-lone-tile-2), a rule ID (SCORE-1) or a chapter "
                   "(SCORE). Repeat or separate with commas.")
@click.option("--jobs", "-j", type=Number(int, 0, JOBS), default=0, show_default=True,
              help="Mutants run at once, each in its own process (0: one per core).")
@click.option("--examples", type=Number(int, 1, 10 ** 6), default=50, show_default=True,
              help="Random games per property, as `azul conform --examples`.")
@click.option("--seed", type=Number(int, *SEEDS), default=0, show_default=True, help="Seed of the property runs.")
@click.option("--every-case", is_flag=True,
              help="Run the whole suite on each mutant and list every case that kills it (slower); by default a "
                   "mutant stops at its first killing case.")
@click.option("--limit", type=Number(float, 1, DAY), default=300.0, show_default=True,
              help="Seconds a mutant may run; one still running is stopped and counted as killed (a hang).")
@click.option("--list", "list_only", is_flag=True, help="List the mutants (id, rule, source, reading, and the engines "
              "whose failures prompted it, or that it was written from the rules' text alone) and stop.")
@click.option("--lint", is_flag=True,
              help="Lint the scenarios instead: list those that no mutant of their rules fails (their data cannot "
                   "tell the rule from a wrong reading). Exit 1 on a finding not known for a reason.")
@click.option("--results", "write_results", is_flag=True,
              help="Measure which cases kill each mutant (every scenario, and the targeted properties of its rule) "
                   "and write the published results (azul_conformance/mutants/results.json: the docs page and every "
                   "report's header read them).")
def mutants(only, jobs, examples, seed, every_case, limit, list_only, lint, write_results) -> None:
    """Run the default conformance suite against each mutant of the reference engine and print the score.

    A mutant is the reference engine with one rule read wrongly, the way an engine author might: a divergence
    between rulebook versions read the other way, one of our rulings taken the other way, or a classic slip
    (the floor's penalties off by one, a lone tile scored 2, the wrong seat starting...). Each is a small patch
    applied at run time (conformance/mutants/catalogue.py). A mutant is killed when some case of the suite
    (scenarios and properties, as `azul conform` runs them in-process) judges it bad; a survivor is a wrong
    reading the suite would let through: it names the rule that needs a sharper scenario.

    The exit status is 1 when any mutant survives.

    \b
    Examples:
      azul mutants                        # every mutant, one process per core
      azul mutants --only FLOOR -j 2      # the floor line's mutants
      azul mutants --only end-no-tie-break --every-case
      azul mutants --list
      azul mutants --lint                 # scenarios that no mutant of their rules fails
      azul mutants --results              # rewrite the published score (after changing mutants or scenarios)
    """

    console = Console(soft_wrap=True)
    chosen = misreadings.select(misreadings.MUTANTS, only)
    if not chosen:
        raise click.UsageError(f"--only {', '.join(only)}: no mutant matches (see `azul mutants --list`)")
    if lint:
        _lint(console, [m.rule for m in chosen] if only else None)
        return
    if write_results:
        if only:
            raise click.UsageError("--results measures every mutant: leave out --only")

        results = misreadings.published.measure(examples=examples, seed=seed)
        misreadings.published.write(results)
        console.print(f"mutation score: {misreadings.published.score_text(results)}, "
                      f"suite {results['suite_version']}: written to {misreadings.published.RESULTS}", highlight=False)
        for entry in results["mutants"]:
            if not entry["killed_by"]:
                console.print(f"  survivor {entry['id']} breaks {entry['rule']}", highlight=False)
        raise SystemExit(0 if results["killed"] == results["total"] else 1)
    if list_only:
        from_the_text = {mutant.id for mutant in clean_room.readings()}
        for mutant in chosen:
            prompted = (f" [dim](prompted by {', '.join(mutant.prompted_by)})[/]" if mutant.prompted_by else
                        " [dim](written from the rules' text alone)[/]" if mutant.id in from_the_text else "")
            console.print(f"{mutant.id:32} {mutant.rule:9} {mutant.source:10} {escape(mutant.description)}{prompted}",
                          highlight=False)
        rules = {mutant.rule for mutant in chosen}
        for family in (f for f in families.FAMILIES if not only or f.rule in rules):
            example = family.reading(family.values()[0]).id
            console.print(f"{family.stem + '-...':32} {family.rule:9} {families.FITTED:10} {escape(family.what)}: "
                          f"whichever the engine shows of {len(family.values())} values other than the rules' "
                          f"({escape(family.words(family.rules))}), e.g. {example} [dim](a rule that is a number: "
                          "fitted to the engine by the diagnosis, not run here)[/]", highlight=False)
        return

    workers = jobs or os.cpu_count() or 1
    console.print(f"mutants: {len(chosen)} against the default suite (properties: {examples} games, seed {seed}), "
                  f"{workers} at a time", highlight=False)
    started = time.perf_counter()
    done = 0

    def progress(outcome) -> None:
        nonlocal done
        done += 1
        how = (f"killed by {', '.join(outcome.killers)}" if outcome.killers else outcome.note) if outcome.killed \
            else "[bold red]SURVIVED[/]"
        console.print(f"[{done}/{len(chosen)}] {outcome.mutant.id} ({outcome.mutant.rule}): {how} "
                      f"[dim]{outcome.seconds:.1f} s[/]", highlight=False)

    outcomes = misreadings.run_mutants(chosen, jobs, examples, seed, every_case, limit, progress)
    survivors = [outcome for outcome in outcomes if not outcome.killed]
    console.print(f"\nmutation score: {misreadings.score(outcomes):.1%} ({len(outcomes) - len(survivors)} of "
                  f"{len(outcomes)} killed) in {time.perf_counter() - started:.1f} s", highlight=False)
    for outcome in survivors:
        mutant = outcome.mutant
        console.print(f"  survivor {mutant.id} breaks {mutant.rule}: {escape(mutant.description)}", highlight=False)
    raise SystemExit(1 if survivors else 0)


def _lint(console, rules) -> None:
    """The scenarios (of `rules`, or all) that no mutant of their rules tells from the rule."""


    started = time.perf_counter()
    cases = harness.collect(harness.Session(properties=False, only=tuple(rules or ()))).cases
    findings = misreadings.blind_scenarios(misreadings.EVERY, cases)
    new = [f for f in findings if not f.known]
    console.print(f"lint: {len(cases)} scenarios against the mutants of their rules in "
                  f"{time.perf_counter() - started:.1f} s: {len(new)} finding(s), {len(findings) - len(new)} known",
                  highlight=False)
    for finding in new:
        tried = ", ".join(finding.mutants) or "none: no mutant breaks these rules"
        console.print(f"  [bold red]blind[/] {finding.scenario} ({', '.join(finding.rules)}): no mutant of its rules "
                      f"fails it (tried: {tried})", highlight=False)
    for finding in findings:
        if finding.known:
            console.print(f"  [dim]known[/] {finding.scenario}: {escape(finding.known)}", highlight=False)
    raise SystemExit(1 if new else 0)
