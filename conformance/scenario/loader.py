"""The loader: scenario files (YAML lists of scenarios) into Scenario objects.

The YAML is read once into its node tree (marks on) and its data, so that the embedded texts can be parsed
with an Origin that maps every error to the file's own line and column, and schema errors point at the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import yaml

from ..located import Span, decode_utf8, yaml_failure
from .. import readers, schemas
from ..scenario_rules import MAX_SCENARIO_FILE, display_name, scenario_files
from .errors import Origin, ScenarioContentError, ScenarioError, ScenarioSyntaxError
from .language import parse_expect, parse_position, parse_steps
from .model import Checkpoint, Scenario


def load_scenarios(paths: Iterable[str | Path] | None = None,
                   errors: list[ScenarioError] | None = None) -> list[Scenario]:
    """Every scenario of the files named. With `errors`, problems are collected there and the bad
    scenarios left out; without it, the first problem is raised."""
    scenarios: list[Scenario] = []
    for path in scenario_files(paths):
        try:
            text = read_utf8(path)
        except ScenarioError as error:
            if errors is None:
                raise
            errors.append(error)
            continue
        scenarios += load_text(text, display_name(path), errors)
    return scenarios




def read_utf8(path: Path) -> str:
    """A scenario file's text; bytes that are not UTF-8 are a syntax error at their line and column, and a file
    that is not a regular file or is too big is refused by name (readers.read_file)."""
    try:
        data = readers.read_file(path, MAX_SCENARIO_FILE)
    except readers.InputError as error:
        raise ScenarioSyntaxError(f"cannot be read: {error}", Span(file=display_name(path))) from None
    return decode_utf8(data, display_name(path), ScenarioSyntaxError, "scenario files are UTF-8 YAML")


def load_text(text: str, file: str = "<text>", errors: list[ScenarioError] | None = None) -> list[Scenario]:
    """The scenarios of one file's text."""
    try:
        node, data = _compose(text, file)
        _validate(data, node, text, file)
    except ScenarioError as error:
        if errors is None:
            raise
        errors.append(error)
        return []
    scenarios = []
    for item_node, item in zip(node.value, data):
        try:
            scenarios.append(_scenario(item, item_node, text, file))
        except ScenarioError as error:
            if errors is None:
                raise
            errors.append(error)
    return scenarios


def _compose(text: str, file: str) -> tuple[yaml.Node, Any]:
    try:
        node, data = readers.compose(text)
    except yaml.YAMLError as error:
        raise ScenarioSyntaxError(*yaml_failure(error, file), text) from None
    if node is None:
        raise ScenarioContentError("the file holds no scenario (expected a YAML list)", Span(1, file=file))
    return node, data


def _validate(data: Any, node: yaml.Node, text: str, file: str) -> None:
    validator = schemas.validator("scenario.schema.json")
    error = schemas.best_error(validator, data)
    if error is None:
        return
    target = node
    for key in error.absolute_path:
        target = _child(target, key) or target
    path = list(error.absolute_path)
    field = ".".join(map(str, path[1:])) or "(file)"
    if path and isinstance(data, list) and isinstance(data[path[0]], dict) and "id" in data[path[0]]:
        field = f"scenario {data[path[0]]['id']!r}: {field}"
    raise ScenarioContentError(f"{field}: {error.message}", _span(target, file), text)


