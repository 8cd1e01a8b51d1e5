"""A campaign's findings as a conformance report: one case per distinct deviation, in `azul conform`'s
formats (terminal, JSON Lines, JUnit XML, Markdown), each with its shrunk game written as a scenario."""

from __future__ import annotations

import re
from typing import Any

from ..engines.base import EngineError
from ..harness.header import run_header
from ..harness.findings import with_deviation_ids
from ..harness.reporters import Finished, Output, reporters_for
from ..properties.deciding import STEPS
from ..results import CaseKind, CaseResult, Verdict
from .campaign import CampaignSpec, Findings, engines_for
from .games import FailingGame
from .shrink import shrink, write_scenario


def results_of(spec: CampaignSpec, findings: Findings, counterexample_dir: str | None,
               shrink_seconds: float = 20.0) -> list[CaseResult]:
    """One CaseResult per distinct deviation (the first game that showed it, shrunk); a single pass case
    when there is none."""
    if not findings.deviations:  # no game played (a deadline met before the first): nothing judged, no pass
        return [CaseResult("fuzz-differential", CaseKind.FUZZ, Verdict.PASS if findings.games else Verdict.NOT_RUN,
                           title="Random games in lockstep with the reference", rules=[],
                           where=f"fuzz seed {spec.seed}",
                           message=f"{findings.games} games, no deviation from the reference" if findings.games
                           else "not run: no game was played, so nothing was judged",
                           details={"games": findings.games})]
    results = []
    for number, found in enumerate(findings.ordered(), 1):
        case_id = f"fuzz-{number:02d}-{slug(found.rule or found.verdict)}"
        small = found
        path = None
        if counterexample_dir is not None:
            engine, reference, capabilities = engines_for(spec)
            if shrink_seconds > 0:
                small = shrink(engine, reference, capabilities, found, seconds=shrink_seconds)
            path = _scenario(counterexample_dir, case_id, small, engine, reference)
        results.append(_result(case_id, found, small, findings, spec, path))
    return results


def slug(text: str) -> str:
    """A rule ID (or verdict) as part of a file name: lower-case letters, digits and dashes, never a path (the
    rule comes from a state file or a worker, and "/../../x" must not write outside the report folder)."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")[:40] or "deviation"


def _scenario(folder: str, case_id: str, found: FailingGame, engine, reference) -> str | None:
    try:
        try:
            engine_state = engine.state() if found.verdict is Verdict.FAIL else None
        except EngineError:
            engine_state = None
        return write_scenario(folder, case_id, found, reference, engine_state)
    except (OSError, EngineError, ValueError) as error:
        return f"(not written: {error})"


def _result(case_id: str, found: FailingGame, small: FailingGame, findings: Findings, spec: CampaignSpec,
            path: str | None) -> CaseResult:
    count = findings.counts.get(found.key, 1)
    return CaseResult(case_id, CaseKind.FUZZ, found.verdict,
                      title=f"{found.key}: in {count} of {findings.games} games",
                      rules=[found.rule] if found.rule else [], rule=found.rule,
                      where=f"fuzz seed {spec.seed}, game {found.index}", message=found.message,
                      expected=small.expected, actual=small.actual, stderr=found.stderr, counterexample=path,
                      details={"key": found.key, "games_showing_it": count, "first_game": found.index,
                               **({"step": step} if (step := _step_of(found.key)) else {}),
                               "steps": len(found.steps), "shrunk_steps": len(small.steps),
                               "plan": {k: v for k, v in small.plan.items() if k != "choices"},
                               # the shrunk game, as a property's: what the diagnosis replays under misreadings
                               "game": {"plan": small.plan, "steps": small.steps}})


def _step_of(key: str) -> str:
    """The kind of step a failing game's first difference follows, from its key (`fail OFFER-5 take /x/*/y`)."""
    words = key.split(" ")
    return words[2] if words[0] == "fail" and len(words) > 2 and words[2] in STEPS else ""


def header_of(spec: CampaignSpec, findings: Findings, command: str) -> dict[str, Any]:
    engine, _, _ = engines_for(spec)
    return run_header(engine.info, command=command, seed=spec.seed, examples=None, timeout=spec.timeout, only=(),
                      cases=len(findings.deviations) or 1, fuzz={**spec.to_json(), "games": findings.games})


def write_reports(output: Output, formats: tuple[str, ...], header: dict[str, Any], results: list[CaseResult],
                  seconds: float, interrupted: bool = False, diagnoser=None) -> None:
    """Hand the results to `azul conform`'s reporters (terminal summary, report.jsonl, junit.xml, report.md),
    each finding named by the misreading that reproduces its game when a `diagnoser` is given."""
    found = diagnosis = None
    if diagnoser is not None and any(r.bad for r in results):
        found, results, diagnosis = diagnoser(results, {})
        results = with_deviation_ids(results, found)
    outputs = reporters_for(formats, output)
    try:
        for reporter in outputs:
            reporter.start(header)
        for result in results:
            for reporter in outputs:
                reporter.case(result)
        for reporter in outputs:
            reporter.finish(Finished(header, tuple(results), seconds, interrupted=interrupted, found=found,
                                     diagnosis=diagnosis))
    finally:
        for reporter in outputs:
            reporter.close()
