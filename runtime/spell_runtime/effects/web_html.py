"""HTML to readable text for ``web/fetch``'s ``:raw`` backend (runtime.md §2.3).

A model reading a page wants its words, not its markup. The reference's shape is
kept: ``# <title>`` and a blank line, then the paragraph texts (of the first
``<article>`` if there is one, else of the body; whitespace collapsed, at most
120) joined by blank lines — or, for a page without paragraphs, all of its text
— then ``Source: <url>``. The standard library's tolerant ``html.parser`` is
enough for that and keeps the runtime free of an HTML dependency.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Optional

MAX_PARAGRAPHS = 120

_SPACE = re.compile(r"\s+")
_SKIPPED = frozenset({"script", "style", "noscript", "template", "head"})


class _Collector(HTMLParser):
    """Collects the title, paragraph texts and all visible text, per scope (article or whole page)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title_parts: list[str] = []
        self.in_title = False
        self.skip_depth = 0
        self.article_depth = 0
        self.article_seen = False
        self.article_done = False
        self.paragraph: Optional[list[str]] = None
        self.paragraph_in_article = False
        self.page_paragraphs: list[str] = []
        self.article_paragraphs: list[str] = []
        self.page_text: list[str] = []
        self.article_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        if tag == "title":
            self.in_title = True
        elif tag in _SKIPPED:
            self.skip_depth += 1
        elif tag == "article":
            if self.article_depth == 0 and not self.article_seen:
                self.article_seen = True
            if not self.article_done:
                self.article_depth += 1
        elif tag == "p":
            self._close_paragraph()
            self.paragraph = []
            self.paragraph_in_article = self._in_article()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        elif tag in _SKIPPED:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag == "article" and self.article_depth > 0:
            self.article_depth -= 1
            if self.article_depth == 0:
                self._close_paragraph()
                self.article_done = True
        elif tag == "p":
            self._close_paragraph()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title_parts.append(data)
            return
        if self.skip_depth:
            return
        self.page_text.append(data)
        if self._in_article():
            self.article_text.append(data)
        if self.paragraph is not None:
            self.paragraph.append(data)

    def _in_article(self) -> bool:
        return self.article_depth > 0 and not self.article_done

    def _close_paragraph(self) -> None:
        if self.paragraph is None:
            return
        words = collapse("".join(self.paragraph))
        if words:
            self.page_paragraphs.append(words)
            if self.paragraph_in_article:
                self.article_paragraphs.append(words)
        self.paragraph = None

    def close(self) -> None:
        super().close()
        self._close_paragraph()


def collapse(s: str) -> str:
    """Runs of whitespace as one space, trimmed."""
    return _SPACE.sub(" ", s).strip()


def html_to_text(url: str, html: str) -> str:
    """The readable text of ``html`` fetched from ``url``."""
    c = _Collector()
    c.feed(html)
    c.close()
    title = collapse("".join(c.title_parts))
    paragraphs = c.article_paragraphs if c.article_seen else c.page_paragraphs
    if paragraphs:
        body = "\n\n".join(paragraphs[:MAX_PARAGRAPHS])
    else:
        body = collapse("".join(c.article_text if c.article_seen else c.page_text))
    head = f"# {title}\n\n" if title else ""
    return f"{head}{body}\n\nSource: {url}"


def looks_like_html(content_type: str, body: str) -> bool:
    """Whether a response should be converted (declared HTML, or undeclared but starting like HTML)."""
    if "html" in content_type.lower():
        return True
    if content_type:
        return False
    start = body.lstrip()[:15].lower()
    return start.startswith("<!doctype html") or start.startswith("<html")
