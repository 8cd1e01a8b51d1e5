"""How fast game records replay: reading (the strict parser) and replaying (engine and claims), per game.

Imports the 30 games of ludometer's fixture (../shared/engines/...) once, then reads and replays them for
about --seconds, and prints games per second for reading alone, replaying alone and both (what `azul replay`
over a folder does), measured in this one run.

    python benchmarks/bench_replay.py
    python benchmarks/bench_replay.py --seconds 10 --fixture path/to/games.json.gz
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from azul_conformance.importers import import_file
from azul_conformance.records import parse_record, replay, write_record
from azul_conformance.records.parser import grammar

FIXTURE = Path(__file__).resolve().parents[2] / "shared/engines/ludometer/web/player/test/fixtures/games.json.gz"


def rate(work, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            work(item)
        done += len(items)
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    args = parser.parse_args()
    texts = [write_record(record) for record, problem in import_file("ludometer", args.fixture) if record]
    records = [parse_record(text) for text in texts]
    grammar()
    reading = rate(parse_record, texts, args.seconds)
    replaying = rate(replay, records, args.seconds)
    both = rate(lambda text: replay(parse_record(text), text=text), texts, args.seconds)
    moves = sum(len(r.plies) for record in records for r in record.rounds) / len(records)
    print(f"{len(texts)} games, {moves:.0f} moves a game")
    print(f"reading   {reading:8.1f} games/s")
    print(f"replaying {replaying:8.1f} games/s")
    print(f"both      {both:8.1f} games/s  (azul replay over a folder)")


if __name__ == "__main__":
    main()
