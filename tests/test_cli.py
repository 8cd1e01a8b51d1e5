"""The `azul` entry point: every subcommand listed and loadable, help that teaches, and file errors reported
as messages, never tracebacks."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from azul_conformance.cli import COMMANDS, main


def test_help_lists_every_subcommand_without_importing_them():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_subcommand_loads_and_its_help_has_an_example(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output


@pytest.mark.parametrize("args", [
    ["scenarios", "export", "--json", "-o", "/nonexistent/folder/scenarios.json"],
    ["simulate", "--games", "1", "--record", "/nonexistent/folder/game.azr"],
])
def test_a_file_that_cannot_be_written_is_a_message_not_a_traceback(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert "/nonexistent/folder/" in result.output and "No such file or directory" in result.output
    assert not isinstance(result.exception, OSError)
