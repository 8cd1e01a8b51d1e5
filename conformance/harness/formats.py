"""The reports a run can make, each a Reporter of reporters.py (REPORTERS): named in a module of their own, where
a command's options read them without loading the harness."""

FORMATS = ("terminal", "jsonl", "junit", "markdown")
