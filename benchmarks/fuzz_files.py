"""Fuzz every reader of documents we did not write: scenario files, game records, states, reports, fuzz state
files, recorded engine sessions and the earlier reports of `azul conform --compare`.

    python benchmarks/fuzz_files.py                 # 5,000 mutated inputs per reader
    python benchmarks/fuzz_files.py --inputs 50000 --seed 7

Each input is a real file with one to four hostile edits (tests/hostile_files.py); a reader must read it or
raise its own located error. Prints, per reader, the inputs tried, how many were read, refused and how many
ended in anything else (a failure: the first few are shown), and the slowest input. Exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hostile_files import READERS, mutate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=5000, help="mutated inputs per reader")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failed = 0
    for name, reader in sorted(READERS.items()):
        rnd = random.Random(f"{args.seed}-{name}")
        seed = reader.seed()
        read = refused = 0
        failures: list[str] = []
        slowest = 0.0
        started = time.perf_counter()
        for _ in range(args.inputs):
            text = mutate(seed, rnd)
            began = time.perf_counter()
            try:
                reader.read(text)
                read += 1
            except reader.own_errors:
                refused += 1
            except Exception as error:  # noqa: BLE001 - what we count
                failures.append(f"{type(error).__name__}: {error!r}"[:200])
            slowest = max(slowest, time.perf_counter() - began)
        failed += len(failures)
        print(f"{name:<9} {args.inputs:>7,} inputs in {time.perf_counter() - started:6.1f} s: {read:>6,} read, "
              f"{refused:>6,} refused with a located error, {len(failures)} failures; slowest {slowest * 1000:.0f} ms")
        for line in failures[:5]:
            print(f"    {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
