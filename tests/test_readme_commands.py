"""README's two commands are the project's contract with a new user: CI and the docs must use the same ones."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shell_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def readme_commands() -> tuple[str, str]:
    blocks = shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    return blocks[0], blocks[1]


def test_the_main_command_runs_the_suite_and_the_test_command_runs_pytest():
    main, tests = readme_commands()
    assert main.endswith("azul conform") and "pip install" in main
    assert tests.endswith("python -m pytest") and "[test,docs]" in tests


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = readme_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert tests in ci_lines


def test_the_docs_home_page_shows_the_same_two_commands():
    snippet = (ROOT / "docs" / "snippets" / "quickstart.md").read_text(encoding="utf-8")
    assert shell_blocks(snippet) == list(readme_commands())


def test_the_readme_python_examples_run():
    """README's Python blocks, one after another as a reader would paste them, run without error."""
    import subprocess
    import sys

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    run = subprocess.run([sys.executable, "-c", "\n".join(blocks)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "<Game 2 players, colour wall" in run.stdout
