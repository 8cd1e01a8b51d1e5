"""Golden transcripts: replay each recorded game on the reference engine and compare the state after every step.

The transcripts (tests/golden/*.jsonl) catch unintended change; they are not rule truth (the hand-worked
scenarios and engine tests are). Each game is replayed in process, and one of them through `azul serve` as a
subprocess (protocol v1, a deadline on every reply), so the protocol path is pinned as well.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from azul_conformance.engines.base import Engine, EngineError
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.engines.subprocess import ProcessEngine

GOLDEN = Path(__file__).resolve().parent / "golden"
SERVE = [sys.executable, "-c", "import sys; from azul_conformance.cli import main; sys.exit(main())", "serve"]
REPLY_TIMEOUT = 15.0  # seconds per reply: generous for a loaded machine; a reply normally takes well under 1 ms


def _load_generator():
    """tests/golden/regenerate.py is a script, not a package: load it by path for its encoding and diff."""
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
FILES = [gen.file_name(*game) for game in gen.GAMES]
HOW_TO_FIX = (f"If this change is intended, regenerate the transcripts with `{gen.REGENERATE}` "
              "and review the diff (see tests/golden/README.md).")


def read_transcript(name: str) -> tuple[dict[str, Any], list[tuple[int, str, dict[str, Any]]]]:
    """The header and the (line number, text, record) of every step line; failing clearly on a bad file."""
    path = GOLDEN / name
    if not path.exists():
        pytest.fail(f"{path} is missing. {HOW_TO_FIX}")
    records = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            records.append((number, text, json.loads(text)))
        except ValueError as error:
            pytest.fail(f"{name}:{number}: not JSON ({error}). {HOW_TO_FIX}")
    if not records or records[0][2].get("format") != gen.FORMAT:
        pytest.fail(f"{name}:1: the header should name format {gen.FORMAT!r}. {HOW_TO_FIX}")
    return records[0][2], records[1:]


def apply_step(engine: Engine, record: dict[str, Any]) -> dict[str, Any]:
    """Play one recorded step on the engine and return the state it reports after it."""
    if "new_game" in record:
        return engine.new_game(**record["new_game"])
    if "deal" in record:
        return engine.deal(record["deal"])
    return engine.play(record["move"])


def replay(engine: Engine, name: str) -> int:
    """Replay transcript `name` on `engine`, failing at the first step whose state differs; the step count."""
    header, steps = read_transcript(name)
    assert len(steps) == header["steps"] + 1, f"{name}: the header counts {header['steps']} steps after new_game, " \
                                              f"the file holds {len(steps) - 1}. {HOW_TO_FIX}"
    for number, text, record in steps:
        where = f"{name}:{number}: {gen.describe_step(record)}"
        try:
            state = apply_step(engine, record)
        except EngineError as error:
            pytest.fail(f"{where}: the engine refused it: {error.message} "
                        f"[{getattr(error, 'code', type(error).__name__)}]. {HOW_TO_FIX}")
        line = gen.encode(gen.step_record(record["step"], {k: v for k, v in record.items()
                                                           if k not in ("step", "state")}, state))
        if line != text:
            pytest.fail(f"{name}:{number}: {gen.line_difference(text, line)}.\n{HOW_TO_FIX}")
    return len(steps)


@pytest.mark.parametrize("name", FILES)
def test_reference_engine_replays_transcript(name):
    steps = replay(ReferenceEngine(), name)
    assert steps > 50  # a whole game: new_game, several deals, many moves


def test_transcripts_replay_through_azul_serve():
    """The grey two-player game over protocol v1: deals, takes and wall placements, every reply on a deadline."""
    engine = ProcessEngine(SERVE, timeout=REPLY_TIMEOUT)
    try:
        replay(engine, gen.file_name(2, "grey", 2))
    finally:
        engine.close()


def test_every_transcript_is_one_the_generator_writes():
    on_disk = sorted(path.name for path in GOLDEN.glob("*.jsonl"))
    assert on_disk == sorted(FILES), f"tests/golden holds {on_disk}, the generator writes {sorted(FILES)}"


def test_headers_say_how_to_regenerate():
    for name in FILES:
        header, steps = read_transcript(name)
        assert header["regenerate"] == gen.REGENERATE
        players, variant, seed = (header["game"][key] for key in ("players", "variant", "seed"))
        assert name == gen.file_name(players, variant, seed)
        assert steps[0][2]["new_game"] == {"players": players, "variant": variant,
                                           "start_player": header["game"]["start_player"]}


# -- the diff that failure messages rely on ---------------------------------------------------------------------

def test_first_difference_names_the_json_pointer():
    recorded = {"boards": [{"score": 7, "floor": "M"}, {"score": 2}], "round": 2}
    actual = {"boards": [{"score": 9, "floor": "M"}, {"score": 2}], "round": 3}
    assert gen.first_difference(recorded, actual) == ("/boards/0/score", 7, 9)
    assert gen.first_difference(recorded, recorded) is None


def test_first_difference_sees_missing_items_types_and_escapes_keys():
    assert gen.first_difference({"a": [1, 2]}, {"a": [1]}) == ("/a/1", 2, gen.ABSENT)
    assert gen.first_difference({"x": 1}, {"x": 1.0}) == ("/x", 1, 1.0)
    assert gen.first_difference({"a/b~": 1}, {}) == ("/a~1b~0", 1, gen.ABSENT)


def test_a_changed_state_fails_with_file_step_pointer_and_the_fix(tmp_path, monkeypatch):
    """Tamper with one recorded score: the replay must name the file, the line, the step and the field."""
    name = FILES[0]
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[10])
    record["state"]["boards"][1]["score"] += 100
    lines[10] = gen.encode(record)
    (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "GOLDEN", tmp_path)
    with pytest.raises(pytest.fail.Exception) as failure:
        replay(ReferenceEngine(), name)
    message = str(failure.value)
    assert f"{name}:11: step 9 (" in message
    assert "first difference at /state/boards/1/score" in message
    assert gen.REGENERATE in message


def test_check_mode_reports_a_stale_transcript(tmp_path, capsys):
    for game in gen.GAMES[1:]:  # all but the first: it is then missing
        (tmp_path / gen.file_name(*game)).write_text("\n".join(gen.transcript(*game)) + "\n", encoding="utf-8")
    assert gen.main(["--check", "--dir", str(tmp_path)]) == 1
    assert f"{FILES[0]}: missing" in capsys.readouterr().err
