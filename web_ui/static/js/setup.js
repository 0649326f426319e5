// Set-up: players and seating, a house-rule preset, game, mode, first dealer, eject profile,
// the match format and the rule options the engine offers for the chosen game
// (GET /api/options, rules_form.js) → POST /api/setup. A refusal names the options at fault.
import { $, at, attempt, get, h, page, post, showError, t } from "./api.js";
import { startPresets } from "./presets.js";
import { startTableSettings } from "./table_settings.js";
import { startTournamentForm } from "./tournament_form.js";
import { RulesForm } from "./rules_form.js";

const form = $("setup-form");
const previous = page.state?.setup ?? null;
let players = previous ? previous.players.slice() : ["", "", "", ""];
const guide = page.formats;
let rules = null; // the rule options (RulesForm), once /api/options has answered

const game = () => form.elements.game.value;
const playerLabel = (i) => players[i].trim() || t("player_name", { n: i + 1 });
const names = () => players.map((_, i) => playerLabel(i));

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
        oninput: (e) => ((players[i] = e.target.value), renderDealers(), rules?.renderFormat($("format"))),
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
  rules?.renderFormat($("format"));
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

/** Each eject profile by its name in words, and a line on what a press feels like: a built-in
 * one's in the page's language, a custom one's (the family's own, from `tune`) its file's own
 * description. */
function renderEjectProfiles(profiles, custom = []) {
  const chosen = previous?.eject_profile ?? "toy";
  const select = $("eject-profile");
  const described = new Map(custom.map((p) => [p.name, p.description]));
  const name = (p) => {
    if (described.has(p)) return t("eject_profile_custom", { name: p });
    return `eject_profile_${p}` in page.words ? t(`eject_profile_${p}`) : p;
  };
  select.replaceChildren(...profiles.map((p) => h("option", { value: p, selected: p === chosen }, name(p))));
  const explain = () => {
    const key = `eject_profile_${select.value}_hint`;
    const own = described.get(select.value);
    $("eject-profile-hint").textContent = own ?? (key in page.words ? t(key) : "");
  };
  select.addEventListener("change", explain);
  explain();
}

/** How many house rules differ from the standard ones, on the folded rules box. The match
 * format and its target are chosen above it and are no house rule: changing them neither
 * counts here nor unfolds the box (the page would jump under the finger). */
function showChanged() {
  const count = Object.keys(rules.houseChosen()).length;
  $("options-changed").textContent = count ? t("rules_changed", { count }) : t("rules_standard");
}

/** Rules that arrive changed (the last match's, a preset's) are unfolded, so a table never
 * plays changed rules without seeing them; a change made on the page unfolds nothing. */
function unfoldIfChanged() {
  if (Object.keys(rules.houseChosen()).length) $("options-box").open = true;
}

/** The last match's house rules are offered, openly, with a way back to the standard ones;
 * an option it set to its standard value is no change (the rules box says "the standard
 * rules"), and neither is its match format or target, which stay as they were. */
function showCarried() {
  const count = Object.keys(rules.houseChosen()).length;
  $("carried").hidden = count === 0;
  $("carried-text").textContent = t("rules_carried", { count });
  $("standard-rules").addEventListener("click", () => {
    rules.standardHouse();
    renderRules();
    $("carried").hidden = true;
  });
}

/** Redraw the parts of the form a change concerns: the format's options and hints. */
function changed(id) {
  if (id === "format" && guide.score_only.includes(rules.value("format")))
    form.elements.mode.value = "score_only";
  if (["format", "scoring", "teams"].includes(id)) rules.renderFormat($("format"));
  showChanged();
}

function renderRules() {
  rules.renderFormat($("format"));
  rules.renderOptions($("options"));
  showChanged();
}

/** A preset fills the game and the options; everything it does not name is the default. */
function loadPreset(preset) {
  form.elements.game.value = preset.game;
  rules.replace({ ...preset.options });
  changed("format");
  renderRules();
  unfoldIfChanged();
}

/** A refusal in words at the top of the page, with the options it names marked. */
function refused(error) {
  showError(error);
  rules.markConflict(error.message);
  $("message").scrollIntoView({ block: "center" });
}

async function submit(event) {
  event.preventDefault();
  const setup = {
    players: names(),
    game: game(),
    mode: form.elements.mode.value,
    first_dealer: Number($("first-dealer").value),
    eject_profile: $("eject-profile").value,
    options: rules.chosen(),
    seed: Math.floor(Math.random() * 2 ** 30),
  };
  if (!(await replaceAgreed())) return;
  try {
    await post("/api/setup", { setup });
    location.assign(at("/"));
  } catch (error) {
    refused(error);
  }
}

/** A match in progress is replaced only when the person says so. */
async function replaceAgreed() {
  const state = await attempt(() => get("/api/state"));
  if (!state?.setup || state.match_over) return true;
  const words = { names: state.setup.players.join(", "), deals: state.deal_count ?? 0 };
  return window.confirm(t("replace_confirm", words));
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
  form.elements.game.forEach((radio) => radio.addEventListener("change", renderRules));
  renderPlayers();
  const catalogue = await attempt(() => get("/api/options"));
  if (!catalogue) return;
  rules = new RulesForm(catalogue, { ...(previous?.options ?? {}) }, { game, players: names, changed });
  renderEjectProfiles(catalogue.eject_profiles, catalogue.custom_eject_profiles);
  renderRules();
  unfoldIfChanged();
  showCarried();
  startTableSettings();
  startTournamentForm();
  await startPresets(loadPreset, () => ({ game: game(), options: rules.chosen(), onrefused: refused }));
  form.dataset.ready = "true";
}

start();
