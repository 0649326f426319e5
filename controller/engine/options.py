"""Rule options: one frozen `Rules` value per table, each option declared once, as a field of it.

Every field of `Rules` but `game` is an option, declared with `option(...)`: its default, the
RULES.md section, one line of meaning in English and Chinese, the allowed values, the games it
applies to, the family of options it excludes and the options it needs. Everything else is
derived from those declarations: the registry `OPTIONS` (for the CLI's `--option key=value`, the
tablet's set-up page and `uno-attack rules --list`), the combination checks, and the property
tests' option families. `Rules` validates on construction and names the option at fault.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from .decks import DECKS, DEFAULT_DECK, DeckSpec, GameKind
from .errors import OptionError
from .formats import FORMATS, MATCH_OPTIONS, format_uses
from .option_table import (
    ALIASES,
    ALWAYS_ON,
    ATTACK,
    BOTH,
    CLASSIC,
    FEATURE_GAMES,
    IMPLIED,
    OptionValue,
)

Value = TypeVar("Value", bool, int, str)


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its id, type, allowed values, default, games and meaning; the games
    of a choice that only some of them have (`choice_games`); the family of options of which at
    most one may be on, the options one of which it needs, and whether it changes which plays a
    turn offers (`shapes_plays`: off the engine's quick path)."""

    id: str
    default: OptionValue
    en: str
    zh: str
    section: str
    choices: tuple[str, ...] = ()
    games: frozenset[GameKind] = BOTH
    choice_games: Mapping[str, frozenset[GameKind]] = dataclasses.field(default_factory=dict)
    minimum: int = 0
    maximum: int = 1_000_000
    family: str = ""
    needs: tuple[str, ...] = ()
    shapes_plays: bool = False

    @property
    def kind(self) -> type:
        return type(self.default)

    def applies_to(self, game: GameKind | str) -> bool:
        return game in self.games

    def games_of(self, value: OptionValue) -> frozenset[GameKind]:
        """The games `value` of this option belongs to (§11's game column)."""
        return self.choice_games.get(str(value), self.games)

    def value_applies_to(self, value: OptionValue, game: GameKind | str) -> bool:
        return game in self.games_of(value)

    def check(self, value: object) -> OptionValue:
        """Return the value if it fits this option, else raise OptionError naming the option."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.id} must be true or false, not {value!r}")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.id} must be a whole number, not {value!r}")
            if not self.minimum <= value <= self.maximum:
                raise OptionError(
                    f"option {self.id} must be between {self.minimum} and {self.maximum}, "
                    f"not {value}"
                )
        elif value not in self.choices:
            raise OptionError(
                f"option {self.id} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value

    def parse(self, text: str) -> OptionValue:
        """Turn command-line text into this option's value."""
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"option {self.id} must be true or false, not {text!r}")
        if self.kind is int:
            return self.check(self._whole_number(text))
        return self.check(text.strip())

    def _whole_number(self, text: str) -> int:
        """Text as a whole number; its range is `check`'s to say."""
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"option {self.id} must be a whole number, not {text!r}") from None


EDITION: Final = 3
"""The edition of the rules a match is played under. A match keeps the edition it was recorded
under, so an upgrade never changes a recorded game (§11); `editions.CHANGES` says, for the
scoreboard, what each later edition changed.
0: before §11's per-game option ids: a jump-in on a draw card replaces what is owed.
1: a jump-in on a draw card adds to what is owed, whenever a jump-in rule is on (§10.2); a
   player who has gone out leaves the seat arithmetic (no penalty played after lands on them).
2: §8's blocked deal.
3: §11: the other game's ids refused whatever their value (`no_finish_on_action` and
   `uno_state=one_card_or_identical` are classic only); a match format's unused options
   refused; team, rotation and elimination totals start at 0; the hands entered at a table
   checked against the deck and the tracked count (`scoring.py`)."""

CHECKED_GAMES_EDITION: Final = 3
"""From this edition on, §11's game of every id and choice is checked, whatever its value."""

SEATS_LEFT_EDITION: Final = 1
"""From this edition on, a player whose hand is empty leaves the seat arithmetic at once (before,
only within-deal elimination took a seat out: the deal's winner could still be a penalty's
victim while the last jump-ins and stacks were paid)."""


def option(default: Value, section: str, en: str, zh: str, **details: Any) -> Value:
    """Declare a field of `Rules` as an option (see `OptionSpec` for the `details`)."""
    meaning = {"section": section, "en": en, "zh": zh, **details}
    return dataclasses.field(default=default, metadata={"option": meaning})


