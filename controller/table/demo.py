"""The demo: bots play a table at a watchable pace on the simulated launcher.

Each bot move goes through the same paths as people's: taps become logged commands, and a bot
that must press the launcher presses the simulated button, so the press travels through the
launcher's input thread, the eject policy, the motor and the card sensor (at a table without
one, it says how many cards came out, as people do). A visitor can take a
seat (`take_seat`) and play it from a tablet; the bots wait for them.

The bots play the matches they set up themselves and any table a person hands them (`hand_over`,
"Let the bots play"); a table a person sets up is theirs and the bots leave it alone until it is
handed over, and `take_back` gives the bots' table to the people. At a table whose rounds a
tournament across tables seats (its state's `tournament`), the bots play each match the tournament
sets up there if they were playing the table (or nobody was), and never set up one of their own:
the tournament seats the next round. Which match the bots play is kept in the table's settings,
so after a restart they carry on with it by themselves. Tablets hear of every change of that
(and of the seats people took) as a `demo` message. On a score-only table the bots enter each
round's result. When the simulated launcher runs empty they reload it as players do (the discard
pile but its top card); when it jams they pull the stuck cards out and correct the presser's
hand count by them. A finished match stays on the screens for `hold` seconds before the next
one. `speed` runs everything that many times faster.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from controller.engine import Catch, EngineError, Game, IllegalAction, Phase
from controller.table.codec import InvalidInput, action_to_dict

from .hub import Message
from .service import TableService
from .session import TableSetup

log = logging.getLogger(__name__)

NAMES = ("Ada", "小明", "Bo", "Lin", "Chen", "Dara", "Eli", "方方", "Gus", "Hui")
PLAYS_KEY = "demo_plays"  # the setting: seq of the set-up of the match the bots play ("" none)


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
        self._seen: TableSetup | None = None  # the set-up of the match last looked at
        self._told: dict[str, Any] | None = None  # the demo view the tablets last heard
        self._rng = rng or random.Random()
        self._clock = clock
        self._next = 0.0
        service.on_tick.append(self.tick)
        service.tick_interval = min(service.tick_interval, max(self.pace, 0.01))

    def playing(self) -> bool:
        """Whether the match on the table is the bots' (any thread: reads one reference)."""
        session = self.service.session
        return session is not None and bool(session.setup == self.own)

    def view(self) -> dict[str, Any]:
        """What the tablets show of the demo: whether the bots play the table, the seats people
        took from them, and whether there is a table to hand over."""
        return {
            "playing": self.playing(),
            "humans": sorted(self.humans),
            "table": self.service.session is not None,
        }

    def take_seat(self, seat: int) -> None:
        """A visitor plays `seat` from now on (the bots wait for them)."""
        session = self.service.session
        if not self.playing() or session is None:
            raise IllegalAction("the bots are not playing this table: it is all yours")
        if not 0 <= seat < len(session.setup.players):
            raise InvalidInput(f"there is no seat {seat}")
        self.humans.add(seat)

    def leave_seat(self, seat: int) -> None:
        self.humans.discard(seat)

    def hand_over(self) -> None:
        """Owner thread: the bots play the match on the table from now on, every seat (a table
        with no match, or a finished one, gets a new match of theirs)."""
        session = self.service.session
        self.humans.clear()
        self.own = None if session is None else session.setup
        self._next = 0.0  # they start at once
        self._remember()

    def take_back(self) -> None:
        """Owner thread: the bots leave the match on the table to the people."""
        if not self.playing():
            raise IllegalAction("the bots are not playing this table")
        self.own = None
        self.humans.clear()
        self._remember()

    def seats_after(self, change: Callable[[], None]) -> dict[str, Any]:
        """Run `change` on the owner thread (where the bots read the seats), tell the tablets,
        and return the demo's view afterwards (any thread)."""

        def run() -> dict[str, Any]:
            change()
            self._announce()
            return self.view()

        view: dict[str, Any] = self.service.call(run)
        return view

    def _remember(self) -> None:
        """Keep which match the bots play in the table's settings, for after a restart."""
        plays = self.service.store.match_start(self.service.table_id) if self.own else 0
        self.service.set_setting(PLAYS_KEY, str(plays) if plays else "")

    def _announce(self) -> None:
        """Tell the tablets when the demo's view changed (a person's set-up ends the bots'
        play without asking them, so this runs at every tick too)."""
        view = self.view()
        if view != self._told:
            self._told = view
            self.service.hub.publish(Message("demo", view))

    def tick(self) -> None:
        self._announce()
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
        self._follow_tournament()
        if session is not None and session.setup != self.own:
            return  # a person set this table up: it is theirs
        if self._in_tournament():
            if session is None or session.match.over:
                return  # the tournament seats the next round, not the bots
        elif session is None or self._next_match_due(session.match.over):
            self._command({"type": "setup", "setup": self._setup()})
            self.own = self.service.session.setup if self.service.session else None
            self.humans = {seat for seat in self.humans if seat < self.players}
            self._remember()
            return
        if session.match.over:
            return
        if session.setup.mode == "score_only":
            self._enter_round(len(session.setup.players))
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

    def _in_tournament(self) -> bool:
        """Whether a tournament under way seats this table's rounds (an open one does not)."""
        tournament = self.service.snapshot().get("tournament")
        return tournament is not None and not tournament["over"] and tournament["kind"] != "open"

    def _follow_tournament(self) -> None:
        """A new match the tournament set up is the bots' if the match before it was theirs
        (or there was none)."""
        session = self.service.session
        setup = None if session is None else session.setup
        if setup is None or setup == self._seen:
            return
        theirs_before = self._seen is None or self._seen == self.own
        self._seen = setup
        if theirs_before and self._set_up_by().startswith("tournament:"):
            self.own = setup
            self.humans.clear()
            self._remember()

    def _set_up_by(self) -> str:
        """The actor of the current match's set-up record."""
        start = self.service.store.match_start(self.service.table_id)
        setup = self.service.store.records(self.service.table_id, after=start - 1, limit=1)
        return setup[0].actor if setup else ""

    def _adopt(self) -> None:
        """After a restart: the match in the log is the bots' if they set it up or it was
        handed to them."""
        self._adopted = True
        session = self.service.session
        start = self.service.store.match_start(self.service.table_id)
        if session is None or not start:
            return
        setup = self.service.store.records(self.service.table_id, after=start - 1, limit=1)[0]
        if setup.actor == "bot" or self.service.setting(PLAYS_KEY) == str(start):
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
        simulator = launcher.simulator
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

    def _enter_round(self, players: int) -> None:
        """A score-only round: a winner and the points the others held."""
        winner = self._rng.randrange(players)
        points = [0 if seat == winner else self._rng.randint(0, 60) for seat in range(players)]
        self._command({"type": "round", "winner": winner, "points": points})
        self._next = self._clock() + 3 * self.pace

    def _enter_hand(self, game: Game) -> None:
        for seat, hand in enumerate(game.hands):
            if seat not in game.shown and seat not in self.humans:
                points = sum(self._rng.randint(1, 12) for _ in hand)
                self._act({"type": "EnterHand", "seat": seat, "points": points})
                return

    def _play(self, game: Game) -> None:
        catches = [a for a in game.legal_actions() if isinstance(a, Catch)]
        if catches and self._rng.random() < 0.6:
            catch = self._rng.choice(catches)
            self._act({"type": "Catch", "seat": catch.seat, "target": catch.target})
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
        launcher = self.service.launcher
        simulator = None if launcher is None else launcher.simulator
        if simulator is not None:
            simulator.press()
            self._next = self._clock() + 2 * self.pace
        else:
            self._act({"type": "Press", "seat": seat, "cards": self._rng.choice((0, 0, 1, 3))})

    def _act(self, action: dict[str, Any]) -> None:
        self._command({"type": "action", "action": action})

    def _command(self, command: dict[str, Any]) -> None:
        self.service.run_now(command, actor="bot")
