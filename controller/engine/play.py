"""Playing cards: a turn's play, a stacked draw card (§10.1), a jump-in (§10.2), a group of
cards (§10.3), and the house rules' wrong-play penalties (§10.7). What follows a play is in
`resolve.py`; what may be played in `legality.py`."""

from __future__ import annotations

from enum import Enum

from .actions import Play
from .cards import UNKNOWN, Card
from .effects import Effect
from .errors import BadChoice, CardNotHeld, CardNotPlayable, WrongPhase
from .events import Event, Played, WentOut, Why
from .playability import jumps_in, playable, shed_with, stacks, wd4_legal, why_not
from .resolve import after_play, resolve
from .state import DealState, Duty, DutyKind, Knowledge, Phase


class Mode(Enum):
    TURN = "turn"  # the player whose turn it is
    STACK = "stack"  # the victim of a draw (or Hit 2) passes it on
    JUMP = "jump"  # anyone else, out of turn, with an identical card


def push_play(game: DealState, action: Play, events: list[Event]) -> None:
    seat, c, group = action.seat, action.card, action.group
    turn = seat == game.turn and not game.duties  # (with a jump-in window open too)
    if turn and game.trusted:  # listed by the engine for this very state: already checked
        mode = Mode.TURN
    else:
        checked = _check_play(game, action, turn, events)
        if checked is None:
            return
        mode = checked
        turn = mode is Mode.TURN
    cards = (c, *group) if group else (c,)
    effect = game.effects[c.face]
    also: tuple[Card, ...] = ()
    legal = None
    if (
        effect.trade
        or effect.discard_colour
        or effect.challengeable
        or action.target is not None
        or action.also
    ):
        also, legal = _check_choices(game, mode, seat, effect, action, cards)
    carried = 0 if turn else _take_pending(game, mode)
    _lay_down(game, seat, cards, also, action, events)
    out = not game.hands[seat] and _went_out(game, seat, events)
    resolve(game, seat, c, len(cards), action, legal, carried, events)
    after_play(game, seat, action.uno, out, events)
    if not game.hands[seat]:
        game.leave(seat)
    if game.jumpin is not None:
        game.jump = (seat, c)


def _check_play(game: DealState, action: Play, turn: bool, events: list[Event]) -> Mode | None:
    """Which kind of play this is, once every check has passed; None when a wrong play was
    taken back with a penalty (§10.7, §10.2)."""
    seat, c, group = action.seat, action.card, action.group
    if turn:
        game.expect(seat, "play")
        mode = Mode.TURN
    else:
        mode = play_mode(game, seat)
        turn = mode is Mode.TURN
    cards = (c, *group) if group else (c,)
    _check_held(game, seat, (*cards, *action.also) if action.also else cards)
    if turn and game.drawn is not None:
        _check_drawn(game, c, group)
    if not (playable(game, seat, c, group) if turn else _allowed(game, mode, seat, c, group)):
        _refuse_or_penalise(game, mode, action, events)
        return None
    if c.is_wild is (action.colour is None):
        _refuse_colour(c)
    return mode


def _check_choices(
    game: DealState, mode: Mode, seat: int, effect: Effect, action: Play, cards: tuple[Card, ...]
) -> tuple[tuple[Card, ...], bool | None]:
    """The target, the cards that go down with a Discard All, and (for a Wild Draw Four)
    whether the play is legal."""
    if effect.trade or action.target is not None:
        _check_target(game, seat, effect, action)
    also = _check_also(game, seat, effect, action) if effect.discard_colour or action.also else ()
    legal = wd4_legal(game, seat, cards) if effect.challengeable else None
    if mode is Mode.STACK and game.rules.stack_wd4_ignores_legality and effect.challengeable:
        legal = True
    return also, legal


def play_mode(game: DealState, seat: int) -> Mode:
    """Which kind of play `seat` may make now; refuses a play that is none of them."""
    if game.phase is not Phase.PLAYING:
        raise WrongPhase(f"the deal is {game.phase.value.replace('_', ' ')}: cannot play")
    duty = game.duties[0] if game.duties else None
    if duty is not None and duty.seat == seat and _passable(game, duty):
        if not game.can_pass_on(seat):
            raise CardNotPlayable("nobody is left to pass the penalty on to")
        return Mode.STACK
    window_open = game.jump is not None and game.jump[0] != seat and game.jumpin is not None
    out_of_turn = duty is not None or seat != game.turn
    if window_open and out_of_turn and game.hands[seat] and game.active[seat]:
        return Mode.JUMP
    game.expect(seat, "play")
    return Mode.TURN


def _passable(game: DealState, duty: Duty) -> bool:
    """The duty may be answered with a card (stacking, or a jump-in by its victim)."""
    if duty.kind is DutyKind.PRESS:
        return duty.stackable
    return duty.kind is DutyKind.PENALTY and (
        game.rules.stacking is not None or game.jumpin is not None
    )


def _allowed(game: DealState, mode: Mode, seat: int, c: Card, group: tuple[Card, ...]) -> bool:
    """A stacked or jumped-in card (§10.1, §10.2)."""
    if mode is Mode.JUMP or not stacks(game, game.duties[0], c):
        if not (jumps_in(game, c) and all(other is c for other in group)):
            return False
        return not group or playable(game, seat, c, group)
    return all(other.face is c.face for other in group) and playable(game, seat, c, group)


