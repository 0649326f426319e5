// The read-only parts of the scoreboard, drawn from the state (docs/API.md, "The state").
import { $, h, t } from "./api.js";
import { cardChip, colourChip } from "./cards.js";
import { cardBack, cardFace } from "./faces.js";

/** The match player in a seat of the deal (they differ in the rotation tournaments). */
export function seatPlayer(state, seat) {
  return state.seating?.[seat] ?? seat;
}

/** The seat a match player has in the deal, or -1 (at the other table of a rotation). */
export function playerSeat(state, player) {
  return state.seating ? state.seating.indexOf(player) : player;
}

export function playerName(state, seat) {
  return state.setup?.players?.[seatPlayer(state, seat)] ?? `#${seat + 1}`;
}

let shownTop = null;

/** Cards coming out of the launcher: that many card backs fly out beside its status. */
export function flyOut(count) {
  const box = $("fly");
  const backs = Array.from({ length: Math.min(count, 8) }, (_, i) => {
    const back = cardBack();
    back.classList.add("out");
    back.style.animationDelay = `${i * 90}ms`;
    return back;
  });
  box.replaceChildren(...backs, h("span", { class: "fly-count" }, `+${count}`));
  box.dataset.count = String(count);
}

/** Whose turn, the phase, the direction, the top card and the active colour. */
export function renderGame(state) {
  const hasMatch = Boolean(state.setup);
  $("empty-panel").hidden = hasMatch;
  const scoreOnly = state.setup?.mode === "score_only";
  $("game-panel").hidden = !hasMatch || state.match_over || scoreOnly;
  document.body.classList.toggle("score-only", scoreOnly);
  if (!hasMatch) return;
  const deal = state.deal;
  const turn = turnText(state);
  $("turn-name").textContent = turn;
  $("turn-name").classList.toggle("long", turn.length > 9);
  const next = deal?.next ?? null; // the engine's word: owed presses and skips included
  $("next-name").textContent = next === null ? "" : t("next_player", { name: playerName(state, next) });
  $("phase").textContent = phaseText(state);
  $("direction").textContent = deal ? t(deal.direction > 0 ? "clockwise" : "anticlockwise") : "—";
  $("top-card").replaceChildren(deal?.top ? cardChip(deal.top) : "—");
  if ((deal?.top ?? null) !== shownTop) {
    shownTop = deal?.top ?? null; // a new top card is dealt in with a short animation
    $("top-face").replaceChildren(shownTop ? cardFace(shownTop, { class: "card-face played" }) : "");
  }
  $("active-colour").replaceChildren(deal?.colour ? colourChip(deal.colour) : "—");
}

function turnText(state) {
  const deal = state.deal;
  if (state.match_over)
    return t("winners", { names: state.winners.map((p) => nameOf(state, p)).join(", ") });
  if (!deal) return t("waiting_deal");
  const seat = deal.to_move ?? deal.turn;
  if (seat !== null && seat !== undefined) return playerName(state, seat);
  if (deal.winner !== null && deal.winner !== undefined)
    return t(deal.blocked ? "blocked_won" : "went_out", { name: playerName(state, deal.winner) });
  return deal.blocked ? t("blocked") : "—";
}

function phaseText(state) {
  const deal = state.deal;
  if (state.match_over) return t("match_over");
  if (!deal && !state.deals.length) return "";
  if (!deal) return lastDealText(state) + t("next_deal", { name: playerName(state, state.next_dealer) });
  if (deal.phase === "turn_up") return t("phase_turn_up");
  if (deal.phase === "scoring") return t(deal.blocked ? "phase_blocked" : "phase_scoring");
  return t("dealer_is", { name: playerName(state, deal.dealer) });
}

/** "Blocked deal won by Ann · " after a deal that ended blocked (RULES.md §8), else "". */
function lastDealText(state) {
  const last = state.deals[state.deals.length - 1];
  if (!last?.blocked) return "";
  const player = last.seating?.length ? last.seating[last.winner] : last.winner;
  return `${t("blocked_won", { name: nameOf(state, player) })} · `;
}

