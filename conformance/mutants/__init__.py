"""Rule-level mutants of the reference engine, and the mutation score of the conformance suite against them.

    from azul_conformance.mutants import MUTANTS, run_mutants, score
    outcomes = run_mutants(MUTANTS, jobs=2)     # each mutant against the default suite, in its own process
"""

from __future__ import annotations

from .catalogue import BY_ID, MUTANTS, Mutant
from .run import Outcome, run_mutant, run_mutants, score

__all__ = ["BY_ID", "MUTANTS", "Mutant", "Outcome", "run_mutant", "run_mutants", "score", "select"]


def select(mutants, only) -> list[Mutant]:
    """The mutants named by id, rule ID or chapter (FLOOR), case-insensitive; all when `only` is empty."""
    wanted = [s.strip().lower() for item in only for s in item.split(",") if s.strip()]
    if not wanted:
        return list(mutants)
    return [m for m in mutants if any(w in (m.id.lower(), m.rule.lower(), m.rule.split("-")[0].lower())
                                      for w in wanted)]
