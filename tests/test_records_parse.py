"""Reading and writing game records: the model a text gives, the canonical layout, and located errors."""

from __future__ import annotations

import re

import pytest

from azul_conformance.records import (
    Claim, Comment, Deal, Header, Ply, Record, RecordSyntaxError, Round, parse_record, repair_record,
    sample_paths, write_record,
)
from azul_conformance.records.parser import decode

HEAD = '[Players "2"]\n[Variant "colour"]\n[StartPlayer "0"]\n'
DEAL = "round 1 deal BBYR YYKW RRKW BBBK YRWW\n"


def test_a_small_record_reads_into_the_model():
    text = ('[Event "Club \\"night\\""]\n' + HEAD + '{before the game}\n' + DEAL +
            '[%centre "-"]\n1. 4B3! {fills line 3} 2Y2?!\n2. 1B1 [%floor 0 "B"] [%score 0 0]\n')
    record = parse_record(text, "small.azr")
    assert record.header("Event") == 'Club "night"'
    assert record.players == 2 and record.variant == "colour" and record.start_player == 0
    assert record.notes == (Comment("before the game"),)
    (round_,) = record.rounds
    assert round_.number == 1
    assert round_.deal == Deal(("BBYR", "YYKW", "RRKW", "BBBK", "YRWW"), (Claim("centre", ("-",)),))
    assert round_.plies == (
        Ply("4B3", "!", (Comment("fills line 3"),)),
        Ply("2Y2", "?!"),
        Ply("1B1", "", (Claim("floor", (0, "B")), Claim("score", (0, 0)))),
    )
    assert round_.plies[0].pos.line == 8 and round_.plies[0].pos.column == 4


def test_move_numbers_are_optional_and_a_continuation_number_follows_a_comment():
    bare = parse_record(HEAD + DEAL + "4B3 2Y2 1B1 3R4")
    numbered = parse_record(HEAD + DEAL + "1. 4B3 {note} 1... 2Y2 2. 1B1 3R4")
    assert [p.move for p in bare.rounds[0].plies] == [p.move for p in numbered.rounds[0].plies]


def test_grey_wall_placements_carry_their_seat():
    text = HEAD.replace("colour", "grey") + DEAL + "1. 4B3 2Y2\ntiling 0: 1@1 {corner} 3@3 1: 2@5!\n"
    plies = parse_record(text).rounds[0].placements
    assert plies == (Ply("1@1", "", (Comment("corner"),), seat=0), Ply("3@3", seat=0), Ply("2@5", "!", seat=1))


def test_the_writer_lays_out_a_record_in_its_canonical_form():
    record = Record(
        (Header("Players", "2"), Header("Variant", "grey"), Header("StartPlayer", "1")),
        (Round(1, Deal(("BBYR", "", "RRKW", "BBBK", "YRWW")),
               (Ply("4B3", "!"), Ply("2Y2", notes=(Comment("hm"),)), Ply("1B1")),
               (Ply("3@3", seat=1), Ply("1@1", seat=0, notes=(Claim("score", (1, 1)),)))),),
        (Comment("hello"),),
    )
    assert write_record(record) == (
        '[Players "2"]\n[Variant "grey"]\n[StartPlayer "1"]\n\n{hello}\n\n'
        "round 1 deal BBYR - RRKW BBBK YRWW\n1. 4B3! 2Y2 {hm}\n2. 1B1\ntiling 1: 3@3 0: 1@1\n[%score 1 1]\n"
    )
    assert parse_record(write_record(record)) == record


@pytest.mark.parametrize("path", sample_paths(), ids=lambda p: p.name)
def test_every_sample_reaches_a_fixed_point_of_write_and_parse(path):
    record = parse_record(path.read_text(encoding="utf-8"), str(path))
    text = write_record(record)
    again = parse_record(text)
    assert again == record
    assert write_record(again) == text


