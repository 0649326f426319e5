// Cards and colours as page elements. Colour is never the only signal: every chip carries the
// colour's letter and the card's name in words, for colour-blind players (in Chinese the
// colour's character is both, and is said once).
import { cardName, colourName, h, page } from "./api.js";

const WILD = "W";

/** The colour letter of a card text ("RH2" → "R"; wilds → "W"). */
export function colourOf(text) {
  return text && "RYGB".includes(text[0]) && text.length > 1 ? text[0] : WILD;
}

/** The colour's mark on a chip: its letter, or in Chinese its character (红 黄 绿 蓝). */
function mark(letter) {
  return page.language === "zh-CN" ? colourName(letter) : letter;
}

/** In Chinese a colour's mark is its name itself (红 is both): a chip then says it once. */
function markIsName(letter) {
  return mark(letter) === colourName(letter);
}

/** A card chip: coloured, with the colour's letter and the card's name ("R Red Hit 2"); in
 * Chinese the name alone, which starts with the colour's character ("红 罚按牌 2"). */
export function cardChip(text, extra = {}) {
  const colour = colourOf(text);
  const letter = colour === WILD ? "★" : markIsName(colour) ? null : mark(colour);
  return h(
    "span",
    { class: `card c-${colour}${letter === null ? " plain" : ""}`, "data-card": text, ...extra },
    letter === null ? null : h("b", { class: "letter", "aria-hidden": "true" }, letter),
    h("span", { class: "name" }, cardName(text)),
  );
}

/** A colour chip: "R Red"; in Chinese its character once, "红". */
export function colourChip(letter) {
  const once = markIsName(letter);
  return h(
    "span",
    { class: `card c-${letter}${once ? " mark-only" : ""}`, "data-colour": letter },
    h("b", { class: "letter", "aria-hidden": once ? null : "true" }, mark(letter)),
    once ? null : h("span", { class: "name" }, colourName(letter)),
  );
}

/** A button showing a card; `onclick` gets the card text. */
export function cardButton(text, onclick, attrs = {}) {
  return h(
    "button",
    { type: "button", class: "card-button", "data-card": text, onclick: () => onclick(text), ...attrs },
    cardChip(text),
  );
}

/** Four buttons to name a colour. */
export function colourButtons(onpick) {
  return h(
    "div",
    { class: "colour-choices" },
    ["R", "Y", "G", "B"].map((letter) =>
      h(
        "button",
        { type: "button", class: "card-button", "data-colour": letter, onclick: () => onpick(letter) },
        colourChip(letter),
      ),
    ),
  );
}

/** Cards grouped in rows by colour (wilds last), as buttons: a picker. */
export function cardPicker(texts, onpick) {
  const rows = new Map();
  for (const text of texts) {
    const colour = colourOf(text);
    if (!rows.has(colour)) rows.set(colour, []);
    rows.get(colour).push(text);
  }
  const order = ["R", "Y", "G", "B", WILD].filter((c) => rows.has(c));
  return h(
    "div",
    { class: "picker" },
    order.map((colour) =>
      h(
        "div",
        { class: "picker-row" },
        rows.get(colour).map((text) => cardButton(text, onpick)),
      ),
    ),
  );
}
