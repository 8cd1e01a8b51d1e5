"""Diagnosis: every deviation named by the misreading of the rules that reproduces it.

    observe.py     what an engine did in a failing case, as data another run can be held to
    experiment.py  a case run again on an engine that reads the rules in a known way
    diagnose.py    every catalogued misreading tried on every failing case; the fewest that explain the most

It sits above the harness and the mutants: the harness runs the cases and reports deviations, the mutant
catalogue supplies the misreadings, and the CLI hands `diagnoser()` to the session that runs the suite.
"""

from __future__ import annotations

from collections.abc import Callable

from ..harness.cases import Case
from ..results import CaseResult
from .diagnose import CATALOGUE, Diagnosis, diagnose

__all__ = ["CATALOGUE", "Diagnosis", "diagnose", "diagnoser"]


def diagnoser(jobs: int = 1, seed: int = 0) -> Callable[[list[CaseResult], dict[str, Case]], tuple]:
    """The session's diagnosis step: (deviations, results, what it did) for the results of a run."""

    def run(results: list[CaseResult], cases: dict[str, Case]) -> tuple:
        found = diagnose(results, cases, jobs=jobs, seed=seed)
        counts = found.counts()
        return found.deviations, list(found.results), {
            "catalogue": found.tried, "seconds": found.seconds, "misreadings": counts["misreading"],
            "undiagnosed": counts["undiagnosed"], "engine_faults": counts["engine-fault"]}
    return run
