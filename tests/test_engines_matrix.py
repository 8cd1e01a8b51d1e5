"""CI's check of the conformance matrix: every engine under adapters/ is judged by the whole suite, live where it
installs from a package registry (Python 3.12 venvs from PyPI), from its committed recording where it comes from
a code host (this project holds no such engine's code), and each case's verdict and record (message, game,
counterexample; not its seconds) must be the ones its committed report (docs/reports/<engine>/) holds.
A change to the suite that alters a verdict on a real engine fails here, with the --compare summary, so it is
seen in review; a change that alters the requests of more than 5% of an engine's cases fails too, until whoever
has the engine records it again (`python adapters/run_all.py NAME` with its `needs` set).

Timeouts do not make this flaky: a case that times out live is run again on its own with 30 s a request
(adapters/run_all.py's RETRY_TIMEOUT), and only that verdict counts; one that times out even then is shown in
the summary and not counted (no committed report holds a timeout)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CHECK_TIMEOUT = 1200  # seconds for one engine: a registry engine's install (cached after its own tests)
ADAPTERS = sorted((ROOT / "adapters").glob("*/adapter.yaml"))


def adapter_data() -> list[dict]:
    return [yaml.safe_load(path.read_text(encoding="utf-8")) | {"folder": path.parent} for path in ADAPTERS]


def judged_as(adapter: Path) -> str:
    return yaml.safe_load(adapter.read_text(encoding="utf-8"))["judged"]


@pytest.mark.third_party
@pytest.mark.parametrize("adapter", [a for a in ADAPTERS if judged_as(a) == "recording"],
                         ids=lambda path: path.parent.name)
def test_every_engine_gives_the_verdicts_of_its_committed_report(adapter):
    """One engine a test, so that the test processes share the engines out (each judges its recording again;
    the engines judged live, a minute or two each, are tests/test_engines_live.py's, a file the other test
    processes can take at the same time)."""
    gives_its_committed_verdicts(adapter)


def gives_its_committed_verdicts(adapter: Path) -> None:
    name = yaml.safe_load(adapter.read_text(encoding="utf-8"))["name"]
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2"  # under pytest -n, the test processes fill the cores
    done = subprocess.run([sys.executable, str(ROOT / "adapters" / "run_all.py"), "--check", name, "-j", jobs],
                          cwd=ROOT, capture_output=True, text=True, timeout=CHECK_TIMEOUT)
    assert done.returncode == 0, (
        "a verdict or record of a real engine changed: regenerate with `python adapters/run_all.py` and explain it in "
        f"docs/reports/<engine>.md\n{summary(done.stdout)}\n{done.stderr[-2000:]}")
    assert done.stdout.count("verdicts and records as committed") == 1


def test_every_code_host_engine_has_its_recording_and_nothing_that_builds_it():
    """At least five engines from code hosts are judged from recordings; none of their folders holds a build
    script, a package or module file that finds the engine, or a `source:` naming where the engine's code is."""
    recorded = [data for data in adapter_data() if data["judged"] == "recording"]
    assert len(recorded) >= 5
    for data in recorded:
        folder = data["folder"]
        recording = ROOT / data["recording"]
        assert recording.is_file(), f"{folder.name}: no recording at {data['recording']}"
        with gzip.open(recording, "rt", encoding="utf-8") as handle:
            header = json.loads(handle.readline())
        assert header["format"] == "azul-engine-recording/1" and header["commit"] == data["commit"]
        assert header["upstream"] == data["upstream"] and header["date"]
        assert "source" not in data and "build" not in data
        assert not (folder / "build").exists() and not (folder / "package.json").exists(), folder.name
        for module in folder.glob("go.mod"):
            assert "replace" not in module.read_text(encoding="utf-8"), f"{module}: a replace locates the engine"
    live = [data for data in adapter_data() if data["judged"] == "live"]
    assert live and all("pypi.org" in data["upstream"] for data in live)


def test_nothing_tracked_points_at_an_engines_code_beside_the_repository():
    """../shared/engines keeps only data (ludometer's recorded games): no tracked file names another path there."""
    data = "shared/engines/ludometer/web/player/test/fixtures/games.json.gz"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    found = []
    for name in tracked:
        path = ROOT / name
        if path.suffix in (".gz", ".png", ".svg", ".tar", ".zip") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if "shared/engines/" in line.replace(data, "") and name != Path(__file__).relative_to(ROOT).as_posix():
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


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
    adapter = run_all.Adapter("engine", tmp_path, "live", "engine", committed, "true")
    calls = []

    def run(adapter, folder, examples, compare, jobs=2, extra=(), source="live"):
        calls.append((jobs, extra))
        _report(folder, {"a": "pass", "b": "timeout", "c": "fail"} if not extra else {"b": again})
        return 1.0

    monkeypatch.setattr(run_all, "run", run)
    seconds, found, timing, _ = run_all.check(adapter, tmp_path / "scratch", 10, 2)
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
    adapter = run_all.Adapter("engine", tmp_path, "live", "engine", committed, "true")

    def run(message, counterexample):
        def fake(adapter, folder, examples, compare, jobs=2, extra=(), source="live"):
            report(folder, message, 9.0, counterexample)
            return 1.0
        return fake

    monkeypatch.setattr(run_all, "run", run("wrong score", "game: 1\n"))
    assert run_all.check(adapter, tmp_path / "same", 10, 2)[1] == []
    monkeypatch.setattr(run_all, "run", run("wrong winners", "game: 2\n"))
    assert run_all.check(adapter, tmp_path / "other", 10, 2)[1] == [
        "a: same verdict, other message", "c: same verdict, other counterexample"]


@pytest.mark.parametrize("unjudged, fails", [(1, False), (2, True)])
def test_a_recording_that_leaves_over_five_percent_unjudged_fails_the_check(tmp_path, monkeypatch, unjudged, fails):
    """Cases the recording does not hold are listed, not compared; past 5% of the engine's cases, the check fails
    until the engine is recorded again."""
    sys.path.insert(0, str(ROOT / "adapters"))
    import run_all

    cases = {f"c{i}": "pass" for i in range(30)}
    committed = tmp_path / "committed"
    _report(committed, cases)
    recording = tmp_path / "recording.jsonl.gz"
    recording.write_bytes(b"")
    adapter = run_all.Adapter("engine", tmp_path, "recording", "engine", committed, None, recording)
    sources = []

    def run(adapter, folder, examples, compare, jobs=2, extra=(), source="live"):
        sources.append(source)
        _report(folder, cases)
        lines = (folder / "report.jsonl").read_text().splitlines()
        for i in range(1, unjudged + 1):  # the first cases: asked something else now
            record = json.loads(lines[i])
            record.update(verdict="not_run", message="not recorded: request 3 differs from the recording")
            lines[i] = json.dumps(record)
        (folder / "report.jsonl").write_text("\n".join(lines) + "\n")
        return 1.0

    monkeypatch.setattr(run_all, "run", run)
    _, problems, _, listed = run_all.check(adapter, tmp_path / "scratch", 10, 2)
    assert sources == ["recording"] and len(listed) == unjudged
    assert bool(problems) is fails and (not fails or "record the engine again" in problems[0])
