"""The JSON export (`azul-scenarios/1`): every scenario as plain JSON, so engines in any language can use
the corpus without the scenario language. Validated by spec/schema/scenario-export.schema.json.
"""

from __future__ import annotations

import json
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from .loader import corpus_root
from .model import Scenario

FORMAT = "azul-scenarios/1"


def _relative(file: str) -> str:
    try:
        return Path(file).resolve().relative_to(corpus_root().resolve()).as_posix()
    except ValueError:
        return Path(file).as_posix()


def scenario_json(scenario: Scenario) -> dict[str, Any]:
    given, file = scenario.given, _relative(scenario.file)

    def where(text: str) -> str:  # file:line, with the file as the export names it
        return file + text[len(scenario.file):] if text.startswith(scenario.file) else text

    data: dict[str, Any] = {
        "id": scenario.id, "title": scenario.title, "rules": list(scenario.rules),
        "sources": list(scenario.sources), "level": scenario.level, "requires": list(scenario.needs),
        "file": file, "line": scenario.line,
        "given": {"state": given.state} if given.state is not None else {"new_game": {
            "players": given.new_game.players, "variant": given.new_game.variant,
            "start_player": given.new_game.start_player}},
        "steps": [step.to_json() for step in scenario.steps],
        "expect": [{"text": a.text, "where": where(a.where), "checks": [c.to_json() for c in a.checks]}
                   for a in scenario.expect],
    }
    if scenario.notes:
        data["notes"] = scenario.notes
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
    folder = resources.files("azul_spec").joinpath("schema")
    schemas = {name: json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
               for name in ("scenario-export.schema.json", "state.schema.json")}
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values())
    validator = jsonschema.Draft202012Validator(schemas["scenario-export.schema.json"], registry=registry)
    return [f"{'/'.join(map(str, error.absolute_path)) or '(document)'}: {error.message}"
            for error in validator.iter_errors(document)]
