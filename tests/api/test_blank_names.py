"""A name that would render blank (only fillers, blank patterns, marks or zero-width characters)
is refused with a 400 that says so: players, tablets and presets alike."""

from __future__ import annotations

import unicodedata

import pytest

from .conftest import SETUP, Tablet

BLANK = {
    "hangul-filler": "\u3164",
    "hangul-choseong-jungseong-fillers": "\u115f\u1160",
    "halfwidth-hangul-filler": "\uffa0\uffa0",
    "braille-blank": "\u2800",
    "zero-width": "\u200b\u200c\u2060",
    "marks-alone": "\u0301\u0308",
    "variation-selector": "\ufe0f",
    "grapheme-joiner": "\u034f",
}


@pytest.mark.parametrize("name", BLANK.values(), ids=BLANK.keys())
def test_a_blank_player_name_is_refused(playing: Tablet, name: str) -> None:
    before = playing.get("/api/state").get_json()["seq"]
    answer = playing.post("/api/setup", {"setup": SETUP | {"players": ["Ann", name, "Cy"]}})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == (
        "player 2's name must show a letter, digit or sign: it would look blank"
    )
    assert playing.get("/api/state").get_json()["seq"] == before


@pytest.mark.parametrize("name", BLANK.values(), ids=BLANK.keys())
def test_a_blank_tablet_or_preset_name_is_refused(playing: Tablet, name: str) -> None:
    for path, body in (("/api/session/name", {}), ("/api/presets", {"options": {}})):
        answer = playing.post(path, body | {"name": name})
        assert answer.status_code == 400 and "look blank" in answer.get_json()["error"], path


@pytest.mark.parametrize("name", ["Ann\u3164", "\u2800Bob", "Cy\u115f"])
def test_a_filler_inside_a_name_is_refused(playing: Tablet, name: str) -> None:
    answer = playing.post("/api/setup", {"setup": SETUP | {"players": ["Di", name]}})
    assert answer.status_code == 400 and "invisible" in answer.get_json()["error"]


@pytest.mark.parametrize("name", ["❤\ufe0f", "Zoe\u0308", "小明", "Ｄｉ", "Ann Lee"])
def test_names_that_show_are_kept(playing: Tablet, name: str) -> None:
    setup = SETUP | {"players": ["Bo", name], "first_dealer": 0}
    answer = playing.post("/api/setup", {"setup": setup})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["state"]["setup"]["players"][1] == unicodedata.normalize("NFC", name)
