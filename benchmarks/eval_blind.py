#!/usr/bin/env python3
"""The blind score of the diagnosis: blind edits of the reference engine (the generated mutants of
benchmarks/generated_mutants.py, cosmic-ray's operators) run through the suite and diagnosed, each judged by
whether the misreadings named are of the rule its mutated code implements.

Nobody on the project chose these edits, so the catalogue of misreadings was never fitted to them: the figures
say how the diagnosis does on engines it has not met. The rule a mutant's code implements is read mechanically
from the reference's own citations: the rule IDs in the enclosing function (its docstring, comments and the rule
its refusals name) and the comment block above it; a function citing none gives the next enclosing function's,
then none (`no rule`: left out of the score). A statement outside any function gives the IDs on its own lines
and in the comment block above it.

Two steps, kept apart so that the diagnosis can be run again alone on the stored results after the catalogue or
the diagnosis changes (minutes, not the suite's run again):

  --run       the same seeded sample as the generated-mutants campaign (seed 0, extended), each mutant in a
              forked process behind the reference adapter, the whole default suite (scenarios, then the
              properties with --examples games each, no stop at the first failure); every result written as a
              line of DIR/<mutant>.jsonl as it comes (a mutant stopped after --limit seconds keeps what it did)
  --diagnose  each stored mutant's results diagnosed (conformance/diagnosis), classified and written to --json

Each mutant is then, against the rules its code cites:

  right rule (lenient)  a misreading named (a deviation's, or one listed as indistinguishable) is of its rules
  right rule (strict)   besides, every deviation's own misreading is of its rules (a pair: both)
  wrong rule named      misreadings are named and none of them is of its rules: the worst outcome
  not diagnosed         no misreading named: only failures nothing explains, or engine faults
  not killed            no case failed: out of the score, as are the `no rule` mutants and those with nothing
                        to diagnose (the mutant fails to import, or hung or died before any case failed)

The score's base: the killed mutants whose code cites a rule. Goal (issue 45): wrong rule named <= 5%.

examples:
  python benchmarks/eval_blind.py --run --sample 20 --store /tmp/blind        # measure the time first
  python benchmarks/eval_blind.py --run --diagnose --store /tmp/blind --json docs/reports/diagnosis/blind.json
  python benchmarks/eval_blind.py --diagnose --store /tmp/blind --json docs/reports/diagnosis/blind.json
  python benchmarks/eval_blind.py --rules game.py:150                         # the rules cited for a line
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import io
import json
import os
import re
import sys
import time
import tokenize
from pathlib import Path

from azul_conformance.processes import Ended, each_in_a_process

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("generated_mutants", ROOT / "benchmarks" / "generated_mutants.py")
gm = sys.modules.get("generated_mutants") or importlib.util.module_from_spec(_spec)
if "generated_mutants" not in sys.modules:
    sys.modules["generated_mutants"] = gm  # dataclasses look their module up by name
    _spec.loader.exec_module(gm)

STORE = ROOT / ".blind"  # gitignored: the suite's results per mutant
JSON = ROOT / "docs" / "reports" / "diagnosis" / "blind.json"
SAMPLE = "sample.json"  # in the store: the keys drawn, in order
CLASSES = ("right rule", "wrong rule named", "not diagnosed", "not killed", "no rule", "nothing to diagnose",
           "not run")
GOAL_WRONG = 0.05


# -- which rules a line of the reference implements ------------------------------------------------------------

def _rule_pattern():
    from azul_conformance.spec_data import RULE_PREFIXES

    # OFFER-2, and a range as the reference writes it: DEAL-1..3, END-5..7
    return re.compile(rf"\b({'|'.join(RULE_PREFIXES)})-(\d+)(?:\.\.(\d+))?\b")


def cited(text: str, known: set[str] | None = None) -> tuple[str, ...]:
    """The rule IDs `text` cites, ranges spelt out, in order of first mention; only rules of the spec count."""
    from azul_conformance.spec_data import rule_titles

    known = known if known is not None else set(rule_titles())
    found: list[str] = []
    for match in _rule_pattern().finditer(text):
        prefix, first, last = match.group(1), int(match.group(2)), int(match.group(3) or match.group(2))
        for number in range(first, max(first, last) + 1):
            rule = f"{prefix}-{number}"
            if rule in known and rule not in found:
                found.append(rule)
    return tuple(found)


def _comment_above(lines: list[str], first: int) -> str:
    """The comment lines directly above line `first` (1-based), up to the first line that is not a comment."""
    above, index = [], first - 2
    while index >= 0 and lines[index].strip().startswith("#"):
        above.append(lines[index])
        index -= 1
    return "\n".join(reversed(above))


def _citing_text(text: str) -> list[str]:
    """The source with everything but comments and string literals blanked: citations live in comments,
    docstrings and the rule a refusal names, never in a name of the code."""
    kept = [[" "] * len(line) for line in text.splitlines()]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING) or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            (row, col), (end_row, end_col) = token.start, token.end
            for r in range(row, end_row + 1):
                line = text.splitlines()[r - 1]
                start = col if r == row else 0
                stop = end_col if r == end_row else len(line)
                kept[r - 1][start:stop] = line[start:stop]
    return ["".join(chars) for chars in kept]


class RuleMap:
    """Per module of reference_impl/, the rules each line's code cites (see the module docstring)."""

    def __init__(self, texts: dict[str, str]) -> None:
        from azul_conformance.spec_data import rule_titles

        self.known = set(rule_titles())
        self.texts = texts
        self._trees = {}
        self._citing = {}

    def _tree(self, module: str):
        if module not in self._trees:
            self._trees[module] = ast.parse(self.texts[module])
            self._citing[module] = _citing_text(self.texts[module])
        return self._trees[module], self._citing[module]

    def rules(self, module: str, line: int) -> tuple[str, tuple[str, ...]]:
        """(where, rules): the function (or statement) whose citations count for `line`, and the rules cited."""
        tree, citing = self._tree(module)
        lines = self.texts[module].splitlines()
        functions = []  # the enclosing functions, outermost first
        statement = None
        for node in ast.walk(tree):
            if not hasattr(node, "lineno"):
                continue
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            if not first <= line <= node.end_lineno:
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append((first, node))
            elif isinstance(node, ast.stmt) and (statement is None or node.lineno >= statement[0]) \
                    and not isinstance(node, ast.ClassDef):
                statement = (first, node)
        for first, node in sorted(functions, key=lambda f: -f[0]):  # innermost first
            text = "\n".join(citing[first - 1:node.end_lineno]) + "\n" + _comment_above(lines, first)
            found = cited(text, self.known)
            if found:
                return node.name, found
        if functions:
            return sorted(functions, key=lambda f: -f[0])[0][1].name, ()
        if statement is None:
            return "<module>", ()
        first, node = statement
        text = "\n".join(citing[first - 1:node.end_lineno]) + "\n" + _comment_above(lines, first)
        return f"<module line {first}>", cited(text, self.known)


