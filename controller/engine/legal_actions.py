"""The actions the rules accept now, listed for `Game.legal_actions()` and `Game.moves()`.

Nothing here decides what is allowed: each entry is a candidate that passed the very predicate
`Game.push` checks that action with: `playability.play_kind` and `may_play` for plays, and the
handlers' `may_draw`, `may_pass`, `may_press` (drawing), `may_call_uno`, `may_catch` (claims)
and `may_enter_hand` (scoring). A duty's answers (accept, challenge, name a colour) are listed
for the duty the handlers look up, and any card of the deck may be turned up. This module only
enumerates the candidates (the cards a player could hold, the groups, colours, targets and the
UNO call), with quick paths for common rule sets that must list exactly what the full
enumeration lists (tests/engine/test_one_legality_path.py checks both directions)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

from .actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    EnterHand,
    Pass,
    Play,
    Press,
    TurnUp,
)
from .cards import COLOURS, UNKNOWN, Card, Colour
from .claims import may_call_uno, may_catch
from .drawing import may_draw_on_turn, may_pass_on_turn, may_press, may_press_on_turn
from .playability import (
    Mode,
    could_pass_on,
    matches,
    may_play,
    only_the_drawn_card,
    play_kind,
    trade_targets,
)
from .scoring import may_enter_hand
from .state import DealState, DutyKind, Knowledge, Phase, uno_state


def all_actions(game: DealState) -> list[Action]:
    phase = game.phase
    if phase is Phase.PLAYING:
        found = duty_actions(game) if game.duties else turn_actions(game)
        found.extend(claims(game))
        if game.jump is not None:
            found.extend(jump_ins(game))
        return found
    if phase is Phase.TURN_UP:
        return [TurnUp(c) for c, _ in game.deck.counts]  # any card of the deck
    if phase is Phase.SCORING:
        return [EnterHand(seat) for seat in range(game.players) if may_enter_hand(game, seat)]
    return []


def duty_actions(game: DealState) -> list[Action]:
    duty = game.duties[0]
    seat = duty.seat
    if duty.kind is DutyKind.CHOOSE_COLOUR:
        return [ChooseColour(seat, colour) for colour in COLOURS]
    found: list[Action] = []
    if duty.kind is DutyKind.PENALTY:
        if duty.challengeable and duty.legal is None and game.hands[duty.source]:
            found += [Challenge(seat, True), Challenge(seat, False)]
        elif duty.challengeable:
            found.append(Challenge(seat))
        found.append(Accept(seat))
    elif may_press(game, seat):
        found.append(_PRESSES[seat])
    return found + _passing_on(game, seat)


def _passing_on(game: DealState, seat: int) -> list[Action]:
    """The victim's cards that pass the penalty on: stacking (§10.1), or jumping in (§10.2)."""
    if play_kind(game, seat) is not Mode.STACK:
        return []
    found: list[Action] = []
    for c in _candidates(game, game.hands[seat]):
        if could_pass_on(game, c):  # (no other card passes `may_play` here: skip them quickly)
            found += plays(game, Mode.STACK, seat, c, groups=True)
    return found


def turn_actions(game: DealState) -> list[Action]:
    """The plays of the player whose turn it is, then the one other thing they may do (keep
    the drawn card, pass after pressing, press, or draw), last."""
    seat = game.turn
    if game.drawn is not None:
        only = only_the_drawn_card(game)
        found = _plays_from(game, seat, game.hands[seat] if only is None else [only])
    else:
        found = _plays_from(game, seat, game.hands[seat])
    # It is `seat`'s turn (no duty is owed): the predicates' `_on_turn` forms apply. Which of
    # the three it can be is plain from the state: after drawing or pressing, passing; in
    # Attack, pressing; in classic, drawing.
    if game.drawn is not None or game.pressed:
        if may_pass_on_turn(game, seat):
            found.append(_PASSES[seat])
    elif game.attack:
        if may_press_on_turn(game):
            found.append(_PRESSES[seat])
    elif may_draw_on_turn(game, seat):
        found.append(_DRAWS[seat])
    return found


def _plays_from(game: DealState, seat: int, cards: list[Card]) -> list[Action]:
    """Every play of one of `cards` by `seat`. The common case (known cards, plain faces, no
    groups) is kept quick: this is the simulator's innermost loop."""
    found: list[Action] = []
    if UNKNOWN in cards or game.free_lead or not game.plain:
        if game.quick_singles and UNKNOWN not in cards and not game.free_lead:
            return _plays_with_groups(game, seat, cards)
        grouped = _grouped_faces(game, seat, cards)
        for c in _candidates(game, cards):
            in_group = _group_key(game, c) in grouped
            if in_group or matches(game, c):  # a card on its own must fit the top card
                found.extend(plays(game, Mode.TURN, seat, c, groups=in_group))
        return found
    colour, top_face, plain_faces = game.colour, game.discard[-1].face, game.plain_faces
    singles = _SINGLES[len(game.hands[seat]) == 2]
    for c in dict.fromkeys(cards):
        if c.is_wild or c.colour is colour or c.face is top_face:
            if c.face in plain_faces:
                single = singles.get((seat, c))
                if single is None:
                    single = singles[(seat, c)] = _play(seat, c, None, None, singles is _UNO)
                found.append(single)
            else:
                found.extend(plays(game, Mode.TURN, seat, c))
    return found


