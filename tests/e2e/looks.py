"""Measures of what a family sees, shared by the looks tests: sideways scrolling, clipped text,
panels taller than what they hold, text too small to read, and a tablet opened in a language."""

from __future__ import annotations

from typing import Any

from .conftest import Table

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
SIZES = [("landscape", LANDSCAPE), ("portrait", PORTRAIT), ("phone", PHONE)]

SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"

# Every shown element that cuts its own text short (an ellipsis, or a box that would scroll
# sideways): form fields and pictures aside.
CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length || !el.textContent.trim()) continue;
    if (el.closest("svg, input, select, textarea")) continue;
    if (getComputedStyle(el).overflowX === "visible") continue;
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.tagName}.${el.className}: ${el.textContent.trim().slice(0, 40)}`);
  }
  return out;
}"""

# How far each shown panel of the scoreboard reaches below what it holds (px).
SLACK = """() => [...document.querySelectorAll("#main .panel")]
  .filter((panel) => panel.getClientRects().length)
  .map((panel) => {
    const box = panel.getBoundingClientRect();
    const style = getComputedStyle(panel);
    const shown = (child) => child.getClientRects().length
      && getComputedStyle(child).position !== "absolute";
    const bottom = (child) => child.getBoundingClientRect().bottom
      + parseFloat(getComputedStyle(child).marginBottom);
    const bottoms = [...panel.children].filter(shown).map(bottom);
    const inner = box.bottom - parseFloat(style.borderBottomWidth)
      - parseFloat(style.paddingBottom);
    return [panel.id || panel.className, Math.round(inner - Math.max(box.top, ...bottoms))];
  })"""

# Each text of the chart at the size it is drawn on the screen (px).
CHART_TEXT = """(box) => [...document.querySelectorAll(`${box} svg text`)].map((text) => {
  const scale = text.getScreenCTM()?.a ?? 1;
  return [text.textContent, parseFloat(getComputedStyle(text).fontSize) * scale];
})"""

# A field's placeholder against the room the field gives it (px).
PLACEHOLDER = """(field) => {
  const style = getComputedStyle(field);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [pen.measureText(field.placeholder).width, room];
}"""


def opened(table: Table, viewport: dict[str, int], path: str = "/", language: str = "en") -> Any:
    """A tablet of this size, unlocked, in `language`, showing `path`."""
    return table.tablet(viewport, unlocked=True, language=language, path=path)


def fits(page: Any) -> None:
    """Nothing scrolls sideways and no text is cut short."""
    assert page.evaluate(SIDEWAYS) <= 0, "the page scrolls sideways"
    clipped = page.evaluate(CLIPPED)
    assert not clipped, f"text cut short: {clipped}"
