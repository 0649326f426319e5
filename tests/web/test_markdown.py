"""The API reference's tiny Markdown renderer."""

from __future__ import annotations

from web_ui.markdown import render_markdown


def test_markdown_headings_paragraphs_and_inline() -> None:
    html = render_markdown("# Title\n\nSome `code` and **bold**\ntext.\n")
    assert "<h1>Title</h1>" in html
    assert "<p>Some <code>code</code> and <strong>bold</strong> text.</p>" in html


def test_markdown_lists_join_continuation_lines() -> None:
    html = render_markdown("- one\n  more\n- two\n")
    assert html == "<ul><li>one more</li><li>two</li></ul>"


def test_markdown_tables_keep_escaped_pipes() -> None:
    html = render_markdown("| a | b |\n|---|---|\n| `x \\| y` | 2 |\n")
    assert "<th>a</th><th>b</th>" in html
    assert "<td><code>x | y</code></td><td>2</td>" in html


def test_markdown_code_blocks_are_verbatim() -> None:
    html = render_markdown('```json\n{"a": "<b>"}\n```\n')
    assert html == "<pre><code>{&#34;a&#34;: &#34;&lt;b&gt;&#34;}</code></pre>"


def test_markdown_escapes_html() -> None:
    html = render_markdown("<script>alert(1)</script> **<i>**")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>&lt;i&gt;</strong>" in html
