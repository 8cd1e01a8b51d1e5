"""The JSON Schemas of spec/schema/ (package azul_spec), read in one place: each as data, and as a validator
that resolves the `$ref`s between them (the state schema inside the protocol's and the export's).

`notation_only` is a schema without the bounds marked `x-rule`: those are rules of the game, which an engine's
reply may break and be judged for, not the notation's.

`folder` names another schema folder (the spec checker checks a copy of the spec against that copy's own
schemas), read afresh each time since its files may change, its validators built again only when their text has
changed (one validator for the same text, so that what it found can be kept: spec_check/loading.py); the bundled
one is read once.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any


def _folder(folder: str | Path | None) -> Any:
    return Path(folder) if folder is not None else resources.files("azul_spec").joinpath("schema")


def schema(name: str, folder: str | Path | None = None) -> dict[str, Any]:
    """One schema (`state.schema.json`...) as data."""
    return _bundled(name) if folder is None else _read(name, folder)


@lru_cache(maxsize=None)
def _bundled(name: str) -> dict[str, Any]:
    return _read(name, None)


def _read(name: str, folder: str | Path | None) -> dict[str, Any]:
    return json.loads(_folder(folder).joinpath(name).read_text(encoding="utf-8"))


def validator(name: str, definition: str | None = None, folder: str | Path | None = None) -> Any:
    """A Draft 2020-12 validator (see _validator); the bundled schemas' are built once, another folder's once
    for each text of its schemas."""
    if folder is None:
        return _bundled_validator(name, definition)
    texts = tuple((path.name, path.read_text(encoding="utf-8")) for path in sorted(Path(folder).iterdir())
                  if path.name.endswith(".schema.json"))
    if name not in dict(texts):
        schema(name, folder)  # the error of reading it
    return _folder_validator(name, definition, texts)


@lru_cache(maxsize=None)
def _bundled_validator(name: str, definition: str | None) -> Any:
    names = sorted(path.name for path in _folder(None).iterdir() if path.name.endswith(".schema.json"))
    return _validator(name, definition, {other: _bundled(other) for other in names})


@lru_cache(maxsize=64)
def _folder_validator(name: str, definition: str | None, texts: tuple[tuple[str, str], ...]) -> Any:
    return _validator(name, definition, {other: json.loads(text) for other, text in texts})


def _validator(name: str, definition: str | None, documents: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator for schema `name` (or for one of its `$defs`, `definition`), with every schema
    of the folder (`documents`, by file name) in its registry, so that a `$ref` to another of them resolves
    without a network."""
    # deferred: jsonschema costs 0.1 s at start, and the protocol's fast checks (fastjsonschema) do without it
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources((document["$id"], Resource.from_contents(document))
                                         for document in documents.values() if "$id" in document)
    target = documents[name]
    if definition is not None:
        target = {"$ref": f"{target['$id']}#/$defs/{definition}"}
    return Draft202012Validator(target, registry=registry)


def best_error(validator: Any, document: Any) -> Any:
    """The error of `document` that jsonschema's best_match picks among the validator's, or None."""
    # deferred: jsonschema loads with the first validator (see _validator), never at start-up
    from jsonschema.exceptions import best_match

    return best_match(validator.iter_errors(document))


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "minLength",
          "maxLength")


def notation_only(document: Any) -> Any:
    """`document` without the bounds of every subschema marked `x-rule`: a reply with a score of -3 or five
    boards is well formed (the suite judges SCORE-5 or SETUP-6 on it), where a state file must keep them."""
    if isinstance(document, list):
        return [notation_only(item) for item in document]
    if not isinstance(document, dict):
        return document
    ruled = "x-rule" in document
    return {key: notation_only(value) for key, value in document.items() if not (ruled and key in BOUNDS)}
