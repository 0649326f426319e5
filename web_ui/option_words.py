"""The set-up page's rule options in words, English beside Chinese: what each option does at
the table (a short label and a hint with the detail), its choices, and the titles of the parts
of the rules the options are grouped under. `i18n` hands them to the pages by language.

The engine's own meanings (`controller.engine.options`) are written for the rules and the
command line; these are for a family at the table. An option may also have words for one match
format (`target@elim_tournament`), shown when that format is chosen.
"""

from __future__ import annotations

from typing import Final

PAIR_LANGUAGES: Final = ("en", "zh-CN")
"""The languages of every pair of words here, in order."""

Words = tuple[str, str]
"""A short label, then a hint with the detail."""

OPTION_PAIRS: Final[dict[str, tuple[Words, Words]]] = {
    "deck": (
        ("Which cards are in the deck",
         "Normally the game's own deck. UNO Attack also came as a deck with 4 Reverses and "
         "8 Discard All cards."),
        ("用哪副牌", "一般用游戏自带的牌。UNO 冲击还有一版：4 张反转、8 张负载牌。"),
    ),
    "hand_size": (
        ("Cards dealt to each player",
         "Normally 7. There must be cards left over to turn up and to draw from."),
        ("每人发几张牌", "通常 7 张。发完后还要剩下牌来翻开和摸牌。"),
    ),
    "deal_size_by_count": (
        ("More cards when more people play",
         "7 cards each for up to 4 players, 8 for 5 or 6, 9 for 7 to 10, instead of the number "
         "above."),
        ("人多就多发牌", "4 人以内每人 7 张，5–6 人 8 张，7–10 人 9 张，代替上面的张数。"),
    ),
    "first_player": (
        ("Who plays first",
         "The official rule: the player on the dealer's left. Many Chinese tables let the "
         "dealer start."),
        ("谁先出牌", "官方规则是庄家左手边的人先出；不少人玩的是庄家先出。"),
    ),
    "start_reverse": (
        ("First card a Reverse: who starts",
         "Whoever starts, play then goes the other way round."),
        ("第一张翻出反转：谁先出", "不管谁先出，之后都按反方向轮流。"),
    ),
    "start_draw2_skips": (
        ("First card a Draw Two: the first player misses a go",
         "They take 2 cards either way. Off: after taking them they still play."),
        ("第一张翻出罚两张：首家不能出牌", "首家总要摸 2 张。关掉的话，摸完还能出牌。"),
    ),
    "start_wild": (
        ("First card a Wild: what happens",
         "The official rule: the first player picks the colour and then plays."),
        ("第一张翻出万用牌：怎么办", "官方规则：首家指定颜色，然后出牌。"),
    ),
    "start_colour_namer": (
        ("All Hit or Hit-Fire first: who picks the colour",
         "For a Wild All Hit or Wild Hit-Fire turned up to start: normally the player who "
         "takes the first real turn."),
        ("第一张翻出万用罚按牌或王牌：谁指定颜色", "通常由第一个正常出牌的人指定。"),
    ),
    "wd4_legality": (
        ("When a Wild Draw Four may be played",
         "The official rule: only when you hold no card of the colour in play."),
        ("什么时候能出王牌+4", "官方规则：手里没有当前颜色的牌时才能出。"),
    ),
    "wd4_bluffing": (
        ("You may bluff with a Wild Draw Four",
         "Play it even when you should not; the next player may challenge you. Off: it can "
         "only be played when it is allowed."),
        ("王牌+4 可以偷出", "不该出的时候也能出，下家可以质疑。关掉的话，不符合条件就不能出。"),
    ),
    "challenge_success_victim_plays": (
        ("Caught a bluff? You still get your go",
         "When a challenge shows the Wild Draw Four was a bluff, the bluffer draws 4 and the "
         "challenger plays as usual. Off: the challenger still misses the turn."),
        ("质疑成功后照常出牌",
         "质疑发现王牌+4 是偷出的：出牌人摸 4 张，质疑者照常出牌。关掉的话，质疑者仍失去本回合。"),
    ),
    "may_draw_when_playable": (
        ("You may draw even when you could play",
         "Allowed in the official rules. You may then play only the card you drew."),
        ("能出牌时也可以摸牌", "官方规则允许。摸了以后只能出刚摸到的那张。"),
    ),
    "must_play_if_able": (
        ("No drawing when you can play",
         "A player holding a card that fits must play. This wins over the rule above."),
        ("能出就必须出，不许摸牌", "手里有能出的牌就必须出。这一条优先于上一条。"),
    ),
    "must_play_drawn_if_playable": (
        ("A drawn card that fits must be played",
         "Normally you may keep it and end your turn."),
        ("摸到能出的牌必须出", "通常可以留着，结束本回合。"),
    ),
    "atk_play_after_press": (
        ("You may still play after pressing",
         "The official rule: pressing ends your turn, even when a card that fits comes out."),
        ("按完发牌机还能出牌", "官方规则：按了就结束本回合，就算弹出能出的牌也不行。"),
    ),
    "suggestion_penalty": (
        ("Telling others what to play costs 4 presses",
         "The official UNO Attack rule: whoever suggests a card to another player presses the "
         "launcher 4 times."),
        ("给别人支招罚按 4 次", "UNO 冲击官方规则：提示别人出哪张牌的人要按发牌机 4 次。"),
    ),
    "whf_needs_no_colour_match": (
        ("Hit-Fire only when you have none of the colour",
         "A Wild Hit-Fire may then be played only when you hold no card of the colour in play, "
         "like a Wild Draw Four."),
        ("没有当前颜色才能出王牌", "这样王牌只能在手里没有当前颜色的牌时出，和王牌+4 一样。"),
    ),
    "discard_all_choose_subset": (
        ("Discard All: you may keep some of its colour",
         "Normally every card of its colour in your hand goes down with it."),
        ("负载牌可以留下部分同色牌", "通常手里所有同颜色的牌都要跟着一起打出。"),
    ),
    "uno_after_trade_receiver": (
        ("Traded down to one card? Call UNO too",
         "A player handed a one-card hand by Trade Hands must call UNO as well. Normally only "
         "the player who traded must."),
        ("换到一张牌也要喊 UNO", "被交换牌换成只剩一张的人也要喊 UNO。通常只有出交换牌的人要喊。"),
    ),
    "uno_state": (
        ("When you must call UNO",
         "With one card left. When several cards may go down together, also when your whole "
         "hand could go down at once."),
        ("什么时候要喊 UNO", "剩一张牌时。如果允许多张一起出，手里的牌能一次出完时也要喊。"),
    ),
    "uno_false_call_penalty": (
        ("Calling UNO wrongly costs 2",
         "Calling UNO without being down to one card: take 2 cards (UNO Attack: press twice)."),
        ("错喊 UNO 罚 2 张", "没剩一张牌却喊 UNO：罚摸 2 张（UNO 冲击：按 2 次）。"),
    ),
    "uno_false_accusation_penalty": (
        ("A wrong catch costs the catcher 2",
         "Catching a player who did not have to call UNO: the catcher takes 2 cards (UNO "
         "Attack: presses twice)."),
        ("抓错人罚 2 张", "抓了其实不用喊 UNO 的人：抓的人罚摸 2 张（UNO 冲击：按 2 次）。"),
    ),
    "no_finish_on_action": (
        ("No going out on a Reverse, Skip or Wild",
         "Your last card must be another card. If that is all you have left, draw instead."),
        ("最后一张不能是反转、跳过或万用牌",
         "最后一张必须是别的牌。只剩这些牌时，只能摸牌。"),
    ),
    "no_finish_extended": (
        ("…nor on a Draw Two or Wild Draw Four",
         "Adds these two to the rule above, which must be on too."),
        ("…也不能是罚两张或王牌+4", "在上一条之外再加这两种，上一条也要开启。"),
    ),
    "stack_s0": (
        ("Pass on a +2 with a +2 or a +4",
         "Stacking: hit by a draw card, add your own and the next player takes the lot. A +2 "
         "takes a +2 or a +4; a +4 takes only a +4."),
        ("叠加：+2 上可以叠 +2 或 +4",
         "被罚时叠上自己的罚牌，下家全部承担。+2 上可叠 +2 或 +4；+4 上只能叠 +4。"),
    ),
    "stack_s1": (
        ("Pass on a draw card with the same kind",
         "Stacking: a +2 on a +2, a +4 on a +4, never mixed; the next player takes the lot."),
        ("叠加：只能同类相叠", "+2 叠 +2，+4 叠 +4，不能混叠；下家全部承担。"),
    ),
    "stack_wd4_ignores_legality": (
        ("A Wild Draw Four may always be stacked",
         "Normally a +4 added to a stack still needs you to hold no card of the colour in play."),
        ("叠加时王牌+4 随时可出", "通常叠上去的 +4 仍要求手里没有当前颜色的牌。"),
    ),
    "attack_stack_hits": (
        ("Pass on a Hit 2 with a Hit 2",
         "The next player then presses twice for each Hit 2: four times for two. Not in the "
         "official rules."),
        ("罚按牌可以叠加", "下家每张罚按牌按 2 次：两张就按 4 次。官方规则里没有。"),
    ),
    "jumpin_numbers": (
        ("Jump in with the same number (点断)",
         "Anyone holding the very same number card, same colour and number, may play it out "
         "of turn; play goes on from them."),
        ("点断：相同数字牌可以抢出",
         "手里有一模一样的数字牌（同色同数字）的人可以不按顺序抢先打出，然后从他接着轮。"),
    ),
    "jumpin_identical": (
        ("Jump in with the very same card (抢牌)",
         "Anyone holding a card just like the one played, action cards and Wilds too, may "
         "play it out of turn. Draw cards played this way add up for the next player."),
        ("抢牌：一模一样的牌可以抢出",
         "手里有和刚打出的牌一模一样的牌（功能牌、万用牌也算）的人可以抢先打出。"
         "这样抢出的罚牌会累加给下家。"),
    ),
    "wrong_jumpin_penalty": (
        ("A wrong jump-in costs 2 cards",
         "Jumped in with a card that is not the same: take it back and draw 2."),
        ("抢错牌罚 2 张", "抢出的牌不一样：收回来，再罚摸 2 张。"),
    ),
    "multi_same_face": (
        ("Put down pairs of a number or symbol (对牌)",
         "Several cards with the same number, or the same action, in any colours, go down at "
         "once; you choose which ends on top."),
        ("对牌：同数字或同功能可一起出",
         "同数字或同功能的几张牌（颜色不限）可以一次打出，自己决定哪张放最上面。"),
    ),
    "multi_identical": (
        ("Put down identical cards together",
         "Only cards of the same colour and the same number or symbol."),
        ("一模一样的牌可以一起出", "只限颜色和数字（或功能）都相同的牌。"),
    ),
    "multi_in_attack": (
        ("Put down pairs in UNO Attack too (对牌)",
         "Several cards with the same number or symbol go down at once, action cards too: two "
         "Hit 2s mean four presses."),
        ("冲击版对牌：同数字或同功能可一起出",
         "同数字或同功能的几张牌可以一次打出，功能牌也行：两张罚按牌就要按 4 次。"),
    ),
    "multi_skip_opponents_only": (
        ("Several Skips never skip yourself",
         "Two Skips at once skip the next two opponents. Normally the count goes round the "
         "table and can come back to you."),
        ("多张跳过只跳过对手",
         "一次出两张跳过，就跳过接下来的两个对手。通常是按座位数下去，可能数回到自己。"),
    ),
    "replay_any_count": (
        ("Skip or Reverse: play again yourself",
         "After your Skip or Reverse you take another turn at once, however many play. With "
         "two players this is always so."),
        ("出跳过或反转后自己再出",
         "不管几个人玩，出了跳过或反转后马上再出一次。两个人玩时本来就是这样。"),
    ),
    "wild_after_draw": (
        ("A Wild straight after a +2 or +4",
         "Whether a plain Wild may go straight onto a Draw Two or a Wild Draw Four."),
        ("罚牌之后能不能出万用牌", "罚两张或王牌+4 之后，能不能马上出普通万用牌。"),
    ),
    "wrong_play_penalty": (
        ("Playing a wrong card costs 2",
         "A card that does not fit goes back to your hand; draw 2 (UNO Attack: press twice) "
         "and your turn is over."),
        ("出错牌罚 2 张", "出了不能出的牌：收回手里，罚摸 2 张（UNO 冲击：按 2 次），本回合结束。"),
    ),
    "scoring": (
        ("How rounds are scored",
         "The official rule: the round's winner scores the points left in everyone else's "
         "hand."),
        ("怎么计分", "官方规则：每局赢家得到其他人手里剩余牌的分数。"),
    ),
    "target": (
        ("Play to this many points",
         "The match ends when someone's total gets there. When the winner collects, they win; "
         "with penalty points the lowest total wins; with bust, whoever gets there loses."),
        ("打到多少分",
         "有人总分达到这个数，比赛就结束：赢家得分时他获胜；罚分制总分最低者获胜；"
         "爆分时达到的人输。"),
    ),
    "target@elim_tournament": (
        ("Players out at this many points",
         "Everyone adds up the points left in their own hand; reach this and you are out. The "
         "last player left wins."),
        ("多少分出局", "每人累计自己手里剩余牌的分数，达到这个分数就出局，最后留下的人获胜。"),
    ),
    "target@team_play": (
        ("Points a team plays to",
         "The match ends when a team's total gets there. When the winner's team collects, the "
         "first team there wins; when each team counts its own points, the lowest team wins."),
        ("队伍打到多少分",
         "有队伍总分达到这个数，比赛就结束。赢家队得分时先到的队获胜；"
         "各队计自己点数时分最低的队获胜。"),
    ),
    "chip_rate": (
        ("Chips per point",
         "After each round every loser pays the winner this many chips for each point left in "
         "their hand."),
        ("每分付几个筹码", "每局结束后，每个输家按手里剩余的点数，每分付给赢家这么多筹码。"),
    ),
    "starting_chips": (
        ("Chips each player starts with",
         "A player may run short and owe chips: balances can go below zero."),
        ("每人开始有多少筹码", "筹码不够可以欠着，余额可以是负数。"),
    ),
    "num_deals": (
        ("How many rounds to play",
         "Leave it at 0 to play until you decide to stop."),
        ("打几局", "填 0 就一直打，直到大家说不打为止。"),
    ),
    "num_deals@rotation_4p": (
        ("How many rounds to play",
         "Leave it at 0 for one full rotation: 12 rounds, everyone partners everyone once."),
        ("打几局", "填 0 就打一整轮：12 局，每人和其他每个人都搭档一次。"),
    ),
    "num_deals@rotation_8p": (
        ("How many rounds to play",
         "Leave it at 0 for one full rotation: 28 rounds, everyone partners everyone once."),
        ("打几局", "填 0 就打一整轮：28 局，每人和其他每个人都搭档一次。"),
    ),
    "break_ties_by_continuing": (
        ("Tied for the lowest score? Play on",
         "With penalty points, when two or more share the lowest total at the end, play more "
         "rounds until one is ahead. Off: they win together."),
        ("最低分打平就加赛",
         "罚分制结束时如果几个人并列最低分，就继续打到分出胜负。关掉的话，他们一起获胜。"),
    ),
    "next_dealer": (
        ("Who deals the next round",
         "Normally the winner of the round. When players drop out one by one (淘汰制), the "
         "loser deals instead, unless the deal goes round in turn."),
        ("下一局谁发牌", "通常是上一局的赢家。淘汰制里由输家发牌，除非选了轮流发牌。"),
    ),
    "format": (
        ("What kind of match",
         "Each for themselves, players dropping out, teams, or a rotation of partners."),
        ("比赛方式", "各自为战、逐个淘汰、组队，或轮换搭档。"),
    ),
    "teams": (
        ("Number of teams",
         "Partners sit apart: with two teams every other seat is on the same team."),
        ("几个队", "队友分开坐：两个队时，每隔一个座位是同一队。"),
    ),
    "team_scoring": (
        ("How teams score",
         "The official rule: the team of the player who goes out scores the points left in the "
         "other teams' hands."),
        ("队伍怎么计分", "官方规则：先出完牌的人所在的队，得到其他队手里剩余牌的分数。"),
    ),
}  # fmt: skip
"""`OPTION_PAIRS[option]`: ((English label, hint), (Chinese label, hint)) for every option."""

