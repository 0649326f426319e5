"""Plays of several cards at once (§10.3 under multi_in_attack) and Hit 2s passed on (§10.1
under attack_stack_hits), listed in the validated engine's order and scored by the heuristic
bot as the engine scores them.

A play here is `(card, colour, target, group, uno)`: the card that ends on top, the colour it
names (its own for a coloured card), the Trade Hands target (or NO_TARGET), the other cards
that go down with it (in the engine's order: sorted by card text) and whether the play leaves
the hand in the UNO state, which is when the bots call UNO (the engine's `_calls_uno`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence

from controller.engine import COLOURS

from .tables import (
    DISCARD_ALL,
    HIT_TWO,
    HITS,
    NO_COLOUR,
    NO_TARGET,
    TRADE_HANDS,
    Tables,
)

Group = tuple[int, ...]
GroupPlay = tuple[int, int, int, Group, bool]
"""(card, colour named or the card's own, Trade Hands target or NO_TARGET, the cards along,
the UNO call)."""

_ALONE: tuple[Group, ...] = ((),)
COLOUR_COUNT = len(COLOURS)


def text_ranks(t: Tables) -> tuple[int, ...]:
    """Each card's place in the order of card texts: mates are sorted by text (`_groups`)."""
    order = sorted(range(len(t.cards)), key=lambda c: t.cards[c].text)
    ranks = [0] * len(order)
    for rank, c in enumerate(order):
        ranks[c] = rank
    return tuple(ranks)


@functools.lru_cache(maxsize=4096)
def with_mates(mates: Group) -> tuple[Group, ...]:
    """`()` and every distinct group of `mates`, smallest first (the engine's `_with`)."""
    groups: list[Group] = [()]
    seen: set[Group] = set()
    for size in range(1, len(mates) + 1):
        for group in itertools.combinations(mates, size):
            if group not in seen:
                seen.add(group)
                groups.append(group)
    return tuple(groups)


@functools.lru_cache(maxsize=4096)
def _fitting(mates: Group, fits: tuple[bool, ...]) -> tuple[Group, ...]:
    """The groups of `mates` that hold a card fitting the top card (`fits`: which mates do),
    for a card that does not fit itself (§10.3)."""
    fitting = {x for x, ok in zip(mates, fits, strict=True) if ok}
    return tuple(g for g in with_mates(mates) if not fitting.isdisjoint(g))


def listed(
    t: Tables,
    ranks: tuple[int, ...],
    hands: list[list[int]],
    seat: int,
    row: Sequence[bool],
    multi: bool,
    hits_only: bool = False,
) -> list[GroupPlay]:
    """The plays `seat` may make on the fit row `row`, as `turn_actions` (via
    `_plays_with_groups`) lists them: each distinct card in hand order, then its groups, targets
    and colours. `hits_only`: only Hit 2s, as `_passing_on` lists the cards that pass a Hit 2
    on (§10.1: a Hit 2 always fits the Hit 2 on top). Without `multi` every card goes alone."""
    hand = hands[seat]
    kinds, face, colour, wild = t.kind, t.face, t.colour, t.wild
    by_face: dict[int, list[int]] = {}
    for x in hand:
        by_face.setdefault(face[x], []).append(x)
    unos: dict[int, list[bool]] = {}  # per face: the UNO call after playing 1, 2... of it
    found: list[GroupPlay] = []
    for c in dict.fromkeys(hand):
        kind = kinds[c]
        if hits_only and kind != HIT_TWO:
            continue
        f = face[c]
        same = by_face[f]
        if multi and len(same) > 1:
            if not row[c] and not any(map(row.__getitem__, same)):
                continue  # §10.3: one card of the group must fit the top card
            mates = sorted(same, key=ranks.__getitem__)
            mates.remove(c)
            if row[c]:
                groups = with_mates(tuple(mates))
            else:
                groups = _fitting(tuple(mates), tuple(map(row.__getitem__, mates)))
        elif row[c]:
            groups = _ALONE
        else:
            continue
        if kind == TRADE_HANDS:
            _trades(found, hands, seat, c, colour[c], groups)
        elif kind == DISCARD_ALL:
            found.extend(
                (c, colour[c], NO_TARGET, g, _sheds_to_uno(t, hand, c, g, multi)) for g in groups
            )
        else:
            after = unos.get(f)
            if after is None:
                after = unos[f] = _unos(t, by_face, f, len(hand), multi)
            if wild[c]:
                found.extend(
                    (c, named, NO_TARGET, g, after[len(g)]) for g in groups for named in _NAMED
                )
            else:
                own = colour[c]
                found.extend((c, own, NO_TARGET, g, after[len(g)]) for g in groups)
    return found


