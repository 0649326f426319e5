"""Drawing (§3.3), pressing the launcher (§3.4, §3.6), penalties and the challenge (§3.2, with
§10.1's stacks).

`may_draw`, `may_pass` and `may_press` say whether a turn's draw, pass or press is allowed; the
handlers refuse what they deny and `legal_actions` lists what they allow."""

from __future__ import annotations

from .actions import Accept, Challenge, Draw, Pass, Press
from .cards import UNKNOWN
from .errors import BadChoice, CardNotPlayable, IllegalAction, NotYourTurn
from .events import Challenged, Event, HandShown, Passed, Skipped, Why
from .playability import playable
from .state import DealState, Duty, DutyKind, Knowledge


def may_draw(game: DealState, seat: int) -> bool:
    """Classic (§3.3): `seat` may draw a card now."""
    return game.on_turn(seat) and may_draw_on_turn(game, seat)


def may_draw_on_turn(game: DealState, seat: int) -> bool:
    """`may_draw` when it is `seat`'s turn: it has not drawn yet and, under must_play_if_able,
    holds no playable card the engine can see."""
    return not game.attack and game.drawn is None and (game.may_draw or not has_play(game, seat))


def push_draw(game: DealState, action: Draw, events: list[Event]) -> None:
    seat = action.seat
    if not may_draw(game, seat):
        _refuse_draw(game, seat)
    game.close_windows()
    cards = game.draw(seat, 1, Why.TURN, events)
    game.note_turn(seat, len(cards))
    if cards and (cards[0] is UNKNOWN or playable(game, seat, cards[0])):
        game.drawn = cards[0]
    else:
        game.end_turn(seat)


def _refuse_draw(game: DealState, seat: int) -> None:
    """Say why `may_draw` denies `seat` a draw."""
    if game.attack:
        raise IllegalAction("UNO Attack has no draw pile: press the launcher instead")
    game.expect(seat, "draw")
    if game.drawn is not None:
        raise IllegalAction("you have already drawn this turn: play that card or keep it")
    raise CardNotPlayable("you hold a playable card, so you may not draw")


def has_play(game: DealState, seat: int) -> bool:
    """`seat` holds a card it could play now (always False for unseen cards)."""
    return any(playable(game, seat, c) for c in game.hands[seat])


def may_pass(game: DealState, seat: int) -> bool:
    """`seat` may end its turn without playing."""
    return game.on_turn(seat) and may_pass_on_turn(game, seat)


def may_pass_on_turn(game: DealState, seat: int) -> bool:
    """`may_pass` when it is `seat`'s turn: keep the card just drawn (classic; under
    must_play_drawn_if_playable only an unplayable one), or play nothing after pressing (Attack,
    under atk_play_after_press)."""
    return (game.drawn is not None or game.pressed) and not _must_play_drawn(game, seat)


def _must_play_drawn(game: DealState, seat: int) -> bool:
    drawn = game.drawn
    return (
        drawn is not None
        and drawn is not UNKNOWN
        and game.rules.must_play_drawn_if_playable
        and playable(game, seat, drawn)  # still: cards taken since (a catch) may bar it
    )


def push_pass(game: DealState, action: Pass, events: list[Event]) -> None:
    """Keep the card just drawn (classic), or play nothing after pressing (Attack, under
    atk_play_after_press), and end the turn."""
    seat = action.seat
    if not may_pass(game, seat):
        game.expect(seat, "pass")
        if game.drawn is None:
            raise IllegalAction("only a card just drawn can be kept: draw first")
        raise IllegalAction(f"the drawn card {game.drawn} is playable and must be played")
    events.append(Passed(seat))
    game.end_turn(seat)


def may_press(game: DealState, seat: int) -> bool:
    """Attack: `seat` owes a press (the duty that comes first), or may press the launcher for
    its turn."""
    if game.duties:
        duty = game.duties[0]
        return game.attack and duty.seat == seat and duty.kind in _PRESSES
    return game.on_turn(seat) and may_press_on_turn(game)


