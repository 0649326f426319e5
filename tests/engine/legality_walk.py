"""A random walk through a deal that checks, at every state it reaches, that what the engine
lists and what it accepts are the same thing, both ways:

- every listed action is accepted (pushed as an equal object, not the listed one, so the check
  runs rather than the shortcut for actions the engine just listed), and not as a mistake
  that only costs its maker;
- every accepted action was listed, up to the choices a listing cannot spell out: a play's UNO
  call (with or without), the cards a Discard All sheds (`also`), the order in which a group's
  cards go down under its top card, a press's count, the verdict the players saw in a
  challenged hand, the hand a player enters after the deal; and at a table, where hands are
  unseen, the cards that go down with a group (the tablet starts a group from a listed play of
  one of its cards). The exceptions only cost their maker, as the rules say: a wrong play or
  jump-in (§10.7, §10.2), a false UNO call or accusation (§5), owning up to a suggestion
  (§3.4). A referee's hand-count `Correct` at a table is outside the rules of play and never
  listed.

Candidates are random and include out-of-turn ones: jump-ins, catches, UNO calls, challenges,
presses, plays by the wrong seat and plays of cards the player does not hold."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from controller.engine import (
    COLOURS,
    UNKNOWN,
    Accept,
    Action,
    CallUno,
    Card,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    EnterHand,
    Game,
    IllegalAction,
    Knowledge,
    Pass,
    Phase,
    Play,
    Press,
    Suggest,
    TurnUp,
)
from controller.engine.cards import Face
from controller.engine.events import Event, FalseAccusation, FalseCall, Reshuffled, Why

SELF_COSTS = frozenset(
    {Why.WRONG_PLAY, Why.WRONG_JUMP_IN, Why.FALSE_CALL, Why.FALSE_ACCUSATION, Why.SUGGESTION}
)
"""What an action that only costs its maker is charged for."""

CLAIMS_AND_PLAYS = (Play, CallUno, Catch, Suggest)
"""The actions that can be accepted only to cost their maker."""


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """One state where the listing and the check disagreed: what, and which action."""

    what: str
    action: Action
    state: str

    def __str__(self) -> str:
        return f"{self.what}: {self.action!r}\n{self.state}"


def outcome(action: Action, rng: random.Random) -> Action:
    """A listed action as pushed: a press with a launcher count, a hand entered by its
    points."""
    if type(action) is Press:
        return Press(action.seat, rng.choice((0, 1, 2)))
    if type(action) is EnterHand:
        return EnterHand(action.seat, points=rng.randint(0, 10))
    return action


def fresh(action: Action) -> Action:
    """An equal action that is not the object the engine listed."""
    return dataclasses.replace(action)


def accepted(game: Game, action: Action) -> list[Event] | None:
    """The events of `action` pushed on a copy of `game`, or None when it is refused."""
    try:
        return game.copy().push(action)
    except IllegalAction as error:
        assert str(error), f"{action!r} refused without a reason"
        return None


def only_costs_its_maker(events: list[Event]) -> bool:
    """The action did nothing but cost its maker a penalty: a wrong play or jump-in, a false
    call or accusation, owning up to a suggestion."""
    kept = [e for e in events if not isinstance(e, Reshuffled)]
    claims = [e for e in kept if isinstance(e, (FalseCall, FalseAccusation))]
    penalties = [e for e in kept if e not in claims]
    return bool(kept) and all(getattr(e, "why", None) in SELF_COSTS for e in penalties)


def listed_as(game: Game, action: Action, listed: set[Action]) -> bool:
    """`action` is in `listed` once the choices a listing cannot spell out are set aside."""
    if action in listed:
        return True
    kind = type(action)
    if kind is Play:
        return _play_listed(game, action, listed)  # type: ignore[arg-type]
    if kind is Press:
        return Press(action.seat) in listed  # type: ignore[union-attr]
    if kind is Challenge:
        return Challenge(action.seat) in listed  # type: ignore[union-attr]
    if kind is EnterHand:
        return EnterHand(action.seat) in listed  # type: ignore[union-attr]
    return False


def _play_listed(game: Game, play: Play, listed: set[Action]) -> bool:
    group = tuple(sorted(play.group, key=lambda c: c.text))  # listed in one order
    plain = dataclasses.replace(play, also=(), group=group)
    if plain in listed or dataclasses.replace(plain, uno=not plain.uno) in listed:
        return True
    if play.group and UNKNOWN in game.hands[play.seat]:  # a group built at a table
        return any(
            type(a) is Play and a.seat == play.seat and a.card in (play.card, *play.group)
            for a in listed
        )
    return False


# ---------------------------------------------------------------- random candidates


def candidates(game: Game, rng: random.Random, count: int) -> list[Action]:
    """`count` random actions, most of them plausible at this state, many out of turn; and
    every distinct card held by the player to move and, while a jump-in window is open, the
    identical card by everyone holding it."""
    return [rng.choice(_MAKERS)(game, rng) for _ in range(count)] + _every_card_held(game, rng)


def _every_card_held(game: Game, rng: random.Random) -> list[Action]:
    mover, jump = game.to_move(), game.jump_card
    found: list[Action] = []
    if mover is not None:
        held = dict.fromkeys(c for c in game.hands[mover] if c is not UNKNOWN)
        found += [_single(game, mover, c, rng) for c in held]
    if jump is not None:
        holders = [seat for seat, hand in enumerate(game.hands) if jump in hand]
        found += [_single(game, seat, jump, rng) for seat in holders if seat != mover]
    return found


def _single(game: Game, seat: int, c: Card, rng: random.Random) -> Play:
    """`seat` plays `c` alone, naming a colour or a target when it needs one."""
    colour = rng.choice(COLOURS) if c.is_wild else None
    target = rng.randrange(game.players) if game.effects[c.face].trade else None
    uno = len(game.hands[seat]) == 2
    return Play(seat, c, colour, target, (), uno)


def _seat(game: Game, rng: random.Random) -> int:
    mover = game.to_move()
    if mover is not None and rng.random() < 0.4:
        return mover
    return rng.randrange(game.players)


def _deck_card(game: Game, rng: random.Random) -> Card:
    return rng.choice(game.deck.counts)[0]


def _held_or_any(game: Game, seat: int, rng: random.Random) -> Card:
    hand = [c for c in game.hands[seat] if c is not UNKNOWN]
    if hand and rng.random() < 0.7:
        return rng.choice(hand)
    return _deck_card(game, rng)


def _play(game: Game, rng: random.Random) -> Action:
    seat = _seat(game, rng)
    jump = game.jump_card
    c = jump if jump is not None and rng.random() < 0.3 else _held_or_any(game, seat, rng)
    colour = rng.choice(COLOURS) if c.is_wild and rng.random() < 0.9 else None
    target = None
    if c.face is Face.TRADE_HANDS or rng.random() < 0.03:
        target = rng.randrange(game.players)
    return Play(seat, c, colour, target, (), rng.random() < 0.3, _group(game, seat, c, rng))


def _group(game: Game, seat: int, c: Card, rng: random.Random) -> tuple[Card, ...]:
    if game.multi is None or rng.random() < 0.5:
        return ()
    if game.knowledge is Knowledge.TABLE:  # unseen cards: any of the face may stand in
        same = [x for x, _ in game.deck.counts if x.face is c.face]
        return tuple(rng.choice(same) for _ in range(rng.randint(1, 2)))
    hand = game.hands[seat][:]
    if c in hand:
        hand.remove(c)
    mates = [x for x in hand if x.face is c.face]
    rng.shuffle(mates)
    return tuple(mates[: rng.randint(1, 3)])


def _also(game: Game, rng: random.Random) -> Action:
    """A Discard All with cards chosen to go along (right, wrong or unseen)."""
    seat = _seat(game, rng)
    colour = rng.choice(COLOURS)
    held = [x for x in game.hands[seat] if x.colour is colour or x is UNKNOWN]
    also = tuple(rng.sample(held, rng.randint(0, len(held)))) if held else ()
    card = next((c for c, _ in game.deck.counts if c.face is Face.DISCARD_ALL), None)
    if card is None:
        return _play(game, rng)
    return Play(seat, card, None, None, also, rng.random() < 0.3)


def _enter_hand(game: Game, rng: random.Random) -> Action:
    seat = _seat(game, rng)
    if rng.random() < 0.3:
        return EnterHand(seat, points=rng.randint(0, 60))
    size = len(game.hands[seat]) + rng.choice((0, 0, 0, 1, -1))
    return EnterHand(seat, tuple(_deck_card(game, rng) for _ in range(max(size, 0))))


_MAKERS: tuple[Callable[[Game, random.Random], Action], ...] = (
    _play,
    _play,
    _play,
    _also,
    lambda g, r: Catch(_seat(g, r), r.choice((*g.exposed, r.randrange(g.players)))),
    lambda g, r: CallUno(_seat(g, r)),
    lambda g, r: Challenge(_seat(g, r), r.choice((None, True, False))),
    lambda g, r: Press(_seat(g, r), r.choice((0, 1, 3))),
    lambda g, r: Draw(_seat(g, r)),
    lambda g, r: Pass(_seat(g, r)),
    lambda g, r: Accept(_seat(g, r)),
    lambda g, r: ChooseColour(_seat(g, r), r.choice(COLOURS)),
    lambda g, r: Suggest(_seat(g, r)),
    lambda g, r: TurnUp(_deck_card(g, r)),
    _enter_hand,
)


# ---------------------------------------------------------------- the checks


def check_state(game: Game, rng: random.Random, tries: int) -> list[Disagreement]:
    """Both directions at this state: every listed action (up to `tries` plays of them, every
    other kind) is accepted, and every accepted random candidate was listed."""
    listed = game.legal_actions()
    found = _listed_refused(game, listed, rng, tries)
    offered = set(listed)
    for seat in range(game.players):  # the table's quick check before a press goes to the motor
        if game.may_press(seat) != (Press(seat) in offered):
            found.append(Disagreement("may_press disagrees", Press(seat), _describe(game)))
    for action in candidates(game, rng, tries):
        events = accepted(game, action)
        if events is None or listed_as(game, action, offered) or _penalised(action, events):
            continue
        found.append(Disagreement("accepted but not listed", action, _describe(game)))
    return found


def _listed_refused(
    game: Game, listed: list[Action], rng: random.Random, tries: int
) -> list[Disagreement]:
    plays = [a for a in listed if type(a) is Play]
    turn_ups = [a for a in listed if type(a) is TurnUp]
    sample = [a for a in listed if type(a) is not Play and type(a) is not TurnUp]
    sample += rng.sample(plays, min(tries, len(plays)))
    sample += rng.sample(turn_ups, min(3, len(turn_ups)))
    found = []
    for action in sample:
        events = accepted(game, fresh(outcome(action, rng)))
        if events is None:
            found.append(Disagreement("listed but refused", action, _describe(game)))
        elif type(action) in CLAIMS_AND_PLAYS and only_costs_its_maker(events):
            found.append(Disagreement("listed but penalised", action, _describe(game)))
    return found


def _penalised(action: Action, events: list[Event]) -> bool:
    """Accepted unlisted, as the rules say: an action that only costs its maker."""
    return type(action) in CLAIMS_AND_PLAYS and only_costs_its_maker(events)


def _describe(game: Game) -> str:
    duty = game.duties[0] if game.duties else None
    return (
        f"rules={game.rules.changed()} game={game.rules.game} knowledge={game.knowledge}\n"
        f"phase={game.phase} turn={game.turn} duty={duty} top={game.discard[-1:]} "
        f"colour={game.colour} jump={game.jump} drawn={game.drawn} exposed={game.exposed} "
        f"winner={game.winner} active={game.active}\nhands={game.hands}"
    )


def step(game: Game, rng: random.Random, tries: int) -> list[Event]:
    """Move the walk on: mostly a listed action (a play when there is one, the UNO call
    sometimes forgotten), now and then an accepted random candidate (often a penalised mistake)."""
    if rng.random() < 0.1:
        for action in candidates(game, rng, tries):
            if accepted(game, action) is not None:
                return game.push(action)
    listed = game.legal_actions()
    plays = [a for a in listed if type(a) is Play]
    chosen = rng.choice(plays if plays and rng.random() < 0.7 else listed)
    if type(chosen) is Play and chosen.uno and rng.random() < 0.3:
        chosen = dataclasses.replace(chosen, uno=False)
    return game.push(outcome(chosen, rng))


def walk(game: Game, rng: random.Random, steps: int, tries: int) -> list[Disagreement]:
    """Check `steps` states of a deal (or all of them, if it ends first)."""
    found: list[Disagreement] = []
    for _ in range(steps):
        if game.phase is Phase.OVER:
            break
        found += check_state(game, rng, tries)
        if found:
            break
        step(game, rng, tries)
    return found