def _span(node: yaml.Node, file: str) -> Span:
    return Span.at(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _child(node: yaml.Node, key: Any) -> yaml.Node | None:
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key:
                return value_node
    return None


def origin_of(node: yaml.ScalarNode, file: str, source: str) -> Origin:
    """Where the text of a scalar node starts, and how its lines map to the file."""
    mark = node.start_mark
    if node.style in ("|", ">"):
        lines = source.splitlines()
        indent = next((len(line) - len(line.lstrip(" ")) for line in lines[mark.line + 1:] if line.strip()), 0)
        return Origin(file, mark.line + 2, indent + 1, indent, source)
    quoted = 1 if node.style in ("'", '"') else 0
    return Origin(file, mark.line + 1, mark.column + 1 + quoted, None, source)


def _scenario(item: dict[str, Any], node: yaml.MappingNode, source: str, file: str) -> Scenario:
    given_node = _child(node, "given")
    given = parse_position(item["given"], origin_of(given_node, file, source))
    if given.reject is not None:
        _nothing_after_refusal(item, node, source, file)
    players = given.players
    steps: list = []
    checkpoints: list[Checkpoint] = []
    for entry, entry_node in _entries(item.get("steps"), _child(node, "steps")):
        if isinstance(entry, dict):  # `- expect: ...`: assertions judged at this point of the steps
            found = _expect(entry["expect"], _child(entry_node, "expect"), source, file, players)
            where = f"{file}:{entry_node.start_mark.line + 1}"
            checkpoints.append(Checkpoint(after=len(steps), where=where, expect=tuple(found)))
        else:
            steps += parse_steps(str(entry), origin_of(entry_node, file, source), players)
    expect = _expect(item.get("expect"), _child(node, "expect"), source, file, players)
    walls = tuple(item.get("walls", ()))
    if walls:
        _on_every_wall(item, _child(node, "walls"), given, steps, expect + [a for c in checkpoints for a in c.expect],
                       source, file)
    known = {"id", "title", "rules", "sources", "level", "requires", "walls", "given", "steps", "expect", "notes"}
    return Scenario(
        id=item["id"], title=item["title"], rules=tuple(item["rules"]), sources=tuple(item.get("sources", ())),
        level=item["level"], requires=tuple(item.get("requires", ())), given=given, steps=tuple(steps),
        expect=tuple(expect), file=file, line=node.start_mark.line + 1, notes=item.get("notes", ""),
        extra={k: v for k, v in item.items() if k not in known}, checkpoints=tuple(checkpoints), walls=walls,
    )


def _on_every_wall(item: dict[str, Any], node: yaml.Node, given, steps: list, assertions: list, source: str,
                   file: str) -> None:
    """A scenario run on several walls is written on the coloured wall (its printed layout is a legal grey
    wall too) and leaves the placements to the runner, so that one text means the same on every wall."""
    problem = None
    if given.variant != "colour":
        problem = "its given must be written on the coloured wall (drop `variant: grey`)"
    elif any(step.move and "@" in step.move for step in steps):
        problem = "its steps must hold no placement (on the grey wall the runner plays the printed column)"
    elif any(check.path == "/variant" for assertion in assertions for check in assertion.checks):
        problem = "it cannot assert the variant, which is each wall's in turn"
    if problem:
        raise ScenarioContentError(f"scenario {item['id']!r}: runs on walls {', '.join(item['walls'])}, so "
                                   f"{problem}", _span(node, file), source)


def _expect(value: Any, node: yaml.Node | None, source: str, file: str, players: int) -> list:
    """The assertions of an `expect` field (or of a check item of `steps`): one text, or a list of texts."""
    found: list = []
    for text, text_node in _entries(value, node):
        found += parse_expect(str(text), origin_of(text_node, file, source), players)
    return found


def _nothing_after_refusal(item: dict[str, Any], node: yaml.MappingNode, source: str, file: str) -> None:
    """A refused new game leaves no game to play on: the scenario is the refusal alone."""
    for name in ("steps", "expect"):
        if item.get(name) not in (None, "", []):
            target = _child(node, name)
            raise ScenarioContentError(f"scenario {item['id']!r}: a new game that must be refused is the whole "
                                       f"scenario, so it has no `{name}`", _span(target, file), source)


def _entries(value: Any, node: yaml.Node | None) -> list[tuple[Any, yaml.Node]]:
    """The items of a `steps` or `expect` field with their nodes: the string itself, or each item of the list."""
    if value is None or node is None:
        return []
    if isinstance(value, str):
        return [(value, node)]
    return list(zip(value, node.value))
