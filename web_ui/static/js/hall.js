// The hall's wall board: every followed table at a glance and the standings across them, from
// GET /api/hall. Each answer carries a version; the next request asks `?after=<version>` and is
// answered as soon as anything changes (or after a while with the same view), so the wall
// follows the tables without polling. Read-only: nothing here changes a table.

import { $, h, t, cardName, get, page } from "./api.js";

const PAUSE_MS = 250; // at most four redraws a second, however busy the tables
const RETRY_MS = 2000; // the hall itself did not answer: ask again after this

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** "pi-a.local:8080" (and the path of a table that is not at the service's root). */
function place(address) {
  const url = new URL(address);
  return url.pathname === "/" ? url.host : `${url.host}${url.pathname.replace(/\/$/, "")}`;
}

/** "pi-a.local:8080 · main". */
function tableTitle(table) {
  return table.id ? `${place(table.url)} · ${table.id}` : place(table.url);
}

/** "Ann, Bob" / "Ann、Bob": names listed as the page's language lists them. */
function list(names) {
  return names.join(t("hall_list_separator"));
}

/** The table's other addresses (the same table reached another way: followed once). */
function otherAddresses(table) {
  if (!table.also?.length) return null;
  return h("p", { class: "hall-also muted" }, t("hall_also", { addresses: list(table.also.map(place)) }));
}

/** Why the table is offline, in the page's language (the API's English words for a reason
 * this page has no words for). */
function offlineReason(table) {
  const key = `hall_reason_${table.error_code}`;
  return key in page.words ? t(key, { status: table.error_status ?? "" }) : (table.error ?? "");
}

function clockTime(unixSeconds) {
  return new Date(unixSeconds * 1000).toLocaleTimeString(page.language, {
    hour: "2-digit",
    minute: "2-digit",
  });
}

function statusBadge(table) {
  return h("span", { class: "hall-status", "data-status": table.status }, t(`hall_${table.status}`));
}

function seatRow(seat, match) {
  const classes = ["hall-seat"];
  if (seat.name === match.turn) classes.push("turn");
  if (seat.out) classes.push("out");
  return h(
    "li",
    { class: classes.join(" ") },
    h("span", { class: "hall-name" }, seat.name ?? "?", seat.dealer ? h("span", { class: "hall-dealer", title: t("dealer") }, " ◆") : null),
    h("span", { class: "hall-uno" }, seat.uno ? t("uno") : ""),
    h("span", { class: "hall-hand", title: t("hand") }, seat.hand ?? ""),
    h("span", { class: "hall-total", title: t("total") }, seat.total ?? 0),
  );
}

/** "Ann & Cy vs Bo & Di": partners sit opposite (seats 0 and 2, 1 and 3). */
function pairing(names) {
  if (names.length !== 4) return list(names);
  const [a, b, c, d] = names;
  return t("vs", { a: t("partners", { a, b: c }), b: t("partners", { a: b, b: d }) });
}

function nextSeating(upcoming) {
  if (!upcoming) return null;
  const where = { round: (upcoming.round ?? 0) + 1, table: (upcoming.table ?? 0) + 1 };
  return h("p", { class: "hall-next-seating" }, t("hall_next_seating", { ...where, seating: pairing(upcoming.seating) }));
}

function launcherLine(launcher) {
  if (!launcher) return null;
  const tension = Math.max(0, Math.min(1, Number(launcher.tension) || 0));
  return h(
    "div",
    { class: "hall-launcher", "data-status": launcher.status },
    h("span", {}, t("hall_launcher", { status: t(launcher.status) })),
    h(
      "span",
      { class: "hall-tension", title: `${t("tension")} ${Math.round(tension * 100)} %` },
      h("span", { style: `width: ${Math.round(tension * 100)}%` }),
    ),
  );
}

function matchPart(table) {
  const match = table.match;
  if (!match) return [h("p", { class: "muted" }, t("hall_no_match"))];
  const parts = [];
  if (match.over) {
    parts.push(h("p", { class: "hall-turn" }, t("match_over"), " · ", t("winners", { names: list(match.winners) })));
  } else if (match.turn) {
    parts.push(
      h("p", { class: "hall-turn" }, t("hall_to_play", { name: match.turn }), match.next && match.next !== match.turn ? h("span", { class: "muted" }, " ", t("hall_next", { name: match.next })) : null),
    );
  } else {
    parts.push(h("p", { class: "hall-turn muted" }, t("hall_between_deals")));
  }
  const head = h(
    "div",
    { class: "hall-seat hall-seat-head muted", "aria-hidden": "true" },
    h("span", {}, t("players")),
    h("span", {}),
    h("span", { class: "hall-hand" }, t("hand")),
    h("span", { class: "hall-total" }, t("total")),
  );
  parts.push(head, h("ol", { class: "hall-seats" }, match.players.map((seat) => seatRow(seat, match))));
  const facts = [t("hall_deal", { n: table.deals + (match.phase && match.phase !== "over" ? 1 : 0) })];
  if (match.top) facts.push(t("hall_top", { card: cardName(match.top) }));
  parts.push(h("p", { class: "hall-facts muted" }, facts.join(" · ")));
  parts.push(nextSeating(match.next_seating));
  return parts;
}

function tableCard(table) {
  const offline =
    table.status === "offline"
      ? h("p", { class: "hall-offline" }, t("hall_offline_since", { time: clockTime(table.offline_since), reason: offlineReason(table) }))
      : null;
  // a table that never answered has no id yet: nothing to show of it but the wait
  const body = table.id === null ? [h("p", { class: "muted" }, t("hall_waiting"))] : matchPart(table);
  return h(
    "article",
    { class: "panel hall-table", "data-status": table.status, "data-url": table.url },
    h("header", { class: "hall-table-head" }, h("h2", {}, tableTitle(table)), statusBadge(table)),
    otherAddresses(table),
    offline,
    body,
    launcherLine(table.launcher),
  );
}

function renderTables(tables) {
  const box = $("tables");
  box.replaceChildren(...(tables.length ? tables.map(tableCard) : [h("p", { class: "panel muted" }, t("hall_no_tables"))]));
  box.dataset.count = String(tables.length);
}

function renderStandings(rows) {
  $("standings").tBodies[0].replaceChildren(
    ...rows.map((row) =>
      h(
        "tr",
        {},
        h("td", {}, row.rank),
        h("td", { class: "hall-name" }, row.name),
        h("td", { class: "num" }, row.total),
        h("td", { class: "num" }, row.matches),
        h("td", { class: "num" }, row.wins),
      ),
    ),
  );
  $("no-standings").hidden = rows.length > 0;
}

function showLive(live) {
  const badge = $("live");
  badge.dataset.state = live ? "live" : "offline";
  badge.textContent = live ? t("hall_live") : t("hall_board_offline");
}

async function follow() {
  let version = null;
  for (;;) {
    try {
      const view = await get(version === null ? "api/hall" : `api/hall?after=${version}`);
      version = view.version;
      renderTables(view.tables);
      renderStandings(view.standings);
      showLive(true);
      await sleep(PAUSE_MS);
    } catch {
      showLive(false);
      await sleep(RETRY_MS);
    }
  }
}

follow();
