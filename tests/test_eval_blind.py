"""The blind score (benchmarks/eval_blind.py): the rules a mutated line's code cites are read from the reference's
own citations, each mutant is classified by what the diagnosis names against them, a mutant's stored results read
back as they were written, and the published docs/reports/diagnosis/blind.json adds up. The measurement itself
is not run here (most of an hour)."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("eval_blind", ROOT / "benchmarks" / "eval_blind.py")
eb = importlib.util.module_from_spec(_spec)
sys.modules["eval_blind"] = eb
_spec.loader.exec_module(eb)

TEXTS = eb.gm.sources()
RULES = eb.RuleMap(TEXTS)


def line_in(module: str, name: str, offset: int = 1) -> int:
    """A line of the body of function `name` in reference_impl/`module` (`offset` lines below its def)."""
    for node in ast.walk(ast.parse(TEXTS[module])):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node.lineno + offset
    raise AssertionError(f"no function {name} in {module}")


def line_of(module: str, start: str) -> int:
    return next(n for n, line in enumerate(TEXTS[module].splitlines(), 1) if line.startswith(start))


def test_the_function_that_scores_a_placed_tile_cites_the_placement_rules():
    where, rules = RULES.rules("board.py", line_in("board.py", "placement_points", 5))
    assert (where, set(rules)) == ("placement_points", {"SCORE-1", "SCORE-2"})


def test_a_refusal_and_a_comment_count_and_a_range_is_spelt_out():
    # Game._check_line names its refusals' rules; tiles.py's table of factories cites SETUP-3 on its line
    assert {"OFFER-8", "OFFER-9", "OFFER-12"} <= set(RULES.rules("game.py", line_in("game.py", "_check_line"))[1])
    factories = line_of("tiles.py", "FACTORIES_BY_PLAYERS")
    assert RULES.rules("tiles.py", factories) == (f"<module line {factories}>", ("SETUP-3",))
    assert eb.cited("END-5..7: most points; DEAL-1..3 and UTF-8, OFFER-99") == ("END-5", "END-6", "END-7",
                                                                               "DEAL-1", "DEAL-2", "DEAL-3")


def test_code_citing_no_rule_gives_none():
    # reading a board back from JSON implements no rule of the game
    assert RULES.rules("state.py", line_in("state.py", "_board_from_json", 2)) == ("_board_from_json", ())
    # a name in the code is no citation: only comments and strings are read
    assert eb.cited("".join(eb._citing_text("x = 1\nEND = 2\nEND - 1\n"))) == ()


def test_each_mutant_is_classified_by_the_rules_of_the_readings_named():
    def found(*deviations):
        return {"deviations": [{"kind": "misreading" if own else "undiagnosed", "misreading": own, "alike": alike}
                               for own, alike in deviations]}

    score2, end1 = {"id": "a", "rules": ["SCORE-2"]}, {"id": "b", "rules": ["END-1"]}
    both = {"id": "a+b", "rules": ["SCORE-2", "END-1"]}
    rules = ["SCORE-1", "SCORE-2"]
    assert eb.classify(rules, 3, found((score2, []))) == ("right rule", True)
    assert eb.classify(rules, 3, found((score2, []), (end1, []))) == ("right rule", False)
    assert eb.classify(rules, 3, found((both, []))) == ("right rule", False)
    assert eb.classify(rules, 3, found((end1, [score2]))) == ("right rule", False)  # listed as indistinguishable
    assert eb.classify(rules, 3, found((end1, []), (None, []))) == ("wrong rule named", False)
    assert eb.classify(rules, 3, found((None, []))) == ("not diagnosed", False)
    assert eb.classify(rules, 3, None) == ("not diagnosed", False)  # the diagnosis stopped
    assert eb.classify(rules, 0, None) == ("not killed", False)
    assert eb.classify(rules, 0, None, "load") == ("nothing to diagnose", False)  # failed to import
    assert eb.classify([], 3, None) == ("no rule", False)


def test_a_mutants_results_are_stored_as_they_come_and_read_back(tmp_path):
    from azul_conformance.harness.session import Session, collect

    mutant = next(m for m in eb.gm.population(TEXTS)[0]
                  if m.key == "board.py:Board.placement_points:ReplaceBinaryOperator_Add_Sub#0")
    cases = [c for c in collect(Session(properties=False)).cases if "SCORE-2" in c.rules][:4]
    path = tmp_path / eb.stored_name(mutant.key)
    eb.run_one(TEXTS, mutant, RULES.rules(mutant.module, mutant.line), cases, path, 1, 0, 20.0)
    header, results, end = eb.read_stored(path)
    assert header["rules"] == ["SCORE-1", "SCORE-2"] and end["ended"] == "done"
    assert [r.id for r in results] == [c.id for c in cases]
    # the rules are read again from today's source where it holds the same edit, else kept as stored
    assert eb.rules_now(header, "stored", ["END-1"]) == ("placement_points", ["SCORE-1", "SCORE-2"])
    assert eb.rules_now({**header, "after": "another edit"}, "stored", ["END-1"]) == ("stored", ["END-1"])
    # a comment on the edited line (a citation added since the run) leaves the edit the same
    commented = {**header, "before": header["before"] + "  # a comment"}
    assert eb.rules_now(commented, "stored", ["END-1"]) == ("placement_points", ["SCORE-1", "SCORE-2"])
    assert any(r.bad for r in results) and all(r.failures for r in results if r.bad)  # a failure kept whole
    path.write_text(path.read_text(encoding="utf-8").rsplit("\n", 2)[0] + '\n{"id": "cut sh', encoding="utf-8")
    assert eb.read_stored(path)[1:] == (results, None)  # a run stopped mid-line: the results so far, no end


@pytest.fixture(scope="module")
def published() -> dict:
    return json.loads(eb.JSON.read_text(encoding="utf-8"))


def test_the_published_blind_score_adds_up(published):
    rows, score = published["mutants"], published["score"]
    assert published["sample"] == len(rows) >= 300
    assert len({r["key"] for r in rows}) == len(rows)
    assert sum(score["counts"].values()) == len(rows)
    assert score == eb.counts(rows)
    assert score["scored"] == sum(score["counts"][c] for c in ("right rule", "wrong rule named", "not diagnosed"))
    for row in rows:
        assert row["class"] in eb.CLASSES
        if row["class"] in ("not killed", "no rule", "nothing to diagnose"):
            assert (row["class"], row["strict"]) == eb.classify(row["rules"], row["failing"], None, row["ended"])
        if row["class"] in ("right rule", "wrong rule named", "not diagnosed") and "diagnosis" not in row:
            found = {"deviations": row["deviations"]}
            assert (row["class"], row["strict"]) == eb.classify(row["rules"], row["failing"], found, row["ended"]), \
                row["key"]


def test_the_catch_power_page_shows_the_published_blind_score(published):
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    import docgen_mutation

    problems: list[str] = []
    text = "\n".join(docgen_mutation.blind_section(eb.JSON.parent, problems))
    share, counts = published["score"]["share"], published["score"]["counts"]
    assert not problems
    assert f"| **wrong rule named** (goal at most 5%) | {counts['wrong rule named']} | " \
           f"**{share['wrong rule named']:.1%}** |" in text
    assert f"| not diagnosed | {counts['not diagnosed']} | {share['not diagnosed']:.1%} |" in text
    assert "python benchmarks/eval_blind.py --run --diagnose" in text
