"""Text from outside written into a published page: an engine's name, version and answers, a recording's header,
a report made elsewhere, a contributor's scenario. report.md and the docs site are Markdown read with raw HTML
allowed and attr_list, md_in_html and tables on: such text written raw is markup there (an engine named
`<img src=x onerror=...>` ran script on the conformance matrix, a title ending `{: onclick=...}` set an attribute
on its heading). Each way a page sets outside text has its function here, and every page writes it through them:

- `md`: running text (a paragraph, a table cell, a heading, a link's text), on one line;
- `code`: a code span that no backtick inside can close;
- `prose`: a contributor's text whose `code` spans stay code, the rest as `md`;
- `fenced`: a code block that no run of backticks inside can close;
- `html_text`: inside raw HTML (an element's text, an attribute's value between double quotes).

Each first makes the text safe (readers.safe_text: control and bidirectional characters shown as escapes) and
clips it (readers.clipped: the length it had, visibly), so a page is never quadratic in what an engine said.
"""

from __future__ import annotations

import html
import re

from .readers import clipped, safe_text

LIMIT = 2_000  # characters of one outside text on a page: any real name, id or message; not a hostile one

_MARKUP = re.compile(r"([\\`*_\[\]|#{}])")  # Markdown's own characters, each escapable with a backslash
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_OPENS_BLOCK = re.compile(r"^([-+!]|[=:~])")  # at a line's start: a list, an admonition, a definition, a rule
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")


def _one_line(text: object, limit: int) -> str:
    return clipped(safe_text(text).replace("\r", " ").replace("\n", " "), limit)


def md(text: object, limit: int = LIMIT) -> str:
    """`text` as running Markdown text: HTML and Markdown's characters escaped, on one line, clipped."""
    text = "".join(_HTML.get(char, char) for char in _one_line(text, limit))
    text = _MARKUP.sub(r"\\\1", text)
    return _OPENS_BLOCK.sub(lambda found: f"\\{found[1]}" if found[1] in "-+!" else f"&#{ord(found[1])};", text)


def code(text: object, limit: int = LIMIT) -> str:
    """`text` as a code span (shown as written, HTML included): fenced by more backticks than any run of them
    inside, padded where it starts or ends with one."""
    text = _one_line(text, limit)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def prose(text: object, limit: int = LIMIT) -> str:
    """A contributor's text (a scenario's notes, its title): its `code` spans kept as code, the rest as `md`."""
    text = _one_line(text, limit)
    parts, start = [], 0
    for found in _CODE_SPAN.finditer(text):
        parts += [md(text[start:found.start()], len(text)) if start < found.start() else "", code(found[2].strip())]
        start = found.end()
    return "".join(parts) + (md(text[start:], len(text)) if start < len(text) or not parts else "")


def fenced(text: object, info: str = "") -> list[str]:
    """A code block of `text` (its lines kept, made safe, not clipped: the caller bounds it) that no run of
    backticks inside can close; `info`: its language ("text")."""
    text = safe_text(text)
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return [fence + info, text, fence]


def html_text(text: object, limit: int = LIMIT) -> str:
    """`text` inside raw HTML: an element's text, or an attribute's value between double quotes."""
    return html.escape(_one_line(text, limit), quote=True)
