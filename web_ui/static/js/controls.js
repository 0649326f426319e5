// The controls of an unlocked tablet: what the player to move may do, built from
// state.deal.moves (exactly the legal actions), plus the UNO catch window, the house rules'
// taps (house.js: jump-ins, several cards, the stack, suggestions), the deal, the turned-up
// card, the hands left at the end of a deal, undo and count corrections.
import { attempt, h, notify, page, post, t } from "./api.js";
import { undoneText } from "./feed.js";
import { cardButton, cardChip, cardPicker, colourButtons } from "./cards.js";
import {
  acceptLabel,
  groupStep,
  jumpInWindow,
  multiAllowed,
  multiToggle,
  startGroup,
  suggestControls,
} from "./house.js";
import { roundForm, scoring } from "./tally.js";
import { exposedSeats, pendingStack, playerName, reloadPending } from "./view.js";

// What the controls remember between renders: the play being built, picks, typed numbers.
const ui = {
  seq: -1,
  step: null, // a play being built: {kind, seat, card, options, extra, ...}
  uno: false,
  jumpUno: false,
  multi: false,
  suggest: false,
  press: 1,
  round: null,
  fix: { open: false, seat: 0 },
  scoring: { deal: -1, seat: null, picks: {}, typed: {} },
};
let env = null; // {state, mine(seat), bots, accept(state), rerender()}
let root = null;
let busy = false; // a tap is on its way: no second tap until it is answered

export function renderControls(into, state, environment) {
  root = into;
  env = { ...environment, state };
  if (state.seq !== ui.seq)
    Object.assign(ui, { seq: state.seq, step: null, uno: false, jumpUno: false, multi: false, round: null });
  const deals = state.deal_count ?? 0; // no deals on a table nobody has set up yet
  if (ui.scoring.deal !== deals) ui.scoring = { deal: deals, seat: null, picks: {}, typed: {} };
  root.replaceChildren(...sections(state));
}

function redraw() {
  env.rerender();
}

/** Send one tap; while it is on its way the controls take no other (a double tap is one). */
async function send(url, body) {
  if (busy) return null;
  busy = true;
  root.dataset.busy = "true";
  try {
    return await attempt(() => post(url, body));
  } finally {
    busy = false;
    delete root.dataset.busy;
  }
}

async function act(action) {
  const answer = await send("/api/actions", { action });
  if (answer) env.accept(answer.state);
}

async function command(url, body = {}) {
  const answer = await send(url, body);
  if (answer?.state) env.accept(answer.state);
}

const button = (label, onclick, attrs = {}) => h("button", { type: "button", onclick, ...attrs }, label);
const name = (seat) => playerName(env.state, seat);

/** What house.js borrows to build its controls. */
function kit() {
  return { ui, state: env.state, act, command, button, name, redraw, mine: env.mine, proceed, unoToggle };
}

function sections(state) {
  if (!state.setup) return [];
  const out = [];
  if (!state.match_over) // a finished match: the match-end panel offers the next one
    out.push(...(state.setup.mode === "score_only" ? [roundForm(kit())] : tracked(state)));
  if (!env.bots) out.push(toolbar(state)); // the bots' own table: the bots deal and undo nothing
  return out;
}

function tracked(state) {
  const deal = state.deal;
  if (!deal) return env.bots ? [] : [dealButton(state)];
  if (deal.phase === "turn_up") return env.bots ? [] : turnUp(state);
  if (deal.phase === "scoring") return [scoring(kit())];
  if (deal.phase === "playing")
    return [...catchWindow(deal), ...jumpInWindow(kit()), ui.step ? stepPanel(state) : turnControls(state)];
  return [];
}

function dealButton(state) {
  const label = state.deals.length ? t("next_deal", { name: name(state.next_dealer) }) : t("deal");
  return button(label, () => command("/api/deal"), { id: "deal", class: "big primary" });
}

function turnUp(state) {
  const cards = state.deal.moves.filter((m) => m.type === "TurnUp").map((m) => m.card);
  const out = [];
  if ((state.launcher?.status ?? "none") !== "none") {
    out.push(
      button(t("deal_launcher"), () => command("/api/launcher/deal"), { id: "deal-launcher", class: "big" }),
    );
  }
  out.push(
    h("h2", {}, t("turn_up")),
    h(
      "div",
      { id: "turn-up" },
      cardPicker(cards, (card) => act({ type: "TurnUp", card })),
    ),
  );
  return out;
}

// ---------------------------------------------------------------- the UNO catch window

