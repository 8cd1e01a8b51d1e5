"""A fuzz campaign: games played in blocks, anywhere, recorded so that a campaign can stop and resume.

Game i of a campaign is fixed by the campaign's seed and i (games.plan_for), so the games can be played in
blocks of consecutive indices, by any number of processes or machines, in any order. Every finished block is
appended to the state file (JSON Lines, state.py) with the deviations it found; a campaign started again on the same
state file plays only the games that no line records, and a block that ran out of time records the games it
did play. The campaign's findings are the merge of the blocks: for each distinct deviation, the game with the
lowest index that shows it, and how many games did. So the result does not depend on how the games were
split, and a block is counted once however often it was started.
"""

from __future__ import annotations

import os
import socket
import bisect
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

from ..engines.base import Capabilities, Engine, EngineError
from ..engines.reference import ReferenceEngine
from ..engines.subprocess import ProcessEngine
from ..harness.interrupts import held
from .games import FailingGame, Mix, judge_games, plan_for

TAIL_FLOOR = 4  # the last blocks of a campaign are no smaller than a quarter of --block


class CampaignError(Exception):
    """The campaign cannot start or go on (a state file of another campaign, an engine that will not start)."""


@dataclass(frozen=True)
class CampaignSpec:
    """What makes two campaigns the same campaign: the seed, the game mix and the engine."""

    seed: int = 0
    players: tuple[int, ...] = (2,)
    variants: tuple[str, ...] = ("colour",)
    engine: str | None = None  # a protocol-v1 command; None: the in-process reference engine
    timeout: float = 5.0  # seconds per request
    batched: bool = True  # a whole game in one play_game request where the engine offers it (batched.py)
    overlap: bool = True  # batched: the next game is prepared while the engine plays one (a second core's work)

    @property
    def mix(self) -> Mix:
        return Mix(self.players, self.variants)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"], data["variants"] = list(self.players), list(self.variants)
        return data

    def same_campaign(self, other: "CampaignSpec") -> bool:
        """The timeout and the fast path may change between sessions; what is played may not."""
        return (self.seed, self.players, self.variants, self.engine) == \
            (other.seed, other.players, other.variants, other.engine)


@dataclass
class Block:
    """The outcome of games first .. first + games - 1."""

    first: int
    games: int
    deviations: dict[str, FailingGame] = field(default_factory=dict)  # key -> the first game showing it
    counts: dict[str, int] = field(default_factory=dict)  # key -> games showing it
    seconds: float = 0.0
    worker: str = ""
    interrupted: bool = False  # cut short by Ctrl-C or SIGTERM after a whole game: recorded, then the run stops

    def to_json(self) -> dict[str, Any]:
        return {"block": self.first, "games": self.games, "seconds": round(self.seconds, 3),
                "counts": self.counts, "deviations": [d.to_json() for d in self.deviations.values()],
                "worker": self.worker}


# -- the engines of one process -----------------------------------------------------------------------------------

_OPEN: dict[tuple, tuple[Engine, Engine, Capabilities]] = {}


def engines_for(spec: CampaignSpec) -> tuple[Engine, Engine, Capabilities]:
    """This process's engine under test and reference, started once and kept for the next blocks."""
    key = (spec.engine, spec.timeout)
    if key not in _OPEN:
        if spec.engine is None:
            engine: Engine = ReferenceEngine(spec.seed)
        else:
            try:
                engine = ProcessEngine(spec.engine, timeout=spec.timeout)
            except EngineError as error:
                raise CampaignError(f"cannot start the engine {spec.engine!r}: {error.message}") from None
        _OPEN[key] = (engine, ReferenceEngine(spec.seed), engine.info.capabilities)
    return _OPEN[key]


def close_engines() -> None:
    while _OPEN:
        engine, _, _ = _OPEN.popitem()[1]
        engine.close()


def playable(spec: CampaignSpec, capabilities: Capabilities) -> Mix:
    """The campaign's mix, less what the engine does not offer (an error when nothing is left)."""
    players = tuple(n for n in spec.players if n in capabilities.players)
    variants = tuple(v for v in spec.variants if v in capabilities.variants)
    if not players or not variants:
        raise CampaignError(f"the engine offers players {list(capabilities.players)} and walls "
                            f"{list(capabilities.variants)}; the campaign asks for players {list(spec.players)} "
                            f"and walls {list(spec.variants)}")
    return Mix(players, variants)


