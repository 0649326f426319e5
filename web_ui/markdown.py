"""Markdown to HTML for the pages that show the project's own documents (the API reference).

markdown-it-py in CommonMark mode with tables, and raw HTML off: a `<script>` in a document is
shown as text, never run.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markupsafe import Markup

_RENDERER = MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> Markup:
    """The document's HTML, safe to place in a template as it is."""
    return Markup(_RENDERER.render(text))
