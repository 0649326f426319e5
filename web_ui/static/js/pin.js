// The PIN box: a locked tablet's tap on a control opens it and says why, instead of refusing;
// a refused PIN is said until the person types again or closes the box.
import { $, clearError, page, say } from "./api.js";

/** Open the PIN box with `reason` above it; true when the tablet was locked. */
export function askForPin(reason) {
  if (page.unlocked) return false;
  const panel = $("pin-panel");
  panel.hidden = false;
  panel.querySelector("p").textContent = reason;
  panel.scrollIntoView({ block: "nearest" });
  $("pin-input").focus();
  return true;
}

let forget = null; // takes the last refusal away

/** Say why the PIN was refused (wrong, too many tries), in the message bar under the box, and
 * keep it there while the scoreboard refreshes (a demo's bots play on) until the person types
 * in the PIN field again or closes the box. */
export function pinRefused(text) {
  forget?.();
  say(text, { sticky: true });
  const input = $("pin-input");
  const panel = $("pin-panel");
  const closed = new MutationObserver(() => panel.hidden && forget?.());
  const typed = () => forget?.();
  forget = () => {
    forget = null;
    input.removeEventListener("input", typed);
    closed.disconnect();
    if ($("message").dataset.sticky) clearError({ sticky: true });
  };
  input.addEventListener("input", typed);
  closed.observe(panel, { attributes: true, attributeFilter: ["hidden"] });
}