def test_three_samples_ship_with_the_package():
    names = {p.name for p in sample_paths()}
    assert {"two-player.azr", "four-player.azr", "grey-wall.azr"} <= names


BAD = [
    # (name, text, line, column, words the message must contain)
    ("unknown move", HEAD + DEAL + "1. 4B3 2Y6\n", 5, 8, ["'2Y6'", "a take such as 3K4", "line 1-5 or F"]),
    ("junk after a move", HEAD + DEAL + "1. 4B3x\n", 5, 4, ["'4B3x'"]),
    ("too few factories", HEAD + "round 1 deal BBYR YYKW RRKW BBBK\n", 4, 29, ["all 5 factories", "found 4"]),
    ("too many tiles", HEAD + "round 1 deal BBYRY YYKW RRKW BBBK YRWW\n", 4, 14, ["at most 4 tiles"]),
    ("not a colour", HEAD + "round 1 deal BBYR YYKX RRKW BBBK YRWW\n", 4, 19, ["'YYKX'", "X is not a colour"]),
    ("players out of range", '[Players "5"]\n', 1, 1, ["Players must be 2, 3 or 4", "'5'"]),
    ("unknown header", HEAD + '[Evnt "x"]\n', 4, 1, ["unknown header 'Evnt'", "did you mean Event"]),
    ("header twice", HEAD + '[Players "3"]\n', 4, 1, ["given twice", "1:1"]),
    ("missing header", '[Players "2"]\n[Variant "grey"]\n', 1, 1, ["missing header [StartPlayer"]),
    ("unquoted value", '[Players 2]\n', 1, 10, ["expected a quoted value"]),
    ("unclosed string", HEAD + '[Event "x\n', 4, 8, ["closes with"]),
    ("truncated deal", HEAD + "round 1 deal BBYR", 4, 14, ["found 1"]),
    ("truncated claim", HEAD + DEAL + "1. 4B3 [%score 1", 5, 17, ["ends too early"]),
    ("bad date", '[Date "30.11.2026"]\n' + HEAD, 1, 1, ["YYYY.MM.DD"]),
    ("bad result", HEAD + '[Result "2-0"]\n', 4, 1, ["Result is", "'1-0'"]),
    ("round misnumbered", HEAD + DEAL.replace("round 1", "round 2"), 4, 7, ["this is round 1, not round 2"]),
    ("round label missing", HEAD + DEAL.replace("round 1 ", ""), 4, 1, ["expected `round 1` before this deal"]),
    ("move number out of step", HEAD + DEAL + "1. 4B3 2. 2Y2\n", 5, 8, ["2. is out of step", "numbered 1..."]),
    ("dangling move number", HEAD + DEAL + "1. 4B3 2Y2 2.\n", 5, 12, ["not followed by a take"]),
    ("claim of the wrong form", HEAD + DEAL + "4B3 [%score 1]\n", 5, 5, ["%score", "[%score 7 14]"]),
    ("unknown claim", HEAD + DEAL + "4B3 [%scor 1 2]\n", 5, 5, ["did you mean %score"]),
    ("bad wall claim", HEAD + DEAL + '4B3 [%wall 0 "B...."]\n', 5, 5, ["5 rows of 5 cells"]),
    ("claim seat out of range", HEAD + DEAL + '4B3 [%floor 2 "B"]\n', 5, 5, ["no seat 2"]),
    ("tiling on the coloured wall", HEAD + DEAL + "4B3\ntiling 0: 1@1\n", 6, 1, ["only on the grey wall"]),
    ("placement in the offer", HEAD + DEAL + "4B3 1@1\n", 5, 5, ["'1@1'"]),
    ("placement without seat", HEAD.replace("colour", "grey") + DEAL + "4B3 tiling 1@1\n", 5, 12,
     ["needs its seat first"]),
    ("lower case when strict", HEAD + DEAL + "1. 4b3\n", 5, 4, ["'4b3' must be written in capitals"]),
    ("keyword typo", HEAD + "rond 1 deal BBYR\n", 4, 1, ["'rond'", "did you mean `round`"]),
    ("control character", HEAD + "round 1 deal BB\x00YR YYKW RRKW BBBK YRWW\n", 4, 14, ["'BB\\x00YR'"]),
]


