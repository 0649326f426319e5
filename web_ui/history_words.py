"""The history page's words (`/history`: the leaderboard and the past matches), English beside
Chinese. `i18n` hands them to the pages with the other words, by language."""

from __future__ import annotations

from typing import Final

HISTORY_PAIRS: Final[dict[str, tuple[str, str]]] = {
    "leaderboard": ("Leaderboard", "排行榜"),
    "lb_played": ("Matches", "场次"),
    "lb_wins": ("Wins", "胜场"),
    "lb_average": ("Points per round", "每局平均分"),
    "lb_comeback": ("Best comeback", "最大逆转"),
    "lb_comeback_hint": (
        "Best comeback: the most points a player was ever behind the leader, at the end of a "
        "round, in a match they went on to win (— if they never won from behind).",
        "最大逆转：玩家在最终赢下的比赛里，某一局结束时落后领先者的最多分数"
        "（从未落后取胜则为 —）。",
    ),
    "match_n": ("Match {n}", "第 {n} 场"),
    "in_progress": ("In progress", "进行中"),
    "abandoned": (
        "Abandoned: a new match was set up before this one ended",
        "已放弃：这场比赛结束前设置了新比赛",
    ),
    "export_csv": ("Download CSV", "下载 CSV"),
}
