"""The "try it" page (docs/try/): the reference engine run in the reader's browser.

After the English build, this hook writes beside try/index.html what the page loads, and nothing else grows:
- pyodide/: the Python runtime compiled to WebAssembly, copied from the npm package `pyodide` (package.json;
  `npm ci` installs it into node_modules/). Without it the page says the runtime is not bundled, and the rest of
  the site builds as before (a plain `mkdocs build` needs no npm).
- engine.zip: the packages the page imports, their files as they are in the repository: reference_impl/ (as
  `azul_reference`, the engine as packaged) and the three pure modules of conformance/ that draw a position and
  itemize a tiling (as `azul_conformance`). tests/test_docs_tryit.py compares them with the repository's.
- records.zip, loaded only when a game record is opened: what `azul replay` needs, as the repository has it
  (all of conformance/ as `azul_conformance`, the record grammar and the rule files of spec/ as `azul_spec`), and
  the pure-Python packages lark and PyYAML as the build's own Python has them installed (their .py files only).
- scenarios.json: every scenario's position and steps (their `given` read by the suite's own loader, as
  canonical states), so that try/#scenario=ID opens it; rules.json: each rule's title and page, to link a rule.
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import zipfile
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "node_modules" / "pyodide"
# What loadPyodide fetches from its indexURL (the source maps, typings and consoles of the package are not served).
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
# The modules of conformance/ the page imports: each imports only the notation (tests/test_docs_tryit.py).
CONFORMANCE_MODULES = ("__init__.py", "notation.py", "render_svg.py", "tiling_account.py")

log = logging.getLogger("mkdocs.hooks.tryit")


def bundled_files(root: Path = ROOT) -> dict[str, bytes]:
    """engine.zip's members: archive name -> the repository file's bytes."""
    engine = sorted((root / "reference_impl").glob("*.py"))
    files = {f"azul_reference/{path.name}": path.read_bytes() for path in engine}
    files.update({f"azul_conformance/{name}": (root / "conformance" / name).read_bytes()
                  for name in CONFORMANCE_MODULES})
    return files


def record_files(root: Path = ROOT) -> dict[str, bytes]:
    """records.zip's members: archive name -> bytes (the record samples are the page's published examples)."""
    import lark
    import yaml

    files = {}
    for path in sorted((root / "conformance").rglob("*.py")):
        files["azul_conformance/" + path.relative_to(root / "conformance").as_posix()] = path.read_bytes()
    for path in sorted((root / "conformance" / "records" / "samples").glob("*.azr")):
        files[f"azul_conformance/records/samples/{path.name}"] = path.read_bytes()
    for path in [root / "spec" / "__init__.py", *sorted((root / "spec" / "rules").glob("*.yaml")),
                 *sorted((root / "spec" / "grammar").iterdir())]:
        files["azul_spec/" + path.relative_to(root / "spec").as_posix()] = path.read_bytes()
    for package, suffixes in ((lark, ("*.py", "*.lark")), (yaml, ("*.py",))):
        folder = Path(package.__file__).parent
        for suffix in suffixes:
            for path in sorted(folder.rglob(suffix)):
                files[f"{folder.name}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    return files


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            # a fixed date: the same bytes in every build
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def scenario_table() -> dict[str, dict]:
    """id -> title, rules, the position (a canonical state, or a new game's settings) and the steps."""
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.scenario import corpus_root
    from azul_conformance.scenario.export import scenario_json
    from azul_conformance.scenario.loader import load_scenarios

    table = {}
    for scenario in load_scenarios([corpus_root()], []):
        data = scenario_json(scenario)
        given = data["given"]
        if "state" in given:
            try:
                given = {"state": ReferenceEngine(seed=0).load_state(given["state"])}
            except Exception as error:  # a scenario whose given the engine refuses: the page says so
                given = {"refused": str(error)}
        steps = [{k: step[k] for k in ("kind", "move", "factories", "reject") if k in step}
                 for step in data["steps"] if step["kind"] in ("move", "deal")]
        table[scenario.id] = {"title": scenario.title, "rules": list(scenario.rules), "given": given, "steps": steps}
    return table


def rule_table() -> dict[str, list[str]]:
    """Rule ID -> [title, its page from the try page]."""
    import yaml
    from azul_conformance.spec_data import default_spec_root, spec_files

    out = {}
    for path in spec_files(default_spec_root(), "rules"):
        for rule in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]:
            out[rule["id"]] = [rule["title"], f"../rules/{path.stem}/#{rule['id']}"]
    return out


_WRITTEN: set[tuple[str, int]] = set()


@event_priority(-100)
def on_post_build(config):
    folder = Path(config["site_dir"]) / "try"
    if not (folder / "index.html").is_file():  # another language's build: the page is English only
        return
    # each language's build ends here, in the same folder: its files are written once a build (a page written
    # again, as `mkdocs serve` does on a change, writes them again)
    built = (str(folder.resolve()), (folder / "index.html").stat().st_mtime_ns)
    if built in _WRITTEN:
        return
    _WRITTEN.add(built)
    (folder / "engine.zip").write_bytes(zipped(bundled_files()))
    (folder / "records.zip").write_bytes(zipped(record_files()))
    (folder / "scenarios.json").write_text(json.dumps(scenario_table(), separators=(",", ":")), encoding="utf-8")
    (folder / "rules.json").write_text(json.dumps(rule_table(), separators=(",", ":")), encoding="utf-8")
    if not all((RUNTIME / name).is_file() for name in RUNTIME_FILES):
        log.info("try it: node_modules/pyodide is not installed (npm ci): the page says the runtime is not bundled")
        return
    (folder / "pyodide").mkdir(exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(RUNTIME / name, folder / "pyodide" / name)
