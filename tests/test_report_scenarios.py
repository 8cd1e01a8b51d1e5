"""The scenarios the engine reports give as reproductions (docs/reports/<engine>/scenarios/) are checked like the
corpus, and the reference engine passes each of them: they state the rules, and the engine's report says where
the engine departs from them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from azul_conformance.cli.scenarios import scenarios

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = sorted(p for p in (ROOT / "docs" / "reports").glob("*/scenarios") if p.is_dir())


def test_there_are_report_scenarios():
    assert {p.parent.name for p in FOLDERS} >= {"ludometer", "azul-marl-env"}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.parent.name)
def test_report_scenarios_are_valid_and_hold_on_the_reference_engine(folder):
    checked = CliRunner().invoke(scenarios, ["check", str(folder), "--no-coverage"])
    assert checked.exit_code == 0 and " 0 problem(s)" in checked.output, checked.output
    ran = CliRunner().invoke(scenarios, ["run", str(folder)])
    assert ran.exit_code == 0, ran.output
