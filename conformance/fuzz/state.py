"""The campaign's state file (JSON Lines): a header naming the campaign, then one line per finished block.

    state = StateFile("fuzz/fuzz-state.jsonl", spec)   # locked, read back and checked, opened to append
    state.record(block)
    state.close()

A state file is read back whole before a game is played, and every line is checked: a damaged one is a
StateFileError naming the file, the line and what is wrong (never a crash half-way through a campaign, or at
report time after it). The only damage forgiven is the one a kill leaves, a last line cut short: it is dropped
and its block played again. A block recorded twice, or overlapping another (a file written by two runs at once,
before runs took the lock), is counted once: the later line is left out and its games not covered by another
block are played again. Each block is checked the same way before it is written, so that what a worker sends
back (a Dask worker's block included) can always be read again.

One process at a time: the state file is locked (harness/folder_lock.py) while a campaign uses it.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ..harness import folder_lock
from ..located import LocatedError, Span, decode_utf8
from ..notation import PLAYER_COUNTS, VARIANTS
from ..readers import JsonError, json_document
from .limits import MAX_GAMES
from .campaign import Block, CampaignError, CampaignSpec, Findings
from ..properties.play import GamePlan
from .games import CHOICES, FailingGame
from .identity import why_not_the_same

STATE_FORMAT = "azul-fuzz-state/1"
MAX_LINE = 64 << 20  # bytes: a block line holds at most a few hundred kilobytes of deviations
VERDICTS = ("fail", "crash", "timeout")
DAMAGED = "the state file is damaged: mend or remove that line, or give --fresh to start the campaign over"


class StateFileError(CampaignError, LocatedError):
    """A state file that cannot be used: damaged, of another campaign, or not a state file at all."""


class _Afresh(Exception):
    """The record is of this campaign played against another engine (or one changed since): start afresh."""


class StateFile:
    """The campaign's record, locked while open: read back (and checked) unless `fresh`, then appended to.

    With `engine` (fuzz/identity.py: what the engine says it is, and its files' digests), a record of the same
    campaign played against another engine, or against this one before one of its files changed, is not resumed:
    the campaign starts afresh, `afresh` says why, and the old record is kept beside it (`previous`)."""

    def __init__(self, path: str | Path, spec: CampaignSpec, fresh: bool = False,
                 engine: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.spec = spec
        self.engine = engine
        self.findings = Findings()
        self.left_out = 0  # blocks recorded twice (or overlapping), counted once
        self.afresh = ""  # why a record of this campaign was not resumed
        self.previous = self.path.with_name(self.path.name + ".previous")
        if self.path.is_symlink():  # appended to through a link, the campaign would write outside its folder
            raise StateFileError("a symbolic link: a state file is never written through a link (it could lead "
                                 "out of the folder given); remove the link, or give --state a file",
                                 Span(file=str(self.path)))
        if self.path.exists() and not self.path.is_file():  # a FIFO would hang the read, /dev/zero fill memory
            raise StateFileError("not a regular file: a state file is a file the campaign writes",
                                 Span(file=str(self.path)))
        try:
            self.lock = folder_lock.take(self.path.with_name(self.path.name + ".lock"), f"the state file {self.path}")
        except folder_lock.Busy as busy:
            raise CampaignError(busy.message) from None
        try:
            try:
                resumed = self.path.exists() and not fresh and self._read()
                # after the whole file is read: a damaged record is named, not passed over
                if resumed and engine is not None and (why := why_not_the_same(self._recorded, engine)):
                    raise _Afresh(why)
            except _Afresh as why:
                self.afresh, resumed = str(why), False
                self.findings, self.left_out = Findings(), 0
                os.replace(self.path, self.previous)  # kept, not overwritten: nothing already played is lost
            if resumed:
                self.file = self.path.open("a", encoding="utf-8")
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.file = self.path.open("w", encoding="utf-8")
                self._write({"type": "header", "format": STATE_FORMAT, "spec": spec.to_json(),
                             **({"engine": engine} if engine is not None else {})})
        except BaseException:
            self.lock.release()
            raise

    def _read(self) -> bool:
        """Take in every block the file records; False when it is empty (a new campaign starts in it)."""
        name = str(self.path)
        seen_header = False
        torn_at = None  # the offset of a last line cut short
        with self.path.open("rb") as handle:
            number, offset = 0, 0
            while raw := handle.readline(MAX_LINE + 1):
                number += 1
                if len(raw) > MAX_LINE:
                    raise StateFileError(f"a line longer than {MAX_LINE >> 20} MB: not a state file's",
                                         Span.at(name, number))
                start, offset = offset, offset + len(raw)
                text = decode_utf8(raw, name, lambda message, span, n=number: StateFileError(
                    message, Span.at(name, n, span.column)), "a state file is UTF-8 JSON Lines")
                if not text.strip():
                    continue
                try:
                    data = json_document(text)
                except JsonError as error:
                    if not raw.endswith(b"\n") and seen_header:
                        torn_at = start  # cut short by a kill: its block is played again
                        break
                    raise StateFileError(error.message, Span.at(name, number, error.column), text,
                                         DAMAGED) from None
                if not seen_header:
                    self._check_header(data, name, number)
                    seen_header = True
                    continue
                if not isinstance(data, dict) or data.get("type") != "block":
                    raise StateFileError("not a block record (expected {\"type\": \"block\", ...})",
                                         Span.at(name, number), hint=DAMAGED)
                try:
                    block = read_block(data, Span.at(name, number))
                except StateFileError as error:
                    raise StateFileError(error.message, error.span, hint=DAMAGED) from None
                if not self.findings.add(block):
                    self.left_out += 1
        if not seen_header:
            return False  # empty (or blank lines only): nothing recorded, a new campaign starts here
        if torn_at is not None:
            os.truncate(self.path, torn_at)
        elif offset and not _ends_with_newline(self.path):
            with self.path.open("a", encoding="utf-8") as out:  # end the last line so appends start clean
                out.write("\n")
        return True

    def _check_header(self, data: Any, name: str, number: int) -> None:
        where = Span.at(name, number)
        if not isinstance(data, dict) or data.get("type", "header") != "header" or data.get("format") != STATE_FORMAT:
            raise StateFileError(f"not a fuzz state file: its first line is not a header with \"format\": "
                                 f"\"{STATE_FORMAT}\"", where, hint="give another --state, or --fresh to start over")
        recorded = read_spec(data.get("spec"), where)
        if not recorded.same_campaign(self.spec):
            raise CampaignError(f"{self.path} records another campaign ({describe(recorded)}), not "
                                f"{describe(self.spec)}: give another --state, or --fresh to start over")
        self._recorded = data.get("engine")  # which engine played it (fuzz/identity.py), where the record says

    def _write(self, data: dict[str, Any]) -> None:
        self.file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.file.flush()

    def record(self, block: Block) -> None:
        """Add a finished block (checked as a line read back would be) and write it; a block already recorded
        is left out."""
        data = {"type": "block", **block.to_json()}
        try:
            read_block(json.loads(json.dumps(data, default=str)), Span())
        except StateFileError as error:
            raise CampaignError(f"a worker ({block.worker or '?'}) sent back a block that is not valid: "
                                f"{error.message}") from None
        if self.findings.add(block):
            self._write(data)

    def close(self) -> None:
        self.file.close()
        self.lock.release()


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def describe(spec: CampaignSpec) -> str:
    return (f"seed {spec.seed}, players {','.join(map(str, spec.players))}, walls {','.join(spec.variants)}, "
            f"engine {spec.engine or 'reference (in-process)'}")


# -- checking what a line says -------------------------------------------------------------------------------------

def _bad(where: Span, message: str) -> StateFileError:
    return StateFileError(message, where)


def _whole(data: dict, name: str, where: Span, low: int, high: int, what: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(where, f"{what}: \"{name}\" must be a whole number from {low} to {high:,}, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read_spec(data: Any, where: Span) -> CampaignSpec:
    what = "the header's spec"
    if not isinstance(data, dict):
        raise _bad(where, f"{what} must be an object, not {_shown(data)}")
    seed = _whole(data, "seed", where, -(2 ** 63), 2 ** 63, what)
    players, variants, engine = data.get("players"), data.get("variants"), data.get("engine")
    if not isinstance(players, list) or not players or any(p not in PLAYER_COUNTS or isinstance(p, bool)
                                                           for p in players):
        raise _bad(where, f"{what}: \"players\" must be a list of player counts 2 to 4, not {_shown(players)}")
    if not isinstance(variants, list) or not variants or any(not isinstance(v, str) or v not in VARIANTS
                                                             for v in variants):
        raise _bad(where, f"{what}: \"variants\" must be a list of {', '.join(VARIANTS)}, not {_shown(variants)}")
    if engine is not None and not isinstance(engine, str):
        raise _bad(where, f"{what}: \"engine\" must be a command or null, not {_shown(engine)}")
    timeout = data.get("timeout", 5.0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise _bad(where, f"{what}: \"timeout\" must be a number of seconds, not {_shown(timeout)}")
    flags = [data.get(name, True) for name in ("batched", "overlap")]
    if any(not isinstance(flag, bool) for flag in flags):
        raise _bad(where, f"{what}: \"batched\" and \"overlap\" must be true or false")
    return CampaignSpec(seed, tuple(players), tuple(variants), engine, float(timeout), *flags)


def read_block(data: dict, where: Span) -> Block:
    """A block line's data as a Block, every field checked."""
    first = _whole(data, "block", where, 0, MAX_GAMES, "block record")
    games = _whole(data, "games", where, 0, MAX_GAMES - first, "block record")
    seconds = data.get("seconds", 0.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e12:
        raise _bad(where, f"block record: \"seconds\" must be a number of seconds, not {_shown(seconds)}")
    counts, deviations, worker = data.get("counts", {}), data.get("deviations", []), data.get("worker", "")
    if not isinstance(counts, dict):
        raise _bad(where, f"block record: \"counts\" must be an object, not {_shown(counts)}")
    for key in counts:
        _whole(counts, key, where, 1, games, f"block record: the count of {_shown(key)}")
    if not isinstance(deviations, list):
        raise _bad(where, f"block record: \"deviations\" must be a list, not {_shown(deviations)}")
    if not isinstance(worker, str):
        raise _bad(where, f"block record: \"worker\" must be text, not {_shown(worker)}")
    found = {}
    for number, deviation in enumerate(deviations, 1):
        what = f"block record: deviation {number}"
        _check_deviation(deviation, where, what, first, games)
        if deviation["key"] not in counts:
            raise _bad(where, f"{what}: its key {_shown(deviation['key'])} has no count in \"counts\"")
        game = FailingGame.from_json(deviation)
        found.setdefault(game.key, game)
    return Block(first, games, found, dict(counts), float(seconds), worker)


def _check_deviation(data: Any, where: Span, what: str, first: int, games: int) -> None:
    if not isinstance(data, dict):
        raise _bad(where, f"{what} must be an object, not {_shown(data)}")
    for name in ("key", "message"):
        if not isinstance(data.get(name), str):
            raise _bad(where, f"{what}: \"{name}\" must be text, not {_shown(data.get(name))}")
    if data.get("verdict") not in VERDICTS:
        raise _bad(where, f"{what}: \"verdict\" must be one of {', '.join(VERDICTS)}, "
                   f"not {_shown(data.get('verdict'))}")
    if "rule" not in data:  # null, where no rule is known; never left out
        raise _bad(where, f"{what}: \"rule\" is missing (a rule ID, or null)")
    rule = data["rule"]
    if rule is not None and (not isinstance(rule, str) or not 0 < len(rule) <= 40):
        raise _bad(where, f"{what}: \"rule\" must be a rule ID or null, not {_shown(rule)}")
    if not isinstance(data.get("stderr", ""), str):
        raise _bad(where, f"{what}: \"stderr\" must be text")
    _whole(data, "index", where, first, max(first, first + games - 1), what)
    plan = data.get("plan")
    if not isinstance(plan, dict):
        raise _bad(where, f"{what}: \"plan\" must be an object, not {_shown(plan)}")
    players = _whole(plan, "players", where, min(PLAYER_COUNTS), max(PLAYER_COUNTS), f"{what}'s plan")
    _whole(plan, "start_player", where, 0, players - 1, f"{what}'s plan")
    _whole(plan, "deal_seed", where, 0, 2 ** 64, f"{what}'s plan")
    if plan.get("variant") not in VARIANTS:
        raise _bad(where, f"{what}'s plan: \"variant\" must be one of {', '.join(VARIANTS)}")
    choices = plan.get("choices", [])
    if not isinstance(choices, list) or len(choices) > CHOICES or any(
            isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 2 ** 32 for c in choices):
        raise _bad(where, f"{what}'s plan: \"choices\" must be a list of at most {CHOICES} whole numbers")
    unknown = sorted(set(plan) - set(GamePlan.__dataclass_fields__))
    if unknown:
        raise _bad(where, f"{what}'s plan: unknown fields {unknown}"[:200])
    steps = data.get("steps", [])
    if not isinstance(steps, list) or not all(_step(step) for step in steps):
        raise _bad(where, f"{what}: \"steps\" must be a list of deals ({{\"kind\": \"deal\", \"factories\": [...]}}) "
                   "and moves ({\"kind\": \"move\", \"move\": \"1B2\"})")


def _step(step: Any) -> bool:
    if not isinstance(step, dict):
        return False
    if step.get("kind") == "deal":
        return isinstance(step.get("factories"), list) and all(isinstance(f, str) for f in step["factories"])
    return step.get("kind") == "move" and isinstance(step.get("move"), str) and \
        isinstance(step.get("reject", ""), str)
