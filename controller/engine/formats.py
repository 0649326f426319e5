"""Match formats (RULES.md §9.2-§9.6): who sits where in the next deal, how a deal changes the
players' totals, when the match is over and who won.

Each format is a class that carries its own facts, read without building one (its `id`, the
match options it uses, the players it needs, whether one table can only keep its score), and
`FORMATS` finds it by id; built for a match's rules and players, it seats, scores and decides
that match. The options (`options.Rules`) read the facts, so this module sits below them and
names what it reads of the rules in `MatchRules`.

A deal is played by the seats of one table; `Seating.players` says which match player sits in
each seat (the identity, except in the rotation tournaments, where partners change places).
Totals are per match player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from .errors import IllegalAction, OptionError

DEALS_PER_PARTNERSHIP = 4


@dataclass(frozen=True, kw_only=True)
class DealRecord:
    """One finished deal, per seat of its table: who dealt and won, the points and cards left;
    `seating` maps seats to match players and `deltas` is the change to each player's total.
    Within-deal elimination adds the order players went out and the last holder (`loser`).
    `blocked`: nobody went out; the deal ended blocked and the fewest points won it (§8)."""

    number: int
    dealer: int
    winner: int
    points: tuple[int, ...]
    cards_left: tuple[int, ...]
    deltas: tuple[int, ...] = ()
    seating: tuple[int, ...] = ()
    loser: int | None = None
    order: tuple[int, ...] = ()
    table: int = 0
    round: int = 0
    blocked: bool = False


class MatchRules(Protocol):
    """What a format reads of the rules it is played under (`options.Rules`)."""

    @property
    def edition(self) -> int: ...
    @property
    def scoring(self) -> str: ...
    @property
    def target(self) -> int: ...
    @property
    def num_deals(self) -> int: ...
    @property
    def chip_rate(self) -> int: ...
    @property
    def starting_chips(self) -> int: ...
    @property
    def break_ties_by_continuing(self) -> bool: ...
    @property
    def next_dealer(self) -> str: ...
    @property
    def teams(self) -> int: ...
    @property
    def team_scoring(self) -> str: ...


class Match(Protocol):
    """What a format reads of the match it serves (`match.Match`)."""

    first_dealer: int
    deals: list[DealRecord]
    totals: list[int]


@dataclass(frozen=True)
class Seating:
    """The next deal's table: the match player in each seat, which seats play, the dealer."""

    players: tuple[int, ...]
    active: tuple[bool, ...]
    dealer: int
    table: int = 0
    round: int = 0


@dataclass(frozen=True)
class Verdict:
    winners: tuple[int, ...]
    losers: tuple[int, ...]


def seats_with(values: Sequence[object], best: object) -> tuple[int, ...]:
    return tuple(seat for seat, value in enumerate(values) if value == best)


def deal_losers(record: DealRecord) -> tuple[int, ...]:
    """§9.2(d): the most points loses; a tie goes to more cards; still tied, all lose.
    Within-deal elimination (§9.3): the last player holding cards. Seats, not players."""
    if record.loser is not None:
        return (record.loser,)
    keys = [
        (p, n) if seat != record.winner else (-1, -1)
        for seat, (p, n) in enumerate(zip(record.points, record.cards_left, strict=True))
    ]
    return seats_with(keys, max(keys))


def score_deal(rules: MatchRules, winner: int, points: Sequence[int]) -> tuple[int, ...]:
    """The change to each seat's total for one deal under `rules.scoring` (§9.2)."""
    mode = rules.scoring
    if mode == "winner_collects":
        return tuple(sum(points) if seat == winner else 0 for seat in range(len(points)))
    if mode in ("penalty", "bust"):
        return tuple(0 if seat == winner else p for seat, p in enumerate(points))
    if mode == "chips":
        paid = [0 if seat == winner else p * rules.chip_rate for seat, p in enumerate(points)]
        return tuple(sum(paid) if seat == winner else -p for seat, p in enumerate(paid))
    return (0,) * len(points)


