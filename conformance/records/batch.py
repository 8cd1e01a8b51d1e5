"""Replaying many records: one verdict per game, counted as they come, on one core, N processes or a Dask cluster.

    judge(name, data)              the verdict on one record's bytes: agrees, explained, disagrees or invalid
    replay_sources(sources, ...)   every record of a stream of (name, bytes), in order, with a running BatchResult
    record_sources(paths)          the records of files, folders (searched for *.azr) and archives (tar, tar.gz, zip)

A record is read by the fast reader and replayed on the reference engine's fast path (fast_parse, fast_replay);
one that either of them leaves aside (the grey wall, anything unusual, anything wrong) is read by the grammar and
replayed on the readable engine, which gives the verdict, the located error and the rule that decides. So the
verdicts and counts are those of the readable path, game for game (tests/test_records_fast_replay.py).

Memory stays flat however many games: records are read one at a time as they are reached, a few chunks of them
are in flight, and the result keeps counts (and, per rule, the first games' names), not the games, unless asked.
On N processes or a cluster the chunks go to the executors `azul fuzz` uses (fuzz/run.py).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..readers import dataset_files
from .errors import RecordError, RecordSyntaxError, ReplayError
from .fast_parse import parse_fast
from .fast_replay import replay_fast
from .parser import MAX_RECORD, decode, grammar, parse_record
from .replay import replay

VERDICTS = ("agrees", "explained", "disagrees", "invalid")
SUFFIXES = (".azr",)
CHUNK = 200  # records a task: a few milliseconds of hand-over per task stay under 1% of its time
NAMES_PER_RULE = 1000  # the games' names a summary keeps per rule (their count is always whole)


@dataclass
class GameVerdict:
    """One game's verdict, in plain values (it travels from a worker process or a cluster)."""

    path: str
    verdict: str
    moves: int = 0
    claims: int = 0
    rule: str | None = None
    details: dict[str, Any] = field(default_factory=dict)  # message, line, column and where it parts ways
    line: str = ""  # what the terminal shows for a game that does not agree

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.path, "verdict": self.verdict, "moves": self.moves,
                               "claims_checked": self.claims}
        if self.details:
            out.update(self.details)
            out["rule"] = self.rule
        return out


def _verdict(path: str, verdict: str, moves: int, claims: int, error: RecordError) -> GameVerdict:
    found = getattr(error, "disagreement", None)
    rule = found.rule if found else error.rule
    details: dict[str, Any] = {"message": error.message, "line": error.pos.line if error.pos else None,
                               "column": error.pos.column if error.pos else None}
    if found is not None:
        details.update(where=found.where, ours=found.ours, record=found.record, declared=found.declared)
        text = (f"{verdict} [{found.rule or 'rule not identified'}]: {error.where}: {found.where}: ours {found.ours}; "
                f"record {found.record}" + (f" (declared: {found.declared})" if found.declared else ""))
    else:
        text = f"{verdict}: {error.where}: {error.message}"
    return GameVerdict(path, verdict, moves, claims, rule, details, text)


def judge(path: str, data: bytes | Exception) -> GameVerdict:
    """The verdict on one record, given as its bytes (or the error that kept them from being read)."""
    if isinstance(data, Exception):
        reason = getattr(data, "strerror", None) or str(data)
        return _verdict(path, "invalid", 0, 0, RecordSyntaxError(f"cannot be read: {reason}", source=path))
    try:
        text = decode(data, path)
    except RecordSyntaxError as error:
        return _verdict(path, "invalid", 0, 0, error)
    record = parse_fast(text, path)
    if record is not None:
        quick = replay_fast(record)
        if quick is not None:
            return GameVerdict(path, "agrees", *quick)
    return judge_readably(path, text)


def judge_readably(path: str, text: str) -> GameVerdict:
    """The verdict by the grammar and the readable engine alone (what `judge` gives, more slowly)."""
    moves = 0

    def count(step: Any) -> None:
        nonlocal moves
        moves += step.kind in ("take", "placement")

    try:
        record = parse_record(text, path)
        result = replay(record, text=text, on_step=count)
    except RecordSyntaxError as error:
        return _verdict(path, "invalid", 0, 0, error)
    except ReplayError as error:
        found = error.disagreement
        verdict = "invalid" if found is None else "explained" if found.declared else "disagrees"
        claims = error.result.claims_checked if error.result is not None else 0
        return _verdict(path, verdict, moves, claims, error)
    return GameVerdict(path, "agrees", moves, result.claims_checked)


