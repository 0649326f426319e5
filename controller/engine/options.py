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

OptionValue = bool | int | str

BOTH: Final = frozenset(GameKind)
CLASSIC_ONLY: Final = frozenset({GameKind.CLASSIC})
ATTACK_ONLY: Final = frozenset({GameKind.ATTACK})


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


def _spec(
    id: str, default: OptionValue, en: str, zh: str, section: str, **kw: object
) -> OptionSpec:
    return OptionSpec(id, default, en, zh, section, **kw)  # type: ignore[arg-type]


OPTIONS: Final[tuple[OptionSpec, ...]] = (
    _spec(
        "deck",
        "",
        "deck preset; empty = the game's default (classic / attack_1998)",
        "牌组（空=默认）",
        "§1",
        choices=("", *DECKS),
    ),
    _spec(
        "hand_size", 7, "cards dealt to each player", "每人发牌数", "§2.3", minimum=1, maximum=30
    ),
    _spec(
        "first_player",
        "dealer_left",
        "who leads: the dealer's left (official) or the dealer",
        "首家：庄家左手（官方）或庄家",
        "§2.4",
        choices=("dealer_left", "dealer"),
        games=CLASSIC_ONLY,
    ),
    _spec(
        "start_reverse",
        "dealer_leads",
        "turned-up Reverse: the dealer leads, or the dealer's right leads",
        "首张为反转：庄家先出，或庄家右手先出",
        "§2.5",
        choices=("dealer_leads", "dealer_right_leads"),
        games=CLASSIC_ONLY,
    ),
    _spec(
        "start_draw2_skips",
        True,
        "turned-up Draw Two: the first player draws 2 and is skipped",
        "首张为+2：首家摸2张并跳过",
        "§2.5",
        games=CLASSIC_ONLY,
    ),
    _spec(
        "start_wild",
        "first_player_names",
        "turned-up Wild: who names the colour, or redraw",
        "首张为万能牌：谁指定颜色",
        "§2.5",
        choices=("first_player_names", "free_lead", "redraw", "predecessor_names", "random"),
        games=CLASSIC_ONLY,
    ),
    _spec(
        "start_colour_namer",
        "starter",
        "turned-up Wild All Hit / Hit-Fire: the player who takes the first turn names the "
        "colour, or the dealer",
        "首张为万用罚按牌/王牌：谁指定颜色",
        "§2.5",
        choices=("starter", "dealer"),
        games=ATTACK_ONLY,
    ),
    _spec(
        "wd4_legality",
        "colour",
        "when a Wild Draw Four is legal",
        "+4 合法条件",
        "§3.2",
        choices=("colour", "colour_or_face", "no_other_play"),
        games=CLASSIC_ONLY,
    ),
    _spec(
        "wd4_bluffing",
        True,
        "an illegal Wild Draw Four may be played and then challenged",
        "可违规打出+4（可被质疑）",
        "§3.2",
        games=CLASSIC_ONLY,
    ),
    _spec(
        "challenge_success_victim_plays",
        True,
        "after a successful challenge the challenger takes a normal turn",
        "质疑成功后质疑者正常出牌",
        "§3.2",
        games=CLASSIC_ONLY,
    ),
    _spec(
        "may_draw_when_playable",
        True,
        "a player holding a playable card may still draw",
        "有牌可出时也可摸牌",
        "§3.3",
        games=CLASSIC_ONLY,
    ),
    _spec(
        "must_play_drawn_if_playable",
        False,
        "a playable drawn card must be played",
        "摸到能出的牌必须出",
        "§3.3",
        games=CLASSIC_ONLY,
    ),
    _spec(
        "suggestion_penalty",
        True,
        "suggesting a card to another player costs 4 presses",
        "提示别人出牌罚按4次",
        "§3.4",
        games=ATTACK_ONLY,
    ),
    _spec(
        "uno_false_call_penalty",
        True,
        "calling UNO without one card costs 2 cards / 2 presses",
        "错喊UNO罚2张/按2次",
        "§5",
    ),
    _spec(
        "uno_false_accusation_penalty",
        True,
        "accusing a player who needs no UNO call costs the accuser 2 cards / 2 presses",
        "错误指控罚2张/按2次",
        "§5",
    ),
    _spec(
        "scoring",
        "winner_collects",
        "how deals are scored",
        "计分方式",
        "§9.2",
        choices=("winner_collects", "penalty", "bust", "chips", "deal_loser", "none"),
    ),
    _spec(
        "target",
        500,
        "match ends when a total reaches this",
        "目标分数",
        "§9.2",
        minimum=1,
        maximum=100_000,
    ),
    _spec(
        "chip_rate",
        1,
        "chips paid per hand point (chips scoring)",
        "每点筹码数",
        "§9.2",
        minimum=1,
        maximum=1000,
    ),
    _spec(
        "starting_chips",
        0,
        "chips each player starts with (chips scoring)",
        "初始筹码",
        "§9.2",
        maximum=1_000_000,
    ),
    _spec(
        "num_deals",
        0,
        "deals in a chips match; 0 = until the players stop",
        "筹码制局数（0=不限）",
        "§9.2",
        maximum=10_000,
    ),
    _spec(
        "break_ties_by_continuing",
        False,
        "penalty scoring: a tie for lowest plays more deals",
        "负分制平局时继续",
        "§9.2",
    ),
    _spec(
        "next_dealer",
        "winner",
        "who deals the next deal",
        "下一局庄家",
        "§2.2",
        choices=("winner", "loser", "rotate"),
    ),
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

    @classmethod
    def create(cls, game: GameKind | str = GameKind.ATTACK, **options: OptionValue) -> Rules:
        """Rules for `game` with `options` changed from their defaults; unknown ids are errors."""
        for key in options:
            _spec_for(key)
        return cls(game=GameKind(game) if game in set(GameKind) else game, **options)  # type: ignore[arg-type]

    @classmethod
    def from_text(cls, game: GameKind | str, pairs: Mapping[str, str]) -> Rules:
        """Rules from `key=value` text, as typed on a command line."""
        return cls.create(game, **{key: _spec_for(key).parse(text) for key, text in pairs.items()})

    def replace(self, **options: OptionValue) -> Rules:
        for key in options:
            _spec_for(key)
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    @property
    def deck_spec(self) -> DeckSpec:
        return DECKS[self.deck]

    @property
    def attack(self) -> bool:
        return self.game is GameKind.ATTACK

    def changed(self) -> dict[str, OptionValue]:
        """The options that differ from their defaults (for logs and saved presets)."""
        values = {spec.id: getattr(self, spec.id) for spec in OPTIONS}
        values["deck"] = "" if self.deck == DEFAULT_DECK[self.game] else self.deck
        return {k: v for k, v in values.items() if v != OPTIONS_BY_ID[k].default}


def _spec_for(key: str) -> OptionSpec:
    spec = OPTIONS_BY_ID.get(key)
    if spec is None:
        raise OptionError(f"unknown option {key!r} (uno-attack rules --list shows them all)")
    return spec


def _games(spec: OptionSpec) -> str:
    return " and ".join(sorted(game.value for game in spec.games)) + " UNO"