# -- the suite's run on each mutant, stored ----------------------------------------------------------------------

def stored_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", key) + ".jsonl"


def _case_list(examples: int, seed: int):
    from azul_conformance.harness.session import Session, collect

    return collect(Session(examples=examples, seed=seed)).cases


def run_one(texts: dict[str, str], mutant, rules: tuple[str, tuple[str, ...]], cases, path: Path, examples: int,
            seed: int, case_timeout: float) -> None:
    """The whole suite on one mutant (in the calling process), each result a line of `path` as it comes: the
    failures whole, a pass by its id only (all the diagnosis needs of one: the passes rule misreadings out)."""
    from azul_conformance.harness.runner import RunOptions, run_cases

    started = time.perf_counter()
    after = gm.mutated(texts, mutant)
    before_line, after_line = gm.change(texts[mutant.module], after or texts[mutant.module])
    with path.open("w", encoding="utf-8") as out:
        header = {"mutant": mutant.key, "module": mutant.module, "line": mutant.line, "operator": mutant.operator,
                  "before": before_line, "after": after_line, "function": rules[0], "rules": list(rules[1]),
                  "reference": gm.digest(texts), "examples": examples, "seed": seed}
        out.write(json.dumps(header) + "\n")
        out.flush()
        try:
            package = gm.load_package({**texts, mutant.module: after})
        except Exception as error:  # noqa: BLE001 - a mutant that cannot even be imported: no result to diagnose
            out.write(json.dumps({"ended": "load", "error": f"{type(error).__name__}: {error}"[:300]}) + "\n")
            return

        def kept(result) -> None:
            row = result.to_json() if result.bad else {"id": result.id, "kind": result.kind, "verdict": result.verdict}
            out.write(json.dumps(row, default=str) + "\n")
            out.flush()

        run_cases(gm.mutant_engine(package, seed), list(cases),
                  RunOptions(examples=examples, seed=seed, case_timeout=case_timeout), on_result=kept)
        out.write(json.dumps({"ended": "done", "seconds": round(time.perf_counter() - started, 2)}) + "\n")