/** For each player who missed UNO: their own "UNO!" and everybody else's "Catch!". */
function catchWindow(deal) {
  const exposed = exposedSeats(deal);
  if (!exposed.length) return [];
  const buttons = [];
  for (const target of exposed) {
    if (env.mine(target)) {
      const label = t("uno_for", { name: name(target) });
      buttons.push(
        button(label, () => act({ type: "CallUno", seat: target }), {
          class: "big uno-call",
          "data-target": target,
        }),
      );
    }
    deal.hands.forEach((_, seat) => {
      if (seat === target || !env.mine(seat)) return;
      const label = t("catches", { name: name(seat), target: name(target) });
      buttons.push(
        button(label, () => act({ type: "Catch", seat, target }), {
          class: "big catch",
          "data-seat": seat,
          "data-target": target,
        }),
      );
    });
  }
  return [h("div", { class: "group catch-window", id: "catch-window" }, buttons)];
}

// ---------------------------------------------------------------- the player to move

/** A play being built (a colour, a target, the cards along, a group), by whoever makes it. */
function stepPanel(state) {
  return h(
    "div",
    { class: "group step", id: "step", "data-seat": ui.step.seat },
    stepControls(state, ui.step.seat),
    button(t("cancel"), () => ((ui.step = null), redraw())),
  );
}

function turnControls(state) {
  const deal = state.deal;
  const seat = deal.to_move;
  if (seat === null || seat === undefined || !env.mine(seat)) return h("div");
  const plays = deal.moves.filter((m) => m.type === "Play");
  const cards = [...new Set(plays.map((m) => m.card))];
  const stack = pendingStack(state);
  const title = plays.length ? t("play_card", { name: name(seat) }) : t("to_move", { name: name(seat) });
  return h(
    "div",
    { class: "group turn-controls", id: "turn-controls", "data-seat": seat },
    h("h2", {}, stack && plays.length ? t("pass_on") : title),
    // a trade's UNO depends on the hand taken: it is offered with the partner, in the step
    plays.some((m) => m.uno && !traded(m)) ? unoToggle() : null,
    plays.length && multiAllowed(state) ? multiToggle(kit()) : null,
    cards.length
      ? h(
          "div",
          { class: "plays", id: "plays" },
          cards.map((card) => cardButton(card, () => choose(seat, plays, card))),
        )
      : null,
    h("div", { class: "row other-moves" }, otherMoves(state, seat)),
  );
}

const traded = (move) => move.target !== null && move.target !== undefined;

/** "Called UNO with it": `key` is where the choice is kept (ui.uno for the player to move). */
function unoToggle(id = "uno-toggle", key = "uno") {
  return h(
    "label",
    { class: "toggle uno-toggle" },
    h("input", {
      type: "checkbox",
      id,
      checked: ui[key],
      onchange: (e) => (ui[key] = e.target.checked),
    }),
    t("call_uno"),
  );
}

/** A tapped card: build a group first (several cards at once), or go on to play it. */
function choose(seat, plays, card) {
  const options = plays.filter((m) => m.card === card);
  if (ui.multi && multiAllowed(env.state)) {
    ui.step = startGroup(seat, options, card);
    return redraw();
  }
  return proceed(seat, options, card, {});
}

/** Play `card` now, or ask first for the colour, the target or the cards along. `options`
 * are its legal moves; `extra` holds what was chosen already (a group). */
function proceed(seat, options, card, extra) {
  const base = { seat, card, options, extra };
  if (options.some((m) => m.colour)) ui.step = { ...base, kind: "colour" };
  else if (options.some((m) => m.target !== null && m.target !== undefined))
    ui.step = { ...base, kind: "target", targets: options.map((m) => m.target) };
  else if (card.endsWith("DA")) ui.step = { ...base, kind: "also", count: 0 };
  else return play(seat, card, extra);
  redraw();
}

function play(seat, card, fields = {}) {
  return act({ type: "Play", seat, card, uno: ui.uno, ...fields });
}

function stepControls(state, seat) {
  const step = ui.step;
  if (step.kind === "group") return groupStep(kit(), step);
  const group = step.extra?.group ?? [];
  const head = h("div", { class: "step-card" }, cardChip(step.card), group.map((c) => cardChip(c)));
  const finish = (fields) => play(seat, step.card, { ...step.extra, ...fields });
  if (step.kind === "colour")
    return [head, h("h2", {}, t("choose_colour")), colourButtons((colour) => finish({ colour }))];
  if (step.kind === "target") {
    const calls = step.options.filter((m) => m.uno).map((m) => m.target); // a one-card hand
    const targets = step.targets.map((target) =>
      button(name(target), () => finish({ target, uno: ui.uno && calls.includes(target) }), {
        class: "big",
        "data-target": target,
      }),
    );
    const uno = calls.length ? unoToggle() : null;
    return [head, h("h2", {}, t("trade_with")), uno, h("div", { class: "row" }, targets)];
  }
  return [head, h("h2", {}, t("discard_count")), alsoCounter(state, seat, step, finish)];
}

