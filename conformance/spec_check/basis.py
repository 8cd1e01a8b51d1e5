"""Bases: every rule says why its level is right (spec/schema/rules.schema.json, `basis`).

A level `rule` is the rulebooks' own rule: some official version (spec/versions.yaml) must back it, and every
version that diverges from it must be set aside with a reason that fits the version's standing: an unofficial
summary or a walk-through by what it is; an official version only by what settles its slip (the publisher's
other versions, the printed board, a worked example). Where official versions disagree and nothing settles
it, the rule is a ruling, with its authority.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import spec_data as sd
from ..spec_data import SpecError
from .loading import Loaded, problem

# Which standing each reason fits: a version is set aside for what it is only if spec/versions.yaml says so.
FITS = {"unofficial-summary": {"unofficial-summary"}, "walk-through": {"walk-through"},
        "misprint": {"official"}, "printed-board": set(sd.STANDINGS), "worked-example": set(sd.STANDINGS)}
SETTLED_BY_OTHERS = ("misprint",)  # the publisher's other versions settle it: some official version must back it


def check_bases(spec: Loaded) -> Iterator[SpecError]:
    if not spec.standings:  # no versions file: reported where it is loaded
        return
    official = {v for v, (standing, _) in spec.standings.items() if standing == "official"}
    for document, index, rule in spec.rules():
        if rule.basis is None:  # the schema requires one; a file without it is reported there
            continue
        line = document.line(("rules", index, "basis"))
        backing = [v for v in sd.VERSIONS if rule.sources[v].form in sd.BACKING_FORMS]
        diverging = [v for v in sd.VERSIONS if rule.sources[v].form == "diverges"]
        if rule.level == "rule":
            if not official & set(backing):
                yield problem(document.shown, line, f"{rule.id}: level rule, but no official version states it "
                                                    f"(only {', '.join(backing) or 'none'}): make it a ruling "
                                                    f"and name its authority")
            for version in diverging:
                if version not in rule.basis.set_aside:
                    cited = ", ".join(map(str, rule.sources[version].citations))
                    yield problem(document.shown, line,
                                  f"{rule.id}: level rule, but {version} diverges ({cited}) and the basis does not "
                                  f"say why {version} does not decide: set it aside in basis.set_aside, or make "
                                  f"the rule a ruling")
        for version, aside in rule.basis.set_aside.items():
            where = document.line(("rules", index, "basis", "set_aside", version))
            if version not in diverging:
                yield problem(document.shown, where, f"{rule.id}: the basis sets {version} aside, but {version} "
                                                     f"{rule.sources[version].form} (not diverges)")
                continue
            standing = spec.standings.get(version, ("?", ""))[0]
            if standing not in FITS[aside.because]:
                yield problem(document.shown, where,
                              f"{rule.id}: {version} set aside as {aside.because}, but spec/versions.yaml gives "
                              f"{version} the standing {standing}")
            elif aside.because in SETTLED_BY_OTHERS and not official & set(backing) - {version}:
                yield problem(document.shown, where, f"{rule.id}: {version} set aside as a misprint, but no other "
                                                     f"official version states the rule to settle it")
