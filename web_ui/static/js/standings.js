// What the match format adds to the scoreboard (state.house, state.standings, state.deals):
// the house rules in force, team standings, the rotation's schedule and next pairing, and the
// finishing order of the last within-deal elimination.
import { $, h, page, t } from "./api.js";
import { lowerIsBetter, nameOf, totalText } from "./view.js";

/** A `data-panel` module (board.js): the match format's teams, rotation and finishing order. */
export function render(state, section) {
  const parts = state.setup ? [teams(state), rotation(state), finishingOrder(state)] : [];
  section.hidden = !parts.some(Boolean);
  $("format-view").replaceChildren(...parts.filter(Boolean));
  renderHouse(state);
}

/** One line under the turn: the format (if not the standard one) and the house rules on. */
function renderHouse(state) {
  const house = state.house;
  const words = [];
  if (house && house.format !== "standard") words.push(t(`format_${house.format}`));
  if (house?.stacking) words.push(t("house_stacking"));
  if (house?.jumpin) words.push(t(`house_jumpin_${house.jumpin}`));
  if (house?.multi) words.push(t(`house_multi_${house.multi}`));
  $("house").hidden = words.length === 0;
  $("house").textContent = words.join(" · ");
}

// ---------------------------------------------------------------- team play (§9.5)

/** Each team's members and total, best first; seat s plays for team s mod teams. */
function teams(state) {
  const count = state.standings?.teams;
  if (!count) return null;
  const totals = state.standings.team_totals ?? [];
  const sign = lowerIsBetter(state) ? 1 : -1;
  const order = totals.map((total, team) => ({ total, team })).sort((a, b) => sign * (a.total - b.total));
  const members = (team) => state.setup.players.filter((_, player) => player % count === team);
  const rows = order.map(({ total, team }) =>
    h(
      "tr",
      { "data-team": team },
      h("td", {}, h("span", { class: `badge team team-${team}` }, t("team_n", { n: team + 1 }))),
      h("td", { class: "members" }, members(team).join(" · ")),
      h("td", { class: "total" }, totalText(state, total)),
    ),
  );
  return h(
    "div",
    { id: "teams", class: "teams" },
    h(
      "h3",
      {},
      t("teams"),
      lowerIsBetter(state) ? h("small", { class: "muted" }, ` · ${t("lower_better")}`) : "",
    ),
    h("table", { class: "players team-table" }, h("tbody", {}, rows)),
  );
}

// ---------------------------------------------------------------- rotation (§9.6)

/** Progress through the cycle, the next pairing, and the whole schedule with where we are. */
function rotation(state) {
  const standings = state.standings;
  if (!standings?.deals_per_cycle || state.tournament) return null; // a tournament's round: its own panel
  const cycle = page.schedules?.cycles?.[String(state.setup.players.length)] ?? [];
  const perBlock = page.schedules?.deals_per_block ?? 4;
  const next = standings.next;
  const done = next ? Math.floor((standings.played % standings.deals_per_cycle) / perBlock) : cycle.length;
  const progress = t("rotation_progress", { played: standings.played, total: standings.deals_per_cycle });
  return h(
    "div",
    { id: "rotation", class: "rotation" },
    h("h3", {}, `${t("rotation")} · ${progress}`),
    next ? nextPairing(state, next) : null,
    h("h4", {}, t("schedule")),
    h(
      "ol",
      { class: "schedule" },
      cycle.map((block, i) => scheduleRow(state, block, i < done ? "played" : i === done ? "now" : "")),
    ),
  );
}

function pairing(state, seating) {
  const name = (player) => nameOf(state, player);
  return t("vs", {
    a: t("partners", { a: name(seating[0]), b: name(seating[2]) }),
    b: t("partners", { a: name(seating[1]), b: name(seating[3]) }),
  });
}

function nextPairing(state, next) {
  return h(
    "div",
    { id: "next-pairing", class: "next-pairing" },
    h("div", { class: "label" }, t("next_pairing", { round: next.round + 1, table: next.table + 1 })),
    h("div", { class: "pairing" }, pairing(state, next.seating)),
  );
}

/** One block of the schedule: "Round 2, table 1: Ann & Cy vs Bob & Di", played or now. */
function scheduleRow(state, block, status) {
  const mark = { played: t("played_mark"), now: t("playing_mark") }[status];
  return h(
    "li",
    { class: status, "data-round": block.round, "data-table": block.table },
    `${t("round_n", { n: block.round + 1 })}, ${t("table_n", { n: block.table + 1 })}: `,
    pairing(state, block.seating),
    mark ? h("span", { class: "badge mark" }, mark) : null,
  );
}

// ---------------------------------------------------------------- within-deal elimination (§9.3)

/** The last deal's finishing order (seats mapped to players) and who held the last cards. */
function finishingOrder(state) {
  const last = state.deals?.at(-1);
  if (state.house?.format !== "elim_within_deal" || !last?.order?.length) return null;
  const player = (seat) => nameOf(state, last.seating?.[seat] ?? seat);
  return h(
    "div",
    { id: "finishing", class: "finishing" },
    h("h3", {}, `${t("finish_order")} · ${t("round")} ${last.number}`),
    h("ol", {}, last.order.map((seat) => h("li", { "data-seat": seat }, player(seat)))),
    last.loser === null || last.loser === undefined
      ? null
      : h("p", { class: "loser" }, t("last_holder", { name: player(last.loser) })),
  );
}
