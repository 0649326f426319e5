"""Playing cards: a turn's play, a stacked draw card (§10.1), a jump-in (§10.2), a group of
cards (§10.3), and the house rules' wrong-play penalties (§10.7). Which plays are permitted is
decided in `playability.py` (`play_kind`, `may_play`), the one definition `legal_actions.py`
lists from too; what follows a play is in `resolve.py`."""

from __future__ import annotations

from .actions import Play
from .cards import UNKNOWN, Card
from .effects import Effect
from .errors import BadChoice, CardNotHeld, CardNotPlayable, NotYourTurn, WrongPhase
from .events import Event, Played, WentOut, Why
from .options import SEATS_LEFT_EDITION
from .playability import (
    Mode,
    jumps_in,
    may_play,
    only_the_drawn_card,
    passable,
    play_kind,
    shed_with,
    stacks,
    trade_targets,
    wd4_legal,
    why_not,
)
from .resolve import after_play, resolve
from .state import DealState, DutyKind, Knowledge, Phase


def push_play(game: DealState, action: Play, events: list[Event]) -> None:
    seat, c, group = action.seat, action.card, action.group
    turn = seat == game.turn and not game.duties  # (with a jump-in window open too)
    if turn and game.trusted:  # listed by the engine for this very state: already checked
        mode = Mode.TURN
    else:
        checked = _check_play(game, action, events)
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
    if not game.hands[seat] and game.rules.edition >= SEATS_LEFT_EDITION:
        game.leave(seat)
    if game.jumpin is not None:
        game.jump = (seat, c)


def _check_play(game: DealState, action: Play, events: list[Event]) -> Mode | None:
    """Which kind of play this is, once every check has passed; None when a wrong play was
    taken back with a penalty (§10.7, §10.2)."""
    seat, c, group = action.seat, action.card, action.group
    mode = play_mode(game, seat)
    cards = (c, *group) if group else (c,)
    _check_held(game, seat, (*cards, *action.also) if action.also else cards)
    if mode is Mode.TURN:
        _check_drawn(game, c, group)
    if not may_play(game, mode, seat, c, group):
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
    """Which kind of play `seat` may make now (`play_kind`); refuses, saying why, a play that
    is none of them."""
    mode = play_kind(game, seat)
    if mode is not None:
        return mode
    if game.phase is not Phase.PLAYING:
        raise WrongPhase(f"the deal is {game.phase.value.replace('_', ' ')}: cannot play")
    duty = game.duties[0] if game.duties else None
    if duty is not None and duty.seat == seat and passable(game, duty):
        raise CardNotPlayable("nobody is left to pass the penalty on to")
    game.expect(seat, "play")  # the reason it is not this player's turn
    raise NotYourTurn(f"P{seat} cannot play now")


def _refuse_or_penalise(game: DealState, mode: Mode, action: Play, events: list[Event]) -> None:
    """A wrong card: refused, or under §10.7 / §10.2 taken back with a 2-card penalty."""
    seat, c, group = action.seat, action.card, action.group
    rules = game.rules
    if mode is not Mode.TURN and _passes_on(game, mode, c, group):  # the right card, unplayable
        raise CardNotPlayable(why_not(game, seat, c, group))
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


def _passes_on(game: DealState, mode: Mode, c: Card, group: tuple[Card, ...]) -> bool:
    """`c` and its group are cards that may stack or jump in (§10.1, §10.2), whether or not
    the player may play them now."""
    if mode is Mode.STACK and stacks(game, game.duties[0], c):
        return all(other.face is c.face for other in group)
    return jumps_in(game, c) and all(other is c for other in group)


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
    drawn = only_the_drawn_card(game)
    if drawn is not None and (c is not drawn or group):
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
    if target not in trade_targets(game, seat):
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
    if game.exposed:  # a voluntary action closes the catch and jump-in windows
        game.close_windows()
    else:
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