# fmt: off
@dataclass(frozen=True)
class Rules:
    """Every rule choice for one table. Build with `Rules.create()`; it validates everything."""

    game: GameKind = GameKind.ATTACK
    deck: str = option("", "§1", "deck preset; empty = the game's default (classic / attack_1998)",
        "牌组（空=默认）", choices=("", *DECKS))
    # at most what two players of the largest deck can be dealt (§2.3: 112 - 1 - 4 Trade
    # Hands = 107 cards); a deal checks the exact bound for its deck and players
    hand_size: int = option(7, "§2.3", "cards dealt to each player", "每人发牌数", minimum=1,
        maximum=53)
    deal_size_by_count: bool = option(False, "§10.4",
        "hand size by player count: 7 up to 4 players, 8 for 5-6, 9 for 7-10", "按人数定发牌数")
    first_player: str = option("dealer_left", "§2.4",
        "who leads: the dealer's left (official) or the dealer", "首家：庄家左手（官方）或庄家",
        choices=("dealer_left", "dealer"), games=CLASSIC)
    start_reverse: str = option("dealer_leads", "§2.5",
        "turned-up Reverse: the dealer leads, or the dealer's right leads",
        "首张为反转：庄家先出，或庄家右手先出", choices=("dealer_leads", "dealer_right_leads"),
        games=CLASSIC)
    start_draw2_skips: bool = option(True, "§2.5",
        "turned-up Draw Two: the first player draws 2 and is skipped", "首张为+2：首家摸2张并跳过",
        games=CLASSIC)
    start_wild: str = option("first_player_names", "§2.5",
        "turned-up Wild: who names the colour, or redraw", "首张为万能牌：谁指定颜色",
        choices=("first_player_names", "free_lead", "redraw", "predecessor_names", "random"),
        games=CLASSIC)
    start_colour_namer: str = option("starter", "§2.5",
        "turned-up Wild All Hit / Hit-Fire: the player who starts names the colour, or the dealer",
        "首张为万用罚按牌/王牌：谁指定颜色", choices=("starter", "dealer"), games=ATTACK)
    wd4_legality: str = option("colour", "§3.2", "when a Wild Draw Four is legal", "+4 合法条件",
        choices=("colour", "colour_or_face", "no_other_play"), games=CLASSIC)
    wd4_bluffing: bool = option(True, "§3.2",
        "an illegal Wild Draw Four may be played and then challenged", "可违规打出+4（可被质疑）",
        games=CLASSIC)
    challenge_success_victim_plays: bool = option(True, "§3.2",
        "after a successful challenge the challenger takes a normal turn",
        "质疑成功后质疑者正常出牌", games=CLASSIC)
    may_draw_when_playable: bool = option(True, "§3.3",
        "a player holding a playable card may still draw", "有牌可出时也可摸牌", games=CLASSIC)
    must_play_if_able: bool = option(False, "§3.3", "a player holding a playable card may not draw",
        "有牌可出就不可摸牌", games=CLASSIC)
    must_play_drawn_if_playable: bool = option(False, "§3.3",
        "a playable drawn card must be played", "摸到能出的牌必须出", games=CLASSIC)
    atk_play_after_press: bool = option(False, "§3.4",
        "after pressing, a player may still play a card", "按键后仍可出牌", games=ATTACK)
    suggestion_penalty: bool = option(True, "§3.4",
        "suggesting a card to another player costs 4 presses", "提示别人出牌罚按4次", games=ATTACK)
    whf_needs_no_colour_match: bool = option(False, "§4.2",
        "Wild Hit-Fire only when you hold no card of the active colour", "无同色牌才可出王牌",
        games=ATTACK, shapes_plays=True)
    discard_all_choose_subset: bool = option(False, "§4.2",
        "Discard All may keep some cards of its colour", "负载牌可保留部分同色牌", games=ATTACK)
    uno_after_trade_receiver: bool = option(False, "§4.2",
        "a player handed a one-card hand by Trade Hands must call UNO too",
        "换到一张牌的人也须喊UNO", games=ATTACK)
    uno_state: str = option("auto", "§5",
        "when UNO must be called: one card, or a hand that can all go down together"
        " (auto: follows the multi-card rule)",
        "何时须喊UNO",
        choices=("auto", "one_card", "one_card_or_identical", "one_card_or_same_face"),
        choice_games={"one_card_or_identical": CLASSIC}, shapes_plays=True)
    uno_false_call_penalty: bool = option(True, "§5",
        "calling UNO without one card costs 2 cards / 2 presses", "错喊UNO罚2张/按2次")
    uno_false_accusation_penalty: bool = option(True, "§5",
        "accusing a player who needs no UNO call costs the accuser 2 cards / 2 presses",
        "错误指控罚2张/按2次")
    no_finish_on_action: bool = option(False, "§6",
        "the last card may not be a Reverse, Skip or Wild", "最后一张不能是反转、跳过、万能牌",
        games=CLASSIC, shapes_plays=True)
    no_finish_extended: bool = option(False, "§6",
        "...nor a Draw Two or Wild Draw Four (with no_finish_on_action)", "也不能是+2、+4",
        games=CLASSIC, needs=("no_finish_on_action",), shapes_plays=True)
    stack_s0: bool = option(False, "§10.1", "stacking: +2 on +2 or +4, +4 only on +4 (seed 000)",
        "叠加（+2后可+2或+4，+4后只能+4）", games=CLASSIC, family="stacking")
    stack_s1: bool = option(False, "§10.1", "stacking: +2 only on +2, +4 only on +4 (seed 001)",
        "叠加（只能同类）", games=CLASSIC, family="stacking")
    stack_wd4_ignores_legality: bool = option(False, "§10.1",
        "a stacked Wild Draw Four needs no legality check", "叠加的+4不查合法", games=CLASSIC,
        needs=("stack_s0", "stack_s1"))
    attack_stack_hits: bool = option(False, "§10.1",
        "a Hit 2 victim may pass it on with a Hit 2 (+2 presses)", "罚按牌可叠加", games=ATTACK)
    jumpin_numbers: bool = option(False, "§10.2",
        "jump in out of turn with an identical number card (点断)", "点断：相同数字牌可抢出",
        games=CLASSIC, family="jumpin")
    jumpin_identical: bool = option(False, "§10.2",
        "jump in out of turn with any identical card (抢牌/Cut)", "抢牌：完全相同的牌可抢出",
        games=CLASSIC, family="jumpin")
    wrong_jumpin_penalty: bool = option(False, "§10.2",
        "a wrong jump-in: take the card back and draw 2", "抢错牌罚摸2张", games=CLASSIC,
        needs=("jumpin_numbers", "jumpin_identical"))
    multi_same_face: bool = option(False, "§10.3",
        "play several cards of one number or symbol at once (对牌)", "对牌：同数字或同功能可一起出",
        family="multi", games=CLASSIC, shapes_plays=True)
    multi_identical: bool = option(False, "§10.3", "play several identical cards at once",
        "完全相同的牌可一起出", family="multi", games=CLASSIC, shapes_plays=True)
    multi_in_attack: bool = option(False, "§10.3",
        "UNO Attack: play several cards of one number or symbol at once, action cards"
        " included (对牌)",
        "冲击版对牌：同数字或同功能可一起出（含动作牌）", games=ATTACK, shapes_plays=True,
        family="multi")
    multi_skip_opponents_only: bool = option(False, "§10.3",
        "n Skips skip n opponents, never the player who played them", "多张跳过只跳过对手",
        needs=("multi_same_face", "multi_identical", "multi_in_attack"))
    replay_any_count: bool = option(False, "§10.5",
        "Skip and Reverse let the same player go again at any table size", "跳过和反转后同一人再出")
    wild_after_draw: str = option("off", "§10.6", "no plain Wild straight after a +2/+4",
        "+2/+4后不能出万能牌", choices=("off", "victim_only", "strict_top"), games=CLASSIC,
        shapes_plays=True)
    wrong_play_penalty: bool = option(False, "§10.7",
        "a wrong play: take the card back, draw 2 (Attack: press twice), turn over",
        "出错牌罚2张（冲击版按2次）")
    scoring: str = option("winner_collects", "§9.2", "how deals are scored", "计分方式",
        choices=("winner_collects", "penalty", "bust", "chips", "deal_loser", "none"))
    target: int = option(500, "§9.2",
        "match ends when a total reaches this (elimination threshold)", "目标分数（淘汰线）",
        minimum=1, maximum=100000)
    chip_rate: int = option(1, "§9.2", "chips paid per hand point (chips scoring)", "每点筹码数",
        minimum=1, maximum=1000)
    starting_chips: int = option(0, "§9.2", "chips each player starts with (chips scoring)",
        "初始筹码", maximum=1000000)
    num_deals: int = option(0, "§9.2",
        "deals in a chips or elimination match; 0 = until the players stop", "局数（0=不限）",
        maximum=10000)
    break_ties_by_continuing: bool = option(False, "§9.2",
        "penalty scoring: a tie for lowest plays more deals", "负分制平局时继续")
    next_dealer: str = option("winner", "§2.2",
        "who deals the next deal (loser in within-deal elimination)", "下一局庄家",
        choices=("winner", "loser", "rotate"))
    format: str = option("standard", "§9.3-§9.6", "match format", "赛制", choices=tuple(FORMATS))
    teams: int = option(2, "§9.5", "number of teams (team play)", "队伍数", minimum=2, maximum=5)
    team_scoring: str = option("winner_team_collects", "§9.5", "team scoring", "团队计分",
        choices=("winner_team_collects", "team_penalty"))
    # not an option: the edition of the rules the match is played under (`EDITION`)
    edition: int = EDITION

    # fmt: on

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", _game_kind(self.game))
        if not 0 <= self.edition <= EDITION:
            raise OptionError(f"edition must be 0 to {EDITION}, not {self.edition}")
        wrong_game = []
        for spec in OPTIONS:
            value = spec.check(getattr(self, spec.id))
            if value != spec.default and not self._belongs(spec, value):
                wrong_game.append((_setting_name(spec, value), spec.games_of(value)))
        if wrong_game:
            raise OptionError(_wrong_game_text(self.game, wrong_game))
        if not self.deck:
            object.__setattr__(self, "deck", DEFAULT_DECK[self.game])
        if DECKS[self.deck].game is not self.game:
            raise OptionError(f"option deck: {self.deck} is not a {self.game} deck")
        self._check_combinations()

    def _belongs(self, spec: OptionSpec, value: OptionValue) -> bool:
        """Whether a setting belongs to this game (§11); before edition 3 the settings that
        edition made classic only were both games'."""
        if self.edition >= CHECKED_GAMES_EDITION:
            return spec.value_applies_to(value, self.game)
        return spec.id in _BOTH_GAMES_BEFORE_3 or spec.applies_to(self.game)

    def _check_combinations(self) -> None:
        if self.edition >= CHECKED_GAMES_EDITION:
            self._check_match_options()
        for family in FAMILIES.values():
            on = [spec.id for spec in family if getattr(self, spec.id)]
            if len(on) > 1:
                raise OptionError(f"options {' and '.join(on)} cannot both be on")
        for spec in OPTIONS:
            if spec.needs and getattr(self, spec.id) and not any(map(self._on, spec.needs)):
                raise OptionError(f"option {spec.id} needs {' or '.join(spec.needs)}")

    def _on(self, option_id: str) -> bool:
        return bool(getattr(self, option_id))

    def _check_match_options(self) -> None:
        """§9: an option of a match format that this format (or, in the standard format, this
        way of scoring) does not use is refused, never kept doing nothing or worse (chips
        counted in an elimination tournament would have eliminated everyone before a deal)."""
        unused = [
            spec.id
            for spec in OPTIONS
            if spec.id in MATCH_OPTIONS
            and getattr(self, spec.id) != spec.default
            and not format_uses(self.format, self.scoring, spec.id)
        ]
        if unused:
            raise OptionError(_unused_text(self.format, self.scoring, unused))

    @classmethod
    def create(cls, game: GameKind | str = GameKind.ATTACK, **options: OptionValue) -> Rules:
        """Rules for `game` with `options` changed from their defaults. Ids are option ids or
        the §11 feature ids in `ALIASES`, `IMPLIED` and `ALWAYS_ON`; anything else is an error
        naming it, and so is an id of the other game, whatever its value (§11)."""
        return cls.of_record(game, options, EDITION)

    @classmethod
    def of_record(
        cls, game: GameKind | str, options: Mapping[str, OptionValue], edition: int
    ) -> Rules:
        """Rules as `edition` checked and played them (a recorded match keeps its own): before
        edition 3 an id of the other game was refused only at a value other than its default."""
        kind = _game_kind(game)
        if edition >= CHECKED_GAMES_EDITION:
            check_games(kind, options)
        values = resolve_aliases(options)
        return cls(game=kind, edition=edition, **values)  # type: ignore[arg-type]

    @classmethod
    def from_text(cls, game: GameKind | str, pairs: Mapping[str, str]) -> Rules:
        """Rules from `key=value` text, as typed on a command line (`key` alone: true)."""
        values: dict[str, OptionValue] = {}
        for key, text in pairs.items():
            if key in ALIASES or key in IMPLIED or key in ALWAYS_ON:
                values[key] = True if text.lower() in ("", "true", "1", "yes", "on") else text
            else:
                values[key] = _spec_for(key).parse(text)
        return cls.create(game, **values)

    def replace(self, **options: OptionValue) -> Rules:
        """These rules with some options changed (checked as on construction: a set-up's ids
        are checked against the game by `create`)."""
        return dataclasses.replace(self, **resolve_aliases(options))  # type: ignore[arg-type]

    def of_edition(self, edition: int) -> Rules:
        """These rules as `edition` played them (a match recorded earlier)."""
        return self if edition == self.edition else dataclasses.replace(self, edition=edition)

    @property
    def blocked_deals(self) -> bool:
        """§8: a deal where nothing is left and a round of turns gets nothing ends blocked."""
        return self.edition >= 2

    @property
    def deck_spec(self) -> DeckSpec:
        return DECKS[self.deck]

    @functools.cached_property
    def attack(self) -> bool:
        return self.game is GameKind.ATTACK

    @functools.cached_property
    def stacking(self) -> str | None:
        """'s0', 's1' or None (§10.1)."""
        return "s0" if self.stack_s0 else "s1" if self.stack_s1 else None

    @functools.cached_property
    def jumpin(self) -> str | None:
        """'numbers', 'identical' or None (§10.2)."""
        return "numbers" if self.jumpin_numbers else "identical" if self.jumpin_identical else None

    @functools.cached_property
    def jumpin_draw_accumulate(self) -> bool:
        """§10.2 / §11: jumped-in draw cards add up, whenever a jump-in rule is on (from
        edition 1; before, a jump-in replaced what was owed)."""
        return self.jumpin is not None and self.edition >= 1

    @functools.cached_property
    def multi(self) -> str | None:
        """'same_face', 'identical' or None (§10.3); in UNO Attack, multi_in_attack groups
        cards of one face."""
        if self.multi_in_attack:
            return "same_face"
        return (
            "same_face" if self.multi_same_face else "identical" if self.multi_identical else None
        )

    @functools.cached_property
    def quick_plays(self) -> bool:
        """No option that changes which plays a turn offers is set: the engine may list a
        turn's plays by matching alone."""
        return all(getattr(self, spec.id) == spec.default for spec in _SHAPING)

    @functools.cached_property
    def quick_singles(self) -> bool:
        """Only the multi-card rules change which plays a turn offers: a card held once is
        still played by matching alone."""
        return all(
            getattr(self, spec.id) == spec.default for spec in _SHAPING if spec.family != "multi"
        )

    @functools.cached_property
    def may_draw(self) -> bool:
        return self.may_draw_when_playable and not self.must_play_if_able

    @functools.cached_property
    def uno_rule(self) -> str:
        """When a hand is in the UNO state (§5), with `auto` resolved from the multi rule."""
        if self.uno_state != "auto":
            return self.uno_state
        return {"same_face": "one_card_or_same_face", "identical": "one_card_or_identical"}.get(
            self.multi or "", "one_card"
        )

    def changed(self) -> dict[str, OptionValue]:
        """The options that differ from their defaults (for logs and saved presets)."""
        values = {spec.id: getattr(self, spec.id) for spec in OPTIONS}
        values["deck"] = "" if self.deck == DEFAULT_DECK[self.game] else self.deck
        return {k: v for k, v in values.items() if v != OPTIONS_BY_ID[k].default}


