"""The API reference's Markdown: headings, lists, tables, code, and raw HTML shown as text."""

from __future__ import annotations

import re

from web_ui.markdown import render_markdown


def _flat(html: str) -> str:
    """The HTML without the line breaks between tags, so assertions read like the output."""
    return re.sub(r">\s+<", "><", str(html)).strip()


def test_markdown_headings_paragraphs_and_inline() -> None:
    html = _flat(render_markdown("# Title\n\nSome `code` and **bold**\ntext.\n"))
    assert "<h1>Title</h1>" in html
    assert "<p>Some <code>code</code> and <strong>bold</strong>\ntext.</p>" in html


def test_markdown_lists_join_continuation_lines() -> None:
    html = _flat(render_markdown("- one\n  more\n- two\n"))
    assert html == "<ul><li>one\nmore</li><li>two</li></ul>"


def test_markdown_tables_keep_escaped_pipes() -> None:
    html = _flat(render_markdown("| a | b |\n|---|---|\n| `x \\| y` | 2 |\n"))
    assert "<th>a</th><th>b</th>" in html
    assert "<td><code>x | y</code></td><td>2</td>" in html


def test_markdown_code_blocks_are_verbatim() -> None:
    html = _flat(render_markdown('```json\n{"a": "<b>"}\n```\n'))
    code = "{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n"
    assert html == f'<pre><code class="language-json">{code}</code></pre>'


def test_markdown_escapes_html() -> None:
    html = render_markdown("<script>alert(1)</script> **<i>**")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>&lt;i&gt;</strong>" in html