def _refuse_or_penalise(game: DealState, mode: Mode, action: Play, events: list[Event]) -> None:
    """A wrong card: refused, or under §10.7 / §10.2 taken back with a 2-card penalty."""
    seat, c, group = action.seat, action.card, action.group
    rules = game.rules
    if mode is Mode.JUMP:
        if not rules.wrong_jumpin_penalty or c is UNKNOWN:
            raise CardNotPlayable(f"only a card identical to {game.jump_card} can jump in")
        game.penalise(seat, Why.WRONG_JUMP_IN, events)
        return
    if mode is Mode.STACK:
        raise CardNotPlayable(f"{c} cannot answer the {game.top}: accept it or pass it on")
    if not rules.wrong_play_penalty or c is UNKNOWN:
        raise CardNotPlayable(why_not(game, seat, c, group))
    game.close_windows()
    game.penalise(seat, Why.WRONG_PLAY, events)
    if not game.duties or rules.attack:
        game.end_turn(seat)


def _take_pending(game: DealState, mode: Mode) -> int:
    """A stacked or jumped-in card takes over the pending draw or presses (§10.1, §10.2)."""
    if mode is Mode.TURN or not game.duties:
        return 0
    duty = game.duties[0]
    if duty.kind not in (DutyKind.PENALTY, DutyKind.PRESS):
        return 0
    if mode is Mode.JUMP and duty.seat != game.next_seat(game.jump_seat):
        return 0
    game.duties.pop(0)
    accumulate = mode is Mode.STACK or game.rules.jumpin_draw_accumulate
    return duty.count if accumulate else 0


def _check_drawn(game: DealState, c: Card, group: tuple[Card, ...]) -> None:
    drawn = game.drawn
    if drawn is not UNKNOWN and game.pressed is False and (c is not drawn or group):
        raise CardNotPlayable(f"after drawing, only the drawn card ({drawn}) may be played")


def _check_held(game: DealState, seat: int, cards: tuple[Card, ...]) -> None:
    """Every card is in the hand; at a table, cards nobody has seen (`?`) stand in for them."""
    hand = game.hands[seat]
    if len(cards) == 1 and cards[0] in hand:
        return
    spare_unknown = hand.count(UNKNOWN)
    for c in set(cards):
        short = cards.count(c) - (0 if c is UNKNOWN else hand.count(c))
        if short > 0:
            spare_unknown -= short
            if spare_unknown < 0:
                raise CardNotHeld(f"P{seat} does not hold {c}")
            if c is not UNKNOWN and game.unseen_copies(c) < short:
                raise CardNotHeld(
                    f"every copy of {c} is already in sight (the discard pile or a shown "
                    "hand): say which card was really played"
                )


def _refuse_colour(c: Card) -> None:
    if c.is_wild:
        raise BadChoice(f"name a colour for {c}")
    raise BadChoice(f"{c} is not a wild: it cannot name a colour")


def _check_target(game: DealState, seat: int, effect: Effect, action: Play) -> None:
    target = action.target
    if not effect.trade:
        if target is not None:
            raise BadChoice(f"{action.card} does not trade hands")
        return
    if target is None:
        raise BadChoice("Trade Hands: choose the player to trade with")
    if target == seat or not 0 <= target < game.players or not game.active[target]:
        raise BadChoice(f"P{target} cannot be traded with")


def _check_also(game: DealState, seat: int, effect: Effect, action: Play) -> tuple[Card, ...]:
    """The cards that go down with a Discard All: every card of its colour(s), or under
    discard_all_choose_subset the ones the player chose."""
    if not effect.discard_colour:
        raise BadChoice(f"{action.card} is played alone")
    colours = {c.colour for c in (action.card, *action.group)}
    if any(c is not UNKNOWN and c.colour not in colours for c in action.also):
        raise BadChoice(f"Discard All sheds only {'/'.join(sorted(map(str, colours)))} cards")
    if game.knowledge is Knowledge.TABLE:
        return action.also
    required = shed_with(game, seat, (action.card, *action.group))
    if game.rules.discard_all_choose_subset:
        return action.also
    if action.also and sorted(action.also, key=id) != sorted(required, key=id):
        raise BadChoice("Discard All sheds every card of its colour in the hand")
    return tuple(required)


def _lay_down(
    game: DealState,
    seat: int,
    cards: tuple[Card, ...],
    also: tuple[Card, ...],
    action: Play,
    events: list[Event],
) -> None:
    hand, c = game.hands[seat], cards[0]
    rest = cards[1:]
    for down in (*cards, *also) if also or rest else cards:
        try:
            hand.remove(down)
        except ValueError:  # at a table: a card nobody had seen
            hand.remove(UNKNOWN)
    if also or rest:
        game.discard.extend(also)
        game.discard.extend(rest)
    game.discard.append(c)
    colour = action.colour if c.is_wild else c.colour
    game.colour = colour
    game.exposed = ()  # a voluntary action closes the catch and jump-in windows
    game.jump = None
    game.drawn = None
    game.pressed = False
    game.free_lead = False
    game.empty_turns = 0  # §8: a play ends any round of empty turns
    events.append(Played(seat, c, colour, also, rest))  # type: ignore[arg-type]


def _went_out(game: DealState, seat: int, events: list[Event]) -> bool:
    """§6 and §9.3: an empty hand wins the deal, or leaves it under within-deal elimination.
    (A jump-in on the winning card that empties the jumper's hand wins nothing more.)"""
    if game.hands[seat]:
        return False
    elimination = game.elimination
    if game.winner is not None and not elimination:
        return False
    events.append(WentOut(seat))
    if elimination:
        game.finish(seat)
    else:
        game.winner = seat
    return True
