"""Replaying many records: one verdict per game, and a summary grouped by the rule that decides each disagreement.

Verdicts: `agrees` (every step legal, every claim true), `explained` (the record and our rules part ways on a
rule the record declares with `[%differs ...]`), `disagrees` (they part ways on a rule it does not declare)
and `invalid` (the file is no well-formed record, or it breaks off where a replay cannot go on).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RecordError, RecordSyntaxError, ReplayError
from .parser import decode, grammar, parse_record
from .replay import replay

VERDICTS = ("agrees", "explained", "disagrees", "invalid")


@dataclass
class GameVerdict:
    path: str
    verdict: str
    moves: int = 0
    claims: int = 0
    error: RecordError | None = None

    @property
    def rule(self) -> str | None:
        found = getattr(self.error, "disagreement", None)
        return found.rule if found else getattr(self.error, "rule", None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.path, "verdict": self.verdict, "moves": self.moves,
                               "claims_checked": self.claims}
        if self.error is not None:
            out["message"] = self.error.message
            out["line"] = self.error.pos.line if self.error.pos else None
            out["column"] = self.error.pos.column if self.error.pos else None
            out["rule"] = self.rule
            found = getattr(self.error, "disagreement", None)
            if found is not None:
                out.update(where=found.where, ours=found.ours, record=found.record, declared=found.declared)
        return out


@dataclass
class BatchResult:
    games: list[GameVerdict] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def moves(self) -> int:
        return sum(game.moves for game in self.games)

    @property
    def claims(self) -> int:
        return sum(game.claims for game in self.games)

    def count(self, verdict: str) -> int:
        return sum(1 for game in self.games if game.verdict == verdict)

    def by_rule(self, verdict: str) -> dict[str, list[GameVerdict]]:
        """The games with this verdict, grouped by the rule that decides (`?` where none is identified)."""
        groups: dict[str, list[GameVerdict]] = {}
        for game in self.games:
            if game.verdict == verdict:
                groups.setdefault(game.rule or "?", []).append(game)
        return dict(sorted(groups.items()))

    @property
    def games_per_second(self) -> float:
        return len(self.games) / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return not (self.count("disagrees") or self.count("invalid"))

    def to_json(self) -> dict[str, Any]:
        return {
            "games": len(self.games), "moves": self.moves, "claims_checked": self.claims,
            "seconds": round(self.seconds, 3), "games_per_second": round(self.games_per_second, 1),
            "verdicts": {verdict: self.count(verdict) for verdict in VERDICTS},
            "by_rule": {verdict: {rule: [g.path for g in games] for rule, games in self.by_rule(verdict).items()}
                        for verdict in ("explained", "disagrees")},
            "results": [game.to_json() for game in self.games],
        }


def replay_file(path: Path) -> GameVerdict:
    """The verdict on one record file."""
    steps: list[Any] = []
    try:
        text = decode(path.read_bytes(), str(path))
        record = parse_record(text, str(path))
        result = replay(record, text=text, on_step=steps.append)
    except OSError as error:
        return GameVerdict(str(path), "invalid", error=RecordSyntaxError(
            f"cannot be read: {error.strerror or error}", source=str(path)))
    except RecordSyntaxError as error:
        return GameVerdict(str(path), "invalid", error=error)
    except ReplayError as error:
        found = error.disagreement
        verdict = "invalid" if found is None else "explained" if found.declared else "disagrees"
        claims = error.result.claims_checked if error.result is not None else 0
        return GameVerdict(str(path), verdict, _moves(steps), claims, error)
    return GameVerdict(str(path), "agrees", _moves(steps), result.claims_checked)


def _moves(steps: list[Any]) -> int:
    return sum(1 for step in steps if step.kind in ("take", "placement"))


def record_files(paths: Iterable[Path]) -> list[Path]:
    """The record files named: files as given, folders searched for *.azr (recursively, sorted)."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.rglob("*.azr")) if path.is_dir() else [path]
    return found


def replay_all(paths: list[Path], on_game: Callable[[GameVerdict], None] | None = None) -> BatchResult:
    result = BatchResult()
    grammar()  # loaded once, before the clock starts: the speed is that of replaying
    start = time.perf_counter()
    for path in paths:
        verdict = replay_file(path)
        result.games.append(verdict)
        if on_game is not None:
            on_game(verdict)
    result.seconds = time.perf_counter() - start
    return result