def _declared() -> tuple[OptionSpec, ...]:
    return tuple(
        OptionSpec(field.name, field.default, **field.metadata["option"])  # type: ignore[arg-type]
        for field in dataclasses.fields(Rules)
        if "option" in field.metadata
    )


OPTIONS: Final[tuple[OptionSpec, ...]] = _declared()
"""Every option, in declaration order."""

OPTIONS_BY_ID: Final[Mapping[str, OptionSpec]] = {spec.id: spec for spec in OPTIONS}

_SHAPING: Final = tuple(spec for spec in OPTIONS if spec.shapes_plays)

FAMILIES: Final[Mapping[str, tuple[OptionSpec, ...]]] = {
    family: tuple(spec for spec in OPTIONS if spec.family == family)
    for family in dict.fromkeys(spec.family for spec in OPTIONS if spec.family)
}
"""Options of which at most one may be on (stacking, jump-in and multi-card variants)."""


_BOTH_GAMES_BEFORE_3: Final = frozenset({"no_finish_on_action"})
"""Options of both games before edition 3 (§11 makes them classic only)."""


def options_for(game: GameKind | str) -> tuple[OptionSpec, ...]:
    """The options that apply to `game`: what its set-up offers."""
    return tuple(spec for spec in OPTIONS if spec.applies_to(game))


