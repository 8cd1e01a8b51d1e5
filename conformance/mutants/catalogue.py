"""The catalogue of misreadings: the rule-level mutants written by the project (readings.py) and those written from
the rules' text alone, in a clean room (clean_room/), with the other choices of implementation-defined rules
(ALTERNATIVES). Everything that runs, lists, scores or diagnoses misreadings takes them from here.
"""

from __future__ import annotations

from .clean_room import readings as from_the_text
from .readings import ALTERNATIVES, M, Mutant, Patch, value
from .readings import MUTANTS as WRITTEN

MUTANTS: tuple[Mutant, ...] = WRITTEN + from_the_text()

BY_ID = {mutant.id: mutant for mutant in MUTANTS + ALTERNATIVES}
assert len(BY_ID) == len(MUTANTS) + len(ALTERNATIVES), "mutant ids are unique"

__all__ = ["ALTERNATIVES", "BY_ID", "M", "MUTANTS", "Mutant", "Patch", "value"]
