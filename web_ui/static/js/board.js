// The scoreboard: draws the state, keeps it live over Server-Sent Events (/api/events?last=:
// the records after the state shown, then a snapshot; the browser resumes with Last-Event-ID),
// and hosts the controls.
import { $, at, attempt, notify, page, post, t } from "./api.js";
import { renderChart } from "./chart.js";
import { askForPin } from "./pin.js";
import { startScreenTools } from "./screen.js";
import { play, soundOn, startSuspense, stopSuspense, toggleSound } from "./sound.js";
import { renderControls } from "./controls.js";
import { applyDemo, botsPlay, demoState, humans, renderSeats, renderVirtualPress, refreshHumans, startDemo } from "./demo.js";
import { addRecord, loadHistory } from "./feed.js";
import { refreshRequests } from "./join.js";
import {
  flyOut,
  renderAlerts,
  renderGame,
  renderHistory,
  renderLauncher,
  renderMatchEnd,
  renderPlayers,
  reloadPending,
} from "./view.js";

let state = page.state;

/* The panels that draw themselves: each `<section data-panel="name">` in the template has its
 * module, static/js/<name>.js, exporting `render(state, section)`. A new panel needs its markup
 * and its module; this file stays as it is. */
const panels = await Promise.all(
  [...document.querySelectorAll("[data-panel]")].map(async (section) => {
    const panel = await import(`./${section.dataset.panel}.js`);
    return (now) => panel.render(now, section);
  }),
);

/** Take a newer state (from the stream or a command's answer) and redraw. */
function accept(next, authoritative = false) {
  if (!next || (!authoritative && (next.seq ?? 0) < (state.seq ?? 0))) return;
  sounds(state, next);
  state = next;
  render();
}

/** The sounds a change of state calls for: a new "UNO!" and the end of a match. */
function sounds(before, after) {
  const uno = after.deal?.uno ?? [];
  if (uno.some((seat) => !(before.deal?.uno ?? []).includes(seat))) play("uno");
  if (after.match_over && !before.match_over && before.setup) play("winner");
}

function renderSound() {
  const button = $("sound");
  button.setAttribute("aria-pressed", String(soundOn()));
  button.textContent = t(soundOn() ? "sound_on" : "sound_off");
}

/** The sound switch sits with the launcher; a score-only table hides the launcher panel but
 * still plays the winner's fanfare, so there the switch joins this tablet's screen tools. */
function placeSound() {
  const sound = $("sound-switch");
  if (state.setup?.mode === "score_only") {
    if (sound.parentElement !== $("tablet-tools")) $("tablet-tools").append(sound);
  } else if (sound.parentElement !== $("launcher-panel")) {
    $("launcher-panel").insertBefore(sound, $("launcher-fault"));
  }
}

function render() {
  renderMatchEnd(state, demoState.playing);
  renderGame(state);
  renderAlerts(state);
  renderPlayers(state);
  for (const panel of panels) panel(state);
  renderLauncher(state);
  placeSound();
  renderChart($("chart"), state);
  renderHistory(state);
  renderSeats(state);
  renderOwnControls();
  renderVirtualPress(state);
}

function renderOwnControls() {
  if (!page.unlocked) return;
  const controls = $("controls");
  renderControls(controls, state, {
    bots: botsPlay(), // the bots play this table: they deal, and only taken seats are ours
    mine: (seat) => !botsPlay() || humans.has(seat),
    accept,
    rerender: renderOwnControls,
  });
  // no empty frame when nothing is to tap (the bots' turn, a seat that is not ours)
  controls.hidden = !controls.querySelector("button, input, select") && !controls.textContent.trim();
  controls.dataset.seq = String(state.seq ?? 0); // the state these controls were drawn for
}

function live(connected) {
  const badge = $("live");
  badge.hidden = false;
  badge.dataset.state = connected ? "live" : "offline";
  badge.textContent = connected ? `● ${t("live")}` : t("offline");
}

function noticeText(notice) {
  const key = `notice_${notice.code}`;
  return key in page.words ? t(key, notice) : notice.text;
}

/** A notice: shown briefly; someone guessing the PIN only to the unlocked tablets; a tablet
 * asking to join (or let in) refreshes their list of tablets asking. */
function onNotice(notice) {
  if (notice.code?.startsWith("join_")) refreshRequests();
  else if (notice.code !== "guessing" || page.unlocked) notify(noticeText(notice));
}

/** Listen to the table; if the stream closes for good, open a new one a little later. Each
 * stream starts after the state shown (`?last=`): the records logged since the page was drawn
 * (or the last stream closed) come first, for the feed and the eject. */
function connect() {
  const source = new EventSource(at(`/api/events?last=${state.seq ?? 0}`));
  source.addEventListener("open", () => live(true));
  source.addEventListener("snapshot", (e) => {
    live(true);
    accept(JSON.parse(e.data), true);
    refreshHumans(); // a reconnect may have missed a demo event
    refreshRequests(); // ...or a tablet asking to join
  });
  source.addEventListener("record", (e) => {
    const record = JSON.parse(e.data);
    addRecord($("feed"), record.state ?? state, record);
    const out = (record.events ?? []).filter((e) => e.type === "Pressed" && e.cards?.length);
    out.forEach((e) => flyOut(e.cards.length));
    if (out.length) play("eject");
    if (record.state) accept(record.state);
  });
  source.addEventListener("demo", (e) => applyDemo(JSON.parse(e.data)));
  source.addEventListener("tournament", (e) => {
    state = { ...state, tournament: JSON.parse(e.data).tournament };
    render();
  });
  source.addEventListener("launcher", (e) => {
    const waited = reloadPending(state);
    state = { ...state, launcher: JSON.parse(e.data) };
    renderLauncher(state);
    if (reloadPending(state) !== waited) {
      renderVirtualPress(state); // the presses wait for the reload, or may go on again
      renderOwnControls();
    }
    if (state.launcher.status === "suspense") startSuspense(state.launcher.tension ?? 0);
    else stopSuspense();
  });
  source.addEventListener("notice", (e) => onNotice(JSON.parse(e.data)));
  source.addEventListener("error", () => {
    live(false);
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      setTimeout(connect, 3000);
    }
  });
}

$("sound").addEventListener("click", () => (toggleSound(), renderSound()));
renderSound();
startScreenTools();
$("clear-fault")?.addEventListener("click", () => attempt(() => post("/api/launcher/clear")));
$("reloaded").addEventListener("click", async () => {
  if (askForPin(t("reload_unlock"))) return;
  const answer = await attempt(() => post("/api/launcher/reload"));
  if (answer?.state) accept(answer.state);
});
startDemo(render);
render();
loadHistory($("feed"), state).then(connect);
