// The rules sheet: what each card of the game being played does, in this page's language, and
// the house rules that are on (those that differ from the standard rules). The section on
// calling UNO and catching comes drawn by the server (uno_words.py).
import { $, choiceLabel, get, h, optionWords, page, t } from "./api.js";
import { colourOf } from "./cards.js";
import { cardFace } from "./faces.js";

/** One card of each face (numbers once), in deck order. */
function faceCards(deck) {
  const seen = new Map();
  for (const { card } of page.decks[deck] ?? []) {
    const face = colourOf(card) === "W" ? card : card.slice(1);
    const key = /^\d$/.test(face) ? "number" : face;
    if (!seen.has(key)) seen.set(key, card);
  }
  return [...seen];
}

function cardLine([key, card]) {
  const text = key === "number" ? t("rule_number") : t(`rule_${key}`);
  return h(
    "li",
    { "data-face": key },
    cardFace(card),
    h("div", {}, h("strong", {}, key === "number" ? t("rule_number_name") : (page.cards[key] ?? key)), h("p", {}, text)),
  );
}

function houseLine(option, value, format) {
  const text = optionWords(option, format).label;
  const shown = option.kind === "bool" ? (value ? t("on") : t("off")) : option.choices.length ? choiceLabel(option.id, value) : value;
  return h("li", { "data-option": option.id }, h("span", {}, text), ": ", h("strong", {}, String(shown)));
}

async function start() {
  const state = page.state;
  if (!state.setup) {
    $("rules-goal").textContent = t("no_table");
    return;
  }
  const attack = state.attack;
  $("rules-game").textContent = t(attack ? "game_attack" : "game_classic");
  $("rules-goal").textContent = t(attack ? "rule_goal_attack" : "rule_goal_classic", { target: state.target ?? "" });
  $("rules-cards").replaceChildren(...faceCards(state.deck).map(cardLine));
  const catalogue = await get("/api/options");
  const byId = new Map(catalogue.options.map((o) => [o.id, o]));
  const changed = Object.entries(state.house?.changed ?? {}).filter(([id]) => byId.has(id));
  const format = state.house?.changed?.format ?? "standard";
  $("rules-house").replaceChildren(
    ...(changed.length ? changed.map(([id, value]) => houseLine(byId.get(id), value, format)) : [h("li", {}, t("rules_standard_only"))]),
  );
  document.body.dataset.rules = "ready";
}

start();
