"""One page per rulebook version: its standing (spec/versions.yaml), and every rule it differs from, in its own
words, with why it does not decide the rule (the rule's basis) or how the ruling settles it."""

from __future__ import annotations

from azul_conformance.spec_data import VERSION_NAMES, VERSIONS, Spec
from docgen_i18n import UI
from docgen_rules import ClauseIndex, badge, cell, level_badge, own_words, rule_link

STANDING = {"official": "official rulebook", "walk-through": "walk-through", "unofficial-summary": "unofficial summary"}


def _standing(spec: Spec, version: str) -> tuple[str, str]:
    standing, why = spec.standings.get(version, ("", ""))
    return STANDING.get(standing, standing or "not recorded"), why


def index_page(spec: Spec) -> str:
    out = ["# The versions", "",
           "Eight rulebook versions are cited. Their standing decides what a difference means: a divergence of "
           "an official rulebook must be settled by something else (the publisher's other versions, the printed "
           "board, a worked example) or the rule becomes a ruling; a walk-through or an unofficial summary "
           "supports a rule where it agrees and decides nothing alone (from `spec/versions.yaml`).", "",
           "| Version | Standing | Why | Differs from |", "| --- | --- | --- | ---: |"]
    for version in VERSIONS:
        standing, why = _standing(spec, version)
        differs = sum(1 for rule in spec.rules if rule.sources[version].form == "diverges")
        out.append(f"| [**{version}** {VERSION_NAMES[version]}]({version}.md) | {cell(standing)} | {cell(why)} | "
                   f"{differs} rule{'s' * (differs != 1)} |")
    return "\n".join(out) + "\n"


def version_page(spec: Spec, version: str) -> str:
    clauses = ClauseIndex(spec)
    standing, why = _standing(spec, version)
    name = VERSION_NAMES.get(version, version)
    out = [f"# {version}: {name}", "", f"**Standing:** {standing}. {why}", "",
           f"Its lines, clause by clause: [the clause index of {version}](../clauses/{version}.md).", "",
           "## Where it differs from the rules, and why", ""]
    rows = []
    for rule in spec.rules:
        source = rule.sources[version]
        if source.form != "diverges":
            continue
        if rule.basis is not None and version in rule.basis.set_aside:
            aside = rule.basis.set_aside[version]
            why_not = f"{UI['en'].get('because_' + aside.because, aside.because)}: {aside.note}"
        elif rule.ruling is not None:
            why_not = f"the versions leave it open; our ruling: {rule.ruling.decision}"
        else:
            why_not = "not explained"
        rows.append(f"| {rule_link(spec, rule.id, '../')} {cell(rule.title)} {level_badge(rule.level)} | "
                    f"{own_words(source, clauses, '../')} | {cell(source.note)} | {cell(why_not)} |")
    if rows:
        out += ["| Rule | Its own words, where | What it says | Why the rule stands |", "| --- | --- | --- | --- |"]
        out += rows
    else:
        out += [f"The {name} states no rule differently from this specification."]
    partial = [rule for rule in spec.rules if rule.sources[version].form in ("printed", "partly", "example")]
    if partial:
        out += ["", "## Where it gives a rule only in part", "",
                "| Rule | What it does | Its own words, where | Our note |", "| --- | --- | --- | --- |"]
        for rule in partial:
            source = rule.sources[version]
            out.append(f"| {rule_link(spec, rule.id, '../')} {cell(rule.title)} | "
                       f"{badge('form-' + source.form, source.form)} | {own_words(source, clauses, '../')} | "
                       f"{cell(source.note)} |")
    silent = [rule for rule in spec.rules if rule.sources[version].form == "silent"]
    if silent:
        out += ["", "## Where it is silent", "", f"{len(silent)} rule{'s' * (len(silent) != 1)}: "
                + ", ".join(rule_link(spec, rule.id, "../") for rule in silent) + ". Each rule's page says what the "
                "version does say nearby."]
    return "\n".join(out) + "\n"
