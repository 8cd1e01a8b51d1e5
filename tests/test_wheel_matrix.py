"""The release build matrix (.github/workflows/wheels.yml with [tool.cibuildwheel] in pyproject.toml) covers
every Python the project supports on the three platforms, requires compilation in its compiled cells, and
builds the pure wheel beside them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_matrix_builds_a_compiled_wheel_per_supported_python_and_platform():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    matrix = project["tool"]["cibuildwheel"]
    oldest = int(re.search(r">=\s*3\.(\d+)", project["project"]["requires-python"]).group(1))
    assert matrix["build"].split() == [f"cp3{minor}-*" for minor in range(oldest, 14)]
    assert matrix["environment"] == {"AZUL_COMPILE": "1"}  # a cell that cannot compile fails
    assert "azul_reference.fast" in matrix["test-command"]
    assert "mypy>=1.10" in project["build-system"]["requires"]  # mypyc in every isolated build
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8"))
    compiled = workflow["jobs"]["compiled"]
    systems = compiled["strategy"]["matrix"]["os"]
    assert {s.split("-")[0] for s in systems} == {"ubuntu", "macos", "windows"}
    assert any(step.get("uses", "").startswith("pypa/cibuildwheel@") for step in compiled["steps"])
    assert any("build_wheel.py --pure" in step.get("run", "") for step in workflow["jobs"]["pure"]["steps"])
