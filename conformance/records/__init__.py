"""Annotated game records (`.azr`): a text format for whole games, "PGN for Azul".

    parse_record(text, source)        strict reader -> Record (RecordSyntaxError with line:column and a caret)
    repair_record(text, source)       lenient reader -> (Record, repairs made)
    read_record(path, lenient=False)  read a file (UTF-8 checked) -> (Record, repairs)
    write_record(record)              Record -> text; write, parse, write gives the same text
    record_from_states(states, moves, headers)   the Record of a played game (for `azul simulate --record`)
    replay(record, engine=None)       play it through the Engine interface, checking every claim; a
                                      ReplayError carries the Disagreement (explain.py): where the record
                                      and our rules part ways, the deciding rule, both sides' values
    batch.replay_sources(sources)     one verdict per record and a summary grouped by rule (`azul replay DIR`),
                                      on the fast path (fast_parse.py, fast_replay.py) where it can

The format is specified by spec/grammar/record.lark and documented in docs/reference/records.md; sample
records ship in the `samples` folder (`sample_paths()`). Games recorded by other software become records
through `azul_conformance.importers`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import Pos, RecordError, RecordSyntaxError, Repair, ReplayError
from .model import Claim, Comment, Deal, Header, Ply, Record, Round
from .parser import parse_record, read_record, repair_record
from .replay import ReplayResult, Step, replay
from .writer import record_from_states, write_record

__all__ = [
    "Claim", "Comment", "Deal", "Header", "Ply", "Pos", "Record", "RecordError", "RecordSyntaxError", "Repair",
    "ReplayError", "ReplayResult", "Round", "Step", "parse_record", "read_record", "record_from_states",
    "repair_record", "replay", "sample_paths", "write_record",
]


def sample_paths() -> list[Path]:
    """The sample records shipped with the package, sorted by name."""
    folder = resources.files("azul_conformance") / "records" / "samples"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".azr"))
