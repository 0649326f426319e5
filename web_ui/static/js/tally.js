// The end of a deal (each player's cards left, or their points) and, at a table that only
// keeps score, each round's result. `kit` is what controls.js lends (see house.js).
import { h, page, t } from "./api.js";
import { colourOf } from "./cards.js";

// ---------------------------------------------------------------- the end of a deal

/** One entry per card face with its points (a card's colour does not change its points):
 * [{face, card, points}], `card` being one card of that face for the record. */
function faces(state) {
  const seen = new Map();
  for (const { card, points } of page.decks[state.deck] ?? []) {
    const face = colourOf(card) === "W" ? card : card.slice(1);
    if (!seen.has(face)) seen.set(face, { face, card, cards: [], points });
    seen.get(face).cards.push(card);
  }
  return [...seen.values()];
}

/** `count` cards of one face, its colours taken in turn (R9, G9, B9, Y9, R9, ...): the
 * points are the face's, and no colour is claimed more often than the deck can hold it. */
function cardsOfFace({ cards }, count) {
  return Array.from({ length: count }, (_, i) => cards[i % cards.length]);
}

export function scoring(kit) {
  const { state, ui, button, name, redraw, mine } = kit;
  const deal = state.deal;
  const pending = deal.moves.filter((m) => m.type === "EnterHand" && mine(m.seat)).map((m) => m.seat);
  if (!pending.includes(ui.scoring.seat)) ui.scoring.seat = pending[0] ?? null;
  const shown = Object.entries(deal.shown).map(([seat, points]) =>
    h(
      "li",
      { "data-seat": seat },
      Number(seat) === deal.winner
        ? t("went_out", { name: name(Number(seat)) })
        : `${name(Number(seat))}: ${pointsText(points)}`,
    ),
  );
  const tabs = pending.map((seat) =>
    button(name(seat), () => ((ui.scoring.seat = seat), redraw()), {
      class: seat === ui.scoring.seat ? "tab selected" : "tab",
      "data-seat": seat,
      "aria-pressed": String(seat === ui.scoring.seat),
    }),
  );
  return h(
    "div",
    { class: "group scoring", id: "scoring" },
    h("h2", {}, t("phase_scoring")),
    deal.blocked ? h("p", { class: "hint", id: "blocked-note" }, t("blocked_scoring")) : null, // RULES.md §8
    h("ul", { class: "shown" }, shown),
    h("div", { class: "row tabs" }, tabs),
    ui.scoring.seat === null ? null : handEntry(kit, ui.scoring.seat),
  );
}

/** Points first (one number); or count the cards with +/− per face, checked against the
 * number of cards the table tracked for that hand. */
function handEntry(kit, seat) {
  const { state, ui, act, button, name, redraw } = kit;
  const tracked = state.deal.hands[seat];
  const typed = h("input", {
    type: "number",
    id: "hand-points",
    min: 0,
    max: 9999,
    inputmode: "numeric",
    value: ui.scoring.typed[seat] ?? "",
    oninput: (e) => (ui.scoring.typed[seat] = e.target.value),
  });
  return h(
    "div",
    { class: "hand-entry", "data-seat": seat },
    h("h3", {}, t("enter_hand", { name: name(seat) }), " ", h("span", { class: "hint" }, t("tracked_cards", { count: tracked }))),
    h(
      "div",
      { class: "row" },
      h("label", {}, t("points"), " ", typed),
      button(t("save_points"), () => act({ type: "EnterHand", seat, points: Number(typed.value) || 0 }), {
        class: "big primary",
        id: "save-points",
      }),
    ),
    cardCounter(kit, seat, tracked),
  );
}

