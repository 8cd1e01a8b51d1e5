"""How long loading the scenario corpus and the specification takes, with libyaml's parser under the YAML reader
(the default where PyYAML has it) and with PyYAML's own alone, measured alternately in this one run.

Prints the median of --repeats loads of each: the whole scenario load (YAML, schema, scenario language), the
YAML reading alone, and load_spec; and how many times faster each is with libyaml.

    python benchmarks/bench_loading.py
    python benchmarks/bench_loading.py --repeats 15
"""

from __future__ import annotations

import argparse
import statistics
import time

from azul_conformance import readers, spec_data
from azul_conformance.scenario.loader import load_scenarios, read_utf8, scenario_files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    fast = readers._FastLoader
    if fast is None:
        raise SystemExit("PyYAML was built without libyaml: nothing to compare")
    texts = [read_utf8(path) for path in scenario_files()]
    works = {"scenarios (load_scenarios)": load_scenarios,
             "their YAML alone (readers.compose)": lambda: [readers.compose(text) for text in texts],
             "specification (load_spec)": spec_data.load_spec}
    load_scenarios(), spec_data.load_spec()  # the grammar and the schemas are built once, on the first load
    for name, work in works.items():
        times: dict[str, list[float]] = {"PyYAML": [], "libyaml": []}
        for _ in range(args.repeats):
            for label, loader in (("PyYAML", None), ("libyaml", fast)):
                readers._FastLoader = loader
                started = time.perf_counter()
                work()
                times[label].append(time.perf_counter() - started)
        readers._FastLoader = fast
        slow, quick = statistics.median(times["PyYAML"]), statistics.median(times["libyaml"])
        print(f"{name:36} PyYAML {slow * 1000:6.0f} ms   libyaml {quick * 1000:6.0f} ms   {slow / quick:4.1f}x")


if __name__ == "__main__":
    main()
