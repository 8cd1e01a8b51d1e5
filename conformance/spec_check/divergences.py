"""Divergences: each ID is defined once, its sources cite as a rule's do, the rules it lists exist and list it
back, and every divergence a rule lists exists and lists the rule."""

from __future__ import annotations

from collections.abc import Iterator

from .. import spec_data as sd
from ..spec_data import SpecError
from .citations import check_source
from .loading import Loaded, problem


def check_divergences(spec: Loaded) -> Iterator[SpecError]:
    rules = spec.rules_by_id()
    found: dict[str, sd.Divergence] = {}
    for document, index, divergence in spec.divergences:
        if divergence.id in found:
            first = found[divergence.id].location
            yield problem(document.shown, divergence.location.line,
                          f"duplicate divergence ID {divergence.id} (first defined at {first})")
        found.setdefault(divergence.id, divergence)
        for version, source in divergence.versions.items():
            line = document.line(("divergences", index, "versions", version))
            yield from check_source(spec, document.shown, line, f"{divergence.id}: {version}", source)
        line = document.line(("divergences", index, "rules"))
        for rule_id in divergence.rules:
            if rule_id not in spec.known_ids:
                yield problem(document.shown, line, f"{divergence.id}: unknown rule ID {rule_id}")
            elif rule_id in rules and divergence.id not in rules[rule_id].divergences:
                yield problem(document.shown, line, f"{divergence.id} lists {rule_id}, but {rule_id} does not list "
                                                    f"{divergence.id} in its divergences")
    for document, index, rule in spec.rules():
        for k, divergence_id in enumerate(rule.divergences):
            line = document.line(("rules", index, "divergences", k))
            if divergence_id not in found:
                yield problem(document.shown, line, f"{rule.id}: unknown divergence {divergence_id}")
            elif rule.id not in found[divergence_id].rules:
                yield problem(document.shown, line, f"{rule.id} lists {divergence_id}, but {divergence_id} does not "
                                                    f"list {rule.id} in its rules")
