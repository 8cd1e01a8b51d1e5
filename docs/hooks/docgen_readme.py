"""The README's table of the engines we judged, written from each adapter's adapter.yaml and its committed report,
so that the table a newcomer reads first says what the matrix says (tests/test_docs_matrix.py holds it to that).

    python docs/hooks/docgen_readme.py            rewrites the table between README.md's two `engines` markers
    python docs/hooks/docgen_readme.py --check    exits 1 when README.md's table is not the one written here"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docgen_reports import judged_cell, write_up  # noqa: E402
from azul_conformance.harness.report import read_report  # noqa: E402
from azul_conformance.results import Verdict  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- engines:start -->", "<!-- engines:end -->"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def row(adapter: Path) -> str:
    """One engine: where it comes from, its language and licence, how CI judges it, its cases and its causes."""
    data = yaml.safe_load(adapter.read_text(encoding="utf-8"))
    folder = ROOT / data["report"]
    reports = folder.parent
    report = read_report(folder / "report.jsonl")
    results = report.results
    page = write_up(reports, f"{folder.name}/report.jsonl")
    name = f"[{data['name']}](docs/reports/{page})" if page else data["name"]
    upstream = str(data.get("upstream") or "")
    if upstream:
        name += f" ([upstream]({upstream}))"
    registry = "PyPI" if "pypi.org" in upstream else "npm" if "npmjs" in upstream else "its registry"
    judged = (f"live, installed from {registry} ({data.get('version', 'latest')})" if data["judged"] == "live"
              else judged_cell(reports, f"{folder.name}/report.jsonl", report))
    tally = Counter(str(r.verdict) for r in results)
    cases = (f"{len(results)}: {tally[str(Verdict.PASS)]} pass, {sum(r.bad for r in results)} fail, "
             f"{sum(not r.verdict.judged for r in results)} skip")
    found = []
    others = Counter()
    for deviation in report.deviations:
        count = len(deviation.get("cases") or ())
        if deviation.get("kind") == "misreading" and deviation.get("misreading"):
            ruling = ", our ruling read otherwise" if deviation.get("ruling") else ""
            found.append(f"`{deviation['misreading']}` ({count}{ruling})")
        else:
            others[str(deviation.get("kind"))] += count
    found += [f"{kind.replace('-', ' ').replace('undiagnosed', 'not diagnosed')} ({n})"
              for kind, n in sorted(others.items())]
    return (f"| {name} | {_cell(data.get('language', ''))} | {_cell(data.get('licence', ''))} | {judged} | "
            f"{cases} | {'; '.join(found) or 'none'} |")


def table() -> str:
    adapters = sorted((ROOT / "adapters").glob("*/adapter.yaml"))
    return "\n".join(["| engine | language | licence | judged in CI | cases judged | deviations, by misreading "
                      "(cases) |", "| --- | --- | --- | --- | --- | --- |"] + [row(path) for path in adapters])


def rewrite(text: str) -> str:
    """README.md's text with the table between the markers written again."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise SystemExit(f"README.md: the markers {START} and {END} are missing")
    return f"{head}{START}\n{table()}\n{END}{tail}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether README.md's table is up to date")
    args = parser.parse_args()
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = rewrite(text)
    if args.check:
        if new != text:
            print("README.md: the engines' table is out of date: run python docs/hooks/docgen_readme.py",
                  file=sys.stderr)
            return 1
        return 0
    readme.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
