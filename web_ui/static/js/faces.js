// Card faces drawn as SVG for both decks (classic and UNO Attack): the card's colour, a white
// oval with the face's symbol, and in two corners a shape that names the colour without it
// (red ▲, yellow ●, green ■, blue ◆; wilds show all four), for colour-blind players.
import { cardName } from "./api.js";
import { colourOf } from "./cards.js";

const NS = "http://www.w3.org/2000/svg";
const FILL = { R: "#d62828", Y: "#f4c20d", G: "#1f7a30", B: "#1d5fd6", W: "#111827" };
const INK = { R: "#d62828", Y: "#7a5b00", G: "#1f7a30", B: "#1d5fd6", W: "#111827" };
const SYMBOLS = {
  S: "⊘", R: "⇄", "+2": "+2", H2: "H2", TH: "⇅", DA: "≡",
  W: "W", W4: "+4", WAH: "ALL", WHF: "∞",
}; // prettier-ignore

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) el.append(child instanceof Node ? child : document.createTextNode(child));
  }
  return el;
}

/** The colour-blind mark of a colour, centred on (x, y). */
export function colourMark(colour, x, y, size = 7) {
  const s = size;
  const shapes = {
    R: () => svg("polygon", { points: `${x},${y - s} ${x + s},${y + s * 0.8} ${x - s},${y + s * 0.8}` }),
    Y: () => svg("circle", { cx: x, cy: y, r: s * 0.85 }),
    G: () => svg("rect", { x: x - s * 0.8, y: y - s * 0.8, width: s * 1.6, height: s * 1.6 }),
    B: () => svg("polygon", { points: `${x},${y - s} ${x + s},${y} ${x},${y + s} ${x - s},${y}` }),
  };
  return svg("g", { class: "mark", "data-mark": colour, fill: "#fff", stroke: "#111", "stroke-width": 1 }, shapes[colour]());
}

function wildMarks(x, y) {
  return svg(
    "g",
    { class: "mark", "data-mark": "W" },
    ...["R", "Y", "G", "B"].map((c, i) => colourMark(c, x + (i % 2) * 9 - 4.5, y + Math.floor(i / 2) * 9 - 4.5, 3.6)),
  );
}

/** A card face as an SVG element (60 × 90 units), `text` as the engine writes cards. */
export function cardFace(text, extra = {}) {
  const colour = colourOf(text);
  const face = colour === "W" ? text : text.slice(1);
  const symbol = SYMBOLS[face] ?? face;
  const small = symbol.length > 2 ? 13 : symbol.length > 1 ? 20 : 30;
  const mark = (x, y) => (colour === "W" ? wildMarks(x, y) : colourMark(colour, x, y));
  const oval = svg("ellipse", { cx: 30, cy: 45, rx: 21, ry: 32, fill: "#fff", transform: "rotate(25 30 45)" });
  const centre =
    colour === "W"
      ? svg(
          "g",
          {},
          ["R", "Y", "G", "B"].map((c, i) =>
            svg("rect", { x: 30 - 12 + (i % 2) * 12, y: 45 - 12 + Math.floor(i / 2) * 12, width: 12, height: 12, fill: FILL[c] }),
          ),
        )
      : null;
  const label = svg(
    "text",
    {
      x: 30,
      y: colour === "W" ? 68 : 45 + small * 0.36,
      "text-anchor": "middle",
      "font-size": colour === "W" ? 11 : small,
      "font-weight": 900,
      fill: colour === "W" ? "#fff" : INK[colour],
    },
    symbol,
  );
  const parts = [
    svg("title", {}, cardName(text)),
    svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: FILL[colour], stroke: "#fff", "stroke-width": 2 }),
    colour === "W" ? null : oval,
    centre,
    label,
    mark(10, 11),
    mark(50, 79),
  ].filter(Boolean);
  const el = svg("svg", { viewBox: "0 0 60 90", class: "card-face", role: "img", "aria-label": cardName(text), "data-card": text }, ...parts);
  for (const [name, value] of Object.entries(extra)) el.setAttribute(name, value);
  return el;
}

/** A card's back, for cards coming out of the launcher. */
export function cardBack() {
  return svg(
    "svg",
    { viewBox: "0 0 60 90", class: "card-back", "aria-hidden": "true" },
    svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: "#111827", stroke: "#fff", "stroke-width": 2 }),
    svg("ellipse", { cx: 30, cy: 45, rx: 20, ry: 30, fill: "#d62828", transform: "rotate(25 30 45)" }),
    svg("text", { x: 30, y: 50, "text-anchor": "middle", "font-size": 14, "font-weight": 900, fill: "#f4c20d" }, "UNO"),
  );
}
