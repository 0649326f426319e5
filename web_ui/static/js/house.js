// The controls the house rules add (RULES.md §10), built from the state like the others:
// the jump-in window (§10.2), several cards in one tap (§10.3), accepting a stack (§10.1; the
// pending total itself is in the alerts, view.js) and Attack's suggestion penalty. `kit` is
// what controls.js lends: {ui, state, act, command, button, name, redraw, mine, proceed,
// unoToggle}.
import { cardName, h, page, t } from "./api.js";
import { cardButton, cardChip, colourOf } from "./cards.js";
import { pendingStack } from "./view.js";

// ---------------------------------------------------------------- jump-ins (§10.2)

/** A "Jump in!" tap for every player who may play out of turn now (state.deal.jump_ins). At
 * a table the engine cannot see hands, so every other player is offered the identical card;
 * the window closes by itself at the next voluntary action (the list empties). */
export function jumpInWindow(kit) {
  const offers = new Map();
  for (const move of kit.state.deal.jump_ins ?? []) {
    if (!kit.mine(move.seat)) continue;
    const key = `${move.seat}:${move.card}`;
    if (!offers.has(key)) offers.set(key, []);
    offers.get(key).push(move);
  }
  if (!offers.size) return [];
  const buttons = [...offers.values()].map((moves) => jumpInButton(kit, moves));
  const lastCard = [...offers.values()].some(([move]) => kit.state.deal.hands[move.seat] === 2);
  return [
    h(
      "div",
      { class: "group jump-window", id: "jump-window" },
      h("h2", {}, t("jump_in_window")),
      h("div", { class: "row" }, buttons),
      lastCard ? kit.unoToggle("jump-uno", "jumpUno") : null,
    ),
  ];
}

function jumpInButton(kit, moves) {
  const { seat, card } = moves[0];
  return h(
    "button",
    {
      type: "button",
      class: "big jump-in",
      "data-seat": seat,
      "data-card": card,
      onclick: () => kit.proceed(seat, moves, card, { uno: kit.ui.jumpUno }),
    },
    h("span", { class: "jump-word" }, t("jump_in")),
    h("span", { class: "jump-name" }, kit.name(seat)),
    cardChip(card),
  );
}

// ---------------------------------------------------------------- several cards (§10.3)

/** Whether this table lets a play carry a group of cards. */
export function multiAllowed(state) {
  const house = state.house ?? {};
  return Boolean(house.multi) && (!state.attack || Boolean(house.changed?.multi_in_attack));
}

export function multiToggle(kit) {
  return h(
    "label",
    { class: "toggle multi-toggle" },
    h("input", {
      type: "checkbox",
      id: "multi-toggle",
      checked: kit.ui.multi,
      onchange: (e) => (kit.ui.multi = e.target.checked),
    }),
    t("several"),
  );
}

const faceOf = (text) => (colourOf(text) === "W" ? text : text.slice(1));

/** The deck's cards that may go down with `card`: the same face in any colour (same_face),
 * or the same card (identical). At a table the engine cannot see the hand to offer them. */
export function groupMates(state, card) {
  if (state.house?.multi === "identical") return [card];
  const deck = (page.decks?.[state.deck] ?? []).map((entry) => entry.card);
  return deck.filter((other) => faceOf(other) === faceOf(card));
}

export function startGroup(seat, options, card) {
  return { kind: "group", seat, card, options, cards: [card], top: 0 };
}

/** Build the group: add cards, choose the one that ends on top, then play them. */
export function groupStep(kit, step) {
  const most = kit.state.deal.hands[step.seat];
  const add = (card) => {
    if (step.cards.length < most) step.cards.push(card);
    kit.redraw();
  };
  return [
    h("h2", {}, t("group_add")),
    h(
      "div",
      { id: "group-picker", class: "picker-row" },
      groupMates(kit.state, step.card).map((c) => cardButton(c, add)),
    ),
    h("h3", {}, t("group_top")),
    h(
      "div",
      { id: "group-cards", class: "row group-cards" },
      step.cards.map((card, i) => groupCard(kit, step, card, i)),
    ),
    most - step.cards.length === 1 ? kit.unoToggle() : null,
    kit.button(t("play_n", { count: step.cards.length }), () => finishGroup(kit, step), {
      class: "big primary",
      id: "group-ok",
    }),
  ];
}

function groupCard(kit, step, card, i) {
  const top = i === step.top;
  const choose = () => ((step.top = i), kit.redraw());
  const remove = () => {
    step.cards.splice(i, 1);
    step.top = Math.min(step.top > i ? step.top - 1 : step.top, step.cards.length - 1);
    kit.redraw();
  };
  return h(
    "span",
    { class: top ? "group-card top" : "group-card", "data-index": i },
    cardButton(card, choose, { "aria-pressed": String(top), class: "card-button", title: t("on_top") }),
    top ? h("span", { class: "badge mark" }, t("on_top")) : null,
    step.cards.length > 1
      ? kit.button("✕", remove, {
          "aria-label": t("take_out", { card: cardName(card) }),
          class: "remove-card",
        })
      : null,
  );
}

/** The card on top is `card`, the rest its `group`; a wild still asks for the colour, a
 * Discard All for the other cards, Trade Hands for the target (kit.proceed). */
function finishGroup(kit, step) {
  const card = step.cards[step.top];
  const group = step.cards.filter((_, i) => i !== step.top);
  const options = step.options.map((move) => ({ ...move, card }));
  kit.proceed(step.seat, options, card, group.length ? { group } : {});
}

// ---------------------------------------------------------------- stacking (§10.1)

export function acceptLabel(state) {
  const stack = pendingStack(state);
  return stack && !stack.presses ? t("accept_stack", { count: stack.count }) : t("accept");
}

// ---------------------------------------------------------------- Attack: suggestions (§3.4)

/** "X suggested a card": that player owes 4 presses (any active player, any time in play). */
export function suggestControls(kit) {
  const state = kit.state;
  if (!state.attack || state.house?.changed?.suggestion_penalty === false) return null;
  const deal = state.deal;
  const seats = deal.hands.map((_, seat) => seat).filter((seat) => deal.active[seat] && kit.mine(seat));
  return h(
    "details",
    {
      class: "suggest",
      id: "suggest",
      open: kit.ui.suggest,
      ontoggle: (e) => (kit.ui.suggest = e.target.open),
    },
    h("summary", {}, t("suggest")),
    h(
      "div",
      { class: "row" },
      seats.map((seat) =>
        kit.button(t("suggest_by", { name: kit.name(seat) }), () => kit.act({ type: "Suggest", seat }), {
          "data-seat": seat,
        }),
      ),
    ),
  );
}