class Format:
    """A match format. Its class declares what it is, read without building one: `id` (the
    value of the `format` option), the match options it uses (`fields`, and under some ways of
    scoring only: `scoring_fields`), the number of players it needs if it needs one
    (`fixed_players`) and whether a single table can only keep its score
    (`score_only_at_one_table`: its deals are played at two tables at once). Built for a
    match (`FORMATS[rules.format](rules, players)`), it seats, scores and decides that match;
    this base plays §9.2, which the other formats change in part."""

    id: ClassVar[str]
    fields: ClassVar[tuple[str, ...]]
    scoring_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    fixed_players: ClassVar[int | None] = None
    score_only_at_one_table: ClassVar[bool] = False

    def __init__(self, rules: MatchRules, players: int) -> None:
        if self.fixed_players is not None and players != self.fixed_players:
            raise OptionError(f"option format: {self.id} needs {self.fixed_players} players")
        self.rules, self.players = rules, players

    @classmethod
    def uses(cls, option_id: str, scoring: str) -> bool:
        """Whether a match of this format scored by `scoring` uses the match option
        `option_id` (§9 gives it a meaning there)."""
        modes = cls.scoring_fields.get(option_id)
        return option_id in cls.fields and (modes is None or scoring in modes)

    def starting_total(self) -> int:
        """What every total starts at: `starting_chips` in a chips match (§9.2(c)), where the
        format uses them; 0 everywhere else (points, losses, penalties start from nothing).
        Before edition 3 every chips match but an elimination tournament started at them."""
        rules = self.rules
        if rules.edition < 3 and self.id != "elim_tournament":  # as they were played
            return rules.starting_chips if rules.scoring == "chips" else 0
        chips = rules.scoring == "chips" and self.uses("starting_chips", "chips")
        return rules.starting_chips if chips else 0

    def seating(self, match: Match) -> Seating:
        everyone = tuple(range(self.players))
        return Seating(everyone, (True,) * self.players, self.next_dealer(match))

    def next_dealer(self, match: Match) -> int:
        if not match.deals:
            return match.first_dealer
        last = match.deals[-1]
        rule = self.rules.next_dealer
        if rule == "rotate":
            return (last.dealer + 1) % self.players
        if rule == "loser":
            return deal_losers(last)[0]
        return last.winner

    def deltas(self, match: Match, record: DealRecord) -> tuple[int, ...]:
        return score_deal(self.rules, record.winner, record.points)

    def over(self, match: Match) -> bool:
        rules, totals = self.rules, match.totals
        if not match.deals:
            return False
        mode = rules.scoring
        if mode in ("deal_loser", "none"):
            return True
        if mode == "chips":
            return 0 < rules.num_deals <= len(match.deals)
        crossed = max(totals) >= rules.target
        if mode == "penalty" and crossed and rules.break_ties_by_continuing:
            return totals.count(min(totals)) == 1
        return crossed

    def verdict(self, match: Match) -> Verdict:
        totals, mode = match.totals, self.rules.scoring
        if not match.deals:
            return Verdict((), ())
        if mode in ("deal_loser", "none"):
            last = match.deals[-1]
            return Verdict((last.winner,), deal_losers(last) if mode == "deal_loser" else ())
        if mode == "bust" and self.busted(match):  # §9.2(b): everyone who crossed has busted
            return Verdict(seats_with(totals, min(totals)), self.busted(match))
        if mode in ("penalty", "bust"):
            return Verdict(seats_with(totals, min(totals)), seats_with(totals, max(totals)))
        return Verdict(seats_with(totals, max(totals)), seats_with(totals, min(totals)))

    def busted(self, match: Match) -> tuple[int, ...]:
        """Under score_bust, every player whose total reached the target (§9.2(b))."""
        return tuple(seat for seat, total in enumerate(match.totals) if total >= self.rules.target)

    def standings(self, match: Match) -> dict[str, object]:
        if self.rules.scoring == "bust":
            return {"busted": list(self.busted(match))}
        return {}


class Standard(Format):
    """§9.2: every player for themselves, scored by `rules.scoring`, to `rules.target`."""

    id = "standard"
    fields = (
        "scoring", "target", "num_deals", "chip_rate", "starting_chips",
        "break_ties_by_continuing",
    )  # fmt: skip
    scoring_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "target": ("winner_collects", "penalty", "bust"),
        "num_deals": ("chips",),
        "chip_rate": ("chips",),
        "starting_chips": ("chips",),
        "break_ties_by_continuing": ("penalty",),
    }