function cardCounter(kit, seat, tracked) {
  const { state, ui, act, button, name, redraw } = kit;
  const all = faces(state);
  const counts = (ui.scoring.picks[seat] ??= {});
  const cards = all.flatMap((face) => cardsOfFace(face, counts[face.face] ?? 0));
  const total = all.reduce((sum, { face, points }) => sum + (counts[face] ?? 0) * points, 0);
  const change = (face, by) => () => {
    counts[face] = Math.max(0, (counts[face] ?? 0) + by);
    ui.scoring.sure = false;
    redraw();
  };
  const mismatch = cards.length > 0 && cards.length !== tracked;
  const save = () => {
    if (mismatch && !ui.scoring.sure) return ((ui.scoring.sure = true), redraw());
    // "save anyway": the players counted again, so the entry corrects the tracked count
    act({ type: "EnterHand", seat, cards, correction: mismatch });
  };
  const cells = all.map(({ face, card, points }) =>
    h(
      "div",
      { class: "face", "data-face": face },
      h("span", { class: `face-name${colourOf(card) === "W" ? " wild" : ""}` }, faceName(face)),
      h("small", { class: "face-points" }, pointsText(points)),
      h("output", { class: "face-count" }, counts[face] ?? 0),
      h(
        "div",
        { class: "stepper" },
        button("−", change(face, -1), { class: "minus", "aria-label": `− ${faceName(face)}` }),
        button("+", change(face, 1), { class: "plus", "aria-label": `+ ${faceName(face)}` }),
      ),
    ),
  );
  return h(
    "details",
    { class: "count-cards", open: cards.length > 0 || ui.scoring.open },
    h("summary", { onclick: () => (ui.scoring.open = true) }, t("count_cards")),
    h("div", { class: "faces", id: "faces" }, cells),
    h(
      "p",
      { class: "row" },
      h("output", { id: "picks-points" }, t("cards_and_points", { cards: cardsText(cards.length), points: pointsText(total) })),
    ),
    mismatch
      ? h("p", { class: "warn-text", id: "count-mismatch" }, t("count_mismatch", { name: name(seat), tracked, count: cards.length }))
      : null,
    h(
      "div",
      { class: "row" },
      button(t(mismatch && ui.scoring.sure ? "save_anyway" : "save_cards"), save, {
        class: "big",
        id: "save-cards",
        disabled: cards.length === 0,
      }),
      button(t("clear"), () => (Object.keys(counts).forEach((f) => delete counts[f]), redraw()), { class: "big" }),
    ),
  );
}

/** "7", "Skip", "Wild Hit-Fire": a face in words, whole (its tile wraps a long one). */
function faceName(face) {
  return page.cards[face] ?? face;
}

/** "1 point", "20 points" (Chinese: "20 分"). */
function pointsText(points) {
  return t(points === 1 ? "point_one" : "points_of", { points });
}

/** "1 card", "7 cards" (Chinese: "7 张"). */
function cardsText(count) {
  return t(count === 1 ? "card_one" : "cards_of", { count });
}

// ---------------------------------------------------------------- score-only tables

export function roundForm(kit) {
  const { state, ui, button, name, redraw, command } = kit;
  const players = (state.seating ?? state.setup.players.map((_, p) => p)).map((_, seat) => name(seat));
  ui.round ??= { winner: null, points: players.map(() => 0) };
  const round = ui.round;
  const winners = players.map((player, seat) =>
    button(player, () => ((round.winner = seat), (round.points[seat] = 0), redraw()), {
      class: round.winner === seat ? "tab selected" : "tab",
      "aria-pressed": String(round.winner === seat),
      "data-seat": seat,
    }),
  );
  const inputs = players.map((player, seat) =>
    h(
      "label",
      { class: "points-input" },
      player,
      " ",
      h("input", {
        type: "number",
        min: 0,
        value: round.points[seat],
        disabled: round.winner === seat,
        "data-seat": seat,
        oninput: (e) => (round.points[seat] = Number(e.target.value) || 0),
      }),
    ),
  );
  const save = () => command("/api/rounds", { winner: round.winner, points: round.points });
  return h(
    "div",
    { class: "group round-form", id: "round-form" },
    h("h2", {}, t("round_result")),
    h("h3", {}, t("who_won")),
    h("div", { class: "row tabs" }, winners),
    h("h3", {}, t("points")),
    h("div", { class: "row points-grid" }, inputs),
    button(t("save_round"), save, {
      class: "big primary",
      id: "save-round",
      disabled: round.winner === null,
    }),
  );
}
