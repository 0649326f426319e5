"""The state of one deal and its primitive operations: the bottom layer of the engine.

`DealState` holds the hands, piles, turn, direction and owed duties, and the mechanics every
rule handler shares (seat arithmetic, drawing and pressing, closing windows, penalties). The
rule handlers (`play`, `drawing`, `claims`, `start`, `scoring`) work on it; `Game` adds the
verbs on top (`legal_actions`, `push`, `copy`). Nothing here imports a module above it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from enum import StrEnum

from .cards import UNKNOWN, Card, Colour, Face
from .decks import DeckSpec
from .effects import Effect, effects_for, plain_faces
from .errors import IllegalAction, NotYourTurn, WrongPhase
from .events import Drew, Event, Owes, Pressed, Reshuffled, Why
from .options import Rules


class Knowledge(StrEnum):
    """How much the engine sees.

    FULL: the engine holds the deck and every hand (simulation, bots, tests).
    TABLE: physical cards at a real table. Hands hold unknown cards (`?`) whose number is exact;
    a played card replaces an unknown one; facts that need a hand (was that Wild Draw Four
    legal?) are supplied by the players.
    """

    FULL = "full"
    TABLE = "table"


class Phase(StrEnum):
    TURN_UP = "turn_up"  # table mode: waiting for the card that starts the discard pile
    PLAYING = "playing"
    SCORING = "scoring"  # table mode: waiting for the hands left at the end of the deal
    OVER = "over"


class DutyKind(StrEnum):
    PRESS = "press"  # press the launcher `count` more times
    PRESS_UNTIL_FIRE = "press_until_fire"  # press until a press gives at least one card
    CHOOSE_COLOUR = "choose_colour"  # name the colour of a turned-up wild
    PENALTY = "penalty"  # face a pending draw of `count`: accept, challenge or stack


@dataclass(slots=True)
class Duty:
    """Something a player owes before play goes on (forced, so it never closes a UNO window)."""

    kind: DutyKind
    seat: int
    _: KW_ONLY  # the rest by name: several are numbers a swap would not show
    count: int = 0
    why: Why = Why.TURN
    source: int = -1  # who played the card that created it
    challengeable: bool = False  # PENALTY: a Wild Draw Four the victim may challenge
    legal: bool | None = None  # ...and was it legal (None: nobody at the table knows yet)
    share: int = 0  # PENALTY: the part of `count` a successful challenge takes off
    stackable: bool = False  # may be passed on with a matching card (§10.1)

    def copy(self) -> Duty:
        return Duty(
            kind=self.kind, seat=self.seat, count=self.count, why=self.why, source=self.source,
            challengeable=self.challengeable, legal=self.legal, share=self.share,
            stackable=self.stackable,
        )  # fmt: skip


class DealState:
    """The state of one deal and its primitive operations (the verbs are on `Game`)."""

    rules: Rules
    deck: DeckSpec
    players: int
    knowledge: Knowledge
    rng: random.Random
    hands: list[list[Card]]
    pile: list[Card]  # draw pile (classic) or launcher stack (Attack); the top is the end
    unaccounted: list[Card]  # table mode: unseen cards out of the launcher and every hand count
    refilled: int  # table mode: cards moved from the discard pile since the launcher was filled
    discard: list[Card]  # the top card is the end
    colour: Colour | None  # the active colour (None until a turned-up wild is named)
    direction: int
    dealer: int
    turn: int  # whose turn it is once the duties are done
    duties: list[Duty]
    drawn: Card | None  # classic: the card just drawn, which may still be played
    exposed: tuple[int, ...]  # players at one card who have not called UNO, while catchable
    caught: tuple[int, ...]  # ...caught since their last play (a second catch is refused)
    late: tuple[int, ...]  # ...whose catch window closed uncaught since their last play
    called: tuple[int, ...]  # players who called UNO for the hand they hold now
    jump: tuple[int, Card] | None  # §10.2: who played which card, while others may jump in
    pressed: bool  # atk_play_after_press: the player pressed and may still play
    free_lead: bool  # a turned-up Wild under start_wild=free_lead: any card may be played
    active: list[bool]  # seats still playing this deal
    active_count: int
    finished: list[int]  # §9.3: the order players went out (within-deal elimination)
    effects: Mapping[Face, Effect]  # the effects table under this deal's rules
    plain_faces: frozenset[Face]  # ...and its faces played by matching alone (`plain_faces`)
    jumpin: str | None  # the rules' derived settings, read on every play
    multi: str | None
    uno_rule: str
    elimination: bool
    attack: bool
    may_draw: bool
    plain: bool  # no house rule changes what may be played: the quick paths apply
    quick_singles: bool  # ...but a multi-card rule: cards held once still take the quick path
    trusted: bool  # the action being applied was listed by the engine for this very state
    winner: int | None
    empty_turns: int  # §8: turns in a row that drew or pressed for nothing (see `note_turn`)
    last_empty: int  # ...and the seat that made the last of them (-1: none yet)
    blocked: bool  # §8: the deal ended blocked (a full round of empty turns)
    phase: Phase
    shown: dict[int, tuple[int, int]]  # table mode scoring: seat -> (points, cards left)
    points: tuple[int, ...] | None  # hand points per seat once the deal has ended

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        rng: random.Random,
        knowledge: Knowledge = Knowledge.FULL,
        *,
        active: Sequence[bool] | None = None,
    ) -> None:
        if not 2 <= players <= 10:
            raise IllegalAction(f"UNO needs 2 to 10 players, not {players}")
        if not 0 <= dealer < players:
            raise IllegalAction(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
        self.rules = rules
        self.deck = rules.deck_spec
        self.players = players
        self.knowledge = knowledge
        self.rng = rng
        self.hands = [[] for _ in range(players)]
        self.pile = []
        self.unaccounted = []
        self.refilled = 0
        self.discard = []
        self.colour = None
        self.direction = 1
        self.dealer = dealer
        self.turn = dealer
        self.duties = []
        self.drawn = None
        self.exposed = ()
        self.caught = ()
        self.late = ()
        self.called = ()
        self.jump = None
        self.pressed = False
        self.free_lead = False
        self.active = [True] * players if active is None else list(active)
        self.active_count = self.active.count(True)
        if len(self.active) != players or self.active_count < 2 or not self.active[dealer]:
            raise IllegalAction("a deal needs 2 or more playing seats and a dealer among them")
        self.finished = []
        self.effects = effects_for(rules)
        self.plain_faces = plain_faces(self.effects)
        self.jumpin = rules.jumpin
        self.multi = rules.multi
        self.uno_rule = rules.uno_rule
        self.elimination = rules.format == "elim_within_deal"
        self.attack = rules.attack
        self.may_draw = rules.may_draw
        self.plain = rules.quick_plays
        self.quick_singles = rules.quick_singles and rules.multi is not None
        self.trusted = False
        self.winner = None
        self.empty_turns = 0
        self.last_empty = -1
        self.blocked = False
        self.phase = Phase.TURN_UP
        self.shown = {}
        self.points = None

    # ----------------------------------------------------------------- questions

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def deal_done(self) -> bool:
        """§6: the winner's last card and its effects are done; under within-deal elimination
        (§9.3), only one player still holds cards."""
        if self.elimination:
            return self.active_count <= 1
        return self.winner is not None and not self.duties

    @property
    def jump_seat(self) -> int:
        return -1 if self.jump is None else self.jump[0]

    @property
    def jump_card(self) -> Card | None:
        return None if self.jump is None else self.jump[1]

    def finish(self, seat: int) -> None:
        """§9.3: `seat` went out and leaves the deal; the others play on."""
        self.active[seat] = False
        self.active_count -= 1
        self.finished.append(seat)
        if self.winner is None:
            self.winner = seat
        self.duties = [duty for duty in self.duties if self.active[duty.seat]]
        if self.active_count <= 1:
            self.duties.clear()

    def leave(self, seat: int) -> None:
        """§6: `seat` has no cards left once its play is resolved, though the deal goes on
        while the final card's effects are paid. It leaves the seat arithmetic, so it is never
        given a turn, a duty or a passed-on penalty again."""
        if self.active[seat]:
            self.active[seat] = False
            self.active_count -= 1

    def on_turn(self, seat: int) -> bool:
        """It is `seat`'s turn and nothing else comes first: the deal is being played, nobody
        owes anything, and it is not over (what `expect` refuses, as a question)."""
        if seat != self.turn or self.duties or self.phase is not Phase.PLAYING:
            return False
        return self.active_count > 1 if self.elimination else self.winner is None  # deal_done

    def can_pass_on(self, seat: int) -> bool:
        """Someone other than `seat` is still playing, to take a penalty passed on."""
        return self.next_seat(seat) != seat

    def to_move(self) -> int | None:
        """The seat whose action the game is waiting for (None when nobody's: deal over)."""
        if self.phase is not Phase.PLAYING:
            return None
        return self.duties[0].seat if self.duties else self.turn

    def next_to_play(self) -> int | None:
        """The seat that plays once the seat the game waits for (`to_move`) is done, when it
        makes no choice that changes the order: every owed duty is paid (a penalty accepted,
        neither passed on nor challenged), or the player whose turn it is draws, presses or
        plays a card without an effect on the order. None when no deal is being played or the
        winner's final-card effects are all that is left."""
        if self.phase is not Phase.PLAYING or (self.winner is not None and not self.elimination):
            return None
        return self.turn if self.duties else self.next_seat(self.turn)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The active seat `steps` places after `seat` in the current direction."""
        n = self.players
        if self.active_count == n:
            return (seat + self.direction * steps) % n
        step = self.direction if steps > 0 else -self.direction
        for _ in range(abs(steps)):
            seat = (seat + step) % n
            while not self.active[seat]:
                seat = (seat + step) % n
        return seat

    def seats_after(self, seat: int) -> list[int]:
        """The other active seats in play order, starting with the next one."""
        order: list[int] = []
        other = seat
        for _ in range(self.players):
            other = self.next_seat(other)
            if other == seat or other in order:
                break
            order.append(other)
        return order

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    def in_uno_state(self, seat: int) -> bool:
        """§5: one card left, or a hand that could all go down together (multi-card rules)."""
        hand = self.hands[seat]
        return len(hand) == 1 or (
            self.uno_rule != "one_card" and uno_state(hand, self.uno_rule, self.effects)
        )

    def cards_in_play(self) -> list[Card]:
        """Every card the game holds: for conservation checks."""
        return (
            [c for hand in self.hands for c in hand] + self.pile + self.discard + self.unaccounted
        )

    def value(self, hand: list[Card]) -> int:
        points = self.deck.points
        return sum(points[c.face] for c in hand)

    # ----------------------------------------------------------------- shared mechanics

    def expect(self, seat: int, what: str) -> None:
        """Refuse a turn action unless it is `seat`'s turn and nothing else is owed."""
        if seat != self.turn or self.duties or self.winner is not None:
            self._check_turn(seat, what)
        elif self.phase is not Phase.PLAYING:
            raise WrongPhase(f"the deal is {self.phase.value.replace('_', ' ')}: cannot {what}")

    def _check_turn(self, seat: int, what: str) -> None:
        if self.phase is not Phase.PLAYING:
            raise WrongPhase(f"the deal is {self.phase.value.replace('_', ' ')}: cannot {what}")
        if self.deal_done():
            raise WrongPhase(f"the deal is over: cannot {what}")
        if self.duties:
            duty = self.duties[0]
            raise NotYourTurn(f"P{duty.seat} must {duty_text(duty)} first")
        if seat != self.turn:
            raise NotYourTurn(f"it is P{self.turn}'s turn, not P{seat}'s")

    def end_turn(self, seat: int) -> None:
        self.turn = self.next_seat(seat)
        self.drawn = None
        self.pressed = False
        self.free_lead = False

    def refill(self, events: list[Event]) -> bool:
        """The pile is empty: shuffle every discard but the top card into it (§8)."""
        spare = self.discard[:-1]
        if not spare:
            return False
        del self.discard[:-1]
        if self.knowledge is Knowledge.TABLE:
            spare = [UNKNOWN] * len(spare)
        else:
            self.rng.shuffle(spare)
        self.pile[:0] = spare
        self.refilled += len(spare)
        events.append(Reshuffled(len(spare)))
        return True

    def reload(self, events: list[Event]) -> bool:
        """Table mode (§8): the players filled the empty launcher with the discard pile but its
        top card, so it holds those and nothing else. Discards the engine had already moved into
        it (at the press that found it empty) were still on the table and went in too; any other
        card it still counted was not there (a drifted count): it is unaccounted for, and a hand
        count corrected up takes it first. False, and nothing changed, if no card went in."""
        on_table = min(self.refilled, len(self.pile))  # refills go under the cards it held
        if not on_table and len(self.discard) < 2:
            return False
        self.unaccounted.extend(self.pile[on_table:])
        del self.pile[on_table:]
        self.refill(events)
        self.refilled = 0
        return True

    def take(self, count: int, events: list[Event]) -> list[Card]:
        """Up to `count` cards off the pile, refilling it as needed; fewer if none are left."""
        taken: list[Card] = []
        pile = self.pile
        while len(taken) < count:
            if not pile and not self.refill(events):
                break
            taken.append(pile.pop())
        return taken

    def draw(self, seat: int, count: int, why: Why, events: list[Event]) -> list[Card]:
        cards = self.take(count, events)
        self.hands[seat].extend(cards)
        if self.called:
            self.forget_call(seat)
        events.append(Drew(seat, tuple(cards), why))
        return cards

    def launch(self, seat: int, reported: int, why: Why, events: list[Event]) -> int:
        """A press gave `reported` cards: move them from the launcher to `seat` (§3.6)."""
        if reported < 0:
            raise IllegalAction(f"a press cannot give {reported} cards")
        if reported > len(self.pile) + len(self.discard) - 1 and self.knowledge is Knowledge.TABLE:
            raise IllegalAction(
                f"the launcher cannot have given {reported} cards: at most "
                f"{len(self.pile) + len(self.discard) - 1} are out of players' hands"
            )
        if not self.pile:
            self.refill(events)
        cards = self.take(min(reported, len(self.pile)), events)
        self.hands[seat].extend(cards)
        if self.called and cards:
            self.forget_call(seat)
        events.append(Pressed(seat, tuple(cards), why, reported))
        return len(cards)

    def unseen_copies(self, c: Card) -> int:
        """Copies of `c` nobody can see: not in the discard pile nor a hand known to hold it
        (at a table, an unseen card can only be one of these). Edition 0 counted none seen."""
        if self.rules.edition < 1:
            return self.deck.copies(c)
        seen = self.discard.count(c) + sum(hand.count(c) for hand in self.hands)
        return self.deck.copies(c) - seen

    def forget_call(self, seat: int) -> None:
        """`seat`'s hand changed: an UNO call made for the old hand no longer stands."""
        self.called = tuple(s for s in self.called if s != seat)

    def exhausted(self) -> bool:
        """§8: no card is left to draw or to reload: the draw pile (the launcher) is empty and
        the discard pile is only its top card (every other card is in a hand)."""
        return not self.pile and len(self.discard) <= 1

    def note_turn(self, seat: int, got: int) -> None:
        """§8 [ENG] blocked deal: `seat`'s turn drew or pressed and got `got` cards. While
        nothing is left to draw or reload, a draw or press that gives nothing is an empty turn
        (a play later in the same turn starts the count again, as every play does); anything
        else starts the count again."""
        if got or not self.exhausted():
            self.empty_turns = 0
        else:
            self.empty_turns += 1
            self.last_empty = seat

    def round_of_empty_turns(self) -> bool:
        """§8: every active player in turn has drawn or pressed for nothing without playing,
        nothing is left to draw or reload, and no turn or duty is still open: the deal is
        blocked."""
        return (
            self.rules.blocked_deals
            and self.empty_turns >= self.active_count
            and self.phase is Phase.PLAYING
            and not self.duties
            and not self.pressed
            and self.drawn is None
            and (self.winner is None or self.elimination)
            and self.exhausted()
        )

    def close_windows(self) -> None:
        """A voluntary action closes the catch window (§5) and the jump-in window (§10.2)."""
        if self.exposed:
            self.late = (*self.late, *self.exposed)
            self.exposed = ()
        self.jump = None

    def forget_missed(self, seat: int) -> None:
        """`seat` played or was handed another hand: its UNO state is judged afresh, and an
        earlier catch or closed window no longer applies to it."""
        self.caught = tuple(s for s in self.caught if s != seat)
        self.late = tuple(s for s in self.late if s != seat)

    def penalise(self, seat: int, why: Why, events: list[Event]) -> None:
        """The 2-card UNO-type penalty: draw 2 (classic) or press twice, before anything else."""
        if self.attack:
            self.owe_presses(seat, 2, why, events)
        else:
            self.draw(seat, 2, why, events)

    def owe_presses(self, seat: int, presses: int, why: Why, events: list[Event]) -> None:
        """A penalty: `seat` presses `presses` times before anything else happens."""
        self.duties.insert(0, Duty(DutyKind.PRESS, seat, count=presses, why=why))
        events.append(Owes(seat, presses, why))


def duty_text(duty: Duty) -> str:
    """A person-readable line for an owed duty ("press the launcher 2 more times")."""
    if duty.kind is DutyKind.PRESS:
        return f"press the launcher {duty.count} more time{'s' if duty.count > 1 else ''}"
    if duty.kind is DutyKind.PRESS_UNTIL_FIRE:
        return "press the launcher until cards come out"
    if duty.kind is DutyKind.CHOOSE_COLOUR:
        return "name a colour"
    if duty.challengeable:
        return f"accept the {duty.count}-card penalty or challenge it"
    return f"take the {duty.count}-card penalty or pass it on"


def uno_state(hand: Sequence[Card], rule: str, effects: Mapping[Face, Effect]) -> bool:
    """§5: one card left, or (under the multi-card rules) a hand that could all go down
    together: identical cards, or cards of one face."""
    if len(hand) == 1:
        return True
    if rule == "one_card" or len(hand) < 2 or UNKNOWN in hand:
        return False
    first = hand[0]
    if first.face is not hand[-1].face:  # the usual answer, at a glance
        return False
    if rule == "one_card_or_identical":
        return all(c is first for c in hand)
    return all(c.face is first.face for c in hand) and effects[first.face].may_be_last
