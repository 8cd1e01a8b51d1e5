"""`azul spec show`: one rule (or every rule of a chapter) as a terminal page, from the loaded spec."""

from __future__ import annotations

import textwrap

from .spec_data import VERSION_FILES, VERSION_NAMES, VERSIONS, Rule, Spec, cited

WIDTH = 100


def find_rules(spec: Spec, target: str) -> list[Rule]:
    """The rule with that ID, or the rules of that chapter (by name, `floor`, or prefix, `FLOOR`), any case."""
    wanted = target.strip().upper()
    exact = [rule for rule in spec.rules if rule.id == wanted]
    if exact:
        return exact
    return [rule for rule in spec.rules if rule.chapter.upper() == wanted or rule.id.split("-")[0] == wanted]


def _wrap(text: str, indent: str) -> list[str]:
    text = " ".join(str(text).split())
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def show_rule(spec: Spec, rule: Rule, scenarios: list[tuple[str, str]]) -> str:
    """The rule's statement and level, the eight versions' citations each with its fragment of the version's own
    words, why the level is right (the basis), its divergences, ruling and authority, and the scenarios that
    check it (`scenarios`: (id, file:line))."""
    lines = [f"{rule.id} · {rule.title}  [{rule.level}]", *_wrap(rule.statement, "  "),
             f"  defined at {rule.location}", "", "  What each version says:"]
    for version in VERSIONS:
        source = rule.sources.get(version)
        if source is None:
            lines.append(f"    {version:<5} not recorded")
            continue
        lines.append(f"    {version:<5} {source.form:<9} ({VERSION_NAMES[version]}, {VERSION_FILES[version]})")
        for citation, fragment in source.quoted():  # each cited line range with the version's own words
            lines += _wrap(f"{cited(citation)}  «{fragment}»" if fragment else cited(citation), " " * 10)
        if source.note:
            lines += _wrap(source.note, " " * 10)
    if rule.basis is not None:
        lines += ["", f"  Why this level ({rule.level}):", *_wrap(rule.basis.stated_by, "    ")]
        for version, aside in rule.basis.set_aside.items():
            standing = spec.standings.get(version, ("", ""))[0]
            lines += _wrap(f"{version} ({standing or 'standing not recorded'}) diverges and does not decide, "
                           f"{aside.because}: {aside.note}", "    ")
    divergences = {d.id: d for d in spec.divergences}
    for div_id in rule.divergences:
        div = divergences.get(div_id)
        lines += ["", f"  Divergence {div_id}: {div.title if div else '(not in the register)'}"]
        if div:
            lines += _wrap(div.summary, "    ") + [f"    at {div.location}"]
    if rule.ruling is not None:
        ruling = rule.ruling
        lines += ["", f"  Ruling (ours), authority: {ruling.authority}, confidence: {ruling.confidence}"]
        for label, text in (("Question", ruling.question), ("Decision", ruling.decision), ("Why", ruling.reasoning)):
            lines += _wrap(f"{label}: {text}", "    ")
    if rule.authority:
        lines += ["", f"  Authority: {rule.authority}"] + (_wrap(rule.reasoning, "    ") if rule.reasoning else [])
    if rule.examples:
        lines += ["", "  Worked examples: " + "; ".join(map(cited, rule.examples))]
    lines += ["", f"  Checked by {len(scenarios)} scenario{'s' * (len(scenarios) != 1)}:"]
    lines += [f"    {scenario_id} ({where})" for scenario_id, where in scenarios] or ["    none yet"]
    return "\n".join(lines) + "\n"
