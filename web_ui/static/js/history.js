// History across matches (GET /api/matches): the leaderboard, then every match, newest
// first, with its chart, its final totals and a CSV export. A match is over (its winners), in
// progress (the table's current match) or abandoned (a new set-up replaced it unfinished).
import { $, at, get, h, page, t } from "./api.js";
import { renderChart } from "./chart.js";

function leaderRow(row) {
  return h(
    "tr",
    { "data-player": row.name },
    h("td", {}, row.name),
    h("td", {}, row.played),
    h("td", {}, row.wins),
    h("td", {}, row.average),
    h("td", {}, row.comeback ? `${row.comeback}` : "—"),
  );
}

/** When a match started, in the page's language: "Jan 12, 2026, 11:28 AM" / "2026年1月12日 11:28". */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(page.language, { dateStyle: "medium", timeStyle: "short" });
}

function outcome(match, winners) {
  if (match.over) return t("winners", { names: winners });
  return t(match.status === "abandoned" ? "abandoned" : "in_progress");
}

function matchCard(match) {
  const chart = h("div", { class: "chart" });
  const state = { setup: { players: match.players }, deals: match.deals, totals: match.totals, target: match.target };
  renderChart(chart, state);
  const winners = match.winners.map((p) => match.players[p]).join(" & ");
  return h(
    "section",
    { class: "panel past-match", "data-match": match.number },
    h("h2", {}, t("match_n", { n: match.number }), " · ", when(match.started)),
    h("p", { class: `winner-line ${match.status}` }, outcome(match, winners)),
    h("p", {}, match.players.map((name, p) => `${name} ${match.totals[p]}`).join(" · ")),
    chart,
    h("a", { class: "button", href: at(`/api/matches/${match.number}.csv`), download: "" }, t("export_csv")),
  );
}

async function start() {
  const answer = await get("/api/matches");
  $("leaderboard").replaceChildren(...answer.leaderboard.map(leaderRow));
  const played = answer.matches.filter((m) => m.deals.length);
  $("matches").replaceChildren(...(played.length ? played.map(matchCard) : [h("p", { class: "muted" }, t("no_rounds"))]));
  document.body.dataset.history = "ready";
}

start();
