"""The end of a deal (§6, and §8's blocked deal): counting the hands left. Match scoring is in
`match.py`."""

from __future__ import annotations

from .actions import EnterHand
from .cards import UNKNOWN, Card
from .errors import BadChoice, IllegalAction, WrongPhase
from .events import DealBlocked, DealEnded, Event
from .state import DealState, Knowledge, Phase


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


def push_enter_hand(game: DealState, action: EnterHand, events: list[Event]) -> None:
    """Table mode: the cards (or just the points) a player was left holding."""
    if game.phase is not Phase.SCORING:
        raise WrongPhase("hands are entered after the deal has ended")
    seat = action.seat
    if not 0 <= seat < game.players:
        raise IllegalAction(f"there is no P{seat}")
    if seat == game.winner:
        raise IllegalAction(f"P{seat} went out and holds no cards")
    game.shown[seat] = _counted(game, seat, action)
    if len(game.shown) == game.players:
        _finish(game, events)


def _counted(game: DealState, seat: int, action: EnterHand) -> tuple[int, int]:
    if action.points is not None:
        if action.cards:
            raise BadChoice("enter the cards or their points, not both")
        if action.points < 0:
            raise BadChoice("points cannot be negative")
        return action.points, len(game.hands[seat])
    if not action.cards:
        raise BadChoice(f"enter the cards P{seat} holds, or their points")
    if UNKNOWN in action.cards or not all(game.deck.holds(c) for c in action.cards):
        raise BadChoice(f"those are not all {game.deck.name} cards")
    return game.value(list(action.cards)), len(action.cards)


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
