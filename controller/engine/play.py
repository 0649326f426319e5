"""Playing a card: what may be played (§3.1, §3.2) and what follows (§4, §5, §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Play
from .cards import UNKNOWN, Card, Face
from .effects import EFFECTS, Effect
from .errors import BadChoice, CardNotHeld, CardNotPlayable
from .events import (
    Event,
    FalseCall,
    Played,
    Reversed,
    Skipped,
    Traded,
    UnoCalled,
    UnoMissed,
    WentOut,
    Why,
)
from .state import Duty, DutyKind, Knowledge

if TYPE_CHECKING:
    from .game import Game


# ----------------------------------------------------------------------- what may be played


def matches(game: Game, c: Card) -> bool:
    """§3.1: the card fits the top card (colour, number or symbol), or it is a wild."""
    if c.is_wild:
        return True
    if game.free_lead:
        return c is not UNKNOWN
    return c.colour is game.colour or c.face is game.top.face


def playable(game: Game, seat: int, c: Card) -> bool:
    """`c` may be played by `seat` now, judged on the cards the engine can see."""
    if not matches(game, c):
        return False
    if not EFFECTS[c.face].may_be_last and len(game.hands[seat]) == 1:
        return False
    if c.face is Face.WILD_DRAW_FOUR and not wd4_bluff_allowed(game):
        return wd4_legal(game, seat, c) is not False
    return True


def wd4_bluff_allowed(game: Game) -> bool:
    rules = game.rules
    return rules.wd4_bluffing and rules.wd4_legality != "no_other_play"


def wd4_legal(game: Game, seat: int, played: Card) -> bool | None:
    """§3.2: whether playing this Wild Draw Four is legal (None: the hand is not known)."""
    others = [c for c in game.hands[seat] if c is not played]
    if UNKNOWN in others:
        return None
    rule = game.rules.wd4_legality
    if rule == "colour":
        return not any(c.colour is game.colour for c in others)
    if rule == "colour_or_face":
        top = game.top
        return not any(c.colour is game.colour or c.face is top.face for c in others)
    return not any(matches(game, c) and c.face is not Face.WILD_DRAW_FOUR for c in others)


def discarded_with(game: Game, seat: int, played: Card) -> list[Card]:
    """Discard All (§4.2): every other card in the hand of the played card's colour."""
    hand = game.hands[seat][:]
    hand.remove(played)
    return [c for c in hand if c.colour is played.colour]


# ----------------------------------------------------------------------- checking a play


def push_play(game: Game, action: Play, events: list[Event]) -> None:
    seat, c = action.seat, action.card
    game.expect(seat, "play")
    effect = EFFECTS[c.face]
    if game.drawn is not None:
        _check_drawn(game, c)
    _check_held(game, seat, (c, *action.also))
    if not playable(game, seat, c):
        raise CardNotPlayable(_why_not(game, seat, c))
    if c.is_wild is (action.colour is None):
        _refuse_colour(c)
    if effect.trade or action.target is not None:
        _check_target(game, seat, effect, action)
    also = _check_also(game, seat, effect, action) if effect.discard_colour or action.also else ()
    legal = wd4_legal(game, seat, c) if effect.challengeable else None
    _lay_down(game, seat, c, also, action, events)
    resolve(game, seat, c, effect, action, legal, events)
    _after_play(game, seat, action.uno, events)


def _check_drawn(game: Game, c: Card) -> None:
    drawn = game.drawn
    if drawn is not UNKNOWN and c is not drawn:
        raise CardNotPlayable(f"after drawing, only the drawn card ({drawn}) may be played")


def _check_held(game: Game, seat: int, cards: tuple[Card, ...]) -> None:
    """Every card is in the hand; at a table, cards nobody has seen (`?`) stand in for them."""
    hand = game.hands[seat]
    if len(cards) == 1 and (cards[0] in hand or UNKNOWN in hand):
        return
    spare_unknown = hand.count(UNKNOWN)
    for c in set(cards):
        short = cards.count(c) - (0 if c is UNKNOWN else hand.count(c))
        if short > 0:
            spare_unknown -= short
            if spare_unknown < 0:
                raise CardNotHeld(f"P{seat} does not hold {c}")


def _why_not(game: Game, seat: int, c: Card) -> str:
    if c is UNKNOWN:
        return "say which card was played"
    if matches(game, c) and len(game.hands[seat]) == 1:
        return f"{c.face.name.replace('_', ' ').title()} may not be your last card"
    if matches(game, c):
        return f"Wild Draw Four is only legal with {_WD4_NEEDS[game.rules.wd4_legality]}"
    return f"{c} does not match the top card {game.top} (active colour {game.colour})"


