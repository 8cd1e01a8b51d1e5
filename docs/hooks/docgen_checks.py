"""The "Who checks what" page: for each request of protocol v1, what of the reply the suite compares, and for
each field of the canonical state, the phases in which it is compared. The field table is built from the state
schema and from FREE_FIELDS, the declaration that state_diff (the one comparison of states) reads, so the page
says what the code does."""

from __future__ import annotations

from azul_conformance import schemas
from azul_conformance.properties.canonical import FREE_FIELDS

PHASES = ("deal", "offer", "tiling", "over")

# Each request: what of the reply is compared, and against what. The states are compared field by field through
# state_diff, so the field table below applies to every row that compares a state.
REQUESTS = (
    ("hello", "`protocol` (must be 1) and `capabilities`", "the cases an engine lacks a capability for are "
     "skipped, never failed; `name` and `version` go into the report only"),
    ("new_game", "the state, field by field", "the reference engine's new game (scenarios: the scenario's Given "
     "and expectations)"),
    ("deal", "the state, field by field; with no factories given, the deal itself is only checked drawable",
     "the reference after the same deal; a random deal: the tiles came out of bag and lid (DEAL-1 to DEAL-3)"),
    ("legal_moves", "the moves as a set: order and repeats are not compared",
     "the reference's list in the same position"),
    ("play", "the state, field by field; a refusal: its `code`, and its `rule` when the case names one",
     "the reference after the same move; a refused move must leave the state as it was"),
    ("load_state", "the state it answers, and `state` after it: both equal to the state loaded",
     "the state sent (property load-state round trip)"),
    ("state", "the state, field by field", "the state the last reply gave"),
    ("play_game", "each state asked for, the moves lists, `played` and the refusal",
     "the same game played by the reference; an engine without it gets the single requests"),
)


def page() -> str:
    schema = schemas.schema("state.schema.json")
    out = ["# Who checks what", "",
           '!!! note "Generated"', "",
           "    This page is generated from the state schema (`spec/schema/state.schema.json`) and the declaration "
           "of the fields no rule decides (`x-free-in`, read by `state_diff` in "
           "`conformance/properties/canonical.py`, the one comparison of states the suite makes).", "",
           "## Each request", "",
           "| Request | What of the reply is compared | Against what |", "| --- | --- | --- |"]
    out += [f"| `{name}` | {what} | {against} |" for name, what, against in REQUESTS]
    out += ["", "An error reply is judged by its `code` (`illegal_move`, `illegal_deal`, `bad_request`, "
            "`unsupported`...). `unsupported` skips the case. The `rule` of a refusal is compared where the case "
            "expects one (a scenario step `-> illegal_move OFFER-15`); a refusal naming another rule fails.", "",
            "## Each field of a state", "",
            "Compared (✓) or free (—, never compared: any value passes) in each phase. A field free in a phase is "
            "one no rule decides there; the comparison leaves it out only when both states are in that phase (a "
            "state in the wrong phase fails on `phase` and on the rest).", "",
            "| Field | " + " | ".join(f"`{phase}`" for phase in PHASES) + " | What it is |",
            "| --- |" + " :---: |" * len(PHASES) + " --- |"]
    for name, field in schema["properties"].items():
        marks = ["—" if name in FREE_FIELDS.get(phase, ()) else "✓" for phase in PHASES]
        what = field.get("description", "").split(" Free once")[0].replace("|", "\\|")
        out.append(f"| `{name}` | " + " | ".join(marks) + f" | {what} |")
    out += ["", "Multisets of tiles (factories, centre, bag, lid, pattern lines, floor) compare as their canonical "
            "strings, so the order in which an engine lists tiles never matters; `winners` compares as a set of "
            "seats.", ""]
    return "\n".join(out)