def resolve_aliases(options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Option ids as given, with §11 feature ids turned into the setting they stand for."""
    values: dict[str, OptionValue] = {}
    for key, value in options.items():
        if key in IMPLIED:
            _check_implied(key, value, options)
        elif key in ALWAYS_ON:
            if value is not True:
                raise OptionError(f"{key} is always part of the rules (§11): it cannot be off")
        elif key in ALIASES and key not in OPTIONS_BY_ID:
            option_id, setting = ALIASES[key]
            if value is not True and value != setting:
                raise OptionError(f"{key} is a feature: switch it on, or set {option_id} instead")
            values[option_id] = setting
        else:
            _spec_for(key)
            values[key] = value
    return values


def _check_implied(key: str, value: OptionValue, options: Mapping[str, OptionValue]) -> None:
    """A feature that is on exactly when one of the options it follows is on."""
    follows = IMPLIED[key]
    if value is not True:
        raise OptionError(f"{key} is on whenever {' or '.join(follows)} is on: it cannot be off")
    if not any(options.get(other) for other in follows):
        raise OptionError(f"{key} needs {' or '.join(follows)}")


def _spec_for(key: str) -> OptionSpec:
    spec = OPTIONS_BY_ID.get(key)
    if spec is None:
        raise OptionError(f"unknown option {key!r} (uno-attack rules --list shows them all)")
    return spec


def _game_kind(game: GameKind | str) -> GameKind:
    try:
        return GameKind(game)
    except ValueError:
        raise OptionError(f"game must be classic or attack, not {game!r}") from None


def games_of(key: str) -> frozenset[GameKind]:
    """The games an option id or §11 feature id belongs to (§11's game column)."""
    if key in FEATURE_GAMES:
        return FEATURE_GAMES[key]
    if key in ALWAYS_ON:
        return ALWAYS_ON[key]
    option_id = ALIASES[key][0] if key in ALIASES and key not in OPTIONS_BY_ID else key
    spec = OPTIONS_BY_ID.get(option_id)
    return BOTH if spec is None else spec.games


def check_games(game: GameKind, options: Mapping[str, OptionValue]) -> None:
    """§11: an id of the other game is refused whatever its value, its default included (it
    would show as set while doing nothing, or act where it has no meaning)."""
    wrong = [(key, games_of(key)) for key in options if game not in games_of(key)]
    if wrong:
        raise OptionError(_wrong_game_text(game, wrong))


def _setting_name(spec: OptionSpec, value: OptionValue) -> str:
    """How a refused setting is named: the option, or for a choice of its own game the option
    and the choice, with the §11 feature id that stands for it."""
    if str(value) not in spec.choice_games:
        return spec.id
    features = [key for key, setting in ALIASES.items() if setting == (spec.id, value)]
    return f"{spec.id}={value}" + (f" ({features[0]})" if features else "")


def _wrong_game_text(game: GameKind, wrong: list[tuple[str, frozenset[GameKind]]]) -> str:
    """Names the settings refused and the game they belong to (§11)."""
    names = [name for name, _ in wrong]
    belongs = " and ".join(sorted({g.value for _, games in wrong for g in games}))
    if len(names) == 1:
        return f"option {names[0]} applies to {belongs} UNO only, not to {game.value} UNO"
    return f"options {_listed(names)} do not apply to {game.value} UNO (only to {belongs} UNO)"


def _unused_text(match_format: str, scoring: str, unused: list[str]) -> str:
    """Which options a format does not use, and the ones it does."""
    used = [
        key
        for key in FORMATS[match_format].fields
        if key != "scoring" and format_uses(match_format, scoring, key)
    ]
    subject = f"option {unused[0]} is" if len(unused) == 1 else f"options {_listed(unused)} are"
    if match_format == "standard":
        uses = f"{scoring} scoring uses {_listed(used)}" if used else "it uses no other setting"
        return f"{subject} not used with scoring={scoring} ({uses})"
    return f"{subject} not used by the {match_format} format (it uses {_listed(used)})"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
