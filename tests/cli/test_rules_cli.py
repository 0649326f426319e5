"""`uno-attack rules --list`: every option, every §11 feature id (settings, implied features,
ids with no option), the formats; per game, only the options that apply to it."""

from __future__ import annotations

import json

import pytest

from controller.cli import main
from controller.engine import ALIASES, FORMATS, IMPLIED, OPTIONS, WITHOUT_OPTION


def test_rules_list_names_every_feature_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--list"]) == 0
    text = capsys.readouterr().out
    names = [o.id for o in OPTIONS] + [*ALIASES, *IMPLIED, *WITHOUT_OPTION, *FORMATS]
    assert [name for name in names if name not in text] == []
    assert "dealer_by_agreement" in text and "jumpin_draw_accumulate" in text


def test_rules_for_one_game_leave_out_the_other_games_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--json", "--game", "attack"]) == 0
    listed = json.loads(capsys.readouterr().out)
    ids = {o["id"] for o in listed["options"]}
    assert "multi_in_attack" in ids and "multi_same_face" not in ids and "stack_s0" not in ids
    assert listed["without_option"]["dealer_by_agreement"]
    assert listed["implied"]["jumpin_draw_accumulate"] == ["jumpin_numbers", "jumpin_identical"]
