// "What happened": the last few logged events in words, newest first.
import { cardName, colourName, h, page, t } from "./api.js";
import { playerName } from "./view.js";

const KEEP = 12;

/** One event as a sentence, or null for the ones not worth a line. */
export function describe(state, event) {
  const key = `ev_${event.type}`;
  if (!(key in page.words)) return null;
  const params = {
    name: event.seat === undefined ? "" : playerName(state, event.seat),
    target: event.target === undefined ? "" : playerName(state, event.target),
    card: event.card ? cardName(event.card) : "",
    colour: event.colour ? colourName(event.colour) : "",
    count: countOf(event),
    why: event.why ? t(`why_${event.why}`) : "",
    number: event.number ?? "",
    names: Array.isArray(event.players) ? event.players.join(", ") : "",
  };
  if (event.type === "DealStarted") params.name = playerName(state, event.dealer);
  if (event.type === "Owes") params.count = event.presses;
  return t(key, params);
}

function countOf(event) {
  if (Array.isArray(event.cards)) return event.cards.length;
  return event.after ?? event.count ?? "";
}

/** Add a logged record's events to the list on the page. */
export function addRecord(list, state, record) {
  const events = record.kind === "undo" ? [{ type: "Undone" }] : (record.events ?? []);
  for (const event of events) {
    const text = describe(state, event);
    if (text) list.prepend(h("li", { "data-event": event.type }, text));
  }
  while (list.children.length > KEEP) list.lastChild.remove();
  list.closest("section").hidden = list.children.length === 0;
}
