"""Write (or, with --check, verify) the golden transcripts of the reference engine.

One seeded random game per player count and variant, recorded as JSON Lines: a header, then one line per step
(`new_game`, each `deal` with the factories it filled, each move) with the full canonical state after it.
The engine is reached only through azul_conformance.engines.reference (play_logged_game).

    python tests/golden/regenerate.py           # rewrite every transcript, say which ones changed
    python tests/golden/regenerate.py --check   # rewrite nothing; exit 1 naming the first difference per file

tests/test_golden.py loads this file for its encoding and its diff, so the two cannot drift apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FORMAT = "azul-golden/1"
REGENERATE = "python tests/golden/regenerate.py"
NOTE = "a regression net for the reference engine, not a source of rule truth: see tests/golden/README.md"

# (players, variant, seed). Small seeds, picked for what their games show: every game pours the lid back into
# the bag at least once and fills a floor line; 2p colour seed 1 and 4p colour seed 3 end with shared wins;
# the grey games make 22 to 40 wall placements each.
GAMES: tuple[tuple[int, str, int], ...] = (
    (2, "colour", 1), (2, "grey", 2),
    (3, "colour", 1), (3, "grey", 1),
    (4, "colour", 3), (4, "grey", 1),
)
START_PLAYER = 0  # play_logged_game starts every game with seat 0
ABSENT = object()  # marks a key or list item that one side of a diff lacks


def file_name(players: int, variant: str, seed: int) -> str:
    return f"{players}p-{variant}-seed{seed}.jsonl"


def encode(value: Any) -> str:
    """Compact, key-sorted JSON: one stable text per value, so equal states give equal lines."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header(players: int, variant: str, seed: int, steps: int) -> dict[str, Any]:
    return {"format": FORMAT, "state_format": "azul-state/1", "regenerate": REGENERATE, "note": NOTE,
            "game": {"players": players, "variant": variant, "seed": seed, "start_player": START_PLAYER},
            "steps": steps}


def step_record(number: int, step: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """One transcript line: `step` is {"new_game": {...}}, {"deal": [factories]} or {"move": "3K4"}."""
    return {"step": number, **step, "state": state}


def transcript(players: int, variant: str, seed: int) -> list[str]:
    """The lines of one game's transcript (header first), as the reference engine plays it today."""
    from azul_conformance.engines.reference import play_logged_game

    states, moves = play_logged_game(players, variant, seed)
    records = [step_record(0, {"new_game": {"players": players, "variant": variant,
                                            "start_player": START_PLAYER}}, states[0])]
    for number, (move, state) in enumerate(zip(moves, states[1:]), start=1):
        # A deal is recorded by what it put on the factories, so a replay needs no random generator.
        step = {"deal": state["factories"]} if move is None else {"move": move}
        records.append(step_record(number, step, state))
    return [encode(header(players, variant, seed, len(records) - 1))] + [encode(r) for r in records]


# -- differences --------------------------------------------------------------------------------------------------

def _token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")  # RFC 6901 escaping


def first_difference(recorded: Any, actual: Any, pointer: str = "") -> tuple[str, Any, Any] | None:
    """The JSON pointer of the first place (in sorted-key order) where two JSON values differ, with both values
    there (ABSENT for a missing key or item); None when they are the same, types included (1 is not 1.0)."""
    if isinstance(recorded, dict) and isinstance(actual, dict):
        for key in sorted(set(recorded) | set(actual)):
            found = first_difference(recorded.get(key, ABSENT), actual.get(key, ABSENT), f"{pointer}/{_token(key)}")
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(actual, list):
        for index in range(max(len(recorded), len(actual))):
            found = first_difference(recorded[index] if index < len(recorded) else ABSENT,
                                     actual[index] if index < len(actual) else ABSENT, f"{pointer}/{index}")
            if found:
                return found
        return None
    if type(recorded) is not type(actual) or recorded != actual:
        return pointer or "/", recorded, actual
    return None


def show(value: Any) -> str:
    return "(absent)" if value is ABSENT else encode(value)


def describe_step(record: dict[str, Any]) -> str:
    """`step 17 (move 3K4)` or `step 1 (deal ["BBRK",...])`, for messages."""
    for kind in ("move", "deal", "new_game"):
        if kind in record:
            shown = record[kind] if isinstance(record[kind], str) else encode(record[kind])
            return f"step {record.get('step')} ({kind} {shown})"
    return f"step {record.get('step')}"


def line_difference(recorded_line: str, actual_line: str) -> str:
    """Why two transcript lines differ: the step and the first differing field, or a note on the text."""
    try:
        recorded, actual = json.loads(recorded_line), json.loads(actual_line)
    except ValueError as error:
        return f"the recorded line is not JSON ({error})"
    found = first_difference(recorded, actual)
    if found is None:
        return f"{describe_step(recorded)}: same values, different text (not compact sorted JSON?)"
    pointer, old, new = found
    return f"{describe_step(recorded)}: first difference at {pointer}: recorded {show(old)}, now {show(new)}"


# -- the command --------------------------------------------------------------------------------------------------

def check_file(path: Path, lines: list[str]) -> str | None:
    """What is wrong with the transcript at `path` compared with freshly generated `lines`, or None."""
    if not path.exists():
        return f"{path.name}: missing"
    recorded = path.read_text(encoding="utf-8").splitlines()
    for number, (old, new) in enumerate(zip(recorded, lines), start=1):
        if old != new:
            return f"{path.name}:{number}: {line_difference(old, new)}"
    if len(recorded) != len(lines):
        return f"{path.name}: {len(recorded)} lines recorded, {len(lines)} generated (the game's length changed)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if any transcript is stale")
    parser.add_argument("--dir", type=Path, default=HERE, help="where the transcripts live (default: beside me)")
    args = parser.parse_args(argv)
    wanted = {file_name(*game) for game in GAMES}
    problems = [f"{path.name}: not a transcript this script writes (delete it or add its game to GAMES)"
                for path in sorted(args.dir.glob("*.jsonl")) if path.name not in wanted]
    for game in GAMES:
        path, lines = args.dir / file_name(*game), transcript(*game)
        problem = check_file(path, lines)
        if problem and not args.check:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
            print(f"updated {problem}")
        elif problem:
            problems.append(problem)
    for problem in problems:
        print(problem, file=sys.stderr)
    if args.check and problems:
        print(f"{len(problems)} stale transcript(s): if the change is intended, run `{REGENERATE}` and review "
              "the diff", file=sys.stderr)
    elif args.check:
        print(f"all {len(GAMES)} transcripts are up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
