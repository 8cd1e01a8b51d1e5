"""The fast reading of a record: the common well-formed record read by hand, in a fifth of the grammar's time.

`parse_fast(text, source)` gives the Record the strict parser would give, or None when the text is anything
but the plain shape: headers one by one, notes, then rounds of `round N deal ...`, numbered takes and their
notes, each token on its own between whitespace (no tiling, no line break inside a bracket). None is not a
refusal: the caller then reads the text with the grammar (parser.parse_record), which accepts it or says where
it goes wrong. So the two accept the same texts and give equal records (tests/test_records_fast_parse.py
holds them so on every sample, the imported corpus, generated records and mutated bytes), and every error a
user sees is the grammar's, with its line, column and caret.

The records it gives carry no positions (a position takes no part in a record's equality): a replay that
fails is done again on the grammar's record, which has them (batch.replay_text).
"""

from __future__ import annotations

import re
from typing import cast

from ..located import MAX_DIGITS
from ..readers import strip_bom
from ..notation import FACTORIES_BY_PLAYERS
from .errors import RecordSyntaxError
from .model import ANNOTATIONS, Claim, Comment, Deal, Header, Note, Ply, Record, Round
from .parser import REQUIRED_HEADERS, _Reader  # the checks the grammar cannot make are the parser's own

__all__ = ["parse_fast"]

_STRING = r'"(?:[^"\\\n]|\\["\\])*"'
_INT = rf"-?[0-9]{{1,{MAX_DIGITS}}}"
# The pieces in brackets or braces (a header, a claim, a comment); between them, words apart by whitespace (what
# the grammar's word-like terminals read). A bracket inside a header's value ends the piece early: the piece
# is then no header, and the text goes to the grammar.
_PIECE = re.compile(r"(\[[^\]\n]*\]|\{[^}]*\})")
_HEADER = re.compile(rf"\[([A-Za-z][A-Za-z0-9_-]*)[ \t]+({_STRING})\]")
_CLAIM = re.compile(rf"\[%([a-z]+)((?:[ \t]+(?:{_INT}|{_STRING}))*)\]")
_ARG = re.compile(rf"[ \t]+(?:({_INT})|({_STRING}))")
_TILES = re.compile(r"[BYRKW]{1,4}|-")
_MOVE = re.compile(r"[1-9C][BYRKW][1-5F](!!|\?\?|!\?|\?!|!|\?)?")
_ROUND_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_ESCAPE = re.compile(r'\\(["\\])')
# The plain takes and factory texts as sets: a membership test is a third of a regular expression's match, and
# these two run once per take and per factory of every record. Anything else goes to the patterns.
_PLAIN_MOVES = frozenset(f"{source}{colour}{line}" for source in "123456789C" for colour in "BYRKW"
                         for line in "12345F")
_PLAIN_TILES = frozenset(["-"]) | {a + b + c + d for a in "BYRKW" for b in "BYRKW" for c in "BYRKW" for d in "BYRKW"}
_NUMBERS = [f"{n + 1}." for n in range(100)]  # a turn's move number, as written before its first take
_CHECKED: dict[tuple[object, int, bool], Note] = {}  # claims already checked: [%start 0] comes in every round


# Headers already checked, by name, value and the record's Players (all a header's check depends on): a corpus
# repeats its Event, Players, Variant and StartPlayer in every record.
_HEADERS: dict[tuple[str, str, str | None], Header] = {}


class _Defer(Exception):
    """Not the plain shape (or not valid): the grammar reads it."""


def _unquote(value: str) -> str:
    inner = value[1:-1]
    return _ESCAPE.sub(r"\1", inner) if "\\" in inner else inner


def _tokens(text: str) -> list[object]:
    """The text as words (str) and Headers, Claims and Comments; _Defer at a piece that is none of them."""
    out: list[object] = []
    pieces = _PIECE.split(text)
    for index, piece in enumerate(pieces):
        if not index % 2:  # between pieces: words
            out += piece.split()
            continue
        first = piece[0]
        if first == "{":
            out.append(Comment(piece[1:-1]))
        elif piece[1] == "%":
            found = _CLAIM.fullmatch(piece)
            if found is None:
                raise _Defer
            args: list[int | str] = []
            for integer, string in _ARG.findall(found.group(2)):
                args.append(int(integer) if integer else _unquote(string))
            out.append(Claim(found.group(1), tuple(args)))
        else:
            found = _HEADER.fullmatch(piece)
            if found is None:
                raise _Defer
            out.append(Header(found.group(1), _unquote(found.group(2))))
    return out


