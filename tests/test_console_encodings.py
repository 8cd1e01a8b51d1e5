"""Every command writes on a console that cannot show every character (PYTHONIOENCODING=latin-1 or ascii, a
Windows code page): what the encoding lacks is shown as its escape, never a UnicodeEncodeError traceback."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AZUL = [sys.executable, "-c", "from azul_conformance.cli import main; main()"]
CASE = "floor-overflow-to-lid"


def azul(*args: str, encoding: str) -> subprocess.CompletedProcess:
    return subprocess.run([*AZUL, *args], cwd=ROOT, capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": encoding})


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """A recorded session whose header names its upstream in characters no 8-bit console has (an arrow)."""
    folder = tmp_path_factory.mktemp("recorded")
    made = azul("conform", "--only", CASE, "--report-dir", str(folder / "live"), "--record",
                str(folder / "plain.jsonl.gz"), encoding="utf-8")
    assert made.returncode == 0, made.stderr.decode()
    with gzip.open(folder / "plain.jsonl.gz", "rt", encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    lines[0]["upstream"] = "https://example.org/\u00e9zul\u2192"
    with gzip.open(folder / "named.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in lines)
    return folder / "named.jsonl.gz"


COMMANDS = {  # each ended in a UnicodeEncodeError on one of the two (a board's box lines, a rule's "·", a "ç")
    "replay": ["replay", "conformance/records/samples/two-player.azr"],
    "spec show": ["spec", "show", "OFFER-5"],
    "mutants --list": ["mutants", "--list"],
}


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_on_a_narrow_console_escapes_what_it_cannot_show(command, encoding):
    done = azul(*COMMANDS[command], encoding=encoding)
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr, done.stderr.decode()[-2000:]
    assert done.returncode == 0
    if encoding == "latin-1":  # every byte written is in the console's encoding (on an ascii one, click.echo
        done.stdout.decode(encoding)  # writes UTF-8 of its own accord, taking ascii for a misconfiguration)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_an_engine_s_text_on_a_narrow_console_is_escaped(recording, tmp_path, encoding):
    done = azul("conform", "--only", CASE, "--report-dir", str(tmp_path), "--recording", str(recording),
                encoding=encoding)
    assert b"Traceback" not in done.stderr, done.stderr.decode()[-2000:]
    assert done.returncode == 0
    assert b"example.org/" in done.stdout and b"\\u2192" in done.stdout
