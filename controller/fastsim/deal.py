"""One deal played out by bots on integer-coded state: the validated engine's `deal()` followed
by its bot loop (`play_out`), step for step, for the rule sets `covers()` accepts.

Under those rules some of the engine's machinery never comes into play, so it is not here:
the bots always call UNO exactly when the engine says the play needs it (so nobody falsely
calls, and only a Trade Hands that hands over a group-shaped hand leaves an uncalled UNO,
which the next player always catches), nothing but a Hit 2 is stacked, nobody jumps in, and
every Wild Draw Four may be challenged. UNO Attack's groups of cards (§10.3) and stacked Hit 2s
(§10.1) are listed and scored by `groups`; its other covered house rules (a Wild Hit-Fire only
without the active colour, §4.2; a play after a press, §3.4) and the same player again after a
Skip or Reverse (§10.5) are a few lines each here. A differential test replays thousands of
deals through both paths and compares every hand, pile, score, eject and random-number
generator state.

To stop and refuse exactly where the validated loop does, this module shares the engine's own
limits rather than copying them: the longest deal and its message (`autoplay.MAX_ACTIONS`,
`runaway_text`) and the most cards the hands may take together (`deal.most_dealt`). These are
the engine's internals, not its public surface; `tests/test_layers.py` lets this module, and
only it, import them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.engine import GameKind, Rules, RunawayGame
from controller.engine.autoplay import MAX_ACTIONS, runaway_text
from controller.engine.deal import most_dealt

from .groups import GroupPlay, best, favourite_colour, listed, text_ranks, uno_state
from .rand import picker, shuffle
from .tables import (
    DISCARD_ALL,
    DRAW_TWO,
    HIT_TWO,
    HITS,
    NO_COLOUR,
    NUMBER,
    REVERSE,
    SKIP,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_DRAW_FOUR,
    WILD_HIT_FIRE,
    Play,
    Tables,
    build,
)

BOT_KINDS = ("heuristic", "random")
MAX_STEPS = MAX_ACTIONS  # as the validated loop: a deal this long is stopped (RunawayGame)

# Owed duties: [kind, seat, count] or, for a Wild Draw Four, [PENALTY, victim, 4, source, legal].
# HIT: a Hit 2's presses, which the victim may still pass on with Hit 2s (§10.1).
PRESS, UNTIL_FIRE, CHOOSE_COLOUR, PENALTY, HIT = range(5)


IRRELEVANT_TO_A_DEAL = frozenset(
    {
        "target", "scoring", "chip_rate", "starting_chips", "num_deals",
        "break_ties_by_continuing", "next_dealer",  # match scoring, not one deal
        "suggestion_penalty", "uno_false_call_penalty", "uno_false_accusation_penalty",
        # §10.7: the penalty is for a play the engine refuses (`play._refuse_or_penalise`);
        # these bots only ever choose among the actions `Game.moves` lists, never such a play
        "wrong_play_penalty",
    }
)  # fmt: skip
"""Options that change nothing these bots can meet within one standard deal."""
ATTACK_HOUSE_RULES = frozenset(
    {"multi_in_attack", "attack_stack_hits", "whf_needs_no_colour_match", "atk_play_after_press"}
)
"""UNO Attack's groups of cards (§10.3) and stacked Hit 2s (§10.1), listed by the `groups`
module; the Wild Hit-Fire only without the active colour (§4.2, `Deals.whf_barred`); a play
after a turn's press (§3.4, `Deals._has_play`)."""
SAME_PLAYER_AGAIN = frozenset({"replay_any_count"})
"""§10.5, in either game: after a Skip or Reverse the same player plays again."""
COVERED = (
    IRRELEVANT_TO_A_DEAL
    | ATTACK_HOUSE_RULES
    | SAME_PLAYER_AGAIN
    | {"deck", "hand_size", "deal_size_by_count"}
)


def covers(rules: Rules, players: int, bot: str) -> bool:
    """The fast path plays exactly these deals; anything else goes to the validated engine."""
    if bot not in BOT_KINDS or rules.format != "standard" or not 2 <= players <= 10:
        return False
    if not rules.blocked_deals:  # an older edition's rules: only the engine plays those
        return False
    changed = set(rules.changed())
    if not changed <= COVERED:
        return False
    if changed & ATTACK_HOUSE_RULES and rules.game is not GameKind.ATTACK:
        return False
    return players * hand_size(rules, players) <= most_dealt(rules)


