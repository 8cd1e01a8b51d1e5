"""The docs read in the repository (on the code host, in an editor): every relative link of a hand-written page
lands on a file. A link to a page the site's build generates (rules/offer.md, scenarios/index.md...) lands on
the stand-in committed in its place, which says where the page leads and what its source is."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
STUB = "<!-- stub: the site's build writes this page in its place (docs/hooks/generate.py) -->"
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)\s]*)?\)")
# (the pictures the build draws, example-state.svg and the replay's frames, are not pages: they are left out)
PICTURE = re.compile(r"!\[[^\]]*\]\([^)]*\.svg\)")


def hand_written() -> list[Path]:
    return [path for path in sorted(DOCS.rglob("*.md")) if not {"hooks", "snippets"} & set(path.parts)]


def test_every_link_of_the_docs_lands_on_a_file_in_the_repository():
    dead = []
    for path in hand_written():
        text = re.sub(r"^(`{3,}).*?^\1", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)  # code blocks
        text = PICTURE.sub("", text)
        for link in LINK.findall(text):
            target = posixpath.normpath(posixpath.join(path.parent.relative_to(ROOT).as_posix(), link))
            if not (ROOT / target).exists():
                dead.append(f"{path.relative_to(ROOT)}: {link}")
    assert dead == []


def test_each_stand_in_says_where_its_page_leads_and_names_a_source_that_exists():
    stubs = [path for path in hand_written() if path.read_text(encoding="utf-8").startswith(STUB)]
    assert len(stubs) >= 10
    for path in stubs:
        text = path.read_text(encoding="utf-8")
        assert "generated when the site is built" in text and "its source is" in text, path
        for link in LINK.findall(text):
            assert (path.parent / link).resolve().exists(), (path, link)