def run_block(spec: CampaignSpec, first: int, count: int, deadline: float | None = None) -> Block:
    """Play games first .. first + count - 1 (stopping after the game in hand once the wall-clock
    `deadline`, a time.time() value, has passed); a crashed or hung engine is restarted and the block goes on."""
    engine, reference, capabilities = engines_for(spec)
    mix = playable(spec, capabilities)
    block = Block(first, 0, worker=f"{socket.gethostname()}:{os.getpid()}")
    started = time.perf_counter()

    def games() -> Iterator[tuple[int, Any]]:
        for index in range(first, first + count):
            if came or (deadline is not None and time.time() >= deadline and index > first):
                return
            yield index, plan_for(spec.seed, index, mix)

    # Ctrl-C or SIGTERM (in this process's main thread) ends the block after the game under way, so that the
    # games it played are recorded, not lost with it
    with held(deliver=False) as came:
        try:
            for _, failing in judge_games(engine, reference, capabilities, games(), spec.batched, spec.overlap):
                block.games += 1
                for found in failing:  # each kind of difference once per game
                    block.counts[found.key] = block.counts.get(found.key, 0) + 1
                    block.deviations.setdefault(found.key, found)
        except EngineError as error:
            raise CampaignError("the engine could not be restarted after a crash or a timeout: "
                                f"{error.message}") from None
    block.interrupted = bool(came)
    block.seconds = time.perf_counter() - started
    return block


# -- what has been played -----------------------------------------------------------------------------------------

@dataclass
class Findings:
    """The merge of every block played so far."""

    games: int = 0
    seconds: float = 0.0  # engine time summed over blocks (not wall time)
    deviations: dict[str, FailingGame] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    done: list[tuple[int, int]] = field(default_factory=list)  # (first, games) of every block
    _starts: list[int] = field(default_factory=list, repr=False)  # the blocks' games as sorted, disjoint spans
    _ends: list[int] = field(default_factory=list, repr=False)

    def add(self, block: Block) -> bool:
        """Take in a block; False (and nothing counted) when some of its games are already counted: a block
        recorded twice is counted once, and its games not counted yet are played again."""
        if block.games:
            at = bisect.bisect_right(self._starts, block.first)
            if (at and self._ends[at - 1] > block.first) or \
                    (at < len(self._starts) and self._starts[at] < block.first + block.games):
                return False
            self._starts.insert(at, block.first)
            self._ends.insert(at, block.first + block.games)
        self.games += block.games
        self.seconds += block.seconds
        self.done.append((block.first, block.games))
        for key, count in block.counts.items():
            self.counts[key] = self.counts.get(key, 0) + count
        for key, found in block.deviations.items():
            known = self.deviations.get(key)
            if known is None or found.index < known.index:
                self.deviations[key] = found
        return True

    def ordered(self) -> list[FailingGame]:
        """Deviations in a fixed order: by the index of the first game showing them."""
        return sorted(self.deviations.values(), key=lambda d: (d.index, d.key))


def missing_blocks(done: list[tuple[int, int]], size: int, total: int | None,
                   workers: int = 1) -> Iterator[tuple[int, int]]:
    """(first, count) of the games not yet played, in index order, in blocks of at most `size`; without a
    total, on without end. With a total and more than one worker the last blocks shrink, each at most a
    1/(2 x workers) share of the games not yet handed out (and no smaller than size // TAIL_FLOOR), so that
    the workers finish within a small block of each other instead of one playing a whole block alone while
    the others wait. Which games are played does not change, only how they are cut."""
    end_of_all = total if total is not None else float("inf")
    gaps, index = [], 0
    for start, end in sorted((first, first + games) for first, games in done if games > 0) + [(end_of_all,) * 2]:
        if index < min(start, end_of_all):
            gaps.append((index, min(start, end_of_all)))
        index = max(index, end)
        if index >= end_of_all:
            break
    left = sum(end - start for start, end in gaps)
    floor = max(1, size // TAIL_FLOOR)
    for start, end in gaps:
        index = start
        while index < end:
            count = int(min(size, end - index))
            if total is not None and workers > 1:
                count = min(count, max(floor, -(-left // (2 * workers))))
            yield index, count
            index += count
            left -= count
