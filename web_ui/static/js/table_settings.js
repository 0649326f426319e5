// The table's own settings on the set-up page: a new table PIN (every other tablet must enter
// it again) and the language new tablets start in (POST /api/settings/pin, .../language).
import { $, attempt, clearError, notify, post, t } from "./api.js";

export function startTableSettings() {
  $("change-pin")?.addEventListener("click", async () => {
    clearError();
    const answer = await attempt(() => post("/api/settings/pin", { pin: $("new-pin").value }));
    if (answer) {
      $("new-pin").value = "";
      notify(t("pin_changed"));
    }
  });
  $("set-language")?.addEventListener("click", async () => {
    clearError();
    const language = $("table-language").value;
    if (await attempt(() => post("/api/settings/language", { language }))) notify(t("language_set"));
  });
}
