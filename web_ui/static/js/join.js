// Letting a new tablet in without the PIN (docs/API.md, "Who may do what"): a locked tablet
// asks and shows its code; every unlocked tablet lists the tablets asking, and a person who
// sees the same code on the tablet in front of them lets it in. Guessing devices cannot keep
// a person at the table out this way, and nobody gets in without a person letting them.
import { $, attempt, clearError, get, h, notify, page, post, say, t } from "./api.js";

const LOOK_MS = 2000; // how often the asking tablet looks whether it was let in
const REFRESH_MS = 5000; // how often an unlocked tablet refreshes a list that shows requests
const SHOWN = 4; // requests listed; past that (a flood), the code is typed in

/** "482913" → "482 913": easier to compare at a glance. */
const spaced = (code) => `${code.slice(0, 3)} ${code.slice(3)}`;

// --- the tablet that asks

let looking = null;

function showWaiting(code) {
  $("pin-panel").hidden = false;
  $("join-ask").hidden = true;
  $("join-waiting").hidden = false;
  $("join-code").textContent = spaced(code);
  clearTimeout(looking);
  looking = setTimeout(look, LOOK_MS);
}

function stopWaiting() {
  clearTimeout(looking);
  $("join-ask").hidden = false;
  $("join-waiting").hidden = true;
}

/** Was this tablet let in? `quiet`: on load, when it may never have asked. */
async function look(quiet = false) {
  let answer;
  try {
    answer = await get("/api/join");
  } catch {
    if (!quiet) looking = setTimeout(look, LOOK_MS); // a network blip: look again
    return;
  }
  if (answer.status === "approved") location.reload();
  else if (answer.status === "waiting") showWaiting(answer.code);
  else if (!quiet) {
    stopWaiting();
    say(t("join_expired"));
  }
}

async function ask() {
  const answer = await attempt(() => post("/api/join"));
  if (!answer) return;
  clearError({ sticky: true }); // a refused PIN no longer matters
  showWaiting(answer.code);
}

async function cancel() {
  stopWaiting();
  await attempt(() => post("/api/join/cancel"));
}

// --- the unlocked tablets

let loading = false;
let again = false;
let refreshing = null;

/** Fetch the tablets asking and show them (at once after a `join_*` notice). */
export async function refreshRequests() {
  if (!page.unlocked || !$("join-panel")) return;
  if (loading) {
    again = true; // one more fetch once this one is back: it may predate the news
    return;
  }
  loading = true;
  try {
    render((await get("/api/join/pending")).requests);
  } catch {
    // a network blip: the next notice or refresh shows it
  } finally {
    loading = false;
    if (again) {
      again = false;
      refreshRequests();
    }
  }
}

function render(requests) {
  clearTimeout(refreshing);
  if (requests.length) refreshing = setTimeout(refreshRequests, REFRESH_MS); // expiries
  $("join-panel").hidden = requests.length === 0;
  const newest = requests.slice(-SHOWN).reverse();
  $("join-list").replaceChildren(...newest.map(item));
  $("join-type").hidden = requests.length <= SHOWN;
}

function item(request) {
  return h(
    "li",
    { class: "join-request", "data-code": request.code },
    h("output", { class: "join-code" }, spaced(request.code)),
    h("button", { type: "button", class: "primary", onclick: () => letIn(request.code) }, t("join_let_in")),
    page.admin
      ? h("button", { type: "button", class: "join-admin", onclick: () => letIn(request.code, true) }, t("join_let_in_admin"))
      : null,
    h("button", { type: "button", class: "join-refuse", onclick: () => refuse(request.code) }, t("join_refuse")),
  );
}

async function letIn(code, admin = false) {
  if (await attempt(() => post("/api/join/approve", { code, admin }))) notify(t("join_done"));
  refreshRequests();
}

async function refuse(code) {
  await attempt(() => post("/api/join/refuse", { code }));
  refreshRequests();
}

/** Every page: the asking side for a locked tablet, the list for an unlocked one. */
export function startJoin() {
  if (page.unlocked) {
    $("join-type")?.addEventListener("submit", (event) => {
      event.preventDefault();
      letIn($("join-typed").value.replace(/\s/g, ""));
      $("join-typed").value = "";
    });
    refreshRequests();
  }
  if (!$("join-box")) return;
  $("join-ask").addEventListener("click", ask);
  $("join-cancel").addEventListener("click", cancel);
  if (!page.unlocked) look(true); // asked before a reload: go on waiting
}