def hand_size(rules: Rules, players: int) -> int:
    """§2.3 / §10.4, as the engine deals."""
    if not rules.deal_size_by_count:
        return rules.hand_size
    return 7 if players <= 4 else 8 if players <= 6 else 9


@dataclass(slots=True)
class Outcome:
    """A finished deal: the cards where they ended, the score and the deal's figures."""

    winner: int
    points: tuple[int, ...]
    hands: list[list[int]]
    pile: list[int]
    discard: list[int]
    turns: int
    presses: int
    cards_pressed: int
    longest_drought: int
    actions: int
    blocked: bool = False  # §8: nobody went out; the fewest hand points won


class Deals:
    """Deals of one covered rule set with one set of bots (each with its own generator) and,
    for UNO Attack, the launcher (`press(remaining) -> cards`)."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        bot: str,
        bot_rngs: Sequence[random.Random],
        press: Callable[[int], int] | None,
    ) -> None:
        if not covers(rules, players, bot):
            raise ValueError("these rules are not covered by the fast path")
        self.tables = t = build(rules)
        self.players = players
        self.size = hand_size(rules, players)
        self.attack = rules.game is GameKind.ATTACK
        self.multi = rules.multi_in_attack  # §10.3: groups of one face (the `groups` module)
        self.hit = HIT if rules.attack_stack_hits else PRESS  # §10.1: Hit 2s passed on
        self.whf_barred = _without_whf(t) if rules.whf_needs_no_colour_match else None
        # §10.5: after a Skip or Reverse the same player plays again (a player who went out
        # with it ends the deal: nothing is owed after a Skip or Reverse)
        self.replay = rules.replay_any_count
        self.play_after_press = rules.atk_play_after_press  # §3.4: a press, then maybe a play
        self.ranks = text_ranks(t)
        self.heuristic = bot == "heuristic"
        self.rngs = list(bot_rngs)
        self.picks = [picker(r) for r in self.rngs]
        self.press = press
        self.seat_plays = [_seat_plays(t, seat, players) for seat in range(players)]

    def choose_dealer(self, rng: random.Random) -> int:
        """§2.2: the high-card draw, ties drawing again (the engine's `choose_dealer`)."""
        number = self.tables.number
        candidates = list(range(self.players))
        while True:
            cards = list(self.tables.deck)
            shuffle(rng, cards)
            drawn = {seat: cards.pop() for seat in candidates}
            best = max(number[c] for c in drawn.values())
            candidates = [seat for seat, c in drawn.items() if number[c] == best]
            if len(candidates) == 1:
                return candidates[0]

    def play(self, dealer: int, rng: random.Random) -> Outcome:
        """Deal with `dealer` dealing and play the deal out; `rng` shuffles, as in `deal()`."""
        hands, pile, discard = self._deal(rng)
        top = discard[-1]
        d, turn, duties = self._start(top, dealer, hands, pile, discard, rng)
        return self.play_from(hands, pile, discard, self.tables.colour[top], d, turn, duties, rng)

    def play_from(
        self,
        hands: list[list[int]],
        pile: list[int],
        discard: list[int],
        colour: int,
        d: int,
        turn: int,
        duties: list[list[int]],
        rng: random.Random,
    ) -> Outcome:
        """Play a deal out from a position: the hands, the pile (its top card last), the
        discards (the top card last), the active colour, the direction, whose turn it is and
        the duties owed first (`[kind, seat, count]`). `rng` reshuffles, as the deal's does."""
        t, n = self.tables, self.players
        kinds, colours, fits, faces, face = t.kind, t.colour, t.fits, t.faces, t.face
        heuristic, attack, rngs, multi, hit = (
            self.heuristic, self.attack, self.rngs, self.multi, self.hit
        )  # fmt: skip
        seat_plays, picks, whf_barred, replay = (
            self.seat_plays, self.picks, self.whf_barred, self.replay
        )  # fmt: skip
        top = discard[-1]
        launcher = _Launcher(self.press)
        row = fits[colour * faces + face[top]]
        winner, drawn = -1, -1
        turns = empty = 0  # empty: turns in a row that got nothing with nothing left (§8)
        blocked = False
        for steps in range(1, MAX_STEPS + 1):  # noqa: B007 - the count is read after the loop
            if duties:
                duty = duties[0]
                owed, seat = duty[0], duty[1]
                if owed == HIT:  # §10.1: the victim passes the Hit 2 on, or presses
                    stack = self._passed_on(hands, seat, d, row)
                    if stack is not None:  # the engine's `push_play` in Mode.STACK
                        del duties[0]
                        c, _, _, group, _ = stack
                        hand = hands[seat]
                        for x in (c, *group):
                            hand.remove(x)
                        discard += group
                        discard.append(c)
                        colour, top, empty = colours[c], c, 0
                        row = fits[colour * faces + face[c]]
                        if not hand and winner < 0:
                            winner = seat
                        victim = _next_active(hands, seat, d, n)  # (a seat gone out is skipped)
                        duties.append([HIT, victim, 2 * (1 + len(group)) + duty[2]])
                        turn = _next_active(hands, victim, d, n)
                        continue
                    duty[0] = owed = PRESS  # a Hit 2 being pressed is no longer passed on
                elif owed <= UNTIL_FIRE and not heuristic:
                    picks[seat](1)  # a random bot "chooses" its only action too
                if owed <= UNTIL_FIRE:  # an owed press (§3.6)
                    got = launcher.press(hands[seat], pile, discard, rng)
                    if owed == PRESS or got:
                        duty[2] -= 1
                    if not duty[2] or (owed == UNTIL_FIRE and not pile and len(discard) <= 1):
                        del duties[0]
                elif owed == CHOOSE_COLOUR:
                    del duties[0]
                    hand = hands[seat]
                    colour = favourite_colour(colours, hand) if heuristic else picks[seat](4)
                    row = fits[colour * faces + face[top]]
                else:  # a Wild Draw Four: accept, or (random bots, half the time) challenge
                    del duties[0]
                    source, legal = duty[3], duty[4]
                    if heuristic or picks[seat](2):  # 0: Challenge, 1: Accept
                        hands[seat] += _take(pile, discard, rng, 4)
                    elif legal or not hands[source]:
                        hands[seat] += _take(pile, discard, rng, 6)
                    else:
                        hands[source] += _take(pile, discard, rng, 4)
                        turn = seat
                if winner >= 0 and not duties:
                    break
                continue
            seat = turn
            hand = hands[seat]
            turns += 1
            offered: Sequence[GroupPlay] = ()
            fit = row if whf_barred is None else _turn_fits(t, whf_barred, row, hand, colour, top)
            if drawn >= 0:
                plays: Sequence[Play] = t.plays[drawn]
            elif multi:  # §10.3: single cards and groups, as `_plays_with_groups` lists them
                plays, offered = (), listed(t, self.ranks, hands, seat, fit, True)
            else:
                mine = seat_plays[seat]
                plays = [p for c in dict.fromkeys(hand) if fit[c] for p in mine[c]]
                if len(hand) == 1 and kinds[hand[0]] == TRADE_HANDS:
                    plays = []  # Trade Hands may not be the last card
            if not plays and not offered:
                if not heuristic:
                    picks[seat](1)  # a random bot "chooses" its only action too
                turn = (seat + d) % n
                got = 1
                if attack:
                    got = launcher.press(hand, pile, discard, rng)
                    if got and self.play_after_press and self._has_play(hand, row, colour, top):
                        turn = seat  # §3.4 (`drawing.push_press`): the turn goes on: a play
                elif pile or _refill(pile, discard, rng):
                    drew = pile.pop()
                    hand.append(drew)
                    if row[drew]:
                        drawn, turn = drew, seat
                else:
                    got = 0
                if got or pile or len(discard) > 1:
                    empty = 0
                else:
                    empty += 1
                    if empty == n:  # §8: a full round of empty turns: the deal is blocked
                        winner, blocked = _blocked_winner(t, hands, seat, d, n), True
                        break
                continue
            group = ()
            uno = False  # (the UNO call, read for a group play's Trade Hands)
            if offered:
                victim = (seat + d) % n
                c, named, target, group, uno = (
                    best(t, hands, seat, offered, _threat(hands, seat, victim), rngs[seat].random)
                    if heuristic
                    else offered[picks[seat](len(offered))]
                )
            elif heuristic:
                c, named, target = _best(t, hands, seat, plays, d, n, rngs[seat].random)
            else:
                c, named, target = plays[picks[seat](len(plays))]
            drawn, empty = -1, 0  # a play ends any round of empty turns
            kind = kinds[c]
            hand.remove(c)
            if group:  # §10.3: the group goes down under the card on top
                for x in group:
                    hand.remove(x)
            if kind == DISCARD_ALL:  # every card of the played cards' colours goes too
                shed = {named, *(colours[x] for x in group)}
                discard += [x for x in hand if colours[x] in shed]
                hand[:] = [x for x in hand if colours[x] not in shed]
            discard += group
            discard.append(c)
            if kind == WILD_DRAW_FOUR:
                legal = all(colours[x] != colour for x in hand)
            colour, top = named, c
            row = fits[colour * faces + face[c]]
            if not hand:
                winner = seat
            cards = 1 + len(group)  # §10.3: n cards, n times the effect (`resolve`)
            if kind in (NUMBER, WILD, DISCARD_ALL):
                turn = (seat + d) % n
            elif kind == SKIP:  # n Skips: the seat n + 1 steps on (§10.5: the player again)
                turn = seat if replay else (seat + d * (cards + 1)) % n
            elif kind == REVERSE:  # n Reverses: odd n turns; with two players each skips
                if cards % 2:
                    d = -d
                if replay:  # §10.5 (`resolve._next_turn`): the player again, in the new direction
                    turn = seat
                else:
                    turn = (seat + d * (cards + 1)) % n if n == 2 else (seat + d) % n
            elif kind == DRAW_TWO:
                hands[(seat + d) % n] += _take(pile, discard, rng, 2)
                turn = (seat + d + d) % n
            elif kind == WILD_DRAW_FOUR:
                duties.append([PENALTY, (seat + d) % n, 4, seat, legal])
                turn = (seat + d + d) % n
            elif kind == HIT_TWO:
                duties.append([hit, (seat + d) % n, 2 * cards])
                turn = (seat + d + d) % n
            elif kind == TRADE_HANDS:  # n of them: one swap
                hands[seat], hands[target] = hands[target], hand
                turn = (seat + d) % n
                if multi and not uno and uno_state(t, hands[seat], True):
                    # §5: the hand taken is in the UNO state, uncalled: the next player
                    # catches it (every bot does) and the player presses twice first
                    duties.insert(0, [PRESS, seat, 2])
            elif kind == WILD_ALL_HIT:
                duties.extend([PRESS, (seat + d * k) % n, cards] for k in range(1, n))
                turn = (seat + d) % n
            else:  # WILD_HIT_FIRE
                duties.append([UNTIL_FIRE, (seat + d) % n, cards])
                turn = (seat + d + d) % n
            if winner >= 0 and not duties:
                break
        else:
            in_hands = sum(map(len, hands))
            left = len(pile) or max(len(discard) - 1, 0)
            raise RunawayGame(runaway_text(MAX_STEPS, in_hands, len(t.deck), left))
        value = t.points.__getitem__
        points = [sum(map(value, hand)) for hand in hands]
        if blocked:
            points[winner] = 0  # §8: the winner's own hand counts as 0 for the winner
        return Outcome(
            winner, tuple(points), hands, pile, discard, turns, launcher.presses, launcher.cards,
            launcher.longest_drought, steps, blocked,
        )  # fmt: skip

    def _has_play(self, hand: list[int], row: Sequence[bool], colour: int, top: int) -> bool:
        """The engine's `drawing.has_play` after a turn's press: some card fits alone (under
        the covered rules every group that may go down holds such a card, so the bots, who
        play whenever they can, play; `Pass` is listed last and never chosen)."""
        if self.whf_barred is not None:
            row = _turn_fits(self.tables, self.whf_barred, row, hand, colour, top)
        return any(map(row.__getitem__, hand))

    def _passed_on(
        self, hands: list[list[int]], seat: int, d: int, row: Sequence[bool]
    ) -> GroupPlay | None:
        """§10.1: the Hit 2's victim chooses between pressing and passing it on with Hit 2s
        (the engine's `duty_actions`: Press listed first, then `_passing_on`'s plays). None:
        it presses. Draws what the bots draw."""
        victim = _next_active(hands, seat, d, self.players)
        plays: Sequence[GroupPlay] = ()
        if victim != seat:  # someone is still playing to take it (`can_pass_on`)
            plays = listed(self.tables, self.ranks, hands, seat, row, self.multi, hits_only=True)
        if self.heuristic:
            if not plays:
                return None
            return best(
                self.tables, hands, seat, plays, _threat(hands, seat, victim),
                self.rngs[seat].random,
            )  # fmt: skip
        chosen = self.picks[seat](1 + len(plays))
        return plays[chosen - 1] if chosen else None

    def _deal(self, rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
        """§2.3 and §2.5: shuffle, deal, and turn up a card that may start the discards."""
        t, n, size = self.tables, self.players, self.size
        cards = list(t.deck)
        shuffle(rng, cards)
        hands = [cards[k * size : (k + 1) * size] for k in range(n)]
        pile = cards[n * size :]
        top = pile.pop()
        while t.returned[top]:
            pile.append(top)
            shuffle(rng, pile)
            top = pile.pop()
        return hands, pile, [top]

    def _start(
        self,
        top: int,
        dealer: int,
        hands: list[list[int]],
        pile: list[int],
        discard: list[int],
        rng: random.Random,
    ) -> tuple[int, int, list[list[int]]]:
        """§2.5: the turned-up card's effect on F, the dealer's left. Returns the direction,
        whose turn it is and the duties owed first."""
        n, kind = self.players, self.tables.kind[top]
        d, first, duties = 1, (dealer + 1) % n, []
        turn = (first + 1) % n if kind in (SKIP, DRAW_TWO, HIT_TWO, WILD_HIT_FIRE) else first
        if kind == REVERSE:
            d, turn = -1, dealer
        elif kind == DRAW_TWO:
            hands[first] += _take(pile, discard, rng, 2)
        elif kind == HIT_TWO:
            duties.append([self.hit, first, 2])
        elif kind == WILD:
            duties.append([CHOOSE_COLOUR, first])
        elif kind == WILD_ALL_HIT:
            duties.append([CHOOSE_COLOUR, first])
            duties.extend([PRESS, (dealer + k) % n, 1] for k in range(1, n))
        elif kind == WILD_HIT_FIRE:
            duties.append([UNTIL_FIRE, first, 1])
            duties.append([CHOOSE_COLOUR, (first + 1) % n])
        return d, turn, duties


class _Launcher:
    """Presses in one deal (§3.6): the launcher says how many of the cards left come out; the
    deal's press figures are kept as it goes."""

    def __init__(self, decide: Callable[[int], int] | None) -> None:
        self.decide = decide
        self.presses = self.cards = self.drought = self.longest_drought = 0

    def press(
        self, hand: list[int], pile: list[int], discard: list[int], rng: random.Random
    ) -> int:
        assert self.decide is not None, "UNO Attack needs a launcher"
        wanted = self.decide(len(pile) or max(len(discard) - 1, 0))
        if not pile:
            _refill(pile, discard, rng)
        got = wanted if wanted < len(pile) else len(pile)
        if got:  # the top of the pile first, as one card after another
            hand += pile[-1 : -got - 1 : -1]
            del pile[-got:]
        self.presses += 1
        self.cards += got
        self.drought = 0 if got else self.drought + 1
        self.longest_drought = max(self.longest_drought, self.drought)
        return got


def _blocked_winner(t: Tables, hands: list[list[int]], last: int, d: int, n: int) -> int:
    """§8: the fewest hand points, then the fewest cards, then the first in turn order from
    (and including) `last`, who made the last empty turn (the engine's `blocked_order`)."""
    value = t.points.__getitem__
    order = [(last + d * k) % n for k in range(n)]
    return min(order, key=lambda seat: (sum(map(value, hands[seat])), len(hands[seat])))


def _turn_fits(
    t: Tables,
    barred: tuple[tuple[bool, ...], ...],
    row: Sequence[bool],
    hand: list[int],
    colour: int,
    top: int,
) -> Sequence[bool]:
    """Which cards `hand` may play now under whf_needs_no_colour_match: `row`, or the row
    without Wild Hit-Fires when the hand holds a card of the active colour (§4.2)."""
    if colour in [t.colour[x] for x in hand]:
        return barred[colour * t.faces + t.face[top]]
    return row


def _without_whf(t: Tables) -> tuple[tuple[bool, ...], ...]:
    """The fit rows with every Wild Hit-Fire left out: under whf_needs_no_colour_match a
    player holding a card of the active colour may not play one, alone or in a group (§4.2,
    the engine's `playability._wild_allowed`, which looks at the whole hand)."""
    barred = [k == WILD_HIT_FIRE for k in t.kind]
    return tuple(tuple(ok and not no for ok, no in zip(row, barred, strict=True)) for row in t.fits)


def _seat_plays(t: Tables, seat: int, players: int) -> tuple[tuple[Play, ...], ...]:
    """Every play of each card by `seat`: Trade Hands once per other player, in seat order."""
    return tuple(
        tuple((c, t.colour[c], target) for target in range(players) if target != seat)
        if kind == TRADE_HANDS
        else t.plays[c]
        for c, kind in enumerate(t.kind)
    )


def _refill(pile: list[int], discard: list[int], rng: random.Random) -> bool:
    """§8: the empty pile takes every discard but the top card, shuffled."""
    if len(discard) < 2:
        return False
    spare = discard[:-1]
    del discard[:-1]
    shuffle(rng, spare)
    pile += spare
    return True


def _take(pile: list[int], discard: list[int], rng: random.Random, count: int) -> list[int]:
    taken: list[int] = []
    while len(taken) < count:
        if not pile and not _refill(pile, discard, rng):
            break
        taken.append(pile.pop())
    return taken


def _threatened(hands: list[list[int]], seat: int, victim: int) -> bool:
    """The next player (`victim`) is near out, or holds the fewest cards of the others (a
    player gone out among them: the engine's `_Seat`)."""
    held = len(hands[victim])
    return held <= 2 or held == min(len(h) for k, h in enumerate(hands) if k != seat)


def _threat(hands: list[list[int]], seat: int, victim: int) -> Callable[[], bool]:
    return lambda: _threatened(hands, seat, victim)


def _next_active(hands: list[list[int]], seat: int, d: int, n: int) -> int:
    """The next seat still playing (`next_seat`): a player gone out has left the seat
    arithmetic (its hand is empty), while the stacked penalties of its last card are paid."""
    other = (seat + d) % n
    while not hands[other] and other != seat:
        other = (other + d) % n
    return other


def _best(
    t: Tables,
    hands: list[list[int]],
    seat: int,
    plays: Sequence[Play],
    d: int,
    n: int,
    draw: Callable[[], float],
) -> Play:
    """The heuristic bot's choice: its score for every play, in the order they are listed,
    with the same floating-point sums and the same random tie-breaks. (Adding 0.0 changes no
    sum here, so those additions are left out; the threat and the favourite colour are only
    worked out for a play they count for.)"""
    hand = hands[seat]
    size = len(hand)
    kinds, colours, tenth, wild = t.kind, t.colour, t.tenth, t.wild
    threat: bool | None = None
    favourite = NO_COLOUR - 1  # not worked out yet
    best, best_score = plays[0], -1.0e300
    for play in plays:
        c, named, target = play
        kind = kinds[c]
        if kind == DISCARD_ALL:
            own = colours[c]
            same = sum(1 for x in hand if colours[x] == own)
            score = 10.0 if size - same == 1 else 0.0
        elif kind == TRADE_HANDS:
            score = 10.0 if len(hands[target]) == 1 else 0.0
        else:
            score = 10.0 if size == 2 else 0.0
        if kind in HITS:
            if threat is None:
                threat = _threatened(hands, seat, (seat + d) % n)
            if threat:
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
            score += same
        score = score + draw() / 100
        if score > best_score:
            best, best_score = play, score
    return best