def read_stored(path: Path) -> tuple[dict, list, dict | None]:
    """(header, results, end) of one mutant's file; end is None when its run was stopped (results so far)."""
    from azul_conformance.results import CaseResult

    header, results, end = None, [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            if number == 1:
                raise SystemExit(f"{path}:{number}: not JSON ({error.msg})") from None
            break  # the last line of a run stopped mid-write
        if header is None:
            header = row
        elif "ended" in row:
            end = row
        else:
            results.append(CaseResult.from_json(row))
    if not isinstance(header, dict) or "mutant" not in header:
        raise SystemExit(f"{path}:1: no mutant header")
    return header, results, end


def run_all(texts, chosen, rule_map: RuleMap, store: Path, examples: int, seed: int, jobs: int, limit: float,
            case_timeout: float) -> None:
    store.mkdir(parents=True, exist_ok=True)
    # the draw as it was made: --diagnose alone reads it, so a later change to the engine's code (which changes
    # the population and so the draw) does not change which mutants are scored
    (store / SAMPLE).write_text(json.dumps({"seed": seed, "reference": gm.digest(texts),
                                            "keys": [m.key for m in chosen]}, indent=1) + "\n", encoding="utf-8")
    waiting = [m for m in chosen if not _finished(store / stored_name(m.key))]
    print(f"{len(chosen)} mutants drawn (seed {seed}), {len(chosen) - len(waiting)} stored already, "
          f"{len(waiting)} to run, {jobs} at a time, {examples} games per property", flush=True)
    cases = _case_list(examples, seed)
    started, done = time.perf_counter(), [0]

    def work(mutant) -> None:
        run_one(texts, mutant, rule_map.rules(mutant.module, mutant.line), cases, store / stored_name(mutant.key),
                examples, seed, case_timeout)

    def answered(mutant, answer) -> None:
        done[0] += 1
        path = store / stored_name(mutant.key)
        if isinstance(answer, Ended):  # stopped or died: the results written so far stand
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"ended": "timeout" if answer.overran else f"crash (exit {answer.exit_code})",
                                      "seconds": round(answer.seconds, 2)}) + "\n")
        _, results, end = read_stored(path)
        print(f"[{done[0]}/{len(waiting)}] {mutant.key}: {sum(r.bad for r in results)} of {len(results)} cases "
              f"failing, {(end or {}).get('ended')} [{time.perf_counter() - started:.0f} s]", flush=True)

    each_in_a_process(waiting, work, answered, jobs, limit)


def _finished(path: Path) -> bool:
    return path.exists() and read_stored(path)[2] is not None


# -- the diagnosis of the stored results, and the classification -------------------------------------------------

def _reading(misreading) -> dict:
    return {"id": misreading.id, "rules": list(misreading.rules)}


def diagnosed(results, cases, seed: int) -> dict:
    """What the diagnosis names for one mutant's results."""
    from azul_conformance.diagnosis import diagnose

    found = diagnose(results, cases, jobs=1, seed=seed)
    return {"deviations": [{"kind": d.kind, "rule": d.rule, "cases": len(d.cases),
                            "misreading": _reading(d.misreading) if d.misreading else None,
                            "alike": [_reading(m) for m in d.alike]} for d in found.deviations],
            "catalogue": found.tried, "seconds": round(found.seconds, 2)}


def classify(rules: list[str], failing: int, found: dict | None, ended: str = "done") -> tuple[str, bool]:
    """(class, strict) of one mutant; strict: every deviation's own misreading is of `rules` (right rule only).
    A mutant that failed to import, or was stopped or died before any case failed, is killed with nothing to
    diagnose."""
    if not failing:
        return ("not killed" if ended == "done" else "nothing to diagnose"), False
    if not rules:
        return "no rule", False
    if found is None:
        return "not diagnosed", False
    own = [d["misreading"] for d in found["deviations"] if d["misreading"]]
    named = own + [m for d in found["deviations"] for m in d["alike"]]
    if not named:
        return "not diagnosed", False
    if any(set(m["rules"]) & set(rules) for m in named):
        return "right rule", all(set(m["rules"]) <= set(rules) for m in own)
    return "wrong rule named", False


