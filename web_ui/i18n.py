"""Chinese and English for the scoreboard: UI words, card and colour names (`card_words`), the
rule options' words (`option_words`) and the history page's (`history_words`) by language.

`t(key, language)` looks a word up; the templates get `t` and the page's language. The same
tables are sent to the page's script as JSON (`bundle`), so there is one source for both.
Words may hold `{placeholders}` that the script fills in (`{name}`, `{count}`, ...).
"""

from __future__ import annotations

from typing import Any, Final

from .card_words import CARD_NAMES, COLOUR_NAMES
from .history_words import HISTORY_PAIRS
from .option_words import CHOICES, OPTION_WORDS, PAIR_LANGUAGES

LANGUAGES: Final = PAIR_LANGUAGES

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
    # letting a new tablet in without the PIN (join.py)
    "join_ask": (
        "No PIN? Ask a tablet that is unlocked to let this one in",
        "没有密码？请已解锁的平板放行本机",
    ),
    "join_show": (
        "On a tablet that is unlocked, tap “Let it in” beside this code:",
        "请在已解锁的平板上，点击此号码旁的“放行”：",
    ),
    "join_expired": (
        "Nobody let this tablet in in time: ask again.",
        "无人及时放行本机，请重新请求。",
    ),
    "join_title": ("A tablet asks to join", "有平板请求加入"),
    "join_check": (
        "Let it in only if the tablet in front of you shows the same code.",
        "仅当面前的平板显示相同号码时才放行。",
    ),
    "join_let_in": ("Let it in", "放行"),
    "join_let_in_admin": ("Let it in as the admin", "以管理员身份放行"),
    "join_refuse": ("Not this one", "不是这台"),
    "join_code": ("The code on the new tablet", "新平板上的号码"),
    "join_done": ("The tablet is let in.", "已放行该平板。"),
    "notice_guessing": (
        "Someone is guessing the PIN or password (wrong tries in the last minute: {count})",
        "有人在猜密码（最近一分钟的错误尝试：{count} 次）",
    ),
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
    "dealer_is": ("Dealer: {name}", "庄家：{name}"),
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
    "history": ("Rounds", "每局得分"),
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
    # RULES.md §8: the blocked deal
    "nothing_left": ("Nothing left to draw or reload", "无牌可摸，也无牌可装"),
    "empty_round": (
        "{count} of {players} in a row got nothing: a full round ends the deal",
        "已连续 {count}/{players} 人一无所获：满一轮即结束本局",
    ),
    "blocked": ("Blocked deal", "僵局"),
    "blocked_won": ("{name} won the blocked deal", "{name} 赢得僵局"),
    "phase_blocked": (
        "Blocked: enter every hand, the fewest points win",
        "僵局：请录入每人的手牌，点数最少者胜",
    ),
    "blocked_scoring": (
        "Nobody went out and nothing was left to draw or reload: the player with the fewest "
        "points wins this deal (a tie goes to fewer cards).",
        "无人出完，且无牌可摸、无牌可装：手牌点数最少者赢得本局（同分则牌少者胜）。",
    ),
    "clear_fault": ("Clear fault", "排除故障"),
    "reload_title": ("The launcher is empty: reload it", "发牌机空了：请装牌"),
    "reload_how": (
        "Take the discard pile except its top card, shuffle it and put it into the launcher. "
        "Then tap Reloaded.",
        "拿起弃牌堆（最上面一张留下），洗匀后放进发牌机，然后点“已装好”。",
    ),
    "reloaded": ("Reloaded", "已装好"),
    "rules_title": ("Rules sheet", "规则说明"),
    "rules_house": ("House rules that are on", "本桌启用的房规"),
    "rules_standard_only": ("None: the standard rules.", "没有：使用标准规则。"),
    "on": ("on", "开"),
    "off": ("off", "关"),
    "rule_goal_attack": (
        "Play a card that matches the top card by colour, number or symbol. Cannot or will "
        "not play? Press the launcher and keep what comes out. First to empty their hand wins "
        "the round and scores the cards left in the others' hands; first to {target} wins.",
        "出一张与顶牌颜色、数字或图案相同的牌。不能或不想出牌时，按发牌机，弹出的牌都归你。"
        "先出完手牌的人赢得本局，得到其他人手中剩余牌的分数；先到 {target} 分者获胜。",
    ),
    "rule_goal_classic": (
        "Play a card that matches the top card by colour, number or symbol, or draw one. First "
        "to empty their hand wins the round and scores the cards left in the others' hands; "
        "first to {target} wins.",
        "出一张与顶牌颜色、数字或图案相同的牌，或摸一张。先出完手牌的人赢得本局，"
        "得到其他人手中剩余牌的分数；先到 {target} 分者获胜。",
    ),
    "rule_number_name": ("Number cards 0–9", "数字牌 0–9"),
    "rule_number": (
        "Match the colour or the number. Worth their number.",
        "颜色或数字相同即可出。分值等于数字。",
    ),
    "rule_S": ("The next player loses their turn.", "下家失去本回合。"),
    "rule_R": (
        "Play changes direction (with two players it works like a Skip).",
        "出牌方向反转（两人游戏时等于跳过）。",
    ),
    "rule_+2": (
        "The next player draws two cards and loses their turn.",
        "下家摸两张牌并失去本回合。",
    ),
    "rule_H2": (
        "The next player presses the launcher twice, keeps what comes out and loses their turn.",
        "下家按发牌机两次，弹出的牌都归他，并失去本回合。",
    ),
    "rule_TH": (
        "Swap your whole hand with another player of your choice. It may not be your last card.",
        "与任选的一名玩家交换全部手牌。不能作为最后一张牌打出。",
    ),
    "rule_DA": (
        "Discard every card of its colour from your hand with it.",
        "连同手中所有同颜色的牌一起打出。",
    ),
    "rule_W": ("Play on anything and name the colour.", "任何时候都可出，并指定颜色。"),
    "rule_W4": (
        "Name the colour; the next player draws four and loses their turn (it may be challenged).",
        "指定颜色；下家摸四张并失去本回合（可以质疑）。",
    ),
    "rule_WAH": (
        "Name the colour; every other player presses the launcher once. Nobody loses a turn.",
        "指定颜色；其他每位玩家各按发牌机一次。没有人失去回合。",
    ),
    "rule_WHF": (
        "Name the colour; the next player presses until cards come out, keeps them and loses "
        "their turn.",
        "指定颜色；下家一直按到有牌弹出为止，弹出的牌归他，并失去本回合。",
    ),
    "history_nav": ("History", "历史"),
    "history_title": ("Past matches", "往届比赛"),
    "on_a_phone": ("This table on a phone", "在手机上打开本牌桌"),
    "qr_alt": ("QR code of this table's address", "本牌桌地址的二维码"),
    "qr_hint": (
        "Scan with a phone on the same Wi-Fi to open this scoreboard.",
        "用连着同一个 Wi-Fi 的手机扫码，即可打开记分板。",
    ),
    "fullscreen": ("Full screen", "全屏"),
    "keep_awake": ("Keep the screen on", "保持屏幕常亮"),
    "wake_what": (
        "Keep the screen on: this tablet will not dim or lock while the scoreboard is open.",
        "保持屏幕常亮：记分板打开期间，平板不会变暗或锁屏。",
    ),
    "wake_on": (
        "The screen stays on while this page is open.",
        "本页打开期间屏幕保持常亮。",
    ),
    "wake_tap": (
        "Tap anywhere on the page to keep the screen on again.",
        "轻触页面任意处，即可再次保持屏幕常亮。",
    ),
    "wake_unavailable": (
        "This browser cannot keep the screen on here: set the screen timeout (auto-lock) to "
        "its longest in the tablet's display settings instead.",
        "此浏览器在这里无法保持屏幕常亮：请在平板的“显示”设置中把屏幕休眠（自动锁定）时间设为最长。",
    ),
    "sound_on": ("Sound: on", "声音：开"),
    "sound_off": ("Sound: off", "声音：关"),
    "sound_tap": ("tap anywhere to start", "轻触页面任意处开始"),
    "sound_blocked": ("the browser blocks it", "浏览器不允许播放"),
    "sound_unavailable": ("this browser has none", "此浏览器不支持"),
    "next_player": ("next: {name}", "下一位：{name}"),
    "points_held": ("points left in hand", "手中剩余点数"),
    "points_held_legend": (
        "★ the round's winner · (n) points left in a hand",
        "★ 本局赢家 · (n) 手中剩余点数",
    ),
    "replace_confirm": (
        "A match is in progress ({names}; {deals} deals scored). End it and start this one?",
        "有一场比赛正在进行（{names}；已计 {deals} 局）。结束它并开始新比赛吗？",
    ),
    "reload_unlock": (
        "Enter the table PIN, then tap Reloaded again.",
        "请输入牌桌密码，然后再点“已装好”。",
    ),
    "pin_to_press": (
        "Enter the table PIN to press the launcher from this tablet.",
        "输入牌桌密码后才能在本平板上按发牌机。",
    ),
    "pin_to_sit": (
        "Enter the table PIN to take a seat from the bots.",
        "输入牌桌密码后才能从机器人那里接手座位。",
    ),
    "ev_Reloaded": ("The launcher was reloaded: {count} cards", "发牌机已装牌：{count} 张"),
    "ev_FaultCleared": ("The launcher's fault was cleared", "发牌机故障已排除"),
    "champion": ("{names} wins!", "{names} 获胜！"),
    "champions": ("{names} win!", "{names} 获胜！"),
    "demo_next_match": ("The bots start the next match in a moment.", "机器人稍后开始下一场比赛。"),
    "press_button": ("Press the launcher's button", "请按发牌机的按钮"),
    "demo_panel": ("Demo", "演示"),
    "virtual_press": ("Press the launcher", "按发牌机"),
    "press_after_reload": (
        "The launcher is empty: reload it, tap Reloaded, then press.",
        "发牌机空了：请先装牌，点“已装好”，再按。",
    ),
    "take_seat": ("Take {name}'s seat", "坐 {name} 的位子"),
    "give_back": ("Give {name} back", "把 {name} 还给机器人"),
    "bot": ("bot", "机器人"),
    "bots_play": ("Let the bots play", "让机器人来玩"),
    "bots_leave": ("Play it yourselves", "自己来玩"),
    "bots_playing": (
        "The bots are playing this table: take a seat, or play it all yourselves.",
        "机器人正在玩这一桌：可以接手一个座位，或者全部自己来玩。",
    ),
    "bots_idle": (
        "This table is yours: the bots leave it alone until you let them play.",
        "这一桌归你们：除非让机器人来玩，它们不会动它。",
    ),
    "pin_to_hand_over": (
        "Enter the table PIN to hand the table to the bots or take it back.",
        "输入牌桌密码后才能把牌桌交给机器人或收回。",
    ),
    # why presses or cards are owed
    "why_turn": ("turn", "本回合"),
    "why_draw_two": ("Draw Two", "罚两张"),
    "why_draw_four": ("Wild Draw Four", "王牌+4"),
    "why_hit_two": ("Hit 2", "罚按牌 2"),
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
    "point_one": ("{points} point", "{points} 分"),
    "cards_of": ("{count} cards", "{count} 张"),
    "card_one": ("{count} card", "{count} 张"),
    "save_cards": ("Save cards", "保存手牌"),
    "save_anyway": ("Save anyway", "仍然保存"),
    "tracked_cards": ("(the table counted {count} cards)", "（牌桌记录 {count} 张）"),
    "count_cards": ("Or count the cards", "或者逐张清点"),
    "cards_and_points": ("{cards}, {points}", "{cards}，{points}"),
    "count_mismatch": (
        "The table counted {tracked} cards for {name}, not {count}: check the hand, then save.",
        "牌桌记录 {name} 有 {tracked} 张，不是 {count} 张：请核对手牌后再保存。",
    ),
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
    "eject_profile": ("Eject profile", "弹牌模式"),
    "options": ("House rules", "房规"),
    "rules_changed": ("· {count} changed from the standard rules", "· 与标准规则不同 {count} 项"),
    "rules_standard": ("· the standard rules (tap to change)", "· 标准规则（点此修改）"),
    "rules_carried": (
        "These are the last match's house rules ({count} changed). Keep them, or start again "
        "from the standard rules.",
        "这是上一场比赛的房规（改了 {count} 项）。可以保留，或恢复标准规则。",
    ),
    "standard_rules": ("Use the standard rules", "恢复标准规则"),
    "eject_profile_toy": ("Like the toy", "像原版玩具"),
    "eject_profile_toy_hint": (
        "About one press in four fires, usually 3 to 8 cards, now and then a burst of 12 or more.",
        "大约四次按键弹一次，通常 3 到 8 张，偶尔一下弹出 12 张以上。",
    ),
    "eject_profile_gentle": ("Gentle (young players)", "温和（小朋友）"),
    "eject_profile_gentle_hint": (
        "Fires a little more often, only 1 to 4 cards, never a big burst.",
        "弹得稍勤，每次只有 1 到 4 张，没有大爆发。",
    ),
    "eject_profile_brutal": ("Brutal", "残酷"),
    "eject_profile_brutal_hint": (
        "Fires often and hard: 3 to 15 cards, and now and then 15 to 25 at once.",
        "弹得又勤又狠：3 到 15 张，偶尔一次 15 到 25 张。",
    ),
    "eject_profile_custom": ("{name} (our own)", "{name}（自定义）"),
    "eject_profile_draw-one": ("One card per press", "每按一次一张"),
    "eject_profile_draw-one_hint": (
        "Every press gives exactly one card: the launcher as a plain draw pile.",
        "每按一次正好一张：发牌机就当普通摸牌堆。",
    ),
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
    "ev_Challenged_guilty": (
        "{name} challenged {target}: the Wild Draw Four was illegal",
        "{name} 质疑 {target}：+4 违规",
    ),
    "ev_Challenged_innocent": (
        "{name} challenged {target}: the Wild Draw Four was legal",
        "{name} 质疑 {target}：+4 合法",
    ),
    "ev_HandShown": (
        "{name} showed their hand to {target}: {hand}",
        "{name} 向 {target} 亮出手牌：{hand}",
    ),
    "ev_HandShown_unseen": ("{name} showed their hand to {target}", "{name} 向 {target} 亮出手牌"),
    "ev_Corrected": ("{name} holds {count} (corrected)", "{name} 手牌修正为 {count}"),
    "ev_WentOut": ("{name} went out!", "{name} 出完了！"),
    "ev_DealBlocked": (
        "A full round got nothing and nothing is left to draw or reload: the deal is blocked",
        "整整一轮一无所获，且无牌可摸、无牌可装：本局僵局",
    ),
    "ev_DealEnded": ("The deal is over", "本局结束"),
    "ev_DealScored": ("Round {number} scored", "第 {number} 局已计分"),
    "ev_MatchEnded": ("The match is over", "比赛结束"),
    "ev_hit_fire_next": (
        "{name} presses until cards come out, then loses the turn",
        "{name} 一直按到有牌弹出，然后失去本回合",
    ),
    "ev_Undone": ("Undone: {what}", "已撤销：{what}"),
    "undone_round": ("the round {name} won", "{name} 赢的那一局"),
    "undone_hand": ("{name}'s hand ({points} points)", "{name} 的手牌（{points} 分）"),
    "notice_press_ignored": ("Nobody needs to press now", "现在不需要按键"),
    "notice_dealt": ("Every hand is dealt: turn up the first card", "发牌完毕：请翻开第一张牌"),
    "card_group": ("{card} with {cards}", "{card}（连同 {cards}）"),
    # house rules at the table: stacking, jump-ins, several cards, Suggest
    "faces": ("{name} faces +{count}", "{name} 面临 +{count}"),
    "faces_presses": ("{name} faces {count} presses", "{name} 面临罚按 {count} 次"),
    "stack_hint": ("Take them all, or pass the stack on", "全部接受，或叠加转给下家"),
    "accept_stack": ("Accept the stack (+{count})", "接受叠加（+{count}）"),
    "pass_on": ("Pass it on with:", "用这张牌叠加转出："),
    "jump_in": ("Jump in!", "抢出！"),
    "jump_in_window": ("Jump in with the identical card", "可用相同的牌抢出"),
    "several": ("Several cards at once", "多张一起出"),
    "group_add": ("Add the other cards that went down", "添加一起打出的其他牌"),
    "group_top": ("Tap the card that ends on top", "点选放在最上面的牌"),
    "on_top": ("on top", "最上面"),
    "take_out": ("Take out {card}", "拿掉 {card}"),
    "play_n": ("Play {count} cards", "打出 {count} 张"),
    "suggest": ("Suggested a card", "提示出牌"),
    "suggest_by": ("{name} suggested (4 presses)", "{name} 提示了（罚按 4 次）"),
    # formats on the scoreboard: eliminations, teams, rotation, chips
    "house_rules": ("House rules", "家规"),
    "format_elim_within_deal": ("Within-deal elimination (淘汰制)", "淘汰制"),
    "format_elim_tournament": ("Elimination tournament", "淘汰赛"),
    "format_team_play": ("Team play", "团队赛"),
    "format_rotation_4p": ("Rotation, 4 players", "四人轮换赛"),
    "format_rotation_8p": ("Rotation, 8 players", "八人轮换赛"),
    "house_stacking": ("Stacking", "叠加"),
    "house_jumpin_numbers": ("Jump-in: numbers (点断)", "点断"),
    "house_jumpin_identical": ("Jump-in: identical cards (抢牌)", "抢牌"),
    "house_multi_same_face": ("Several cards: same face (对牌)", "对牌"),
    "house_multi_identical": ("Several cards: identical", "相同的牌一起出"),
    "losses": ("Losses", "输局"),
    "chips": ("Chips", "筹码"),
    "out": ("Out", "出局"),
    "out_place": ("Out #{n}", "第 {n} 个出完"),
    "eliminated": ("Eliminated", "已淘汰"),
    "last_holder": ("{name} held the last cards and lost the deal", "{name} 最后持牌，输了本局"),
    "finish_order": ("Finishing order", "出完顺序"),
    "teams": ("Teams", "队伍"),
    "team_n": ("Team {n}", "第 {n} 队"),
    "partners": ("{a} & {b}", "{a} 与 {b}"),
    "vs": ("{a} vs {b}", "{a} 对 {b}"),
    "lower_better": ("lower is better", "分数越低越好"),
    "rotation": ("Rotation", "轮换赛"),
    "rotation_progress": ("Deal {played} of {total}", "第 {played} / {total} 局"),
    "next_pairing": ("Next: round {round}, table {table}", "下一场：第 {round} 轮，第 {table} 桌"),
    "schedule": ("Schedule", "赛程"),
    "round_n": ("Round {n}", "第 {n} 轮"),
    "table_n": ("Table {n}", "第 {n} 桌"),
    "played_mark": ("played", "已赛"),
    "playing_mark": ("now", "进行中"),
    "sits_out": ("at the other table", "在另一桌"),
    # set-up: the table's own settings
    "table_settings": ("This table", "本桌设置"),
    "new_pin": ("New table PIN (4-8 digits)", "新的牌桌密码（4-8位数字）"),
    "change_pin": ("Change the PIN", "更改密码"),
    "pin_changed": (
        "PIN changed: every other tablet must enter it",
        "密码已更改：其他平板需重新输入",
    ),
    "table_language": ("Language new tablets start in", "新平板的默认语言"),
    "set_language": ("Set", "设定"),
    "language_set": ("Default language set", "默认语言已设定"),
    # set-up: presets and the match format
    "presets": ("House-rule presets", "规则预设"),
    "preset_choose": ("Load a preset…", "载入预设…"),
    "preset_loaded": ("Loaded: {name}", "已载入：{name}"),
    "preset_own": ("this table's", "本桌"),
    "save_as": ("Save these rules as…", "将这些规则另存为…"),
    "preset_name": ("Name of the preset", "预设名称"),
    "preset_saved": ("Saved: {name}", "已保存：{name}"),
    "match_format": ("Match format", "赛制"),
    "needs_players": ("Needs exactly {count} players.", "需要正好 {count} 位玩家。"),
    "needs_score_only": (
        "Two tables play at once: this tablet keeps the score (scores only).",
        "两桌同时进行：本平板只记分。",
    ),
    "teams_preview": ("Partners sit apart:", "队友分开坐："),
}

