// A locked tablet's tap on a control opens the PIN box and says why, instead of refusing.
import { page } from "./api.js";

/** Open the PIN box with `reason` above it; true when the tablet was locked. */
export function askForPin(reason) {
  if (page.unlocked) return false;
  const panel = document.getElementById("pin-panel");
  panel.hidden = false;
  panel.querySelector("p").textContent = reason;
  panel.scrollIntoView({ block: "nearest" });
  document.getElementById("pin-input").focus();
  return true;
}
