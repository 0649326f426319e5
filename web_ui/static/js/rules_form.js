// The set-up page's rule options, generated from the engine's registry (GET /api/options):
// the match format with the options it uses, then every other option of the chosen game,
// grouped by the part of the rules it comes from. Each option shows a plain label with a hint
// beneath it, and its choices, in words (option_words.py).
import { choiceLabel, h, optionWords, page, t } from "./api.js";

const guide = page.formats ?? { fields: {}, scoring: {}, players: {}, score_only: [] };
const FORMAT_OPTIONS = new Set(["format", ...Object.values(guide.fields).flat()]);

/** Whether an option belongs to the match format (the format, its target, scoring, ...). */
export const isFormatOption = (id) => FORMAT_OPTIONS.has(id);

/** The form's rule options: `values` holds what the players chose (option id → value). */
export class RulesForm {
  constructor(catalogue, values, { game, players, changed }) {
    this.catalogue = catalogue;
    this.byId = new Map(catalogue.options.map((o) => [o.id, o]));
    this.values = values;
    this.game = game; // () → "attack" | "classic"
    this.players = players; // () → the player labels, in seating order
    this.changed = changed; // called after a change that may concern the rest of the form
  }

  value(id) {
    return this.values[id] ?? this.byId.get(id)?.default;
  }

  set(id, value) {
    this.values[id] = value;
  }

  /** Replace every choice (a loaded preset): options not named go back to their default. */
  replace(values) {
    for (const key of Object.keys(this.values)) delete this.values[key];
    Object.assign(this.values, values);
  }

  /** The house rules back to the standard ones; the match format and its target stay. */
  standardHouse() {
    for (const key of Object.keys(this.values)) if (!isFormatOption(key)) delete this.values[key];
  }

  applies(option) {
    return option.games.includes(this.game());
  }

  /** Whether a choice of an option belongs to the chosen game (§11: uno_state's
   * "identical cards" is classic UNO's only). */
  choiceApplies(option, choice) {
    return (option.choice_games?.[choice] ?? option.games).includes(this.game());
  }

  /** The options the chosen format uses, as shown now (some depend on the scoring). */
  formatFields() {
    const format = this.value("format");
    return (guide.fields[format] ?? []).filter((id) => {
      const option = this.byId.get(id);
      if (!option || !this.applies(option)) return false;
      const modes = format === "standard" ? guide.scoring[id] : null;
      return !modes || modes.includes(this.value("scoring"));
    });
  }

  /** Only the options that apply now and differ from their default. */
  chosen() {
    const shown = new Set(["format", ...this.formatFields()]);
    const out = {};
    for (const option of this.catalogue.options) {
      const value = this.values[option.id];
      if (!this.applies(option) || value === undefined || value === option.default) continue;
      if (option.choices.length && !this.choiceApplies(option, value)) continue;
      if (FORMAT_OPTIONS.has(option.id) && !shown.has(option.id)) continue;
      out[option.id] = value;
    }
    return out;
  }

  /** The house rules among them: the match format, its target and scoring are no house rule
   * (they are chosen in the open, above the folded house rules). */
  houseChosen() {
    return Object.fromEntries(Object.entries(this.chosen()).filter(([id]) => !isFormatOption(id)));
  }

  /** Mark the rows of the options a refusal names (e.g. two options that conflict). */
  markConflict(reason) {
    document.querySelectorAll(".option.conflict").forEach((row) => row.classList.remove("conflict"));
    const named = [...this.byId.keys()].filter((id) => new RegExp(`\\b${id}\\b`).test(reason));
    const rows = named.flatMap((id) => [...document.querySelectorAll(`[data-option="${id}"]`)]);
    rows.forEach((row) => row.classList.add("conflict"));
    return rows.length;
  }

  // ---------------------------------------------------------------- the match format

