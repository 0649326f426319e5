"""Rule options: one frozen `Rules` value per table, and a registry that describes every option.

The registry (`OPTIONS`) is the single description of what can be switched: its id, allowed
values, default, which game it applies to and one line of meaning in English and Chinese. The
CLI (`--option key=value`), the tablet's setup page and `uno-attack rules --list` are generated
from it. `Rules` validates on construction and names the option at fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .decks import DECKS, DEFAULT_DECK, DeckSpec, GameKind
from .errors import OptionError
from .option_table import ALIASES, BOTH, CONFLICTS, NEEDS, ROWS, OptionValue


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its id, type, allowed values, default, games and meaning."""

    id: str
    default: OptionValue
    en: str
    zh: str
    section: str
    choices: tuple[str, ...] = ()
    games: frozenset[GameKind] = BOTH
    minimum: int = 0
    maximum: int = 1_000_000

    @property
    def kind(self) -> type:
        return type(self.default)

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
            try:
                return self.check(int(text))
            except ValueError:
                raise OptionError(
                    f"option {self.id} must be a whole number, not {text!r}"
                ) from None
        return self.check(text.strip())


OPTIONS: Final[tuple[OptionSpec, ...]] = tuple(
    OptionSpec(id, default, en, zh, section, **kw)  # type: ignore[arg-type]
    for id, default, section, en, zh, kw in ROWS
)

OPTIONS_BY_ID: Final[Mapping[str, OptionSpec]] = {spec.id: spec for spec in OPTIONS}


@dataclass(frozen=True)
class Rules:
    """Every rule choice for one table. Build with `Rules.create()`; it validates everything."""

    game: GameKind = GameKind.ATTACK
    deck: str = ""
    hand_size: int = 7
    first_player: str = "dealer_left"
    start_reverse: str = "dealer_leads"
    start_draw2_skips: bool = True
    start_wild: str = "first_player_names"
    start_colour_namer: str = "starter"
    wd4_legality: str = "colour"
    wd4_bluffing: bool = True
    challenge_success_victim_plays: bool = True
    may_draw_when_playable: bool = True
    must_play_drawn_if_playable: bool = False
    suggestion_penalty: bool = True
    uno_false_call_penalty: bool = True
    uno_false_accusation_penalty: bool = True
    scoring: str = "winner_collects"
    target: int = 500
    chip_rate: int = 1
    starting_chips: int = 0
    num_deals: int = 0
    break_ties_by_continuing: bool = False
    next_dealer: str = "winner"
    deal_size_by_count: bool = False
    must_play_if_able: bool = False
    atk_play_after_press: bool = False
    whf_needs_no_colour_match: bool = False
    discard_all_choose_subset: bool = False
    uno_after_trade_receiver: bool = False
    uno_state: str = "auto"
    no_finish_on_action: bool = False
    no_finish_extended: bool = False
    stack_s0: bool = False
    stack_s1: bool = False
    stack_wd4_ignores_legality: bool = False
    attack_stack_hits: bool = False
    jumpin_numbers: bool = False
    jumpin_identical: bool = False
    jumpin_draw_accumulate: bool = False
    wrong_jumpin_penalty: bool = False
    multi_same_face: bool = False
    multi_identical: bool = False
    multi_in_attack: bool = False
    multi_skip_opponents_only: bool = False
    replay_any_count: bool = False
    wild_after_draw: str = "off"
    wrong_play_penalty: bool = False
    format: str = "standard"
    teams: int = 2
    team_scoring: str = "winner_team_collects"

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "game", GameKind(self.game))
        except ValueError:
            raise OptionError(f"game must be classic or attack, not {self.game!r}") from None
        for spec in OPTIONS:
            value = spec.check(getattr(self, spec.id))
            if self.game not in spec.games and value != spec.default:
                raise OptionError(f"option {spec.id} applies to {_games(spec)} only")
        if not self.deck:
            object.__setattr__(self, "deck", DEFAULT_DECK[self.game])
        if DECKS[self.deck].game is not self.game:
            raise OptionError(f"option deck: {self.deck} is not a {self.game} deck")
        self._check_combinations()

    def _check_combinations(self) -> None:
        for first, second in CONFLICTS:
            if getattr(self, first) and getattr(self, second):
                raise OptionError(f"options {first} and {second} cannot both be on")
        for option, needed in NEEDS:
            if getattr(self, option) and not any(getattr(self, n) for n in needed.split("|")):
                wanted = " or ".join(needed.split("|"))
                raise OptionError(f"option {option} needs {wanted}")

    @classmethod
    def create(cls, game: GameKind | str = GameKind.ATTACK, **options: OptionValue) -> Rules:
        """Rules for `game` with `options` changed from their defaults. Ids are option ids or
        the §11 feature ids in `ALIASES`; anything else is an error naming it."""
        values = resolve_aliases(options)
        return cls(game=GameKind(game) if game in set(GameKind) else game, **values)  # type: ignore[arg-type]

    @classmethod
    def from_text(cls, game: GameKind | str, pairs: Mapping[str, str]) -> Rules:
        """Rules from `key=value` text, as typed on a command line (`key` alone: true)."""
        values: dict[str, OptionValue] = {}
        for key, text in pairs.items():
            if key in ALIASES and text.lower() in ("", "true", "1", "yes", "on"):
                values[key] = True
            else:
                values[key] = _spec_for(key).parse(text)
        return cls.create(game, **values)

    def replace(self, **options: OptionValue) -> Rules:
        return dataclasses.replace(self, **resolve_aliases(options))  # type: ignore[arg-type]

    @property
    def deck_spec(self) -> DeckSpec:
        return DECKS[self.deck]

    @property
    def attack(self) -> bool:
        return self.game is GameKind.ATTACK

    @property
    def stacking(self) -> str | None:
        """'s0', 's1' or None (§10.1)."""
        return "s0" if self.stack_s0 else "s1" if self.stack_s1 else None

    @property
    def jumpin(self) -> str | None:
        """'numbers', 'identical' or None (§10.2)."""
        return "numbers" if self.jumpin_numbers else "identical" if self.jumpin_identical else None

    @property
    def multi(self) -> str | None:
        """'same_face', 'identical' or None (§10.3); None for Attack without multi_in_attack."""
        return (
            "same_face" if self.multi_same_face else "identical" if self.multi_identical else None
        )

    @property
    def may_draw(self) -> bool:
        return self.may_draw_when_playable and not self.must_play_if_able

    @property
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


def resolve_aliases(options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Option ids as given, with §11 feature ids turned into the setting they stand for."""
    values: dict[str, OptionValue] = {}
    for key, value in options.items():
        if key in ALIASES and key not in OPTIONS_BY_ID:
            option, setting = ALIASES[key]
            if value is not True and value != setting:
                raise OptionError(f"{key} is a feature: switch it on, or set {option} instead")
            values[option] = setting
        else:
            _spec_for(key)
            values[key] = value
    return values


def _spec_for(key: str) -> OptionSpec:
    spec = OPTIONS_BY_ID.get(key)
    if spec is None:
        raise OptionError(f"unknown option {key!r} (uno-attack rules --list shows them all)")
    return spec


def _games(spec: OptionSpec) -> str:
    return " and ".join(sorted(game.value for game in spec.games)) + " UNO"
