// The read-only parts of the scoreboard, drawn from the state (docs/API.md, "The state").
import { h, t } from "./api.js";
import { cardChip, colourChip } from "./cards.js";

const $ = (id) => document.getElementById(id);

export function playerName(state, seat) {
  return state.setup?.players?.[seat] ?? `#${seat + 1}`;
}

/** Whose turn, the phase, the direction, the top card and the active colour. */
export function renderGame(state) {
  const hasMatch = Boolean(state.setup);
  $("empty-panel").hidden = hasMatch;
  $("game-panel").hidden = !hasMatch;
  if (!hasMatch) return;
  const deal = state.deal;
  $("turn-name").textContent = turnText(state);
  $("phase").textContent = phaseText(state);
  $("direction").textContent = deal ? t(deal.direction > 0 ? "clockwise" : "anticlockwise") : "—";
  $("top-card").replaceChildren(deal?.top ? cardChip(deal.top) : "—");
  $("active-colour").replaceChildren(deal?.colour ? colourChip(deal.colour) : "—");
}

function turnText(state) {
  const deal = state.deal;
  if (state.match_over)
    return t("winners", { names: state.winners.map((s) => playerName(state, s)).join(", ") });
  if (!deal) return t("waiting_deal");
  const seat = deal.to_move ?? deal.turn;
  if (seat !== null && seat !== undefined) return playerName(state, seat);
  if (deal.winner !== null && deal.winner !== undefined)
    return t("went_out", { name: playerName(state, deal.winner) });
  return "—";
}

function phaseText(state) {
  const deal = state.deal;
  if (state.match_over) return t("match_over");
  if (!deal) return state.deals.length ? t("next_deal", { name: playerName(state, state.next_dealer) }) : "";
  if (deal.phase === "turn_up") return t("phase_turn_up");
  if (deal.phase === "scoring") return t("phase_scoring");
  return `${t("dealer")}: ${playerName(state, deal.dealer)}`;
}

/** The players at one card who did not call UNO and may be caught (one seat or a list). */
export function exposedSeats(deal) {
  const exposed = deal?.exposed;
  if (Array.isArray(exposed)) return exposed;
  return exposed === null || exposed === undefined ? [] : [exposed];
}

/** The missed-UNO alert and the presses (or choices) owed. */
export function renderAlerts(state) {
  const deal = state.deal;
  const exposed = exposedSeats(deal);
  const duties = deal?.duties ?? [];
  $("alerts").hidden = exposed.length === 0 && duties.length === 0;
  $("exposed").hidden = exposed.length === 0;
  $("exposed").replaceChildren(
    ...exposed.map((seat) =>
      h("div", { "data-seat": seat }, t("exposed", { name: playerName(state, seat) })),
    ),
  );
  $("duties").replaceChildren(
    ...duties.map((duty) => h("li", { class: "duty", "data-seat": duty.seat }, dutyText(state, duty))),
  );
}

export function dutyText(state, duty) {
  const why = t(`why_${duty.why}`);
  return t(`duty_${duty.kind}`, { name: playerName(state, duty.seat), count: duty.count, why });
}

/** Hand counts with UNO alerts, totals, who deals and who moves. */
export function renderPlayers(state) {
  const players = state.setup?.players ?? [];
  $("target").textContent = state.target ? `· ${t("target", { points: state.target })}` : "";
  $("players").replaceChildren(...players.map((name, seat) => playerRow(state, name, seat)));
  renderStandings(state);
}

function playerRow(state, name, seat) {
  const deal = state.deal;
  const moving = deal && (deal.to_move ?? deal.turn) === seat;
  const count = deal ? deal.hands[seat] : "";
  const badges = [];
  if (exposedSeats(deal).includes(seat)) badges.push(h("span", { class: "badge alert" }, `${t("uno")}?`));
  else if (deal?.uno.includes(seat)) badges.push(h("span", { class: "badge uno" }, t("uno")));
  if (deal?.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("dealer") }, "D"));
  return h(
    "tr",
    { "data-seat": seat, class: moving ? "moving" : "" },
    h("td", { class: "marker", "aria-hidden": "true" }, moving ? "▶" : ""),
    h("td", { class: "name" }, name, " ", badges),
    h("td", { class: "count", "data-count": count }, count),
    h("td", { class: "total" }, state.totals[seat] ?? 0),
  );
}

function renderStandings(state) {
  const box = $("standings");
  const show = Boolean(state.setup) && !state.deal && state.deals.length > 0;
  box.hidden = !show;
  if (!show) return;
  const order = state.totals.map((total, seat) => ({ total, seat })).sort((a, b) => b.total - a.total);
  const title = state.match_over
    ? t("winners", { names: state.winners.map((s) => playerName(state, s)).join(", ") })
    : t("standings");
  box.replaceChildren(
    h("h3", {}, title),
    h(
      "ol",
      {},
      order.map(({ total, seat }) => h("li", { "data-seat": seat }, `${playerName(state, seat)}: ${total}`)),
    ),
  );
}

/** Launcher status in words (and its colour), the fault, and "clear fault" when unlocked. */
export function renderLauncher(launcher) {
  const status = launcher?.status ?? "none";
  const box = $("launcher-status");
  box.dataset.status = status;
  box.textContent = t(status);
  $("launcher-fault").textContent = launcher?.fault ?? "";
  const clear = $("clear-fault");
  if (clear) clear.hidden = !["jam", "empty", "fault"].includes(status);
}

/** One row per scored deal: dealer, winner and each player's change. */
export function renderHistory(state) {
  const deals = state.deals ?? [];
  const players = state.setup?.players ?? [];
  if (!deals.length) {
    $("history").replaceChildren(h("p", { class: "muted" }, t("no_rounds")));
    return;
  }
  const head = h(
    "tr",
    {},
    h("th", {}, t("round")),
    players.map((name) => h("th", {}, name)),
  );
  const rows = deals
    .slice()
    .reverse()
    .map((d) =>
      h(
        "tr",
        {},
        h("td", {}, d.number),
        d.deltas.map((delta, seat) => historyCell(d, delta, seat)),
      ),
    );
  $("history").replaceChildren(h("table", { class: "rounds" }, h("thead", {}, head), h("tbody", {}, rows)));
}

function historyCell(deal, delta, seat) {
  const won = deal.winner === seat;
  const text = delta > 0 ? `+${delta}` : String(delta);
  return h("td", { class: won ? "won" : "", title: won ? t("winner") : "" }, won ? `★ ${text}` : text);
}
