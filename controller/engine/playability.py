"""What may be played: matching (§3.1), Wild Draw Four legality (§3.2), last-card bans (§6),
groups of cards (§10.3), stacking (§10.1), jump-ins (§10.2) and the other house-rule limits.

`play_kind` (who may play now, and how) and `may_play` (which cards) are the one definition of a
permitted play: `play.push_play` checks a play with them and `legal_actions` lists the plays
that pass them, so the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from .cards import UNKNOWN, Card, Face
from .state import DealState, Duty, DutyKind, Phase

DRAW_FACES = (Face.DRAW_TWO, Face.WILD_DRAW_FOUR)
STACKS_ON: dict[str, dict[Face, tuple[Face, ...]]] = {
    "s0": {Face.DRAW_TWO: DRAW_FACES, Face.WILD_DRAW_FOUR: (Face.WILD_DRAW_FOUR,)},
    "s1": {Face.DRAW_TWO: (Face.DRAW_TWO,), Face.WILD_DRAW_FOUR: (Face.WILD_DRAW_FOUR,)},
}
"""§10.1: which draw cards may answer the draw card on top, per stacking variant."""

WD4_NEEDS = {
    "colour": "no card of the active colour",
    "colour_or_face": "no card of the active colour, number or symbol",
    "no_other_play": "no other play",
}


class Mode(Enum):
    """The kinds of play."""

    TURN = "turn"  # the player whose turn it is
    STACK = "stack"  # the victim of a draw (or Hit 2) passes it on
    JUMP = "jump"  # anyone else, out of turn, with an identical card


def play_kind(game: DealState, seat: int) -> Mode | None:
    """Which kind of play `seat` may make now; None when it may make none."""
    if game.phase is not Phase.PLAYING:
        return None
    duty = game.duties[0] if game.duties else None
    if duty is not None and duty.seat == seat and passable(game, duty):
        return Mode.STACK if game.can_pass_on(seat) else None
    if may_jump_in(game, seat) and seat != (game.turn if duty is None else duty.seat):
        return Mode.JUMP  # (the player the game waits for owes something else first)
    return Mode.TURN if game.on_turn(seat) else None


def passable(game: DealState, duty: Duty) -> bool:
    """The duty may be answered with a card (stacking, or a jump-in by its victim)."""
    if duty.kind is DutyKind.PRESS:
        return duty.stackable
    return duty.kind is DutyKind.PENALTY and (
        game.rules.stacking is not None or game.jumpin is not None
    )


def may_jump_in(game: DealState, seat: int) -> bool:
    """§10.2: a jump-in window is open to `seat` (not the card's own player), who still plays."""
    jump = game.jump
    return (
        jump is not None
        and jump[0] != seat
        and game.jumpin is not None
        and bool(game.hands[seat])
        and game.active[seat]
    )


def may_play(game: DealState, mode: Mode, seat: int, c: Card, group: Sequence[Card] = ()) -> bool:
    """`c` (with the rest of its `group`) is a permitted play of kind `mode` by `seat`: a turn's
    play (§3.1), a card passing a penalty on (§10.1), or a jump-in (§10.2). Every card played
    must be playable (a jumped-in Wild Draw Four must be legal for the jumper, §10.2), save a
    stacked Wild Draw Four under stack_wd4_ignores_legality."""
    if mode is Mode.TURN:
        return playable(game, seat, c, group)
    if mode is Mode.STACK and stacks(game, game.duties[0], c):  # (see `could_pass_on`)
        if any(other.face is not c.face for other in group):
            return False
        return playable(game, seat, c, group, wd4_checked=not game.rules.stack_wd4_ignores_legality)
    if not jumps_in(game, c) or any(other is not c for other in group):
        return False
    return playable(game, seat, c, group)


def could_pass_on(game: DealState, c: Card) -> bool:
    """`c` is of a kind that can pass the penalty on (§10.1, §10.2): a card that stacks on it,
    or the card just played. `may_play` permits no other card in `Mode.STACK`."""
    return stacks(game, game.duties[0], c) or jumps_in(game, c)


def only_the_drawn_card(game: DealState) -> Card | None:
    """§3.3: after drawing, the drawn card is the only one that may be played (None: no such
    limit, or the drawn card is unseen at a table)."""
    drawn = game.drawn
    return None if drawn is None or drawn is UNKNOWN or game.pressed else drawn


def trade_targets(game: DealState, seat: int) -> list[int]:
    """The players `seat` may trade hands with (§4.2): any other player still playing."""
    return [other for other in range(game.players) if other != seat and game.active[other]]


def matches(game: DealState, c: Card) -> bool:
    """§3.1: the card fits the top card (colour, number or symbol), or it is a wild."""
    if c.is_wild:
        return c.face is not Face.WILD or not _wild_barred(game)
    if game.free_lead:
        return c is not UNKNOWN
    return c.colour is game.colour or c.face is game.top.face


def _wild_barred(game: DealState) -> bool:
    """§10.6 strict reading: no plain Wild on a Draw Two or Wild Draw Four."""
    return game.rules.wild_after_draw == "strict_top" and game.top.face in DRAW_FACES


def playable(
    game: DealState, seat: int, c: Card, group: Sequence[Card] = (), *, wd4_checked: bool = True
) -> bool:
    """`c` (with the rest of its `group`) may be played by `seat` now, judged on the cards the
    engine can see. Matching is enough for one card of a group (§10.3). `wd4_checked=False`
    leaves out the Wild Draw Four's legality (a stack that ignores it, §10.1)."""
    if group:
        return _group_playable(game, seat, c, group, wd4_checked)
    if not matches(game, c):
        return False
    if len(game.hands[seat]) == 1 and not game.effects[c.face].may_be_last:
        return False
    return not c.is_wild or _wild_allowed(game, seat, c, (c,), wd4_checked)


def _group_playable(
    game: DealState, seat: int, c: Card, group: Sequence[Card], wd4_checked: bool
) -> bool:
    if not matches(game, c) and not any(matches(game, other) for other in group):
        return False
    if not group_ok(game, c, group):
        return False
    if len(game.hands[seat]) <= 1 + len(group) and not may_finish(game, seat, (c, *group)):
        return False
    return not c.is_wild or _wild_allowed(game, seat, c, (c, *group), wd4_checked)


def _wild_allowed(
    game: DealState, seat: int, c: Card, played: Sequence[Card], wd4_checked: bool = True
) -> bool:
    """§3.2 without bluffing, and the Wild Hit-Fire restriction (§4.2)."""
    if c.face is Face.WILD_DRAW_FOUR and wd4_checked and not wd4_bluff_allowed(game):
        return wd4_legal(game, seat, played) is not False
    if c.face is Face.WILD_HIT_FIRE and game.rules.whf_needs_no_colour_match:
        return not any(other.colour is game.colour for other in game.hands[seat])
    return True


def group_ok(game: DealState, c: Card, group: Sequence[Card]) -> bool:
    """§10.3: the cards may go down together under this table's multi-card rule."""
    rule = game.multi
    if rule is None:
        return False
    if rule == "identical":
        return all(other is c for other in group)
    return all(other.face is c.face for other in group)


def may_finish(game: DealState, seat: int, cards: Sequence[Card]) -> bool:
    """§6 and §4.2: a play that empties the hand may not consist only of cards that may not
    be last (Trade Hands; Reverse, Skip, Wild under no_finish_on_action...)."""
    if len(game.hands[seat]) > len(cards):
        return True
    return any(game.effects[c.face].may_be_last for c in cards)


def wd4_bluff_allowed(game: DealState) -> bool:
    rules = game.rules
    return rules.wd4_bluffing and rules.wd4_legality != "no_other_play"


def wd4_legal(game: DealState, seat: int, played: Sequence[Card]) -> bool | None:
    """§3.2: whether playing these Wild Draw Fours is legal, judged on the rest of the hand
    (None: the hand is not known)."""
    others = game.hands[seat][:]
    for c in played:
        if c in others:
            others.remove(c)
    if UNKNOWN in others:
        return None
    rule = game.rules.wd4_legality
    if rule == "colour":
        return not any(c.colour is game.colour for c in others)
    if rule == "colour_or_face":
        top = game.top
        return not any(c.colour is game.colour or c.face is top.face for c in others)
    return not any(matches(game, c) and c.face is not Face.WILD_DRAW_FOUR for c in others)


def stacks(game: DealState, duty: Duty, c: Card) -> bool:
    """§10.1: `c` may answer the pending draw (or, under attack_stack_hits, the Hit 2)."""
    if duty.kind is DutyKind.PRESS:
        return duty.stackable and c.face is Face.HIT_TWO
    variant = game.rules.stacking
    if duty.kind is not DutyKind.PENALTY or variant is None:
        return False
    return c.face in STACKS_ON[variant].get(game.top.face, ())


def jumps_in(game: DealState, c: Card) -> bool:
    """§10.2: `c` is identical to the card just played (numbers only under jumpin_numbers)."""
    window, rule = game.jump, game.rules.jumpin
    if window is None or rule is None:
        return False
    if rule == "numbers" and not c.is_number:
        return False
    return c is window[1]


def shed_with(game: DealState, seat: int, played: Sequence[Card]) -> list[Card]:
    """Discard All (§4.2): every other card in the hand of the played cards' colours."""
    hand = game.hands[seat][:]
    for c in played:
        hand.remove(c)
    colours = {c.colour for c in played}
    return [c for c in hand if c.colour in colours]


def why_not(game: DealState, seat: int, c: Card, group: Sequence[Card]) -> str:
    """The reason a play is refused, in words."""
    if c is UNKNOWN:
        return "say which card was played"
    if group and not group_ok(game, c, group):
        return "these cards may not be played together"
    fits = matches(game, c) or any(matches(game, other) for other in group)
    if fits and not may_finish(game, seat, (c, *group)):
        return f"{_name(c)} may not be your last card"
    if fits and c.face is Face.WILD_HIT_FIRE:
        return "Wild Hit-Fire is only allowed with no card of the active colour"
    if fits and c.face is Face.WILD_DRAW_FOUR:
        return f"Wild Draw Four is only legal with {WD4_NEEDS[game.rules.wd4_legality]}"
    if c.face is Face.WILD:
        return "no plain Wild straight after a Draw Two or Wild Draw Four"
    return f"{c} does not match the top card {game.top} (active colour {game.colour})"


def _name(c: Card) -> str:
    return c.face.name.replace("_", " ").title()