def _split(move: str) -> tuple[str, str]:
    if len(move) == 3:
        return move, ""
    for mark in ANNOTATIONS:
        if move.endswith(mark):
            return move[: -len(mark)], mark
    return move, ""  # (never: the pattern allows only these marks)


def parse_fast(text: str, source: str = "<record>") -> Record | None:
    """The record the strict parser gives for `text`, or None: read it with parser.parse_record."""
    try:
        return _read(_tokens(strip_bom(text)), _Reader(text, source, lenient=False), source)
    except (_Defer, RecordSyntaxError):
        return None


def _checked(note: object, reader: _Reader, players: int, before_rounds: bool = False) -> Note:
    if type(note) is Comment:
        return note
    key = (note, players, before_rounds)
    checked = _CHECKED.get(key)
    if checked is None:
        checked = reader.check_note(cast(Claim, note), players, before_rounds)  # (RecordSyntaxError when it is wrong)
        if len(_CHECKED) < 65536:
            _CHECKED[key] = checked
    return checked


def _checked_headers(headers: list[Header], reader: _Reader) -> list[Header]:
    """reader.check_headers(headers), from the cache when every header has been checked before (with the same
    Players) and the record has each name once and the required ones."""
    players = next((header.value for header in headers if header.name == "Players"), None)
    names = {header.name for header in headers}
    if len(names) == len(headers) and REQUIRED_HEADERS <= names:
        known = [_HEADERS.get((header.name, header.value, players)) for header in headers]
        if None not in known:
            return cast(list[Header], known)
    checked = reader.check_headers(headers, [])  # (RecordSyntaxError when one is wrong)
    if len(checked) == len(headers) and len(_HEADERS) < 65536:
        for given, header in zip(headers, checked):
            _HEADERS[(given.name, given.value, players)] = header
    return checked


def _read(tokens: list[object], reader: _Reader, source: str) -> Record:
    count, index = len(tokens), 0
    headers: list[Header] = []
    while index < count and type(tokens[index]) is Header:
        headers.append(cast(Header, tokens[index]))
        index += 1
    headers = _checked_headers(headers, reader)
    players = int(next(h.value for h in headers if h.name == "Players"))
    wanted = FACTORIES_BY_PLAYERS[players]
    notes: list[Note] = []
    while index < count and type(tokens[index]) is not str:
        if type(tokens[index]) is Header:
            raise _Defer
        notes.append(_checked(tokens[index], reader, players, True))
        index += 1
    rounds: list[Round] = []
    tiles, move_text = _TILES.fullmatch, _MOVE.fullmatch
    while index < count:
        number = len(rounds) + 1
        if index + 2 >= count or tokens[index] != "round" or tokens[index + 2] != "deal":
            raise _Defer
        label = tokens[index + 1]
        if type(label) is not str or not _ROUND_NUMBER.fullmatch(label) or int(label) != number:
            raise _Defer
        index += 3
        factories: list[str] = []
        while index < count:
            value = tokens[index]
            if type(value) is not str or (value not in _PLAIN_TILES and not tiles(value)):
                break
            factories.append("" if value == "-" else value)
            index += 1
        if len(factories) != wanted:
            raise _Defer
        deal_notes: list[Note] = []
        while index < count and type(tokens[index]) is not str:
            deal_notes.append(_checked(tokens[index], reader, players))
            index += 1
        plies: list[Ply] = []
        while index < count:
            value = tokens[index]
            if value == "round":
                break
            if type(value) is not str:
                raise _Defer
            taken = len(plies)
            if not taken % players:  # a turn's first take follows its number, `2.`; the others stand alone
                turn = taken // players
                if turn >= len(_NUMBERS) or value != _NUMBERS[turn] or index + 1 >= count:
                    raise _Defer
                index += 1
                value = tokens[index]
                if type(value) is not str:
                    raise _Defer
            if value not in _PLAIN_MOVES and not move_text(value):
                raise _Defer
            index += 1
            ply_notes: list[Note] = []
            while index < count and type(tokens[index]) is not str:
                ply_notes.append(_checked(tokens[index], reader, players))
                index += 1
            if len(value) == 3:
                plies.append(Ply(value, "", tuple(ply_notes)))
            else:
                plies.append(Ply(*_split(value), tuple(ply_notes)))
        rounds.append(Round(number, Deal(tuple(factories), tuple(deal_notes)), tuple(plies)))
    return Record(tuple(headers), tuple(rounds), tuple(notes), source=source)
