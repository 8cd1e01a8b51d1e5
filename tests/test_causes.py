"""The causes behind the published engines' failures (docs/reports/<engine>/causes.yaml): the test data the
diagnosis is scored against. Each file must account for every failing case of the committed report exactly once,
name real rules and catalogue misreadings, and keep its `also` notes to cases and causes of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from azul_conformance.mutants import BY_ID

ROOT = Path(__file__).resolve().parents[1]
ENGINES = tuple(sorted(path.parent.name for path in (ROOT / "docs" / "reports").glob("*/causes.yaml")))
BAD = {"fail", "error", "crash", "timeout"}
KINDS = {"misreading", "engine-fault", "adapter", "implementation-defined"}
REQUIRED = {"cause", "rule", "kind", "description", "mutant", "cases"}
OPTIONAL = {"where", "also", "note"}
RULES = {rule["id"] for path in sorted((ROOT / "spec" / "rules").glob("*.yaml"))
         for rule in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]}


def failing_cases(engine: str) -> list[str]:
    rows = (json.loads(line) for line in (ROOT / "docs" / "reports" / engine / "report.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip())
    return [row["id"] for row in rows if row.get("type") == "case" and row["verdict"] in BAD]


def causes(engine: str) -> list[dict]:
    return yaml.safe_load((ROOT / "docs" / "reports" / engine / "causes.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("engine", ENGINES)
def test_each_cause_has_the_fields_of_the_format(engine):
    entries = causes(engine)
    assert isinstance(entries, list) and entries
    names = [entry["cause"] for entry in entries]
    assert len(names) == len(set(names)), f"{engine}: a cause id twice"
    for entry in entries:
        assert REQUIRED <= set(entry) <= REQUIRED | OPTIONAL, (engine, entry["cause"], set(entry) ^ REQUIRED)
        assert entry["rule"] in RULES, (engine, entry["cause"], entry["rule"])
        assert entry["kind"] in KINDS, (engine, entry["cause"], entry["kind"])
        assert isinstance(entry["description"], str) and len(entry["description"]) > 20
        assert isinstance(entry["cases"], list) and entry["cases"], (engine, entry["cause"])
        if entry["kind"] == "misreading":  # named by the catalogue mutant that reads the same rule the same way
            assert entry["mutant"] in BY_ID, (engine, entry["cause"], entry["mutant"])
            assert BY_ID[entry["mutant"]].rule == entry["rule"], (engine, entry["cause"])
        else:
            assert entry["mutant"] is None, (engine, entry["cause"])
        for case, others in (entry.get("also") or {}).items():
            assert case in entry["cases"], (engine, entry["cause"], case)  # noted where the case is listed
            assert others and set(others) <= set(names) - {entry["cause"]}, (engine, entry["cause"], others)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_failing_case_of_the_report_is_explained_once(engine):
    failing = failing_cases(engine)
    listed = [case for entry in causes(engine) for case in entry["cases"]]
    assert failing, f"{engine}: the committed report has no failing case"
    twice = sorted({case for case in listed if listed.count(case) > 1})
    assert not twice, f"{engine}: under two causes: {twice}"
    assert sorted(set(failing) - set(listed)) == [], f"{engine}: failing cases with no cause"
    assert sorted(set(listed) - set(failing)) == [], f"{engine}: listed cases that do not fail in the report"


def _eval_causes():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("eval_causes", ROOT / "benchmarks" / "eval_causes.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_causes"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("engine", ENGINES)
def test_each_write_up_says_how_the_diagnosis_did_on_its_engine(engine):
    scores = _eval_causes()
    page = scores.write_up(engine)
    text = page.read_text(encoding="utf-8")
    assert scores.write_up_with_misses(engine, text) == text, "run benchmarks/eval_causes.py --json ..."
    block = text.split(scores.START.format(engine), 1)[1].split(scores.END.format(engine), 1)[0]
    for miss in scores.misses(engine):
        assert f"`{miss['case']}` ({miss['instead']})" in block


def test_a_write_up_without_its_block_is_named():
    scores = _eval_causes()
    with pytest.raises(SystemExit, match="myzul-ts: its write-up has no"):
        scores.write_up_with_misses("myzul-ts", "# a write-up\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_every_case_the_diagnosis_misses_or_misnames_is_explained_by_its_cause(engine):
    unexplained = [(miss["cause"], miss["case"]) for miss in _eval_causes().misses(engine) if not miss["note"]]
    assert not unexplained, f"{engine}: give these causes a note saying why the diagnosis misses them: {unexplained}"
