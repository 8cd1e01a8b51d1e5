"""How fast recorded games import and replay, as ratios to the reference engine's random play in the same run.

Plays a synthetic corpus of seeded random two-player games (benchmarks/make_corpus.py: a Faïence dataset and the
same games as records with a [%score] every round), then measures for about --seconds each, in this one run:

    random play   the reference engine's own games (play_random_game: FastGame, legal moves, a random pick)
    replay        what `azul replay` does per record: decode, read (fast reader), replay checking every claim
    readable      the same on the grammar and the readable engine alone (what the fast path defers to)
    import        what `azul import faience -o records.tar` does per game: read the line, convert, write the
                  record, read it back, add it to the archive
    fixture       reading and replaying ludometer's 30 recorded games (the grammar, as before)

    start-up      `azul COMMAND --help` of every subcommand as a new process (the best of 5 each)
    whole         `azul replay FOLDER` on the corpus written out as files: start-up, reading, replay, summary

and prints games per second and the ratios side by side. Play and replay are measured in turns (three turns
each, the best kept) and also per second of CPU time, so that a machine busy with other work moves both alike.
The goals: replay at least 1,000 games a second on one core and at least 0.5 of random play; a subcommand
starts in 0.3 s or less. Run it on the README's install (`pip install .`, which compiles the fast path); an
editable install runs the fast path interpreted. With --cluster it also replays the corpus on a local Dask
cluster of 1 and then 2 workers (loopback) and prints the speed-up.

    python benchmarks/bench_replay.py
    python benchmarks/bench_replay.py --games 2000 --seconds 5 --cluster
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import faience_line, play, record_text  # noqa: E402

from azul_conformance.cli import COMMANDS  # noqa: E402
from azul_conformance.cli.import_games import _Archive, convert  # noqa: E402
from azul_conformance.engines.reference import play_random_game  # noqa: E402
from azul_conformance.fuzz.run import DaskExecutor  # noqa: E402
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


def best_of_turns(measures: dict[str, tuple], seconds: float, turns: int = 3) -> dict[str, float]:
    """Each measurement run `turns` times, in turns with the others, for seconds/turns each; the best kept (of
    games per second and of games per CPU second alike): a burst of other work on the machine then spoils one
    turn of one measurement, not the ratio."""
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for _ in range(turns):
        for name, (work, items) in measures.items():
            value = rate(work, items, seconds / turns, name)
            best[name] = max(best.get(name, 0.0), value)
            cpu[name] = max(cpu.get(name, 0.0), CPU[name])
    CPU.update(cpu)
    return best


def command_seconds(arguments: list[str], runs: int = 5) -> float:
    """The best wall-clock time of `azul ARGUMENTS` as a new process (the azul beside this interpreter)."""
    azul = str(Path(sys.executable).with_name("azul"))
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([azul, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                       check=True)
        best = min(best, time.perf_counter() - start)
    return best


def whole_replay(records: list[tuple[str, bytes]]) -> float:
    """Games per second of `azul replay FOLDER` on the records written out as files, start-up included."""
    with tempfile.TemporaryDirectory() as folder:
        for name, data in records:
            (Path(folder) / name).write_bytes(data)
        return len(records) / command_seconds(["replay", folder, "--jsonl", str(Path(folder) / "out.jsonl")],
                                               runs=2)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cluster_rates(items: list[tuple[str, bytes]], seconds: float) -> list[tuple[int, float, float]]:
    """(workers, games per second, games per second of the workers' CPU time) on a local cluster of 1 and 2
    workers. The second figure is what the cluster costs per game: on a machine whose cores are busy with other
    work, the wall-clock speed cannot double, but the CPU each game takes shows whether the cluster adds work."""
    from distributed import Client, LocalCluster  # deferred: Dask distributed is optional ([cluster])

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
    turns = best_of_turns({"random play": (lambda seed: play_random_game(2, "colour", seed), seeds),
                           "replay": (lambda item: judge(*item), records)}, 2 * args.seconds)
    random_play, replaying = turns["random play"], turns["replay"]
    readable = rate(lambda item: judge_readably(item[0], item[1].decode("utf-8")), records[:300], args.seconds)
    importing = import_rate(lines, args.seconds)
    texts = [write_record(record) for record, _ in import_file("ludometer", args.fixture) if record] \
        if args.fixture.exists() else []
    fixture_read = rate(parse_record, texts, args.seconds / 2) if texts else 0.0
    fixture_both = rate(lambda text: replay(parse_record(text), text=text), texts, args.seconds / 2) if texts else 0.0
    starting = {command: command_seconds([command, "--help"]) for command in COMMANDS}
    whole = whole_replay(records)
    print(f"synthetic corpus: {args.games} two-player games, {moves:.0f} moves and {claims:.0f} claims a game")
    print(f"random play  {random_play:8.0f} games/s  (the reference engine, one core)")
    print(f"replay       {replaying:8.0f} games/s  ratio to random play {replaying / random_play:.2f}, per CPU second "
          f"{CPU['replay'] / CPU['random play']:.2f} (goals: 1,000 games/s, 0.5)")
    print(f"readable     {readable:8.0f} games/s  (grammar and readable engine alone; the fast path is "
          f"{replaying / readable:.1f}x)")
    print(f"import       {importing:8.0f} games/s  ratio to random play {importing / random_play:.2f}")
    print(f"whole        {whole:8.0f} games/s  `azul replay FOLDER` of {len(records)} records, start-up included "
          f"(ratio to random play {whole / random_play:.2f})")
    slowest = max(starting, key=starting.__getitem__)
    print(f"start-up     {sum(s <= 0.3 for s in starting.values())} of {len(starting)} subcommands' --help within the "
          f"goal of 0.3 s; the slowest azul {slowest} {starting[slowest]:.2f} s (ratio to the goal "
          f"{starting[slowest] / 0.3:.2f})")
    print("             " + ", ".join(f"{command} {seconds:.2f}" for command, seconds in sorted(starting.items())))
    print("per second of CPU time (what a core gives when nothing else runs on it): "
          + ", ".join(f"{name} {CPU[name]:.0f}" for name in ("random play", "replay", "import")))
    if texts:
        print(f"fixture      {fixture_read:8.0f} games/s read, {fixture_both:.0f} read and replayed (the grammar, "
              f"ludometer's 30 games)")
    if args.cluster:
        (_, one, one_cpu), (_, two, two_cpu) = cluster_rates(records, args.seconds)
        print(f"dask cluster {one:8.0f} games/s on 1 worker, {two:.0f} on 2: {two / one:.2f}x; per worker CPU "
              f"second {one_cpu:.0f} and {two_cpu:.0f} games ({two_cpu / one_cpu:.2f}: 1.00 is linear scaling "
              f"given free cores)")


if __name__ == "__main__":
    main()
