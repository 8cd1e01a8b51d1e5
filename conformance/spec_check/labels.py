"""A rule's label for a version agrees with the divergence register on the same lines.

A rule says, for each rulebook version, that the version `states` it (or states it leaving its numbers to the
board, `printed`, or states part of it, `partly`, or shows it in an `example`), `diverges` from it, or is
`silent`. The divergence register records, for the same rule, what the versions say where they
differ, in the same words. When both cite lines of one version and those lines overlap, the two must give the
same answer: a version cannot state a rule and diverge from it in the same lines. `printed`, `partly` and
`example` count as stating (the worked example shows the rule being followed). And every `diverges` citation of a
rule must be recorded by the register: it shares lines with the register's entry for that version.

How a label is chosen (spec/schema/rules.schema.json, `source`): a version *states* a rule when its lines, read
in their own language, lead a player to the rule's play, however loosely worded (a note says how); it
*diverges* when following its lines as written leads to different play.

    for found in contradictions(spec.rules, spec.divergences):
        print(found)                    # path:line: message (a SpecError, located at the rule)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .. import spec_data as sd
from ..spec_data import SpecError
from .loading import Loaded, problem

# `printed`, `partly` and `example` back a rule as `states` does; only the three answers below can contradict
# each other.
ANSWER = {"states": "states", "printed": "states", "partly": "states", "example": "states", "diverges": "diverges",
          "silent": "silent"}


class Contradiction(SpecError):
    """A rule and a divergence that label the same lines of one version differently (located at the rule)."""

    def __init__(self, message: str, rule: sd.Rule, version: str, divergence: str) -> None:
        super().__init__(message, rule.location)
        self.rule, self.version, self.divergence = rule.id, version, divergence


def check_labels(spec: Loaded) -> Iterator[SpecError]:
    yield from contradictions((rule for _, _, rule in spec.rules()), (d for _, _, d in spec.divergences))
    yield from unregistered(spec)


def unregistered(spec: Loaded) -> Iterator[SpecError]:
    """Every `diverges` citation of a rule shares lines with the register's entry for that version in one of
    the rule's divergences: a divergence the register does not record (or records at other lines) is reported."""
    by_id = {d.id: d for _, _, d in spec.divergences}
    for document, index, rule in spec.rules():
        for version, source in rule.sources.items():
            if source.form != "diverges":
                continue
            entries = [d.versions[version] for d in linked(rule, by_id) if version in d.versions]
            for citation in source.citations:
                if not any(overlapping([citation], entry.citations) for entry in entries):
                    where = ", ".join(d.id for d in linked(rule, by_id) if version in d.versions) or "none"
                    yield problem(document.shown, document.line(("rules", index, "sources", version)),
                                  f"{rule.id}: {version} diverges in {citation}, but no divergence of the rule "
                                    f"records {version} at those lines (its divergences with {version}: {where}): "
                                  f"add the divergence to the register, or cite the lines it records")


def overlapping(first: Iterable[sd.Citation], second: Iterable[sd.Citation]) -> list[sd.Citation]:
    """The citations of `first` that share at least one line with a citation of `second`."""
    second = list(second)
    return [a for a in first if any(a.file == b.file and a.overlaps(b.first, b.last) for b in second)]


def linked(rule: sd.Rule, divergences: dict[str, sd.Divergence]) -> list[sd.Divergence]:
    """The divergences the rule lists, and those that list the rule (a one-way link is reported elsewhere)."""
    ids = set(rule.divergences) | {d.id for d in divergences.values() if rule.id in d.rules}
    return [divergences[i] for i in sorted(ids) if i in divergences]


def contradictions(rules: Iterable[sd.Rule], divergences: Iterable[sd.Divergence]) -> list[Contradiction]:
    """Every (rule, version, divergence) whose labels for overlapping lines disagree, in spec order."""
    by_id = {divergence.id: divergence for divergence in divergences}
    found = []
    for rule in rules:
        for divergence in linked(rule, by_id):
            for version, entry in divergence.versions.items():
                source = rule.sources.get(version)
                if source is None or ANSWER[source.form] == ANSWER[entry.form]:
                    continue
                shared = overlapping(source.citations, entry.citations)
                if shared:
                    found.append(_contradiction(rule, version, source, divergence, entry, shared))
    return found


def _contradiction(rule: sd.Rule, version: str, source: sd.Source, divergence: sd.Divergence, entry: sd.Source,
                   shared: list[sd.Citation]) -> Contradiction:
    lines = ", ".join(str(c) for c in shared)
    message = (f"{rule.id}: {version} {source.form} in {lines}, but {divergence.id} ({divergence.location}) says "
               f"{version} {entry.form} in the same lines: read them again and make the labels agree")
    return Contradiction(message, rule, version, divergence.id)
