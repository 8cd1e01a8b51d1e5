"""The suite's published catch power: which cases kill each rule-level mutant, and the mutation score.

`measure()` runs every mutant of the catalogue against every scenario of the corpus and against the targeted
properties of its rule (in this process: a fraction of a second a mutant and scenario set), and `write()` keeps
the outcome in results.json beside this module, with the suite version it was measured on. The docs page
"Catch power" and the header of every conformance report read it from there (`load`, `header_fields`);
tests/test_mutants.py checks that it names the catalogue's mutants and that every case it lists still kills
its mutant. Regenerate it with `azul mutants --results` after changing the mutants or the scenarios.
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from .catalogue import MUTANTS, Mutant

RESULTS = Path(__file__).with_name("results.json")
FORMAT = "azul-mutation/1"


def suite_version(scenario_paths: Iterable[str | Path] | None = None) -> str:
    """The package version and a fingerprint of the suite: the bytes of its scenario files (the bundled corpus
    unless others are named) and its properties' ids, e.g. `0.1.0+3f2a9c01`. Two runs with the same suite
    version ran the same cases; a report says which suite judged the engine."""
    from ..properties.suite import PROPERTIES
    from ..scenario import scenario_files

    try:
        version = metadata.version("azul-conformance")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        version = "0+unknown"
    digest = hashlib.sha256()
    for path in scenario_files(list(scenario_paths) if scenario_paths else None):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(" ".join(p.id for p in PROPERTIES).encode())
    return f"{version}+{digest.hexdigest()[:8]}"


def measure(mutants: Iterable[Mutant] = MUTANTS, examples: int = 50, seed: int = 0) -> dict[str, Any]:
    """Every mutant against every scenario and against the targeted properties of its rule."""
    from ..harness.runner import RunOptions, run_case
    from ..harness.session import Session, collect
    from ..results import CaseKind
    from .patching import MutantEngine

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


def header_fields(scenario_paths: Iterable[str | Path] | None = None) -> dict[str, Any]:
    """What a conformance report's header says about the suite: its version and its published catch power
    (measured on the bundled suite: left out for a run on other scenario files)."""
    results = None if scenario_paths else load()
    fields: dict[str, Any] = {"suite_version": suite_version(scenario_paths)}
    if results:
        fields["mutation_score"] = {"killed": results["killed"], "total": results["total"],
                                    "score": round(results["killed"] / results["total"], 4) if results["total"]
                                    else None, "measured_on": results["suite_version"]}
    return fields