_OPERATOR_PAIRS: Final[dict[str, tuple[str, str]]] = {
    "warn_older_rules": (
        "This match was recorded under edition {edition} of the rules and is played as it was "
        "recorded. Today's rules differ:",
        "本对局按第 {edition} 版规则记录，仍按记录时的规则进行。现行规则的不同之处：",
    ),
    "warn_set_aside_match": (
        "The match set up at record {seq} could not be replayed when the table started and "
        "was set aside, {count} record(s) in all ({reason}). The table went back to the match "
        "before it. The records are kept in the event log's file: uno-attack db check lists them",
        "序号 {seq} 开始的对局在牌桌启动时无法重放，已连同其 {count} 条记录一起移到一旁"
        "（{reason}）。牌桌已回到它之前的对局。这些记录仍保存在事件日志文件中：uno-attack db "
        "check 可列出它们",
    ),
    "warn_set_aside_record": (
        "Record {seq} could not be replayed and was set aside ({reason}): check the scores. It "
        "is kept in the event log's file: uno-attack db check lists it",
        "序号 {seq} 的记录无法重放，已移到一旁（{reason}）：请核对分数。它仍保存在事件日志文件"
        "中：uno-attack db check 可列出它",
    ),
    "warn_log_loss": (
        "{count} records the table had acknowledged (seq {first} to {last}) are missing from the "
        "event log: its -wal file was deleted after the service was stopped hard, or an older "
        "copy of the file was put back. The table went back to before them: check the scores. "
        "Never delete uno-attack.db-wal: it holds the newest records",
        "事件日志中缺少本桌已确认的 {count} 条记录（序号 {first} 至 {last}）：服务被强行停止后"
        "删除了它的 -wal 文件，或放回了旧的副本。牌桌已回到这些记录之前：请核对分数。切勿删除 "
        "uno-attack.db-wal：其中保存着最新的记录",
    ),
    "warn_default_pin": (
        "the table PIN is still the default one: set [table] pin in the config",
        "牌桌密码仍是默认密码：请在配置文件中设置 [table] pin",
    ),
    "warn_no_admin_password": (
        "no admin password is set: nobody can change the PIN or the table's settings "
        "from a tablet (set [service] admin_password in the config)",
        "未设置管理员密码：无法在平板上更改牌桌密码或本桌设置（请在配置文件中设置 "
        "[service] admin_password）",
    ),
    "warn_short_password": (
        "the admin password is shorter than {length} characters: "
        "choose a longer [service] admin_password",
        "管理员密码少于 {length} 个字符：请设置更长的 [service] admin_password",
    ),
}
"""What the operator must fix, rendered by the server above the set-up and admin pages for the
tablets that may act on it (and logged in English); never in a page's word bundle."""


def _by_language(pairs: dict[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
    return {
        "en": {key: en for key, (en, _) in pairs.items()},
        "zh-CN": {key: zh for key, (_, zh) in pairs.items()},
    }


WORDS: Final = _by_language(_PAIRS | HISTORY_PAIRS)
_SERVER_WORDS: Final = _by_language(_PAIRS | HISTORY_PAIRS | _OPERATOR_PAIRS)


def t(key: str, language: str) -> str:
    words = _SERVER_WORDS.get(language, _SERVER_WORDS["en"])
    return words.get(key, _SERVER_WORDS["en"].get(key, key))


def bundle(language: str) -> dict[str, Any]:
    """The tables a page's script needs."""
    return {
        "words": WORDS.get(language, WORDS["en"]),
        "cards": CARD_NAMES.get(language, CARD_NAMES["en"]),
        "colours": COLOUR_NAMES.get(language, COLOUR_NAMES["en"]),
        "choices": CHOICES.get(language, CHOICES["en"]),
        "option_words": OPTION_WORDS.get(language, OPTION_WORDS["en"]),
    }
