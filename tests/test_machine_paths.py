"""No tracked file names the folders of the machine it was made on, and a report's command is shown without them."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from azul_conformance.readers import GZIP_MAGIC, public_text

ROOT = Path(__file__).resolve().parents[1]
# A developer's home or work folders. /tmp is not one: tests and examples name it on purpose.
MACHINE = re.compile(rb"(?<![\w.~-])/(?:work|root|home/[a-z_][\w-]*|Users/\w+)/")
FOLDERS = (b"/work/", b"/root/", b"/home/", b"/Users/")  # what every match of MACHINE holds
# This file names them to look for them.
ITSELF = "tests/test_machine_paths.py"


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60, check=True)
    return [name for name in listed.stdout.decode().split("\0") if name and name != ITSELF]


def test_no_tracked_text_file_holds_an_absolute_path_of_a_machine():
    found = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():  # deleted in the work tree, not yet committed
            continue
        data = path.read_bytes()
        if data[:2] == GZIP_MAGIC:  # a recording: published as well, read as the text it holds
            data = gzip.decompress(data)
        if b"\0" in data[:8192]:  # binary: not read
            continue
        if not any(folder in data for folder in FOLDERS):  # 360 MB of text: a plain search first, the pattern after
            continue
        for number, line in enumerate(data.splitlines(), 1):
            if MACHINE.search(line):
                found.append(f"{name}:{number}: {line.decode(errors='replace').strip()[:120]}")
    assert not found, "\n".join(found)


def test_a_recording_keeps_what_an_engine_wrote_on_stderr_without_the_machines_folders():
    from azul_conformance.engines.base import Rejected
    from azul_conformance.engines.recording import error_json

    error = Rejected("illegal_move", "no", stderr="Warning: /work/engines/x-azul/Azul/utils.pl:65:\nWarning: Local")
    assert error_json(error)["stderr"] == "Warning: .../Azul/utils.pl:65:\nWarning: Local"


def test_the_pattern_finds_what_it_looks_for():
    assert MACHINE.search(b'Command: node /work/engines/myzul-ts/out/adapter.js')
    assert MACHINE.search(b'"/root/.pyenv/versions/3.12.1/bin/python3.12"')
    assert not MACHINE.search(b"https://example.org/work/x and ../shared/rulebooks and /tmp/gm")
    for line in (b"node /work/engines/a.js", b"/root/.pyenv", b"at /home/ann/x", b"in /Users/bo/x"):
        assert MACHINE.search(line) and any(folder in line for folder in FOLDERS)  # the plain search finds it too


@pytest.mark.parametrize(("command", "shown"), [
    ("node /work/engines/myzul-ts/out/adapter.js --seed 0", "node .../out/adapter.js --seed 0"),
    ("java -cp /work/engines/comp1110/classes Adapter", "java -cp .../comp1110/classes Adapter"),
    ("/usr/bin/python3 {root}/adapters/x/adapter.py --deal={root}/d.json",
     "/usr/bin/python3 adapters/x/adapter.py --deal=d.json"),
    ("'/home/ann/my engine/run' --seed 1", "'.../my engine/run' --seed 1"),
    ("python3 adapters/x/adapter.py", "python3 adapters/x/adapter.py"),
])
def test_a_report_shows_the_command_without_the_machines_folders(command, shown):
    assert public_text(command.format(root=ROOT)) == shown


def test_the_published_reports_name_no_machine():
    """The committed reports' headers were rewritten by public_text (their verdicts untouched)."""
    for report in sorted((ROOT / "docs" / "reports").glob("*/report.jsonl")):
        header = report.read_text(encoding="utf-8").split("\n", 1)[0]
        assert not MACHINE.search(header.encode()), report
