"""`uno-attack simulate` at the edges (issue 21): a number out of range says its range, a hand
too big to deal names the largest that fits (§2.3), an option the format or the game does not
take is named, all with exit status 2; and a deal that never ends (bots passing Draw Twos round
with every card in a hand) stops the simulation with a message and exit status 3, never a
traceback."""

from __future__ import annotations

import pytest

from controller.cli import main
from controller.cli.simulate import RUNAWAY_EXIT


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "hand_size=0"], "option hand_size must be between 1 and 53, not 0"),
        (["--option", "hand_size=60"], "option hand_size must be between 1 and 53, not 60"),
        (["--option", "target=0"], "option target must be between 1 and 100000, not 0"),
        (["--format", "team_play", "--option", "teams=9"], "must be between 2 and 5, not 9"),
        (["--players", "4", "--option", "hand_size=40"],
         "4 players x 40 cards needs more than the 108-card classic deck: deal at most 25 cards "
         "each to 4 players (§2.3)"),
        (["--players", "3", "--option", "hand_size=35"], "deal at most 34 cards each to 3 p"),
        (["--format", "elim_tournament", "--option", "scoring=chips", "--option",
          "starting_chips=500"], "scoring and starting_chips are not used by the elim_tournament"),
        (["--rules", "attack", "--option", "wd4_bluffing=true"],
         "option wd4_bluffing applies to classic UNO only, not to attack UNO"),
        (["--rules", "attack", "--option", "uno_identical_cards"],
         "option uno_identical_cards applies to classic UNO only, not to attack UNO"),
        (["--option", "atk_suggestion_penalty"], "applies to attack UNO only, not to classic UNO"),
    ],
)  # fmt: skip
def test_a_refused_set_up_exits_2_saying_why(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    arguments = ["--rules", "classic", *args] if "--rules" not in args else args
    assert main(["simulate", "--games", "2", *arguments]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("uno-attack simulate: error: ") and message in err


def test_a_deal_that_never_ends_stops_with_a_message_and_exit_3(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's case: classic, 3 players x 30 cards, heuristic bots. Deal 294 of seed 1
    passes Draw Twos round with every card but the top one in a hand: each is played and drawn
    back, so nobody goes out and no round of turns gets nothing (§8 does not end it)."""
    args = ["--rules", "classic", "--players", "3", "--option", "hand_size=30", "--games", "300"]
    assert main(["simulate", "--json", *args]) == RUNAWAY_EXIT == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "uno-attack simulate: stopped: deal 294 of seed 1: the deal had not ended after 100,000 "
        "actions (107 of the 108 cards in hands, 0 left to draw or reload): the bots kept "
        "playing without anyone going out, and no rule ends a deal while cards are played (§8 "
        "ends one only after a full round of turns that got nothing); try other options or "
        "bots\n"
    )
