"""The import graph of conformance/ (`azul_conformance`): no cycle, no import that runs up the layers, and an
import inside a function only where it defers something, with the reason on its line.

The graph is built from the source with `ast`: every module, relative imports resolved, imports at module level
and inside functions told apart (both are edges: an import in a function still needs its target). Run this file
with Python to print the graph's cycles, upward edges and function-level imports:

    python tests/test_import_graph.py
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "conformance"
TOP = "azul_conformance"

# The layers of conformance/, lowest first; README.md ("Architecture") and docs/reference/architecture.md draw
# them. A unit (a top-level module or sub-package) imports only units of lower layers and itself; the units of
# one layer are independent of each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("notation", "readers", "processes", "exports"),          # foundations: constants, input, worker processes
    ("located", "schemas", "markup"),                         # bad input located; the schemas; outside text on pages
    ("engines",),                                             # the one engine interface and its adapters
    ("results", "budget", "spec_data", "scenario_rules", "state_file", "perft", "render_svg",
     "tiling_account"),                                       # data
    ("spec_check", "spec_show", "properties"),                # spec checker, properties
    ("scenario",),                                            # the scenario language and runner
    ("harness",),                                             # one run: cases, workers, reporters
    ("fuzz", "mutants"),                                      # campaigns and the mutation score
    ("diagnosis",),                                           # failing cases run again under each misreading
    ("records",),                                             # game records: notation, replay, claims explained
    ("importers",),                                           # games recorded elsewhere, as game records
    ("cli",),                                                 # the command line, one module per command
)

# The reason an import sits inside a function, on its line or on a comment line above it and the imports next
# to it (one reason for a group): `# deferred: why`.
REASON = "# deferred:"

@dataclass(frozen=True)
class Import:
    source: str            # the importing module, dotted below azul_conformance ("harness.session")
    target: str            # the imported module
    in_function: bool
    line: int
    commented: bool        # a `# deferred:` reason on its line or above it


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def targets(node: ast.Import | ast.ImportFrom, name: str, path: Path, known: dict[str, Path]) -> list[str]:
    """The modules of ours an import statement imports (`from .x import y` is x.y when y is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name.split(".", 1)[1] if "." in alias.name else ""
                for alias in node.names if alias.name.split(".")[0] == TOP]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = [part for part in package if part]
    if node.level:
        base = package[:len(package) - node.level + 1]
    elif node.module and node.module.split(".")[0] == TOP:
        base = []
    else:
        return []
    module = (node.module or "").split(".")
    if not node.level:
        module = module[1:]
    prefix = [part for part in base + module if part]
    found = []
    for alias in node.names:
        candidate = ".".join(prefix + [alias.name])
        found.append(candidate if candidate in known else ".".join(prefix))
    return found


def lazy_homes(node: ast.AST) -> list[str]:
    """The modules named by `lazy(__name__, {".session": "...", ...})` (exports.py): the package's exports."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lazy" \
            and len(node.args) == 2 and isinstance(node.args[1], ast.Dict):
        return [key.value for key in node.args[1].keys if isinstance(key, ast.Constant)]
    return []


def reason_lines(lines: list[str], number: int) -> str:
    """The import's line, and the comment and import lines right above it (where its group's reason is)."""
    found = [lines[number - 1]]
    for text in reversed(lines[:number - 1]):
        if not text.strip().startswith(("#", "from ", "import ")):
            break
        found.append(text)
    return "\n".join(found)


def imports() -> list[Import]:
    known = modules()
    found: list[Import] = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    nearby = reason_lines(lines, child.lineno)
                    for target in targets(child, name, path, known) or [None]:
                        found.append(Import(name, target, in_function, child.lineno, REASON in nearby))
                for module in lazy_homes(child):  # a package's lazy exports import their homes when first asked
                    statement = ast.ImportFrom(module=module.lstrip(".") or None, names=[ast.alias("_")],
                                               level=len(module) - len(module.lstrip(".")))
                    for target in targets(statement, name, path, known):
                        found.append(Import(name, target, in_function, child.lineno, False))
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(ast.parse(text), False)
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for item in imports():
        if item.target is not None and item.target != item.source:
            edges[item.source].add(item.target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def unit(module: str) -> str:
    return module.split(".")[0]


def layer_of(module: str) -> int:
    for number, layer in enumerate(LAYERS):
        if unit(module) in layer:
            return number
    raise AssertionError(f"{module} is in no layer of LAYERS ({Path(__file__).name}): give its unit a layer")


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports of a unit in the same layer (another unit) or a higher one."""
    return sorted((source, target) for source, ts in edges.items() for target in ts
                  if source and target and unit(source) != unit(target) and layer_of(target) >= layer_of(source))


def unexplained() -> list[Import]:
    """The function-level import statements (one per line) without a reason."""
    found = {(item.source, item.line): item for item in imports() if item.in_function and not item.commented}
    return list(found.values())


def test_every_module_has_a_layer():
    for name in modules():
        if name:
            layer_of(name)


def test_the_graph_has_no_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_no_import_runs_up_the_layers():
    assert not upward(graph()), "\n".join(f"{source} -> {target}" for source, target in upward(graph()))


