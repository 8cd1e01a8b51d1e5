"""Diagnosis: every deviation named by the misreading of the rules that reproduces it.

    observe.py     what an engine did in a failing case, as data another run can be held to
    experiment.py  a case run again on an engine that reads the rules in a known way
    cover.py       every catalogued misreading tried on every failing case; the fewest that explain the most (a set
                   cover); `diagnose` and `diagnoser`, exported by the package

It sits above the harness and the mutants: the harness runs the cases and reports deviations, the mutant
catalogue supplies the misreadings, and the CLI hands `diagnoser()` to the session that runs the suite.
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {".cover": "CATALOGUE Diagnosis diagnose diagnoser"})

__all__ = ["CATALOGUE", "Diagnosis", "diagnose", "diagnoser"]
