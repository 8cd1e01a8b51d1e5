"""`azul spec check`: the rule specification is well formed and traces every rulebook line.

Each concern is a module of plain functions over the loaded spec (`loading.Loaded`), each yielding the
problems it finds as SpecErrors, reported as `path:line: message`, never as a traceback:
    loading      every spec YAML file reads (yaml.safe_load) and matches its JSON Schema (spec/schema/)
    ids          rule IDs belong to their chapter's prefixes and are unique, chapter orders are unique, and the
                 rule IDs named by scenarios (read by the scenario loader) and the reference engine's source exist
    citations    every citation names the version's own rulebook file, lies within it, is not blank-only, falls
                 in clauses of that version, and carries a fragment of the version's own words that occurs in
                 exactly the cited lines; a silent note's named lines are listed in `near`, with fragments
    coverage     every non-blank rulebook line lies in exactly one clause; clauses name known rules; every rule is
                 named by a clause (rulings on which all versions are silent excepted), and the clauses a rule
                 cites as stating it name it
    divergences  a rule's divergences exist and list the rule back, and every divergence is referenced
    labels       a rule's label for a version (states, printed, partly, example, diverges, silent) agrees with
                 the divergence register's label for the same lines, and every `diverges` citation shares lines
                 with the register's entry for that version
    basis        every level `rule` is backed by an official version (spec/versions.yaml) and sets aside each
                 diverging version with a reason that fits its standing
    translations every language of spec/i18n/ has every rule's title and statement, names the game's things by
                 its version's words (glossary.yaml) and never repeats the rulebook's prose
Every rule citing all eight versions, and rulings (only they) carrying a ruling block, are the schema's part.
"""

from ..exports import lazy

__getattr__, __dir__ = lazy(__name__, {
    ".check": "DEFAULT Report Stats check_links check_loaded check_spec find_rulebooks",
})

__all__ = ["DEFAULT", "Report", "Stats", "check_links", "check_loaded", "check_spec", "find_rulebooks"]
