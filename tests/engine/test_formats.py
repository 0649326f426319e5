"""Match formats (RULES.md §9.3-§9.6): within-deal elimination, the elimination tournament,
team play and the rotation tournaments with their schedules."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from controller.engine import OptionError, Play, Rules
from controller.engine.autoplay import play_out
from controller.engine.bots import HeuristicBot
from controller.engine.events import DealEnded, WentOut
from controller.engine.formats import rotation_schedule
from controller.engine.match import DealRecord, Match
from controller.engine.notation import position

from .conftest import c


def play_match(rules: Rules, players: int, seed: int = 3, deals: int = 400) -> Match:
    rng = random.Random(seed)
    match = Match(rules, players, rng)
    bots = [HeuristicBot(random.Random(seat)) for seat in range(players)]
    for _ in range(deals):
        if match.over:
            break
        match.start_deal()
        assert match.game is not None
        play_out(match.game, bots[: match.game.players], lambda game: rng.choice((0, 1, 3)))
        match.finish_deal()
    return match


# --------------------------------------------------------------------------- §9.3


def test_within_deal_elimination_plays_on_until_one_holder() -> None:
    game = position("classic", players=3, format="elim_within_deal", top="R1",
                    hands={0: "R5", 1: "R6 R8", 2: "R7 G3"})  # fmt: skip
    events = game.push(Play(0, c("R5")))
    assert WentOut(0) in events and not game.over and game.active == [False, True, True]
    assert game.to_move() == 1
    game.push(Play(1, c("R6"), uno=True))
    game.push(Play(2, c("R7"), uno=True))
    events = game.push(Play(1, c("R8")))
    ended = events[-1]
    assert isinstance(ended, DealEnded) and game.over
    assert (ended.winner, ended.order, ended.loser) == (0, (0, 1), 2)


def test_within_deal_elimination_card_effect_applies_among_the_rest() -> None:
    game = position("classic", players=3, format="elim_within_deal", top="R1",
                    hands={0: "R+2", 1: "G1 G2", 2: "G3 G4"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    assert len(game.hands[1]) == 4 and game.to_move() == 2  # out on a Draw Two: P1 hit


def test_within_deal_elimination_match_counts_losses_and_loser_deals() -> None:
    match = play_match(Rules.create("classic", format="elim_within_deal", num_deals=6), 4)
    assert len(match.deals) == 6 and sum(match.totals) == 6
    for before, after in itertools.pairwise(match.deals):
        assert after.dealer == before.loser
    assert match.standings() == {"losses": match.totals}


# --------------------------------------------------------------------------- §9.4


def test_elimination_tournament_until_one_survivor() -> None:
    match = play_match(Rules.create("attack", format="elim_tournament", target=150), 4)
    assert match.over
    out = match.standings()["eliminated"]
    assert len(out) == 3 and all(match.totals[p] >= 150 for p in out)  # type: ignore[union-attr]
    survivor = match.verdict().winners
    assert len(survivor) == 1 and match.totals[survivor[0]] < 150
    eliminated_before: set[int] = set()
    for record in match.deals:
        assert record.cards_left[record.winner] == 0
        for seat in eliminated_before:
            assert record.points[seat] == 0 and record.cards_left[seat] == 0
        eliminated_before |= {p for p in range(4) if sum(
            r.deltas[p] for r in match.deals[: record.number]) >= 150}  # fmt: skip


# --------------------------------------------------------------------------- §9.5


def _record(winner: int, points: tuple[int, ...]) -> DealRecord:
    return DealRecord(
        number=1,
        dealer=0,
        winner=winner,
        points=points,
        cards_left=(1,) * len(points),
        seating=tuple(range(len(points))),
    )


@pytest.mark.parametrize(
    ("scoring", "expected"),
    [("winner_team_collects", [50, 0, 50, 0]), ("team_penalty", [5, 50, 5, 50])],
)
def test_team_scoring(scoring: str, expected: list[int]) -> None:
    rules = Rules.create("classic", format="team_play", team_scoring=scoring)
    match = Match(rules, 4, random.Random(1), first_dealer=0)
    # seats 0 and 2 are partners; P0 went out, P2 holds 5 points, P1 and P3 hold 20 and 30
    deltas = match.format.deltas(match, _record(0, (0, 20, 5, 30)))
    assert list(deltas) == expected


def test_team_play_match_and_partners_apart() -> None:
    rules = Rules.create("classic", format="team_play", teams=3, target=300)
    match = play_match(rules, 6)
    teams = match.standings()["team_totals"]
    assert match.over and max(teams) >= 300  # type: ignore[type-var]
    winners = match.verdict().winners
    assert len(winners) == 2 and winners[0] % 3 == winners[1] % 3
    assert all(abs(a - b) >= 2 for a, b in itertools.combinations(winners, 2))


def test_team_play_needs_teams_of_two() -> None:
    with pytest.raises(OptionError, match="cannot form 3 teams"):
        Match(Rules.create("classic", format="team_play", teams=3), 4, random.Random(1))


# --------------------------------------------------------------------------- §9.6


@pytest.mark.parametrize("players", [4, 8])
def test_rotation_schedule_every_pair_partners_once(players: int) -> None:
    schedule = rotation_schedule(players)
    partners = Counter()
    for _, seating, _ in schedule:
        assert len(seating) == 4 and len(set(seating)) == 4
        partners[frozenset((seating[0], seating[2]))] += 1  # opposite seats: apart
        partners[frozenset((seating[1], seating[3]))] += 1
    assert set(partners) == {frozenset(p) for p in itertools.combinations(range(players), 2)}
    assert set(partners.values()) == {1}


def test_rotation_8p_two_tables_each_round() -> None:
    schedule = rotation_schedule(8)
    assert len(schedule) == 14
    for round_ in range(7):
        tables = [entry for entry in schedule if entry[0] == round_]
        assert [t for _, _, t in tables] == [0, 1]
        assert sorted(p for _, seating, _ in tables for p in seating) == list(range(8))


@pytest.mark.parametrize(("players", "deals"), [(4, 12), (8, 56)])
def test_rotation_cycle_and_individual_totals(players: int, deals: int) -> None:
    rules = Rules.create("classic", format=f"rotation_{players}p")
    match = play_match(rules, players)
    assert match.over and len(match.deals) == deals
    per_player = Counter(p for record in match.deals for p in record.seating)
    assert set(per_player.values()) == {deals * 4 // players}
    for record in match.deals:
        team = [record.deltas[p] for p in record.seating]
        assert team[0] == team[2] and team[1] == team[3]
    best = max(match.totals)
    assert match.verdict().winners == tuple(p for p, t in enumerate(match.totals) if t == best)


def test_rotation_needs_its_player_count() -> None:
    with pytest.raises(OptionError, match="needs 4 players"):
        Match(Rules.create("classic", format="rotation_4p"), 5, random.Random(1))
