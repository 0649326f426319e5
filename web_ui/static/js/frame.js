// What every page has: the language switch, lock / unlock and the PIN form.
import { $, ApiError, attempt, post, showError, t } from "./api.js";
import { startJoin } from "./join.js";
import { pinRefused } from "./pin.js";

function on(id, event, handler) {
  const el = $(id);
  if (el) el.addEventListener(event, handler);
}

on("language", "click", async (event) => {
  const language = event.currentTarget.dataset.language;
  if (await attempt(() => post("/api/session/language", { language }))) location.reload();
});

on("lock", "click", async () => {
  if (await attempt(() => post("/session/lock"))) location.reload();
});

on("unlock", "click", () => {
  const panel = $("pin-panel");
  panel.hidden = !panel.hidden;
  if (!panel.hidden) $("pin-input").focus();
});

on("pin-form", "submit", async (event) => {
  event.preventDefault();
  const input = $("pin-input");
  try {
    await post("/api/session/pin", { pin: input.value });
    location.reload();
  } catch (error) {
    input.value = "";
    input.focus();
    if (error instanceof ApiError && error.status === 403) pinRefused(t("wrong_pin"));
    else if (error instanceof ApiError && error.status === 429) pinRefused(`${t("too_many")} (${error.message})`);
    else showError(error);
  }
});

startJoin(); // no PIN: an unlocked tablet lets this one in (or this one lets others in)

// Tests (and anything else) can wait for this: the page's controls answer taps from now on.
document.documentElement.dataset.ready = "true";
