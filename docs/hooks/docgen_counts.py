"""The corpus counts a page quotes, computed at build time: a page writes `{{ counts.NAME }}` and the build puts
the number in, so the guide's numbers (docs/validate-your-engine.md: how many cases need `load_state`, given
deals, 3 or 4 players...) follow the corpus as scenarios are added, and no hand-kept number goes stale."""

from __future__ import annotations

import re
from functools import lru_cache

PLACEHOLDER = re.compile(r"\{\{\s*counts\.([a-z_0-9]+)\s*\}\}")


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
    counts = {
        "cases": len(cases), "scenarios": len(scenarios), "properties": len(properties),
        "load_state": needing("load_state"),
        "loaded_scenarios": sum(case.payload.given.state is not None for case in scenarios),
        "deal": needing("deal"), "players_3": needing("players:3"), "players_4": needing("players:4"),
        "players_3_or_4": needing("players:3", "players:4"), "grey": needing("grey"),
        "refused_scenarios": len(refused), "refused_cases": len(refused) + 2,
        "accept_all_fail": len(refused) + 2 - differs, "accept_all_differs": differs,
        "two_player_judged": two_player,
    }
    counts.update(without_load_state=counts["cases"] - counts["load_state"],
                  without_deal=counts["cases"] - counts["deal"],
                  accept_all_pass=counts["cases"] - counts["refused_cases"],
                  two_player_skipped=counts["cases"] - two_player)
    return counts


def fill(markdown: str, where: str, problems: list[str]) -> str:
    """`markdown` with every `{{ counts.NAME }}` replaced by its number; an unknown NAME is a problem."""
    counts = corpus_counts()

    def number(match: re.Match) -> str:
        if match[1] not in counts:
            problems.append(f"{where}: no count named {match[1]!r} (known: {', '.join(sorted(counts))})")
            return match[0]
        return str(counts[match[1]])

    return PLACEHOLDER.sub(number, markdown)
