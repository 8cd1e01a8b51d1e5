"""Generated mutants of the reference engine: cosmic-ray's mutation operators over reference_impl/, a seeded
sample of the mutants run against the default conformance suite in-process, and every survivor accounted for.

The rule-level mutants (`azul mutants`) are wrong readings of the rules written by hand; these are blind edits
made by a tool (`<` for `<=`, `+ 1` for `- 1`, a loop that never runs, `and` for `or`, ...), so they find what
the suite misses without our ideas of what could go wrong. Each mutant is the engine's source with one edit,
loaded as a package of its own (`azul_reference_mutant`) in a forked process and put behind the reference
engine's adapter for the length of each engine call: the real engine, which the differential properties compare
against, stays unmutated. The suite runs in three phases, each only for the mutants still alive:

  1. scenarios      every scenario of the corpus but those written for this campaign (about 1 s a mutant)
  2. properties     the default suite's properties (`--examples` games each; about 20 s a mutant on an idle core)
  3. new scenarios  the scenarios written to kill earlier survivors (files named mut-*.yaml), so that "killed
                    by a new scenario" means nothing else in the suite noticed the mutant

A mutant is killed by the first case that judges it bad, or by failing to load; one still running after
`--limit` seconds is stopped and counted as killed (a hang: `timeout`). A survivor is classified by hand in
docs/reports/mutation/survivors.yaml: `equivalent` (no game can tell it from the engine; the reason says why)
or `out_of_scope` (it changes only an error message, the speed, or what the rules leave to the engine). The
score is killed / (sample - equivalent - out of scope). Out of the campaign altogether: protocol.py (the
transport; the in-process suite never runs it) and the checks that load_state makes on a given position
(state.py's validation section: the suite gives engines only positions a game can reach, and
tests/test_state.py checks each check).

Writes docs/reports/mutation/generated.yaml (every sampled mutant: where, operator, the line before and after,
outcome, killing case; survivors with their classification) and generated.md (the docs page).

examples:
  python benchmarks/generated_mutants.py                       # the campaign: 150 mutants, seed 0, 2 at a time
  python benchmarks/generated_mutants.py --sample 20 --no-properties --out /tmp/gm   # a quick look
  python benchmarks/generated_mutants.py --rerun survived      # after new scenarios: the survivors again
  python benchmarks/generated_mutants.py --rerun not_run --sample 300   # 150 more, the first 150 kept
  python benchmarks/generated_mutants.py --show 'game.py:Game._take:AddNot#0'          # one mutant's diff
  python benchmarks/generated_mutants.py --refresh             # after classifying survivors: recount, new page
  python benchmarks/generated_mutants.py --check               # survivors classified, kills real, page in sync
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib.abc
import importlib.util
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from azul_conformance.processes import Ended, each_in_a_process

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "reference_impl"
OUT = ROOT / "docs" / "reports" / "mutation"
RESULTS, PAGE, SURVIVORS = "generated.yaml", "generated.md", "survivors.yaml"
PACKAGE = "azul_reference_mutant"
NEW_SCENARIOS = "mut-"  # file-name prefix of the scenarios written to kill generated survivors
PHASES = ("load", "crash", "scenarios", "properties", "new scenarios")
CLASSES = ("equivalent", "out_of_scope")
VALIDATION = "# -- validation"  # state.py: the checks of a loaded position start at this comment


@dataclass(frozen=True)
class Generated:
    """One mutation cosmic-ray can make: `operator`'s `occurrence`-th position in `module`."""

    module: str  # file name in reference_impl/
    operator: str  # cosmic-ray's name, core/NumberReplacer
    occurrence: int  # cosmic-ray's index of the position among the operator's positions in the module
    line: int
    column: int
    definition: str  # the enclosing classes and function (Board.tile_line), or <module>
    nth: int  # index among the same operator's positions in the same definition

    @property
    def key(self) -> str:
        """Stable while other functions change: the definition, not the line number, locates the mutant."""
        return f"{self.module}:{self.definition}:{self.operator.removeprefix('core/')}#{self.nth}"


def sources(folder: Path = REFERENCE) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py"))}


def digest(texts: dict[str, str]) -> str:
    return hashlib.sha256("\0".join(f"{k}\0{v}" for k, v in sorted(texts.items())).encode()).hexdigest()[:16]