_WD4_NEEDS = {
    "colour": "no card of the active colour",
    "colour_or_face": "no card of the active colour, number or symbol",
    "no_other_play": "no other play",
}


def _refuse_colour(c: Card) -> None:
    if c.is_wild:
        raise BadChoice(f"name a colour for {c}")
    raise BadChoice(f"{c} is not a wild: it cannot name a colour")


def _check_target(game: Game, seat: int, effect: Effect, action: Play) -> None:
    target = action.target
    if not effect.trade:
        if target is not None:
            raise BadChoice(f"{action.card} does not trade hands")
        return
    if target is None:
        raise BadChoice("Trade Hands: choose the player to trade with")
    if target == seat or not 0 <= target < game.players or not game.active[target]:
        raise BadChoice(f"P{target} cannot be traded with")


def _check_also(game: Game, seat: int, effect: Effect, action: Play) -> tuple[Card, ...]:
    """The cards that go down with the played one (Discard All's colour)."""
    if not effect.discard_colour:
        if action.also:
            raise BadChoice(f"{action.card} is played alone")
        return ()
    colour = action.card.colour
    if any(c is not UNKNOWN and c.colour is not colour for c in action.also):
        raise BadChoice(f"Discard All sheds only {colour} cards")
    if game.knowledge is Knowledge.TABLE:
        return action.also
    required = discarded_with(game, seat, action.card)
    if action.also and sorted(action.also, key=id) != sorted(required, key=id):
        raise BadChoice(f"Discard All sheds every {colour} card in the hand")
    return tuple(required)


# ----------------------------------------------------------------------- what follows


def _lay_down(
    game: Game, seat: int, c: Card, also: tuple[Card, ...], action: Play, events: list[Event]
) -> None:
    hand = game.hands[seat]
    for down in (c, *also):
        try:
            hand.remove(down)
        except ValueError:  # at a table: a card nobody had seen
            hand.remove(UNKNOWN)
    game.exposed = None  # a voluntary action closes any catch window
    game.discard.extend(also)
    game.discard.append(c)
    game.colour = action.colour if c.is_wild else c.colour
    game.drawn = None
    game.free_lead = False
    events.append(Played(seat, c, game.colour, also))  # type: ignore[arg-type]


def resolve(
    game: Game,
    seat: int,
    c: Card,
    effect: Effect,
    action: Play,
    wd4_was_legal: bool | None,
    events: list[Event],
) -> None:
    """Apply the effect of `c`, played by `seat` (or treated as played by it), §4 and §7."""
    if effect.trade and action.target is not None:
        hands = game.hands
        hands[seat], hands[action.target] = hands[action.target], hands[seat]
        events.append(Traded(seat, action.target))
    if effect.reverse:
        game.direction = -game.direction
        events.append(Reversed(game.direction))
    victim = game.next_seat(seat)
    _charge(game, seat, victim, effect, wd4_was_legal, events)
    if effect.skip or (effect.reverse and game.active_count == 2):
        if not (effect.challengeable and wd4_bluff_allowed(game)):
            events.append(Skipped(victim))
        game.turn = game.next_seat(seat, 2)
    else:
        game.turn = victim


def _charge(
    game: Game,
    seat: int,
    victim: int,
    effect: Effect,
    wd4_was_legal: bool | None,
    events: list[Event],
) -> None:
    """What the card makes others draw or press."""
    duties = game.duties
    if effect.challengeable and wd4_bluff_allowed(game):
        duties.append(
            Duty(DutyKind.PENALTY, victim, effect.draw, Why.DRAW_FOUR, seat, wd4_was_legal)
        )
    elif effect.draw:
        why = Why.DRAW_FOUR if effect.wild else Why.DRAW_TWO
        game.draw(victim, effect.draw, why, events)
    if effect.presses:
        duties.append(Duty(DutyKind.PRESS, victim, effect.presses, Why.HIT_TWO))
    if effect.until_fire:
        duties.append(Duty(DutyKind.PRESS_UNTIL_FIRE, victim, 1, Why.HIT_FIRE))
    if effect.everyone_presses:
        duties.extend(
            Duty(DutyKind.PRESS, other, 1, Why.ALL_HIT) for other in game.seats_after(seat)
        )


def _after_play(game: Game, seat: int, called: bool, events: list[Event]) -> None:
    """§5 and §6: the UNO call (or its absence), and going out."""
    size = len(game.hands[seat])
    if size == 0:
        game.winner = seat
        events.append(WentOut(seat))
    elif game.in_uno_state(seat):
        if called:
            events.append(UnoCalled(seat))
        else:
            game.exposed = seat
            events.append(UnoMissed(seat))
    elif called:
        events.append(FalseCall(seat))
        if game.rules.uno_false_call_penalty:
            game.penalise(seat, Why.FALSE_CALL, events)
