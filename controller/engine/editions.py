"""What each edition of the rules changed, for a match recorded under an earlier one.

A match keeps the edition it was recorded under (`Rules.edition`), so an upgrade never changes
a recorded game (RULES.md §11). The scoreboard of such a match says which of today's rules it
is not played under: the changes of every later edition that concern its set-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .options import EDITION, Rules


@dataclass(frozen=True)
class Change:
    """A rule of `edition` and later: `id` names it (an option id where one is concerned),
    `en` and `zh` say what today's rules do that the older match does not, and `concerns`
    whether it matters under a match's rules."""

    edition: int
    id: str
    en: str
    zh: str
    concerns: Callable[[Rules], bool]


def _always(_: Rules) -> bool:
    return True


CHANGES: tuple[Change, ...] = (
    Change(1, "jumpin_draw_accumulate",
        "a jump-in on a Draw Two or Wild Draw Four now adds to the cards owed",
        "抢出的+2/+4现在累加罚牌", lambda rules: rules.jumpin is not None),
    Change(1, "seat_after_going_out",
        "a player who has gone out is now passed over by the penalties played after",
        "已出完牌的玩家现在不再承受之后打出的罚牌",
        lambda rules: rules.jumpin is not None or rules.stacking is not None),
    Change(1, "cards_in_sight",
        "at a table, a card whose every copy is in sight is now refused",
        "现在不能打出所有副本都已可见的牌", _always),
    Change(2, "blocked_deal", "a deal nobody can finish now ends blocked (§8)",
        "无法结束的一局现在按僵局结束（§8）", _always),
    Change(3, "other_game_options",
        "options of the other game are now refused, whatever their value (§11)",
        "现在拒绝另一种游戏的选项（§11）", _always),
    Change(3, "starting_totals", "team, rotation and elimination totals now start at 0",
        "团队、轮换和淘汰赛的总分现在从0开始",
        lambda rules: rules.format != "standard" and rules.scoring == "chips"),
    Change(3, "entered_hands",
        "hands entered after a deal are now checked against the deck and the tracked count",
        "局末录入的手牌现在按牌组和记录的张数核对", _always),
)  # fmt: skip


def not_played_under(rules: Rules) -> list[Change]:
    """The changes since `rules.edition` that concern a match under `rules` (none today)."""
    return [c for c in CHANGES if c.edition > rules.edition and c.concerns(rules)]


def edition_view(rules: Rules) -> dict[str, object]:
    """The rules' edition for the state: its number, today's, and what differs (in English
    and Chinese)."""
    older = [
        {"id": change.id, "text": change.en, "text_zh": change.zh}
        for change in not_played_under(rules)
    ]
    return {"edition": rules.edition, "current": EDITION, "older": older}
