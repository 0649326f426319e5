// The demo's panel: a big button that presses the simulated launcher, "take this seat" /
// "give back" so a visitor can play a seat instead of a bot, and "Let the bots play" / "Play it
// yourselves", which hands the table to the bots or takes it back. Whether the bots play the
// table comes from the server (GET /api/demo, then every `demo` event on the stream): a table a
// person set up is theirs, with every control a table without the demo has.
import { $, attempt, get, h, page, post, t } from "./api.js";
import { askForPin } from "./pin.js";
import { playerName, reloadPending } from "./view.js";

export const humans = new Set();
export const demoState = { playing: false, table: false }; // the bots play the match on the table
let onChange = () => {};
let heard = 0; // demo views taken so far: a reply is older than any view taken after its request

/** Whether the bots play this table (then only the seats people took are this tablet's). */
export const botsPlay = () => page.demo && demoState.playing;

export function startDemo(changed) {
  if (!page.demo) return;
  onChange = changed;
  $("virtual-panel").hidden = false;
  $("virtual-press").addEventListener("click", () => {
    if (!askForPin(t("pin_to_press"))) attempt(() => post("/api/launcher/press"));
  });
  $("bots-play").addEventListener("click", () => handOver("/api/demo/bots"));
  $("bots-leave").addEventListener("click", () => handOver("/api/demo/mine"));
  refreshHumans();
}

/** Take the demo's view: from GET /api/demo, a seat or hand-over answer, or a `demo` event. */
export function applyDemo(view) {
  if (!page.demo || !view) return;
  heard += 1;
  humans.clear();
  (view.humans ?? []).forEach((seat) => humans.add(seat));
  demoState.playing = Boolean(view.playing);
  demoState.table = Boolean(view.table);
  onChange();
}

export function refreshHumans() {
  return page.demo ? applyReply(() => get("/api/demo")) : Promise.resolve();
}

function demoCommand(url, body = {}) {
  return applyReply(() => post(url, body));
}

/** Take the view a request answers, unless a view came since it was asked: the stream's `demo`
 * events come in order, but a reply may overtake them, or another reply, on a loaded table. */
async function applyReply(request) {
  const asked = heard;
  const view = await attempt(request);
  if (heard === asked) applyDemo(view);
}

function handOver(url) {
  if (!askForPin(t("pin_to_hand_over"))) demoCommand(url);
}

/** One button per player: take the seat from the bot, or give it back. */
export function renderSeats(state) {
  if (!page.demo) return;
  const players = state.setup?.players ?? [];
  const buttons = players.map((_, seat) => {
    const mine = humans.has(seat);
    const label = t(mine ? "give_back" : "take_seat", { name: playerName(state, seat) });
    const url = mine ? "/api/demo/leave" : "/api/demo/seat";
    return h(
      "button",
      {
        type: "button",
        class: mine ? "seat mine" : "seat",
        "data-seat": seat,
        onclick: () => askForPin(t("pin_to_sit")) || demoCommand(url, { seat }),
      },
      label,
    );
  });
  const seats = $("seats");
  seats.replaceChildren(...buttons);
  seats.hidden = !demoState.playing; // a table people set up has no bots to take seats from
  $("bots-play").hidden = demoState.playing;
  $("bots-leave").hidden = !demoState.playing || !demoState.table;
  $("bots-hint").textContent = t(demoState.playing ? "bots_playing" : "bots_idle");
}

/** The virtual launcher's button: only where a press can mean something (a tracked UNO Attack
 * table), and waiting, disabled and saying why, while the launcher waits for its reload. */
export function renderVirtualPress(state) {
  if (!page.demo) return;
  const launcherGame = !state.setup || (state.setup.mode === "tracked" && state.setup.game === "attack");
  const waiting = reloadPending(state);
  const press = $("virtual-press");
  press.disabled = waiting;
  // one press button: the controls' own, when this tablet's controls offer it
  press.hidden = !launcherGame || Boolean(document.querySelector("#controls:not([hidden]) #press"));
  $("virtual-press-wait").hidden = !waiting || press.hidden;
}
