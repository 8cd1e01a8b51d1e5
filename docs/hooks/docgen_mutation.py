"""The "Catch power" page: the suite's mutation score, every rule-level mutant and the cases that kill it.

Read from the package's own published results (azul_conformance.mutants.published: results.json, kept in step
with the catalogue by tests/test_mutants.py), and from any generated-mutant results a mutation-testing run left
in docs/reports/mutation/*.json (format below); a folder without them gives a page that says so.

Generated-mutant results: a JSON object with `tool` (e.g. "mutmut"), `total`, `killed`, and optionally
`equivalent`, `out_of_scope` (counts), `budget` (text) and `survivors`: a list of objects with `id`, `where`,
`classification` ("killed by a new scenario", "equivalent", "out of scope") and `reason`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from azul_conformance import markup
from azul_conformance.mutants import published
from azul_conformance.mutants.catalogue import ALTERNATIVES, BY_ID
from azul_conformance.mutants.shapes import SHAPES, TABLE, WHERE, WHERE_TEXT
from azul_conformance.spec_data import Spec
from docgen_rules import cell, rule_link

SOURCES = {"slip": "a classic slip", "divergence": "a divergence between rulebook versions read the other way",
           "ruling": "one of our rulings taken the other way",
           "shape": "a shape of slip (a comparison inverted, off by one, the wrong seat...) derived from the rule's "
           "text, prompted by no engine"}


def _one_of(kinds: list[str]) -> str:
    return ", ".join(kinds[:-1]) + " or " + kinds[-1]


def _case_link(case_id: str, urls: dict[str, str]) -> str:
    url = urls.get(case_id)
    return f"[{case_id}]({url})" if url else f"`{case_id}`"


def _killers(killers: list[str], urls: dict[str, str], shown: int = 1) -> str:
    if not killers:
        return "**survives**"
    links = [_case_link(k, urls) for k in killers[:shown]]
    more = f" and {len(killers) - shown} more" if len(killers) > shown else ""
    return ", ".join(links) + more


def _causes_table(rows: list[dict], held_out: bool) -> list[str]:
    """One table of benchmarks/eval_causes.py's scores: an engine a row, all of them last."""
    out = ["| engine | precision | recall | right rule: precision | right rule: recall | misreading causes named | "
           "engine faults not misnamed |" + (" readings held out |" if held_out else ""),
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if held_out else "")]
    for row in rows:
        precision = f"{row['precision']:.1%} ({row['right']}/{row['named']})" if row["named"] else "- (0/0)"
        by_rule = f"{row['rule_precision']:.1%} ({row['right_rule']}/{row['named']})" if row["named"] else "- (0/0)"
        out.append(f"| {cell(row['engine'])} | {precision} | "
                   f"{row['recall']:.1%} ({row['found']}/{row['due']}) | {by_rule} | "
                   f"{row['rule_recall']:.1%} ({row['found_rule']}/{row['due']}) | {row['causes_found']} of "
                   f"{row['causes']} | {row['faults_right']} of {row['faults']} |"
                   + (f" {len(row['held_out'])} |" if held_out else ""))
    return out + [""]


def _split(total: dict) -> list[str]:
    """The held-out totals split by whether the catalogue the diagnosis had holds the cause's reading: the two
    ways it can fail (missing a reading it has, naming one where it has none) are told apart."""
    if "covered" not in total:
        return []
    return [f"Split by whether the catalogue still held the cause's reading: where it did "
            f"({total['covered']} failing cases), precision {total['covered_precision']:.1%} "
            f"({total['covered_right']}/{total['covered_named']}) and recall {total['covered_recall']:.1%} "
            f"({total['covered_found']}/{total['covered']}); where it held none ({total['uncovered']} cases: the "
            f"reading was one of those taken out, or the cause is an engine fault), a reading was named all the "
            f"same for {total['uncovered_named']}, {total.get('uncovered_right', 0)} of them a right one (a reading "
            f"written from the rules' text alone, as exact as the one taken out), {total['uncovered_right_rule']} "
            f"of the cause's rule; a wrong one for {total['false_heading']:.1%}. What the catalogue lacks it should "
            f"call not diagnosed, and that last figure is how often it does not.", ""]


