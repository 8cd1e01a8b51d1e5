"""Rule IDs: each belongs to its chapter's prefixes and is defined once, chapter orders are unique, and every ID
named outside the rules (by a scenario or in the reference engine's source) exists."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from pathlib import Path

from .. import spec_data as sd
from ..scenario_rules import NamedRules, named_rules
from ..spec_data import SpecError
from .loading import Loaded, problem


def check_chapters(spec: Loaded) -> Iterator[SpecError]:
    first_seen: dict[str, str] = {}
    orders: dict[int, str] = {}
    for document, chapter in spec.chapters:
        if chapter.name != document.path.stem:
            yield problem(document.shown, document.line(("chapter",)),
                          f"chapter {chapter.name!r} is in file {document.path.name}; expected {chapter.name}.yaml")
        if chapter.order in orders:
            yield problem(document.shown, document.line(("order",)),
                          f"chapter order {chapter.order} already used by {orders[chapter.order]}")
        orders.setdefault(chapter.order, chapter.name)
        prefixes = sd.CHAPTER_PREFIXES[chapter.name]
        for index, rule in enumerate(chapter.rules):
            line = document.line(("rules", index, "id"))
            if rule.id.split("-")[0] not in prefixes:
                yield problem(document.shown, line, f"{rule.id} does not belong in chapter {chapter.name} "
                                                    f"(IDs here start with {' or '.join(prefixes)})")
            if rule.id in first_seen:
                yield problem(document.shown, line,
                              f"duplicate rule ID {rule.id} (first defined at {first_seen[rule.id]})")
            first_seen.setdefault(rule.id, f"{document.shown}:{line}")


def check_scenario_ids(spec: Loaded, scenarios_root: Path) -> Iterator[SpecError]:
    """Every rule a scenario names exists. A file that is not UTF-8 YAML is reported as such."""
    errors: list = []
    yield from unknown_scenario_rules(named_rules([scenarios_root], errors), spec.known_ids)
    yield from errors


def unknown_scenario_rules(scenarios: Iterable[NamedRules], known_ids: Collection[str]) -> Iterator[SpecError]:
    """The rule IDs that scenarios name, in their `rules` or in a refused step, and the spec does not define
    (also `azul scenarios check`'s check)."""
    for scenario in scenarios:
        for rule_id in scenario.rules:
            if rule_id not in known_ids:
                yield problem(scenario.file, scenario.line, f"{scenario.id}: unknown rule ID {rule_id!r} in its rules")
        for step in scenario.in_steps:
            if step.rule not in known_ids:
                yield problem(step.file, step.line,
                              f"{scenario.id}: unknown rule ID {step.rule!r} in step {step.text!r}")


def check_engine_ids(spec: Loaded, reference_root: Path) -> Iterator[SpecError]:
    """Every rule ID the reference engine's source names exists."""
    for path in sorted(reference_root.rglob("*.py")):
        shown = sd.shown_path(reference_root.parent, path)
        for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            for match in sd.RULE_ID_RE.finditer(text):
                if match.group(0) not in spec.known_ids:
                    yield problem(shown, number, f"unknown rule ID {match.group(0)} in the reference engine")
