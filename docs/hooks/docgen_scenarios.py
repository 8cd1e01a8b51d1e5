"""The scenario gallery: each scenario with its rules, sources, steps, expectations and board diagrams.

Diagrams come from the scenario package (conformance/scenario/): the `given` position as a canonical state,
and the state after the steps as the reference engine plays them. When that package or the reference adapter
is missing, the gallery is still built from the YAML alone and says why the diagrams are absent.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import yaml

from docgen_data import Spec, read_yaml
from docgen_rules import cell, rule_link

try:  # the renderer is ours; without it the gallery has no pictures but still builds
    from azul_conformance.render_svg import render_state
except ImportError:  # pragma: no cover - only in a broken tree
    render_state = None


@dataclass
class Scenario:
    data: dict
    path: Path
    group: str

    @property
    def id(self) -> str:
        return str(self.data.get("id", self.path.stem))

    @property
    def anchor(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", self.id)

    @property
    def url(self) -> str:
        return f"scenarios/{self.group}.md#{self.anchor}"


@dataclass
class Gallery:
    scenarios: list[Scenario] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    root: str = ""

    def by_rule(self) -> dict[str, list[tuple[str, str]]]:
        index: dict[str, list[tuple[str, str]]] = {}
        for scenario in self.scenarios:
            for rule_id in scenario.data.get("rules") or []:
                index.setdefault(str(rule_id), []).append((scenario.id, scenario.url))
        return index

    def groups(self) -> dict[str, list[Scenario]]:
        grouped: dict[str, list[Scenario]] = {}
        for scenario in self.scenarios:
            grouped.setdefault(scenario.group, []).append(scenario)
        return dict(sorted(grouped.items()))


def scenario_root() -> Path | None:
    override = os.environ.get("AZUL_DOCS_SCENARIOS")
    if override:
        return Path(override)
    try:
        return Path(str(resources.files("azul_conformance"))) / "scenarios"
    except ModuleNotFoundError:
        return None


def _documents(data: Any) -> list[dict]:
    """A file holds one scenario, a list of them, or a mapping with a `scenarios` list."""
    if isinstance(data, dict) and isinstance(data.get("scenarios"), list):
        return [d for d in data["scenarios"] if isinstance(d, dict)]
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return [d for d in data if isinstance(d, dict)]
    return []


def load_gallery(spec: Spec) -> Gallery:
    root = scenario_root()
    gallery = Gallery(root=str(root or ""))
    if root is None or not root.is_dir():
        gallery.notes.append("The scenario corpus (conformance/scenarios/) is not in this build yet.")
        return gallery
    seen: dict[str, Path] = {}
    for path in sorted(root.rglob("*.yaml")):
        relative = path.relative_to(root)
        group = relative.parts[0] if len(relative.parts) > 1 else path.stem
        for data in _documents(read_yaml(path, gallery.problems)):
            scenario = Scenario(data, path, re.sub(r"[^A-Za-z0-9_-]+", "-", group))
            if scenario.id in seen:
                gallery.problems.append(f"{path}: scenario id {scenario.id} is also used in {seen[scenario.id]}")
            seen[scenario.id] = path
            for rule_id in data.get("rules") or []:
                if spec.rules and str(rule_id) not in spec.rules:
                    gallery.problems.append(f"{path}: scenario {scenario.id} names unknown rule {rule_id}")
            gallery.scenarios.append(scenario)
    return gallery


# --- diagrams --------------------------------------------------------------------------------------------

def _play_steps(engine, steps) -> str:
    """Play the steps on the engine; a step expected to be refused must be refused. Returns a note."""
    from azul_conformance.engines.base import Rejected

    for step in steps:
        try:
            if step.kind == "move":
                engine.play(step.move)
            else:
                engine.deal(list(step.factories) if step.kind == "deal" else None)
        except Rejected as error:
            if step.reject is None:
                return f"the reference engine refused {step.text!r} ({error.code}: {error.message})"
    return ""


def reference_states(scenario: "Scenario") -> tuple[dict | None, dict | None, str]:
    """(state given, state after the steps on the reference engine, note) for one scenario."""
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.scenario.language import parse_position, parse_steps

    given = parse_position(str(scenario.data.get("given") or "new game\n"))
    if given.reject is not None:  # a game that cannot be set up (SETUP-6): there is no board to draw
        return None, None, f"new_game must be refused with {given.reject.code}"
    raw = scenario.data.get("steps") or ""
    if isinstance(raw, list):  # step texts, and `{expect: ...}` checks between them (nothing to play)
        raw = "\n".join(str(item) for item in raw if not isinstance(item, dict))
    steps = parse_steps(str(raw), players=given.players)
    engine = ReferenceEngine(seed=0)  # a fixed seed: `deal random` draws the same tiles in every build
    if given.state is not None:
        before = engine.load_state(given.state)
    else:
        game = given.new_game
        before = engine.new_game(game.players, game.variant, game.start_player)
    note = _play_steps(engine, steps)
    return before, (engine.state() if steps else None), note


def _diagram_source() -> Callable[[Scenario], tuple[dict | None, dict | None, str]] | None:
    """How to turn a scenario into states, if the scenario language and the reference adapter are there."""
    for module_name in ("azul_conformance.scenario.language", "azul_conformance.engines.reference"):
        try:
            importlib.import_module(module_name)
        except ImportError:
            return None
    return reference_states


def _svg_block(state: dict | None, caption: str) -> list[str]:
    if state is None or render_state is None:
        return []
    try:
        svg = render_state(state)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        return [f'<p class="azul-note">{caption}: cannot draw ({cell(error)})</p>', ""]
    return [f'<figure class="azul-board">{svg}<figcaption>{caption}</figcaption></figure>', ""]


def _diagrams(scenario: Scenario, source) -> list[str]:
    if source is None:
        return ['<p class="azul-note">Board diagrams appear once the scenario package can turn a scenario '
                "into states.</p>", ""]
    try:
        before, after, note = source(scenario)
    except ValueError as error:  # the scenario's own text is wrong: `azul scenarios check` says where
        return [f'<p class="azul-note">No diagram: {cell(str(error).splitlines()[0])}</p>', ""]
    out = ['<div class="azul-boards">', ""]
    out += _svg_block(before, "Given")
    out += _svg_block(after, "After the steps (reference engine)")
    out += ["</div>", ""]
    if note:
        out += [f'<p class="azul-note">{cell(note)}</p>', ""]
    return out


# --- pages -----------------------------------------------------------------------------------------------

def _yaml_block(value: Any) -> list[str]:
    if isinstance(value, str):
        text = value.rstrip("\n")
    else:
        text = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100).rstrip("\n")
    return ["```text", text, "```", ""]


def scenario_section(spec: Spec, scenario: Scenario, source) -> list[str]:
    data = scenario.data
    out = [f"## {cell(data.get('title', scenario.id))} {{#{scenario.anchor}}}", "",
           f"`{scenario.id}` · level {cell(data.get('level', 'rule'))}"
           + (f" · requires {', '.join(map(str, data['requires']))}" if data.get("requires") else ""), ""]
    rules = ", ".join(rule_link(spec, str(r), "../") for r in data.get("rules") or [])
    out += [f"**Rules:** {rules or 'none named'}", ""]
    if data.get("sources"):
        out += ["**Sources:** " + ", ".join(f"`{cell(s)}`" for s in data["sources"]), ""]
    if data.get("description"):
        out += [" ".join(str(data["description"]).split()), ""]
    out += _diagrams(scenario, source)
    for label, key in (("Given", "given"), ("Steps", "steps"), ("Expect", "expect")):
        if data.get(key) not in (None, "", []):
            out += [f"**{label}**", ""] + _yaml_block(data[key])
    return out


def group_page(spec: Spec, group: str, scenarios: list[Scenario], root: str) -> str:
    source = _diagram_source()
    out = [f"# Scenarios: {group}", "",
           f"{len(scenarios)} scenario(s) from `conformance/scenarios/{group}`. "
           "Each one is a position, some steps, and what must hold afterwards.", ""]
    for scenario in scenarios:
        out += scenario_section(spec, scenario, source)
    return "\n".join(out) + "\n"


def index_page(gallery: Gallery) -> str:
    out = ["# Scenario gallery", "",
           "The conformance suite is a corpus of scenarios: small, readable positions written as a player sees "
           "the boards, followed by deals and moves, and the facts that must hold afterwards. Each scenario "
           "names the rules it checks; every rule page links back to its scenarios.", ""]
    for note in gallery.notes:
        out += ['!!! note "Not in this build"', "", f"    {note}", ""]
    groups = gallery.groups()
    if groups:
        out += ["| Group | Scenarios |", "| --- | ---: |"]
        out += [f"| [{group}]({group}.md) | {len(items)} |" for group, items in groups.items()]
    return "\n".join(out) + "\n"