def generated_section(folder: Path, problems: list[str]) -> list[str]:
    out = ["## Generated mutants", ""]
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not paths and (folder / "generated.md").is_file():
        return out + ["The blind edits of a mutation-testing tool (cosmic-ray) over the reference engine have "
                      "their own page: [Generated mutants of the reference engine](reports/mutation/generated.md).",
                      ""]
    if not paths:
        return out + ["No generated-mutant results are published yet: a mutation-testing run over the reference "
                      "engine (mutmut or cosmic-ray) writes its results to `docs/reports/mutation/`, and they "
                      "appear here.", ""]
    for path in paths:
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            total, killed = int(data["total"]), int(data["killed"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            problems.append(f"{path}: not generated-mutant results: {error}")
            continue
        equivalent, out_of_scope = int(data.get("equivalent") or 0), int(data.get("out_of_scope") or 0)
        judged = total - equivalent - out_of_scope
        score = f"{killed / judged:.1%} of the {judged} not shown equivalent or out of scope" if judged > 0 else "—"
        out += [f"### {markup.md(data.get('tool', path.stem))}", "",
                f"{total} mutants, {killed} killed: {score}; {equivalent} equivalent, {out_of_scope} out of scope"
                + (f" ({markup.md(data['budget'])})" if data.get("budget") else "") + ".", ""]
        survivors = data.get("survivors") or []
        if survivors:
            out += ["| mutant | where | classification | reason |", "| --- | --- | --- | --- |"]
            for item in survivors:
                item = item if isinstance(item, dict) else {"id": item}
                out.append(f"| {markup.code(item.get('id'))} | {markup.md(item.get('where'))} | "
                           f"{markup.md(item.get('classification'))} | {markup.prose(item.get('reason'))} |")
            out.append("")
    return out


def page(spec: Spec, urls: dict[str, str], generated: Path, problems: list[str]) -> str:
    """Markdown of docs/mutation.md; `urls` maps a scenario id to its page in the gallery."""
    results = published.load()
    out = ["# Catch power", "",
           "If your engine gets a rule wrong, will the suite tell you? The measure is the **mutation score**: the "
           "reference engine with one rule read wrongly (a *mutant*, applied at run time) is judged by the default "
           "suite, and a mutant is *killed* when some case fails it. Every mutant names the rule it breaks and "
           "is " + _one_of(list(SOURCES.values())) + ". Run it yourself: `azul mutants -j 2`; the lint "
           "`azul mutants --lint` checks that every scenario is failed by a mutant of its own rules.", ""]
    if results is None:
        problems.append(f"{published.RESULTS}: no published mutation results (run `azul mutants --results`)")
        return "\n".join(out + ["No results are published yet.", ""])
    entries = results["mutants"]
    out += [f"**Mutation score: {published.score_text(results)}**, measured on suite "
            f"`{results['suite_version']}` (properties asked for {results['examples']} games, seed "
            f"{results['seed']}). Of the cases that fail a mutant (every scenario that does, and the targeted "
            "properties of its rule), the first is linked, one of the mutant's own rule where there is one, and "
            "the rest counted (conformance/mutants/results.json lists them all; `azul mutants --only ID "
            "--every-case` runs them); `azul mutants` stops at the first.", "",
            "| mutant | rule | kind | the wrong reading | killed by |", "| --- | --- | --- | --- | --- |"]
    for entry in entries:
        # a reading written after meeting the engine it explains says so: its engines' held-out scores leave it out
        met = BY_ID[entry["id"]].prompted_by if entry["id"] in BY_ID else ()
        kind = entry["source"] + (f", prompted by {', '.join(met)}" if met else "")
        # the id as plain text, a killer linked: the page stays light on a phone as the catalogue grows (each
        # element counts, tests/test_docs_site.py)
        out.append(f"| {entry['id']} | {rule_link(spec, entry['rule'], '')} | {kind} | "
                   f"{cell(entry['description'])} | {_killers(entry['killed_by'], urls)} |")
    out += ["", "## Other choices", "",
            "Where a rule is implementation-defined, another choice is no mistake: the suite judges it `differs`, "
            "never a failure, so these alternatives are not scored; the lint uses them to check that the rule's "
            "scenarios tell our choice from theirs.", "",
            "| alternative | rule | the other choice |", "| --- | --- | --- |"]
    for mutant in ALTERNATIVES:
        out.append(f"| `{mutant.id}` | {rule_link(spec, mutant.rule, '')} | {cell(mutant.description)} |")
    out.append("")
    return "\n".join(out + shapes_section(spec) + diagnosis_section(generated.parent / "diagnosis", problems)
                     + blind_section(generated.parent / "diagnosis", problems)
                     + generated_section(generated, problems))


def shapes_section(spec: Spec) -> list[str]:
    """The readings by shape (azul_conformance.mutants.shapes): each rule against each shape of slip."""
    out = ["## Readings by shape", "",
           "A reading written after meeting one engine explains that engine; to reach engines nobody has seen, each "
           "rule's text was gone through for every shape of slip an engine author makes. Each cell names the "
           "readings of that shape (those of kind *shape* were written from this table), or says why that shape "
           "has no plausible reading for the rule (n/a).", "",
           "| rule | " + " | ".join([*SHAPES, WHERE]) + " |", "| --- |" + " --- |" * (len(SHAPES) + 1)]
    for rule, row in TABLE.items():
        cells = [cell(text) if isinstance(text, str) else "<br>".join(f"`{reading}`" for reading in text)
                 for text in (row[shape] for shape in SHAPES)]
        where = row.get(WHERE, ())
        cells.append("<br>".join(f"`{reading}`" for reading in where) if where else "")
        out.append(f"| {rule_link(spec, rule, '')} | " + " | ".join(cells) + " |")
    out += ["", "The shapes: " + "; ".join(f"**{shape}**, {what}" for shape, what in [*SHAPES.items(),
                                                                                      (WHERE, WHERE_TEXT)]) + ".",
            "", "The readings of kind *shape* include those written from the rules' text alone, in a clean room: "
            "by authors who read only the rules, the reference engine and the readings no engine prompted, never an "
            "engine, its report or its failures (conformance/mutants/clean_room/). The *where* column holds theirs, "
            "for the rules where an engine's move list and its check of a played move can part; a blank there means "
            "the clean room found no plausible reading of that kind for the rule.", ""]
    return out


def blind_section(folder: Path, problems: list[str]) -> list[str]:
    """The blind score (benchmarks/eval_blind.py, docs/reports/diagnosis/blind.json): the diagnosis of blind
    edits of the reference, judged by whether it names the rule the edited code implements."""
    out = ["### The blind score: edits nobody chose", "",
           "The catalogue was grown from the engines it is scored on above. The generated mutants (below) are blind "
           "edits of the reference made by a tool, so no misreading was written for them: each killed mutant's "
           "failures are diagnosed, and the rules its edited code implements are read from the reference's own "
           "citations (the rule IDs in the enclosing function's docstring, comments and refusals). **Right "
           "rule**: a misreading named is of one of those rules (strict: every deviation's own misreading is); "
           "**wrong rule named**: misreadings are named and none is of them, the worst outcome, since a wrong "
           "heading sends the reader to "
           "the wrong code; **not diagnosed**: no misreading named, an honest answer. Mutants no case kills, and "
           "those in code that cites no rule, are left out.", ""]
    try:
        document = json.loads((folder / "blind.json").read_text(encoding="utf-8"))
        score, counts = document["score"], document["score"]["counts"]
        share = score["share"]
        out += ["| outcome | mutants | share |", "| --- | ---: | ---: |",
                f"| right rule | {counts['right rule']} | {share['right rule (lenient)']:.1%} |",
                f"| right rule, every deviation's misreading of it | {score['right_rule_strict']} | "
                f"{share['right rule (strict)']:.1%} |",
                f"| **wrong rule named** (goal at most 5%) | {counts['wrong rule named']} | "
                f"**{share['wrong rule named']:.1%}** |",
                f"| not diagnosed | {counts['not diagnosed']} | {share['not diagnosed']:.1%} |", "",
                f"Of the mutants not diagnosed, {score['not_diagnosed_filed_under_its_rule']} are filed under one "
                "of the rules their code implements (a failure nothing explains is filed under a rule: the reader "
                "still lands on the right code). "
                f"Of {document['sample']} mutants drawn (seed {document['seed']}, the campaign's sample extended), "
                f"{score['scored']} are scored; {counts['not killed']} were not killed, {counts['no rule']} sit in "
                f"code that cites no rule, {counts['nothing to diagnose']} were killed with nothing to diagnose (no "
                f"import, or a hang before any failure), {counts['not run']} were not run. The suite ran with "
                f"{document['examples']} games a property; the catalogue held {document['catalogue']} misreadings. "
                "Again: `python benchmarks/eval_blind.py --run --diagnose --json docs/reports/diagnosis/blind.json` "
                "(the suite's results are kept per mutant in `.blind/`; `--diagnose` alone diagnoses them again).",
                ""]
        wrong = sorted((r for r in document["mutants"] if r["class"] == "wrong rule named"),
                       key=lambda r: (-r["failing"], r["key"]))
        if wrong:
            out += ["| mutant (wrong rule named) | its rules | failing cases | misreadings named |",
                    "| --- | --- | ---: | --- |"]
            for r in wrong[:15]:
                named = ", ".join(f"{markup.code(m['id'])} ({'/'.join(m['rules'])})" for m in r["named"])
                out.append(f"| {markup.code(r['key'])} | {', '.join(r['rules'])} | {r['failing']} | {named} |")
            out += [f"And {len(wrong) - 15} more in `docs/reports/diagnosis/blind.json`."] if len(wrong) > 15 else []
            out.append("")
    except FileNotFoundError:
        out += ["Not measured yet: `python benchmarks/eval_blind.py --run --diagnose --json "
                "docs/reports/diagnosis/blind.json`.", ""]
    except (OSError, ValueError, KeyError, TypeError) as error:
        problems.append(f"{folder / 'blind.json'}: not a blind score ({error}); run benchmarks/eval_blind.py "
                        "--run --diagnose --json docs/reports/diagnosis/blind.json")
    return out


def _held_out_self_test(held: dict | None) -> list[str]:
    """The self-test's singles diagnosed again without the reading each serves (eval_diagnosis.py --held-out):
    engines nobody fitted a reading to, as a new engine is to the catalogue."""
    if not held:
        return []
    total = max(held["total"], 1)
    out = [f"**Each misreading as an engine, held out**: each of the {held['total']} served misreadings that fail "
           "a case diagnosed again with itself taken out of the catalogue, as an engine whose reading nobody "
           "wrote. What is named then: only readings the suite cannot tell from it (as exact) "
           f"{held['as_exact']} ({held['as_exact'] / total:.1%}); a near reading of its own rule (a heading more "
           f"precise than the evidence) {held['near']} ({held['near'] / total:.1%}); a reading of another rule "
           f"{held['other_rule']} ({held['other_rule'] / total:.1%}); nothing (its failures left under their "
           f"symptoms) {held['nothing']} ({held['nothing'] / total:.1%}). A wrong name is worse than none: the "
           "pairs below are where a reading stood in for one it is not.", ""]
    for key, title in (("near_pairs", "Near readings named in its place (served: named)"),
                       ("other_pairs", "Readings of another rule named in its place (served: named)")):
        pairs = held.get(key) or []
        if pairs:
            out += [f'??? note "{title}: {len(pairs)}"', "",
                    *(f"    - `{served}`: {', '.join(f'`{m}`' for m in named)}" for served, named in pairs), ""]
    return out


def diagnosis_section(folder: Path, problems: list[str]) -> list[str]:
    """How well the same catalogue names what is wrong: benchmarks/eval_diagnosis.py (every misreading served
    as an engine and diagnosed, sampled pairs) and benchmarks/eval_causes.py (the published engines' reports
    against their hand-made causes), as they wrote docs/reports/diagnosis/*.json."""
    out = ["## Diagnosis: the catalogue names what is wrong", "",
           "The same misreadings diagnose an engine's failures: `azul conform` runs each failing case again on the "
           "reference with each misreading applied and names the deviations by those that reproduce what the "
           "engine did. How well that works is measured here.", ""]
    try:
        selftest = json.loads((folder / "self-test.json").read_text(encoding="utf-8"))
        singles, pairs = selftest["singles"], selftest["pairs"]
        over = ("served over protocol v1 by `azul serve --misreading`" if singles.get("over") == "protocol"
                else "in-process, through the same engine interface")
        out += [f"- **Each misreading as an engine** ({over}, judged by the default suite with "
                f"{selftest['examples']} games a property): {singles['named']} of "
                f"{singles['total']} diagnosed as themselves (or listed as indistinguishable: "
                f"{singles['named'] / max(singles['total'], 1):.1%}; goal 100%), {singles['alone']} with nothing else "
                "named beside them.",
                f"- **Two misreadings of different rules at once** (a seeded sample, seed {pairs['seed']}): both "
                f"named in {pairs['both_named']} of {pairs['total']} "
                f"({pairs['both_named'] / max(pairs['total'], 1):.1%}; goal at least 90%).",
                f"- **Speed**: {selftest['seconds_per_100_cases']} s to diagnose 100 failing cases on one core, "
                "in-process (goal: at most 20 s).", ""]
        out += _held_out_self_test(selftest.get("held_out"))
    except FileNotFoundError:
        out += ["The self-test (every misreading served as an engine and diagnosed, and sampled pairs) is not "
                "published yet: `python benchmarks/eval_diagnosis.py --json docs/reports/diagnosis/self-test.json` "
                "measures it; CI runs a small version of it.", ""]
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError) as error:
        problems.append(f"{folder / 'self-test.json'}: not a diagnosis self-test ({error}); run "
                        "benchmarks/eval_diagnosis.py --json docs/reports/diagnosis/self-test.json")
    try:
        scores = json.loads((folder / "causes.json").read_text(encoding="utf-8"))
        held, sample = scores["held_out"]["engines"], scores["in_sample"]["engines"]
        out += ["Against the causes of the published engines' failures, worked out by hand from their code "
                "(`docs/reports/<engine>/causes.yaml`): of the cases the diagnosis gives a misreading, the share "
                "that get the right one (precision), and of the cases whose cause is a catalogued misreading, the "
                "share that are given it (recall); and the same at the rule's level (right rule: the misreading "
                "named, the cause's or another, misreads the rule behind the failure, as the blind score "
                "measures).", "",
                "**Held out** (leave one engine out): many readings of the catalogue were written after meeting the "
                "engine they explain (`azul mutants --list` says which: *prompted by*), so each engine's report is "
                "diagnosed again without the readings its own failures prompted, as if the engine were new to us. "
                "The readings written from the rules' text alone, in a clean room (below, under the readings by "
                "shape), were prompted by no engine and are never taken out. "
                "These are the figures to expect on an engine we have not met.", ""]
        out += _causes_table(held, held_out=True)
        out += _split(held[-1])
        first = scores.get("held_out_first_round", {}).get("engines")
        if first:
            total = first[-1]
            out += ["The clean room wrote in four rounds; the later three took angles (how an engine holds "
                    "each thing the rules name; a step done at another moment; each rulebook version's own words; the "
                    "code an author writes for each rule and the slips it invites) "
                    "chosen by people who had seen these misses, though their authors saw none. So were the "
                    "families of the rules that are numbers (the floor's penalties, each bonus, the counts), whose "
                    "whole range of values the diagnosis searches for the one the engine shows where no reading "
                    "explains a failure (`conformance/mutants/families.py`). Held out with the "
                    "first round's readings only, and no number fitted: precision "
                    f"{total['precision']:.1%} ({total['right']}/{total['named']}), recall {total['recall']:.1%} "
                    f"({total['found']}/{total['due']}), {total['causes_found']} of {total['causes']} causes "
                    "named.", ""]
        out += ["**In-sample**: the committed reports as diagnosed with the whole catalogue, readings fitted to "
                "these very engines included: what the reports say, but a flattering measure of the diagnosis.", ""]
        out += _causes_table(sample, held_out=False)
    except FileNotFoundError:
        out += ["The diagnosis of the published engines' reports is not scored yet: `python "
                "benchmarks/eval_causes.py --json docs/reports/diagnosis/causes.json` scores it.", ""]
    except (OSError, ValueError, KeyError, TypeError) as error:
        problems.append(f"{folder / 'causes.json'}: not diagnosis scores ({error}); run "
                        "benchmarks/eval_causes.py --json docs/reports/diagnosis/causes.json")
    return out