def out_of_campaign(texts: dict[str, str]) -> dict[str, str]:
    """Why whole parts of the engine are left out (key prefix or module -> reason)."""
    return {"protocol.py": "the JSON-lines transport of `python -m azul_reference`: the in-process suite never "
                           "runs it (tests/test_protocol_server.py and `azul smoke` check it)",
            "__init__.py": "re-exports only",
            "fast.py": "the fast path for whole random games (`azul simulate`, benchmarks): the suite never runs it; "
                       "tests/test_engine_fast_game.py holds it equal to Game at every step",
            "state.py validation": "the checks load_state makes on a given position: the suite gives engines only "
                                   "positions a game can reach and never asks one to refuse a position "
                                   "(tests/test_state.py checks each check)"}


def _definition(node) -> str:
    from parso.python.tree import Class, Function

    names = []
    while node is not None:
        if isinstance(node, (Class, Function)):
            names.append(node.name.value)
        node = node.parent
    return ".".join(reversed(names)) or "<module>"


def _operators() -> list[tuple[str, object]]:
    import cosmic_ray.plugins as plugins

    # VariableReplacer and VariableInserter take arguments and make random edits: not reproducible by name.
    return [(name, plugins.get_operator(name)()) for name in plugins.operator_names()
            if not plugins.get_operator(name).arguments()]


_POPULATIONS: dict[str, tuple[list[Generated], dict[str, int]]] = {}  # by digest: parsing takes seconds


def population(texts: dict[str, str]) -> tuple[list[Generated], dict[str, int]]:
    """Every mutation of the campaign's code in a fixed order, and how many were left out, by reason key."""
    key = digest(texts)
    if key not in _POPULATIONS:
        _POPULATIONS[key] = _population(texts)
    return _POPULATIONS[key]


def _population(texts: dict[str, str]) -> tuple[list[Generated], dict[str, int]]:
    from cosmic_ray.ast import ast_nodes, get_ast

    found, left_out = [], {}
    operators = _operators()
    for module, text in texts.items():
        validation = next((i + 1 for i, line in enumerate(text.splitlines()) if line.startswith(VALIDATION)),
                          None) if module == "state.py" else None
        nodes = list(ast_nodes(get_ast(text)))
        for name, operator in operators:
            seen: dict[str, int] = {}
            occurrence = 0
            for node in nodes:
                for (line, column), _ in operator.mutation_positions(node):
                    definition = _definition(node)
                    nth = seen.get(definition, 0)
                    seen[definition] = nth + 1
                    mutant = Generated(module, name, occurrence, line, column, definition, nth)
                    occurrence += 1
                    reason = module if module in ("protocol.py", "__init__.py", "fast.py") else \
                        "state.py validation" if validation and line > validation else None
                    if reason:
                        left_out[reason] = left_out.get(reason, 0) + 1
                    else:
                        found.append(mutant)
    return found, left_out


def sample(mutants: list[Generated], size: int, seed: int) -> list[Generated]:
    """`size` mutants drawn one at a time with `seed`, in the order drawn: a larger sample with the same seed
    extends a smaller one, and a run cut short by the budget is still a random sample."""
    rng, chosen, seen = random.Random(seed), [], set()
    while len(chosen) < min(size, len(mutants)):
        index = rng.randrange(len(mutants))
        if index not in seen:
            seen.add(index)
            chosen.append(mutants[index])
    return chosen


def mutated(texts: dict[str, str], mutant: Generated) -> str | None:
    """The module's source with the mutation made, or None when cosmic-ray makes none there."""
    import cosmic_ray.plugins as plugins
    from cosmic_ray.mutating import mutate_code

    return mutate_code(texts[mutant.module], plugins.get_operator(mutant.operator)(), mutant.occurrence)


def change(before: str, after: str) -> tuple[str, str]:
    """The edited line(s), before and after, stripped: what a reader needs to see the mutant."""
    old, new = before.splitlines(), after.splitlines()
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += old[i1:i2]
            added += new[j1:j2]
    return " / ".join(s.strip() for s in removed if s.strip()), " / ".join(s.strip() for s in added if s.strip())


# -- the mutant behind the reference engine's adapter ------------------------------------------------------------