# Every option's choices in words (the set-up page's selects, the scoreboard's format line).
CHOICE_PAIRS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "deck": {
        "": ("The game's own deck", "游戏默认牌组"),
        "classic": ("Classic, 108 cards", "经典 108 张"),
        "attack_1998": ("UNO Attack 1998, 112 cards", "UNO 冲击 1998 版 112 张"),
        "attack_alt": ("UNO Attack: 4 Reverses, 8 Discard All", "UNO 冲击：4 张反转、8 张负载牌"),
        "attack_alt_4rev_8da": (
            "UNO Attack: 4 Reverses, 8 Discard All (same)",
            "UNO 冲击：4 张反转、8 张负载牌（同上）",
        ),
    },
    "first_player": {
        "dealer_left": ("The dealer's left", "庄家左手"),
        "dealer": ("The dealer", "庄家"),
    },
    "start_reverse": {
        "dealer_leads": ("The dealer leads", "庄家先出"),
        "dealer_right_leads": ("The dealer's right leads", "庄家右手先出"),
    },
    "start_wild": {
        "first_player_names": ("The first player names the colour", "首家指定颜色"),
        "free_lead": ("The first player leads any card", "首家任意出牌"),
        "redraw": ("Turn up another card", "重新翻一张"),
        "predecessor_names": ("The player before names the colour", "上家指定颜色"),
        "random": ("A random colour", "随机颜色"),
    },
    "start_colour_namer": {
        "starter": ("The player who starts", "先出牌的人"),
        "dealer": ("The dealer", "庄家"),
    },
    "wd4_legality": {
        "colour": ("No card of the active colour", "手中没有当前颜色的牌"),
        "colour_or_face": ("No card of the colour or the face", "没有同色或同图案的牌"),
        "no_other_play": ("No other card can be played", "没有其他可出的牌"),
    },
    "uno_state": {
        "auto": ("As the several-cards rule says", "按多张出牌规则"),
        "one_card": ("One card", "只剩一张牌"),
        "one_card_or_identical": ("One card, or identical cards", "一张牌或完全相同的几张"),
        "one_card_or_same_face": ("One card, or cards of one face", "一张牌或同数字/同功能的几张"),
    },
    "wild_after_draw": {
        "off": ("Allowed", "允许"),
        "victim_only": ("Not by the player facing the draw", "被罚的人不能出"),
        "strict_top": ("Never on a +2 or +4", "+2/+4 上一律不能出"),
    },
    "scoring": {
        "winner_collects": ("Winner collects the others' points", "赢家得其他人的点数"),
        "penalty": ("Penalty points: lowest wins", "罚分制：分低者胜"),
        "bust": ("Bust: the first over the target loses", "爆分：先超过目标者输"),
        "chips": ("Chips: the losers pay the winner", "筹码制：输家付给赢家"),
        "deal_loser": ("One deal: the most points loses", "单局：点数最多者输"),
        "none": ("No scores", "不计分"),
    },
    "next_dealer": {
        "winner": ("The winner", "赢家"),
        "loser": ("The loser", "输家"),
        "rotate": ("The next player in turn", "轮流"),
    },
    "format": {
        "standard": ("Standard: each for themselves", "标准：各自为战"),
        "elim_within_deal": (
            "Within-deal elimination (淘汰制): the last holder loses",
            "淘汰制：最后持牌者输",
        ),
        "elim_tournament": (
            "Elimination tournament: out at the target",
            "淘汰赛：达到目标分即淘汰",
        ),
        "team_play": ("Team play: partners sit apart", "团队赛：队友分开坐"),
        "rotation_4p": ("Rotation, 4 players: 12 deals", "四人轮换赛：12 局"),
        "rotation_8p": ("Rotation, 8 players on two tables: 28 deals", "八人两桌轮换赛：28 局"),
    },
    "team_scoring": {
        "winner_team_collects": ("The winner's team collects", "赢家队得其他队的点数"),
        "team_penalty": (
            "Each team takes its own points: lowest wins",
            "各队计自己的点数：分低者胜",
        ),
    },
}
"""`CHOICE_PAIRS[option][value]`: (English, Chinese) for each allowed value of each option."""

