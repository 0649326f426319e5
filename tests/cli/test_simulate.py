"""`uno-attack simulate`: figures, JSON, transcripts and clear errors."""

from __future__ import annotations

import json

import pytest

from controller.cli import main

FIELDS = {
    "games", "finished", "mean_turns", "mean_presses", "mean_cards_per_press", "max_drought",
    "wins_by_seat", "conservation_violations", "seconds",
}  # fmt: skip


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_has_the_promised_fields(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--rules", "attack", "--players", "3", "--games", "40", "--seed", "2")
    assert out.keys() >= FIELDS
    assert out["games"] == out["finished"] == 40
    assert out["conservation_violations"] == 0
    assert sum(out["wins_by_seat"]) == 40 and len(out["wins_by_seat"]) == 3  # type: ignore[arg-type]
    assert out["mean_presses"] > 0 and 0 < out["max_drought"] <= 8  # type: ignore[operator]


def test_simulate_same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [_json(capsys, "--rules", "classic", "--games", "30", "--seed", "9") for _ in range(2)]
    for out in runs:
        del out["seconds"]
    assert runs[0] == runs[1] and runs[0]["mean_presses"] == 0


def test_simulate_accepts_options_and_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(
        capsys, "--rules", "classic", "--games", "20", "--option", "hand_size=5",
        "--option", "wd4_bluffing", "--bot", "random",
    )  # fmt: skip
    assert out["games"] == 20
    out = _json(capsys, "--games", "20", "--profile", "draw-one")
    assert out["mean_cards_per_press"] == 1.0


def test_simulate_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "10"]) == 0
    text = capsys.readouterr().out
    assert "10 attack games" in text and "card conservation:   ok" in text


def test_simulate_transcript_in_card_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--transcript", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("attack UNO, 4 players")
    assert " plays " in text and "wins the deal" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "--players must be 2 to 10"),
        (["--games", "0"], "--games must be at least 1"),
        (["--option", "nonsense=1"], "unknown option 'nonsense'"),
        (["--option", "hand_size=many"], "hand_size must be a whole number"),
        (["--option", "start_wild=random"], "applies to classic UNO only"),
        (["--profile", "wild-west"], "unknown eject profile"),
        (["--players", "10", "--option", "hand_size=20"], "option hand_size"),
    ],
)
def test_simulate_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["simulate", "--games", "2", *args]) == 2
    assert message in capsys.readouterr().err


def test_argparse_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--rules", "poker"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize(
    ("fmt", "players", "key"),
    [
        ("elim_within_deal", 4, "losses_by_seat"),
        ("elim_tournament", 3, "mean_eliminations_per_match"),
        ("team_play", 4, "mean_team_totals"),
        ("rotation_4p", 4, "schedule"),
        ("rotation_8p", 8, "schedule"),
    ],
)
def test_simulate_formats_report_their_results(
    capsys: pytest.CaptureFixture[str], fmt: str, players: int, key: str
) -> None:
    uses_target = fmt in ("elim_tournament", "team_play")  # the others refuse a target
    target = ["--option", "target=200"] if uses_target else []
    out = _json(capsys, "--rules", "classic", "--format", fmt, "--players", str(players),
                "--games", "3", *target)  # fmt: skip
    assert out["format"] == fmt and key in out["format_results"]
    assert out["conservation_violations"] == 0
    if fmt.startswith("rotation"):
        assert out["format_results"]["mean_deals_per_match"] == (12 if players == 4 else 56)


def test_simulate_takes_every_house_rule_and_feature_id(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(
        capsys, "--rules", "classic", "--games", "20", "--option", "stack_s0",
        "--option", "jumpin_numbers", "--option", "multi_same_face", "--option", "score_penalty",
        "--option", "wild_after_draw=strict_top",
    )  # fmt: skip
    assert out["games"] == 20 and out["conservation_violations"] == 0


def test_simulate_names_both_conflicting_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--option", "multi_same_face", "--option", "multi_identical"]) == 2
    assert "multi_same_face and multi_identical" in capsys.readouterr().err


def test_rules_list_names_every_option_feature_and_format(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from controller.engine import ALIASES, FORMATS, OPTIONS

    assert main(["rules", "--list"]) == 0
    text = capsys.readouterr().out
    for name in [o.id for o in OPTIONS] + list(ALIASES) + list(FORMATS):
        assert name in text
    assert "seed-000-chinese" in text
    assert main(["rules", "--json", "--game", "attack"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert all("attack" in o["games"] for o in listed["options"])


def test_simulate_names_its_path_and_both_paths_agree(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--rules", "attack", "--players", "5", "--games", "60", "--seed", "8")
    fast, auto = _json(capsys, *args, "--path", "fast"), _json(capsys, *args)
    slow = _json(capsys, *args, "--path", "validated")
    assert (fast["path"], auto["path"], slow["path"]) == ("fast", "fast", "validated")
    for out in (fast, slow):
        del out["seconds"], out["path"]
    assert fast == slow
    house = _json(capsys, "--rules", "classic", "--games", "5", "--option", "stack_s0")
    assert house["path"] == "validated"
    assert main(["simulate", "--path", "fast", "--option", "uno_after_trade_receiver"]) == 2
    assert "the fast path covers" in capsys.readouterr().err


def test_simulate_estimates_minutes_per_deal(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("--games", "40", "--seed", "2")
    out = _json(capsys, *base)
    expected = (out["mean_turns"] * 8 + out["mean_presses"] * 3) / 60  # type: ignore[operator]
    assert abs(out["mean_minutes"] - expected) < 0.01  # type: ignore[operator]
    slower = _json(capsys, *base, "--seconds-per-turn", "16", "--seconds-per-press", "6")
    assert abs(slower["mean_minutes"] - 2 * out["mean_minutes"]) < 0.02  # type: ignore[operator]
    assert main(["simulate", "--games", "5", "--seconds-per-press", "10"]) == 0
    text = capsys.readouterr().out
    assert "minutes per deal:" in text and "8 s a turn, 10 s a press" in text
    assert main(["simulate", "--seconds-per-turn", "-1"]) == 2
    assert "--seconds-per-turn must be 0 to 3600" in capsys.readouterr().err