class _SourceFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves `azul_reference_mutant` and its modules from source texts: nothing is written to disk."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def find_spec(self, fullname, path=None, _target=None):
        if fullname == PACKAGE:
            return importlib.util.spec_from_loader(fullname, self, origin="__init__.py", is_package=True)
        module = fullname.removeprefix(PACKAGE + ".") + ".py"
        if fullname.startswith(PACKAGE + ".") and module in self.texts:
            return importlib.util.spec_from_loader(fullname, self, origin=module)
        return None

    def create_module(self, _spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        origin = module.__spec__.origin
        exec(compile(self.texts[origin], f"reference_impl/{origin} (mutant)", "exec"), module.__dict__)  # noqa: S102


def load_package(texts: dict[str, str]):
    """The engine built from `texts`, imported as `azul_reference_mutant` (replacing one loaded before)."""
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _SourceFinder)]
    sys.meta_path.insert(0, _SourceFinder(texts))
    return importlib.import_module(PACKAGE)


def mutant_engine(package, seed: int = 0):
    """The reference engine's adapter running `package` in place of azul_reference during its own calls."""
    from contextlib import contextmanager

    from azul_conformance.engines import reference
    from azul_conformance.mutants.patching import WithinEngine

    @contextmanager
    def swapped():
        real, reference.ref = reference.ref, package
        try:
            yield
        finally:
            reference.ref = real

    return WithinEngine(swapped, seed)


# -- running -----------------------------------------------------------------------------------------------------

def phases(examples: int, seed: int, properties: bool = True) -> list[tuple[str, list]]:
    """The default suite's cases in the order they meet a mutant: scenarios, properties, new scenarios."""
    from azul_conformance.harness.session import Session, collect
    from azul_conformance.results import CaseKind

    cases = collect(Session(examples=examples, seed=seed, properties=properties)).cases
    scenarios = [c for c in cases if c.kind is CaseKind.SCENARIO]
    new = [c for c in scenarios if Path(c.where.split(":")[0]).name.startswith(NEW_SCENARIOS)]
    return [("scenarios", [c for c in scenarios if c not in new]),
            ("properties", [c for c in cases if c.kind is CaseKind.PROPERTY]),
            ("new scenarios", new)]


def verdicts(texts: dict[str, str], mutant: Generated | None, cases, examples: int = 50, seed: int = 0,
             stop: bool = True):
    """(case id, bad?) for `cases` run against the mutant (None: the unmutated engine), until the first bad one
    when `stop`. Raises whatever the mutant raises on import."""
    from azul_conformance.harness.runner import RunOptions, run_case

    if mutant is not None:
        texts = {**texts, mutant.module: mutated(texts, mutant)}
    engine = mutant_engine(load_package(texts), seed)
    options = RunOptions(examples=examples, seed=seed)
    for case in cases:
        bad = run_case(engine, case, engine.info.capabilities, options).verdict.bad
        yield case.id, bad
        if bad and stop:
            return


def first_killer(texts, mutant, run_phases, examples: int, seed: int) -> tuple[str, str] | None:
    """(phase, what) of the first thing that judges the mutant bad, or None when it survives."""
    flat = [(phase, case) for phase, cases in run_phases for case in cases]
    phase_of = {case.id: phase for phase, case in flat}
    try:
        for case_id, bad in verdicts(texts, mutant, [case for _, case in flat], examples, seed):
            if bad:
                return phase_of[case_id], case_id
    except Exception as error:  # noqa: BLE001 - the mutant cannot even be imported: any engine check notices
        return "load", f"{type(error).__name__} on import: {error}"[:200]
    return None


def run(texts, mutants, run_phases, jobs: int, examples: int, seed: int, limit: float, budget: float,
        on_result) -> dict[str, dict]:
    """Each mutant in a forked process (azul_conformance.processes), `jobs` at a time; none is started once
    `budget` seconds have gone."""
    results: dict[str, dict] = {}

    def work(mutant: Generated) -> tuple:
        started = time.perf_counter()
        killer = first_killer(texts, mutant, run_phases, examples, seed)
        return killer, round(time.perf_counter() - started, 2)

    def answered(mutant: Generated, answer) -> None:
        if isinstance(answer, Ended) and answer.overran:
            outcome = ("timeout", None, f"still running after {limit:g} s: stopped", answer.seconds)
        elif isinstance(answer, Ended):  # the mutant took its process down (runaway recursion or memory): noticed
            outcome = ("killed", "crash", f"the process died (exit code {answer.exit_code})", answer.seconds)
        else:
            killer, seconds = answer
            outcome = ("killed" if killer else "survived", *(killer or (None, None)), seconds)
        results[mutant.key] = dict(zip(("outcome", "phase", "killed_by", "seconds"), outcome))
        on_result(mutant, results[mutant.key])

    for mutant in each_in_a_process(mutants, work, answered, jobs, limit, budget):
        results[mutant.key] = {"outcome": "not_run", "phase": None, "killed_by": None, "seconds": 0.0}
    return results