def rules_now(header: dict, function: str, rules: list[str]) -> tuple[str, list[str]]:
    """The rules the mutant's code cites in today's reference, where today's source holds the same edit under
    the same key (a citation added since the run counts); else those stored at the run."""
    texts = gm.sources()
    mutant = next((m for m in gm.population(texts)[0] if m.key == header["mutant"]), None)
    edit = gm.change(texts[mutant.module], gm.mutated(texts, mutant) or "") if mutant else None
    # a comment added on the edited line since (a citation) leaves the edit the same
    if edit is None or tuple(map(_code_only, edit)) != (_code_only(header["before"]), _code_only(header["after"])):
        return function, rules
    where, found = _rule_map(texts).rules(mutant.module, mutant.line)
    return where, list(found)


def _code_only(text: str) -> str:
    """An edited line (or lines joined by ` / `) without its trailing comments."""
    return " / ".join(re.sub(r"\s+#.*$", "", part) for part in text.split(" / "))


_RULE_MAPS: dict[str, RuleMap] = {}


def _rule_map(texts: dict[str, str]) -> RuleMap:
    key = gm.digest(texts)
    if key not in _RULE_MAPS:
        _RULE_MAPS[key] = RuleMap(texts)
    return _RULE_MAPS[key]


def diagnose_all(store: Path, chosen_keys: list[str], jobs: int, limit: float,
                 rows_file: Path | None = None) -> list[dict]:
    """Every stored mutant of `chosen_keys` diagnosed (each in a forked process) and classified, in draw order.
    With `rows_file`, each mutant's row is appended to it as it is diagnosed, and the rows already in it are kept
    (a diagnosis cut short goes on where it stopped: keep the checkout the same in between)."""
    done_before = {}
    if rows_file is not None and rows_file.exists():
        for line in rows_file.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                break  # the last line of a diagnosis stopped mid-write
            done_before[row["key"]] = row
    stored = {key: store / stored_name(key) for key in chosen_keys if (store / stored_name(key)).exists()}
    headers = {key: read_stored(path) for key, path in stored.items()}
    settings = {(h["examples"], h["seed"]) for h, _, _ in headers.values()}
    if len(settings) > 1:
        raise SystemExit(f"{store}: results of different settings (examples, seed): {sorted(settings)}")
    examples, seed = settings.pop() if settings else (0, 0)
    cases = {case.id: case for case in _case_list(examples, seed)}
    rows: dict[str, dict] = {}
    to_diagnose = []
    for key in chosen_keys:
        if key not in headers:
            rows[key] = {"key": key, "class": "not run"}
            continue
        header, results, end = headers[key]
        row = {"key": key, **{k: header[k] for k in ("module", "line", "operator", "before", "after", "function",
                                                     "rules")},
               "ended": (end or {"ended": "stopped"})["ended"], "cases": len(results),
               "failing": sum(r.bad for r in results), "seconds": (end or {}).get("seconds")}
        row["function"], row["rules"] = rules_now(header, row["function"], row["rules"])
        rows[key] = row
        if key in done_before:
            rows[key] = done_before[key]
        elif row["failing"] and row["rules"]:
            to_diagnose.append(key)
        else:
            row["class"], row["strict"] = classify(row["rules"], row["failing"], None, row["ended"])
    started, done = time.perf_counter(), [0]

    def work(key: str) -> dict:
        return diagnosed(headers[key][1], cases, seed)

    def answered(key: str, answer) -> None:
        done[0] += 1
        row = rows[key]
        if isinstance(answer, Ended):
            row["diagnosis"] = "stopped after the limit" if answer.overran else f"died (exit {answer.exit_code})"
            found = None
        else:
            found = answer
            row["named"] = sorted({m["id"]: m for d in found["deviations"] for m in
                                   ([d["misreading"]] if d["misreading"] else []) + d["alike"]}.values(),
                                  key=lambda m: m["id"])
            row["undiagnosed"] = sum(d["kind"] == "undiagnosed" for d in found["deviations"])
            row["engine_faults"] = sum(d["kind"] == "engine-fault" for d in found["deviations"])
            row["deviations"] = found["deviations"]
            row["diagnosis_seconds"] = found["seconds"]
        row["class"], row["strict"] = classify(row["rules"], row["failing"], found)
        if rows_file is not None:
            with rows_file.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
        print(f"[{done[0]}/{len(to_diagnose)}] {key} ({', '.join(row['rules'])}): {row['class']}"
              + (f": {', '.join(m['id'] for m in row.get('named', []))}" if row.get("named") else "")
              + f" [{time.perf_counter() - started:.0f} s]", flush=True)

    each_in_a_process(to_diagnose, work, answered, jobs, limit)
    return [rows[key] for key in chosen_keys]


