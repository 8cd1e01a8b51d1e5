"""The conformance harness: cases (scenarios and properties), verdicts, isolated runs, reports.

Which stage produces what:
    cases.py     Case (metadata up front), selection by id, rule or glob (`--only`)
    runner.py    run_cases(engine, cases, options) -> CaseResult per case; crash/timeout isolated, engine restarted
    verdicts.py  CaseResult and the verdicts pass, fail, error, crash, timeout, skip, not_run
    report.py    JSON Lines (incremental, header/footer), JUnit XML, Markdown matrix, compare(old, new)
    terminal.py  live progress bar and the summary (failures first, grouped by rule)
    session.py   one whole run, as `azul conform` does it
"""

from .cases import Case, property_cases, scenario_cases, select
from .report import compare, read_report
from .runner import RunOptions, run_case, run_cases
from .session import Session, run_session
from .verdicts import BAD, VERDICTS, CaseResult, tally

__all__ = ["BAD", "Case", "CaseResult", "RunOptions", "Session", "VERDICTS", "compare", "property_cases",
           "read_report", "run_case", "run_cases", "run_session", "scenario_cases", "select", "tally"]
