// The cumulative scores by round as an SVG line chart (from state.deals[].deltas).
// Lines differ by colour AND dash pattern, and each ends with its player's name.
// The drawing is as wide as its box, one unit a CSS pixel, so its words keep their CSS size
// (readable from across the table) on a phone as on a tablet; it is redrawn when the box's
// width changes (the tablet turned round).
import { h, t } from "./api.js";

const PAD = { left: 56, right: 132, top: 20, bottom: 36 };
const WIDTH = { least: 300, unknown: 640 }; // a box not laid out yet (off the page) says 0
const drawn = new WeakMap(); // box → { state, width } of its last drawing
const watcher =
  typeof ResizeObserver === "undefined"
    ? null
    : new ResizeObserver((entries) => {
        for (const { target } of entries) {
          const last = drawn.get(target);
          if (last && boxWidth(target) !== last.width) renderChart(target, last.state);
        }
      });

function boxWidth(box) {
  return Math.round(box.clientWidth) || WIDTH.unknown;
}

/** The drawing's size for a box: its width, and a height of half that within bounds. */
function size(box) {
  const W = Math.max(WIDTH.least, boxWidth(box));
  return { W, H: Math.round(Math.min(340, Math.max(220, W / 2))) };
}
const STROKES = [
  "#d62828",
  "#1d4ed8",
  "#15803d",
  "#b45309",
  "#7c3aed",
  "#0e7490",
  "#be185d",
  "#4d7c0f",
  "#334155",
  "#c2410c",
];
const DASHES = ["", "8 4", "2 4", "12 4 2 4", "4 4", "16 6", "1 3", "10 2 2 2", "6 6", "3 6"];

/** Each player's running total after each deal, starting from the match's start. */
export function series(state) {
  const deals = state.deals ?? [];
  return state.totals.map((total, seat) => {
    const moves = deals.map((d) => d.deltas[seat] ?? 0);
    let value = total - moves.reduce((a, b) => a + b, 0);
    return [value, ...moves.map((m) => (value += m))];
  });
}

export function renderChart(box, state) {
  drawn.set(box, { state, width: boxWidth(box) });
  watcher?.observe(box);
  const players = state.setup?.players ?? [];
  const deals = state.deals ?? [];
  if (!players.length || !deals.length) {
    box.replaceChildren(h("p", { class: "muted" }, t("no_rounds")));
    return;
  }
  const lines = series(state);
  const values = lines.flat();
  let top = Math.max(1, ...values);
  const targetInside = state.target && state.target <= top * 1.5;
  if (targetInside) top = Math.max(top, state.target);
  const bottom = Math.min(0, ...values);
  const { W, H } = size(box);
  const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, deals.length);
  const y = (v) => H - PAD.bottom - ((v - bottom) * (H - PAD.top - PAD.bottom)) / (top - bottom || 1);
  // the names stay above the round numbers under the axis
  const labels = spread(lines.map((points) => y(points[points.length - 1])), { high: H - PAD.bottom - 4 });
  const svg = h(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("chart"), class: "chart-svg" },
    h("title", {}, t("chart")),
    axes(deals, x, y, top, bottom, W, H),
    state.target ? targetLine(state.target, targetInside ? y(state.target) : PAD.top, targetInside, W) : null,
    lines.map((points, seat) => playerLine(points, seat, players[seat], x, y, labels[seat])),
  );
  box.replaceChildren(svg);
}

function axes(deals, x, y, top, bottom, W, H) {
  const base = y(Math.max(bottom, 0));
  return h(
    "g",
    { class: "axes" },
    h("line", { x1: PAD.left, x2: W - PAD.right, y1: base, y2: base }),
    h("line", { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom }),
    h("text", { x: PAD.left - 6, y: y(top) + 5, "text-anchor": "end" }, top),
    h("text", { x: PAD.left - 6, y: y(bottom) + 5, "text-anchor": "end" }, bottom),
    deals.map((d, i) => h("text", { x: x(i + 1), y: H - 8, "text-anchor": "middle" }, d.number)),
  );
}

/** The target as a dashed line; far above every score it sits on the top edge with an arrow,
 * so it never disappears. */
function targetLine(target, height, inside, W) {
  return h(
    "g",
    { class: "target", "data-inside": String(inside) },
    h("line", { x1: PAD.left, x2: W - PAD.right, y1: height, y2: height, class: "target-line" }),
    h(
      "text",
      { x: PAD.left + 6, y: height - 5, class: "target-label" },
      `${t("target", { points: target })}${inside ? "" : " ↑"}`,
    ),
  );
}

/** Label heights pushed apart so that tied players' names do not overlap, and kept between
 * `low` and `high` (pushed back up from the bottom). */
export function spread(heights, { gap = 22, low = PAD.top + 10, high = 300 } = {}) {
  const order = heights.map((value, seat) => ({ value, seat })).sort((a, b) => a.value - b.value);
  const placed = [];
  let previous = -Infinity;
  for (const { value } of order) placed.push((previous = Math.max(value, previous + gap, low)));
  for (let i = placed.length - 1; i >= 0; i--) {
    const limit = i === placed.length - 1 ? high : placed[i + 1] - gap;
    placed[i] = Math.min(placed[i], limit);
  }
  const out = [];
  order.forEach(({ seat }, i) => (out[seat] = placed[i]));
  return out;
}

function playerLine(points, seat, name, x, y, labelY) {
  const stroke = STROKES[seat % STROKES.length];
  const last = points.length - 1;
  return h(
    "g",
    { class: "series", "data-seat": seat },
    h("polyline", {
      points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "),
      fill: "none",
      stroke,
      "stroke-width": 3,
      "stroke-dasharray": DASHES[seat % DASHES.length] || null,
    }),
    points.map((v, i) => h("circle", { cx: x(i), cy: y(v), r: 4, fill: stroke })),
    h(
      "text",
      { x: x(last) + 8, y: labelY + 5, class: "series-name" },
      `${name} ${points[last]}`,
    ),
  );
}
