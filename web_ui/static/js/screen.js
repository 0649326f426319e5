// A scoreboard propped up on a tablet: the table's address as a QR code for phones, full
// screen, and a screen that stays on (the Screen Wake Lock API, which browsers only allow on
// secure pages: the button says so where it cannot work).
import { get, t } from "./api.js";

const $ = (id) => document.getElementById(id);
let lock = null;

async function showAddress() {
  try {
    $("table-url").textContent = (await get("/api/table-url")).url;
  } catch {
    // the QR code still shows it
  }
}

function fullScreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen?.();
}

async function keepAwake() {
  const button = $("wake");
  const note = $("wake-note");
  if (lock) {
    await lock.release();
    return;
  }
  if (!("wakeLock" in navigator)) {
    note.hidden = false;
    note.textContent = t("wake_unavailable");
    return;
  }
  try {
    lock = await navigator.wakeLock.request("screen");
    button.setAttribute("aria-pressed", "true");
    note.hidden = true;
    lock.addEventListener("release", () => {
      lock = null;
      button.setAttribute("aria-pressed", "false");
    });
  } catch (error) {
    note.hidden = false;
    note.textContent = `${t("wake_unavailable")} (${error.message})`;
  }
}

export function startScreenTools() {
  if (!$("phone-panel")) return;
  showAddress();
  $("fullscreen").addEventListener("click", fullScreen);
  $("wake").addEventListener("click", keepAwake);
  // a wake lock ends when the page is hidden: take it again when the tablet comes back
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && $("wake").dataset.wanted === "true" && !lock) keepAwake();
  });
  $("wake").addEventListener("click", () => ($("wake").dataset.wanted = String(!lock)));
}
