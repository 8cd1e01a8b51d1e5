"""A corpus of damaged files for the readers a run depends on: the fuzz state file (`azul fuzz`, resumed) and
the earlier report of `azul conform --compare`. Each entry is a name and a generator of the file's bytes, so the
big ones (a line nested 100,000 deep, a 70 MB line) are made when a test needs them, never committed.

Used by tests/test_fuzz_state_file.py, tests/test_conform_runs.py, and (the seeds) tests/hostile_files.py.
"""

from __future__ import annotations

import json
from typing import Any, Callable

STATE_SPEC = {"seed": 0, "players": [2], "variants": ["colour"], "engine": None, "timeout": 5.0, "batched": True,
              "overlap": True}
HEADER = {"type": "header", "format": "azul-fuzz-state/1", "spec": STATE_SPEC}
DEVIATION = {"key": "fail SCORE-2 round /boards/*/score", "verdict": "fail", "rule": "SCORE-2",
             "message": "score 3, expected 4", "index": 3,
             "plan": {"players": 2, "variant": "colour", "start_player": 0, "deal_seed": 7, "choices": [1, 2, 3]},
             "steps": [{"kind": "deal", "factories": ["BBRK", "YYKW", "RRBW", "KKYY", "WWBR"]},
                       {"kind": "move", "move": "1B1"}],
             "expected": 4, "actual": 3, "stderr": ""}
BLOCK = {"type": "block", "block": 0, "games": 10, "seconds": 0.5,
         "counts": {DEVIATION["key"]: 2}, "deviations": [DEVIATION], "worker": "host:1"}


def lines(*items: Any) -> bytes:
    return b"".join((item if isinstance(item, bytes) else json.dumps(item).encode()) + b"\n" for item in items)


def block(**changes: Any) -> dict:
    return {**BLOCK, **changes}


def deviation(**changes: Any) -> dict:
    return block(deviations=[{**DEVIATION, **changes}])


def plan(**changes: Any) -> dict:
    return deviation(plan={**DEVIATION["plan"], **changes})


def state_seed() -> str:
    """A well-formed state file: a header and one block with one deviation."""
    return lines(HEADER, BLOCK).decode()


