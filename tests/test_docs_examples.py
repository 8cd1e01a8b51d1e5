"""What the docs show a new user must work as shown: the example adapter passes the suite, the protocol page's
JSON fits the published schemas, the example state is a real position, and every `azul` command the docs
quote names a real subcommand with real options (and `--only` values that select something)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from functools import lru_cache
from importlib import resources
from pathlib import Path

import click
import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from azul_conformance.cli import main
from azul_conformance.engines import messages as msg
from azul_conformance.harness.report import read_report

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "docs" / "examples" / "minimal_adapter.py"
ADAPTER_COMMAND = shlex.join([sys.executable, str(ADAPTER)])
EXAMPLE_STATE = ROOT / "docs" / "examples" / "example-state.json"
PROTOCOL_PAGE = ROOT / "docs" / "reference" / "protocol.md"
# Pages whose commands a new user copies; README.md first (the brief of this test).
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
         *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "reference").glob("*.md")),
         "conformance/scenarios/README.md", "benchmarks/README.md"]
SHELL_OPERATORS = {"|", "||", "&&", ";", "&", "(", ")"}
REDIRECTS = {">", ">>", "<", "2>", "2>&1"}


# -- (a) the example adapter ----------------------------------------------------------------------------------

def test_the_minimal_adapter_passes_the_smoke_test():
    result = CliRunner().invoke(main, ["smoke", "--engine", ADAPTER_COMMAND])
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output


@pytest.mark.parametrize("slip, broken, failed, check, why", [
    # the adapter echoes whatever id it was sent: a list, an object, a boolean, a fraction, infinity
    ("    return value if isinstance(value, str) or type(value) is int else None", "    return value", 5,
     "id a list", "a request with id a list was answered as if it were valid"),
    # the adapter answers hello whatever protocol it is asked for
    ('        if type(request.get("protocol")) is not int or request["protocol"] != 1:', "        if False:", 1,
     "protocol 2", "hello for protocol 2 was accepted"),
])
def test_smoke_fails_an_adapter_that_breaks_a_protocol_check(tmp_path, slip, broken, failed, check, why):
    text = ADAPTER.read_text(encoding="utf-8")
    assert slip in text  # the line this test breaks is still the adapter's
    (tmp_path / "adapter.py").write_text(text.replace(slip, broken), encoding="utf-8")
    result = CliRunner().invoke(main, ["smoke", "--engine", shlex.join([sys.executable, str(tmp_path / "adapter.py")])])
    output = " ".join(result.output.split())
    assert result.exit_code == 1 and f"{failed} check(s) failed" in output, output
    assert f"FAIL {check} {why}" in output, output


def test_the_minimal_adapter_passes_the_whole_suite(tmp_path):
    result = CliRunner().invoke(main, ["conform", "--engine", ADAPTER_COMMAND, "--examples", "3",
                                       "--report-dir", str(tmp_path)])
    report = read_report(tmp_path / "report.jsonl")
    assert result.exit_code == 0, result.output
    assert report.footer["counts"]["pass"] == len(report.results) >= len(corpus()) + 1
    assert report.footer["counts"]["skip"] == 0


def test_the_minimal_adapter_replies_fit_the_schema_refusals_included():
    requests = [{"id": 1, "cmd": "hello", "protocol": 1}, {"id": 2, "cmd": "new_game", "players": 2},
                {"id": 3, "cmd": "play", "move": "1B1"},  # no take is due before the deal: illegal_move OFFER-15
                {"id": 4, "cmd": "play", "move": "1b1"},  # not a move: bad_request, and no rule to name
                {"id": 5, "cmd": "deal"}, {"id": 6, "cmd": "legal_moves"}, {"id": 7, "cmd": "state"},
                {"id": 8, "cmd": "load_state", "state": {"format": "azul-state/1"}}, {"cmd": "quit"}]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([sys.executable, str(ADAPTER)], input=lines, capture_output=True, text=True, timeout=30)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [r["id"] for r in replies] == list(range(1, 9)), done.stderr
    for reply in replies:
        assert msg.schema_problems(reply, "reply") == [], reply
    assert replies[2]["error"] == {"code": "illegal_move", "rule": "OFFER-15",
                                   "message": "1B1: no take can be played in phase 'deal'"}
    assert replies[3]["error"]["code"] == "bad_request" and "rule" not in replies[3]["error"]


# -- (b) the protocol page's JSON and the example state ------------------------------------------------------

def example_state() -> dict:
    return json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))


def page_messages(text: str) -> list[list[dict]]:
    """The JSON messages of each ```json block, one per object (an object may span lines). An elided part
    (`{...}`, `, ...}`) becomes the key "..."; a state with one is filled in from the example state."""
    blocks = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        messages, pending = [], ""
        for line in block.splitlines():
            pending += line + "\n"
            if pending.count("{") == pending.count("}") and pending.strip():
                messages.append(_fill(json.loads(_mark_elisions(pending))))
                pending = ""
        assert not pending.strip(), f"an unbalanced JSON example: {pending!r}"
        blocks.append(messages)
    return blocks


def _filled(state):
    if isinstance(state, dict) and state.pop("...", False):
        unknown = set(state) - set(example_state())
        assert not unknown, f"the example shows state fields that do not exist: {unknown}"
        return {**example_state(), **state}
    return state


def _mark_elisions(text: str) -> str:
    text = re.sub(r"\{\s*\.\.\.\s*\}", '{"...": true}', text)
    return re.sub(r",\s*\.\.\.\s*\}", ', "...": true}', text)


def _fill(message: dict) -> dict:
    if "state" in message:
        message["state"] = _filled(message["state"])
    if isinstance(message.get("states"), list):  # play_game's reply
        message["states"] = [_filled(state) for state in message["states"]]
    assert '"...": true' not in json.dumps(message), f"an elision outside a state: {message}"
    return message


def test_every_json_example_of_the_protocol_page_fits_the_schema():
    blocks = page_messages(PROTOCOL_PAGE.read_text(encoding="utf-8"))
    commands = set()
    for block in blocks:
        request = None
        for message in block:
            kind = "request" if "cmd" in message else "reply"
            assert msg.schema_problems(message, kind) == [], f"{kind} {message}"
            if kind == "request":
                request, commands = message, commands | {message["cmd"]}
            elif request is not None:
                assert message["id"] == request["id"], f"{message} does not echo {request}"
    assert commands == set(msg.REQUESTS)  # every request of protocol v1 is shown


def test_the_documented_new_game_refusal_is_the_reference_engines():
    from azul_reference.protocol import Server, reply_to

    documented = [m for block in page_messages(PROTOCOL_PAGE.read_text(encoding="utf-8")) for m in block
                  if m.get("error", {}).get("rule") == "SETUP-6"]
    assert documented == [reply_to(Server(), b'{"id": 2, "cmd": "new_game", "players": 5}')]


def test_the_rule_ids_the_reference_pages_name_exist():
    known = rule_ids()
    for page in ("protocol.md", "state.md", "notation.md"):
        text = (ROOT / "docs" / "reference" / page).read_text(encoding="utf-8")
        named = set(re.findall(r"\b(?:SETUP|DEAL|OFFER|FLOOR|TILING|WALL|SCORE|ROUND|END|GREY)-\d+\b", text))
        assert named and named <= known, f"{page}: unknown rule IDs {sorted(named - known)}"


def test_the_example_state_is_a_valid_canonical_state():
    from azul_reference import from_state, problems, to_state

    state = example_state()
    _, state_schema = msg.schemas()
    assert list(jsonschema.Draft202012Validator(state_schema).iter_errors(state)) == []
    assert problems(state) == []
    assert to_state(from_state(state)) == state  # already in canonical form: what an engine would send back


# -- (c) the `azul` commands the docs quote ------------------------------------------------------------------

@lru_cache(maxsize=1)
def rule_ids() -> frozenset[str]:
    folder = resources.files("azul_spec") / "rules"
    ids = set()
    for path in folder.iterdir():
        if path.name.endswith(".yaml"):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            ids |= {rule["id"] for rule in data.get("rules", [])}
    return frozenset(ids)


@lru_cache(maxsize=1)
def corpus() -> tuple:
    from azul_conformance.scenario import load_scenarios

    return tuple(load_scenarios(None))


def code_lines(text: str) -> list[str]:
    """Command lines of the fenced code blocks (continuations joined, `$ ` prompts dropped)."""
    lines = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            lines.append(line.strip().removeprefix("$ "))
    return lines


def help_lines(command: click.Command) -> list[str]:
    """The example lines of a command's --help (after `Example:` or `Examples:`), and of its subcommands."""
    text = (command.help or "").replace("\\\n", " ")
    lines = []
    for chunk in re.split(r"\n\s*Examples?:\n", text)[1:]:
        for line in chunk.split("\n\n")[0].splitlines():
            lines.append(line.strip())
    for sub in getattr(command, "commands", {}).values():
        lines += help_lines(sub)
    return lines


def invocations(line: str) -> list[list[str]]:
    """The argument lists of every `azul` (or `.../azul`) command in one shell line."""
    if not re.search(r"(^|[\s|&;(/])azul\s", line):
        return []
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens, found, segment, skip = list(lexer), [], [], False
    for token in tokens + [";"]:
        if skip:
            skip = False
        elif token in REDIRECTS:
            skip = True  # the redirection's target is no argument
        elif token in SHELL_OPERATORS:
            while segment and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", segment[0]):
                segment = segment[1:]  # an environment assignment before the command
            if segment and segment[0].rsplit("/", 1)[-1] == "azul":
                found.append(segment[1:])
            segment = []
        else:
            segment.append(token)
    return found


def _option(command: click.Command, name: str) -> click.Option | None:
    for param in command.params:
        if isinstance(param, click.Option) and name in param.opts + param.secondary_opts:
            return param
    return None


def check_invocation(args: list[str], complete: bool = True) -> tuple[list[str], list[tuple]]:
    """Problems with `azul ARGS` (unknown subcommand or option, a bad value, wrong positional count), and
    the (subcommand path, option, value) triples given, for further checks. `complete=False` (a command
    named in prose) skips positional counts and value checks."""
    command, path, positionals, given, problems = main, ["azul"], [], [], []
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if token in ("--help", "-h"):
            continue
        if token.startswith("-") and token != "-":
            name, _, inline = token.partition("=")
            option = _option(command, name)
            if option is None:
                problems.append(f"{' '.join(path)} has no option {name}")
                continue
            if option.is_flag or option.count:
                continue
            value = inline if inline else (args[i] if i < len(args) else None)
            i += 0 if inline else 1
            given.append((" ".join(path), option.name, value))
            if complete and value is not None and not isinstance(option.type, (click.Path, click.File)):
                try:
                    option.type.convert(value, option, click.Context(command))
                except click.BadParameter as error:
                    problems.append(f"{' '.join(path)} {name} {value}: {error.message}")
            continue
        if isinstance(command, click.Group):
            sub = command.get_command(click.Context(command), token)
            if sub is None:
                return problems + [f"{' '.join(path)} has no subcommand {token!r}"], given
            command, path = sub, path + [token]
            continue
        positionals.append(token)
    if isinstance(command, click.Group):
        problems.append(f"{' '.join(path)} names no subcommand")
    elif complete:
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        most = None if any(a.nargs == -1 for a in arguments) else sum(a.nargs for a in arguments)
        least = sum(max(a.nargs, 1) for a in arguments if a.required)
        if len(positionals) < least or (most is not None and len(positionals) > most):
            problems.append(f"{' '.join(path)} takes {least} to {most if most is not None else 'any'} "
                            f"arguments, got {positionals}")
    return problems, given


def quoted_commands() -> list[tuple[str, list[str], bool]]:
    """(where, args, complete) for every azul command in the pages' code blocks, inline code and --help."""
    found = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        found += [(page, args, True) for line in code_lines(text) for args in invocations(line)]
        found += [(page, args, False) for span in re.findall(r"`(azul [^`]*)`", text) for args in invocations(span)]
    found += [("azul --help", args, True) for line in help_lines(main) for args in invocations(line)]
    for name in main.list_commands(click.Context(main)):
        command = main.get_command(click.Context(main), name)
        found += [(f"azul {name} --help", args, True) for line in help_lines(command) for args in invocations(line)]
    return found


def test_the_readme_code_blocks_quote_real_commands_and_options():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [args for line in code_lines(text) for args in invocations(line)]
    assert len(commands) >= 10  # the extraction sees the README's commands
    problems = [f"azul {shlex.join(args)}: {p}" for args in commands for p in check_invocation(args)[0]]
    assert problems == []


def test_every_quoted_azul_command_is_real():
    found = quoted_commands()
    assert {where for where, _, _ in found} >= {"README.md", "docs/validate-your-engine.md", "azul conform --help"}
    problems = [f"{where}: azul {shlex.join(args)}: {problem}"
                for where, args, complete in found for problem in check_invocation(args, complete)[0]]
    assert problems == []


def test_every_only_value_the_docs_quote_selects_something():
    from azul_conformance.harness.cases import property_cases, scenario_case, select

    scenarios = [scenario_case(s) for s in corpus()]
    cases = scenarios + property_cases()
    empty = []
    for where, args, _ in quoted_commands():
        for path, option, value in check_invocation(args, complete=False)[1]:
            if option != "only":
                continue
            if path == "azul mutants":  # its --only picks mutants, by id, rule or chapter
                from azul_conformance.mutants import MUTANTS, select as select_mutants

                chosen = select_mutants(MUTANTS, [value])
            else:
                chosen = select(cases if path == "azul conform" else scenarios, [value])
            if not chosen:
                empty.append(f"{where}: {path} --only {value}")
    assert empty == []


def test_the_readme_counts_the_scenarios_right():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{len(corpus())} scenarios" in text


# -- the scenario README's examples ---------------------------------------------------------------------------

def _scenario_readme_examples() -> dict[str, str]:
    text = (ROOT / "conformance" / "scenarios" / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```([a-z]*)\n(.*?)```", text, re.S)
    whole = next(body for lang, body in blocks if lang == "yaml" and body.startswith("- id:"))
    position = next(body for lang, body in blocks if lang == "" and body.startswith("players:"))
    checks = next(body for lang, body in blocks if lang == "yaml" and "- expect:" in body)
    return {
        "whole": whole,
        "position": ("- id: edges-readme-position\n  title: The README's position loads\n  rules: [OFFER-1]\n"
                     "  level: edge\n  given: |\n" + textwrap.indent(position, "    ") + "  expect: round = 2\n"),
        "checks": ("- id: offer-readme-checks\n  title: The README's checks between steps\n  rules: [OFFER-1]\n"
                   "  level: rule\n" + checks),
    }


@pytest.mark.parametrize("name", ["whole", "position", "checks"])
def test_the_scenario_readme_examples_pass_on_the_reference_engine(name, tmp_path):
    from azul_conformance.engines.reference import ReferenceEngine
    from azul_conformance.scenario import load_scenarios, run_scenario

    path = tmp_path / f"{name}.yaml"
    path.write_text(_scenario_readme_examples()[name], encoding="utf-8")
    errors: list = []
    scenarios = load_scenarios([path], errors)
    assert errors == [] and len(scenarios) == 1, [str(e) for e in errors]
    result = run_scenario(ReferenceEngine(0), scenarios[0])
    assert result.verdict == "pass", (result.message, result.diff)


# -- the validate-your-engine guide --------------------------------------------------------------------------

GUIDE = ROOT / "docs" / "validate-your-engine.md"


def rendered_guide() -> str:
    """The guide as a reader sees it, on the code host or the docs site: its numbers as committed, which must
    be the corpus's (`python docs/hooks/docgen_counts.py` rewrites them), the comments naming them hidden."""
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    import docgen_counts

    problems: list[str] = []
    committed = GUIDE.read_text(encoding="utf-8")
    assert docgen_counts.fill(committed, "validate-your-engine.md", problems) == committed, \
        "the guide's counts are stale: run python docs/hooks/docgen_counts.py"
    assert problems == [] and "{{" not in committed and "?<!--" not in committed
    return re.sub(r"<!-- counts\.[a-z_0-9]+ -->", "", committed)


def test_a_count_the_docs_do_not_know_is_a_build_problem():
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    import docgen_counts

    problems: list[str] = []
    filled = docgen_counts.fill("1<!-- counts.cases --> and 7<!-- counts.nope -->", "x.md", problems)
    assert filled.endswith(" and 7<!-- counts.nope -->") and not filled.startswith("1<")
    assert problems and problems[0].startswith("x.md: no count named 'nope'")


def test_the_guide_counts_the_cases_each_capability_gates():
    """The guide's numbers are the corpus's, counted here independently of the docs build that fills them in
    (docs/hooks/docgen_counts.py), so scenarios can be added without touching the guide."""
    from azul_conformance.harness.cases import property_cases, scenario_case

    scenarios = [scenario_case(s) for s in corpus()]
    cases = scenarios + property_cases()
    needing = {need: sum(need in case.requires for case in cases)
               for need in ("load_state", "deal", "players:3", "players:4", "grey")}
    more = sum(bool({"players:3", "players:4"} & set(case.requires)) for case in cases)
    two_player = sum(not set(case.requires) - {"colour", "players:2", "load_state", "deal"} for case in cases)
    grey_only = sum("colour" not in case.requires for case in cases)
    both_walls = sum(len(case.payload.variants) > 1 for case in scenarios)
    refused = sum(any(step.kind == "move" and step.reject and step.reject.code == "illegal_move"
                      for step in case.payload.steps) for case in scenarios)
    loaded = sum(case.payload.given.state is not None for case in scenarios)
    text = " ".join(rendered_guide().split())
    phrases = [f"{len(property_cases())} properties, {len(cases)} cases in all",
               f"| `\"load_state\": true` | {needing['load_state']} ({loaded} scenarios start from a given position",
               f"| {len(cases) - needing['load_state']} cases run |",
               f"| `\"deal\": true` (given factories) | {needing['deal']} scenarios | "
               f"{len(cases) - needing['deal']} cases run |",
               f"| {more} scenarios ({needing['players:3']} for 3 players, {needing['players:4']} for 4) |",
               f"| `\"variants\"` holding `\"grey\"` | {needing['grey']} scenarios (the grey wall's own) |",
               f"a grey-only engine is judged on {grey_only} cases |", f"Most scenarios, {both_walls} of them",
               f"is judged on {grey_only} of the {len(cases)} cases and skips {len(cases) - grey_only}, the coloured",
               f"Of the {len(cases)} cases, {needing['load_state']} start from a given position",
               f"only {len(cases) - needing['load_state']} cases run, and the {needing['load_state']} others",
               f"the {needing['deal']} scenarios with given deals are skipped",
               f"The corpus has {refused} scenarios that expect a move to be refused",
               f"is caught by exactly those {refused + 2} cases, and the other {len(cases) - refused - 2} pass",
               f"the {more} scenarios that need 3 or 4 players ({needing['players:3']} and {needing['players:4']})",
               f"skips {needing['grey']} more",
               f"is judged on {two_player} of the {len(cases)} cases and skips {len(cases) - two_player}"]
    assert [phrase for phrase in phrases if phrase not in text] == []


GUIDE_NAMES = {  # what the guide's worked examples name, and the adapter file that defines it
    "adapters/azul-ai-go/deal.go": ["func arrangedBag(", "func unshuffle(", ") orderBagFor(", ") undeal("],
    "adapters/azul-ai-go/state.go": [") loadState("],
    "adapters/azul-ai-go/main.go": [") play(", ") legalMoves(", ") newGame(", "func moveText(", "func parseMove("],
    "adapters/ludometer-py/adapter.py": ["class SteppedState(", "def pop_orders(", "class ArrangedDraw",
                                        "def _deal_given(", "def build(", "def move_text(", "def action_of(",
                                        '"players": [2]'],
    "adapters/ludometer-py/inprocess.py": ["def make_engine("],
    "adapters/myzul-ts/deal.ts": ["function orderBag(", "function plannedRandom("],
    "adapters/myzul-ts/table.ts": ["function fromState(", "const COLOUR:", "const LETTER:"],
    "adapters/myzul-ts/adapter.ts": ["function sourceName("],
    "adapters/azul-game-engine/adapter.py": ["class SteppedGame(", "def prepare_for_next_round(", "def build_game(",
                                            "def build_player(", "def try_move(", "def candidates(",
                                            "def seed_the_deal("],
    "adapters/azul-marl-env/adapter.py": ["def state_json(", "def play("],
}


def test_the_guide_names_real_adapter_files_and_functions():
    text = GUIDE.read_text(encoding="utf-8")
    paths = {path for path in re.findall(r"`(adapters/[^`\s<]+)`", text)}
    assert paths >= set(GUIDE_NAMES) and [path for path in paths if not (ROOT / path).exists()] == []
    for path, definitions in GUIDE_NAMES.items():
        source = (ROOT / path).read_text(encoding="utf-8")
        for definition in definitions:
            name = re.sub(r"^(func|def|class|function|const|\)) |[(:]$", "", definition.strip())
            assert definition in source, f"{path} no longer defines {definition!r}"
            assert f"`{name}`" in text or f"`{definition}`" in text, f"the guide does not name {name!r}"


def test_the_guide_counting_snippet_runs():
    snippet = re.search(r'```python title="count the cases each capability gates"\n(.*?)```',
                        GUIDE.read_text(encoding="utf-8"), re.S).group(1)
    done = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.match(r"\d+ cases\nload_state \d+\ndeal \d+\n", done.stdout), done.stdout


def test_ids_neither_integer_nor_string_are_refused_with_id_null_as_the_guide_shows():
    line = next(line for line in code_lines(GUIDE.read_text(encoding="utf-8")) if line.startswith("printf "))
    requests = shlex.split(line.split("|")[0])[2:]
    assert len(requests) == 3
    done = subprocess.run([sys.executable, str(ADAPTER)], input="\n".join(requests) + "\n", capture_output=True,
                          text=True, timeout=30)
    replies = [json.loads(reply) for reply in done.stdout.splitlines()]
    assert len(replies) == 3 and done.returncode == 0, done.stderr
    for reply in replies:
        assert reply["id"] is None and reply["ok"] is False and reply["error"]["code"] == "bad_request"


def test_the_guides_install_commands_are_the_readmes():
    # a newcomer read three different installs in the README and the guide: each install the guide gives is
    # one the README gives, word for word
    def installs(text: str) -> set[str]:
        return {" ".join(found.split()) for found in re.findall(r"pip install[^`\n]*?(?=[`\n]|\s+&&|\s+#)", text)}

    readme = installs((ROOT / "README.md").read_text(encoding="utf-8"))
    guide = installs(GUIDE.read_text(encoding="utf-8"))
    assert guide and guide <= readme, guide - readme


def test_the_readme_links_the_guide():
    assert "](docs/validate-your-engine.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