def _plays_with_groups(game: DealState, seat: int, cards: list[Card]) -> list[Action]:
    """`_plays_from` under a multi-card rule and no other rule that changes what may be played:
    a card held once is played alone by matching, as on the quick path; only a card with mates
    goes through the enumeration of its groups."""
    found: list[Action] = []
    hand = game.hands[seat]
    identical = game.multi == "identical"
    kinds: set[object] = set()
    grouped: set[object] = set()
    for key in hand if identical else [c.face for c in hand]:
        (grouped if key in kinds else kinds).add(key)
    if len(cards) < 2:
        grouped.clear()
    colour, top_face = game.colour, game.discard[-1].face
    fitting = {  # the kinds of which some card fits the top card: only those can go down
        c if identical else c.face
        for c in hand
        if c.is_wild or c.colour is colour or c.face is top_face
    }
    for c in dict.fromkeys(cards):
        key = c if identical else c.face
        if key in grouped:
            if key not in fitting:
                continue
            if c.face in game.plain_faces:
                found.extend(_plain_groups(game, seat, c, len(kinds)))
            else:
                found.extend(plays(game, Mode.TURN, seat, c, groups=True))
        elif c.is_wild or c.colour is colour or c.face is top_face:
            if c.face in game.plain_faces:
                # one card left, or (few kinds in hand) a rest that could go down together
                uno = len(hand) == 2 or (len(kinds) <= 2 and _calls_uno(game, seat, (c,), None))
                found.append(_play(seat, c, None, None, uno))
            else:
                found.extend(plays(game, Mode.TURN, seat, c))
    return found


def _plain_groups(game: DealState, seat: int, c: Card, kinds: int) -> list[Action]:
    """`plays(game, Mode.TURN, seat, c, groups=True)` for a card of a plain face (no colour to
    name, no target, may be last) in a hand of `kinds` kinds of card."""
    colour, top_face = game.colour, game.discard[-1].face
    alone = c.colour is colour or c.face is top_face
    size = len(game.hands[seat])
    found: list[Action] = []
    for group in _groups(game, seat, c):
        if alone or any(o.colour is colour or o.face is top_face for o in group):
            left = size - 1 - len(group)
            settled = left < 2 or kinds > 2  # more kinds than one group takes: no UNO state
            uno = left == 1 if settled else _calls_uno(game, seat, (c, *group), None)
            found.append(_play(seat, c, None, None, uno, group))
    return found


def _grouped_faces(game: DealState, seat: int, cards: list[Card]) -> set[object]:
    """The cards (by face, or by identity under multi_identical) held more than once: only
    those can start a group (§10.3)."""
    if game.multi is None or len(cards) < 2 or UNKNOWN in cards:
        return set()
    hand = game.hands[seat]
    counts = Counter(hand if game.multi == "identical" else [c.face for c in hand])
    return {key for key, count in counts.items() if count > 1}


def _group_key(game: DealState, c: Card) -> object:
    return c if game.multi == "identical" else c.face


def _may_hide(game: DealState, hand: list[Card], c: Card) -> bool:
    """An unseen card in `hand` may be `c` (a copy of it is still out of sight)."""
    return UNKNOWN in hand and game.unseen_copies(c) > 0


def _candidates(game: DealState, cards: list[Card]) -> list[Card]:
    """The distinct cards that might be played from `cards` (any card, if some are unseen)."""
    distinct = list(dict.fromkeys(cards))
    if UNKNOWN in distinct:
        distinct.remove(UNKNOWN)
        distinct.extend(
            c for c, _ in game.deck.counts if c not in distinct and game.unseen_copies(c) > 0
        )
    return distinct


def plays(game: DealState, mode: Mode, seat: int, c: Card, groups: bool = False) -> list[Action]:
    """Every permitted play of kind `mode` with `c` on top (`may_play`): alone or with a group
    of cards (§10.3), each colour for a wild, each target for Trade Hands; with the UNO call
    when the play leaves the hand in the UNO state (playing without it is accepted too, and
    catchable)."""
    colours: tuple[Colour | None, ...] = COLOURS if c.is_wild else (None,)
    if game.effects[c.face].trade:
        targets: list[int | None] = list(trade_targets(game, seat))
    else:
        targets = [None]
    found: list[Action] = []
    for group in _groups(game, seat, c) if groups else [()]:
        if not may_play(game, mode, seat, c, group):
            continue
        for target in targets:
            uno = _calls_uno(game, seat, (c, *group), target)
            found.extend(_play(seat, c, colour, target, uno, group) for colour in colours)
    return found