# -- results -----------------------------------------------------------------------------------------------------

def read_yaml(path: Path, default):
    if not path.exists():
        return default
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise SystemExit(f"{path}: not readable YAML: {error}") from None


def classifications(folder: Path) -> dict[str, dict]:
    """The hand classification of the survivors, by key; a malformed entry stops the run with its place."""
    path = folder / SURVIVORS
    entries = read_yaml(path, []) or []
    found = {}
    for index, entry in enumerate(entries):
        where = f"{path}: entry {index + 1}"
        if not isinstance(entry, dict) or not {"key", "class", "reason"} <= set(entry):
            raise SystemExit(f"{where}: needs key, class and reason")
        if entry["class"] not in CLASSES:
            raise SystemExit(f"{where} ({entry['key']}): class must be one of {', '.join(CLASSES)}")
        if entry["key"] in found:
            raise SystemExit(f"{where}: {entry['key']} is classified twice")
        found[entry["key"]] = entry
    return found


def summary(mutants: list[dict]) -> dict:
    """The counts, and two scores: killed among the mutants neither equivalent nor out of scope (`score`), and
    killed among those not equivalent, out of scope counted as survivors (`score_not_equivalent`)."""
    count = {name: sum(1 for m in mutants if m["outcome"] == name) for name in ("killed", "timeout", "survived",
                                                                                 "not_run")}
    by_class = {name: sum(1 for m in mutants if m.get("class") == name) for name in CLASSES}
    new = sum(1 for m in mutants if m.get("phase") == "new scenarios")
    killed = count["killed"] + count["timeout"]
    run = killed + count["survived"]
    counted = run - sum(by_class.values())
    return {**count, "killed_by_new_scenarios": new, **by_class,
            "unclassified": sum(1 for m in mutants if m["outcome"] == "survived" and not m.get("class")),
            "score": round(killed / counted, 4) if counted else None,
            "score_not_equivalent": round(killed / (run - by_class["equivalent"]), 4) if counted else None}


def classify(mutants: list[dict], classified: dict[str, dict]) -> list[dict]:
    """The records with the hand classification of each survivor merged in (afresh)."""
    out = []
    for record in mutants:
        record = {k: v for k, v in record.items() if k not in ("class", "reason")}
        hand = classified.get(record["key"])
        if record["outcome"] == "survived" and hand:
            record["class"], record["reason"] = hand["class"], hand["reason"]
        out.append(record)
    return out


def records(texts, chosen: list[Generated], results: dict[str, dict], classified: dict[str, dict]) -> list[dict]:
    out = []
    for mutant in chosen:
        before, after = change(texts[mutant.module], mutated(texts, mutant) or texts[mutant.module])
        out.append({"key": mutant.key, "module": mutant.module, "line": mutant.line, "operator": mutant.operator,
                    "before": before, "after": after, **results[mutant.key]})
    return classify(sorted(out, key=lambda r: (r["module"], r["line"], r["key"])), classified)


