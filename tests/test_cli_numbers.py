"""Every numeric option of every `azul` command refuses NaN, infinity, numbers out of range and numbers too long to
read, with a usage error naming the option (exit status 2), never a traceback; and `azul spec check` reports a
rulebook that is not UTF-8 by file, line and byte offset.

The options are found by walking the commands, so an option added later is checked too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from azul_conformance.cli import COMMANDS, main
from azul_conformance.cli.numbers import Number, parse_duration

HOSTILE_NUMBERS = ["nan", "NaN", "inf", "-inf", "1e300", "-1", "-990", "9" * 5000, "2.5e", "0x10", "", " "]


def numeric_options() -> list[tuple[list[str], str, click.Option]]:
    """(the command's words, the option's name, the option) for every option of every command taking a number."""
    found = []

    def walk(command: click.Command, words: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                walk(command.get_command(click.Context(command), name), [*words, name])
            return
        for param in command.params:
            if isinstance(param, click.Option) and (isinstance(param.type, (Number, click.types._NumberParamTypeBase))
                                                    or param.callback is parse_duration):
                found.append((words, param.opts[0], param))

    for name in COMMANDS:
        walk(main.get_command(click.Context(main), name), [name])
    return found


OPTIONS = numeric_options()


def test_every_numeric_option_is_a_bounded_number():
    assert len(OPTIONS) >= 25
    for words, name, option in OPTIONS:
        if option.callback is parse_duration:
            continue
        assert isinstance(option.type, Number), f"azul {' '.join(words)} {name}: {option.type!r}, not Number"
        assert option.type.low is not None and option.type.high is not None, f"azul {' '.join(words)} {name}"


@pytest.mark.parametrize("words,name", [(w, n) for w, n, _ in OPTIONS], ids=[" ".join(w) + " " + n
                                                                          for w, n, _ in OPTIONS])
def test_a_hostile_number_is_refused_with_a_message_naming_it(words, name):
    """Each option's own processing, as click runs it when the command line is parsed (without running the
    command: a negative seed is a seed like any other, and `azul conform --seed -1` would run the suite)."""
    option = next(o for w, n, o in OPTIONS if w == words and n == name)
    command = main
    for word in words:
        command = command.get_command(click.Context(command), word)
    context = click.Context(command)
    for value in HOSTILE_NUMBERS:
        try:
            option.process_value(context, value)
        except click.BadParameter as refused:
            message = refused.format_message()
            assert repr(value)[:20].strip("'") in message or "characters" in message or value.strip() == "", message
            continue
        assert "seed" in name and value in ("-1", "-990"), (words, name, value)


def test_the_cases_of_the_report():
    runner = CliRunner()
    for args in (["conform", "--timeout", "nan"], ["mutants", "--limit", "inf"], ["mutants", "--limit", "1e300"],
                 ["mutants", "--limit", "nan"], ["fuzz", "--games", "-990"], ["fuzz", "--time", "9" * 400]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2 and "Invalid value" in result.output, (args, result.output)
    assert "not NaN or infinity" in runner.invoke(main, ["conform", "--timeout", "nan"]).output


def test_numbers_within_range_are_taken():
    kind = Number(int, 0, 10)
    assert kind.convert("7", None, None) == 7 and kind.convert("1e1", None, None) == 10
    with pytest.raises(click.BadParameter, match="a whole number from 0 to 10"):
        kind.convert("2.5", None, None)
    assert Number(float, 0.05, 86400).convert("0.5", None, None) == 0.5


def test_spec_check_names_a_rulebook_that_is_not_utf8_by_line_and_byte(tmp_path):
    from azul_conformance.spec_check import find_rulebooks

    books = find_rulebooks(None)
    if books is None:
        pytest.skip("no rulebooks beside the project")
    for book in Path(books).glob("*.txt"):
        shutil.copy(book, tmp_path / book.name)
    (tmp_path / "zz-broken.txt").write_bytes(b"a first line\nthen \xff\xfe bytes\n")
    result = CliRunner().invoke(main, ["spec", "check", "--rulebooks", str(tmp_path)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{tmp_path / 'zz-broken.txt'}:2: not UTF-8 text: byte 0xff at offset 18" in result.output