class WithinDealElimination(Format):
    """§9.3 (淘汰制): players go out one by one, the last holder loses. Totals count the
    deals each player lost; the loser deals next. Ends after `num_deals` (0: open-ended)."""

    id = "elim_within_deal"
    fields = ("num_deals",)

    def next_dealer(self, match: Match) -> int:
        if match.deals and self.rules.next_dealer != "rotate":
            return deal_losers(match.deals[-1])[0]
        return super().next_dealer(match)

    def deltas(self, match: Match, record: DealRecord) -> tuple[int, ...]:
        return tuple(int(seat == record.loser) for seat in range(self.players))

    def over(self, match: Match) -> bool:
        return 0 < self.rules.num_deals <= len(match.deals)

    def verdict(self, match: Match) -> Verdict:
        totals = match.totals
        if not match.deals:
            return Verdict((), ())
        return Verdict(seats_with(totals, min(totals)), seats_with(totals, max(totals)))

    def standings(self, match: Match) -> dict[str, object]:
        return {"losses": list(match.totals)}


class EliminationTournament(Format):
    """§9.4: penalty points from 0 (9.2(b), whatever `scoring` says); reaching `target`
    eliminates a player from later deals; the last player left wins."""

    id = "elim_tournament"
    fields = ("target",)

    def deltas(self, match: Match, record: DealRecord) -> tuple[int, ...]:
        return tuple(0 if seat == record.winner else p for seat, p in enumerate(record.points))

    def eliminated(self, match: Match) -> list[int]:
        return [p for p, total in enumerate(match.totals) if total >= self.rules.target]

    def seating(self, match: Match) -> Seating:
        out = set(self.eliminated(match))
        active = tuple(p not in out for p in range(self.players))
        dealer = first_active_from(self.next_dealer(match), active)
        return Seating(tuple(range(self.players)), active, dealer)

    def over(self, match: Match) -> bool:
        """One player left (the deal winner adds 0, so a deal always leaves one)."""
        return self.players - len(self.eliminated(match)) <= 1

    def verdict(self, match: Match) -> Verdict:
        if not match.deals:
            return Verdict((), ())
        out = self.eliminated(match)
        survivors = tuple(p for p in range(self.players) if p not in out)
        return Verdict(survivors, tuple(out))

    def standings(self, match: Match) -> dict[str, object]:
        return {"eliminated": self.eliminated(match)}


def first_active_from(seat: int, active: Sequence[bool]) -> int:
    """`seat`, or the first seat after it still playing (a dealer who was eliminated passes
    the deal on). Looks at each seat once: a table where nobody plays is an error, never a
    search without end."""
    players = len(active)
    for step in range(players):
        candidate = (seat + step) % players
        if active[candidate]:
            return candidate
    raise IllegalAction("nobody is left in the match to deal")


class Teams(Format):
    """§9.5: teams of two or more, partners seated apart (seat s is on team s mod teams)."""

    id = "team_play"
    fields = ("teams", "team_scoring", "target")

    def __init__(self, rules: MatchRules, players: int) -> None:
        super().__init__(rules, players)
        self.teams = rules.teams
        if players % self.teams or players // self.teams < 2:
            raise OptionError(
                f"option teams: {players} players cannot form {self.teams} teams of two or more"
            )

    def team_of(self, player: int) -> int:
        return player % self.teams

    def deltas(self, match: Match, record: DealRecord) -> tuple[int, ...]:
        by_team = team_deltas(self.rules, record, self.teams, self.team_of)
        return tuple(by_team[self.team_of(p)] for p in range(self.players))

    def team_totals(self, match: Match) -> list[int]:
        return [match.totals[team] for team in range(self.teams)]

    def over(self, match: Match) -> bool:
        return bool(match.deals) and max(self.team_totals(match)) >= self.rules.target

    def verdict(self, match: Match) -> Verdict:
        if not match.deals:
            return Verdict((), ())
        totals = self.team_totals(match)
        best, worst = (min, max) if self.rules.team_scoring == "team_penalty" else (max, min)
        winners, losers = seats_with(totals, best(totals)), seats_with(totals, worst(totals))
        members = range(self.players)
        return Verdict(
            tuple(p for p in members if self.team_of(p) in winners),
            tuple(p for p in members if self.team_of(p) in losers),
        )

    def standings(self, match: Match) -> dict[str, object]:
        return {"teams": self.teams, "team_totals": self.team_totals(match)}


def team_deltas(
    rules: MatchRules, record: DealRecord, teams: int, team_of: Callable[[int], int]
) -> list[int]:
    """One deal's score per team (§9.5): the winner's team collects the other teams' points,
    or each team takes its own members' points (team_penalty)."""
    seat_team = [team_of(player) for player in record.seating]
    own = [0] * teams
    for seat, points in enumerate(record.points):
        own[seat_team[seat]] += points
    if rules.team_scoring == "team_penalty":
        return own
    winner_team = seat_team[record.winner]
    collected = sum(points for team, points in enumerate(own) if team != winner_team)
    return [collected if team == winner_team else 0 for team in range(teams)]


