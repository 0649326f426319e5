// Cards and colours as page elements. Colour is never the only signal: every chip carries the
// colour's letter and the card's name in words, for colour-blind players.
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

/** A card chip: coloured, with the colour's letter and the card's name. */
export function cardChip(text, extra = {}) {
  const colour = colourOf(text);
  return h(
    "span",
    { class: `card c-${colour}`, "data-card": text, ...extra },
    h("b", { class: "letter", "aria-hidden": "true" }, colour === WILD ? "★" : mark(colour)),
    h("span", { class: "name" }, cardName(text)),
  );
}

/** A colour chip: "R Red". */
export function colourChip(letter) {
  return h(
    "span",
    { class: `card c-${letter}`, "data-colour": letter },
    h("b", { class: "letter", "aria-hidden": "true" }, mark(letter)),
    h("span", { class: "name" }, colourName(letter)),
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