@pytest.mark.parametrize("name,text,line,column,words", BAD, ids=[b[0] for b in BAD])
def test_malformed_records_fail_with_the_place_and_what_was_expected(name, text, line, column, words):
    with pytest.raises(RecordSyntaxError) as caught:
        parse_record(text, "bad.azr")
    error = caught.value
    assert (error.pos.line, error.pos.column) == (line, column), str(error)
    message = str(error)
    assert message.startswith(f"bad.azr:{line}:{column}: ")
    for word in words:
        assert word in message
    # the caret sits under the column named
    source_line, caret_line = message.splitlines()[1:3]
    assert caret_line.index("^") == len(source_line.split("| ", 1)[0]) + 2 + column - 1


def test_bytes_that_are_not_utf8_are_located():
    with pytest.raises(RecordSyntaxError) as caught:
        decode(b'[Players "2"]\n[Ev\xffent "x"]\n', "junk.azr")
    assert str(caught.value).startswith("junk.azr:2:4: not UTF-8 text: byte 0xff")


def test_a_byte_order_mark_is_not_part_of_the_record():
    assert parse_record("\ufeff" + HEAD + DEAL) == parse_record(HEAD + DEAL)


def test_the_lenient_reader_repairs_and_reports_each_repair():
    sloppy = ('[Variant "Color"]\n' "deal bbyr YYKW RRKW BBBK YRWW\n2. 4b3 2Y2\n"
              "round 5 deal BBYR YYKW RRKW BBBK YRWW\n" '4B3 [%floor 0 "mb"]\n')
    record, repairs = repair_record(sloppy, "sloppy.azr")
    clean = parse_record('[Variant "colour"]\n[Players "2"]\n[StartPlayer "0"]\n'
                         "round 1 deal BBYR YYKW RRKW BBBK YRWW\n4B3 2Y2\n"
                         "round 2 deal BBYR YYKW RRKW BBBK YRWW\n" '4B3 [%floor 0 "MB"]\n')
    assert record == clean
    messages = [f"{r.pos}: {r.message}" for r in repairs]
    expected = [
        "1:1: missing header Players: taken as '2' (the first deal has 5 factories)",
        "1:1: missing header StartPlayer: taken as '0' (seat 0 starts)",
        "1:1: Variant 'Color' read as 'colour'",
        "2:1: missing `round 1` before the deal: inferred",
        "2:6: factory 1 'bbyr' written as 'BBYR'",
        "3:1: move number 2. is out of step",
        "3:4: move '4b3' written as '4B3'",
        "4:1: round 5 renumbered as round 2",
        '5:5: claim [%floor 0 "mb"] written as [%floor 0 "MB"]',
    ]
    assert len(messages) == len(expected)
    for want in expected:
        assert any(m.startswith(want) for m in messages), (want, messages)


def test_the_lenient_reader_still_refuses_what_it_cannot_fix():
    with pytest.raises(RecordSyntaxError, match=r"bad.azr:5:5: unexpected '2Y6'"):
        repair_record(HEAD + DEAL + "4B3 2Y6\n", "bad.azr")


def test_record_values_print_as_record_text_and_ignore_positions():
    assert str(Ply("3K4", "!?")) == "3K4!?"
    assert str(Claim("wall", (0, "B....|.....|.....|.....|....."))) == '[%wall 0 "B....|.....|.....|.....|....."]'
    assert str(Header("Event", 'a "b"')) == '[Event "a \\"b\\""]'
    assert str(Deal(("BBRK", ""))) == "deal BBRK -"
    assert re.fullmatch(r"Ply\(move='3K4', annotation='', notes=\(\), seat=None\)", repr(Ply("3K4")))
