"""Chinese and English for the scoreboard: UI words, card names (as in the rule texts), colours.

`t(key, language)` looks a word up; the templates get `t` and the page's language. The same
tables are sent to the page's script as JSON (`bundle`), so there is one source for both.
Words may hold `{placeholders}` that the script fills in (`{name}`, `{count}`, ...).
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "zh-CN")

CARD_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "S": "Skip", "R": "Reverse", "+2": "Draw Two", "H2": "Hit 2", "TH": "Trade Hands",
        "DA": "Discard All", "W": "Wild", "W4": "Wild Draw Four", "WAH": "Wild All Hit",
        "WHF": "Wild Hit-Fire", "?": "a card",
    },
    "zh-CN": {
        "S": "跳过", "R": "反转", "+2": "罚两张", "H2": "罚按牌", "TH": "交换牌",
        "DA": "负载牌", "W": "万用牌", "W4": "王牌+4", "WAH": "万用罚按牌", "WHF": "王牌",
        "?": "一张牌",
    },
}  # fmt: skip

COLOUR_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"},
    "zh-CN": {"R": "红", "Y": "黄", "G": "绿", "B": "蓝"},
}

# Every UI word once, English beside Chinese, so neither language can miss a key.
_PAIRS: Final[dict[str, tuple[str, str]]] = {
    # the frame: header, footer, PIN
    "title": ("UNO Attack", "UNO 冲击"),
    "language": ("中文", "English"),
    "scoreboard": ("Scoreboard", "记分板"),
    "setup": ("Set up", "设置"),
    "admin": ("Admin", "管理"),
    "api_help": ("API reference", "API 参考"),
    "pin": ("Table PIN", "牌桌密码"),
    "unlock": ("Unlock", "解锁"),
    "lock": ("Lock", "锁定"),
    "locked_hint": ("Enter the table PIN to control the game.", "输入牌桌密码即可操作游戏。"),
    "wrong_pin": ("Wrong PIN: try again.", "密码错误，请重试。"),
    "too_many": ("Too many wrong tries: wait a few minutes.", "错误次数过多，请稍等几分钟。"),
    "error": ("Not done: {reason}", "未完成：{reason}"),
    "offline": ("Reconnecting…", "正在重新连接…"),
    "live": ("Live", "实时"),
    "ok": ("OK", "确定"),
    "cancel": ("Cancel", "取消"),
    "save": ("Save", "保存"),
    "clear": ("Clear", "清除"),
    # the scoreboard
    "turn": ("Turn", "轮到"),
    "to_move": ("{name} to move", "轮到 {name}"),
    "direction": ("Direction", "方向"),
    "clockwise": ("Clockwise ↻", "顺时针 ↻"),
    "anticlockwise": ("Anticlockwise ↺", "逆时针 ↺"),
    "top": ("Top card", "顶牌"),
    "colour": ("Colour", "颜色"),
    "hand": ("Cards", "手牌"),
    "score": ("Score", "得分"),
    "total": ("Total", "总分"),
    "owes": ("Owes", "需按"),
    "players": ("Players", "玩家"),
    "dealer": ("Dealer", "庄家"),
    "pile": ("Pile", "牌堆"),
    "target": ("Target {points}", "目标 {points}"),
    "no_table": ("No match is set up yet.", "还没有设置比赛。"),
    "set_up_table": ("Set up a table", "设置牌桌"),
    "waiting_deal": ("Waiting for the deal", "等待发牌"),
    "phase_turn_up": ("Turn up the first card", "翻开第一张牌"),
    "phase_scoring": ("Count the cards left", "清点剩余手牌"),
    "uno": ("UNO!", "UNO!"),
    "exposed": ("{name} has one card and did not call UNO!", "{name} 只剩一张牌却没喊 UNO！"),
    "one_card": ("one card", "一张牌"),
    "duties": ("Owed", "待完成"),
    "duty_press": ("{name}: press {count} more ({why})", "{name}：再按 {count} 次（{why}）"),
    "duty_press_until_fire": (
        "{name}: press until cards come out ({why})",
        "{name}：一直按到出牌为止（{why}）",
    ),
    "duty_choose_colour": ("{name}: name a colour", "{name}：指定颜色"),
    "duty_penalty": (
        "{name}: take {count} cards or challenge",
        "{name}：接受罚 {count} 张或质疑",
    ),
    "chart": ("Scores by round", "各局累计得分"),
    "history": ("Rounds", "历史"),
    "round": ("Round", "局"),
    "no_rounds": ("No round has been scored yet.", "还没有计分的局。"),
    "winner": ("Winner", "赢家"),
    "standings": ("Standings", "排名"),
    "match_over": ("Match over", "比赛结束"),
    "winners": ("Winner: {names}", "赢家：{names}"),
    "new_match": ("New match", "新比赛"),
    "recent": ("What happened", "最近发生"),
    # the launcher
    "launcher": ("Launcher", "发牌机"),
    "ready": ("Ready", "就绪"),
    "suspense": ("Suspense…", "悬念…"),
    "firing": ("Firing!", "发射！"),
    "jam": ("Jam", "卡牌"),
    "empty": ("Empty", "空了"),
    "fault": ("Fault", "故障"),
    "none": ("Manual", "手动"),
    "closed": ("Off", "关闭"),
    "clear_fault": ("Clear fault", "排除故障"),
    "press_button": ("Press the launcher's button", "请按发牌机的按钮"),
    "virtual_launcher": ("Virtual launcher", "虚拟发牌机"),
    "virtual_press": ("Press the launcher", "按发牌机"),
    "take_seat": ("Take {name}'s seat", "坐 {name} 的位子"),
    "give_back": ("Give {name} back", "把 {name} 还给机器人"),
    "bot": ("bot", "机器人"),
    # why presses or cards are owed
    "why_turn": ("turn", "本回合"),
    "why_draw_two": ("Draw Two", "罚两张"),
    "why_draw_four": ("Wild Draw Four", "王牌+4"),
    "why_hit_two": ("Hit 2", "罚按牌"),
    "why_hit_fire": ("Hit-Fire", "王牌"),
    "why_all_hit": ("All Hit", "万用罚按牌"),
    "why_uno": ("missed UNO", "漏喊 UNO"),
    "why_false_call": ("false UNO call", "错喊 UNO"),
    "why_false_accusation": ("false catch", "错误指控"),
    "why_challenge": ("challenge", "质疑"),
    "why_suggestion": ("suggestion", "提示出牌"),
    "why_wrong_play": ("wrong play", "出错牌"),
    "why_wrong_jump_in": ("wrong jump-in", "抢牌出错"),
    # the controls
    "play": ("Play", "出牌"),
    "play_card": ("{name}: tap the card played", "{name}：点选打出的牌"),
    "call_uno": ("Called UNO with it", "出牌时喊了 UNO"),
    "choose_colour": ("Which colour was named?", "指定了什么颜色？"),
    "trade_with": ("Trade hands with whom?", "和谁交换手牌？"),
    "discard_count": ("How many other cards went with it?", "同时打出了几张其他牌？"),
    "deal": ("Deal", "发牌"),
    "deal_launcher": ("Deal with launcher", "用发牌机发牌"),
    "next_deal": ("Next deal: {name} deals", "下一局：{name} 发牌"),
    "turn_up": ("Tap the card turned up", "点选翻开的牌"),
    "undo": ("Undo", "撤销"),
    "press": ("Press", "按键"),
    "press_count": ("Cards that came out", "弹出的牌数"),
    "draw": ("Draw", "摸牌"),
    "pass": ("Keep it", "保留"),
    "challenge": ("Challenge", "质疑"),
    "guilty": ("Challenge: was guilty", "质疑：违规了"),
    "not_guilty": ("Challenge: was not guilty", "质疑：没违规"),
    "accept": ("Accept", "接受"),
    "catch": ("Catch!", "抓！"),
    "catches": ("{name} catches {target}!", "{name} 抓 {target}！"),
    "uno_for": ("{name}: UNO!", "{name}：UNO!"),
    "fix_count": ("Fix a count", "修正手牌数"),
    "count_of": ("{name} holds", "{name} 手牌数"),
    "enter_hand": ("{name}: cards left", "{name}：剩余手牌"),
    "points": ("Points", "点数"),
    "points_of": ("{points} points", "{points} 分"),
    "save_cards": ("Save cards", "保存手牌"),
    "save_points": ("Save points", "保存点数"),
    "went_out": ("{name} went out", "{name} 出完了"),
    "round_result": ("Round result", "本局结果"),
    "who_won": ("Who went out?", "谁先出完？"),
    "save_round": ("Save round", "保存本局"),
    # set-up
    "players_seating": ("Players in seating order", "玩家（按座次）"),
    "player_name": ("Player {n}", "玩家 {n}"),
    "add_player": ("Add a player", "添加玩家"),
    "remove": ("Remove", "移除"),
    "move_up": ("Move up", "上移"),
    "move_down": ("Move down", "下移"),
    "game": ("Game", "游戏"),
    "game_attack": ("UNO Attack", "UNO 冲击"),
    "game_classic": ("Classic UNO", "经典 UNO"),
    "mode": ("Mode", "模式"),
    "mode_tracked": ("Track every play", "逐张记录"),
    "mode_score_only": ("Scores only", "只记分"),
    "first_dealer": ("First dealer", "首位庄家"),
    "profile": ("Eject profile", "弹牌模式"),
    "options": ("Rules", "规则选项"),
    "start_match": ("Start the match", "开始比赛"),
    "setup_pin": ("Enter the table PIN to set up a match.", "输入牌桌密码后才能设置比赛。"),
    # admin
    "admin_password": ("Admin password", "管理员密码"),
    "log_in": ("Log in", "登录"),
    "wrong_password": ("Wrong password.", "密码错误。"),
    "test_press": ("Test press", "测试按键"),
    "refresh": ("Refresh", "刷新"),
    "status": ("Status", "状态"),
    "tension": ("Tension", "紧张度"),
    "last_press": ("Last press", "上次按键"),
    # what happened (the event feed)
    "ev_MatchStarted": ("A new match: {names}", "新比赛：{names}"),
    "ev_DealStarted": ("New deal: {name} deals", "新一局：{name} 发牌"),
    "ev_TurnedUp": ("Turned up {card}", "翻开 {card}"),
    "ev_Returned": ("{card} went back into the deck", "{card} 放回牌堆"),
    "ev_Played": ("{name} played {card}", "{name} 打出 {card}"),
    "ev_ColourNamed": ("{name} named {colour}", "{name} 指定 {colour}"),
    "ev_Drew": ("{name} drew {count}", "{name} 摸了 {count} 张"),
    "ev_Pressed": ("{name} pressed: {count} came out", "{name} 按键：弹出 {count} 张"),
    "ev_Reshuffled": ("The pile was reshuffled", "牌堆已重新洗牌"),
    "ev_Skipped": ("{name} is skipped", "{name} 被跳过"),
    "ev_Reversed": ("Direction reversed", "方向反转"),
    "ev_Traded": ("{name} traded hands with {target}", "{name} 与 {target} 交换手牌"),
    "ev_Passed": ("{name} kept the card", "{name} 保留了牌"),
    "ev_Owes": ("{name} owes {count} presses ({why})", "{name} 需按 {count} 次（{why}）"),
    "ev_UnoCalled": ("{name} called UNO", "{name} 喊了 UNO"),
    "ev_UnoMissed": ("{name} forgot to call UNO", "{name} 忘了喊 UNO"),
    "ev_Caught": ("{name} caught {target}", "{name} 抓到了 {target}"),
    "ev_FalseCall": ("{name} called UNO falsely", "{name} 错喊 UNO"),
    "ev_FalseAccusation": ("{name} accused {target} falsely", "{name} 错误指控 {target}"),
    "ev_Challenged": ("{name} challenged {target}", "{name} 质疑 {target}"),
    "ev_Corrected": ("{name} holds {count} (corrected)", "{name} 手牌修正为 {count}"),
    "ev_WentOut": ("{name} went out!", "{name} 出完了！"),
    "ev_DealEnded": ("The deal is over", "本局结束"),
    "ev_DealScored": ("Round {number} scored", "第 {number} 局已计分"),
    "ev_MatchEnded": ("The match is over", "比赛结束"),
    "ev_Undone": ("Undone", "已撤销"),
    "notice_press_ignored": ("Nobody needs to press now", "现在不需要按键"),
    "notice_dealt": ("Every hand is dealt: turn up the first card", "发牌完毕：请翻开第一张牌"),
}

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {key: en for key, (en, _) in _PAIRS.items()},
    "zh-CN": {key: zh for key, (_, zh) in _PAIRS.items()},
}


def t(key: str, language: str) -> str:
    return WORDS.get(language, WORDS["en"]).get(key, WORDS["en"].get(key, key))


def card_name(text: str, language: str) -> str:
    """`RH2` → "Red Hit 2" / "红 罚按牌"; numbers keep their digit."""
    colour, face = (text[0], text[1:]) if text[:1] in "RYGB" and len(text) > 1 else ("", text)
    names = CARD_NAMES.get(language, CARD_NAMES["en"])
    colours = COLOUR_NAMES.get(language, COLOUR_NAMES["en"])
    parts = [colours[colour]] if colour else []
    parts.append(names.get(face, face))
    return " ".join(parts)


def bundle(language: str) -> dict[str, dict[str, str]]:
    """The tables a page's script needs."""
    return {
        "words": WORDS.get(language, WORDS["en"]),
        "cards": CARD_NAMES.get(language, CARD_NAMES["en"]),
        "colours": COLOUR_NAMES.get(language, COLOUR_NAMES["en"]),
    }
