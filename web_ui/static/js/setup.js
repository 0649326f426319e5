// Set-up: players and seating, game, mode, first dealer, eject profile and the rule options
// the engine offers for the chosen game (GET /api/options) → POST /api/setup.
import { attempt, get, h, page, post, t } from "./api.js";

const $ = (id) => document.getElementById(id);
const form = $("setup-form");
const previous = page.state?.setup ?? null;
let players = previous ? previous.players.slice() : ["", "", "", ""];
let catalogue = null; // the answer of /api/options
let values = { ...(previous?.options ?? {}) };

const game = () => form.elements.game.value;
const playerLabel = (i) => players[i].trim() || t("player_name", { n: i + 1 });

function renderPlayers() {
  const rows = players.map((name, i) =>
    h(
      "li",
      { class: "setup-player" },
      h("input", {
        type: "text",
        value: name,
        maxlength: 24,
        placeholder: t("player_name", { n: i + 1 }),
        "aria-label": t("player_name", { n: i + 1 }),
        oninput: (e) => ((players[i] = e.target.value), renderDealers()),
      }),
      h(
        "button",
        {
          type: "button",
          "aria-label": t("move_up"),
          title: t("move_up"),
          disabled: i === 0,
          onclick: () => move(i, -1),
        },
        "↑",
      ),
      h(
        "button",
        {
          type: "button",
          "aria-label": t("move_down"),
          title: t("move_down"),
          disabled: i === players.length - 1,
          onclick: () => move(i, 1),
        },
        "↓",
      ),
      h(
        "button",
        {
          type: "button",
          "aria-label": t("remove"),
          title: t("remove"),
          disabled: players.length <= 2,
          onclick: () => remove(i),
        },
        "✕",
      ),
    ),
  );
  $("players").replaceChildren(...rows);
  $("add-player").disabled = players.length >= 10;
  renderDealers();
}

function move(i, by) {
  [players[i], players[i + by]] = [players[i + by], players[i]];
  renderPlayers();
}

function remove(i) {
  players.splice(i, 1);
  renderPlayers();
}

function renderDealers() {
  const select = $("first-dealer");
  const chosen = Math.min(Number(select.value || previous?.first_dealer || 0), players.length - 1);
  select.replaceChildren(
    ...players.map((_, i) => h("option", { value: i, selected: i === chosen }, playerLabel(i))),
  );
}

function renderProfiles() {
  const chosen = previous?.profile ?? "toy";
  $("profile").replaceChildren(
    ...catalogue.profiles.map((p) => h("option", { value: p, selected: p === chosen }, p)),
  );
}

/** The options for the chosen game, grouped by their section of the rules. */
function renderOptions() {
  const sections = new Map();
  for (const option of catalogue.options.filter((o) => o.games.includes(game()))) {
    if (!sections.has(option.section)) sections.set(option.section, []);
    sections.get(option.section).push(option);
  }
  const groups = [...sections].map(([section, options]) =>
    h("div", { class: "option-group" }, h("h3", {}, section), options.map(optionControl)),
  );
  $("options").replaceChildren(...groups);
}

function optionControl(option) {
  const text = page.language === "zh-CN" ? option.zh : option.en;
  const value = values[option.id] ?? option.default;
  const set = (v) => (values[option.id] = v);
  let control;
  if (option.kind === "bool") {
    control = h("input", {
      type: "checkbox",
      checked: Boolean(value),
      onchange: (e) => set(e.target.checked),
    });
    return h("label", { class: "option toggle", "data-option": option.id }, control, h("span", {}, text));
  }
  if (option.choices.length) {
    const choices =
      option.id === "deck"
        ? option.choices.filter((c) => !c || catalogue.decks[c] === game())
        : option.choices;
    control = h(
      "select",
      { onchange: (e) => set(e.target.value) },
      choices.map((c) => h("option", { value: c, selected: c === value }, c ? c.replaceAll("_", " ") : "—")),
    );
  } else if (option.kind === "int") {
    control = h("input", {
      type: "number",
      min: option.min,
      max: option.max,
      value,
      onchange: (e) => set(Number(e.target.value)),
    });
  } else {
    control = h("input", { type: "text", value, onchange: (e) => set(e.target.value) });
  }
  return h("label", { class: "option", "data-option": option.id }, h("span", {}, text), control);
}

/** Only the options that apply to this game and differ from their default. */
function chosenOptions() {
  const out = {};
  for (const option of catalogue.options) {
    const value = values[option.id];
    if (option.games.includes(game()) && value !== undefined && value !== option.default)
      out[option.id] = value;
  }
  return out;
}

async function submit(event) {
  event.preventDefault();
  const setup = {
    players: players.map((_, i) => playerLabel(i)),
    game: game(),
    mode: form.elements.mode.value,
    first_dealer: Number($("first-dealer").value),
    profile: $("profile").value,
    options: chosenOptions(),
    seed: Math.floor(Math.random() * 2 ** 30),
  };
  if (await attempt(() => post("/api/setup", { setup }))) location.assign("/");
}

async function start() {
  if (!form) return;
  if (previous) {
    form.elements.game.value = previous.game;
    form.elements.mode.value = previous.mode;
  }
  $("add-player").addEventListener("click", () => {
    players.push("");
    renderPlayers();
  });
  form.addEventListener("submit", submit);
  form.elements.game.forEach((radio) => radio.addEventListener("change", renderOptions));
  renderPlayers();
  catalogue = await attempt(() => get("/api/options"));
  if (!catalogue) return;
  renderProfiles();
  renderOptions();
  form.dataset.ready = "true";
}

start();
