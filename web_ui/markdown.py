"""A tiny Markdown-to-HTML renderer for the API reference page.

It knows just what docs/API.md uses: `#` headings, paragraphs, `-` lists (with indented
continuation lines), pipe tables, fenced code blocks, and inline `code` and **bold**. Every bit
of text is escaped first, so the output is safe whatever the file holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from markupsafe import Markup, escape

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")


def inline(text: str) -> str:
    """Escape `text`, then turn `code` and **bold** into tags."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(str(escape(text[last : match.start()])))
        code, bold = match.groups()
        out.append(f"<code>{escape(code)}</code>" if code else f"<strong>{escape(bold)}</strong>")
        last = match.end()
    out.append(str(escape(text[last:])))
    return "".join(out)


def _blocks(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """Group lines into (kind, lines) blocks: code, heading, table, list, paragraph."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            stop = len(lines) if end is None else end
            yield "code", lines[i + 1 : stop]
            i = stop + 1
        elif line.startswith("#"):
            yield "heading", [line]
            i += 1
        else:
            kind = "table" if line.startswith("|") else "list" if line.startswith("- ") else "p"
            j = i + 1
            while j < len(lines) and _continues(kind, lines[j]):
                j += 1
            yield kind, lines[i:j]
            i = j


def _continues(kind: str, line: str) -> bool:
    if not line.strip() or line.startswith(("```", "#")):
        return False
    if kind == "table":
        return line.startswith("|")
    if kind == "list":
        return line.startswith(("- ", " "))
    return not line.startswith(("|", "- "))


def _heading(line: str) -> str:
    level = min(len(line) - len(line.lstrip("#")), 6)
    return f"<h{level}>{inline(line[level:].strip())}</h{level}>"


def _cells(row: str) -> list[str]:
    """A table row's cells; `\\|` is a pipe inside a cell."""
    inner = row.strip().removeprefix("|").removesuffix("|")
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", inner)]


def _table(lines: list[str]) -> str:
    head, *rows = [r for r in lines if not re.fullmatch(r"\|[\s:|-]+\|?", r.strip())]
    html = ["<table><thead><tr>"]
    html += [f"<th>{inline(c)}</th>" for c in _cells(head)]
    html.append("</tr></thead><tbody>")
    for row in rows:
        html.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in _cells(row)) + "</tr>")
    html.append("</tbody></table>")
    return "".join(html)


def _list(lines: list[str]) -> str:
    items: list[str] = []
    for line in lines:
        if line.startswith("- "):
            items.append(line[2:].strip())
        else:
            items[-1] += " " + line.strip()
    return "<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>"


def render_markdown(text: str) -> Markup:
    """`text` (Markdown) as safe HTML."""
    parts = []
    for kind, lines in _blocks(text.splitlines()):
        if kind == "code":
            parts.append(f"<pre><code>{escape(chr(10).join(lines))}</code></pre>")
        elif kind == "heading":
            parts.append(_heading(lines[0]))
        elif kind == "table":
            parts.append(_table(lines))
        elif kind == "list":
            parts.append(_list(lines))
        else:
            parts.append(f"<p>{inline(' '.join(line.strip() for line in lines))}</p>")
    return Markup("\n".join(parts))  # safe: every piece above was escaped
