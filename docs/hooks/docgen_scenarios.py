"""The scenario gallery: each scenario with its rules, sources, steps, expectations and board diagrams.

The scenarios come from the scenario loader (the errors it finds are build warnings), and the diagrams from
the scenario runner on the reference engine: the `given` position, and the state after the steps, once every
check of the scenario has been judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from azul_conformance import markup
from azul_conformance.engines.reference import ReferenceEngine
from azul_conformance.properties.canonical import changed_places
from azul_conformance.render_svg import describe_changes, marked_places, render_state
from azul_conformance.scenario import Scenario, load_scenarios
from azul_conformance.scenario.runner import run_on_wall
from azul_conformance.scenario_rules import named_rules
from azul_conformance.spec_check.ids import unknown_scenario_rules
from azul_conformance.spec_data import Citation, Spec
from docgen_rules import ClauseIndex, rule_link, rules_by_id


def slug(text: str) -> str:
    """An id as an anchor or a file name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text)


def anchor(scenario: Scenario) -> str:
    return slug(scenario.id)


@dataclass
class Gallery:
    root: Path
    scenarios: list[Scenario] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def group(self, scenario: Scenario) -> str:
        """The folder under the corpus (a file directly in it is its own group)."""
        path = Path(scenario.file).resolve()
        relative = path.relative_to(self.root.resolve()) if path.is_relative_to(self.root.resolve()) else path
        return re.sub(r"[^A-Za-z0-9_-]+", "-", relative.parts[0] if len(relative.parts) > 1 else path.stem)

    def url(self, scenario: Scenario) -> str:
        return f"scenarios/{self.group(scenario)}.md#{anchor(scenario)}"

    def by_rule(self) -> dict[str, list[tuple[str, str, str, str]]]:
        """For each rule, the scenarios that check it: (id, page, title, the rule the scenario is about). A
        scenario is about the first of its rules (the schema's main one), whose outcome its title states; it
        checks the others in passing."""
        index: dict[str, list[tuple[str, str, str, str]]] = {}
        for scenario in self.scenarios:
            for rule_id in scenario.rules:
                index.setdefault(rule_id, []).append((scenario.id, self.url(scenario), scenario.title,
                                                      scenario.rules[0]))
        return index

    def groups(self) -> dict[str, list[Scenario]]:
        grouped: dict[str, list[Scenario]] = {}
        for scenario in self.scenarios:
            grouped.setdefault(self.group(scenario), []).append(scenario)
        return dict(sorted(grouped.items()))


def load_gallery(spec: Spec, root: Path) -> Gallery:
    errors: list = []
    gallery = Gallery(root, load_scenarios([root], errors) if root.is_dir() else [])
    gallery.problems += [str(error) for error in errors]
    known = rules_by_id(spec)
    if known:  # the spec checker's own check (and `azul scenarios check`'s)
        named = named_rules([root], []) if root.is_dir() else []  # unreadable files: reported above
        gallery.problems += [str(problem) for problem in unknown_scenario_rules(named, known)]
    return gallery


# --- diagrams --------------------------------------------------------------------------------------------

def reference_states(scenario: Scenario, on: str | None = None) -> tuple[dict | None, dict | None, str]:
    """(state given, state after the steps on the reference engine, note) for one scenario, both on the same wall:
    `on`, else the scenario's own, or the first of its `walls` (a scenario run on both walls was drawn with its
    Given on the coloured wall and its After on the grey one, the last it ran on)."""
    given = scenario.given
    if given.reject is not None:  # a game that cannot be set up (SETUP-6): there is no board to draw
        return None, None, f"new_game must be refused with {given.reject.code}"
    wall = on or (scenario.variants[0] if len(scenario.variants) > 1 else None)
    engine = ReferenceEngine(seed=0)  # a fixed seed: `deal random` draws the same tiles in every build
    if given.state is not None:
        before = engine.load_state(dict(given.state, variant=wall) if wall else given.state)
    else:
        before = engine.new_game(given.new_game.players, wall or given.new_game.variant, given.new_game.start_player)
    result = run_on_wall(engine, scenario, wall)
    note = "" if result.verdict == "pass" else f"on the reference engine: {result.verdict}: {result.message}"
    if wall and not on:
        note = (note + " " if note else "") + f"Drawn on the {wall} wall; the scenario runs on the " \
            f"{' and '.join(scenario.variants)} walls."
    return before, (engine.state() if scenario.steps else None), note


