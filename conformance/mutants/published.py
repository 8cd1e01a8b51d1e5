"""The suite's published catch power: which cases kill each rule-level mutant, and the mutation score.

`measure()` runs every mutant of the catalogue against every scenario of the corpus and against the targeted
properties of its rule (in this process: a fraction of a second a mutant and scenario set), and `write()` keeps
the outcome in results.json beside this module, with the suite version it was measured on. The docs page
"Catch power" and the header of every `azul conform` report read it from there (`load`, `mutation_score`);
tests/test_mutants.py checks that it names the catalogue's mutants and that every case it lists still kills
its mutant. Regenerate it with `azul mutants --results` after changing the mutants or the scenarios.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ..harness.header import suite_version
from ..harness.runner import RunOptions, run_case
from ..harness.session import Session, collect
from ..results import CaseKind
from .catalogue import MUTANTS, Mutant
from .patching import MutantEngine

RESULTS = Path(__file__).with_name("results.json")
FORMAT = "azul-mutation/1"


def measure(mutants: Iterable[Mutant] = MUTANTS, examples: int = 50, seed: int = 0) -> dict[str, Any]:
    """Every mutant against every scenario and against the targeted properties of its rule."""
    cases = collect(Session(examples=examples, seed=seed)).cases
    scenarios = [c for c in cases if c.kind is CaseKind.SCENARIO]
    targeted = [c for c in cases if c.kind is CaseKind.PROPERTY and c.id.startswith("targeted-")]
    options = RunOptions(examples=examples, seed=seed)
    entries = []
    for mutant in mutants:
        engine = MutantEngine(mutant, seed)
        killing = [c for c in scenarios + [t for t in targeted if mutant.rule in t.rules]
                   if run_case(engine, c, engine.info.capabilities, options).verdict.bad]
        killers = [c.id for c in sorted(killing, key=lambda c: mutant.rule not in c.rules)]  # its rule's first
        entries.append({"id": mutant.id, "rule": mutant.rule, "source": mutant.source,
                        "description": mutant.description, "killed_by": killers})
    killed = sum(bool(entry["killed_by"]) for entry in entries)
    return {"format": FORMAT, "suite_version": suite_version(), "examples": examples, "seed": seed,
            "killed": killed, "total": len(entries), "mutants": entries}


def write(results: dict[str, Any], path: Path = RESULTS) -> None:
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load(path: Path = RESULTS) -> dict[str, Any] | None:
    """The committed results, or None when there are none (or they cannot be read)."""
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return results if isinstance(results, dict) and results.get("format") == FORMAT else None


def score_text(results: dict[str, Any] | None) -> str:
    """`98.7% (77 of 78 rule-level mutants killed)`, or a plain statement that none was measured."""
    if not results or not results.get("total"):
        return "not measured"
    return (f"{results['killed'] / results['total']:.1%} ({results['killed']} of {results['total']} rule-level "
            f"mutants killed)")


def mutation_score(scenario_paths: Iterable[str | Path] | None = None) -> dict[str, Any] | None:
    """What a conformance report's header says of the suite's published catch power, which `azul conform`
    passes to the run (Session.mutation_score); None for a run on other scenario files than the bundled suite
    it was measured on, or when none was measured."""
    results = None if scenario_paths else load()
    if not results:
        return None
    return {"killed": results["killed"], "total": results["total"],
            "score": round(results["killed"] / results["total"], 4) if results["total"] else None,
            "measured_on": results["suite_version"]}