def may_press_on_turn(game: DealState) -> bool:
    """`may_press` for the player whose turn it is: once a turn, in Attack."""
    return game.attack and not game.pressed


def push_press(game: DealState, action: Press, events: list[Event]) -> None:
    seat = action.seat
    if not may_press(game, seat):
        _refuse_press(game, seat)
    if game.duties:  # allowed with a duty first: the press is owed
        _owed_press(game, game.duties[0], action.cards, events)
        return
    got = game.launch(seat, action.cards, Why.TURN, events)
    game.note_turn(seat, got)
    game.close_windows()
    table = game.knowledge is Knowledge.TABLE
    if game.rules.atk_play_after_press and (table or has_play(game, seat)):
        game.pressed = True
    else:
        game.end_turn(seat)


def _refuse_press(game: DealState, seat: int) -> None:
    """Say why `may_press` denies `seat` a press."""
    if not game.attack:
        raise IllegalAction("classic UNO has no launcher: draw a card instead")
    game.expect(seat, "press the launcher")
    raise IllegalAction("you have pressed this turn: play a card or pass")


_PRESSES = (DutyKind.PRESS, DutyKind.PRESS_UNTIL_FIRE)


def _owed_press(game: DealState, duty: Duty, reported: int, events: list[Event]) -> None:
    got = game.launch(duty.seat, reported, duty.why, events)
    duty.stackable = False  # a Hit 2 already being pressed is no longer passed on
    if duty.kind is DutyKind.PRESS or got > 0:
        duty.count -= 1
    if duty.count == 0 or (duty.kind is DutyKind.PRESS_UNTIL_FIRE and game.exhausted()):
        game.duties.pop(0)


def _penalty_duty(game: DealState, seat: int, what: str) -> Duty:
    duty = game.duties[0] if game.duties else None
    if duty is None or duty.kind is not DutyKind.PENALTY:
        raise IllegalAction(f"there is no draw penalty to {what}")
    if duty.seat != seat:
        raise NotYourTurn(f"only P{duty.seat} can {what} the penalty")
    return duty


def push_accept(game: DealState, action: Accept, events: list[Event]) -> None:
    duty = _penalty_duty(game, action.seat, "accept")
    game.duties.pop(0)
    game.jump = None
    game.draw(action.seat, duty.count, duty.why, events)
    if game.turn != action.seat:
        events.append(Skipped(action.seat))


def push_challenge(game: DealState, action: Challenge, events: list[Event]) -> None:
    """§3.2 (and §10.1 inside a stack): the victim challenges the last Wild Draw Four."""
    seat = action.seat
    duty = _penalty_duty(game, seat, "challenge")
    if not duty.challengeable:
        raise IllegalAction("only a Wild Draw Four can be challenged")
    guilty = _verdict(game, duty, action.guilty)
    events.append(HandShown(duty.source, seat, tuple(game.hands[duty.source])))  # §3.2 step 2
    events.append(Challenged(seat, duty.source, guilty))
    game.jump = None
    if not guilty:
        game.duties.pop(0)
        game.draw(seat, duty.count + 2, Why.CHALLENGE, events)
        events.append(Skipped(seat))
        return
    game.draw(duty.source, duty.share, Why.CHALLENGE, events)
    duty.count -= duty.share
    duty.challengeable = False
    if duty.count > 0:
        return  # the rest of the stack still stands: accept it or pass it on
    game.duties.pop(0)
    if game.rules.challenge_success_victim_plays:
        game.turn = seat
    else:
        events.append(Skipped(seat))


def _verdict(game: DealState, duty: Duty, claimed: bool | None) -> bool:
    """Was the challenged Wild Draw Four illegal? The engine knows in full mode; at a table
    the players say what the shown hand proved. A last card is always legal (§3.2)."""
    legal = True if not game.hands[duty.source] else duty.legal
    if legal is None:
        if claimed is None:
            raise BadChoice("say what the shown hand proved: guilty or not guilty")
        return claimed
    if claimed is not None and claimed == legal:
        raise BadChoice(f"the hand shows the Wild Draw Four was {'legal' if legal else 'illegal'}")
    return not legal