def expected_state(scenario: Scenario, message: str) -> dict | None:
    """The reference engine's state at the point where a case failed, to draw beside the engine's: after the
    steps of the checkpoint the failure message names (`... failed after step 'x' (FILE:LINE)`), else after all
    the steps (the scenario's final expectations), on the wall it names. None where the scenario sets no game up."""
    after = next((point.after for point in scenario.checkpoints if f"({point.where})" in message), None)
    if after is not None:
        scenario = replace(scenario, steps=scenario.steps[:after], checkpoints=(), expect=())
    wall = re.match(r"on the (\w+) wall", message)  # a scenario of two walls failed on this one (runner.py)
    before, after_steps, _ = reference_states(scenario, wall[1] if wall and wall[1] in scenario.variants else None)
    return after_steps if scenario.steps else before


def _picture(state: dict | None, caption: str, name: str, pictures: dict[str, str], scenario: str = "",
             changed: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The board as a picture file of its own beside the page (scenarios/boards/NAME.svg), loaded when it comes
    into view: a group page of 60 scenarios drawn inline weighed 2 MB and 27,000 elements. The picture links
    to itself: opened alone, it can be enlarged on a phone. Its alt text names the scenario by its id (`scenario`:
    the schema's lower-case words and hyphens; its title, a contributor's text, stays out of an attribute);
    `changed`: the places the steps changed, outlined (render_state) and said in the alt text."""
    if state is None:
        return []
    pictures[f"scenarios/boards/{name}.svg"] = render_state(state, changed)
    alt = f"{caption}: the boards of scenario {markup.md(scenario)}" if scenario else f"{caption}: the boards"
    marked = marked_places(state, changed)
    alt += f"; what its steps changed, outlined with dashes: {markup.md(describe_changes(marked))}" if marked else ""
    return ['<figure class="azul-board" markdown="span">', f"[![{alt}](boards/{name}.svg)"
            f"{{ loading=lazy }}](boards/{name}.svg)", f"<figcaption>{caption}</figcaption>", "</figure>", ""]


def _diagrams(scenario: Scenario, pictures: dict[str, str]) -> list[str]:
    """Its Given and the position after its steps, on each wall it runs on (the first wall's pictures are
    NAME-given.svg and NAME-after.svg, another's NAME-WALL-given.svg...)."""
    walls = scenario.variants if len(scenario.variants) > 1 else (None,)
    out, notes = ['<div class="azul-boards" markdown>', ""], []
    for wall in walls:
        before, after, note = reference_states(scenario, wall)
        on = f", {wall} wall" if wall else ""
        name = anchor(scenario) + (f"-{wall}" if wall and wall != walls[0] else "")
        changed = changed_places(before, after) if before is not None and after is not None else []
        out += _picture(before, f"Given{on}", f"{name}-given", pictures, scenario.id, changed)
        out += _picture(after, f"After the steps (reference engine){on}", f"{name}-after", pictures, scenario.id,
                        changed)
        notes += [note] if note and note not in notes else []
    out += ["</div>", ""]
    out += [line for note in notes for line in (f'<p class="azul-note">{markup.html_text(note)}</p>', "")]
    return out


# --- pages -----------------------------------------------------------------------------------------------

def _text_block(text: str) -> list[str]:
    return [*markup.fenced(text.rstrip("\n"), "text"), ""]


def _steps_text(scenario: Scenario) -> str:
    lines = []
    for played in range(len(scenario.steps) + 1):
        for checkpoint in scenario.checkpoints:
            if checkpoint.after == played:
                lines += ["expect:"] + ["  " + a.text.replace("\n", "\n  ") for a in checkpoint.expect]
        if played < len(scenario.steps):
            lines.append(scenario.steps[played].text)
    return "\n".join(lines)


def source_link(clauses: ClauseIndex, text: str, from_dir: str = "../") -> str:
    """A scenario's source as a reader names it: "EN, l. 174", linked to that line's clause (the file:line it
    stands for is the link's title); a text that is no citation is shown as written."""
    try:
        citation = Citation.parse(text)
    except ValueError:
        return markup.code(text)
    version = clauses.anchor.get((citation.file, citation.first), ("", 0))[0]
    link = clauses.link(citation, version, from_dir)
    return f"{version}, {link}" if version else link


def group_title(spec: Spec, group: str) -> str:
    """A group of scenarios named by the chapter whose folder it is (floor: "The floor line")."""
    return next((chapter.title for chapter in spec.chapters if chapter.name == group), group)


def scenario_section(spec: Spec, scenario: Scenario, pictures: dict[str, str],
                     clauses: ClauseIndex | None = None) -> list[str]:
    clauses = clauses or ClauseIndex(spec)
    out = [f"## {markup.prose(scenario.title)} {{#{anchor(scenario)}}}", "",
           f"{markup.code(scenario.id)} · level {markup.md(scenario.level)}"
           + (f" · requires {markup.md(', '.join(scenario.requires))}" if scenario.requires else ""), ""]
    rules = ", ".join(rule_link(spec, r, "../") for r in scenario.rules)
    out += [f"**Rules:** {rules or 'none named'}", ""]
    if scenario.given.reject is None:  # a position to open in the browser (docs/try/)
        out += [f'<a href="../../try/#scenario={scenario.id}">Try it</a>', ""]
    if scenario.sources:
        out += ["**Sources:** " + "; ".join(source_link(clauses, s) for s in scenario.sources), ""]
    if scenario.notes:
        out += [markup.prose(" ".join(str(scenario.notes).split())), ""]
    out += _diagrams(scenario, pictures)
    for label, text in (("Given", scenario.given.text), ("Steps", _steps_text(scenario)),
                        ("Expect", "\n".join(a.text for a in scenario.expect))):
        if text.strip():
            out += [f"**{label}**", ""] + _text_block(text)
    return out


def group_page(spec: Spec, group: str, scenarios: list[Scenario], pictures: dict[str, str]) -> str:
    """A group's page; its boards' pictures are added to `pictures` (path -> SVG)."""
    out = [f"# Scenarios: {markup.prose(group_title(spec, group))}", "",
           f"{len(scenarios)} scenario(s) from `conformance/scenarios/{group}`. "
           "Each one is a position, some steps, and what must hold afterwards.", ""]
    clauses = ClauseIndex(spec)
    for scenario in scenarios:
        out += scenario_section(spec, scenario, pictures, clauses)
    return "\n".join(out) + "\n"


def index_page(gallery: Gallery, spec: Spec) -> str:
    out = ["# Scenario gallery", "",
           "The conformance suite is a corpus of scenarios: small, readable positions written as a player sees "
           "the boards, followed by deals and moves, and the facts that must hold afterwards. Each scenario "
           "names the rules it checks, the one it is about first; every rule page links back to its scenarios, "
           "those about it as its outcomes and the others as checking it in passing. Each scenario's boards are "
           "drawn before and after its steps, the places its steps changed outlined with dashes.", ""]
    groups = gallery.groups()
    if groups:
        out += ["| Group | Scenarios |", "| --- | ---: |"]
        out += [f"| [{markup.prose(group_title(spec, group))}]({group}.md) | {len(items)} |"
                for group, items in groups.items()]
    else:
        out += ['!!! note "Not in this build"', "", "    The scenario corpus (conformance/scenarios/) is empty.", ""]
    return "\n".join(out) + "\n"
