"""Bots for simulation: a uniformly random player and a simple heuristic one.

A bot answers two questions: which of these actions do I take (`choose`), and do I catch a
player who forgot to call UNO (`catches`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from .actions import Accept, Action, ChooseColour, Draw, Pass, Play, Press
from .cards import COLOURS, Card, Colour
from .game import Game


class Bot(Protocol):
    def choose(self, game: Game, actions: list[Action]) -> Action: ...

    def catches(self, game: Game, target: int) -> bool: ...

    def jumps_in(self, game: Game, plays: list[Play]) -> Play | None: ...


class RandomBot:
    """Picks uniformly among its legal plays, and draws (or presses, or keeps a drawn card) only
    when it has none, like RLCard's random agent; with `reckless=True` it picks uniformly among
    all its legal actions. It calls UNO, or forgets to with probability `forgets_uno`, and
    catches every missed UNO it sees."""

    def __init__(
        self, rng: random.Random, *, reckless: bool = False, forgets_uno: float = 0.0
    ) -> None:
        self.rng = rng
        self.reckless = reckless
        self.forgets_uno = forgets_uno

    def choose(self, game: Game, actions: list[Action]) -> Action:
        if not self.reckless and len(actions) > 1 and type(actions[-1]) in _FALLBACKS:
            actions = actions[:-1]
        chosen = self.rng.choice(actions)
        forgets = self.forgets_uno and self.rng.random() < self.forgets_uno
        if forgets and type(chosen) is Play and chosen.uno:
            return dataclasses.replace(chosen, uno=False)
        return chosen

    def catches(self, game: Game, target: int) -> bool:
        return True

    def jumps_in(self, game: Game, plays: list[Play]) -> Play | None:
        """Half the time it can, a random bot jumps in (§10.2)."""
        return self.rng.choice(plays) if plays and self.rng.random() < 0.5 else None


_FALLBACKS = (Draw, Press, Pass)


class HeuristicBot:
    """Plays like a sensible person: hits the next player when a leader is near out, sheds
    high cards first, keeps wilds for when nothing else fits, always calls UNO and catches,
    never challenges."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, actions: list[Action]) -> Action:
        plays = [a for a in actions if isinstance(a, Play)]
        if plays:
            return self._best(game, plays)
        for kind in (ChooseColour, Accept, Pass, Press):
            chosen = [a for a in actions if isinstance(a, kind)]
            if chosen:
                return self._pick(game, chosen)
        return actions[0]

    def catches(self, game: Game, target: int) -> bool:
        return True

    def jumps_in(self, game: Game, plays: list[Play]) -> Play | None:
        """Always jump in: shedding a card out of turn is free."""
        return self._best(game, plays) if plays else None

    def _pick(self, game: Game, actions: Sequence[Action]) -> Action:
        colours = [a for a in actions if isinstance(a, ChooseColour)]
        if colours:
            best = _favourite_colour(game.hands[colours[0].seat])
            return next(a for a in colours if a.colour is best)
        return actions[0]

    def _best(self, game: Game, plays: list[Play]) -> Play:
        """The play of the highest score (the first of equals), each scored in order."""
        seats: dict[int, _Seat] = {}
        best, best_score = plays[0], -math.inf
        for play in plays:
            seat = seats.get(play.seat)
            if seat is None:
                seat = seats[play.seat] = _Seat(game, play.seat)
            score = self._score(game, seat, play)
            if score > best_score:
                best, best_score = play, score
        return best

    def _score(self, game: Game, seat: _Seat, play: Play) -> float:
        effect = game.effects[play.card.face]  # this deal's table: house rules included
        hits = effect.skip or effect.draw or effect.presses or effect.until_fire
        score = 10.0 if play.uno else 0.0
        score += 8.0 if hits and seat.threat else 0.0
        score += game.deck.points[play.card.face] / 10
        score -= 6.0 if play.card.is_wild else 0.0
        if play.colour is not None and play.colour is seat.favourite:
            score += 1.0
        if effect.trade and play.target is not None:
            score += len(seat.hand) - len(game.hands[play.target])
        if effect.discard_colour:
            score += sum(1 for c in seat.hand if c.colour is play.card.colour)
        return score + self.rng.random() / 100


class _Seat:
    """What a seat's plays are scored against, the same for all of them: worked out once per
    decision (it was once a third of a simulated deal's time, worked out for every play)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.hand = game.hands[seat]
        victim = len(game.hands[game.next_seat(seat)])
        self.threat = victim <= 2 or victim == _fewest(game, seat)

    @functools.cached_property
    def favourite(self) -> Colour:
        return _favourite_colour(self.hand)


def _fewest(game: Game, seat: int) -> int:
    return min(len(hand) for other, hand in enumerate(game.hands) if other != seat)


def _favourite_colour(hand: list[Card]) -> Colour:
    counts = Counter(c.colour for c in hand if c.colour is not None)
    return max(COLOURS, key=lambda colour: counts[colour])
