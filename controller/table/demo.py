"""The demo: bots play a table at a watchable pace on the simulated launcher.

Each bot move goes through the same paths as people's: taps become logged commands, and a bot
that must press the launcher presses the simulated button, so the press travels through the
launcher's input thread, the eject policy, the motor and the card sensor (at a table without
one, it says how many cards came out, as people do). A visitor can take a
seat (`take_seat`) and play it from a tablet; the bots wait for them.

The bots only play matches they set up themselves: once a person sets up a table, they leave it
alone. When the simulated launcher runs empty they reload it as players do (the discard pile but
its top card); when it jams they pull the stuck cards out and correct the presser's hand count
by them. A finished match stays on the screens for `hold` seconds before the next one.
`speed` runs everything that many times faster.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from controller.engine import EngineError, Game, Phase
from controller.table.codec import InvalidInput, action_to_dict

from .service import TableService
from .session import TableSetup

log = logging.getLogger(__name__)

NAMES = ("Ada", "小明", "Bo", "Lin", "Chen", "Dara", "Eli", "方方", "Gus", "Hui")


class DemoTable:
    """Drives `service` from its owner thread (a tick hook)."""

    def __init__(
        self,
        service: TableService,
        *,
        players: int = 4,
        pace: float = 1.2,
        speed: float = 1.0,
        hold: float = 30.0,
        target: int = 300,
        game: str = "attack",
        rng: random.Random | None = None,
        clock: Any = time.monotonic,
    ) -> None:
        self.service = service
        self.players = players
        self.pace = pace / speed
        self.hold = hold / speed
        self.game = game
        self.target = target
        self.humans: set[int] = set()
        self.own: TableSetup | None = None  # the set-up of the match the bots are playing
        self.held_until: float | None = None  # a finished match stays on screen until then
        self._adopted = False
        self._rng = rng or random.Random()
        self._clock = clock
        self._next = 0.0
        service.on_tick.append(self.tick)
        service.tick_interval = min(service.tick_interval, max(self.pace, 0.01))

    def playing(self) -> bool:
        """Whether the match on the table is the bots' (any thread: reads one reference)."""
        session = self.service.session
        return session is not None and bool(session.setup == self.own)

    def take_seat(self, seat: int) -> None:
        """A visitor plays `seat` from now on (the bots wait for them)."""
        if not 0 <= seat < self.players:
            raise InvalidInput(f"there is no seat {seat}")
        self.humans.add(seat)

    def leave_seat(self, seat: int) -> None:
        self.humans.discard(seat)

    def seats_after(self, change: Callable[[], None]) -> list[int]:
        """Run `change` on the owner thread (where the bots read the seats) and return the
        seats people play afterwards (any thread)."""

        def run() -> list[int]:
            change()
            return sorted(self.humans)

        seats: list[int] = self.service.call(run)
        return seats

    def tick(self) -> None:
        now = self._clock()
        if now < self._next:
            return
        self._next = now + self.pace
        try:
            self._step()
        except (EngineError, InvalidInput) as error:
            log.info("demo bot move refused: %s", error)

    def _step(self) -> None:
        session = self.service.session
        if not self._adopted:
            self._adopt()
        if session is not None and session.setup != self.own:
            return  # a person set this table up: it is theirs
        if session is None or self._next_match_due(session.match.over):
            self._command({"type": "setup", "setup": self._setup()})
            self.own = self.service.session.setup if self.service.session else None
            return
        if session.match.over:
            return
        if self._tend_launcher(session.game):
            return
        game = session.game
        if game is None:
            self._command({"type": "deal"})
        elif game.phase is Phase.TURN_UP:
            self._act({"type": "TurnUp", "card": self._rng.choice(game.deck.cards()).text})
        elif game.phase is Phase.SCORING:
            self._enter_hand(game)
        elif game.phase is Phase.PLAYING:
            self._play(game)

    def _adopt(self) -> None:
        """After a restart: the match in the log is the bots' if they set it up."""
        self._adopted = True
        session = self.service.session
        records = self.service.store.records(self.service.table_id)
        setups = [r for r in records if r.kind == "setup"]
        if session is not None and setups and setups[-1].actor == "bot":
            self.own = session.setup

    def _next_match_due(self, over: bool) -> bool:
        """A finished match is held on the screens for `hold` seconds, then replaced."""
        if not over:
            self.held_until = None
            return False
        now: float = self._clock()
        if self.held_until is None:
            self.held_until = now + self.hold
        return now >= self.held_until

    def _tend_launcher(self, game: Game | None) -> bool:
        """Do what players do when the launcher stops: reload it, or clear the jam."""
        launcher = self.service.launcher
        fault = None if launcher is None else launcher.fault
        if fault is None or game is None:
            return False
        if fault.kind == "empty" and game.phase is Phase.PLAYING:
            try:
                self._command({"type": "reload"})
                return True
            except (EngineError, InvalidInput):
                pass  # nothing to reload: a press now gives nothing
        assert launcher is not None
        simulator = getattr(launcher, "simulator", None)
        pulled = 0 if simulator is None else simulator.clear_jam()  # a bot pulls it out
        launcher.clear_fault()
        if pulled:
            self._hand_to_presser(game, pulled)
        return True

    def _hand_to_presser(self, game: Game, pulled: int) -> None:
        """Cards pulled out of a jam belong to whoever pressed (RULES.md §3.4): the bots
        correct that hand's count, as a person does on the scoreboard."""
        last = self.service.snapshot().get("launcher", {}).get("last") or {}
        seat = last.get("seat")
        if last.get("stop") != "jam" or seat is None:
            return  # no press jammed: no presser to give the cards to
        self._act({"type": "Correct", "seat": seat, "count": len(game.hands[seat]) + pulled})

    def _setup(self) -> dict[str, Any]:
        return {
            "players": list(NAMES[: self.players]),
            "game": self.game,
            "first_dealer": self._rng.randrange(self.players),
            "seed": self._rng.randrange(1 << 30),
            "options": {"target": self.target},
        }

    def _enter_hand(self, game: Game) -> None:
        for seat, hand in enumerate(game.hands):
            if seat not in game.shown and seat not in self.humans:
                points = sum(self._rng.randint(1, 12) for _ in hand)
                self._act({"type": "EnterHand", "seat": seat, "points": points})
                return

    def _play(self, game: Game) -> None:
        catches = [a for a in game.legal_actions() if type(a).__name__ == "Catch"]
        if catches and self._rng.random() < 0.6:
            catch = self._rng.choice(catches)
            self._act({"type": "Catch", "seat": catch.seat, "target": catch.target})  # type: ignore[union-attr]
            return
        seat = game.to_move()
        if seat is None or seat in self.humans:
            return
        choice = self._choose(game, [action_to_dict(a) for a in game.moves()])
        if choice["type"] == "Press":
            self._press(seat)
        else:
            self._act(choice)

    def _choose(self, game: Game, moves: list[dict[str, Any]]) -> dict[str, Any]:
        """A plausible move: mostly play when a card fits, sometimes draw or press."""
        rng = self._rng
        plays = [m for m in moves if m["type"] == "Play"]
        fallback = [m for m in moves if m["type"] in ("Press", "Draw", "Pass", "Accept")]
        if plays and (not fallback or rng.random() < 0.65):
            card = rng.choice(sorted({m["card"] for m in plays}))
            chosen = rng.choice([m for m in plays if m["card"] == card])
            if chosen["uno"] and rng.random() < 0.25:
                chosen = chosen | {"uno": False}  # forgets: somebody may catch it
            return chosen
        return rng.choice(fallback or moves)

    def _press(self, seat: int) -> None:
        simulator = getattr(self.service.launcher, "simulator", None)
        if simulator is not None:
            simulator.press()
            self._next = self._clock() + 2 * self.pace
        else:
            self._act({"type": "Press", "seat": seat, "cards": self._rng.choice((0, 0, 1, 3))})

    def _act(self, action: dict[str, Any]) -> None:
        self._command({"type": "action", "action": action})

    def _command(self, command: dict[str, Any]) -> None:
        self.service.run_now(command, actor="bot")
