"""Claims any player may make at any moment (§5, §3.4): calling UNO, catching a missed UNO,
and owning up to a suggestion. A true claim has its effect; a false one costs its maker.
Also the table's hand-count correction, which a person may make at any moment too.

`may_call_uno`, `may_catch` and `may_suggest` say which claims are true now: `legal_actions`
lists those, and the handlers give them their effect."""

from __future__ import annotations

from .actions import CallUno, Catch, Correct, Suggest
from .cards import UNKNOWN
from .errors import IllegalAction, TooLate, WrongPhase
from .events import Caught, Corrected, Event, FalseAccusation, FalseCall, UnoCalled, Why
from .state import DealState, Knowledge, Phase


def may_claim(game: DealState, seat: int) -> bool:
    """`seat` may make a claim now: the deal is being played and it still holds cards."""
    return (
        game.phase is Phase.PLAYING
        and 0 <= seat < game.players
        and game.active[seat]
        and bool(game.hands[seat])
    )


def may_call_uno(game: DealState, seat: int) -> bool:
    """A true UNO call: `seat`'s hand is in the UNO state (§5)."""
    return may_claim(game, seat) and game.in_uno_state(seat)


def may_catch(game: DealState, seat: int, target: int) -> bool:
    """A true catch: `target` missed the UNO call and its catch window is still open (§5)."""
    return seat != target and target in game.exposed and may_claim(game, seat)


def may_suggest(game: DealState, seat: int) -> bool:
    """Attack (§3.4): `seat` may own up to a suggestion, and press 4 times for it."""
    return game.attack and game.rules.suggestion_penalty and may_claim(game, seat)


def _check_claimant(game: DealState, seat: int, what: str) -> None:
    if may_claim(game, seat):
        return
    if game.phase is not Phase.PLAYING:
        raise WrongPhase(f"the deal is {game.phase.value.replace('_', ' ')}: cannot {what}")
    if not 0 <= seat < game.players or not game.active[seat]:
        raise IllegalAction(f"P{seat} is not playing this deal")
    if not game.hands[seat]:
        raise IllegalAction(f"P{seat} has gone out")


def push_call_uno(game: DealState, action: CallUno, events: list[Event]) -> None:
    seat = action.seat
    _check_claimant(game, seat, "call UNO")
    if may_call_uno(game, seat):
        game.exposed = tuple(s for s in game.exposed if s != seat)
        game.called = (*(s for s in game.called if s != seat), seat)
        events.append(UnoCalled(seat))
        return
    events.append(FalseCall(seat))
    if game.rules.uno_false_call_penalty:
        game.penalise(seat, Why.FALSE_CALL, events)


def push_catch(game: DealState, action: Catch, events: list[Event]) -> None:
    seat, target = action.seat, action.target
    _check_claimant(game, seat, "catch a missed UNO")
    if target == seat:
        raise IllegalAction("you cannot catch yourself: call UNO instead")
    if not 0 <= target < game.players:
        raise IllegalAction(f"there is no P{target}")
    if may_catch(game, seat, target):
        game.exposed = tuple(s for s in game.exposed if s != target)
        game.caught = (*game.caught, target)
        events.append(Caught(seat, target))
        game.penalise(target, Why.UNO, events)
        return
    if game.in_uno_state(target) and target not in game.called and game.hands[target]:
        raise TooLate(uncatchable(game, target))
    events.append(FalseAccusation(seat, target))
    if game.rules.uno_false_accusation_penalty:
        game.penalise(seat, Why.FALSE_ACCUSATION, events)


def uncatchable(game: DealState, target: int) -> str:
    """Why `target`, in the UNO state without having called, cannot be caught (nobody pays)."""
    if target in game.caught:
        return f"P{target} has already been caught for this card: one penalty per missed call"
    if target in game.late:
        return (
            f"too late to catch P{target}: play went on after their card "
            "(the catch window closes at the next play, draw or press)"
        )
    return f"P{target} owes no UNO call: no play of theirs left them in the UNO state"


def push_suggest(game: DealState, action: Suggest, events: list[Event]) -> None:
    seat = action.seat
    _check_claimant(game, seat, "take the suggestion penalty")
    if not may_suggest(game, seat):
        raise IllegalAction("this table has no suggestion penalty")
    game.owe_presses(seat, 4, Why.SUGGESTION, events)


def push_correct(game: DealState, action: Correct, events: list[Event]) -> None:
    """Table mode: set a hand's size, moving unseen cards between the hand and the pile."""
    seat, count = action.seat, action.count
    if game.phase not in (Phase.TURN_UP, Phase.PLAYING):
        raise WrongPhase("hand counts are corrected while the deal is dealt or played")
    if not 0 <= seat < game.players or not game.active[seat] or not game.hands[seat]:
        raise IllegalAction(f"P{seat} holds no cards in this deal")
    if game.knowledge is not Knowledge.TABLE:
        raise IllegalAction("hand counts are corrected at a table, not in a simulation")
    hand, before = game.hands[seat], len(game.hands[seat])
    if count < 1:
        raise IllegalAction("a player with no cards has gone out: play the last card instead")
    spare = len(game.unaccounted) + len(game.pile)
    if count - before > spare:
        raise IllegalAction(f"only {spare} cards are unaccounted for")
    if before - count > hand.count(UNKNOWN):
        raise IllegalAction(f"P{seat}'s known cards cannot be taken away")
    for _ in range(count - before):  # the cards nobody counted first, then the launcher's
        (game.unaccounted or game.pile).pop()
        hand.append(UNKNOWN)
    for _ in range(before - count):
        hand.remove(UNKNOWN)
        game.pile.append(UNKNOWN)
    events.append(Corrected(seat, before, count))
