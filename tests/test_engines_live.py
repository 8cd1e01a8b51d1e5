"""CI's check of the conformance matrix, for the engines judged live (installed from a package registry): each
gives the verdicts and records of its committed report (tests/test_engines_matrix.py says how). A file of its
own, so that the test processes judge these, a minute or two each, while others judge the recordings."""

from __future__ import annotations

import pytest

from test_engines_matrix import ADAPTERS, gives_its_committed_verdicts, judged_as


@pytest.mark.third_party
@pytest.mark.parametrize("adapter", [a for a in ADAPTERS if judged_as(a) == "live"], ids=lambda path: path.parent.name)
def test_every_engine_judged_live_gives_the_verdicts_of_its_committed_report(adapter):
    gives_its_committed_verdicts(adapter)
