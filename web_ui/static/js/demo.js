// The demo's virtual launcher: a big button that presses the simulated launcher, and
// "take this seat" / "give back" so a visitor can play a seat instead of a bot.
import { attempt, get, h, page, post, t } from "./api.js";
import { askForPin } from "./pin.js";
import { playerName, reloadPending } from "./view.js";

export const humans = new Set();
export const demoState = { playing: false }; // whether the bots play the match on the table
let onChange = () => {};

export function startDemo(changed) {
  if (!page.demo) return;
  onChange = changed;
  document.getElementById("virtual-panel").hidden = false;
  document
    .getElementById("virtual-press")
    .addEventListener("click", () => {
      if (!askForPin(t("pin_to_press"))) attempt(() => post("/api/launcher/press"));
    });
  refreshHumans();
}

export async function refreshHumans() {
  if (!page.demo) return;
  const answer = await attempt(() => get("/api/demo"));
  if (!answer) return;
  humans.clear();
  answer.humans.forEach((seat) => humans.add(seat));
  demoState.playing = Boolean(answer.playing);
  onChange();
}

async function seatCommand(url, seat) {
  const answer = await attempt(() => post(url, { seat }));
  if (!answer) return;
  humans.clear();
  answer.humans.forEach((s) => humans.add(s));
  onChange();
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
        onclick: () => askForPin(t("pin_to_sit")) || seatCommand(url, seat),
      },
      label,
    );
  });
  const seats = document.getElementById("seats");
  seats.replaceChildren(...buttons);
  seats.hidden = !demoState.playing; // a table people set up has no bots to take seats from
}

/** The virtual launcher's button waits, disabled and saying why, while the launcher waits for
 * its reload. */
export function renderVirtualPress(state) {
  if (!page.demo) return;
  const waiting = reloadPending(state);
  document.getElementById("virtual-press").disabled = waiting;
  document.getElementById("virtual-press-wait").hidden = !waiting;
}
