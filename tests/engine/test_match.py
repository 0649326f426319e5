"""Matches (§9.2): the scoring modes, end conditions, ties, the next dealer, the first dealer."""

from __future__ import annotations

import random

import pytest

from controller.engine import IllegalAction, Knowledge, Rules
from controller.engine.match import DealRecord, Match, choose_dealer, deal_losers, score_deal


def record(winner: int, points: tuple[int, ...], cards: tuple[int, ...] | None = None):
    return DealRecord(
        number=1,
        dealer=0,
        winner=winner,
        points=points,
        cards_left=cards or tuple(1 for _ in points),
    )


@pytest.mark.parametrize(
    ("scoring", "deltas"),
    [
        ("winner_collects", (0, 60, 0)),
        ("penalty", (10, 0, 50)),
        ("bust", (10, 0, 50)),
        ("chips", (-20, 120, -100)),
        ("none", (0, 0, 0)),
    ],
)
def test_score_deal_by_mode(scoring: str, deltas: tuple[int, ...]) -> None:
    chips = {"chip_rate": 2} if scoring == "chips" else {}  # only chips scoring uses a rate
    rules = Rules.create("classic", scoring=scoring, **chips)
    assert score_deal(rules, 1, (10, 0, 50)) == deltas


def _match(scoring: str, *deals: tuple[int, tuple[int, ...]], **options: object) -> Match:
    rules = Rules.create("classic", scoring=scoring, **options)  # type: ignore[arg-type]
    match = Match(rules, 3, random.Random(1), first_dealer=0)
    for winner, points in deals:
        deltas = score_deal(rules, winner, points)
        match.deals.append(
            DealRecord(
                number=len(match.deals) + 1,
                dealer=0,
                winner=winner,
                points=points,
                cards_left=(1, 1, 1),
                deltas=deltas,
            )
        )
        match.totals = [t + d for t, d in zip(match.totals, deltas, strict=True)]
    return match


def test_winner_collects_reaches_the_target() -> None:
    match = _match("winner_collects", (0, (0, 300, 100)))
    assert not match.over
    match = _match("winner_collects", (0, (0, 300, 100)), (2, (50, 60, 0)))
    assert match.totals == [400, 0, 110] and not match.over
    match = _match("winner_collects", (0, (0, 300, 100)), (0, (0, 60, 50)))
    assert match.over and match.verdict().winners == (0,) and match.verdict().losers == (1, 2)


def test_penalty_lowest_wins_highest_loses() -> None:
    match = _match("penalty", (0, (0, 300, 100)), (1, (250, 0, 100)))
    assert match.totals == [250, 300, 200] and not match.over
    match = _match("penalty", (0, (0, 300, 100)), (1, (250, 0, 400)))
    assert match.over and match.verdict().winners == (0,) and match.verdict().losers == (2,)


def test_penalty_tie_is_joint_or_plays_on() -> None:
    deals = ((0, (0, 520, 100)), (2, (100, 0, 0)))
    assert _match("penalty", *deals).verdict().winners == (0, 2)
    assert _match("penalty", *deals).over
    assert not _match("penalty", *deals, break_ties_by_continuing=True).over


def test_bust_crosser_loses() -> None:
    match = _match("bust", (0, (0, 510, 100)))
    assert match.over and match.verdict().losers == (1,) and match.verdict().winners == (0,)


def test_chips_end_after_the_agreed_deals() -> None:
    match = _match("chips", (0, (0, 10, 20)), starting_chips=100, num_deals=2)
    assert match.totals == [130, 90, 80] and not match.over
    match = _match("chips", (0, (0, 10, 20)), (1, (5, 0, 5)), starting_chips=100, num_deals=2)
    assert match.over and match.verdict().winners == (0,)
    assert not _match("chips", (0, (0, 10, 20))).over  # num_deals 0: until they stop


def test_deal_loser_tie_break() -> None:
    assert deal_losers(record(0, (0, 30, 20))) == (1,)
    assert deal_losers(record(0, (0, 30, 30), (0, 2, 4))) == (2,)
    assert deal_losers(record(0, (0, 30, 30), (0, 3, 3))) == (1, 2)
    match = _match("deal_loser", (0, (0, 30, 20)))
    assert match.over and match.verdict() == match.verdict().__class__((0,), (1,))


@pytest.mark.parametrize(("rule", "dealer"), [("winner", 2), ("loser", 1), ("rotate", 1)])
def test_next_dealer(rule: str, dealer: int) -> None:
    match = _match("winner_collects", (2, (10, 90, 0)), next_dealer=rule)
    assert match.next_dealer == dealer


def test_full_match_to_the_target_by_bots() -> None:
    from controller.engine.autoplay import play_out
    from controller.engine.bots import HeuristicBot
    from controller.policy import PROFILES, EjectPolicy
    from controller.simulation import press_outcome

    rng = random.Random(7)
    match = Match(Rules.create("attack", target=300), 3, rng)
    press = press_outcome(EjectPolicy(PROFILES["toy"], random.Random(1)))
    bots = [HeuristicBot(random.Random(seat)) for seat in range(3)]
    while not match.over:
        match.start_deal()
        assert match.game is not None
        play_out(match.game, bots, press)
        rec = match.finish_deal()
        assert rec.deltas[rec.winner] == sum(rec.points)
    assert max(match.totals) >= 300
    assert match.verdict().winners == (match.totals.index(max(match.totals)),)
    with pytest.raises(IllegalAction, match="over"):
        match.start_deal()


def test_match_refuses_out_of_order_calls() -> None:
    match = Match(Rules.create("classic"), 2, random.Random(1))
    with pytest.raises(IllegalAction, match="no finished deal"):
        match.finish_deal()
    match.start_deal()
    with pytest.raises(IllegalAction, match="still being played"):
        match.start_deal()
    with pytest.raises(IllegalAction, match="who deals first"):
        Match(Rules.create("classic"), 2, random.Random(1), knowledge=Knowledge.TABLE)


def test_high_card_dealer_ties_redraw() -> None:
    seen_tie = False
    for seed in range(200):
        draw = choose_dealer(Rules.create("attack").deck_spec, 6, random.Random(seed))
        last = dict(draw.rounds[-1])
        assert draw.dealer in last
        values = {seat: int(text[1:]) if text[1:].isdigit() else 0 for seat, text in last.items()}
        assert values[draw.dealer] == max(values.values())
        assert list(values.values()).count(max(values.values())) == 1
        if len(draw.rounds) > 1:
            seen_tie = True
            assert set(last) < set(dict(draw.rounds[0]))
    assert seen_tie
