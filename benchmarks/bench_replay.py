"""How fast recorded games import and replay, as ratios to the reference engine's random play in the same run.

Plays a synthetic corpus of seeded random two-player games (benchmarks/make_corpus.py: a Faïence dataset and the
same games as records with a [%score] every round), then measures for about --seconds each, in this one run:

    random play   the reference engine's own games (play_random_game: FastGame, legal moves, a random pick)
    replay        what `azul replay` does per record: decode, read (fast reader), replay checking every claim
    readable      the same on the grammar and the readable engine alone (what the fast path defers to)
    import        what `azul import faience -o records.tar` does per game: read the line, convert, write the
                  record, read it back, add it to the archive
    fixture       reading and replaying ludometer's 30 recorded games (the grammar, as before)

and prints games per second and the ratios (and games per second of CPU time, which a busy machine does not
change); the goal for replay is at least 0.25 of random play, and 1,000 games
a second for each of replay and import on one core. With --cluster it also replays the corpus on a local Dask
cluster of 1 and then 2 workers (loopback) and prints the speed-up.

    python benchmarks/bench_replay.py
    python benchmarks/bench_replay.py --games 2000 --seconds 5 --cluster
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import faience_line, play, record_text  # noqa: E402

from azul_conformance.cli.import_games import _Archive, convert  # noqa: E402
from azul_conformance.engines.reference import play_random_game  # noqa: E402
from azul_conformance.importers import import_file  # noqa: E402
from azul_conformance.records import parse_record, replay, write_record  # noqa: E402
from azul_conformance.records.batch import judge, judge_readably, replay_sources  # noqa: E402
from azul_conformance.records.parser import grammar  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[2] / "shared/engines/ludometer/web/player/test/fixtures/games.json.gz"


CPU: dict[str, float] = {}  # per measurement: games per second of this process's CPU time (load-independent)


def rate(work, items, seconds: float, name: str = "") -> float:
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for item in items:
            work(item)
        done += len(items)
    CPU[name] = done / max(time.process_time() - cpu, 1e-9)
    return done / (time.perf_counter() - start)


def import_rate(lines: list[str], seconds: float) -> float:
    """Games per second through the import: the dataset file read line by line, each game converted, written,
    read back and added to an archive (as `azul import faience FILE -o records.tar` does, without the terminal;
    into a folder, each record is a file to create, which on this machine's disk costs about as much again)."""
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        dataset = Path(folder) / "set.jsonl"
        dataset.write_text("\n".join(lines) + "\n", encoding="utf-8")
        while time.perf_counter() - start < seconds:
            output = _Archive(Path(folder) / f"out-{done}.tar", False)
            try:
                for source, text, _ in convert(import_file("faience", dataset)):
                    output.write(f"{source.rsplit(' ', 1)[-1]}.azr", text)
            finally:
                output.close()
            done += len(lines)
    CPU["import"] = done / max(time.process_time() - cpu, 1e-9)
    return done / (time.perf_counter() - start)


def _cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cluster_rates(items: list[tuple[str, bytes]], seconds: float) -> list[tuple[int, float, float]]:
    """(workers, games per second, games per second of the workers' CPU time) on a local cluster of 1 and 2
    workers. The second figure is what the cluster costs per game: on a machine whose cores are busy with other
    work, the wall-clock speed cannot double, but the CPU each game takes shows whether the cluster adds work."""
    import logging

    from distributed import Client, LocalCluster

    from azul_conformance.fuzz.run import DaskExecutor

    rates = []
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers, timeout=300)
            executor = DaskExecutor(client=client)
            replay_sources(items[:400], executor, chunk=100)  # the workers import and warm up
            cpu = sum(client.run(_cpu_seconds).values())
            done, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                done += replay_sources(items, executor, chunk=100).count_all
            wall = time.perf_counter() - start
            cpu = sum(client.run(_cpu_seconds).values()) - cpu
            rates.append((workers, done / wall, done / cpu))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the synthetic corpus")
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--cluster", action="store_true", help="also replay on a local Dask cluster of 1, 2 workers")
    args = parser.parse_args()
    played = [play(seed) for seed in range(args.games)]
    records = [(f"game-{n}.azr", record_text(game, n).encode("utf-8")) for n, game in enumerate(played, 1)]
    lines = [json.dumps(faience_line(game, n % 2)) for n, game in enumerate(played)]
    seeds = list(range(args.games))
    grammar()
    moves = sum(len(r["takes"]) for game in played for r in game["rounds"]) / len(played)
    claims = sum(judge(name, data).claims for name, data in records[:200]) / min(200, len(records))
    random_play = rate(lambda seed: play_random_game(2, "colour", seed), seeds, args.seconds, "random play")
    replaying = rate(lambda item: judge(*item), records, args.seconds, "replay")
    readable = rate(lambda item: judge_readably(item[0], item[1].decode("utf-8")), records[:300], args.seconds)
    importing = import_rate(lines, args.seconds)
    texts = [write_record(record) for record, _ in import_file("ludometer", args.fixture) if record]
    fixture_read = rate(parse_record, texts, args.seconds / 2)
    fixture_both = rate(lambda text: replay(parse_record(text), text=text), texts, args.seconds / 2)
    print(f"synthetic corpus: {args.games} two-player games, {moves:.0f} moves and {claims:.0f} claims a game")
    print(f"random play  {random_play:8.0f} games/s  (the reference engine, one core)")
    print(f"replay       {replaying:8.0f} games/s  ratio to random play {replaying / random_play:.2f} (goal 0.25)")
    print(f"readable     {readable:8.0f} games/s  (grammar and readable engine alone; the fast path is "
          f"{replaying / readable:.1f}x)")
    print(f"import       {importing:8.0f} games/s  ratio to random play {importing / random_play:.2f}")
    print("per second of CPU time (what a core gives when nothing else runs on it): "
          + ", ".join(f"{name} {CPU[name]:.0f}" for name in ("random play", "replay", "import")))
    print(f"fixture      {fixture_read:8.0f} games/s read, {fixture_both:.0f} read and replayed (the grammar, "
          f"ludometer's 30 games)")
    if args.cluster:
        (_, one, one_cpu), (_, two, two_cpu) = cluster_rates(records, args.seconds)
        print(f"dask cluster {one:8.0f} games/s on 1 worker, {two:.0f} on 2: {two / one:.2f}x; per worker CPU "
              f"second {one_cpu:.0f} and {two_cpu:.0f} games ({two_cpu / one_cpu:.2f}: 1.00 is linear scaling "
              f"given free cores)")


if __name__ == "__main__":
    main()
