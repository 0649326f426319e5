"""One table's match as a pure, replayable state machine.

A `TableSession` takes commands (JSON-ready dicts, exactly as the event log stores them) and
returns the events they produced; replaying a table's commands rebuilds it exactly. It knows
nothing of threads, disks or pins: the service (`service.py`) owns those.

Commands:
    {"type": "deal"}                           deal the next deal (the right dealer)
    {"type": "action", "action": {...}}        an engine action (see codec.py)
    {"type": "round", "winner": 2, "points": [...], "cards": [...]}   score-only mode
    {"type": "reload"}                         the launcher was reloaded from the discard pile
    {"type": "clear"}                          a person cleared the launcher's fault (no change)

Numbers no deal of the deck can reach (points, card counts) are refused as malformed input,
naming the bound (`check_bounds`): a record stored before that bound is set aside on replay.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.engine import (
    DECKS,
    EDITION,
    FORMATS,
    Action,
    Correct,
    DealRecord,
    DeckSpec,
    EngineError,
    EnterHand,
    Event,
    Game,
    GameKind,
    IllegalAction,
    Knowledge,
    Match,
    OptionValue,
    Phase,
    Press,
    Rules,
    Seating,
    duty_text,
    edition_view,
    jump_ins,
    plain,
)
from controller.policy import PROFILES, Profile, ProfileError
from controller.policy.custom_profiles import profile_from_params

from .codec import InvalidInput, action_from_dict, action_to_dict, events_to_dicts

MODES = ("tracked", "score_only")
OLDER_KEYS = {"profile": "eject_profile"}
"""Set-up keys as logs and requests spelled them before: older key → the key now (the eject
profile was `profile`; logs written then replay the same, and such requests are accepted)."""


@dataclass(frozen=True)
class TableSetup:
    """Who plays, which game and options, who deals first, how the table is used, and how
    the launcher fires (`eject_profile`). A custom eject profile (not a built-in) is recorded
    with its parameters (`eject_params`, filled in by the table from the profile's file), so
    the set-up replays the same profile however the file changes later, or if it is gone."""

    players: tuple[str, ...]
    game: str = "attack"
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    first_dealer: int = 0
    mode: str = "tracked"
    eject_profile: str = "toy"
    seed: int = 0
    eject_params: Mapping[str, Any] | None = None
    edition: int = EDITION  # the engine's rules the match is played under (a log keeps its own)

    def __post_init__(self) -> None:
        names = self.players
        if not 2 <= len(names) <= 10:
            raise InvalidInput(f"a table has 2 to 10 players, not {len(names)}")
        if any(not name.strip() or len(name) > 24 for name in names):
            raise InvalidInput("every player needs a name of 1 to 24 characters")
        if len({name.strip().lower() for name in names}) != len(names):
            raise InvalidInput("two players have the same name")
        if not 0 <= self.first_dealer < len(names):
            raise InvalidInput(f"first_dealer must be a seat from 0 to {len(names) - 1}")
        if self.mode not in MODES:
            raise InvalidInput(f"mode must be one of {', '.join(MODES)}")
        self.profile  # noqa: B018 - validates the eject profile and its parameters
        try:
            self.rules  # noqa: B018 - validates the game and options
        except EngineError as error:
            raise InvalidInput(str(error)) from None
        if FORMATS[self.rules.format].score_only_at_one_table and self.mode == "tracked":
            raise InvalidInput(
                f"{self.rules.format} needs two tables: keep its score here (mode score_only)"
            )

    @property
    def profile(self) -> Profile:
        """The eject profile: a built-in by name, a custom one from its recorded parameters."""
        name, params = self.eject_profile, self.eject_params
        if params is None and name not in PROFILES:
            raise InvalidInput(
                f"eject profile must be one of {', '.join(PROFILES)} or a custom profile "
                "with its parameters"
            )
        if params is None:
            return PROFILES[name]
        if name in PROFILES:
            raise InvalidInput(f"{name!r} is a built-in eject profile: it takes no parameters")
        try:
            return profile_from_params(params, name)
        except ProfileError as error:
            raise InvalidInput(str(error)) from None

    @property
    def rules(self) -> Rules:
        return Rules.of_record(self.game, self.options, self.edition)

    @classmethod
    def from_dict(cls, data: object) -> TableSetup:
        if not isinstance(data, dict):
            raise InvalidInput("the table setup must be a JSON object")
        data = current_keys(data)
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known - {"type"}
        if unknown:
            raise InvalidInput(f"the table setup has no field {sorted(unknown)[0]!r}")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InvalidInput("players must be a list of names")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise InvalidInput("options must be an object of option ids and values")
        params = data.get("eject_params")
        if params is not None and not isinstance(params, dict):
            raise InvalidInput("eject_params must be an object of the profile's parameters")
        lists = ("players", "options", "eject_params")
        values = {k: v for k, v in data.items() if k in known and k not in lists}
        for key, value in values.items():
            expected = int if key in ("first_dealer", "seed", "edition") else str
            if not isinstance(value, expected) or isinstance(value, bool):
                raise InvalidInput(
                    f"{key} must be {'a whole number' if expected is int else 'text'}"
                )
        return cls(
            players=tuple(p.strip() for p in players), options=options, eject_params=params,
            **values,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["players"] = list(self.players)
        out["options"] = dict(self.options)
        if self.eject_params is None:  # a built-in: the set-up reads as it did before
            del out["eject_params"]
        else:
            out["eject_params"] = _plain(self.eject_params)
        return out


def _plain(value: Any) -> Any:
    """`value` as JSON holds it (tuples as lists, mappings as dicts)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


UNRECORDED_EDITIONS = (1, 0)
"""The editions a set-up logged without one (before set-ups recorded it) may have been played
under, likeliest first: which one, its events tell (`reproduced`)."""


def recorded_setups(data: object) -> list[TableSetup]:
    """The set-ups a logged set-up may stand for: itself under its recorded edition, or, for
    one logged before set-ups recorded their edition, each edition it may have been played
    under (§11: an upgrade never changes a recorded game). Raises InvalidInput if none fits."""
    if not isinstance(data, dict) or "edition" in data:
        return [TableSetup.from_dict(data)]
    setups, refusals = [], []
    for edition in UNRECORDED_EDITIONS:
        try:
            setups.append(TableSetup.from_dict(as_edition(data, edition)))
        except InvalidInput as error:
            refusals.append(error)
    if not setups:
        raise refusals[0]
    return setups


def as_edition(data: dict[str, Any], edition: int) -> dict[str, Any]:
    """A set-up logged without an edition, as `edition` reads it. Edition 0 wrote two things
    differently that mean the same today: a classic multi-card id on an Attack table (it did
    nothing there without `multi_in_attack`, and with it, one face is what `multi_in_attack`
    means now) and `jumpin_draw_accumulate` (on: what edition 1 does for every jump-in)."""
    options = dict(data.get("options") or {})
    attack = data.get("game", "attack") == "attack"
    if (
        edition == 0
        and attack
        and not (options.get("multi_in_attack") and options.get("multi_identical"))
    ):
        options.pop("multi_same_face", None)
        options.pop("multi_identical", None)
    if edition == 0 and "jumpin_draw_accumulate" in options:
        edition = 1 if options.pop("jumpin_draw_accumulate") else 0
    return {**data, "options": options, "edition": edition}


def reproduced(setup: TableSetup, steps: list[tuple[dict[str, Any], list[Any]]]) -> int:
    """How many of `steps` (each a logged command and the events logged with it), replayed
    under `setup`, give back their events as they were logged."""
    session = TableSession(setup)
    for done, (command, logged) in enumerate(steps):
        try:
            events = session.apply(command)
        except (InvalidInput, EngineError):
            return done
        if not _gives_back(events, logged):
            return done
    return len(steps)


def _gives_back(events: list[dict[str, Any]], logged: list[Any]) -> bool:
    """Every logged event is among `events`, each matched once: a newer version may add an
    event (a hand shown), a field, or order them otherwise, never change one."""
    unmatched = list(events)
    for then in logged:
        same = [now for now in unmatched if _same_event(now, then)]
        if not same:
            return False
        unmatched.remove(same[0])
    return True


def _same_event(now: dict[str, Any], then: Any) -> bool:
    return isinstance(then, dict) and all(now.get(key) == value for key, value in then.items())


def current_keys(data: dict[str, Any]) -> dict[str, Any]:
    """A set-up dict with its older keys (`OLDER_KEYS`) spelled as now. Both spellings may be
    given only with the same value."""
    renamed = dict(data)
    for older, key in OLDER_KEYS.items():
        if older not in renamed:
            continue
        value = renamed.pop(older)
        if renamed.setdefault(key, value) != value:
            raise InvalidInput(f"{older} is the older name of {key}: send {key} only")
    return renamed


@dataclass(frozen=True)
class Checkpoint:
    """A session as it was before a step, to go back to (an undo) without replaying the match:
    the deal in play copied, the random generator's state, the totals, and how many deals were
    finished (finished deals are only ever added to, so they are shared, never copied)."""

    game: Game | None
    rng: tuple[Any, ...]
    totals: tuple[int, ...]
    deals: int
    seating: Seating | None


SHOWN_DEALS = 100
"""The finished deals a state carries (the latest; `deal_count` counts them all), so a state
costs the same whatever the match's length. The history has every round (`summaries.py`)."""


class TableSession:
    """A match at a physical table (the engine in table mode)."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self._deal_dicts: list[dict[str, Any]] = []  # the finished deals, JSON-ready, kept
        try:  # the format checks the number of players (teams of two, a rotation's 4 or 8)
            self.match = Match(
                self.rules,
                len(setup.players),
                random.Random(setup.seed),
                knowledge=Knowledge.TABLE,
                first_dealer=setup.first_dealer,
            )
        except EngineError as error:
            raise InvalidInput(str(error)) from None

    @property
    def game(self) -> Game | None:
        return self.match.game

    def checkpoint(self) -> Checkpoint:
        """The session as it is now, for `rewind` (costs the deal in play, not the match)."""
        match = self.match
        game = None if match.game is None else match.game.copy()
        return Checkpoint(
            game, match.rng.getstate(), tuple(match.totals), len(match.deals), match.seating
        )

    def rewind(self, checkpoint: Checkpoint) -> None:
        """Go back to `checkpoint`, taken from this session, after which only deals were
        added (the latest checkpoint first, as undo takes steps back)."""
        match = self.match
        if len(match.deals) < checkpoint.deals:
            raise ValueError("a checkpoint of another session, or of a later state")
        match.rng.setstate(checkpoint.rng)
        game = None if checkpoint.game is None else checkpoint.game.copy()
        if game is not None:
            game.rng = match.rng  # the deal draws from the match's generator, as dealt
        match.game, match.seating = game, checkpoint.seating
        match.totals = list(checkpoint.totals)
        del match.deals[checkpoint.deals :]
        del self._deal_dicts[checkpoint.deals :]

    def apply(self, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one command; return its events. Refusals raise InvalidInput (malformed),
        IllegalAction (not allowed now) or, for a deal its options cannot deal (`hand_size`), the
        engine's OptionError; they change nothing."""
        kind = command.get("type")
        if kind == "deal":
            return self._deal()
        if kind == "action":
            return self.act(action_from_dict(command.get("action")))
        if kind == "round":
            return self._round(command)
        if kind == "reload":
            return self._reload()
        if kind == "clear":  # logged for the record: the launcher's fault is not the game's
            return []
        raise InvalidInput(f"unknown command {kind!r}")

    def act(self, action: Action) -> list[dict[str, Any]]:
        if self.setup.mode != "tracked":
            raise IllegalAction("this table only keeps score: enter each round's result")
        game = self.game
        if game is None:
            raise IllegalAction("no deal is being played: deal first")
        check_bounds(action, self.rules.deck_spec)
        events = events_to_dicts(game.push(action))
        if game.over:
            record = self.match.finish_deal()
            events.append(
                {"type": "DealScored", **record_dict(record), "totals": self.match.totals}
            )
            events.extend(self._match_end())
        return events

    def _deal(self) -> list[dict[str, Any]]:
        if self.setup.mode != "tracked":
            raise IllegalAction("this table only keeps score: enter each round's result")
        return events_to_dicts(self.match.start_deal())

    # --- reloading the launcher (RULES.md §3.6, §8) ---
    def _reload(self) -> list[dict[str, Any]]:
        """The players put the discard pile but its top card, shuffled, into the empty launcher:
        it holds those now, whatever the count said was left in it (`DealState.reload`)."""
        game = self.game
        if self.setup.mode != "tracked" or not self.rules.attack or game is None:
            raise IllegalAction("only a deal of UNO Attack in play has a launcher to reload")
        if game.phase is not Phase.PLAYING:
            raise IllegalAction("reload the launcher while a deal is being played")
        events: list[Event] = []
        if not game.reload(events):
            raise IllegalAction("no card is left to reload: the discard pile is only its top card")
        return [*events_to_dicts(events), {"type": "Reloaded", "count": len(game.pile)}]

    # --- end of reloading ---

    def _round(self, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Score-only mode: a deal played without tracking, entered as its result."""
        if self.setup.mode != "score_only":
            raise IllegalAction("this table tracks play: rounds are scored when they end")
        if self.match.over:
            raise IllegalAction("the match is over")
        winner, points, cards = _round_fields(command, len(self.seating()), self.rules.deck_spec)
        record = self.match.record(winner, points, cards)
        events = [{"type": "DealScored", **record_dict(record), "totals": self.match.totals}]
        return events + self._match_end()

    def _match_end(self) -> list[dict[str, Any]]:
        if not self.match.over:
            return []
        verdict = self.match.verdict()
        return [
            {"type": "MatchEnded", "winners": list(verdict.winners), "losers": list(verdict.losers)}
        ]

    def press_seat(self) -> int | None:
        """Whose press a physical button press is: whoever owes one, else (UNO Attack) the
        player whose turn it is. None when nobody should press now."""
        game = self.game
        if game is None or game.phase is not Phase.PLAYING or not self.rules.attack:
            return None
        seat = game.to_move()
        return seat if seat is not None and game.may_press(seat) else None

    def snapshot(self) -> dict[str, Any]:
        """Everything the scoreboard shows, JSON-ready."""
        match, game = self.match, self.game
        verdict = match.verdict()
        return {
            "setup": self.setup.to_dict(),
            "deck": DECKS[self.rules.deck].name,
            "attack": self.rules.game is GameKind.ATTACK,
            "totals": list(match.totals),
            "target": self.rules.target,
            "scoring": self.rules.scoring,
            "deals": self._deals(),
            "deal_count": len(match.deals),
            "next_dealer": None if match.over else match.next_dealer,
            "match_over": match.over,
            "winners": list(verdict.winners) if match.over else [],
            "losers": list(verdict.losers) if match.over else [],
            "house": self.house(),
            "rules": edition_view(self.rules),
            "standings": plain(match.standings()),
            "seating": list(self.seating()),
            "deal": None if game is None else deal_view(game),
        }

    def _deals(self) -> list[dict[str, Any]]:
        """The latest SHOWN_DEALS finished deals, JSON-ready: each made once and kept (shared by
        every snapshot, so never changed), the list new each time."""
        deals, dicts = self.match.deals, self._deal_dicts
        dicts.extend(record_dict(record) for record in deals[len(dicts) :])
        return dicts[-SHOWN_DEALS:]

    def house(self) -> dict[str, Any]:
        """The house rules a tablet needs to know to offer the right taps."""
        rules = self.rules
        return {
            "format": rules.format,
            "stacking": rules.stacking,
            "jumpin": rules.jumpin,
            "multi": rules.multi,
            "changed": rules.changed(),
        }

    def seating(self) -> tuple[int, ...]:
        """Which player sits in each seat of the deal in play (or the next one)."""
        seating = self.match.seating or self.match.format.seating(self.match)
        return seating.players


def check_setup(data: object) -> None:
    """Raise InvalidInput (saying why) unless a table would accept `data` as a set-up (with
    a built-in eject profile when it names none)."""
    if isinstance(data, dict):
        data = {"eject_profile": "toy"} | data
    TableSession(TableSetup.from_dict(data)).snapshot()


def record_dict(record: DealRecord) -> dict[str, Any]:
    """A scored deal as JSON-ready values."""
    result: dict[str, Any] = plain(asdict(record))
    return result


def deal_view(game: Game) -> dict[str, Any]:
    """The state of the deal in play, as the scoreboard shows it."""
    moves = game.moves()
    return {
        "phase": game.phase.value,
        "dealer": game.dealer,
        "turn": game.turn if game.phase is Phase.PLAYING else None,
        "to_move": game.to_move(),
        "next": game.next_to_play(),  # who plays once `to_move` is done (no order change)
        "direction": game.direction,
        "top": game.discard[-1].text if game.discard else None,
        "colour": game.colour.value if game.colour else None,
        "hands": [len(hand) for hand in game.hands],
        "pile": len(game.pile),
        "reloadable": max(len(game.discard) - 1, 0),
        "exhausted": game.exhausted(),  # §8: nothing left to draw or reload
        "empty_turns": game.empty_turns,  # §8: turns in a row that got nothing since then
        "blocked": game.blocked,  # §8: the deal ended blocked (the fewest points win it)
        "unaccounted": len(game.unaccounted),
        "exposed": game.exposed,
        "uno": [seat for seat, hand in enumerate(game.hands) if len(hand) == 1],
        "winner": game.winner,
        "drawn": game.drawn is not None,
        "duties": [
            {
                "seat": d.seat,
                "kind": d.kind.value,
                "count": d.count,
                "why": d.why.value,
                "text": duty_text(d),
            }
            for d in game.duties
        ],
        "moves": [action_to_dict(a) for a in moves],
        "jump_ins": [action_to_dict(a) for a in jump_ins(game)],
        "active": list(game.active),
        "finished": list(game.finished),
        "shown": {str(seat): points for seat, (points, _) in game.shown.items()},
    }


def check_bounds(action: Action, deck: DeckSpec) -> None:
    """Refuse a number no deal of `deck` can reach (a slip of the finger, or worse: one absurd
    number would be summed into every total): a hand holds at most the whole deck."""
    if isinstance(action, EnterHand):
        if action.points is not None and action.points > deck.total_points:
            raise InvalidInput(f"EnterHand.points: at most {_most_points(deck)}")
        if len(action.cards) > deck.size:
            raise InvalidInput(f"EnterHand.cards: at most {_most_cards(deck)}")
    elif isinstance(action, Press | Correct):
        name, count = (
            ("cards", action.cards) if isinstance(action, Press) else ("count", action.count)
        )
        if count > deck.size:
            raise InvalidInput(f"{type(action).__name__}.{name}: at most {_most_cards(deck)}")


def _most_points(deck: DeckSpec) -> str:
    return f"{deck.total_points}, the points of the whole {deck.name} deck"


def _most_cards(deck: DeckSpec) -> str:
    return f"{deck.size}, the cards of the whole {deck.name} deck"


def _round_fields(
    command: Mapping[str, Any], players: int, deck: DeckSpec
) -> tuple[int, list[int], list[int]]:
    winner, points = command.get("winner"), command.get("points")
    cards = command.get("cards") or [0] * players
    if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < players:
        raise InvalidInput(f"winner must be a seat from 0 to {players - 1}")
    for name, values in (("points", points), ("cards", cards)):
        if not isinstance(values, list) or len(values) != players:
            raise InvalidInput(f"{name} needs one whole number per player")
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            raise InvalidInput(f"{name} must be whole numbers, 0 or more")
        most = deck.total_points if name == "points" else deck.size
        if any(v > most for v in values):
            bound = _most_points(deck) if name == "points" else _most_cards(deck)
            raise InvalidInput(f"{name}: at most {bound}, for each player")
    if points[winner] or cards[winner]:  # type: ignore[index]
        raise InvalidInput("the winner went out and holds no cards")
    return winner, points, cards  # type: ignore[return-value]
