"""Importers: games recorded by other software, converted into game records (`.azr`) that `azul replay` checks.

Each format is one module with `NAME`, `SUMMARY`, `SUFFIXES` (its files' names in a folder or an archive),
`read(path)` and `read_data(name, bytes)`, which yield an
`ImportedGame` per game it can convert and an `ImportProblem` (which game, which field, why) per game it
cannot; `to_record` does the rest. A new format is a new module and one line in FORMATS.

    import_file(format, path)   -> iterator of (Record, None) or (None, ImportProblem), in the file's order
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from ..records.model import Record
from . import faience, ludometer_fixture
from .game import ImportedGame, ImportedRound, ImportProblem, to_record

__all__ = ["FORMATS", "ImportedGame", "ImportedRound", "ImportProblem", "import_file", "to_record", "to_records"]

FORMATS: dict[str, ModuleType] = {module.NAME: module for module in (ludometer_fixture, faience)}


def import_file(format_name: str, path: Path,
                data: bytes | None = None) -> Iterator[tuple[Record | None, ImportProblem | None]]:
    """Every game of `path` read as `format_name` (from `data`, its bytes, when given: a member of an archive),
    as a record or as the problem that stopped it."""
    module = FORMATS[format_name]
    return to_records(module.read(path) if data is None else module.read_data(path.name, data))


def to_records(items: Iterator[ImportedGame | ImportProblem]) -> Iterator[tuple[Record | None, ImportProblem | None]]:
    """Each game an importer read as its record, or the problem that stopped it."""
    for item in items:
        if isinstance(item, ImportProblem):
            yield None, item
            continue
        try:
            yield to_record(item), None
        except ImportProblem as problem:
            yield None, problem
