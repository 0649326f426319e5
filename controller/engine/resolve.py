"""What follows a play (§4, §5, §7 and the house rules' §10): the card's effect, applied n times
for a group of n cards, from the seat of whoever played it; then the UNO call."""

from __future__ import annotations

from .actions import Play
from .cards import Card, Face
from .effects import PLAIN, Effect
from .events import Event, FalseCall, Reversed, Skipped, Traded, UnoCalled, UnoMissed, Why
from .playability import wd4_bluff_allowed
from .state import DealState, Duty, DutyKind


def resolve(
    game: DealState,
    seat: int,
    c: Card,
    n: int,
    action: Play,
    wd4_was_legal: bool | None,
    carried: int,
    events: list[Event],
) -> None:
    """Apply `n` cards of `c`'s face, played by `seat` (or treated as played by it)."""
    effect = game.effects[c.face]
    if effect is PLAIN:  # a number card: the next player plays
        game.turn = game.next_seat(seat)
        return
    if effect.trade and action.target is not None:
        _trade(game, seat, action.target, events)
    if effect.reverse and n % 2:
        game.direction = -game.direction
        events.append(Reversed(game.direction))
    victim = game.next_seat(seat)
    decided = charge(game, seat, victim, effect, n, wd4_was_legal, carried, events)
    game.turn = _next_turn(game, seat, c, effect, n, victim, decided, events)


def _trade(game: DealState, seat: int, target: int, events: list[Event]) -> None:
    hands = game.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    for traded in (seat, target):
        game.forget_call(traded)
        game.forget_missed(traded)
    events.append(Traded(seat, target))
    if game.rules.uno_after_trade_receiver and game.in_uno_state(target):
        game.exposed = (*game.exposed, target)
        events.append(UnoMissed(target))


def charge(
    game: DealState,
    seat: int,
    victim: int,
    effect: Effect,
    n: int,
    wd4_was_legal: bool | None,
    carried: int,
    events: list[Event],
) -> bool:
    """What the cards make others draw or press. True when the victim now has a decision
    to make (accept, challenge, pass it on) rather than simply losing the turn."""
    rules, duties = game.rules, game.duties
    if effect.draw:
        why = Why.DRAW_FOUR if effect.wild else Why.DRAW_TWO
        total = effect.draw * n + carried
        challengeable = effect.challengeable and wd4_bluff_allowed(game)
        if challengeable or rules.stacking or rules.jumpin:
            duties.append(
                Duty(DutyKind.PENALTY, victim, count=total, why=why, source=seat,
                     challengeable=challengeable, legal=wd4_was_legal, share=effect.draw * n)
            )  # fmt: skip
            return True
        game.draw(victim, total, why, events)
    if effect.presses:
        count = effect.presses * n + carried
        stackable = rules.attack_stack_hits
        duties.append(
            Duty(DutyKind.PRESS, victim, count=count, why=Why.HIT_TWO, stackable=stackable)
        )
        return stackable
    if effect.until_fire:
        duties.append(Duty(DutyKind.PRESS_UNTIL_FIRE, victim, count=n, why=Why.HIT_FIRE))
    if effect.everyone_presses:
        others = game.seats_after(seat)
        duties.extend(Duty(DutyKind.PRESS, other, count=n, why=Why.ALL_HIT) for other in others)
    return False


def _next_turn(
    game: DealState,
    seat: int,
    c: Card,
    effect: Effect,
    n: int,
    victim: int,
    decided: bool,
    events: list[Event],
) -> int:
    """Whose turn follows: §4 skips, §7 two-player rules, §10.3 n Skips, §10.5 replays."""
    face = c.face
    if face is Face.SKIP or face is Face.REVERSE:
        if game.rules.replay_any_count and game.active[seat]:
            return seat
        two_players = game.active_count == 2 and game.active[seat]
        skips = n if face is Face.SKIP or two_players else 0
    else:
        skips = 1 if effect.skip else 0
    if not skips:
        return victim
    if skips == 1:
        if not decided:
            events.append(Skipped(victim))
        return game.next_seat(seat, 2)
    return _skip_many(game, seat, face, skips, events)


def _skip_many(game: DealState, seat: int, face: Face, skips: int, events: list[Event]) -> int:
    """§10.3: n Skips (or, with two players, n Reverses) skip n seats, counting the player's
    own, or only opponents under multi_skip_opponents_only."""
    if face is Face.SKIP and game.rules.multi_skip_opponents_only:
        order = game.seats_after(seat)
        events.extend(Skipped(s) for s in order[: min(skips, len(order))])
        return order[skips % len(order)]
    passed = [game.next_seat(seat, k) for k in range(1, skips + 1)]
    events.extend(Skipped(s) for s in passed if s != seat)
    return game.next_seat(seat, skips + 1)


def after_play(game: DealState, seat: int, called: bool, out: bool, events: list[Event]) -> None:
    """§5: the UNO call, or its absence, judged on the hand after the play."""
    if out:
        return
    if game.called:
        game.forget_call(seat)
    if game.caught or game.late:
        game.forget_missed(seat)
    if game.in_uno_state(seat):
        if called:
            game.called = (*game.called, seat)
            events.append(UnoCalled(seat))
        else:
            game.exposed = (*game.exposed, seat)
            events.append(UnoMissed(seat))
    elif called:
        events.append(FalseCall(seat))
        if game.rules.uno_false_call_penalty:
            game.penalise(seat, Why.FALSE_CALL, events)
