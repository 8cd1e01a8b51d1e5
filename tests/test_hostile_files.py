"""Hostile scenario files: each gets a located error in bounded work and memory, never a traceback.

The work is counted, not timed (a loaded machine makes any time limit flaky): the Python lines the loader runs,
per character of the file, against a well-formed scenario's; and the peak of the memory it allocates.
"""

from __future__ import annotations

import sys
import tracemalloc

import pytest

from azul_conformance.scenario.errors import ScenarioError
from azul_conformance.scenario.loader import load_text
from hostile_files import BASE_SCENARIO

GOOD = BASE_SCENARIO

ALIAS_BOMB = "".join(
    [f'a0: &a0 ["{"x" * 8}"]\n']
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 12)]
)


def lines_run_and_peak_memory(text: str) -> tuple[int, int, ScenarioError | None]:
    """The Python lines run by load_text(text), the peak of the memory it allocated, and its error if any."""
    lines = 0

    def trace(_frame, event, _arg):
        nonlocal lines
        lines += event == "line"
        return trace

    load_text(GOOD, "warm-up.yaml")  # the parser and the schema are built once, on the first load
    tracemalloc.start()
    sys.settrace(trace)
    try:
        load_text(text, "hostile.yaml")
        error = None
    except ScenarioError as refused:
        error = refused
    finally:
        sys.settrace(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return lines, peak, error


def refusal(text: str) -> ScenarioError:
    """The error of a hostile text, refused at no more work per character than a well-formed scenario costs
    (three times over, for the error's own message) and in under 2 MB: nothing expanded, nothing read twice."""
    good_lines, _, _ = lines_run_and_peak_memory(GOOD)
    lines, peak, error = lines_run_and_peak_memory(text)
    assert error is not None, "the hostile text was accepted"
    assert lines / len(text) <= 3 * good_lines / len(GOOD), f"{lines} lines run for {len(text)} characters"
    assert peak < 2_000_000, f"{peak} bytes allocated"
    return error


DEEP = "- " + "[" * 5000 + "]" * 5000 + "\n"


def test_the_work_bound_catches_a_quadratic_read(monkeypatch):
    # Without the depth limit in its scanner, the reader checks every open `[` at each new one (up to a thousand,
    # PyYAML's limit on a key's length): work that grows as the square of the nesting.
    from azul_conformance import readers

    monkeypatch.delattr(readers._Loader, "fetch_flow_collection_start")
    with pytest.raises(AssertionError, match="lines run"):
        refusal("- " + "[" * 300 + "]" * 300 + "\n")


def test_the_base_scenario_loads():
    assert [s.id for s in load_text(GOOD, "base.yaml")] == ["hostile-base"]


def test_an_alias_bomb_is_refused_at_its_first_alias():
    error = refusal(ALIAS_BOMB)  # expanded, it would be 9 ** 11 strings
    assert "aliases" in error.message and error.line == 2


@pytest.mark.parametrize("count", ["400000000B", "101B", "0000000000000000000000000000000000000000000000000000007B"])
def test_counted_tiles_beyond_a_game_are_located(count):
    if count.endswith("7B"):  # leading zeros are harmless: seven blue tiles
        assert load_text(GOOD.replace("1: BBYR", f"1: BBYR\n    bag: {count}"), "zeros.yaml")
        return
    error = refusal(GOOD.replace("1: BBYR", f"1: BBYR\n    bag: {count}"))
    assert "100 tiles" in error.message and error.line == 8


def test_a_number_of_thousands_of_digits_is_located_in_the_language_and_in_yaml():
    error = refusal(GOOD.replace("board 0 line 1 = B", "board 0 score = " + "9" * 5000))
    assert "larger than anything" in error.message and error.line == 11
    error = refusal(GOOD.replace("  level: rule\n", "  level: rule\n  seed: " + "9" * 5000 + "\n"))
    assert "5000 digits" in error.message and error.line == 5


def test_control_characters_and_deep_nesting_are_located():
    error = refusal(GOOD.replace("a well-formed", "a \x1b[2J well-formed"))
    assert "U+001B" in error.message and error.line == 2
    error = refusal(DEEP)
    assert "nested more than 64 levels" in error.message and (error.line, error.column) == (1, 67)
    assert len(error.excerpt) < 300  # the stretch of the 10,000-character line around the place


@pytest.mark.parametrize("text, why", [
    ('{"format": "azul-state/1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested deeper"),
    ('{"format": "azul-state/1", "round": NaN}', "NaN is not JSON"),
    ('{"format": "azul-state/1", "round": ' + "9" * 5000 + "}", "4300 digits"),
    ('{"format": "azul-state/1",\n "round": }', "hostile.json:2:11"),
])
def test_hostile_state_files_are_refused_by_name(tmp_path, text, why):
    from click.testing import CliRunner

    from azul_conformance.cli.render import render

    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(render, [str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # a ClickException, no traceback
    assert why in result.output and "Traceback" not in result.output


def test_a_newline_in_an_engine_message_stays_inside_the_counterexample_comment(tmp_path):
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.properties.counterexample import write_counterexample
    from azul_conformance.properties.play import GamePlan, Trace

    trace = Trace(GamePlan(players=2, variant="colour", start_player=0, deal_seed=1))
    path = write_counterexample(tmp_path, "property-x", None, "line one\n- id: injected\nline three", trace,
                                ReferenceEngine(1))
    scenarios = load_text(path.read_text(encoding="utf-8"), str(path))
    assert [s.id for s in scenarios] == ["counterexample-property-x"]


def test_a_records_player_names_reach_the_terminal_as_plain_text(tmp_path):
    from click.testing import CliRunner

    from azul_conformance.cli.replay import replay
    from azul_conformance.records import sample_paths

    text = sample_paths()[0].read_text(encoding="utf-8")
    hostile = next(line for line in text.splitlines() if line.startswith("[Seat0 "))
    path = tmp_path / "hostile.azr"
    path.write_text(text.replace(hostile, '[Seat0 "[bold]Al\x1b[2J"]'), encoding="utf-8")
    result = CliRunner().invoke(replay, [str(path)])
    assert "\x1b" not in result.output
    assert "[bold]Al" in result.output  # shown as written, not read as Rich markup


def test_a_number_of_thousands_of_digits_in_a_record_is_located():
    from azul_conformance.records import RecordError, parse_record, sample_paths

    text = sample_paths()[0].read_text(encoding="utf-8")
    at = text.index("[%score")
    line = text[:at].count("\n") + 1
    text = text[:at] + "[%score " + "9" * 5000 + " 3]" + text[text.index("]", at) + 1:]
    with pytest.raises(RecordError) as caught:
        parse_record(text, "big.azr")
    assert caught.value.pos.line == line and "larger than anything" in str(caught.value)