# name -> (the file's bytes, the line the error must name). Before the state file was checked, each of these
# either crashed `azul fuzz` (KeyError, TypeError, AttributeError, OverflowError, RecursionError,
# UnicodeDecodeError: before the campaign, or at report time after it), or was taken in as data.
DAMAGED_STATES: dict[str, tuple[Callable[[], bytes], int]] = {
    "header without spec": (lambda: lines({"type": "header", "format": "azul-fuzz-state/1"}), 1),
    "header spec a list": (lambda: lines({**HEADER, "spec": [0, 2]}), 1),
    "header players a number": (lambda: lines({**HEADER, "spec": {**STATE_SPEC, "players": 5}}), 1),
    "header seed text": (lambda: lines({**HEADER, "spec": {**STATE_SPEC, "seed": "zero"}}), 1),
    "header variants unknown": (lambda: lines({**HEADER, "spec": {**STATE_SPEC, "variants": ["purple"]}}), 1),
    "a deviation that is a number": (lambda: lines(HEADER, block(deviations=[5])), 2),
    "deviations an object": (lambda: lines(HEADER, block(deviations={"a": 1})), 2),
    "counts a list": (lambda: lines(HEADER, block(counts=[1, 2])), 2),
    "block index infinite": (lambda: lines(HEADER, b'{"type":"block","block":1e400,"games":10}'), 2),
    "block index NaN": (lambda: lines(HEADER, b'{"type":"block","block":NaN,"games":10}'), 2),
    "nested 100,000 deep": (lambda: lines(HEADER, b"[" * 100_000 + b"]" * 100_000), 2),
    "not UTF-8": (lambda: lines(HEADER, b'{"type":"block","block":0,"games":1,"worker":"\xff\xfe"}'), 2),
    "negative games": (lambda: lines(HEADER, block(games=-990, counts={}, deviations=[])), 2),
    "huge games": (lambda: lines(HEADER, block(games=10 ** 15, counts={}, deviations=[])), 2),
    "games a float": (lambda: lines(HEADER, block(games=12.5, counts={}, deviations=[])), 2),
    "games true": (lambda: lines(HEADER, block(games=True, counts={}, deviations=[])), 2),
    "negative first game": (lambda: lines(HEADER, block(block=-50)), 2),
    "negative count": (lambda: lines(HEADER, block(counts={DEVIATION["key"]: -3})), 2),
    "count above games": (lambda: lines(HEADER, block(counts={DEVIATION["key"]: 11})), 2),
    "seconds infinite": (lambda: lines(HEADER, block(seconds=1e300 * 10)), 2),
    "deviation outside its block": (lambda: lines(HEADER, deviation(index=50)), 2),
    # these passed the old reader and crashed at report time, after the whole campaign had been played
    "rule a number": (lambda: lines(HEADER, deviation(rule=5)), 2),
    # found by the file fuzzer: a deviation without its "rule" (null is a rule not known) was a TypeError
    "rule missing": (lambda: lines(HEADER, block(deviations=[{k: v for k, v in DEVIATION.items() if k != "rule"}])),
                     2),
    "index text": (lambda: lines(HEADER, deviation(index="3")), 2),
    "verdict unknown": (lambda: lines(HEADER, deviation(verdict="splendid")), 2),
    "plan choices a number": (lambda: lines(HEADER, plan(choices=5)), 2),
    "plan players 9": (lambda: lines(HEADER, plan(players=9)), 2),
    "plan start player past the seats": (lambda: lines(HEADER, plan(start_player=2)), 2),
    "plan unknown field": (lambda: lines(HEADER, plan(bomb=1)), 2),
    "steps of numbers": (lambda: lines(HEADER, deviation(steps=[5, 6])), 2),
    "a step without its move": (lambda: lines(HEADER, deviation(steps=[{"kind": "move"}])), 2),
    "message a list": (lambda: lines(HEADER, deviation(message=["x"])), 2),
    "key without a count": (lambda: lines(HEADER, block(counts={})), 2),
    "a line that is no block": (lambda: lines(HEADER, {"type": "case", "id": "x"}), 2),
    "damage mid-file": (lambda: lines(HEADER, b"{not json", BLOCK), 2),
    "a 70 MB line": (lambda: lines(HEADER, b'{"type":"block","worker":"' + b"x" * (70 << 20) + b'"}'), 2),
    # a file that is not a state file's, of one line (it used to be adopted, and blocks appended to it)
    "one block line, no header": (lambda: lines(BLOCK), 1),
    "a torn header alone": (lambda: json.dumps(HEADER).encode()[:30], 1),
    "one line of prose": (lambda: b"my notes about the campaign\n", 1),
}


# name -> the bytes of an earlier report given to `azul conform --compare`, damaged so that the comparison after
# the run crashed (non-string ids) or read it silently as something else.
_REPORT_HEADER = {"type": "header", "format": "azul-conformance-report/1", "engine": {"name": "x"}, "cases": 2}
DAMAGED_REPORTS: dict[str, Callable[[], bytes]] = {
    "an integer id": lambda: lines(_REPORT_HEADER, {"type": "case", "id": 3, "verdict": "pass"}),
    "a list id": lambda: lines(_REPORT_HEADER, {"type": "case", "id": ["a"], "verdict": "fail"}),
    "ids of two types": lambda: lines(_REPORT_HEADER, {"type": "case", "id": "a", "verdict": "pass"},
                                      {"type": "case", "id": 7, "verdict": "pass"}),
    "an empty id": lambda: lines(_REPORT_HEADER, {"type": "case", "id": "", "verdict": "pass"}),
    "an unknown verdict mid-file": lambda: lines(_REPORT_HEADER, {"type": "case", "id": "a", "verdict": "meh"},
                                                 {"type": "case", "id": "b", "verdict": "pass"}),
    "a line of prose mid-file": lambda: lines(_REPORT_HEADER, b"hello", {"type": "case", "id": "b", "verdict": "pass"}),
}