def reclassify(document: dict, store: Path) -> dict:
    """The document with each mutant's rules read again from today's reference (rules_now) and its class
    recounted from the deviations it holds: after a citation is added, without diagnosing anything again."""
    for row in document["mutants"]:
        if "failing" not in row:
            continue
        header = read_stored(store / stored_name(row["key"]))[0]
        rules = rules_now(header, row["function"], row["rules"])
        if rules[1] and not row["rules"] and row["failing"]:
            print(f"{row['key']}: cites {', '.join(rules[1])} now but was never diagnosed: run --diagnose")
            continue
        row["function"], row["rules"] = rules
        found = {"deviations": row["deviations"]} if "deviations" in row and "diagnosis" not in row else None
        row["class"], row["strict"] = classify(row["rules"], row["failing"], found, row["ended"])
    document["score"] = counts(document["mutants"])
    return document


def counts(rows: list[dict]) -> dict:
    """The counts by class and the score over the killed mutants whose code cites a rule."""
    found = {name: sum(1 for r in rows if r["class"] == name) for name in CLASSES}
    base = found["right rule"] + found["wrong rule named"] + found["not diagnosed"]
    strict = sum(1 for r in rows if r["class"] == "right rule" and r.get("strict"))

    def share(n: int) -> float | None:
        return round(n / base, 4) if base else None

    # not diagnosed, yet filed under one of its rules: the reader still lands on the right code
    filed = sum(1 for r in rows if r["class"] == "not diagnosed"
                and any(d["rule"] in r["rules"] for d in r.get("deviations", ())))
    return {"counts": found, "scored": base, "right_rule_strict": strict, "not_diagnosed_filed_under_its_rule": filed,
            "share": {"right rule (lenient)": share(found["right rule"]), "right rule (strict)": share(strict),
                      "wrong rule named": share(found["wrong rule named"]),
                      "not diagnosed": share(found["not diagnosed"])}}


def printed(document: dict, worst: int = 15) -> str:
    s = document["score"]
    c, share = s["counts"], s["share"]
    lines = [f"{document['sample']} mutants drawn; {c['not killed']} not killed, {c['no rule']} killed in code citing "
             f"no rule, {c['nothing to diagnose']} killed with nothing to diagnose, {c['not run']} not run: "
             f"{s['scored']} scored",
             f"  right rule      {c['right rule']:4d}  {_pct(share['right rule (lenient)'])} (strict: "
             f"{s['right_rule_strict']}, {_pct(share['right rule (strict)'])})",
             f"  wrong rule      {c['wrong rule named']:4d}  {_pct(share['wrong rule named'])}  (goal <= "
             f"{GOAL_WRONG:.0%})",
             f"  not diagnosed   {c['not diagnosed']:4d}  {_pct(share['not diagnosed'])} ("
             f"{s['not_diagnosed_filed_under_its_rule']} filed under one of its rules)"]
    wrong = sorted((r for r in document["mutants"] if r["class"] == "wrong rule named"),
                   key=lambda r: -r["failing"])
    if wrong:
        lines.append("wrong rules named (most failing cases first):")
        lines += [f"  {r['key']} ({', '.join(r['rules'])}; `{r['before']}` -> `{r['after']}`): "
                  + ", ".join(f"{m['id']} ({'/'.join(m['rules'])})" for m in r["named"]) for r in wrong[:worst]]
    return "\n".join(lines)


