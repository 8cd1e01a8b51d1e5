"""The scenario files as data: where they are, and the rule IDs each scenario names (its `rules`, and those in its
steps' refusals), read from the YAML alone.

The layer below both the scenario package (which parses the texts inside the YAML: scenario/loader.py) and the
spec checker (which holds every rule ID a scenario names to the spec: spec_check/ids.py), so that the checker
needs no scenario language and neither imports the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

from . import readers
from .located import LocatedError, Span, decode_utf8, yaml_failure

# A refusal in the steps (spec/grammar/scenario.lark: `step: action [ARROW ERROR_CODE [RULE_ID]]`): the rule ID
# after the error code, whatever its prefix (an unknown prefix is the spec checker's to report).
REFUSAL_RULE = re.compile(r"->\s*[a-z_]+\s+([A-Z]+-[0-9]+)\b")


def corpus_root() -> Path:
    """The bundled corpus (conformance/scenarios), in the source tree or in an installed wheel."""
    return Path(str(resources.files("azul_conformance").joinpath("scenarios")))


def scenario_files(paths: Iterable[str | Path] | None = None) -> list[Path]:
    """The YAML files named, folders expanded (sorted); the bundled corpus when none is named."""
    files: list[Path] = []
    for path in map(Path, paths or [corpus_root()]):
        files += sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
    return files


MAX_SCENARIO_FILE = 16 * 2**20  # our largest scenario file is some 40 KB
SUITE_FOLDER = "conformance/scenarios"  # how messages name the bundled corpus, installed or not (its source path)


def display_name(path: Path) -> str:
    """A path as reports show it: a file of the bundled corpus relative to the suite (`conformance/scenarios/
    offer/x.yaml`, the same wherever the suite is installed), another relative to the working folder when
    inside it, else absolute."""
    resolved = path.resolve()
    try:
        return f"{SUITE_FOLDER}/{resolved.relative_to(corpus_root().resolve()).as_posix()}"
    except ValueError:
        pass
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class StepRule:
    """A rule ID named in a scenario's steps (the rule a refused step breaks), with its line."""

    rule: str
    file: str
    line: int
    text: str  # the step's line, stripped


@dataclass(frozen=True)
class NamedRules:
    """The rule IDs one scenario names."""

    id: str
    file: str
    line: int
    rules: tuple[str, ...]
    in_steps: tuple[StepRule, ...]


def named_rules(paths: Iterable[str | Path] | None = None,
                errors: list[LocatedError] | None = None) -> Iterator[NamedRules]:
    """The rule IDs every scenario of the files names; a file that is not UTF-8 YAML goes to `errors` (raised
    without it). Scenarios are read only as far as their `id`, `rules` and `steps` (the scenario loader judges
    the rest)."""
    for path in scenario_files(paths):
        file = display_name(path)
        try:
            try:  # regular files only, bounded: a FIFO or /dev/zero among them is refused, never waited on
                data = readers.read_file(path, MAX_SCENARIO_FILE)
            except (readers.InputError, OSError) as error:
                raise LocatedError(f"cannot be read as a scenario file: {error}", Span(1, file=file)) from None
            text = decode_utf8(data, file, LocatedError, "scenario files are UTF-8 YAML")
            try:
                node, _ = readers.compose(text)
            except yaml.YAMLError as error:
                raise LocatedError(*yaml_failure(error, file), text) from None
        except LocatedError as error:
            if errors is None:
                raise
            errors.append(error)
            continue
        for item in node.value if isinstance(node, yaml.SequenceNode) else ():
            if isinstance(item, yaml.MappingNode):
                yield _named(item, file)


def _named(node: yaml.MappingNode, file: str) -> NamedRules:
    fields = {key.value: value for key, value in node.value if isinstance(key, yaml.ScalarNode)}
    rules = fields.get("rules")
    ids = tuple(str(item.value) for item in rules.value if isinstance(item, yaml.ScalarNode)) \
        if isinstance(rules, yaml.SequenceNode) else ()
    name = fields.get("id")
    return NamedRules(str(name.value) if isinstance(name, yaml.ScalarNode) else "?", file,
                      node.start_mark.line + 1, ids, tuple(_step_rules(fields.get("steps"), file)))


def _step_rules(node: Any, file: str) -> Iterator[StepRule]:
    """The rule IDs in a `steps` field: one text, or a list of texts (its `- expect:` items name none)."""
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _step_rules(item, file)
    elif isinstance(node, yaml.ScalarNode):
        first = node.start_mark.line + (2 if node.style in ("|", ">") else 1)
        for number, line in enumerate(str(node.value).split("\n")):
            for match in REFUSAL_RULE.finditer(line):
                yield StepRule(match.group(1), file, first + number, line.strip())