def page(document: dict) -> str:
    """The docs page: the campaign in numbers, the survivors with their reasons, the new scenarios' kills."""
    s, mutants = document["summary"], document["mutants"]
    lines = [
        "# Generated mutants of the reference engine",
        "",
        "<!-- Written by benchmarks/generated_mutants.py from generated.yaml: do not edit by hand. -->",
        "",
        f"{document['tool']} made every mutation its operators allow in `reference_impl/` "
        f"({document['population']['in_campaign']} in the campaign's code); a sample of {document['sample']} "
        f"(seed {document['seed']}) ran against the default suite in-process: scenarios first, then the "
        f"properties ({document['examples']} games each), then the scenarios written for this campaign, each only "
        "for the mutants still alive. The hand-written wrong readings of the rules are `azul mutants`.",
        "",
        f"**Score: {s['score']:.1%}** of the mutants neither equivalent nor out of scope are killed; "
        f"**{s['score_not_equivalent']:.1%}** of those not equivalent, counting the out-of-scope survivors as "
        f"survivors ({s['killed'] + s['timeout']} killed, {s['survived']} survived: {s['equivalent']} equivalent, "
        f"{s['out_of_scope']} out of scope, {s['unclassified']} unclassified; {s['not_run']} not run). "
        + (f"The properties played {document['examples']} games each where `azul conform` plays 50, so a mutant "
           "that only a longer run would catch counts as a survivor here: the scores are lower bounds."
           if document["properties"] else "The properties did not run (`--no-properties`).")
        if s["score"] is not None else "No mutant was run.",
        "",
        "| outcome | mutants |",
        "| --- | --- |",
    ]
    first = {phase: sum(1 for m in mutants if m.get("phase") == phase) for phase in PHASES}
    lines += [f"| killed in phase *{phase}* | {first[phase]} |" for phase in PHASES]
    lines += [f"| hung (stopped after {document['limit']:g} s) | {s['timeout']} |",
              f"| survived | {s['survived']} |", f"| not run (time budget) | {s['not_run']} |", ""]
    left = document["population"]["left_out"]
    if left:
        lines += ["Left out of the campaign:", ""]
        lines += [f"- **{name}** ({count} mutants): {document['population']['why'][name]}"
                  for name, count in left.items()]
        lines.append("")
    lines += [f"Run on reference_impl/ {document['reference']} in {document['seconds']:.0f} s, {document['jobs']} "
              f"at a time, load average {document['load']}. Again: `python benchmarks/generated_mutants.py`.", ""]

    def table(title: str, rows: list[dict], last: str) -> None:
        if not rows:
            return
        lines.extend([f"## {title}", "", f"| mutant | line | before | after | {last} |",
                      "| --- | --- | --- | --- | --- |"])
        for m in rows:
            note = m.get("reason") if last == "why" else m.get("killed_by")
            cells = [m["key"], str(m["line"]), _code(m["before"]), _code(m["after"]), (note or "").replace("|", "\\|")]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")

    table("Killed only by the scenarios written for them", [m for m in mutants if m.get("phase") == "new scenarios"],
          "killed by")
    for name in CLASSES:
        table(f"Survivors: {name.replace('_', ' ')}", [m for m in mutants if m.get("class") == name], "why")
    table("Survivors not yet classified", [m for m in mutants if m["outcome"] == "survived" and not m.get("class")],
          "why")
    return "\n".join(lines)


