"""The conformance harness: cases (scenarios and properties), isolated runs, reporters, sessions.

Which stage produces what:
    cases.py      Case (metadata up front); the one selector (`--only`: id, rule, chapter, glob, commas)
    runner.py     run_cases(engine, cases, options) -> CaseResult per case; crash/timeout isolated, engine restarted;
                  the time budgets (--case-timeout, --budget: conformance/budget.py) kept
    parallel.py   Workers: -j N worker processes, each with its own engine; longest cases first, results in order
    progress.py   RunProgress: the live line on a terminal, plain lines in a log (azul conform and azul fuzz)
    report.py     reading a JSON Lines report back, JUnit XML, the Markdown matrix, compare(old, new)
    reporters.py  Reporter (start, case, finish, close) and REPORTERS: jsonl, junit, markdown, terminal
    terminal.py   the terminal reporter: the summary (failures first, grouped by rule)
    session.py    Session and run_session: one whole run, as `azul conform` and `azul scenarios run` do it
The result model (CaseResult, Verdict) is conformance/results.py, shared with the scenario and property runners.
"""

from ..results import VERDICTS, CaseKind, CaseResult, Verdict, tally
from .cases import Case, property_cases, scenario_cases, select
from .report import compare, read_report
from .runner import RunOptions, run_case, run_cases
from .session import Session, run_session

__all__ = ["Case", "CaseKind", "CaseResult", "RunOptions", "Session", "VERDICTS", "Verdict", "compare",
           "property_cases", "read_report", "run_case", "run_cases", "run_session", "scenario_cases", "select",
           "tally"]
