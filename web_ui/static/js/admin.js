// Admin: log in with the config's password; then the launcher's status, clear fault, test press.
import { $, ApiError, attempt, get, post, say, showError, t } from "./api.js";
import { startScreenTools } from "./screen.js";

async function refresh() {
  const launcher = await attempt(() => get("/api/launcher"));
  if (!launcher) return;
  $("admin-status").textContent = t(launcher.status);
  $("admin-status").dataset.status = launcher.status;
  $("admin-fault").textContent = launcher.fault ?? "—";
  $("admin-tension").textContent = launcher.tension?.toFixed?.(2) ?? "—";
  $("admin-last").textContent = launcher.last ? JSON.stringify(launcher.last) : "—";
}

async function login(event) {
  event.preventDefault();
  try {
    await post("/api/session/admin", { password: $("admin-password").value });
    location.reload();
  } catch (error) {
    $("admin-password").value = "";
    if (error instanceof ApiError && error.status === 403 && error.message === "wrong password")
      say(t("wrong_password"));
    else showError(error);
  }
}

$("admin-form")?.addEventListener("submit", login);
if ($("admin-refresh")) {
  $("admin-refresh").addEventListener("click", refresh);
  $("admin-clear").addEventListener(
    "click",
    async () => (await attempt(() => post("/api/launcher/clear"))) && refresh(),
  );
  $("admin-press").addEventListener(
    "click",
    async () => (await attempt(() => post("/api/launcher/press"))) && refresh(),
  );
  refresh();
}

startScreenTools();
