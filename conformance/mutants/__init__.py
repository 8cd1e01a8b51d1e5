"""Rule-level mutants of the reference engine, and the mutation score of the conformance suite against them.

    from azul_conformance.mutants import MUTANTS, run_mutants, score
    outcomes = run_mutants(MUTANTS, jobs=2)     # each mutant against the default suite, in its own process
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    ".catalogue": "BY_ID MUTANTS Mutant",
    ".lint": "EVERY blind_scenarios",
    ".published": "mutation_score",
    ".run": "Outcome run_mutant run_mutants score select",
})

__all__ = ["BY_ID", "EVERY", "MUTANTS", "Mutant", "Outcome", "blind_scenarios", "mutation_score", "run_mutant",
           "run_mutants", "score", "select"]