class Rotation(Format):
    """§9.6: the partnership rotation for 4 players (12 deals a cycle) or 8 players on two
    tables (28 deals per player a cycle). Each player is credited with their team's score.
    The formats are its two sizes, `FourPlayerRotation` and `EightPlayerRotation`."""

    fields = ("team_scoring", "num_deals")

    def __init__(self, rules: MatchRules, players: int) -> None:
        super().__init__(rules, players)
        self.schedule = rotation_schedule(players)

    @property
    def cycle(self) -> int:
        return len(self.schedule) * DEALS_PER_PARTNERSHIP

    def slot(self, deal_index: int) -> tuple[int, tuple[int, ...], int]:
        """(round, seating, table) of the deal with this index (0-based)."""
        entry = self.schedule[(deal_index // DEALS_PER_PARTNERSHIP) % len(self.schedule)]
        return entry

    def seating(self, match: Match) -> Seating:
        index = len(match.deals)
        round_, players, table = self.slot(index)
        dealer = 0
        if index % DEALS_PER_PARTNERSHIP and match.deals:
            dealer = match.deals[-1].winner
        return Seating(players, (True,) * len(players), dealer, table, round_)

    def deltas(self, match: Match, record: DealRecord) -> tuple[int, ...]:
        def team_of(player: int) -> int:
            return record.seating.index(player) % 2

        by_team = team_deltas(self.rules, record, 2, team_of)
        out = [0] * self.players
        for player in record.seating:
            out[player] = by_team[team_of(player)]
        return tuple(out)

    def over(self, match: Match) -> bool:
        deals = self.rules.num_deals or self.cycle
        return len(match.deals) >= deals

    def verdict(self, match: Match) -> Verdict:
        if not match.deals:
            return Verdict((), ())
        totals = match.totals
        penalty = self.rules.team_scoring == "team_penalty"
        best, worst = (min, max) if penalty else (max, min)
        return Verdict(seats_with(totals, best(totals)), seats_with(totals, worst(totals)))

    def standings(self, match: Match) -> dict[str, object]:
        index = len(match.deals)
        upcoming = None
        if not self.over(match):
            round_, players, table = self.slot(index)
            upcoming = {"round": round_, "table": table, "seating": list(players)}
        return {"deals_per_cycle": self.cycle, "played": index, "next": upcoming}


class FourPlayerRotation(Rotation):
    """§9.6 for 4 players at one table: 12 deals a cycle."""

    id = "rotation_4p"
    fixed_players = 4


class EightPlayerRotation(Rotation):
    """§9.6 for 8 players on two tables: 28 deals per player a cycle. A single table plays
    only half of each round, so it can only keep the match's score."""

    id = "rotation_8p"
    fixed_players = 8
    score_only_at_one_table = True


def rotation_schedule(players: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(round, seating, table) for each block of 4 deals in one cycle (§9.6). Partners sit
    opposite: seats 0 and 2 are one team, 1 and 3 the other."""
    if players == 4:
        splits = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
        return [(r, (a[0], b[0], a[1], b[1]), 0) for r, (a, b) in enumerate(splits)]
    schedule: list[tuple[int, tuple[int, ...], int]] = []
    for r in range(7):
        pairs = [(7, r)] + [((r + k) % 7, (r - k) % 7) for k in (1, 2, 3)]
        for table, (a, b) in enumerate(((pairs[0], pairs[1]), (pairs[2], pairs[3]))):
            schedule.append((r, (a[0], b[0], a[1], b[1]), table))
    return schedule


FORMATS: Final[dict[str, type[Format]]] = {
    match_format.id: match_format
    for match_format in (
        Standard,
        WithinDealElimination,
        EliminationTournament,
        Teams,
        FourPlayerRotation,
        EightPlayerRotation,
    )
}
"""Every match format by its id, in the order the `format` option offers them."""

MATCH_OPTIONS: Final = frozenset(option for f in FORMATS.values() for option in f.fields)
"""The options that belong to a match format rather than to the rules of play."""


def format_uses(match_format: str, scoring: str, option_id: str) -> bool:
    """Whether a match of `match_format` scored by `scoring` uses `option_id`: the rules of
    play always; a format's options only where §9 gives them a meaning (`Format.uses`)."""
    return option_id not in MATCH_OPTIONS or FORMATS[match_format].uses(option_id, scoring)
