"""The `azul` command: one entry point, one module per subcommand.

Subcommands load lazily, so `azul serve` does not pay for the harness and `azul --help` stays fast.
Each module named here defines a click command (or group) under the name given after the colon.
"""

from __future__ import annotations

import importlib
import signal
import sys

import click

from ..notation import PLAYER_COUNTS
from ..readers import clipped

ECHO_LIMIT = 1000  # characters of a refusal's message: enough for any real id or path, not for a hostile one

# name -> "module:attribute"; the module lives beside this file.
COMMANDS: dict[str, tuple[str, str]] = {
    "conform": ("azul_conformance.cli.conform:conform", "Run the conformance suite against an engine."),
    "diagnose": ("azul_conformance.cli.diagnose:diagnose",
                 "Name the misreadings behind a saved report's failures (no engine needed)."),
    "mutants": ("azul_conformance.cli.mutants:mutants",
                "Measure the suite's catch power: run it against wrong readings of the rules."),
    "smoke": ("azul_conformance.cli.smoke:smoke", "Check an engine's protocol basics before a full run."),
    "fuzz": ("azul_conformance.cli.fuzz:fuzz",
             "Play a long differential campaign of random games (resumable, parallel)."),
    "perft": ("azul_conformance.cli.perft:perft", "Count legal move sequences within a round (move-generator oracle)."),
    "serve": ("azul_conformance.cli.serve:serve", "Serve the reference engine over protocol v1 (stdin/stdout)."),
    "simulate": ("azul_conformance.cli.simulate:simulate", "Play random games on the reference engine."),
    "publish": ("azul_conformance.cli.publish:publish",
                "Publish a report folder on the site: its page and its conformance matrix row."),
    "replay": ("azul_conformance.cli.replay:replay",
               "Replay and check annotated game records (one, a list, a folder)."),
    "import": ("azul_conformance.cli.import_games:import_games", "Convert games recorded elsewhere into game records."),
    "render": ("azul_conformance.cli.render:render", "Draw a canonical state as an SVG picture."),
    "spec": ("azul_conformance.cli.spec:spec", "Check the rule specification and its traceability."),
    "scenarios": ("azul_conformance.cli.scenarios:scenarios", "Check or export the scenario corpus."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported only when they are run or their help is shown."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        target, _ = COMMANDS[cmd_name]
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)

    def invoke(self, ctx: click.Context):
        # SIGTERM (a CI job cancelled, `kill`) ends a run like Ctrl-C: the engines are closed, the reports kept.
        signal.signal(signal.SIGTERM, _interrupt)
        tolerant_output()
        # A file that cannot be read or written (a missing folder, no permission, a full disk) is the user's
        # to fix: say which and why, never with a traceback.
        try:
            return super().invoke(ctx)
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            raise click.ClickException(clipped(f"{where}{error.strerror or error}", ECHO_LIMIT)) from None
        except click.ClickException as error:  # a refusal may repeat what it was given: a 100 KB id is not echoed
            error.message = clipped(error.message, ECHO_LIMIT)
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help comes from the table, so listing commands imports nothing.
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in self.list_commands(ctx)])


def parse_players(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    """`--players 2,3,4` (azul simulate, azul fuzz): the player counts asked for, each once, in order."""
    try:
        counts = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        counts = []
    if not counts or any(n not in PLAYER_COUNTS for n in counts):
        raise click.BadParameter(f"{value!r}: expected player counts from 2 to 4, comma-separated, e.g. 2,3,4")
    return tuple(counts)


def tolerant_output() -> None:
    """Every command's output written on any console: a character the console's encoding lacks (a rule's "·",
    a board's "│", an engine's name) is shown as its escape (\\u2502) instead of ending in a UnicodeEncodeError
    (PYTHONIOENCODING=latin-1 or ascii, a Windows code page)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _interrupt(_signum: int, _frame) -> None:
    raise KeyboardInterrupt


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="azul-conformance")
def main() -> None:
    """Azul's rules as an executable specification, and a conformance suite for any Azul engine.

    \b
    Examples:
      azul conform                       # the suite against the bundled reference engine
      azul conform --engine "./my-engine" --report-dir reports
      azul spec check                    # every rulebook line traced to a rule
      azul replay conformance/records/samples/two-player.azr
    """
