// The organiser's tournament across the service's tables, on the set-up page: the players
// entered once (POST /api/tournament), then, while it is under way, seating a round again
// where a person replaced it (.../resume) or ending it (.../end).
import { $, at, attempt, clearError, get, notify, post, t } from "./api.js";

export async function startTournamentForm() {
  const section = $("tournament-setup");
  if (!section) return;
  let answer = null;
  try {
    answer = await get("/api/tournament");
  } catch {
    return; // a scoreboard served without the service's tables: no tournament here
  }
  section.hidden = false;
  show(answer.tournament);
  $("tournament-start").addEventListener("click", begin);
  $("tournament-resume").addEventListener("click", async () => {
    const done = await attempt(() => post("/api/tournament/resume"));
    if (done) show(done.tournament);
  });
  $("tournament-end").addEventListener("click", async () => {
    if (await attempt(() => post("/api/tournament/end"))) {
      notify(t("tournament_ended"));
      show(null);
    }
  });
}

function show(tournament) {
  const running = Boolean(tournament && !tournament.over);
  $("tournament-form").hidden = running;
  $("tournament-running").hidden = !running;
  $("tournament-under-way").hidden = !running;
  if (running) {
    $("tournament-under-way").textContent = t("tournament_under_way", {
      kind: t(`tournament_kind_${tournament.kind}`),
      round: Math.min(tournament.round + 1, tournament.rounds),
      rounds: tournament.rounds,
    });
  }
}

async function begin() {
  clearError();
  const players = $("tournament-players")
    .value.split("\n")
    .map((name) => name.trim())
    .filter(Boolean);
  const entered = { kind: $("tournament-kind").value, players, modes: $("tournament-mode").value };
  if (await attempt(() => post("/api/tournament", entered))) {
    notify(t("tournament_started"));
    location.assign(at("/"));
  }
}