def dumped(document: dict) -> str:
    """The figures as JSON: the settings and counts indented, then one line per mutant (a rerun's diff reads
    mutant by mutant)."""
    head = json.dumps({k: v for k, v in document.items() if k != "mutants"}, indent=1, ensure_ascii=False)
    rows = ",\n".join(json.dumps(row, ensure_ascii=False) for row in document["mutants"])
    return head[:-2] + ',\n "mutants": [\n' + rows + "\n ]\n}\n"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:6.1%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", action="store_true", help="run the suite on the mutants not stored yet")
    parser.add_argument("--diagnose", action="store_true", help="diagnose the stored results and classify")
    parser.add_argument("--sample", type=int, default=450,
                        help="mutants drawn (default: 450, the published draw: about 300 of them scored)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw and of the properties (default: 0)")
    parser.add_argument("--examples", type=int, default=5, help="games per property (default: 5)")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="mutants at once (default: 1)")
    parser.add_argument("--limit", type=float, default=300.0, metavar="S",
                        help="seconds one mutant's run, or its diagnosis, may take (default: 300)")
    parser.add_argument("--case-timeout", type=float, default=20.0, metavar="S",
                        help="seconds one case may take (default: 20)")
    parser.add_argument("--store", type=Path, default=STORE, metavar="DIR",
                        help="where each mutant's results are kept (default: .blind/, gitignored)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures and the per-mutant rows")
    parser.add_argument("--rows", type=Path, metavar="FILE",
                        help="append each mutant's diagnosis to FILE (JSON Lines) as it comes, and keep those "
                             "already there: a diagnosis cut short goes on where it stopped")
    parser.add_argument("--reclassify", action="store_true",
                        help="read the --json file, read each mutant's rules again from today's reference and "
                             "count again, diagnosing nothing (after a citation is added)")
    parser.add_argument("--rules", metavar="MODULE:LINE", help="print the rules cited for a line and stop")
    args = parser.parse_args(argv)
    texts = gm.sources()
    rule_map = RuleMap(texts)
    if args.rules:
        module, _, line = args.rules.partition(":")
        if module not in texts or not line.isdigit():
            raise SystemExit(f"--rules {args.rules}: MODULE:LINE of reference_impl/, like game.py:250")
        where, rules = rule_map.rules(module, int(line))
        print(f"{module}:{line} ({where}): {', '.join(rules) or 'no rule'}")
        return 0
    if args.reclassify:
        if args.json is None or not args.json.exists():
            raise SystemExit("--reclassify: name the figures to recount with --json FILE")
        document = reclassify(json.loads(args.json.read_text(encoding="utf-8")), args.store)
        print(printed(document))
        args.json.write_text(dumped(document), encoding="utf-8")
        return 0
    everything, _ = gm.population(texts)
    chosen = gm.sample(everything, args.sample, args.seed)
    started = time.perf_counter()
    if args.run:
        run_all(texts, chosen, rule_map, args.store, args.examples, args.seed, args.jobs, args.limit,
                args.case_timeout)
    if not args.diagnose:
        return 0
    keys = [m.key for m in chosen]
    if not args.run and (args.store / SAMPLE).exists():
        drawn = json.loads((args.store / SAMPLE).read_text(encoding="utf-8"))
        if drawn["seed"] == args.seed and len(drawn["keys"]) >= args.sample:
            keys = drawn["keys"][:args.sample]
    rows = diagnose_all(args.store, keys, args.jobs, args.limit, args.rows)
    from azul_conformance.diagnosis.cover import CATALOGUE

    headers = [read_stored(args.store / stored_name(key))[0] for key in keys
               if (args.store / stored_name(key)).exists()]
    document = {"tool": f"cosmic-ray {gm._version('cosmic-ray')}", "diagnosed_at": _commit(), "seed": args.seed,
                "sample": len(keys),
                "examples": headers[0]["examples"] if headers else None,
                "reference": sorted({h["reference"] for h in headers}),
                "case_timeout": args.case_timeout, "limit": args.limit, "jobs": args.jobs,
                "catalogue": len(CATALOGUE),
                # each mutant's own time, summed: the suite's runs, then the diagnoses (each on one core)
                "suite_seconds": round(sum(r.get("seconds") or 0 for r in rows), 1),
                "diagnosis_seconds": round(sum(r.get("diagnosis_seconds") or 0 for r in rows), 1),
                "wall_seconds": round(time.perf_counter() - started, 1),
                "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
                "score": counts(rows), "mutants": rows}
    print(printed(document))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(dumped(document), encoding="utf-8")
        print(f"written to {args.json}")
    return 0


def _commit() -> str | None:
    """The project's commit whose diagnosis and catalogue were measured (None outside a git checkout)."""
    import subprocess

    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


if __name__ == "__main__":
    sys.exit(main())