def judge_chunk(items: list[tuple[str, bytes | Exception]]) -> list[GameVerdict]:
    """The verdicts on a chunk of records (the task a worker process or a cluster runs)."""
    verdicts = []
    for path, data in items:
        try:
            verdicts.append(judge(path, data))
        except Exception as error:  # noqa: BLE001 - a bug of ours: the game is reported, the others go on
            verdicts.append(_verdict(path, "invalid", 0, 0, RecordError(
                f"the replay failed inside azul ({type(error).__name__}: {error}): please report it", source=path)))
    return verdicts


@dataclass
class BatchResult:
    """What the games replayed so far add up to: counts, and per verdict and rule the games' names (the first
    NAMES_PER_RULE of them). `games` holds every verdict only when kept (`keep=True`: `--json` asks for them)."""

    keep: bool = False
    games: list[GameVerdict] = field(default_factory=list)
    count_all: int = 0
    moves: int = 0
    claims: int = 0
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    rules: dict[str, dict[str, list]] = field(default_factory=dict)  # verdict -> rule -> [count, names]

    def add(self, game: GameVerdict) -> None:
        self.count_all += 1
        self.moves += game.moves
        self.claims += game.claims
        self.counts[game.verdict] += 1
        if game.verdict != "agrees":
            entry = self.rules.setdefault(game.verdict, {}).setdefault(game.rule or "?", [0, []])
            entry[0] += 1
            if len(entry[1]) < NAMES_PER_RULE:
                entry[1].append(game.path)
        if self.keep:
            self.games.append(game)

    def count(self, verdict: str) -> int:
        return self.counts[verdict]

    def by_rule(self, verdict: str) -> dict[str, tuple[int, list[str]]]:
        """The games with this verdict by the rule that decides (`?` where none is identified): how many, and
        the names of the first of them."""
        return {rule: (entry[0], entry[1]) for rule, entry in sorted(self.rules.get(verdict, {}).items())}

    @property
    def games_per_second(self) -> float:
        return self.count_all / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return not (self.count("disagrees") or self.count("invalid"))

    def summary_json(self) -> dict[str, Any]:
        return {
            "games": self.count_all, "moves": self.moves, "claims_checked": self.claims,
            "seconds": round(self.seconds, 3), "games_per_second": round(self.games_per_second, 1),
            "verdicts": dict(self.counts),
            "by_rule": {verdict: {rule: names for rule, (_, names) in self.by_rule(verdict).items()}
                        for verdict in ("explained", "disagrees")},
            "by_rule_counts": {verdict: {rule: n for rule, (n, _) in self.by_rule(verdict).items()}
                               for verdict in ("explained", "disagrees", "invalid")},
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.summary_json(), "results": [game.to_json() for game in self.games]}


def _chunks(sources: Iterable[tuple[Any, bytes | Exception]], size: int) -> Iterator[list]:
    chunk: list = []
    for name, data in sources:
        chunk.append((str(name), data))
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def replay_sources(sources: Iterable[tuple[Any, bytes | Exception]], executor: Any = None,
                   on_game: Callable[[GameVerdict], None] | None = None, keep: bool = False,
                   chunk: int = CHUNK) -> BatchResult:
    """Every record of `sources`, in their order, judged here (no executor) or on `executor` (fuzz.run's
    LocalExecutor or DaskExecutor: a few chunks a worker in flight); `on_game` sees each verdict in order."""
    result = BatchResult(keep=keep)
    grammar()  # loaded once, before the clock starts: the speed is that of replaying
    start = time.perf_counter()

    def take(verdicts: list[GameVerdict]) -> None:
        for game in verdicts:
            result.add(game)
            if on_game is not None:
                on_game(game)

    if executor is None:
        for items in _chunks(sources, chunk):
            take(judge_chunk(items))
    else:
        limit = max(2, 2 * executor.workers)
        in_flight: collections.deque = collections.deque()
        try:
            for items in _chunks(sources, chunk):
                in_flight.append(executor.submit(judge_chunk, items))
                if len(in_flight) >= limit:
                    take(executor.result(in_flight.popleft()))
            while in_flight:
                take(executor.result(in_flight.popleft()))
        finally:
            for future in in_flight:
                future.cancel()
    result.seconds = time.perf_counter() - start
    return result


def record_sources(paths: Iterable[Path]) -> Iterator[tuple[Path, bytes | Exception]]:
    """The records named: files as given, folders searched for *.azr (recursively, sorted), archives' *.azr
    members; each read as it is reached (readers.dataset_files: regular files only, of at most MAX_RECORD)."""
    return dataset_files(paths, SUFFIXES, MAX_RECORD)
