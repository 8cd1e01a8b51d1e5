"""Scenarios: the scenario language (positions, steps, assertions), the scenario files and their runner.

Public API:
    load_scenarios(paths=None, errors=None) -> list[Scenario]     (default: the bundled corpus)
    run_scenario(engine, scenario) -> CaseResult                   (pass / fail / error / skip; a crash is raised)
    parse_position / parse_steps / parse_expect                     (the language, text by text)
    format_position(state) -> str                                   (a canonical state in the language)
    export_scenarios(scenarios) -> dict                             (plain JSON, azul-scenarios/1)
"""

from ..scenario_rules import corpus_root, scenario_files
from .errors import Origin, ScenarioContentError, ScenarioError, ScenarioSyntaxError
from .export import export_scenarios
from .formatter import format_board, format_position
from .language import parse_expect, parse_position, parse_steps
from .loader import load_scenarios, load_text
from .model import Assertion, Check, Checkpoint, Given, NewGame, Rejection, Scenario, Step
from .runner import run_scenario

__all__ = [
    "Assertion", "Check", "Checkpoint", "Given", "NewGame", "Origin", "Rejection", "Scenario",
    "ScenarioContentError", "ScenarioError", "ScenarioSyntaxError", "Step", "corpus_root", "export_scenarios",
    "format_board", "format_position", "load_scenarios", "load_text", "parse_expect", "parse_position",
    "parse_steps", "run_scenario", "scenario_files",
]
