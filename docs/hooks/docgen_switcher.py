"""The theme's parts of a built page: the language switcher, the head's links to the other languages, and
what an accessibility checker (axe-core) found wanting in the theme's markup.

The i18n plugin links each page to the same page in every language where it exists; an English-only page (a
scenario group, a report) to the other languages' home pages by absolute paths, which break wherever the site
is not at the root of its host. Those are rewritten here: to the other language's page on the same subject
where there is one (a scenario group to its chapter's rule page), relative to the page.

The head's `<link rel="alternate" hreflang>` are dropped: the theme fetches `sitemap.xml` under each of them
(six failed requests on every page view) and then sends the switcher to the language's home. The sitemap,
written only when the build is given the site's address, holds each page's languages instead.
"""

from __future__ import annotations

import re

HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
SWITCHER_LINK = re.compile(r'<a href="(/[^"]*)" hreflang="([a-z]{2})" class="md-select__link">')


def other_language_page(page_url: str, chapters: set[str]) -> str:
    """Where an English-only page's subject is in another language: a scenario group's chapter, else home."""
    parts = page_url.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "scenarios" and parts[1] in chapters:
        return f"rules/{parts[1]}/"
    return ""


SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_NAME = re.compile(r'<input type="text" class="md-search__input" name="query" aria-label="([^"]*)"')


def accessible(html: str) -> str:
    """The search dialog named, by the theme's own word for its search box in the page's language (code blocks
    are made reachable with the keyboard by docs/javascripts/azul.js)."""
    name = SEARCH_NAME.search(html)
    if name:
        html = html.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name[1]}">', 1)
    return html


def rewrite(html: str, page_url: str, chapters: set[str]) -> str:
    html = accessible(HEAD_ALTERNATE.sub("", html))
    up = "../" * page_url.strip("/").count("/") + ("../" if page_url.strip("/") else "")
    target = other_language_page(page_url, chapters)
    return SWITCHER_LINK.sub(lambda m: f'<a href="{up or "./"}{m[2]}/{target}" hreflang="{m[2]}" '
                                       f'class="md-select__link">', html)
