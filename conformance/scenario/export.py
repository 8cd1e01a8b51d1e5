"""The JSON export (`azul-scenarios/1`): every scenario as plain JSON, so engines in any language can use
the corpus without the scenario language. Validated by spec/schema/scenario-export.schema.json.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Any

from ..scenario_rules import SUITE_FOLDER, corpus_root
from ..schemas import validator
from .model import Scenario

FORMAT = "azul-scenarios/1"


def _relative(file: str) -> str:
    if file.startswith(SUITE_FOLDER + "/"):  # the bundled corpus, as the loader names it
        return file[len(SUITE_FOLDER) + 1:]
    try:
        return Path(file).resolve().relative_to(corpus_root().resolve()).as_posix()
    except ValueError:
        return Path(file).as_posix()


def scenario_json(scenario: Scenario) -> dict[str, Any]:
    file = _relative(scenario.file)

    def where(text: str) -> str:  # file:line, with the file as the export names it
        return file + text[len(scenario.file):] if text.startswith(scenario.file) else text

    def assertions(found) -> list[dict[str, Any]]:
        return [{"text": a.text, "where": where(a.where), "checks": [c.to_json() for c in a.checks]} for a in found]

    steps: list[dict[str, Any]] = []
    for number in range(len(scenario.steps) + 1):  # each check item goes after the steps played before it
        steps += [{"kind": "expect", "where": where(c.where), "expect": assertions(c.expect)}
                  for c in scenario.checkpoints if c.after == number]
        if number < len(scenario.steps):
            steps.append(scenario.steps[number].to_json())
    data: dict[str, Any] = {
        "id": scenario.id, "title": scenario.title, "rules": list(scenario.rules),
        "sources": list(scenario.sources), "level": scenario.level, "requires": list(scenario.needs),
        "file": file, "line": scenario.line, "given": _given(scenario), "steps": steps,
        "expect": assertions(scenario.expect),
    }
    if len(scenario.variants) > 1:
        data["walls"] = list(scenario.variants)
    if scenario.notes:
        data["notes"] = scenario.notes
    return data


def _given(scenario: Scenario) -> dict[str, Any]:
    given = scenario.given
    if given.state is not None:
        return {"state": given.state}
    game = given.new_game
    data: dict[str, Any] = {"new_game": {"players": game.players, "variant": game.variant,
                                         "start_player": game.start_player}}
    if given.reject is not None:
        data["reject"] = {"code": given.reject.code, "rule": given.reject.rule}
    return data


def export_scenarios(scenarios: list[Scenario]) -> dict[str, Any]:
    try:
        version = metadata.version("azul-conformance")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return {"format": FORMAT, "generator": f"azul-conformance {version}",
            "scenarios": [scenario_json(scenario) for scenario in scenarios]}


def export_problems(document: dict[str, Any]) -> list[str]:
    """Every way the document falls short of the export schema (empty when valid)."""
    return [f"{'/'.join(map(str, error.absolute_path)) or '(document)'}: {error.message}"
            for error in validator("scenario-export.schema.json").iter_errors(document)]
