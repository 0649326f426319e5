"""The end of a deal (§6, and §8's blocked deal): counting the hands left. Match scoring is in
`match.py`.

At a table the players enter the hands left (`EnterHand`), as a careful referee takes them
[ENG]: from the engine's edition 3 on, no card more often than the deck holds it beyond the
copies in sight (the discard pile, hands entered before), points no more than the tracked number
of cards could score, and the tracked number of cards, unless the entry says it is a
correction (the players counted again). Entering a hand twice is refused. A match recorded
under an earlier edition replays as it was played (§11)."""

from __future__ import annotations

from collections import Counter
from typing import Final

from .actions import EnterHand
from .cards import UNKNOWN, Card
from .errors import BadChoice, IllegalAction, WrongPhase
from .events import DealBlocked, DealEnded, Event
from .state import DealState, Knowledge, Phase

CHECKED_ENTRIES_EDITION: Final = 3
"""The edition of the engine's rules (`options.EDITION`) that checks entered hands."""


def end_deal(game: DealState, events: list[Event]) -> None:
    """The winner's last card and its effects are done (or, under within-deal elimination,
    one player is left holding cards): count every hand."""
    game.exposed = ()
    game.jump = None
    game.drawn = None
    if game.knowledge is Knowledge.FULL or game.rules.format == "elim_within_deal":
        game.shown = {seat: (_value(game, hand), len(hand)) for seat, hand in enumerate(game.hands)}
        _finish(game, events)
        return
    game.phase = Phase.SCORING
    game.shown = {seat: (0, 0) for seat, hand in enumerate(game.hands) if not hand}


def end_blocked(game: DealState, events: list[Event]) -> None:
    """§8 [ENG]: nothing is left to draw or reload and a full round of turns drew or pressed
    for nothing. The hands are counted as at any end of a deal; the fewest hand points win
    (`blocked_order`), so at a table the winner is known once every hand is entered."""
    game.blocked = True
    events.append(DealBlocked(game.last_empty))
    end_deal(game, events)


def blocked_order(game: DealState) -> list[int]:
    """§8: the players still holding cards, best first: the fewest hand points, then the fewest
    cards, then the first in turn order counting from (and including) the player who made the
    last empty turn."""
    start = game.last_empty
    holders = [start, *game.seats_after(start)]
    shown = game.shown
    return sorted(holders, key=lambda seat: shown[seat])  # stable: turn order breaks ties


def may_enter_hand(game: DealState, seat: int) -> bool:
    """Table mode, after the deal: `seat`'s hand is still to be entered (before edition 3 an
    entered hand could be entered again, the second entry replacing the first)."""
    if game.phase is not Phase.SCORING or not 0 <= seat < game.players:
        return False
    if _checks_entries(game):
        return seat not in game.shown
    return seat != game.winner


def _checks_entries(game: DealState) -> bool:
    return game.rules.edition >= CHECKED_ENTRIES_EDITION


def push_enter_hand(game: DealState, action: EnterHand, events: list[Event]) -> None:
    """Table mode: the cards (or just the points) a player was left holding."""
    seat = action.seat
    if not may_enter_hand(game, seat):
        _refuse_entry(game, seat)
    game.shown[seat] = _counted(game, seat, action)
    if len(game.shown) == game.players:
        _finish(game, events)


def _refuse_entry(game: DealState, seat: int) -> None:
    """Say why `may_enter_hand` refuses an entry for `seat`."""
    if game.phase is not Phase.SCORING:
        raise WrongPhase("hands are entered after the deal has ended")
    if not 0 <= seat < game.players:
        raise IllegalAction(f"there is no P{seat}")
    if seat == game.winner or not game.hands[seat]:
        raise IllegalAction(f"P{seat} went out and holds no cards")
    raise IllegalAction(f"P{seat}'s hand is already entered")