def test_every_import_inside_a_function_says_why():
    assert not unexplained(), "\n".join(
        f"conformance/{modules()[item.source].relative_to(PACKAGE)}:{item.line}: an import inside a function "
        f"without a `{REASON} reason` comment (import at module level unless it defers something)"
        for item in unexplained())


def test_the_graph_is_built_from_every_kind_of_import():
    """The walk sees relative, absolute and function-level imports, so the tests above can fail."""
    found = {(item.source, item.target, item.in_function) for item in imports()}
    assert ("results", "engines.base", False) in found             # from .engines.base import ...
    assert ("scenario", "scenario.loader", False) in found          # a package's own __init__, lazily
    assert ("harness", "results", False) in found                   # lazy(__name__, {"..results": ...})
    assert ("cli.conform", "harness", False) in found               # from .. import harness
    assert ("harness.runner", "properties.suite", True) in found  # deferred: hypothesis
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert upward({"engines.base": {"harness.session"}}) == [("engines.base", "harness.session")]


# Worker processes are started and supervised in one module; an engine's own process only by its adapter.
PROCESS_HOMES = {"multiprocessing": "processes", "concurrent": "processes", "subprocess": "engines.subprocess"}
STARTS_A_PROCESS = re.compile(r"fork|forkpty|spawn\w*|posix_spawnp?|system|popen|exec\w*")  # os's functions


def process_starts(name: str, text: str) -> list[str]:
    """Where module `name` (its source `text`) imports the standard library's process machinery outside its one
    home (PROCESS_HOMES), or starts a process with os's own functions."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] * (not node.level)
            for module in modules:
                home = PROCESS_HOMES.get(module.split(".")[0])
                if home is not None and home != name:
                    found.append(f"{name}:{node.lineno}: imports {module} (worker processes: conformance/"
                                 f"{home.replace('.', '/')}.py)")
            if isinstance(node, ast.ImportFrom) and node.module == "os" and not node.level:
                found += [f"{name}:{node.lineno}: imports os.{alias.name}" for alias in node.names
                          if STARTS_A_PROCESS.fullmatch(alias.name)]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os" \
                and STARTS_A_PROCESS.fullmatch(node.attr):
            found.append(f"{name}:{node.lineno}: os.{node.attr} starts a process")
    return found


def test_worker_processes_are_started_in_processes_py_only():
    found = [where for name, path in modules().items() for where in process_starts(name, path.read_text("utf-8"))]
    assert not found, "\n".join(found)


def test_the_process_rule_sees_every_way_to_start_one():
    """So that the test above can fail."""
    text = ("import multiprocessing\nimport concurrent.futures as cf\nfrom multiprocessing.connection import wait\n"
            "from os import fork\nimport subprocess\nos.posix_spawn('x', [], {})\nos.getpid()\n"
            "from . import processes\n")
    assert [where.split(": ", 1)[0] for where in process_starts("fuzz.run", text)] == \
        ["fuzz.run:1", "fuzz.run:2", "fuzz.run:3", "fuzz.run:4", "fuzz.run:5", "fuzz.run:6"]
    assert process_starts("processes", "import multiprocessing\nimport concurrent.futures\n") == []
    assert process_starts("engines.subprocess", "import subprocess\n") == []


def test_the_architecture_pages_draw_the_layers():
    for page in (ROOT / "README.md", ROOT / "docs" / "reference" / "architecture.md"):
        text = page.read_text(encoding="utf-8")
        for layer in LAYERS:
            row = next((line for line in text.splitlines() if line.startswith("|")
                        and all(re.search(rf"`conformance/{name}(\.py|/)`", line) for name in layer)), None)
            assert row, f"{page.name}: no row of the layers table names {', '.join(layer)}"


if __name__ == "__main__":
    edges = graph()
    print("cycles:", *(" <-> ".join(sorted(c)) for c in cycles(edges)) or ["none"], sep="\n  ")
    print("upward edges:", *(f"{s} -> {t}" for s, t in upward(edges)) or ["none"], sep="\n  ")
    inside = list({(item.source, item.line): item for item in imports() if item.in_function}.values())
    print(f"function-level imports: {len(inside)}, {len(unexplained())} without a reason")
    if "-v" in sys.argv:
        for item in inside:
            print(f"  {item.source}:{item.line} -> {item.target}{'' if item.commented else '  (no reason)'}")


def test_no_lazily_exported_name_is_also_a_module_of_its_package():
    # `harness.reporters` cannot be both the function and the module: once anything imports the module, the
    # package's attribute is the module, and a call through the package finds a module
    found = [f"{package}.{exported}" for package, path in modules().items() if path.name == "__init__.py"
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             for _, names in lazy_exports(node) for exported in names.split() if f"{package}.{exported}" in modules()]
    assert not found, found
    assert lazy_exports(ast.parse('lazy(__name__, {".session": "Session run_session"})').body[0].value) == \
        [(".session", "Session run_session")]


def lazy_exports(node: ast.AST) -> list[tuple[str, str]]:
    """(module, names) of `lazy(__name__, {...})`."""
    if not lazy_homes(node):
        return []
    return [(key.value, value.value) for key, value in zip(node.args[1].keys, node.args[1].values)
            if isinstance(key, ast.Constant) and isinstance(value, ast.Constant)]
