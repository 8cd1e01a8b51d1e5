"""The catalogue of misreadings: the rule-level mutants written by the project (readings.py) and those written from
the rules' text alone, in a clean room (clean_room/), with the other choices of implementation-defined rules
(ALTERNATIVES). Everything that runs, lists, scores or diagnoses misreadings takes them from here.
"""

from __future__ import annotations

from . import families
from .clean_room import readings as from_the_text
from .readings import ALTERNATIVES, M, Mutant, Patch, value
from .readings import MUTANTS as WRITTEN

MUTANTS: tuple[Mutant, ...] = WRITTEN + from_the_text()

BY_ID = {mutant.id: mutant for mutant in MUTANTS + ALTERNATIVES}
assert len(BY_ID) == len(MUTANTS) + len(ALTERNATIVES), "mutant ids are unique"


def reading(mutant_id: str) -> Mutant | None:
    """A reading by id: a catalogued one, or one of a family of the rules that are numbers (families.py, built
    again from its id: the diagnosis fits those to an engine and names them by the value found)."""
    return BY_ID.get(mutant_id) or families.reading(mutant_id)


__all__ = ["ALTERNATIVES", "BY_ID", "M", "MUTANTS", "Mutant", "Patch", "reading", "value"]
