"""Rule knowledge the properties use, read from the specification: the rules each property judges
(spec/properties.yaml) and the rule a difference from the reference breaks (spec/differences.yaml). Which rules
a property stands for lives in spec/; what it plays and checks is code (suite.py, differential.py)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml

from .. import readers
from ..located import LocatedError, Span, yaml_failure
from ..schemas import validator

SHOWN = "spec/properties.yaml"
DIFFERENCES = "spec/differences.yaml"


def read_declarations(text: str, file: str = SHOWN) -> dict[str, tuple[str, ...]]:
    """Property id -> the rule IDs it judges; a LocatedError naming the file (and line) when the text is not
    YAML or breaks spec/schema/properties.schema.json."""
    return {name: tuple(rules) for name, rules in _sound(text, file, "properties.schema.json").items()}


def read_differences(text: str, file: str = DIFFERENCES) -> dict[str, dict[str, str]]:
    """Step -> state field -> the rule a difference there breaks (spec/schema/differences.schema.json)."""
    return _sound(text, file, "differences.schema.json")


def _sound(text: str, file: str, schema_name: str) -> dict:
    """The data of a YAML text that meets its schema; a LocatedError at the file and line otherwise."""
    try:
        node, data = readers.compose(text)
    except yaml.YAMLError as error:
        raise LocatedError(*yaml_failure(error, file), text) from None
    problem = next(iter(sorted(validator(schema_name).iter_errors(data), key=lambda e: list(e.path))), None)
    if problem is not None:
        where = "/".join(map(str, problem.absolute_path)) or "(top level)"
        line = _line_of(node, list(problem.absolute_path))
        raise LocatedError(f"{where}: {problem.message}", Span(line, file=file), text)
    return data


def _line_of(node: yaml.Node | None, path: list) -> int | None:
    """The line of the entry a schema error is about (its key's line), when the path reaches one."""
    if isinstance(node, yaml.MappingNode) and path:
        for key, value in node.value:
            if key.value == path[0]:
                return key.start_mark.line + 1
    return None


@lru_cache(maxsize=1)
def declared_rules() -> dict[str, tuple[str, ...]]:
    """The bundled declarations (spec/properties.yaml), read once."""
    return read_declarations(_bundled("properties.yaml"))


@lru_cache(maxsize=1)
def difference_rules() -> dict[str, dict[str, str]]:
    """The bundled spec/differences.yaml, read once."""
    return read_differences(_bundled("differences.yaml"))


def _bundled(name: str) -> str:
    return resources.files("azul_spec").joinpath(name).read_text(encoding="utf-8")


def rules_of(property_id: str) -> tuple[str, ...]:
    try:
        return declared_rules()[property_id]
    except KeyError:
        raise LocatedError(f"property {property_id!r} has no entry: declare the rules it judges",
                           Span(file=SHOWN)) from None