  renderFormat(box) {
    const format = this.value("format");
    const radios = this.byId.get("format").choices.map((name) =>
      h(
        "label",
        { class: "choice format-choice", "data-format": name },
        h("input", {
          type: "radio",
          name: "format",
          value: name,
          checked: name === format,
          onchange: () => this.choose("format", name),
        }),
        choiceLabel("format", name),
      ),
    );
    box.replaceChildren(
      h("div", { class: "choices formats", id: "formats" }, radios),
      h("div", { class: "hint", id: "format-hint" }, this.formatHints()),
      h("div", { class: "options", id: "format-options" }, this.formatFields().map((id) => this.control(id))),
    );
  }

  choose(id, value) {
    this.set(id, value);
    this.changed(id);
  }

  formatHints() {
    const format = this.value("format");
    const hints = [];
    if (guide.players[format]) hints.push(h("p", {}, t("needs_players", { count: guide.players[format] })));
    if (guide.score_only.includes(format)) hints.push(h("p", {}, t("needs_score_only")));
    if (format === "team_play") hints.push(this.teamsPreview());
    return hints;
  }

  /** Who partners whom: seat s is on team s mod teams, so partners sit apart (§9.5). */
  teamsPreview() {
    const teams = Number(this.value("teams"));
    const names = this.players();
    const rows = Array.from({ length: teams }, (_, team) =>
      h(
        "li",
        { "data-team": team },
        `${t("team_n", { n: team + 1 })}: ${names.filter((_, s) => s % teams === team).join(" · ")}`,
      ),
    );
    return h("div", { id: "teams-preview" }, t("teams_preview"), h("ul", {}, rows));
  }

  // ---------------------------------------------------------------- every other option

  renderOptions(box) {
    const sections = new Map();
    for (const option of this.catalogue.options) {
      if (!this.applies(option) || FORMAT_OPTIONS.has(option.id)) continue;
      if (!sections.has(option.section)) sections.set(option.section, []);
      sections.get(option.section).push(option.id);
    }
    const ordered = [...sections].sort(([a], [b]) => compareSections(a, b));
    const groups = ordered.map(([section, ids]) =>
      h(
        "div",
        { class: "option-group", "data-section": section },
        h("h3", {}, page.sections?.[section] ?? ""),
        ids.map((id) => this.control(id)),
      ),
    );
    box.replaceChildren(...groups);
  }

  control(id) {
    const option = this.byId.get(id);
    const { label: text, hint } = optionWords(option, this.value("format"));
    if (option.kind === "bool") {
      const input = h("input", {
        type: "checkbox",
        checked: Boolean(this.value(id)),
        onchange: (e) => this.choose(id, e.target.checked),
      });
      return h("label", { class: "option toggle", "data-option": id }, input, label(text, hint));
    }
    return h("label", { class: "option", "data-option": id }, label(text, hint), this.input(option));
  }

  input(option) {
    const id = option.id;
    const value = this.value(id);
    if (option.choices.length) {
      const choices =
        id === "deck"
          ? option.choices.filter((c) => !c || this.catalogue.decks[c] === this.game())
          : option.choices.filter((c) => this.choiceApplies(option, c));
      return h(
        "select",
        { onchange: (e) => this.choose(id, e.target.value) },
        choices.map((c) => h("option", { value: c, selected: c === value }, choiceLabel(id, c))),
      );
    }
    if (option.kind === "int") {
      return h("input", {
        type: "number",
        min: option.min,
        max: option.max,
        value,
        onchange: (e) => this.choose(id, Number(e.target.value)),
      });
    }
    return h("input", { type: "text", value, onchange: (e) => this.choose(id, e.target.value) });
  }
}

/** An option's words: what it does at the table, the detail smaller beneath it (a field
 * sits beside the first line when there is room: app.css). */
function label(text, hint) {
  return h(
    "span",
    { class: "option-label" },
    h("span", { class: "option-name" }, text),
    hint ? h("small", { class: "fine" }, hint) : null,
  );
}

/** "§2.2" before "§10.1": sections in the order of the rules. */
function compareSections(a, b) {
  const parts = (s) => s.split(/[^0-9]+/).filter(Boolean).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
  }
  return 0;
}
