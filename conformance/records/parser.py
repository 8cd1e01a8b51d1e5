"""Reading game records: the grammar (spec/grammar/record.lark), then every check the grammar cannot make.

`parse_record` is strict: anything out of place is a RecordSyntaxError naming the source, line and column,
what was found and what was expected, with a caret under it. Nothing is skipped or guessed.
`repair_record` is the lenient reader: it fixes what can be fixed without guessing the game (lower-case
colours and moves, a missing or misnumbered `round N`, move numbers out of step, missing headers that have
an evident value) and returns the list of repairs it made, each with its place. What it cannot fix still fails.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from ..located import Span, TooLarge, check_digits, decode_utf8, grammar_failure
from ..readers import InputError, read_file, strip_bom
from ..notation import COLOURS, FACTORIES_BY_PLAYERS, PLAYER_COUNTS, VARIANTS
from .claims import check_claim_form
from .errors import RecordSyntaxError, Repair
from .model import ANNOTATIONS, CLAIM_FORMS, DECLARATIONS, Claim, Comment, Deal, Header, Note, Ply, Record, Round

__all__ = ["parse_record", "repair_record", "read_record", "read_text", "grammar"]

KNOWN_HEADERS = ("Event", "Site", "Date", "Annotator", "Source", "Players", "Seat0", "Seat1", "Seat2",
                 "Seat3", "Variant", "StartPlayer", "Seed", "Result")
EXPECTED = {
    "LSQB": 'a header [Name "value"]', "RSQB": "`]`", "HEADER_NAME": "a header name",
    "STRING": 'a quoted value "..."', "ROUND": "`round N`", "DEAL": "`deal`", "INT": "a number",
    "TILES": "a factory's tiles (letters B Y R K W)", "DASH": "`-` (an empty factory)",
    "MOVE": "a take such as 3K4 or CBF", "MOVE_NUMBER": "a move number such as `1.`", "TILING": "`tiling`",
    "SEAT": "a seat label such as `0:`", "PLACEMENT": "a placement such as 2@4", "COMMENT": "a comment {...}",
    "CLAIM_NAME": "a claim name (" + ", ".join(sorted(CLAIM_FORMS)) + ")",
    "$END": "the end of the record",
}
REQUIRED_HEADERS_IN_ORDER = ("Players", "Variant", "StartPlayer")
REQUIRED_HEADERS = frozenset(REQUIRED_HEADERS_IN_ORDER)
_PLAYERS = tuple(map(str, PLAYER_COUNTS))  # as a header writes them
_WORD = re.compile(r'[^\s\[\]{}]+|.', re.S)
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")


@lru_cache(maxsize=1)
def grammar() -> Lark:
    """The record grammar, loaded once from the azul_spec package data."""
    text = (resources.files("azul_spec") / "grammar" / "record.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                lexer_callbacks={"INT": check_digits, "MOVE_NUMBER": check_digits})


def _describe(names: set[str]) -> str:
    lark = grammar()
    patterns = {t.name: t.pattern.value for t in lark.terminals}
    seen = []
    order = list(EXPECTED)
    for name in sorted(names, key=lambda n: (order.index(n) if n in order else len(order), n)):
        text = EXPECTED.get(name) or (f"`{patterns[name]}`" if name in patterns else name)
        if name.startswith("__ANON") and patterns.get(name) == "[%":
            text = "a claim [%...]"
        if text not in seen:
            seen.append(text)
    return ", ".join(seen[:-1]) + (" or " if len(seen) > 1 else "") + seen[-1] if seen else "nothing more"


def _hint(word: str, expected: set[str]) -> str:
    """A short "did you mean" for the commonest slips."""
    if word.startswith('"'):
        return ' (a quoted value closes with " on the same line)'
    if "MOVE" in expected and re.fullmatch(r"[0-9A-Za-z]{3}[!?]*", word):
        return (" (a take is <source><colour><line>: source 1-9 or C, colour B Y R K W, "
                "line 1-5 or F)")
    if "TILES" in expected and re.fullmatch(r"[A-Za-z]+", word):
        bad = sorted(set(word.upper()) - set(COLOURS))
        return f" ({', '.join(bad)} is not a colour: B Y R K W)" if bad else ""
    close = difflib.get_close_matches(word, ["round", "deal", "tiling"], n=1)
    return f" (did you mean `{close[0]}`?)" if close else ""


class _Reader:
    """Builds a Record from the parse tree, checking what the grammar cannot; repairs when lenient."""

    def __init__(self, text: str, source: str, lenient: bool) -> None:
        self.text, self.source, self.lenient = text, source, lenient
        self.repairs: list[Repair] = []

    def fail(self, pos: Span, message: str) -> RecordSyntaxError:
        return RecordSyntaxError(message, source=self.source, pos=pos, text=self.text)

    def repair(self, pos: Span, message: str) -> None:
        self.repairs.append(Repair(pos, message))

    def fix_case(self, pos: Span, text: str, what: str) -> str:
        """Upper-case colour letters and sources: an error when strict, a reported repair when lenient."""
        upper = text.upper()
        if upper != text:
            if not self.lenient:
                raise self.fail(pos, f"{what} {text!r} must be written in capitals: {upper!r}")
            self.repair(pos, f"{what} {text!r} written as {upper!r}")
        return upper

    # -- the whole record -------------------------------------------------------------------------------------

    def read(self) -> Record:
        try:
            tree = grammar().parse(self.text)
        except UnexpectedInput as error:
            raise self._syntax_error(error) from None
        except TooLarge as error:
            raise self.fail(error.span(), error.message) from None
        headers = [self.header(item) for item in tree.children if item.data == "header"]
        notes = tuple(self.note(item) for item in tree.children if item.data in ("comment", "claim"))
        round_trees = [item for item in tree.children if item.data == "round"]
        headers = self.check_headers(headers, round_trees)
        players = int(next(h.value for h in headers if h.name == "Players"))
        variant = next(h.value for h in headers if h.name == "Variant")
        context = (players, variant)
        notes = tuple(self.check_note(note, players, before_rounds=True) for note in notes)
        rounds = tuple(self.round(item, number, context) for number, item in enumerate(round_trees, 1))
        return Record(tuple(headers), rounds, notes, source=self.source)

    def _syntax_error(self, error: UnexpectedInput) -> RecordSyntaxError:
        failure = grammar_failure(error, self.text, _WORD)
        expected = set(failure.expected)
        if failure.at_end:
            return self.fail(failure.span(None), f"the record ends too early: expected {_describe(expected)}")
        word = failure.word
        return self.fail(failure.span(None),
                         f"unexpected {word!r}: expected {_describe(expected)}{_hint(word, expected)}")

    # -- headers ----------------------------------------------------------------------------------------------

    def header(self, tree: Tree) -> Header:
        name, value = tree.children
        text = re.sub(r'\\(["\\])', r"\1", value[1:-1])
        return Header(str(name), text, pos=Span.of(tree))

    def check_headers(self, headers: list[Header], rounds: list[Tree]) -> list[Header]:
        seen: dict[str, Header] = {}
        for header in headers:
            if header.name in seen:
                raise self.fail(header.pos, f"header {header.name} given twice (first at {seen[header.name].pos})")
            if header.name not in KNOWN_HEADERS and not header.name.startswith("X-"):
                close = difflib.get_close_matches(header.name, KNOWN_HEADERS, n=1)
                hint = f"did you mean {close[0]}? " if close else ""
                raise self.fail(header.pos, f"unknown header {header.name!r}: {hint}(your own headers start "
                                            f"with X-, such as X-Clock)")
            seen[header.name] = header
        if "Players" in seen:
            self.check_header_value(seen["Players"], headers)
        headers = self.default_headers(headers, seen, rounds)
        return [self.check_header_value(h, headers) for h in headers]

    def default_headers(self, headers: list[Header], seen: dict[str, Header], rounds: list[Tree]) -> list[Header]:
        """Players, Variant and StartPlayer are required; the lenient reader supplies evident values."""
        here = Span(1, 1)
        guesses = {"Variant": ("colour", "the coloured wall"), "StartPlayer": ("0", "seat 0 starts")}
        if "Players" not in seen:
            count = sum(1 for item in rounds[0].children if isinstance(item, Tree) and item.data == "factory") \
                if rounds else 0
            players = {v: k for k, v in FACTORIES_BY_PLAYERS.items()}.get(count)
            if not self.lenient or players is None:
                raise self.fail(here, 'missing header [Players "2"] (2, 3 or 4)')
            guesses["Players"] = (str(players), f"the first deal has {count} factories")
        fixed = list(headers)
        for name in REQUIRED_HEADERS_IN_ORDER:
            if name not in seen:
                if not self.lenient:
                    raise self.fail(here, f"missing header [{name} \"...\"]")
                value, why = guesses[name]
                self.repair(here, f"missing header {name}: taken as {value!r} ({why})")
                fixed.append(Header(name, value, pos=here))
        return fixed

    def check_header_value(self, header: Header, headers: list[Header]) -> Header:
        name, value = header.name, header.value
        players = next((h.value for h in headers if h.name == "Players"), "4")
        if name == "Players" and value not in _PLAYERS:
            raise self.fail(header.pos, f"Players must be 2, 3 or 4, not {value!r}")
        if name == "Variant" and value not in VARIANTS:
            fixed = {"color": "colour", "coloured": "colour", "gray": "grey"}.get(value.lower(), value.lower())
            if not self.lenient or fixed not in VARIANTS:
                raise self.fail(header.pos, f"Variant must be \"colour\" or \"grey\", not {value!r}")
            self.repair(header.pos, f"Variant {value!r} read as {fixed!r}")
            return Header(name, fixed, pos=header.pos)
        seats = int(players) if players in _PLAYERS else max(PLAYER_COUNTS)
        if name == "StartPlayer" and value not in [str(s) for s in range(seats)]:
            raise self.fail(header.pos, f"StartPlayer must be a seat from 0 to {seats - 1}, not {value!r}")
        if name.startswith("Seat") and name[4:].isdigit() and int(name[4:]) >= seats:
            raise self.fail(header.pos, f"{name} names a seat the game does not have ({seats} players: "
                                        f"Seat0 to Seat{seats - 1})")
        if name == "Date" and not _DATE.fullmatch(value):
            raise self.fail(header.pos, f"Date must be YYYY.MM.DD (unknown parts as ??), not {value!r}")
        if name == "Result":
            self.check_result(header, seats)
        return header

    def check_result(self, header: Header, seats: int) -> None:
        parts = header.value.split("-")
        if header.value == "*":
            return
        if len(parts) != seats or any(p not in ("0", "1") for p in parts) or "1" not in parts:
            example = "-".join(["1"] + ["0"] * (seats - 1))
            raise self.fail(header.pos, f"Result is \"*\" or one 1 (won) or 0 per seat, joined by -, such as "
                                        f"{example!r} for {seats} players, not {header.value!r}")

    # -- notes ------------------------------------------------------------------------------------------------

    def note(self, tree: Tree) -> Note:
        if tree.data == "comment":
            token = tree.children[0]
            return Comment(str(token)[1:-1], pos=Span.of(token))
        name, *args = tree.children
        values: list[int | str] = []
        for arg in args:
            token = arg.children[0]
            values.append(int(token) if token.type == "INT" else re.sub(r'\\(["\\])', r"\1", token[1:-1]))
        return Claim(str(name), tuple(values), pos=Span.of(tree))

    def check_note(self, note: Note, players: int, before_rounds: bool = False) -> Note:
        if isinstance(note, Comment):
            return note
        if note.kind in DECLARATIONS and not before_rounds:
            raise self.fail(note.pos, f"%{note.kind} speaks of the whole game: it stands before the first round")
        try:
            fixed = check_claim_form(note, players, self.lenient)
        except ValueError as error:
            raise self.fail(note.pos, str(error)) from None
        if fixed != note:
            self.repair(note.pos, f"claim {note} written as {fixed}")
        return fixed

    def notes_after(self, items: list[Tree], start: int, players: int) -> tuple[tuple[Note, ...], int]:
        """The notes from items[start] on, and the index of the first item that is not a note."""
        notes = []
        while start < len(items) and items[start].data in ("comment", "claim"):
            notes.append(self.check_note(self.note(items[start]), players))
            start += 1
        return tuple(notes), start

    # -- rounds -----------------------------------------------------------------------------------------------

    def round(self, tree: Tree, number: int, context: tuple[int, str]) -> Round:
        players, variant = context
        items = [c for c in tree.children if isinstance(c, Tree)]
        label = next((c for c in items if c.data == "round_label"), None)
        deal_token = next(c for c in tree.children if isinstance(c, Token) and c.type == "DEAL")
        self.check_round_label(label, number, Span.of(deal_token))
        factories = [c for c in items if c.data == "factory"]
        start, end = Span.of(label if label is not None else deal_token), Span.of(factories[-1])
        deal_pos = Span(start.line, start.column, end.end_line, end.end_column)
        body = [c for c in items if c.data not in ("round_label", "factory", "tiling")]
        deal_notes, start = self.notes_after(body, 0, players)
        deal = Deal(self.deal(factories, players, number), deal_notes, pos=deal_pos)
        plies = self.takes(body[start:], players)
        tiling = next((c for c in items if c.data == "tiling"), None)
        placements = self.placements(tiling, players, variant) if tiling is not None else ()
        return Round(number, deal, plies, placements, pos=deal_pos)

    def check_round_label(self, label: Tree | None, number: int, deal_pos: Span) -> None:
        if label is None:
            if not self.lenient:
                raise self.fail(deal_pos, f"expected `round {number}` before this deal")
            self.repair(deal_pos, f"missing `round {number}` before the deal: inferred")
            return
        written = int(label.children[1])
        if written != number:
            if not self.lenient:
                raise self.fail(Span.of(label.children[1]), f"this is round {number}, not round {written} "
                                                         f"(rounds are numbered 1, 2, 3... in order)")
            self.repair(Span.of(label), f"round {written} renumbered as round {number}")

    def deal(self, factories: list[Tree], players: int, number: int) -> tuple[str, ...]:
        wanted = FACTORIES_BY_PLAYERS[players]
        if len(factories) != wanted:
            where = Span.of(factories[min(len(factories), wanted) - 1])
            raise self.fail(where, f"round {number}: a deal lists all {wanted} factories of a {players}-player "
                                   f"game (an empty one as -), found {len(factories)}")
        contents = []
        for index, tree in enumerate(factories, 1):
            token = tree.children[0]
            text = "" if token.type == "DASH" else self.fix_case(Span.of(token), str(token), f"factory {index}")
            if len(text) > 4:
                raise self.fail(Span.of(token), f"factory {index} holds at most 4 tiles, not {len(text)} ({text!r})")
            contents.append(text)
        return tuple(contents)

    def takes(self, items: list[Tree], players: int) -> tuple[Ply, ...]:
        plies: list[Ply] = []
        index = 0
        while index < len(items):
            item = items[index]
            if item.data == "move_number":
                self.check_move_number(item.children[0], len(plies), players, index + 1 < len(items))
                index += 1
                continue
            token = item.children[0]
            notes, index = self.notes_after(items, index + 1, players)
            move, annotation = _split(self.fix_case(Span.of(token), str(token), "move"))
            plies.append(Ply(move, annotation, notes, pos=Span.of(token)))
        return tuple(plies)

    def check_move_number(self, token: Token, taken: int, players: int, more: bool) -> None:
        turn, within = divmod(taken, players)
        expected = f"{turn + 1}." if within == 0 else f"{turn + 1}..."
        problem = None
        if not more:
            problem = f"move number {token} is not followed by a take"
        elif str(token) != expected:
            problem = (f"move number {token} is out of step: the next take is take {taken + 1} of the round, "
                       f"numbered {expected} ({players} takes to a turn)")
        if problem and not self.lenient:
            raise self.fail(Span.of(token), problem)
        if problem:
            self.repair(Span.of(token), problem + ": dropped")

    def placements(self, tree: Tree, players: int, variant: str) -> tuple[Ply, ...]:
        if variant != "grey":
            raise self.fail(Span.of(tree), "tiling placements exist only on the grey wall (this record's Variant "
                                        "is \"colour\", where tiling needs no choice)")
        items = tree.children[1:]
        plies: list[Ply] = []
        seat, index = None, 0
        while index < len(items):
            item = items[index]
            token = item.children[0] if item.data in ("seat", "placement") else None
            if item.data == "seat":
                seat = int(token[:-1])
                if seat >= players:
                    raise self.fail(Span.of(token), f"seat {seat} does not exist ({players} players: 0 to "
                                                 f"{players - 1})")
                index += 1
                continue
            if item.data in ("comment", "claim"):
                raise self.fail(Span.of(item), "a note in the tiling follows a placement, not a seat label")
            if seat is None:
                raise self.fail(Span.of(token), f"placement {token} needs its seat first, as in `tiling 0: {token}`")
            notes, index = self.notes_after(items, index + 1, players)
            move, annotation = _split(str(token))
            plies.append(Ply(move, annotation, notes, seat=seat, pos=Span.of(token)))
        return tuple(plies)


def _split(text: str) -> tuple[str, str]:
    for mark in ANNOTATIONS:
        if text.endswith(mark):
            return text[: -len(mark)], mark
    return text, ""


def parse_record(text: str, source: str = "<record>") -> Record:
    """Read a record strictly; RecordSyntaxError at the first problem."""
    return _Reader(strip_bom(text), source, lenient=False).read()


def repair_record(text: str, source: str = "<record>") -> tuple[Record, tuple[Repair, ...]]:
    """Read a record leniently: the record and every repair made (still an error where no fix is evident)."""
    reader = _Reader(strip_bom(text), source, lenient=True)
    record = reader.read()
    return record, tuple(reader.repairs)


def decode(data: bytes, source: str) -> str:
    """The record's text; bytes that are not UTF-8 are an error at their line and column."""
    def fail(message: str, span: Span) -> RecordSyntaxError:
        return RecordSyntaxError(message, source=source, pos=replace(span, file=None))

    return decode_utf8(data, source, fail, "a record is a UTF-8 text file")


MAX_RECORD = 16 * 2**20  # a long annotated game is some 20 KB


def read_text(path: str | Path) -> str:
    """A record file's text: a regular file of at most MAX_RECORD bytes, UTF-8 (RecordSyntaxError otherwise, naming
    the file; OSError when it cannot be opened)."""
    source = str(path)
    try:
        data = read_file(path, MAX_RECORD)
    except InputError as error:
        raise RecordSyntaxError(f"cannot be read: {error}", source=source) from None
    return decode(data, source)


def read_record(path: str | Path, lenient: bool = False) -> tuple[Record, tuple[Repair, ...]]:
    """Read a record file: the record and the repairs made (always none when strict)."""
    source = str(path)
    text = read_text(path)
    if lenient:
        return repair_record(text, source)
    return parse_record(text, source), ()