def _counted(game: DealState, seat: int, action: EnterHand) -> tuple[int, int]:
    if action.points is not None:
        return _counted_points(game, seat, action), len(game.hands[seat])
    cards = action.cards
    if not cards:
        raise BadChoice(f"enter the cards P{seat} holds, or their points")
    if UNKNOWN in cards or not all(game.deck.holds(c) for c in cards):
        raise BadChoice(f"those are not all {game.deck.name} cards")
    if _checks_entries(game):
        _check_copies(game, seat, cards)
        _check_count(game, seat, action)
        game.hands[seat] = list(cards)  # seen now: the entries still to come count them
    return game.value(list(cards)), len(cards)


def _counted_points(game: DealState, seat: int, action: EnterHand) -> int:
    points = action.points
    assert points is not None
    if action.cards:
        raise BadChoice("enter the cards or their points, not both")
    if points < 0:
        raise BadChoice("points cannot be negative")
    if not _checks_entries(game):
        return points
    tracked = len(game.hands[seat])
    most = most_points(game, seat, None if action.correction else tracked)
    if points > most:
        held = "hand" if action.correction else f"{tracked} card{'s' * (tracked != 1)}"
        raise BadChoice(
            f"P{seat}'s {held} can score at most {most} points with the cards still out of "
            "sight: count the cards instead"
        )
    return points


def unseen_elsewhere(game: DealState, seat: int, c: Card) -> int:
    """Copies of `c` that `seat` may hold: the deck's, less those in sight (the discard pile,
    and the cards known in every other hand, entered ones included)."""
    others = sum(hand.count(c) for other, hand in enumerate(game.hands) if other != seat)
    return game.deck.copies(c) - game.discard.count(c) - others


def most_points(game: DealState, seat: int, cards: int | None) -> int:
    """The most `cards` cards (None: any number) that `seat` may hold could score."""
    values = sorted(
        (
            game.deck.points[c.face]
            for c, _ in game.deck.counts
            for _ in range(max(unseen_elsewhere(game, seat, c), 0))
        ),
        reverse=True,
    )
    return sum(values if cards is None else values[:cards])


def _check_copies(game: DealState, seat: int, cards: tuple[Card, ...]) -> None:
    """No card entered more often than it can be in this hand."""
    for c, count in Counter(cards).items():
        spare = unseen_elsewhere(game, seat, c)
        if count > spare:
            copies = game.deck.copies(c)
            seen = f" and {copies - spare} in sight" if spare < copies else ""
            raise BadChoice(
                f"the {game.deck.name} deck has {copies} {c}{seen}: P{seat} cannot hold {count}"
            )


def _check_count(game: DealState, seat: int, action: EnterHand) -> None:
    """The number of cards entered is the number tracked, unless the entry is a correction."""
    tracked, entered = len(game.hands[seat]), len(action.cards)
    if entered != tracked and not action.correction:
        raise BadChoice(
            f"P{seat} was tracked holding {tracked} card{'s' * (tracked != 1)}, not {entered}: "
            "count again, or save the entry as a correction"
        )


def _value(game: DealState, hand: list[Card]) -> int:
    return 0 if UNKNOWN in hand else game.value(hand)


def _finish(game: DealState, events: list[Event]) -> None:
    shown = game.shown
    seats = range(game.players)
    points = [shown[seat][0] for seat in seats]
    if game.blocked:
        _rank_blocked(game)
        assert game.winner is not None
        points[game.winner] = 0  # §8: the winner's own hand counts as 0 for the winner
    game.points = tuple(points)
    game.phase = Phase.OVER
    assert game.winner is not None
    cards_left = tuple(shown[seat][1] for seat in seats)
    order, loser = tuple(game.finished), None
    if game.rules.format == "elim_within_deal":
        loser = next(seat for seat in seats if game.active[seat])
    events.append(DealEnded(game.winner, game.points, cards_left, order, loser, game.blocked))


def _rank_blocked(game: DealState) -> None:
    """The blocked deal's winner (§8). Under within-deal elimination (§9.3) the players still
    holding cards go out in that order, so the last of them is the deal's loser [ENG]."""
    order = blocked_order(game)
    if not game.elimination:
        game.winner = order[0]
        return
    for seat in order[:-1]:
        game.finish(seat)
