"""The `azul` entry point: every subcommand listed and loadable, help that teaches, and file errors reported
as messages, never tracebacks."""

from __future__ import annotations

import subprocess
import sys

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


# What only a run needs: a subcommand's --help (its start-up) must not load them (the packages export lazily).
RUN_ONLY = tuple(f"azul_conformance.{name}" for name in (
    "harness.session", "harness.runner", "diagnosis.cover", "mutants.catalogue", "fuzz.campaign", "spec_check.check",
    "scenario.runner")) + ("hypothesis", "jsonschema")
HELP_PROBE = """
import sys
from azul_conformance.cli import main
try:
    main([sys.argv[1], "--help"])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_subcommands_help_loads_nothing_only_a_run_needs(name):
    done = subprocess.run([sys.executable, "-c", HELP_PROBE, name], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Example" in done.stdout, done.stderr[-2000:]
    loaded = set(done.stderr.split())
    assert "azul_conformance.cli" in loaded and not loaded & set(RUN_ONLY), sorted(loaded & set(RUN_ONLY))


@pytest.mark.parametrize("args", [
    ["scenarios", "export", "--json", "-o", "/nonexistent/folder/scenarios.json"],
    ["simulate", "--games", "1", "--record", "/nonexistent/folder/game.azr"],
])
def test_a_file_that_cannot_be_written_is_a_message_not_a_traceback(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert "/nonexistent/folder/" in result.output and "No such file or directory" in result.output
    assert not isinstance(result.exception, OSError)


ENGINE_COMMANDS = [["smoke"], ["conform", "--no-properties", "--only", "SETUP-1"], ["fuzz", "--games", "1"],
                   ["perft", "--depth", "1"]]


@pytest.mark.parametrize("command", ENGINE_COMMANDS, ids=lambda command: command[0])
@pytest.mark.parametrize("value, problem", [
    ("", "is empty"), ("   ", "is empty"), ("''", "is empty"), ('"./engine', "no closing quotation"),
    ("./engine\\", "no escaped character"), ("./engine\x00x", "NUL character"), ("py:", "names no module"),
])
def test_an_engine_value_that_can_start_nothing_is_a_usage_error(command, value, problem, tmp_path):
    # Each was a ValueError traceback (shlex's, or "the engine command is empty"), once the run had begun.
    result = CliRunner().invoke(main, [*command, "--engine", value], env={"TMPDIR": str(tmp_path)})
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--engine'" in result.output and problem in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not list(tmp_path.iterdir())  # nothing was started, nothing written
