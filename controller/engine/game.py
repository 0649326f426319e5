"""One deal of UNO Attack or classic UNO: its state and the verbs to drive it.

The verbs, as in python-chess: `legal_actions()`, `is_legal(action)`, `push(action) -> events`,
`copy()`; and `apply(game, action) -> (new_game, events)` for callers that want values. Every
refused action raises an `IllegalAction` subclass and leaves the game untouched. The engine is
pure: no I/O, no clock; randomness (shuffling) comes from the injected `random.Random`.

The rule handlers live in small modules (`play`, `moves`, `claims`, `start`, `scoring`); this
module holds the state, seat arithmetic and the card piles they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from . import claims, legal, moves, play, scoring, start
from .actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Correct,
    Draw,
    EnterHand,
    Pass,
    Play,
    Press,
    Suggest,
    TurnUp,
)
from .cards import UNKNOWN, Card, Colour, Face
from .decks import DeckSpec
from .effects import EFFECTS, Effect, effects_for
from .errors import IllegalAction, NotYourTurn, WrongPhase
from .events import Drew, Event, Owes, Pressed, Reshuffled, Why
from .legality import uno_state
from .options import Rules
from .state import Duty, DutyKind, Knowledge, Phase

if TYPE_CHECKING:
    Handler = Callable[["Game", Action, list[Event]], None]


class Game:
    """The state of one deal. Create it with `controller.engine.deal()` (or a test position)."""

    rules: Rules
    deck: DeckSpec
    players: int
    knowledge: Knowledge
    rng: random.Random
    hands: list[list[Card]]
    pile: list[Card]  # draw pile (classic) or launcher stack (Attack); the top is the end
    discard: list[Card]  # the top card is the end
    colour: Colour | None  # the active colour (None until a turned-up wild is named)
    direction: int
    dealer: int
    turn: int  # whose turn it is once the duties are done
    duties: list[Duty]
    drawn: Card | None  # classic: the card just drawn, which may still be played
    exposed: tuple[int, ...]  # players at one card who have not called UNO, while catchable
    jump: tuple[int, Card] | None  # §10.2: who played which card, while others may jump in
    pressed: bool  # atk_play_after_press: the player pressed and may still play
    free_lead: bool  # a turned-up Wild under start_wild=free_lead: any card may be played
    active: list[bool]  # seats still playing this deal
    active_count: int
    finished: list[int]  # §9.3: the order players went out (within-deal elimination)
    effects: Mapping[Face, Effect]  # the effects table under this deal's rules
    jumpin: str | None  # the rules' derived settings, read on every play
    multi: str | None
    uno_rule: str
    elimination: bool
    attack: bool
    may_draw: bool
    plain: bool  # no house rule changes what may be played: the quick paths apply
    winner: int | None
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
        self.discard = []
        self.colour = None
        self.direction = 1
        self.dealer = dealer
        self.turn = dealer
        self.duties = []
        self.drawn = None
        self.exposed = ()
        self.jump = None
        self.pressed = False
        self.free_lead = False
        self.active = [True] * players if active is None else list(active)
        self.active_count = self.active.count(True)
        if len(self.active) != players or self.active_count < 2 or not self.active[dealer]:
            raise IllegalAction("a deal needs 2 or more playing seats and a dealer among them")
        self.finished = []
        self.effects = effects_for(rules)
        self.jumpin = rules.jumpin
        self.multi = rules.multi
        self.uno_rule = rules.uno_rule
        self.elimination = rules.format == "elim_within_deal"
        self.attack = rules.attack
        self.may_draw = rules.may_draw
        self.plain = (
            rules.multi is None
            and rules.wild_after_draw == "off"
            and self.effects is EFFECTS
            and not rules.whf_needs_no_colour_match
        )
        self.winner = None
        self.phase = Phase.TURN_UP
        self.shown = {}
        self.points = None

    # ----------------------------------------------------------------- the verbs

    def legal_actions(self) -> list[Action]:
        """Every action accepted now, by any player, including the forced ones (owed presses)
        and the out-of-turn ones (catching a missed UNO). Claims that would be false (a wrong
        UNO call or catch) are left out: `push` accepts them and applies their penalty.

        An owed or chosen `Press` is listed with `cards=0`; replace it with the launcher's real
        count. In table mode `EnterHand` is listed empty: fill in the cards or points shown."""
        return legal.actions(self)

    def moves(self) -> list[Action]:
        """The legal actions of the player the game waits for (`to_move()`), without the
        out-of-turn claims: what a bot chooses from."""
        if self.phase is not Phase.PLAYING:
            return legal.actions(self)
        return legal.duty_actions(self) if self.duties else legal.turn_actions(self)

    def is_legal(self, action: Action) -> bool:
        try:
            self.copy().push(action)
        except IllegalAction:
            return False
        return True

    def push(self, action: Action) -> list[Event]:
        """Check and apply `action`; return what happened. Raises IllegalAction (and changes
        nothing) when the rules do not allow it."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action!r} is not an action")
        events: list[Event] = []
        handler(self, action, events)
        ending = self.winner is not None or self.elimination
        if ending and self.phase is Phase.PLAYING and self.deal_done():
            scoring.end_deal(self, events)
        return events

    def copy(self) -> Game:
        """An independent copy (its own random generator state included)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = [hand[:] for hand in self.hands]
        other.pile = self.pile[:]
        other.discard = self.discard[:]
        other.duties = [duty.copy() for duty in self.duties]
        other.active = self.active[:]
        other.finished = self.finished[:]
        other.shown = dict(self.shown)
        return other

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

    def to_move(self) -> int | None:
        """The seat whose action the game is waiting for (None when nobody's: deal over)."""
        if self.phase is not Phase.PLAYING:
            return None
        return self.duties[0].seat if self.duties else self.turn

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
        return [c for hand in self.hands for c in hand] + self.pile + self.discard

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
        events.append(Reshuffled(len(spare)))
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
        events.append(Pressed(seat, tuple(cards), why, reported))
        return len(cards)

    def launcher_exhausted(self) -> bool:
        """No card is in the launcher and none could be reloaded into it."""
        return not self.pile and len(self.discard) <= 1

    def close_windows(self) -> None:
        """A voluntary action closes the catch window (§5) and the jump-in window (§10.2)."""
        self.exposed = ()
        self.jump = None

    def penalise(self, seat: int, why: Why, events: list[Event]) -> None:
        """The 2-card UNO-type penalty: draw 2 (classic) or press twice, before anything else."""
        if self.rules.attack:
            self.owe_presses(seat, 2, why, events)
        else:
            self.draw(seat, 2, why, events)

    def owe_presses(self, seat: int, presses: int, why: Why, events: list[Event]) -> None:
        """A penalty: `seat` presses `presses` times before anything else happens."""
        self.duties.insert(0, Duty(DutyKind.PRESS, seat, presses, why))
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


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """The functional form of `push`: a new game and the events; `game` is unchanged."""
    new = game.copy()
    events = new.push(action)
    return new, events


_HANDLERS: dict[type, Handler] = {
    Play: play.push_play,  # type: ignore[dict-item]
    Draw: moves.push_draw,  # type: ignore[dict-item]
    Pass: moves.push_pass,  # type: ignore[dict-item]
    Press: moves.push_press,  # type: ignore[dict-item]
    Accept: moves.push_accept,  # type: ignore[dict-item]
    Challenge: moves.push_challenge,  # type: ignore[dict-item]
    ChooseColour: moves.push_choose_colour,  # type: ignore[dict-item]
    CallUno: claims.push_call_uno,  # type: ignore[dict-item]
    Catch: claims.push_catch,  # type: ignore[dict-item]
    Suggest: claims.push_suggest,  # type: ignore[dict-item]
    TurnUp: start.push_turn_up,  # type: ignore[dict-item]
    EnterHand: scoring.push_enter_hand,  # type: ignore[dict-item]
    Correct: claims.push_correct,  # type: ignore[dict-item]
}
