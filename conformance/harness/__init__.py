"""The conformance harness: cases (scenarios and properties), isolated runs, reporters, sessions.

Which stage produces what:
    cases.py      Case (metadata up front); the one selector (`--only`: id, rule, chapter, glob, commas)
    runner.py     run_cases(engine, cases, options) -> CaseResult per case; crash/timeout isolated, engine restarted;
                  the time budgets (--case-timeout, --budget: conformance/budget.py) kept; OneLane: a run's
                  cases on this process's one engine
    parallel.py   Workers: -j N worker processes, each with its own engine; longest cases first, results in order
                  (OneLane's interface: a session runs its plan the same way on either)
    progress.py   RunProgress: the live line on a terminal, plain lines in a log (azul conform and azul fuzz)
    report.py     reading a JSON Lines report back, JUnit XML, the Markdown matrix, compare(old, new)
    formats.py    FORMATS, the reports a run can make (the command's options read them without loading the rest)
    reporters.py  Reporter (start, case, finish, close) and REPORTERS: jsonl, junit, markdown, terminal
    terminal.py   the terminal reporter: the summary (failures first, grouped by rule)
    session.py    Session and run_session: one whole run, as `azul conform` and `azul scenarios run` do it
The result model (CaseResult, Verdict) is conformance/results.py, shared with the scenario and property runners.
"""

from ..exports import lazy


__getattr__, __dir__ = lazy(__name__, {
    "..results": "VERDICTS CaseKind CaseResult Verdict tally",
    ".formats": "FORMATS",
    ".cases": "Case property_cases scenario_cases select",
    ".findings": "with_deviation_ids",
    ".header": "suite_version",
    ".outputs": "Finished Output own_folder",
    ".report": "RunReport compare read_report",
    ".reporters": "reporters_for",
    ".runner": "RunOptions run_case run_cases",
    ".session": "Session collect run_session temporary_folder",
    ".terminal": "summary",
})

__all__ = ["Case", "CaseKind", "CaseResult", "FORMATS", "Finished", "Output", "RunOptions", "RunReport", "Session",
           "VERDICTS", "Verdict", "collect", "compare", "own_folder", "property_cases", "read_report",
           "reporters_for",
           "run_case", "run_cases", "run_session", "scenario_cases", "select", "suite_version", "summary", "tally",
           "temporary_folder", "with_deviation_ids"]
