"""The rules each property judges, read from the specification (spec/properties.yaml): which rules a property
stands for is rule knowledge and lives in spec/; what it plays and checks is code (suite.py)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml

from .. import readers
from ..located import LocatedError, Span, yaml_failure
from ..schemas import validator

SHOWN = "spec/properties.yaml"


def read_declarations(text: str, file: str = SHOWN) -> dict[str, tuple[str, ...]]:
    """Property id -> the rule IDs it judges; a LocatedError naming the file (and line) when the text is not
    YAML or breaks spec/schema/properties.schema.json."""
    try:
        node, data = readers.compose(text)
    except yaml.YAMLError as error:
        raise LocatedError(*yaml_failure(error, file), text) from None
    problem = next(iter(sorted(validator("properties.schema.json").iter_errors(data), key=lambda e: list(e.path))),
                   None)
    if problem is not None:
        where = "/".join(map(str, problem.absolute_path)) or "(top level)"
        line = _line_of(node, list(problem.absolute_path))
        raise LocatedError(f"{where}: {problem.message}", Span(line, file=file), text)
    return {name: tuple(rules) for name, rules in data.items()}


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
    text = resources.files("azul_spec").joinpath("properties.yaml").read_text(encoding="utf-8")
    return read_declarations(text)


def rules_of(property_id: str) -> tuple[str, ...]:
    try:
        return declared_rules()[property_id]
    except KeyError:
        raise LocatedError(f"property {property_id!r} has no entry: declare the rules it judges",
                           Span(file=SHOWN)) from None
