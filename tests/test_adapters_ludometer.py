"""ludometer's Python engine and its JavaScript port through their adapters (adapters/ludometer-py, -js): each
builds, passes azul smoke, and the three ways of running them (Python over the protocol, Python in-process,
the JavaScript port over the protocol) give the same verdict on every case of the suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from adapter_runs import smoke_output
from azul_conformance.engines import Rejected
from azul_conformance.engines.subprocess import ProcessEngine
from azul_conformance.harness.report import read_report

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / "adapters" / "ludometer-py"
JS = ROOT / "adapters" / "ludometer-js"
ENGINE = Path(os.environ.get("LUDOMETER_ROOT") or ROOT.parent / "shared" / "engines" / "ludometer")

pytestmark = pytest.mark.third_party


@pytest.fixture(scope="module")
def venv():
    if not (ENGINE / "ludometer" / "azul" / "engine.py").exists() and not os.environ.get("CI"):
        pytest.skip(f"ludometer is not at {ENGINE}")
    subprocess.run([str(PY / "build")], check=True, timeout=900, capture_output=True)
    return PY / ".build" / "venv" / "bin"


def node() -> str:
    found = shutil.which("node")
    if found is None and not os.environ.get("CI"):
        pytest.skip("Node.js is absent; CI runs this test")
    return found


def verdicts(bin_dir: Path, engine: str, folder: Path) -> dict[str, str]:
    # the build venv's azul: it has numpy, which the in-process engine needs in the suite's own process
    result = subprocess.run([str(bin_dir / "azul"), "conform", "--engine", engine, "--examples", "3",
                             "--report-dir", str(folder), "--format", "jsonl"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]  # ROUND-3 fails
    return {r.id: r.verdict for r in read_report(folder / "report.jsonl").results}


def test_both_adapters_pass_smoke(venv):
    subprocess.run([str(JS / "build")], check=True, timeout=120, capture_output=True, env={
        **os.environ, "NODE": node()})
    for command in (f"{venv / 'python'} {PY / 'adapter.py'}", f"{node()} {JS / 'adapter.mjs'}"):
        smoke_output(command)


def test_python_over_the_protocol_in_process_and_the_port_agree_case_by_case(venv, tmp_path):
    protocol = verdicts(venv, f"{venv / 'python'} {PY / 'adapter.py'}", tmp_path / "py")
    in_process = verdicts(venv, f"py:{PY / 'inprocess.py'}:make_engine", tmp_path / "inproc")
    port = verdicts(venv, f"{node()} {JS / 'adapter.mjs'}", tmp_path / "js")
    assert protocol == in_process == port
    assert protocol["edge-round-without-centre-take"] == "fail"  # ROUND-3, a ruling the engine does not follow
    assert {v for v in protocol.values()} == {"pass", "fail", "skip"}
    assert sum(v == "pass" for v in protocol.values()) > 100


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_a_given_deal_is_drawn_by_the_engine_or_refused_with_nothing_changed(venv, language):
    command = f"{venv / 'python'} {PY / 'adapter.py'}" if language == "python" else f"{node()} {JS / 'adapter.mjs'}"
    with ProcessEngine(command) as engine:
        fresh = engine.new_game(2, start_player=1)
        # a short factory while tiles remain: the engine's draw always fills four
        with pytest.raises(Rejected) as refused:
            engine.deal(["BBBB", "BBB", "BBBB", "BBBB", "BBBB"])
        assert refused.value.code == "illegal_move" and engine.state() == fresh
        dealt = engine.deal(["BBBB", "BBBB", "YBBB", "BBBB", "RBBB"])
        assert dealt["factories"] == ["BBBB", "BBBB", "BBBY", "BBBB", "BBBR"] and dealt["turn"] == 1
        assert dealt["bag"].count("B") == 2 and len(dealt["bag"]) == 80