def _groups(game: DealState, seat: int, c: Card) -> tuple[tuple[Card, ...], ...]:
    """`()` and every group of other cards that may go down with `c` (§10.3)."""
    hand = game.hands[seat]
    if game.multi is None or UNKNOWN in hand:
        return _ALONE
    others = hand[:]
    others.remove(c)
    if game.multi == "identical":
        return _with(tuple(x for x in others if x is c))
    face = c.face
    return _with(tuple(sorted((x for x in others if x.face is face), key=_text)))


_ALONE: tuple[tuple[Card, ...], ...] = ((),)


@functools.lru_cache(maxsize=4096)
def _with(mates: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """`()` and every distinct group of `mates` (the same few hands come again and again: a
    simulated deal asks for them hundreds of times)."""
    groups: list[tuple[Card, ...]] = [()]
    seen: set[tuple[Card, ...]] = set()
    for size in range(1, len(mates) + 1):
        for group in itertools.combinations(mates, size):
            if group not in seen:
                seen.add(group)
                groups.append(group)
    return tuple(groups)


def _text(c: Card) -> str:
    return c.text


def _calls_uno(game: DealState, seat: int, cards: tuple[Card, ...], target: int | None) -> bool:
    """Whether the play leaves `seat` in the UNO state, judged on what the hand would be."""
    if target is not None:
        return len(game.hands[target]) == 1
    hand = game.hands[seat]
    sheds_colour = game.effects[cards[0].face].discard_colour
    if not sheds_colour:
        left = len(hand) - len(cards)
        if left < 2 or game.uno_rule == "one_card":
            return left == 1
    rest = hand[:]
    for c in cards:
        rest.remove(c if c in rest else UNKNOWN)
    if sheds_colour:
        colours = {c.colour for c in cards}
        rest = [x for x in rest if x.colour not in colours]
    return uno_state(rest, game.uno_rule, game.effects)


def jump_ins(game: DealState) -> list[Play]:
    """§10.2: plays of the identical card by anyone but its player and the player the game
    waits for, in play order from the player after them (the first claim wins). The victim's
    own are among its duty actions."""
    if game.jump is None or game.jumpin is None:
        return []
    window_seat, card = game.jump
    if game.jumpin == "numbers" and not card.is_number:
        return []
    if game.knowledge is Knowledge.FULL and card not in itertools.chain(*game.hands):
        return []  # nobody holds the identical card
    found: list[Play] = []
    for seat in game.seats_after(window_seat):
        hand = game.hands[seat]
        if not (card in hand or _may_hide(game, hand, card)):
            continue
        if play_kind(game, seat) is Mode.JUMP:
            found += plays(game, Mode.JUMP, seat, card, groups=True)  # type: ignore[arg-type]
    return found


def claims(game: DealState) -> list[Action]:
    """The true claims (§5) anyone may make now: catching a player whose missed UNO call is
    still catchable, and calling UNO with a hand in the UNO state. Claims that only cost their
    maker are accepted but not listed: false ones, and owning up to a suggestion (§3.4)."""
    seats = range(game.players)
    found: list[Action] = []
    for target in game.exposed:
        if may_call_uno(game, target):
            found.append(CallUno(target))
        found.extend(Catch(seat, target) for seat in seats if may_catch(game, seat, target))
    exposed = game.exposed
    found.extend(CallUno(s) for s in seats if s not in exposed and may_call_uno(game, s))
    return found


_SEATS = range(10)
_DRAWS = tuple(Draw(seat) for seat in _SEATS)
_PRESSES = tuple(Press(seat) for seat in _SEATS)
_PASSES = tuple(Pass(seat) for seat in _SEATS)

_UNO: dict[tuple[int, Card], Play] = {}
_SINGLES = {False: {}, True: _UNO}  # one-card plays without and with the UNO call, by seat
_PLAYS: dict[tuple[int, Card, Colour | None, int | None, bool, tuple[Card, ...]], Play] = {}


def _play(
    seat: int,
    c: Card,
    colour: Colour | None,
    target: int | None,
    uno: bool,
    group: tuple[Card, ...] = (),
) -> Play:
    """Plays are few and immutable: keep one object per distinct play."""
    key = (seat, c, colour, target, uno, group)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = Play(seat, c, colour, target, (), uno, group)
    return found
