// The end of a deal (each player's cards left, or their points) and, at a table that only
// keeps score, each round's result. `kit` is what controls.js lends (see house.js).
import { h, page, t } from "./api.js";
import { cardButton, cardPicker } from "./cards.js";

// ---------------------------------------------------------------- the end of a deal

function deckPoints(state) {
  return new Map((page.decks[state.deck] ?? []).map((c) => [c.card, c.points]));
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
        : `${name(Number(seat))}: ${t("points_of", { points })}`,
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
    h("ul", { class: "shown" }, shown),
    h("div", { class: "row tabs" }, tabs),
    ui.scoring.seat === null ? null : handEntry(kit, ui.scoring.seat),
  );
}

function handEntry(kit, seat) {
  const { state, ui, act, button, name, redraw } = kit;
  const values = deckPoints(state);
  const picks = (ui.scoring.picks[seat] ??= []);
  const total = picks.reduce((sum, card) => sum + (values.get(card) ?? 0), 0);
  const remove = (i) => () => (picks.splice(i, 1), redraw());
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
    h("h3", {}, t("enter_hand", { name: name(seat) })),
    cardPicker([...values.keys()], (card) => (picks.push(card), redraw())),
    h(
      "div",
      { class: "row picks", id: "picks" },
      picks.map((card, i) => cardButton(card, remove(i), { class: "card-button picked" })),
    ),
    h(
      "div",
      { class: "row" },
      h("output", { id: "picks-points" }, t("points_of", { points: total })),
      button(t("save_cards"), () => act({ type: "EnterHand", seat, cards: picks.slice() }), {
        class: "big primary",
        id: "save-cards",
      }),
      button(t("clear"), () => (picks.splice(0), redraw()), { class: "big" }),
    ),
    h(
      "div",
      { class: "row" },
      h("label", {}, t("points"), " ", typed),
      button(t("save_points"), () => act({ type: "EnterHand", seat, points: Number(typed.value) || 0 }), {
        class: "big",
        id: "save-points",
      }),
    ),
  );
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
    h("div", { class: "row" }, inputs),
    button(t("save_round"), save, {
      class: "big primary",
      id: "save-round",
      disabled: round.winner === null,
    }),
  );
}
