"""The distribution: every package is shipped, the dependency direction holds, and an installed wheel works
outside the source tree (it finds its rules, grammars and scenarios as package data)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from build_wheel import compiled_fast_path  # noqa: E402

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGE_DIRS = PYPROJECT["tool"]["setuptools"]["package-dir"]  # import name -> folder


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_every_python_package_folder_is_listed_in_pyproject():
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = set()
    for name, folder in PACKAGE_DIRS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join((name, *relative.parts)))
    assert found == listed


def test_the_reference_engine_imports_nothing_of_ours():
    for path in (ROOT / "reference_impl").rglob("*.py"):
        ours = {name for name in imports_of(path) if name.split(".")[0] in ("azul_conformance", "azul_spec")}
        assert not ours, f"{path.relative_to(ROOT)} imports {ours}"


def test_the_suite_reaches_the_reference_engine_only_through_its_adapter():
    bridge = ROOT / "conformance" / "engines" / "reference.py"
    mutants = ROOT / "conformance" / "mutants"  # patches of the reference engine's own code, by design
    for path in (ROOT / "conformance").rglob("*.py"):
        if path == bridge or path.is_relative_to(mutants):
            continue
        uses = {name for name in imports_of(path) if name.split(".")[0] == "azul_reference"}
        assert not uses, f"{path.relative_to(ROOT)} imports {uses}: go through conformance/engines/reference.py"


def test_spec_is_data_only():
    code = [p for p in (ROOT / "spec").rglob("*.py") if p.name != "__init__.py"]
    assert not code
    init = ast.parse((ROOT / "spec" / "__init__.py").read_text(encoding="utf-8"))
    assert len(init.body) == 1 and isinstance(init.body[0], ast.Expr)  # a docstring, nothing else


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                   check=True, timeout=300, capture_output=True)
    (wheel,) = out.glob("azul_conformance-*.whl")
    site = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def run_from_wheel(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}  # ahead of the editable install in site-packages
    code = "import sys; from azul_conformance.cli import main; sys.argv[0] = 'azul'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_a_plain_pip_wheel_carries_the_compiled_fast_path(unpacked_wheel):
    # What a user's `pip wheel .` / `pip install .` builds with no options (build isolation, AZUL_COMPILE
    # unset): the fast path compiled by mypyc, tagged for this Python and platform.
    (wheel,) = unpacked_wheel.parent.glob("azul_conformance-*.whl")
    assert not wheel.name.endswith("-none-any.whl"), wheel.name
    assert compiled_fast_path(wheel), wheel.name


def test_an_installed_wheel_works_outside_the_source_tree(unpacked_wheel, tmp_path):
    names = {p.relative_to(unpacked_wheel).as_posix() for p in unpacked_wheel.rglob("*") if p.is_file()}
    assert "azul_spec/grammar/scenario.lark" in names and "azul_spec/schema/state.schema.json" in names
    assert "azul_spec/versions.yaml" in names and "azul_spec/schema/versions.schema.json" in names
    assert any(n.startswith("azul_conformance/scenarios/offer/") for n in names)
    assert any(n.startswith("azul_conformance/records/samples/") for n in names)
    where = run_from_wheel(unpacked_wheel, tmp_path, "scenarios", "run")
    assert where.returncode == 0, where.stdout + where.stderr
    assert " pass" in where.stdout and "fail" not in where.stdout
    sample = unpacked_wheel / "azul_conformance" / "records" / "samples" / "two-player.azr"
    replayed = run_from_wheel(unpacked_wheel, tmp_path, "replay", str(sample), "--quiet")
    assert replayed.returncode == 0 and "all correct" in replayed.stdout
    located = run_from_wheel(unpacked_wheel, tmp_path, "--version")
    assert located.returncode == 0


def test_an_installed_suite_names_its_scenarios_relative_to_the_suite(unpacked_wheel, tmp_path):
    """Not `../../<venv>/lib/python3.11/site-packages/...`: the same name as in the source tree, from any folder."""
    ran = run_from_wheel(unpacked_wheel, tmp_path, "scenarios", "run", "--only", "offer-marker-first-centre-take",
                         "-v")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "(conformance/scenarios/offer/taking-tiles.yaml:" in ran.stdout and "../" not in ran.stdout
    exported = run_from_wheel(unpacked_wheel, tmp_path, "scenarios", "export", "--json", "-o", "out.json")
    assert exported.returncode == 0, exported.stderr
    files = {s["file"] for s in json.loads((tmp_path / "out.json").read_text())["scenarios"]}
    assert "offer/taking-tiles.yaml" in files and not any(f.startswith(("/", "..", "conformance")) for f in files)