def _code(text: str) -> str:
    """A code span in a table cell (Python-Markdown keeps a `|` inside one; a backtick needs the double form)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`" if text else "(nothing)"


def write(folder: Path, document: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(document, sort_keys=False, width=120, allow_unicode=True)
    (folder / RESULTS).write_text("# Written by benchmarks/generated_mutants.py: do not edit by hand (survivors are "
                                  "classified in survivors.yaml).\n" + text, encoding="utf-8")
    (folder / PAGE).write_text(page(document), encoding="utf-8")


def problems(folder: Path) -> list[str]:
    """What is wrong with the campaign in `folder`: unclassified survivors, classifications of nothing, a summary
    or a page out of sync."""
    document = read_yaml(folder / RESULTS, None)
    if not isinstance(document, dict):
        return [f"{folder / RESULTS}: no campaign results"]
    found = []
    mutants = document["mutants"]
    keys = {m["key"]: m for m in mutants}
    classified = classifications(folder)
    for m in mutants:
        if m["outcome"] == "survived" and m["key"] not in classified:
            found.append(f"{m['key']}: survived and is not classified in {SURVIVORS}")
    for key, entry in classified.items():
        if keys.get(key, {}).get("outcome") != "survived":
            found.append(f"{SURVIVORS}: {key} is classified but is no survivor of the campaign")
        elif entry.get("after") is not None and entry["after"] != keys[key]["after"]:
            found.append(f"{SURVIVORS}: {key} was classified as `{entry['after']}`, the campaign made "
                         f"`{keys[key]['after']}`")
    if summary(mutants) != document["summary"]:
        found.append(f"{RESULTS}: the summary does not add up: {summary(mutants)}")
    if (folder / PAGE).read_text(encoding="utf-8") != page(document):
        found.append(f"{PAGE} is out of date: run `python benchmarks/generated_mutants.py --refresh`")
    return found


def locate(texts: dict[str, str], record: dict, mutants: list[Generated]) -> Generated | None:
    """The mutant of `record` among `mutants` of this source: same key, same edit; None if the code changed."""
    for mutant in mutants:
        if mutant.key == record["key"]:
            after = mutated(texts, mutant)
            if after is not None and change(texts[mutant.module], after) == (record["before"], record["after"]):
                return mutant
    return None


def false_claims(folder: Path, texts: dict[str, str]) -> tuple[list[str], int, int]:
    """Each kill the campaign credits to a scenario written for it, tried again on this source: the scenario
    must pass on the engine and fail on the mutant. Returns (what does not hold, claims, claims located)."""
    from azul_conformance.harness.session import Session, collect

    document = read_yaml(folder / RESULTS, {}) or {}
    claims = [m for m in document.get("mutants", []) if m.get("phase") == "new scenarios"]
    if not claims:
        return [], 0, 0
    cases = {case.id: case for case in collect(Session(properties=False)).cases}
    mutants = population(texts)[0]
    found, located = [], 0
    for record in claims:
        case = cases.get(record["killed_by"])
        if case is None:
            found.append(f"{record['key']}: killed by {record['killed_by']}, which is no scenario of the corpus")
            continue
        mutant = locate(texts, record, mutants)
        if mutant is None:
            continue  # the engine changed under this mutant: nothing to try
        located += 1
        if dict(verdicts(texts, None, [case])) != {case.id: False}:
            found.append(f"{case.id} fails on the unmutated engine")
        if dict(verdicts(texts, mutant, [case])) != {case.id: True}:
            found.append(f"{record['key']}: {case.id} no longer kills it")
    return found, len(claims), located


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, metavar="N",
                        help="mutants drawn (default: 150); with --rerun not_run, a larger N extends the last sample")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw and of the properties (default: 0)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="mutants at once, one process each (default: 2)")
    parser.add_argument("--examples", type=int, default=20,
                        help="games per property (default: 20; azul conform plays 50, so a mutant only the 50th "
                             "game would catch counts as a survivor: the score is a lower bound)")
    parser.add_argument("--no-properties", action="store_true", help="scenarios only: a quick look")
    parser.add_argument("--limit", type=float, default=600.0, metavar="S",
                        help="seconds one mutant may run; then it is stopped and counted as a hang (default: 600)")
    parser.add_argument("--budget", type=float, default=3600.0, metavar="S",
                        help="seconds after which no further mutant is started (default: 3600); those left are "
                             "recorded as not_run")
    parser.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                        help=f"where generated.yaml and generated.md go (default: {OUT.relative_to(ROOT)}); "
                             "survivors.yaml is read from there")
    parser.add_argument("--rerun", choices=("survived", "not_run"),
                        help="run again only the mutants of the last campaign in DIR with this outcome (after new "
                             "scenarios: `survived`), keeping the other results")
    parser.add_argument("--only", action="append", metavar="KEY",
                        help="with --rerun: only this mutant (repeat for more): the survivor a new scenario is for")
    parser.add_argument("--show", metavar="KEY", help="print one mutant's diff and stop")
    parser.add_argument("--check", action="store_true",
                        help="check the campaign in DIR and stop: every survivor classified, every classification "
                             "a survivor's, the summary and the page in sync")
    parser.add_argument("--refresh", action="store_true",
                        help="merge survivors.yaml into the campaign in DIR afresh, recount and rewrite the page, "
                             "running no mutant (after classifying survivors)")
    args = parser.parse_args(argv)
    texts = sources()
    if args.refresh:
        document = read_yaml(args.out / RESULTS, None)
        if not isinstance(document, dict):
            raise SystemExit(f"--refresh: no campaign in {args.out / RESULTS}")
        document["mutants"] = classify(document["mutants"], classifications(args.out))
        document["summary"] = summary(document["mutants"])
        write(args.out, document)
        print(f"{args.out}: {document['summary']}")
        return 0
    if args.check:
        found = problems(args.out)
        wrong, claimed, located = false_claims(args.out, texts)
        found += wrong
        if located < claimed:
            print(f"{claimed - located} of the {claimed} kills by new scenarios are of code that has changed since: "
                  "not tried (run the campaign again)")
        for problem in found:
            print(problem)
        print(f"{args.out / RESULTS}: {'consistent' if not found else f'{len(found)} problem(s)'}")
        return 1 if found else 0
    everything, left_out = population(texts)
    if args.show:
        match = [m for m in everything if m.key == args.show]
        if not match:
            raise SystemExit(f"--show {args.show}: no such mutant in the current source (keys look like "
                             f"{everything[0].key})")
        (mutant,) = match
        sys.stdout.writelines(difflib.unified_diff(texts[mutant.module].splitlines(True),
                                                   mutated(texts, mutant).splitlines(True),
                                                   f"a/reference_impl/{mutant.module}",
                                                   f"b/reference_impl/{mutant.module}", n=2))
        return 0
    previous = read_yaml(args.out / RESULTS, None) if args.rerun else None
    if args.rerun:
        if not previous:
            raise SystemExit(f"--rerun: no campaign in {args.out / RESULTS}")
        args.seed, args.examples = previous["seed"], previous["examples"]
        before = {m["key"]: m["outcome"] for m in previous["mutants"]}
        drawn = sample(everything, max(previous["sample"], args.sample or 0), args.seed)
        chosen = [m for m in drawn if before.get(m.key, "not_run") == args.rerun
                  and (not args.only or m.key in args.only)]
    else:
        drawn = chosen = sample(everything, args.sample or 150, args.seed)
    run_phases = phases(args.examples, args.seed, not args.no_properties)
    baseline = [case for case, bad in verdicts(texts, None, run_phases[0][1] + run_phases[2][1], stop=False) if bad]
    if baseline:  # also warms up what the first scenario of every forked worker would load again
        raise SystemExit(f"the unmutated engine fails {', '.join(baseline)}: fix that before measuring mutants")
    print(f"{len(everything)} mutants in the campaign's code ({sum(left_out.values())} left out), {len(chosen)} to "
          f"run (seed {args.seed}), {args.jobs} at a time; phases: "
          + ", ".join(f"{name} ({len(cases)})" for name, cases in run_phases), flush=True)
    started, done = time.perf_counter(), [0]

    def show(mutant: Generated, result: dict) -> None:
        done[0] += 1
        how = {"killed": f"killed ({result['phase']}: {result['killed_by']})", "survived": "SURVIVED",
               "timeout": "killed (hung)"}[result["outcome"]]
        print(f"[{done[0]}/{len(chosen)}] {mutant.key} (line {mutant.line}): {how} {result['seconds']:.1f} s "
              f"[{time.perf_counter() - started:.0f} s]", flush=True)

    results = run(texts, chosen, run_phases, args.jobs, args.examples, args.seed, args.limit, args.budget, show)
    if previous:
        kept = {m["key"]: {k: m[k] for k in ("outcome", "phase", "killed_by", "seconds")} for m in previous["mutants"]}
        results = {**kept, **results}
    classified = classifications(args.out)
    mutants = records(texts, drawn, results, classified)
    document = {
        "tool": f"cosmic-ray {_version('cosmic-ray')}",
        "reference": digest(texts),
        "seed": args.seed, "sample": len(drawn), "examples": args.examples, "jobs": args.jobs,
        "properties": not args.no_properties, "limit": args.limit, "budget": args.budget,
        "seconds": round(time.perf_counter() - started + (previous["seconds"] if previous else 0), 1),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "population": {"in_campaign": len(everything), "left_out": left_out,
                       "why": {k: v for k, v in out_of_campaign(texts).items() if k in left_out}},
        "summary": summary(mutants),
        "mutants": mutants,
    }
    write(args.out, document)
    s = document["summary"]
    print(f"\n{s['killed'] + s['timeout']} killed ({s['killed_by_new_scenarios']} only by the new scenarios), "
          f"{s['survived']} survived ({s['equivalent']} equivalent, {s['out_of_scope']} out of scope, "
          f"{s['unclassified']} to classify), {s['not_run']} not run: score "
          + (f"{s['score']:.1%}" if s["score"] is not None else "-") + f"; written to {args.out}/")
    for m in mutants:
        if m["outcome"] == "survived" and not m.get("class"):
            print(f"  to classify: {m['key']} line {m['line']}: `{m['before']}` -> `{m['after']}`")
    return 0


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    sys.exit(main())