function alsoCounter(state, seat, step, finish) {
  const down = 1 + (step.extra?.group?.length ?? 0);
  const most = Math.max(0, state.deal.hands[seat] - down);
  const change = (by) => {
    step.count = Math.min(most, Math.max(0, step.count + by));
    redraw();
  };
  const left = state.deal.hands[seat] - down - step.count;
  return h(
    "div",
    { class: "row" },
    button("−", () => change(-1), { class: "big", "aria-label": "−1" }),
    h("output", { id: "also-count", class: "count-out" }, step.count),
    button("+", () => change(1), { class: "big", "aria-label": "+1" }),
    left === 1 ? unoToggle() : null,
    button(t("play"), () => finish({ also: Array(step.count).fill("?") }), {
      class: "big primary",
      id: "also-ok",
    }),
  );
}

function otherMoves(state, seat) {
  const types = new Set(state.deal.moves.map((m) => m.type));
  const out = [];
  if (types.has("Press")) out.push(pressControls(state, seat));
  if (types.has("Draw"))
    out.push(button(t("draw"), () => act({ type: "Draw", seat }), { class: "big", id: "draw" }));
  if (types.has("Pass"))
    out.push(button(t("pass"), () => act({ type: "Pass", seat }), { class: "big", id: "pass" }));
  if (types.has("Accept"))
    out.push(button(acceptLabel(state), () => act({ type: "Accept", seat }), { class: "big", id: "accept" }));
  if (types.has("Challenge")) {
    out.push(
      button(t("guilty"), () => act({ type: "Challenge", seat, guilty: true }), {
        class: "big",
        id: "guilty",
      }),
    );
    out.push(
      button(t("not_guilty"), () => act({ type: "Challenge", seat, guilty: false }), {
        class: "big",
        id: "not-guilty",
      }),
    );
  }
  if (types.has("ChooseColour"))
    out.push(colourButtons((colour) => act({ type: "ChooseColour", seat, colour })));
  return out;
}

/** A press: typed count on a table without a launcher, the virtual button on a simulated one. */
function pressControls(state, seat) {
  const status = state.launcher?.status ?? "none";
  if (status === "none") {
    return h(
      "div",
      { class: "row press-manual" },
      h(
        "label",
        {},
        t("press_count"),
        " ",
        h("input", {
          type: "number",
          id: "press-count",
          min: 0,
          max: 20,
          value: ui.press,
          oninput: (e) => (ui.press = e.target.value),
        }),
      ),
      button(t("press"), () => act({ type: "Press", seat, cards: Number(ui.press) || 0 }), {
        class: "big primary",
        id: "press-typed",
      }),
    );
  }
  if (reloadPending(state)) return waitForReload();
  if (page.demo || page.simulated) {
    return button(t("virtual_press"), () => command("/api/launcher/press"), {
      class: "big primary press-button",
      id: "press",
    });
  }
  return h("p", { class: "hint" }, t("press_button"));
}

/** The launcher is empty: the press waits for the reload, and says so. */
function waitForReload() {
  const why = h("p", { class: "hint press-wait", id: "press-wait" }, t("press_after_reload"));
  if (!page.demo && !page.simulated) return why; // the real button: words only
  const press = button(t("virtual_press"), null, {
    class: "big primary press-button",
    id: "press",
    disabled: true,
    "aria-describedby": "press-wait",
  });
  return h("div", { class: "row" }, press, why);
}

// ---------------------------------------------------------------- always there

/** Undo the last step and say which it was. */
async function undo() {
  const answer = await send("/api/undo");
  if (!answer) return;
  notify(t("ev_Undone", { what: undoneText(env.state, answer.events[0]?.undone) }));
  env.accept(answer.state);
}

function toolbar(state) {
  const deal = state.deal;
  const playing = deal && deal.phase === "playing";
  return h(
    "div",
    { class: "row toolbar" },
    button(`↶ ${t("undo")}`, undo, { id: "undo" }),
    playing ? fixCount(state) : null,
    playing ? suggestControls(kit()) : null,
  );
}

function fixCount(state) {
  const players = state.deal.hands.map((_, seat) => name(seat));
  const fix = ui.fix;
  const options = players.map((player, seat) =>
    h("option", { value: seat, selected: seat === fix.seat }, player),
  );
  const who = h("select", { id: "fix-seat", "aria-label": t("players") }, options);
  const count = h("input", {
    type: "number",
    id: "fix-count",
    min: 0,
    max: 120,
    value: state.deal.hands[fix.seat],
    "aria-label": t("hand"),
  });
  who.addEventListener("change", () => {
    fix.seat = Number(who.value);
    count.value = state.deal.hands[fix.seat];
  });
  const save = () => act({ type: "Correct", seat: fix.seat, count: Number(count.value) || 0 });
  return h(
    "details",
    { class: "fix-count", open: fix.open, ontoggle: (e) => (fix.open = e.target.open) },
    h("summary", {}, t("fix_count")),
    h("div", { class: "row" }, who, count, button(t("save"), save, { id: "fix-save" })),
  );
}
