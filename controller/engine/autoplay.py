"""Playing deals out with bots, in full mode: the loop behind `uno-attack simulate`, the
benchmarks and the property tests. The launcher's output is injected (`CardsPerPress`), so the
engine still never decides how many cards a press gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Catch, Draw, Play, Press
from .bots import Bot
from .errors import EngineError
from .events import Event, Pressed
from .game import Game
from .legal_actions import jump_ins
from .notation import event_text
from .state import Phase

CardsPerPress = Callable[[Game], int]
"""How many cards the next press gives, asked with the game as it stands."""


MAX_ACTIONS = 100_000
"""Actions a simulated deal may take: far beyond any real one (a few hundred at most)."""


class RunawayGame(EngineError, RuntimeError):
    """A simulated deal went on far longer than any real one without ending. The rules end a
    deal when a player goes out or, with nothing left to draw, after a full round of turns that
    got nothing (§8's blocked deal); bots that keep playing (passing draw cards round while
    every card is in a hand) never reach either. The message says how far the deal got."""


def runaway_text(actions: int, in_hands: int, deck: int, left: int) -> str:
    """Why a simulated deal was stopped, in words (both simulation paths say the same)."""
    where = f"{in_hands} of the {deck} cards in hands, {left} left to draw or reload"
    return (
        f"the deal had not ended after {actions:,} actions ({where}): the bots kept playing "
        "without anyone going out, and no rule ends a deal while cards are played (§8 ends "
        "one only after a full round of turns that got nothing); try other options or bots"
    )


@dataclass
class DealStats:
    """What happened in one deal, for the simulation summary."""

    turns: int = 0
    presses: int = 0
    cards_pressed: int = 0
    longest_drought: int = 0
    drought: int = 0
    transcript: list[str] | None = None

    def count(self, events: list[Event]) -> None:
        if self.transcript is not None:
            self.transcript.extend(event_text(event) for event in events)
        for event in events:
            if type(event) is Pressed:
                self.presses += 1
                got = len(event.cards)
                self.cards_pressed += got
                self.drought = 0 if got else self.drought + 1
                self.longest_drought = max(self.longest_drought, self.drought)


def play_out(
    game: Game,
    bots: Sequence[Bot],
    press: CardsPerPress,
    *,
    max_steps: int | None = None,
    record: bool = False,
) -> DealStats:
    """Let the bots play `game` to its end; return the deal's statistics (and, with `record`,
    a transcript: every event in words). A deal still going after `max_steps` actions
    (`MAX_ACTIONS` unless given) raises `RunawayGame`."""
    max_steps = MAX_ACTIONS if max_steps is None else max_steps
    stats = DealStats(transcript=[] if record else None)
    count, over = stats.count, Phase.OVER
    for _ in range(max_steps):
        if game.phase is over:
            return stats
        duties = game.duties
        seat = duties[0].seat if duties else game.turn
        action = bots[seat].choose(game, game.moves())
        kind = type(action)
        if kind is Press:
            action = _press(seat, press(game))
        if not duties and kind in _TURNS:
            stats.turns += 1
        count(game.push(action))
        if game.exposed:
            _offer_catch(game, bots, stats)
        while game.jump is not None and _offer_jump_in(game, bots, stats):
            pass
    if game.phase is over:  # ended by the last action allowed
        return stats
    in_hands = sum(map(len, game.hands))
    raise RunawayGame(runaway_text(max_steps, in_hands, game.deck.size, remaining_for_press(game)))


def _press(seat: int, cards: int) -> Press:
    """Presses are few and immutable: one object per seat and count."""
    key = (seat, cards)
    found = _PRESSES.get(key)
    if found is None:
        found = _PRESSES[key] = Press(seat, cards)
    return found


_PRESSES: dict[tuple[int, int], Press] = {}
_TURNS = (Play, Draw, Press)


def _offer_catch(game: Game, bots: Sequence[Bot], stats: DealStats) -> None:
    exposed = game.exposed[0]
    for seat in game.seats_after(exposed):
        if bots[seat].catches(game, exposed):
            catch = Catch(seat, exposed)
            stats.count(game.push(catch))
            return


def _offer_jump_in(game: Game, bots: Sequence[Bot], stats: DealStats) -> bool:
    """§10.2: the other players may jump in, in play order; the first who does wins."""
    offered = jump_ins(game)
    for seat in dict.fromkeys(action.seat for action in offered):
        mine = [action for action in offered if action.seat == seat]
        chosen = bots[seat].jumps_in(game, mine)
        if chosen is not None:
            stats.count(game.push(chosen))
            return not game.over
    return False


def remaining_for_press(game: Game) -> int:
    """Cards a press could give now: the launcher, or what a reload would put in it."""
    return len(game.pile) or max(len(game.discard) - 1, 0)
