"""Scenarios: the scenario language (positions, steps, assertions), the scenario files and their runner.

Public API:
    load_scenarios(paths=None, errors=None) -> list[Scenario]     (default: the bundled corpus)
    run_scenario(engine, scenario) -> CaseResult                   (pass / fail / error / skip; a crash is raised)
    parse_position / parse_steps / parse_expect                     (the language, text by text)
    format_position(state) -> str                                   (a canonical state in the language)
    export_scenarios(scenarios) -> dict                             (plain JSON, azul-scenarios/1)
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    "..scenario_rules": "corpus_root scenario_files",
    ".errors": "Origin ScenarioContentError ScenarioError ScenarioSyntaxError",
    ".corpus": "check_corpus",
    ".export": "export_problems export_scenarios",
    ".formatter": "format_board format_position",
    ".language": "parse_expect parse_position parse_steps",
    ".loader": "load_scenarios load_text",
    ".model": "Assertion Check Checkpoint Given NewGame Rejection Scenario Step",
    ".runner": "run_scenario with_deciding_rules",
})

__all__ = [
    "Assertion", "Check", "Checkpoint", "Given", "NewGame", "Origin", "Rejection", "Scenario",
    "ScenarioContentError", "ScenarioError", "ScenarioSyntaxError", "Step", "check_corpus", "corpus_root",
    "export_problems", "export_scenarios",
    "format_board", "format_position", "load_scenarios", "load_text", "parse_expect", "parse_position",
    "parse_steps", "run_scenario", "scenario_files", "with_deciding_rules",
]