SECTION_PAIRS: Final[dict[str, tuple[str, str]]] = {
    "§1": ("Deck", "牌组"),
    "§2.2": ("The dealer", "庄家"),
    "§2.3": ("Dealing", "发牌"),
    "§2.4": ("Who leads", "首家"),
    "§2.5": ("The first card turned up", "翻开的第一张牌"),
    "§3.2": ("Wild Draw Four", "王牌+4"),
    "§3.3": ("Drawing", "摸牌"),
    "§3.4": ("Pressing the launcher", "按发牌机"),
    "§4.2": ("UNO Attack cards", "冲击版功能牌"),
    "§5": ("Calling UNO", "喊 UNO"),
    "§6": ("The last card", "最后一张牌"),
    "§9.2": ("Scoring", "计分"),
    "§9.3-§9.6": ("Match format", "赛制"),
    "§9.5": ("Team play", "团队赛"),
    "§10.1": ("Stacking draw cards (叠加)", "叠加罚牌"),
    "§10.2": ("Jump-in (点断 / 抢牌)", "点断 / 抢牌"),
    "§10.3": ("Several cards at once (对牌)", "对牌：多张一起出"),
    "§10.4": ("Deal size", "发牌数"),
    "§10.5": ("Skip and Reverse", "跳过与反转"),
    "§10.6": ("Wild after a draw card", "罚牌后的万用牌"),
    "§10.7": ("Wrong plays", "出错牌"),
}
"""`SECTION_PAIRS[section]`: (English, Chinese) title of each part of the rules with options."""

CHOICES: Final[dict[str, dict[str, dict[str, str]]]] = {
    language: {
        option: {value: pair[i] for value, pair in values.items()}
        for option, values in CHOICE_PAIRS.items()
    }
    for i, language in enumerate(PAIR_LANGUAGES)
}
"""`CHOICES[language][option][value]`: the words for each allowed value of each option."""

SECTIONS: Final[dict[str, dict[str, str]]] = {
    language: {section: pair[i] for section, pair in SECTION_PAIRS.items()}
    for i, language in enumerate(PAIR_LANGUAGES)
}
"""`SECTIONS[language][section]`: the title of each RULES.md section that has options."""

OPTION_WORDS: Final[dict[str, dict[str, dict[str, str]]]] = {
    language: {key: {"label": pair[i][0], "hint": pair[i][1]} for key, pair in OPTION_PAIRS.items()}
    for i, language in enumerate(PAIR_LANGUAGES)
}
"""`OPTION_WORDS[language][option]`: {"label", "hint"}, what the option does in plain words
(`option@format` for the words one match format needs)."""
