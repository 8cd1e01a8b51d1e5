"""Running the default suite against every mutant: each mutant in a process of its own, several at once.

A mutant is killed when some case of the suite judges it bad (fail, error, crash or timeout); the scenarios of
the rule it breaks run first, and the run of a mutant stops at its first killing case unless every case is asked
for. A mutant that runs past its time limit (a wrong reading that loops) is stopped and counted as killed, as a
hanging engine would be noticed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

from ..harness.runner import RunOptions, run_case
from ..harness.session import Session, collect
from ..processes import Ended, each_in_a_process
from ..results import CaseKind
from .catalogue import Mutant
from .patching import MutantEngine


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    killers: tuple[str, ...]  # the cases that judged the mutant bad (the first only, unless every case ran)
    cases: int  # cases run
    seconds: float
    note: str = ""  # why the mutant counts as killed without a case (it hung, the worker died)


def suite_cases(mutant: Mutant, examples: int, seed: int):
    """The default suite (scenarios, then properties), the scenarios of the mutant's rule first."""
    cases = collect(Session(examples=examples, seed=seed)).cases
    first = [c for c in cases if c.kind is CaseKind.SCENARIO and mutant.rule in c.rules]
    return first + [c for c in cases if c not in first]


def run_mutant(mutant: Mutant, examples: int = 50, seed: int = 0, every_case: bool = False,
               cases=None) -> Outcome:
    """Run the suite (or the `cases` given) against one mutant, in this process."""
    started = time.perf_counter()
    cases = suite_cases(mutant, examples, seed) if cases is None else cases
    engine = MutantEngine(mutant, seed)
    options = RunOptions(examples=examples, seed=seed)
    killers: list[str] = []
    ran = 0
    for case in cases:
        ran += 1
        if run_case(engine, case, engine.info.capabilities, options).verdict.bad:
            killers.append(case.id)
            if not every_case:
                break
    return Outcome(mutant, bool(killers), tuple(killers), ran, round(time.perf_counter() - started, 2))


def run_mutants(mutants: Iterable[Mutant], jobs: int = 0, examples: int = 50, seed: int = 0,
                every_case: bool = False, limit: float = 300.0,
                on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Every mutant in its own process (processes.py), `jobs` at a time (0: one per core); outcomes in
    catalogue order."""
    waiting = list(mutants)
    order = {mutant.id: index for index, mutant in enumerate(waiting)}
    outcomes: list[Outcome] = []

    def work(mutant: Mutant) -> tuple:
        outcome = run_mutant(mutant, examples, seed, every_case)
        return outcome.killed, outcome.killers, outcome.cases, outcome.seconds

    def answered(mutant: Mutant, answer) -> None:
        if isinstance(answer, Ended):
            why = (f"still running after {limit:g} s: stopped" if answer.overran
                   else f"the worker died (exit code {answer.exit_code})")
            outcome = Outcome(mutant, True, (), 0, answer.seconds, why)
        else:
            killed, killers, cases, seconds = answer
            outcome = Outcome(mutant, killed, tuple(killers), cases, seconds)
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)

    each_in_a_process(waiting, work, answered, jobs, limit)
    return sorted(outcomes, key=lambda outcome: order[outcome.mutant.id])


def score(outcomes: list[Outcome]) -> float:
    return sum(outcome.killed for outcome in outcomes) / len(outcomes) if outcomes else 0.0


def select(mutants, only) -> list[Mutant]:
    """The mutants named by id, rule ID or chapter (FLOOR), case-insensitive; all when `only` is empty."""
    wanted = [s.strip().lower() for item in only for s in item.split(",") if s.strip()]
    if not wanted:
        return list(mutants)
    return [m for m in mutants if any(w in (m.id.lower(), m.rule.lower(), m.rule.split("-")[0].lower())
                                      for w in wanted)]
