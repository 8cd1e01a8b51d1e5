"""Reliability IV: `azul diagnose` on reports that are unfinished, locked, damaged or hostile.

Every report here is a real one, written by `azul conform` on engines that misread the rules (or crash), then
cut short, locked, or mutated field by field as a hand edit or a broken tool might leave it.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from azul_conformance import harness
import azul_conformance.harness.reporters as reporters_module
from azul_conformance.cli.diagnose import diagnose
from azul_conformance.harness import folder_lock
from azul_conformance.harness.cases import scenario_cases
from azul_conformance.harness.report import read_report
from azul_conformance.harness.reporters import JsonLinesReporter, MarkdownReporter
from azul_conformance.harness.session import Session, run_session
from azul_conformance.harness.terminal import summary
from azul_conformance.mutants.catalogue import BY_ID
from azul_conformance.mutants.patching import MutantEngine
from azul_conformance.results import CaseKind, CaseResult, Verdict
from azul_conformance.scenario.corpus import known_rules

try:
    import resource
except ImportError:  # Windows: no bound, the test runs all the same
    resource = None

ROOT = Path(__file__).resolve().parents[1]
QUIET = Console(file=io.StringIO())


def floor_flat(seed=None):
    return MutantEngine(BY_ID["floor-penalties-flat"], seed)


def bottom_to_top(seed=None):
    return MutantEngine(BY_ID["tiling-bottom-to-top"], seed)


def _conform(folder: Path, engine: str, only: tuple[str, ...], properties: bool = True) -> list[dict]:
    run_session(Session(engine_command=engine, only=only, examples=5, report_dir=str(folder), formats=("jsonl",),
                        properties=properties), QUIET)
    return _rows(folder / "report.jsonl")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _cases(rows: list[dict]) -> list[dict]:
    return [row for row in rows if row["type"] == "case"]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """A real report of two failing cases (a scenario's assertions, a property's game), and a deviation."""
    folder = tmp_path_factory.mktemp("flat")
    _conform(folder, f"py:{__file__}:{floor_flat.__name__}", ("floor-penalties-one-three-five", "differential-tiling"))
    return folder / "report.jsonl"


@pytest.fixture(scope="module")
def rows(report, tmp_path_factory) -> dict[str, dict]:
    """Real case rows of every shape diagnose reads: failing assertions, a property's game, a refused step
    (grey wall), an engine that crashed (request, stderr, exit status), a pass."""
    found = {row["id"]: row for row in _cases(_rows(report))}
    grey = _conform(tmp_path_factory.mktemp("grey"), f"py:{__file__}:{bottom_to_top.__name__}",
                    ("grey-column-taken-in-same-tiling", "deal-random-fills-every-factory"), properties=False)
    crashed = _conform(tmp_path_factory.mktemp("crash"), f"{sys.executable} {ROOT}/tests/fake_engines/crash_midgame.py",
                       ("edge-offer-ends-with-last-tile",), properties=False)
    found.update({row["id"]: row for row in _cases(grey) + _cases(crashed)})
    shapes = {"assertions": "floor-penalties-one-three-five", "game": "differential-tiling",
              "step": "grey-column-taken-in-same-tiling", "crash": "edge-offer-ends-with-last-tile",
              "pass": "deal-random-fills-every-factory"}
    chosen = {shape: found[case_id] for shape, case_id in shapes.items()}
    assert "failures" in chosen["assertions"]["details"] and "game" in chosen["game"]["details"]
    assert "at" in chosen["step"]["details"] and chosen["crash"]["verdict"] == "crash"
    assert chosen["crash"]["exit_code"] == 3 and chosen["pass"]["verdict"] == "pass"
    return chosen


@pytest.fixture
def quick_loading(monkeypatch):
    """The bundled scenarios and the spec loaded once for the many runs of a test (loading them is most of a
    run's time)."""
    loaded, rules = scenario_cases(None), known_rules()
    monkeypatch.setattr(harness, "scenario_cases", lambda paths=None: loaded)  # as the command finds it
    monkeypatch.setattr(reporters_module, "known_rules", lambda: rules)


@pytest.fixture
def bounded_memory():
    """A regression must fail the test, not take the machine: `players: 1e308` once set up a game that size."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])  # the address space in use (Linux)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        bound = pages * resource.getpagesize() + (3 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (bound if hard == resource.RLIM_INFINITY else min(bound, hard), hard))
    except (AttributeError, OSError, ValueError, IndexError):  # no /proc, no resource module: unbounded
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _diagnosed(folder: Path, *more: str):
    return CliRunner().invoke(diagnose, [str(folder), "-j", "1", *more])


def _no_traceback(shown) -> None:
    assert shown.exception is None or isinstance(shown.exception, SystemExit), \
        f"{type(shown.exception).__name__}: {shown.exception}\n{shown.output}"
    assert "Traceback" not in shown.output and shown.exit_code in (0, 1), shown.output


# -- 1. an unfinished report is rewritten whole, atomically, and never shrinks ----------------------------------

def _unfinished(report: Path, folder: Path) -> Path:
    """The report as SIGKILL leaves it: the header and the case rows as they were streamed, a torn last line,
    no deviation rows, no footer."""
    kept = [row for row in _rows(report) if row["type"] in ("header", "case")]
    path = _write(folder / "report.jsonl", kept)
    with path.open("a") as handle:
        handle.write('{"type":"case","id":"differential-en')
    return path


def test_an_unfinished_report_keeps_every_case_row_it_had(report, tmp_path):
    path = _unfinished(report, tmp_path)
    before = [row["id"] for row in _cases(_rows(report))]
    shown = _diagnosed(tmp_path, "--write")
    _no_traceback(shown)
    assert shown.exit_code == 0 and "rewritten" in shown.output and "interrupted" in shown.output, shown.output
    again = read_report(path)
    assert [r.id for r in again.results] == before and not again.problems  # (the torn line is gone)
    assert again.interrupted and again.footer.get("interrupted") is True
    assert {r.deviation for r in again.results if r.bad} == {"floor-penalties-flat"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junit.xml", "report.jsonl", "report.md"]


def test_a_rewrite_that_fails_leaves_the_report_as_it_was(report, tmp_path, monkeypatch):
    path = _write(tmp_path / "report.jsonl", _rows(report))
    before = path.read_bytes()

    def full_disk(self, run):
        raise OSError(28, "No space left on device", str(self.output.folder / "report.md"))

    monkeypatch.setattr(MarkdownReporter, "finish", full_disk)
    shown = _diagnosed(tmp_path, "--write")
    _no_traceback(shown)
    assert shown.exit_code == 1 and "cannot rewrite the report: No space left on device" in shown.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.jsonl"]  # no scratch folder, no partial file


def test_a_report_with_a_row_that_cannot_be_read_is_not_rewritten(report, tmp_path):
    rows = _rows(report)
    rows[1] = {**rows[1], "verdict": "sort of"}
    path = _write(tmp_path / "report.jsonl", rows)
    before = path.read_bytes()
    shown = _diagnosed(tmp_path, "--write")
    _no_traceback(shown)
    assert shown.exit_code == 1 and f"{path}:2: not a case of a report" in shown.output
    assert "not rewritten" in shown.output and path.read_bytes() == before


def test_a_rewrite_holding_fewer_case_rows_than_were_read_is_refused(report, tmp_path, monkeypatch):
    path = _unfinished(report, tmp_path)
    before = path.read_bytes()
    streamed = JsonLinesReporter.case
    dropped = []

    def losing_one(self, result):  # a writer that loses a row on its way (the bug this guards against)
        if not dropped:
            dropped.append(result.id)
            return
        streamed(self, result)

    monkeypatch.setattr(JsonLinesReporter, "case", losing_one)
    shown = _diagnosed(tmp_path, "--write")
    _no_traceback(shown)
    assert shown.exit_code == 1 and "the rewrite would hold 1 case rows of the 2 read; not rewritten" in shown.output
    assert path.read_bytes() == before


# -- 2. --write takes the report folder's lock, as azul conform does ---------------------------------------------

def test_a_report_folder_in_use_by_a_run_is_not_rewritten(report, tmp_path):
    path = _write(tmp_path / "report.jsonl", _rows(report))
    before = path.read_bytes()
    with folder_lock.take(tmp_path / folder_lock.LOCK_NAME, f"the report folder {tmp_path}"):  # a running conform
        shown = _diagnosed(tmp_path, "--write")
        _no_traceback(shown)
        assert shown.exit_code == 1 and "another azul run" in shown.output, shown.output
        assert f"is using the report folder {tmp_path}" in shown.output and path.read_bytes() == before
        read_only = _diagnosed(tmp_path)  # reading the report while the run writes it is fine
        assert read_only.exit_code == 0 and "rewritten" not in read_only.output
    assert _diagnosed(tmp_path, "--write").exit_code == 0  # the run has ended
    assert not (tmp_path / folder_lock.LOCK_NAME).exists()


# -- 3. every value read from a report is checked before use -----------------------------------------------------

WRONG = (12345, "abc", [1, "x"], {"a": 1}, None, 1e308, 10**30)


def _paths(value, path: tuple = ()):
    """Every field of a row, nested ones too (a list: its first item)."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list) and value:
        yield from _paths(value[0], path + (0,))


def _with(row: dict, path: tuple, value) -> dict:
    row = copy.deepcopy(row)
    inner = row
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return row


def _named(path: tuple) -> str:
    """A field as a problem names it: details.game.steps[0].move."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


@pytest.mark.parametrize("shape", ["assertions", "game", "step", "crash", "pass"])
@pytest.mark.usefixtures("quick_loading", "bounded_memory")
def test_every_field_of_a_case_row_of_the_wrong_type_is_refused_by_name_or_diagnosed(shape, rows, report, tmp_path):
    header, footer = _rows(report)[0], _rows(report)[-1]
    row = rows[shape]
    tried = 0
    for path in _paths(row):
        if path == ("type",):
            continue
        for wrong in WRONG:
            tried += 1
            folder = tmp_path / str(tried)
            _write(folder / "report.jsonl", [header, _with(row, path, wrong), footer])
            shown = _diagnosed(folder)
            _no_traceback(shown)
            where = f"{folder / 'report.jsonl'}:2: not a case of a report"
            if where in shown.output:  # refused: the file, the line and the field, on one line
                line = next(text for text in shown.output.splitlines() if where in text)
                assert _named(path) in line, (path, wrong, line)
            else:  # a value the format allows: diagnosed as any other
                assert shown.exit_code == 0 and "1 case over" in shown.output, (path, wrong, shown.output)
    assert tried > 50


@pytest.mark.parametrize("which", ["header", "footer"])
@pytest.mark.usefixtures("quick_loading")
def test_every_field_of_the_header_and_footer_of_the_wrong_type_is_left_out_by_name(which, rows, report, tmp_path):
    header, footer = _rows(report)[0], _rows(report)[-1]
    for number, path in enumerate(p for p in _paths(header if which == "header" else footer) if p != ("type",)):
        for index, wrong in enumerate(WRONG):
            folder = tmp_path / f"{number}-{index}"
            lines = [_with(header, path, wrong), rows["pass"], footer] if which == "header" \
                else [header, rows["pass"], _with(footer, path, wrong)]
            _write(folder / "report.jsonl", lines)
            shown = _diagnosed(folder, "--write")
            _no_traceback(shown)
            left_out = [line for line in shown.output.splitlines() if "left out" in line]
            if left_out:  # and so not rewritten: the rewrite would lose it
                assert f"{which}: {path[0]}" in left_out[0] and shown.exit_code == 1, (path, wrong, shown.output)
            else:
                assert shown.exit_code == 0 and "rewritten" in shown.output, (path, wrong, shown.output)


@pytest.mark.usefixtures("bounded_memory")
def test_a_game_of_1e308_players_is_refused_before_any_experiment(rows, report, tmp_path):
    header, footer = _rows(report)[0], _rows(report)[-1]
    huge = _with(rows["game"], ("details", "game", "plan", "players"), 1e308)
    _write(tmp_path / "report.jsonl", [header, huge, footer])
    shown = CliRunner().invoke(diagnose, [str(tmp_path), "-j", "2"])
    _no_traceback(shown)
    assert "details.game.plan.players must be 2 or 3 or 4, not 1e+308" in shown.output, shown.output


def test_a_rule_id_given_as_a_number_is_named_not_a_crash(rows, report, tmp_path):
    header, footer = _rows(report)[0], _rows(report)[-1]
    _write(tmp_path / "report.jsonl", [header, _with(rows["assertions"], ("rules", 0), 3), footer])
    shown = _diagnosed(tmp_path)
    _no_traceback(shown)
    assert "case floor-penalties-one-three-five: rules[0] must be a rule id (FLOOR-3), not 3" in shown.output


def test_every_committed_report_is_read_whole():
    # the checks refuse nothing a run writes: the published reports of every engine are read without a problem
    reports = sorted(ROOT.glob("docs/reports/**/report.jsonl"))
    assert len(reports) >= 8
    for path in reports:
        read = read_report(path)
        assert not read.problems and not read.left_out and read.results, path


# -- 4. text from a report or an engine is never taken for markup ------------------------------------------------

MARKUP = "case[/]x[bold"


def test_ids_and_messages_with_markup_are_shown_as_they_are(report, tmp_path):
    rows = _rows(report)
    for row in _cases(rows):
        row.update(id=MARKUP + row["id"], message="[/]stop[red]", where="[link=x]w")
    rows.insert(1, {"type": "case", "id": "[/]torn"})  # a row left out: its problem is shown too
    _write(tmp_path / "report.jsonl", rows)
    shown = _diagnosed(tmp_path)
    _no_traceback(shown)
    assert shown.exit_code == 0 and f"{MARKUP}floor-penalties-one-three-five" in shown.output
    assert "case [/]torn: verdict is missing" in shown.output


@pytest.mark.parametrize("verdict", [Verdict.FAIL, Verdict.CRASH, Verdict.DIFFERS, Verdict.SKIP])
def test_the_terminal_reporter_shows_markup_as_text(verdict):
    result = CaseResult(MARKUP, CaseKind.SCENARIO, verdict, rules=("FLOOR-3",), where="[/]where",
                        message="[/]message[bold", stderr="[/]stderr", counterexample="[/]c.yaml",
                        expected=["[/]"], actual=["[bold"], request={"cmd": "play", "move": "[/]"}, exit_code=3,
                        diff="[/]diff", symptom="boards/score: differs", level="rule")
    out = io.StringIO()
    summary(Console(file=out, width=200), [result], 1.0)
    assert "[/]message[bold" in out.getvalue()
    assert MARKUP in out.getvalue() or verdict is Verdict.SKIP  # (a skip is shown by its reason)


# -- 5. the grey wall: a placement the engine refuses is a finding, not a TypeError -------------------------------

def test_a_refused_printed_column_placement_is_a_failure_the_diagnosis_names(tmp_path):
    rows = _conform(tmp_path, f"py:{__file__}:{bottom_to_top.__name__}", ("end-row-bonus-for-each-row",),
                    properties=False)
    (row,) = _cases(rows)
    assert row["verdict"] == "fail", row["message"]
    assert "the placement 1@5 (the printed column) was refused" in row["message"]
    shown = _diagnosed(tmp_path)
    assert "TILING-1: Complete lines are tiled from the bottom line up." in shown.output, shown.output
