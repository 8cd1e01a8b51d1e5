"""The specification as data (rules, clause index, grammars, schemas); no code lives here."""