_NAMED = range(COLOUR_COUNT)


def _trades(
    found: list[GroupPlay],
    hands: list[list[int]],
    seat: int,
    c: int,
    own: int,
    groups: Sequence[Group],
) -> None:
    """Trade Hands: one play per other player, in seat order, called when that player holds
    one card; never the hand's last cards (§6)."""
    size = len(hands[seat])
    for g in groups:
        if size == 1 + len(g):
            continue
        for target, other in enumerate(hands):
            if target != seat:
                found.append((c, own, target, g, len(other) == 1))


def _unos(t: Tables, by_face: dict[int, list[int]], f: int, size: int, multi: bool) -> list[bool]:
    """The engine's `_calls_uno` for a play of k cards of face `f` (k = 1, 2...; the list is
    indexed by the group's size, k - 1): is the hand left in the UNO state (one card or, under
    multi_in_attack, cards of one face that may be last)?"""
    held = len(by_face[f])
    if len(by_face) > 2 or not multi:  # one face gone leaves two: only a last card is UNO
        return [size - played == 1 for played in range(1, held + 1)]
    after: list[bool] = []
    for played in range(1, held + 1):
        left = size - played
        if left < 2 or not multi:
            after.append(left == 1)
            continue
        faces = [g for g in by_face if g != f or held > played]  # the faces left
        rest = by_face[faces[0]][0]
        after.append(len(faces) == 1 and t.kind[rest] != TRADE_HANDS)  # (the one face barred)
    return after


def _sheds_to_uno(t: Tables, hand: list[int], c: int, group: Group, multi: bool) -> bool:
    """`_calls_uno` for a Discard All: every card of the group's colours goes down too."""
    shed = {t.colour[x] for x in (c, *group)}
    return uno_state(t, [x for x in hand if t.colour[x] not in shed], multi)


def uno_state(t: Tables, hand: list[int], multi: bool) -> bool:
    """§5 (the engine's `uno_state`): one card, or under multi_in_attack two or more cards of
    one face that may be the last card."""
    if len(hand) == 1:
        return True
    if not multi or len(hand) < 2:
        return False
    f = t.face[hand[0]]
    return all(t.face[x] == f for x in hand) and t.kind[hand[0]] != TRADE_HANDS


def best(
    t: Tables,
    hands: list[list[int]],
    seat: int,
    plays: Sequence[GroupPlay],
    threat: Callable[[], bool],
    draw: Callable[[], float],
) -> GroupPlay:
    """The heuristic bot's choice (`HeuristicBot._best` and `_score`): every play scored in
    the order listed, with the same floating-point sums and one random tie-break each.
    `threat()` says whether the next player is threatened (worked out when first needed)."""
    hand = hands[seat]
    size = len(hand)
    kinds, colours, tenth, wild = t.kind, t.colour, t.tenth, t.wild
    threatened: bool | None = None
    favourite = NO_COLOUR - 1  # not worked out yet
    chosen, best_score = plays[0], -1.0e300
    for play in plays:
        c, named, target, _, uno = play
        kind = kinds[c]
        score = 10.0 if uno else 0.0
        if kind in HITS:
            if threatened is None:
                threatened = threat()
            if threatened:
                score += 8.0
        score += tenth[c]
        if wild[c]:
            score -= 6.0
            if favourite < NO_COLOUR:
                favourite = favourite_colour(colours, hand)
            if named == favourite:
                score += 1.0
        if kind == TRADE_HANDS:
            score += size - len(hands[target])
        elif kind == DISCARD_ALL:
            own = colours[c]
            score += sum(1 for x in hand if colours[x] == own)
        score = score + draw() / 100
        if score > best_score:
            chosen, best_score = play, score
    return chosen


def favourite_colour(colours: tuple[int, ...], hand: list[int]) -> int:
    """The colour held most (the first of R, Y, G, B on a tie)."""
    counts = [0] * (COLOUR_COUNT + 1)  # wilds (NO_COLOUR, -1) land in the last slot
    for c in hand:
        counts[colours[c]] += 1
    del counts[NO_COLOUR]
    return counts.index(max(counts))
