"""Hostile scenario files: each gets a located error in bounded time and memory, never a traceback."""

from __future__ import annotations

import resource
import time

import pytest

from azul_conformance.scenario.errors import ScenarioError
from azul_conformance.scenario.loader import load_text

GOOD = """\
- id: hostile-base
  title: a well-formed scenario to bend
  rules: [OFFER-1]
  level: rule
  given: |
    factories:
      1: BBYR
  steps: |
    1B1
  expect: |
    board 0 line 1 = B
"""

ALIAS_BOMB = "".join(
    [f'a0: &a0 ["{"x" * 8}"]\n']
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 12)]
)


def refusal(text: str) -> ScenarioError:
    started = time.monotonic()
    with pytest.raises(ScenarioError) as caught:
        load_text(text, "hostile.yaml")
    assert time.monotonic() - started < 5
    return caught.value


def test_the_base_scenario_loads():
    assert [s.id for s in load_text(GOOD, "base.yaml")] == ["hostile-base"]


def test_an_alias_bomb_is_refused_at_its_first_alias():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    error = refusal(ALIAS_BOMB)
    assert "aliases" in error.message and error.line == 2
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB: nothing expanded


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
    error = refusal("- " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested" in error.message or "YAML" in error.message


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
