// "What happened": the last few logged events in words, newest first. A freshly opened
// scoreboard fills it from GET /api/history; then the stream's records follow (each once).
import { cardName, colourName, get, h, page, t } from "./api.js";
import { playerName } from "./view.js";

const KEEP = 12;
const seen = new Set(); // the records already in the list (history and stream may overlap)

/** Fill the list with the current match's latest records (newest last in the answer). */
export async function loadHistory(list, state) {
  try {
    const answer = await get(`/api/history?limit=20`);
    answer.records.forEach((record) => addRecord(list, state, record));
  } catch {
    // the stream still brings what happens next
  }
}

/** One event as a sentence, or null for the ones not worth a line. */
export function describe(state, event) {
  if (event.type === "Undone") return t("ev_Undone", { what: undoneText(state, event.undone) });
  const key = `ev_${event.type}`;
  if (!(key in page.words)) return null;
  const params = {
    name: event.seat === undefined ? "" : playerName(state, event.seat),
    target: event.target === undefined ? "" : playerName(state, event.target),
    card: event.card ? playedCards(event) : "",
    colour: event.colour ? colourName(event.colour) : "",
    count: countOf(event),
    why: event.why ? t(`why_${event.why}`) : "",
    number: event.number ?? "",
    names: Array.isArray(event.players) ? event.players.join(", ") : "",
  };
  if (event.type === "DealStarted") params.name = playerName(state, event.dealer);
  if (event.type === "Owes") params.count = event.presses;
  if (event.type === "HandShown") return handShown(state, event, params);
  if (event.type === "Challenged") return challenged(state, event, params);
  return t(key, params);
}

/** §3.2: the challenge of a Wild Draw Four and its verdict (the hand was shown just before). */
function challenged(state, event, params) {
  params.target = playerName(state, event.offender);
  return t(event.guilty ? "ev_Challenged_guilty" : "ev_Challenged_innocent", params);
}

/** §3.2 step 2: a challenged Wild Draw Four's player shows the challenger their hand, before
 * the verdict, guilty or not (at a table the cards are unseen: only the showing is told). */
function handShown(state, event, params) {
  const known = event.cards.filter((card) => card !== "?");
  params.target = playerName(state, event.to);
  params.hand = known.map(cardName).join(", ");
  return t(known.length ? "ev_HandShown" : "ev_HandShown_unseen", params);
}

/** What an undo took back, in words: "Ann played Red 7", "the round Bob won". */
export function undoneText(state, command) {
  const action = command?.action;
  if (command?.type === "round") return t("undone_round", { name: playerName(state, command.winner) });
  if (!action) return t(command?.type ?? "undo");
  const name = action.seat === undefined ? "" : playerName(state, action.seat);
  const card = action.card ? cardName(action.card) : "";
  if (action.type === "Play") return t("ev_Played", { name, card });
  if (action.type === "TurnUp") return t("ev_TurnedUp", { card });
  if (action.type === "EnterHand") return t("undone_hand", { name, points: action.points ?? "" });
  const word = action.type.replace(/[A-Z]/g, (c, i) => (i ? "_" : "") + c.toLowerCase());
  return `${name}: ${word in page.words ? t(word) : action.type}`;
}

/** "Green 7", or "Green 7 with Red 7, Blue 7" for several cards in one play. */
function playedCards(event) {
  const card = cardName(event.card);
  if (!event.group?.length) return card;
  return t("card_group", { card, cards: event.group.map(cardName).join(", ") });
}

function countOf(event) {
  if (Array.isArray(event.cards)) return event.cards.length;
  return event.after ?? event.count ?? "";
}

/** Add a logged record's events to the list on the page (once per record). Names follow the
 * seating of the deal the record belongs to (it changes between deals in a rotation). */
export function addRecord(list, state, record) {
  if (record.seq !== undefined) {
    if (seen.has(record.seq)) return;
    seen.add(record.seq);
  }
  const events = record.events ?? [];
  const scored = events.find((event) => event.type === "DealScored" && event.seating?.length);
  const names = scored ? { ...state, seating: scored.seating } : state;
  const hitFire = events.some((event) => event.type === "Played" && event.card === "WHF");
  for (const event of events) {
    // Hit-Fire: the next player presses first and only then loses the turn (RULES.md §4.2)
    const text =
      hitFire && event.type === "Skipped"
        ? t("ev_hit_fire_next", { name: playerName(names, event.seat) })
        : describe(names, event);
    if (text) list.prepend(h("li", { "data-event": event.type }, text));
  }
  while (list.children.length > KEEP) list.lastChild.remove();
  list.closest("section").hidden = list.children.length === 0;
}
