"""The corpus counts a page quotes: a page writes each number followed by a comment naming it,
`232<!-- counts.cases -->`, so that the committed Markdown reads right as it is (on the code host too), and the
build, which fills them in again, and a test (tests/test_docs_examples.py) hold the numbers to the corpus: the
guide's numbers (docs/validate-your-engine.md: how many cases need `load_state`, given deals, 3 or 4
players...) follow the corpus as scenarios are added, and no hand-kept number goes stale.

    python docs/hooks/docgen_counts.py      rewrites the numbers of docs/validate-your-engine.md"""

from __future__ import annotations

import re
from functools import lru_cache

PLACEHOLDER = re.compile(r"([0-9]+|\?)<!-- counts\.([a-z_0-9]+) -->")
PAGES = ("docs/validate-your-engine.md",)  # the pages that quote counts, from the project folder


@lru_cache(maxsize=1)
def corpus_counts() -> dict[str, int]:
    from azul_conformance.harness.cases import property_cases, scenario_cases

    scenarios = list(scenario_cases().cases)
    properties = property_cases()
    cases = scenarios + properties

    def needing(*needs: str) -> int:
        return sum(bool(set(needs) & set(case.requires)) for case in cases)

    # scenarios that expect a move refused: an engine that accepts every move fails them (or, where the scenario
    # is implementation-defined, differs), and so do the two properties that try illegal moves
    refused = [case for case in scenarios if any(step.kind == "move" and step.reject and
                                                 step.reject.code == "illegal_move" for step in case.payload.steps)]
    differs = sum(case.payload.level == "implementation-defined" for case in refused)
    two_player = sum(not set(case.requires) - {"colour", "players:2", "load_state", "deal"} for case in cases)
    grey_only = sum("colour" not in case.requires for case in cases)  # with load_state, deal and 2-4 players
    counts = {
        "cases": len(cases), "scenarios": len(scenarios), "properties": len(properties),
        "load_state": needing("load_state"),
        "loaded_scenarios": sum(case.payload.given.state is not None for case in scenarios),
        "deal": needing("deal"), "players_3": needing("players:3"), "players_4": needing("players:4"),
        "players_3_or_4": needing("players:3", "players:4"), "grey": needing("grey"),
        "refused_scenarios": len(refused), "refused_cases": len(refused) + 2,
        "accept_all_fail": len(refused) + 2 - differs, "accept_all_differs": differs,
        "two_player_judged": two_player, "colour": needing("colour"), "grey_only_judged": grey_only,
        "both_walls": sum(len(case.payload.variants) > 1 for case in scenarios),
    }
    counts.update(without_load_state=counts["cases"] - counts["load_state"],
                  without_deal=counts["cases"] - counts["deal"],
                  accept_all_pass=counts["cases"] - counts["refused_cases"],
                  two_player_skipped=counts["cases"] - two_player, grey_only_skipped=counts["cases"] - grey_only)
    return counts


def fill(markdown: str, where: str, problems: list[str]) -> str:
    """`markdown` with the number before every `<!-- counts.NAME -->` made the corpus's; an unknown NAME is a
    problem."""
    counts = corpus_counts()

    def number(match: re.Match) -> str:
        if match[2] not in counts:
            problems.append(f"{where}: no count named {match[2]!r} (known: {', '.join(sorted(counts))})")
            return match[0]
        return f"{counts[match[2]]}<!-- counts.{match[2]} -->"

    return PLACEHOLDER.sub(number, markdown)


def main() -> int:
    """Rewrite the numbers of the pages that quote counts (run from the project folder)."""
    from pathlib import Path

    problems: list[str] = []
    for page in PAGES:
        path = Path(page)
        text = path.read_text(encoding="utf-8")
        filled = fill(text, page, problems)
        if filled != text:
            path.write_text(filled, encoding="utf-8")
            print(f"{page}: counts rewritten")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