/** The players at one card who did not call UNO and may be caught (one seat or a list). */
export function exposedSeats(deal) {
  const exposed = deal?.exposed;
  if (Array.isArray(exposed)) return exposed;
  return exposed === null || exposed === undefined ? [] : [exposed];
}

/** A draw the player to move may pass on (stacking, §10.1): whose, how much, and whether it
 * is counted in cards (+6) or in launcher presses (Attack's stacked Hit 2). Else null. */
export function pendingStack(state) {
  const deal = state.deal;
  const duty = deal?.duties?.[0];
  if (!duty || deal.phase !== "playing" || duty.seat !== deal.to_move) return null;
  const passes = deal.moves.some((m) => m.type === "Play" && m.seat === duty.seat);
  const house = state.house ?? {};
  if (duty.kind === "penalty" && (house.stacking || passes))
    return { seat: duty.seat, count: duty.count, presses: false };
  if (duty.kind === "press" && duty.why === "hit_two" && house.changed?.attack_stack_hits && passes)
    return { seat: duty.seat, count: duty.count, presses: true };
  return null;
}

export function stackText(state, stack) {
  return t(stack.presses ? "faces_presses" : "faces", {
    name: playerName(state, stack.seat),
    count: stack.count,
  });
}

/** The pending stack (large), the missed-UNO alert and the presses (or choices) owed. */
export function renderAlerts(state) {
  const deal = state.deal;
  const exposed = exposedSeats(deal);
  const stack = pendingStack(state);
  const duties = (deal?.duties ?? []).slice(stack ? 1 : 0);
  $("stack").hidden = !stack;
  $("stack").replaceChildren(
    ...(stack
      ? [
          h("div", { class: "stack-total", id: "stack-total" }, stackText(state, stack)),
          h("div", {}, t("stack_hint")),
        ]
      : []),
  );
  $("alerts").hidden = exposed.length === 0 && duties.length === 0 && !stack;
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

/** A match player's name (totals, standings and winners are per match player). */
export function nameOf(state, player) {
  return state.setup?.players?.[player] ?? `#${player + 1}`;
}

/** Whether a lower total is the better one: penalty points, losses, team penalties. */
export function lowerIsBetter(state) {
  const format = state.house?.format ?? "standard";
  if (format === "elim_within_deal" || format === "elim_tournament") return true;
  if (format === "team_play" || format.startsWith("rotation"))
    return state.house?.changed?.team_scoring === "team_penalty";
  return ["penalty", "bust"].includes(state.scoring);
}

/** A total as shown: chips are balances and carry their sign. */
export function totalText(state, total) {
  return state.scoring === "chips" && total > 0 ? `+${total}` : String(total);
}

function totalLabel(state) {
  if (state.house?.format === "elim_within_deal") return t("losses");
  return state.scoring === "chips" ? t("chips") : t("total");
}

/** Hand counts with UNO alerts, totals, who deals and who moves; one row per match player. */
export function renderPlayers(state) {
  const players = state.setup?.players ?? [];
  $("target").textContent = state.target ? `· ${t("target", { points: state.target })}` : "";
  $("total-head").textContent = totalLabel(state);
  $("players").replaceChildren(...players.map((name, player) => playerRow(state, name, player)));
  renderStandings(state);
}

function playerRow(state, name, player) {
  const deal = state.deal;
  const seat = playerSeat(state, player);
  const seated = Boolean(deal) && seat >= 0;
  const moving = seated && (deal.to_move ?? deal.turn) === seat;
  const out = (state.standings?.eliminated ?? []).includes(player) || (seated && !deal.active[seat]);
  const count = !deal ? "" : seated ? deal.hands[seat] : "—";
  const classes = [moving ? "moving" : "", out ? "out" : ""].filter(Boolean).join(" ");
  return h(
    "tr",
    { "data-seat": player, class: classes },
    h("td", { class: "marker", "aria-hidden": "true" }, moving ? "▶" : ""),
    h("td", { class: "name" }, name, " ", badges(state, player, seated ? seat : -1)),
    h("td", { class: "count", "data-count": count }, count),
    h("td", { class: "total" }, totalText(state, state.totals[player] ?? 0)),
  );
}

function badges(state, player, seat) {
  const deal = state.deal;
  const out = [];
  const teams = state.standings?.teams;
  if (teams) {
    const team = player % teams; // partners sit apart: seat s plays for team s mod teams
    out.push(h("span", { class: `badge team team-${team}` }, t("team_n", { n: team + 1 })));
  }
  if ((state.standings?.eliminated ?? []).includes(player))
    return [...out, h("span", { class: "badge out-badge" }, t("eliminated"))];
  if (seat < 0) return out;
  if (!deal.active[seat]) {
    const place = (deal.finished ?? []).indexOf(seat) + 1;
    out.push(h("span", { class: "badge out-badge" }, place ? t("out_place", { n: place }) : t("out")));
  } else if (exposedSeats(deal).includes(seat)) out.push(h("span", { class: "badge alert" }, `${t("uno")}?`));
  else if (deal.uno.includes(seat)) out.push(h("span", { class: "badge uno" }, t("uno")));
  if (deal.dealer === seat) out.push(h("span", { class: "badge dealer", title: t("dealer") }, "D"));
  return out;
}

function renderStandings(state) {
  const box = $("standings");
  const scoreOnly = state.setup?.mode === "score_only";
  const show = Boolean(state.setup) && !state.match_over && (scoreOnly || (!state.deal && state.deals.length > 0));
  box.hidden = !show;
  if (!show) return;
  const sign = lowerIsBetter(state) ? 1 : -1;
  const order = state.totals
    .map((total, player) => ({ total, player }))
    .sort((a, b) => sign * (a.total - b.total));
  const title = state.match_over
    ? t("winners", { names: state.winners.map((p) => nameOf(state, p)).join(", ") })
    : t("standings");
  box.replaceChildren(
    h("h3", {}, title),
    h(
      "ol",
      {},
      order.map(({ total, player }) =>
        h("li", { "data-seat": player }, `${nameOf(state, player)}: ${totalText(state, total)}`),
      ),
    ),
  );
}

/** The launcher ran empty during a deal (RULES.md §8): until the players reload it and say
 * so, no press can be served, so none is offered (the table refuses one too). Not when there
 * is nothing left to reload: then presses give nothing, and a round of them blocks the deal. */
export function reloadPending(state) {
  const deal = state.deal;
  const empty = state.launcher?.status === "empty" && Boolean(state.attack);
  return empty && deal?.phase === "playing" && !deal.exhausted;
}

/** Nothing left to draw or reload while a deal is played (RULES.md §8): the launcher cannot
 * give a card, whatever its status says, so the panel says that instead of "Ready". */
export function nothingLeft(state) {
  const deal = state.deal;
  return deal?.phase === "playing" && Boolean(deal.exhausted);
}

/** Launcher status in words (and its colour), the fault, and "clear fault" when unlocked.
 * An empty launcher during a deal asks the players to reload it (RULES.md §8). A score-only
 * table (people play with cards and enter points) has no launcher panel. */
export function renderLauncher(state) {
  $("launcher-panel").hidden = state.setup?.mode === "score_only";
  const launcher = state.launcher;
  const status = launcher?.status ?? "none";
  const box = $("launcher-status");
  const exhausted = nothingLeft(state) && ["ready", "empty", "none"].includes(status);
  box.dataset.status = exhausted ? "exhausted" : status;
  box.textContent = t(exhausted ? "nothing_left" : status);
  const tension = Math.max(0, Math.min(1, launcher?.tension ?? 0));
  $("tension-bar").style.width = `${Math.round(tension * 100)}%`;
  $("tension").dataset.level = tension > 0.66 ? "high" : tension > 0.33 ? "mid" : "low";
  $("tension").hidden = status === "none";
  const reload = reloadPending(state);
  $("reload").hidden = !reload;
  const round = exhausted && !launcher?.fault ? emptyRound(state.deal) : "";
  $("launcher-fault").textContent = reload ? "" : (launcher?.fault ?? round);
  $("launcher-fault").classList.toggle("note", Boolean(round)); // a count, not a fault
  const clear = $("clear-fault");
  if (clear) clear.hidden = reload || !["jam", "empty", "fault"].includes(status);
}

/** "1 of 4 players in a row got nothing: a full round ends the deal" (RULES.md §8). */
function emptyRound(deal) {
  return t("empty_round", { count: deal.empty_turns, players: deal.active.filter(Boolean).length });
}

/** The match players from first to last place: [{player, total, place}] (ties share one). */
export function finalOrder(state) {
  const sign = lowerIsBetter(state) ? 1 : -1;
  const order = state.totals
    .map((total, player) => ({ total, player, won: state.winners?.includes(player) }))
    .sort((a, b) => b.won - a.won || sign * (a.total - b.total));
  order.forEach((row, i) => {
    const prev = order[i - 1];
    row.place = prev && prev.total === row.total && prev.won === row.won ? prev.place : i + 1;
  });
  return order;
}

/** The end of a match: the winners large, the final standings, a little celebration. It
 * stays until someone starts the next match. */
export function renderMatchEnd(state, demoPlaying = false) {
  const over = Boolean(state.setup && state.match_over);
  $("match-end").hidden = !over;
  document.body.classList.toggle("match-over", over);
  if (!over) return;
  const names = state.winners.map((p) => nameOf(state, p)).join(" & ");
  $("champion").textContent = t(state.winners.length > 1 ? "champions" : "champion", { names });
  $("final-standings").replaceChildren(
    ...finalOrder(state).map(({ player, total, place, won }) =>
      h(
        "li",
        { "data-seat": player, class: won ? "won" : "" },
        h("span", { class: "place" }, `${place}.`),
        h("span", { class: "who" }, nameOf(state, player)),
        h("span", { class: "points" }, totalText(state, total)),
      ),
    ),
  );
  $("match-end-next").hidden = !demoPlaying;
  const confetti = $("confetti");
  if (!confetti.children.length)
    for (let i = 0; i < 24; i++) {
      const piece = h("i");
      piece.style.left = `${(i * 4.1).toFixed(1)}%`;
      piece.style.animationDelay = `${(-i * 0.27).toFixed(2)}s`;
      confetti.append(piece);
    }
}

/** One row per scored deal: dealer, winner and each player's change. */
export function renderHistory(state) {
  const deals = state.deals ?? [];
  const players = state.setup?.players ?? [];
  $("history-legend").hidden = !deals.length; // nothing to explain before the first round
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
        roundCell(d),
        d.deltas.map((delta, player) => historyCell(state, d, delta, player)),
      ),
    );
  $("history").replaceChildren(h("table", { class: "rounds" }, h("thead", {}, head), h("tbody", {}, rows)));
}

/** The round's number, marked when it ended blocked (RULES.md §8). */
function roundCell(d) {
  return d.blocked ? h("td", { class: "blocked", title: t("blocked") }, `${d.number} ⊘`) : h("td", {}, d.number);
}

/** A player's change in one deal (deltas are per match player, the winner is a seat). */
function historyCell(state, deal, delta, player) {
  const seating = deal.seating?.length ? deal.seating : null;
  if (seating && !seating.includes(player)) return h("td", { class: "muted" }, "—");
  const won = (seating ? seating[deal.winner] : deal.winner) === player;
  const text = delta > 0 ? `+${delta}` : String(delta);
  if (won) return h("td", { class: "won", title: t("winner") }, `★ ${text}`);
  const seat = seating ? seating.indexOf(player) : player;
  const held = deal.points?.[seat] ?? 0;
  if (delta === 0 && held > 0)
    return h("td", { class: "held", title: t("points_held") }, `(${held})`);
  return h("td", {}, text);
}
