"""The files a command writes where the command line says (`azul render -o`, `azul simulate --record`, `azul
scenarios export -o`) are written as a run's reports are (harness/outputs.py): whole, and a link planted at that
name is replaced, never written through to the file it points at."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from azul_conformance.cli import main
from positions import board, position

STATE = position(factories=["BBRK", "", "", "", ""], boards=[board(lines={4: "KK"}), board()])


@pytest.mark.parametrize("command", [
    ["render", "{state}", "-o", "{out}"],
    ["simulate", "--games", "1", "--players", "2", "--record", "{out}"],
    ["scenarios", "export", "--json", "-o", "{out}"],
], ids=lambda command: command[0])
def test_a_link_planted_at_the_output_is_replaced_not_written_through(tmp_path, command):
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE))
    mine = tmp_path / "mine.txt"
    mine.write_text("keep")
    out = tmp_path / "out"
    out.symlink_to(mine)
    partial = tmp_path / "out.partial"  # the half-written copy's name: a link there is not followed either
    partial.symlink_to(tmp_path / "elsewhere.txt")
    args = [part.format(state=state, out=out) for part in command]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert mine.read_text() == "keep" and not (tmp_path / "elsewhere.txt").exists()
    assert not out.is_symlink() and out.stat().st_size > 100 and not partial.exists()


def test_an_output_into_a_missing_folder_is_refused_not_made(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE))
    result = CliRunner().invoke(main, ["render", str(state), "-o", str(tmp_path / "missing" / "out.svg")])
    assert result.exit_code == 1 and "missing/out.svg" in result.output and "No such file" in result.output
    assert not (tmp_path / "missing").exists()
