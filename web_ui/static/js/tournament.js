// The tournament across the service's tables (state.tournament): the round, every table's
// pairing and progress, this table's next pairing, and the standings of every player.
import { $, h, t } from "./api.js";

const pairing = (seating) =>
  t("vs", {
    a: t("partners", { a: seating[0], b: seating[2] }),
    b: t("partners", { a: seating[1], b: seating[3] }),
  });

/** A `data-panel` module (board.js): this table's view of the tournament. */
export function render(state, section) {
  const tour = state.tournament;
  section.hidden = !tour;
  if (!tour) return;
  const rounds = tour.kind !== "open" && !tour.over;
  const title = [t("tournament"), t(`tournament_kind_${tour.kind}`)];
  if (rounds) title.push(t("tournament_round", { round: tour.round + 1, rounds: tour.rounds }));
  $("tournament-title").textContent = tour.over ? t("tournament_over") : title.join(" · ");
  $("tournament-view").replaceChildren(
    ...(rounds ? [tables(tour), waiting(tour), next(tour)] : []),
    standings(tour),
  );
}

/** Each table's pairing this round and how far it is. */
function tables(tour) {
  return h(
    "ul",
    { id: "tournament-tables", class: "tournament-tables" },
    tour.tables.map((table, index) =>
      h(
        "li",
        { "data-table": table.id, class: index === tour.table ? "mine" : "" },
        h("strong", {}, table.name),
        " ",
        pairing(table.seating),
        " ",
        h(
          "span",
          { class: "badge" },
          table.over ? t("tournament_done") : t("tournament_deals", { deals: table.deals, total: tour.deals_per_round }),
        ),
      ),
    ),
  );
}

/** This table is done with the round: which tables the next round waits for. */
function waiting(tour) {
  const mine = tour.tables[tour.table];
  const others = tour.tables.filter((table) => !table.over).map((table) => table.name);
  if (!mine?.over || !others.length) return null;
  return h("p", { id: "tournament-waiting", class: "hint" }, t("tournament_waiting", { tables: others.join(", ") }));
}

function next(tour) {
  if (!tour.next) return null;
  return h(
    "div",
    { id: "tournament-next", class: "next-pairing" },
    h("div", { class: "label" }, t("tournament_next")),
    h("div", { class: "pairing" }, pairing(tour.next.seating)),
  );
}

function standings(tour) {
  const open = tour.kind === "open";
  const rows = tour.standings.map((line) =>
    h(
      "tr",
      { "data-name": line.name },
      h("td", { class: "rank" }, String(line.rank)),
      h("td", {}, line.name),
      open ? h("td", { class: "hint" }, t("tournament_played", line)) : null,
      h("td", { class: "total" }, String(line.total)),
    ),
  );
  return h(
    "table",
    { id: "tournament-standings", class: "players tournament-standings" },
    h("caption", {}, t("standings"), tour.low_wins ? h("small", { class: "muted" }, ` · ${t("lower_better")}`) : ""),
    h("tbody", {}, rows),
  );
}
