"""Words on the scoreboard as a family reads them, in English and Chinese at tablet and phone
sizes: a colour chip says its colour once (红, not 红 红), the end-of-deal counter names every
card face whole with "1 point" in the singular, and the big line between deals is never cut
short."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until
from web_ui.card_words import CARD_NAMES, COLOUR_NAMES

from .conftest import Table
from .looks import LANDSCAPE, PHONE, PORTRAIT, SIZES, fits, opened

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "zh-CN"]


def shown(page: Any, selector: str) -> list[str]:
    """The words each element matching `selector` shows (hidden parts left out)."""
    texts = page.locator(selector).evaluate_all("els => els.map((el) => el.innerText)")
    return [str(text) for text in texts]


def letters(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_colour_chip_says_its_colour_once(table: Table, language: str) -> None:
    table.started(top="R5")
    page = opened(table, PHONE, language=language)
    red = COLOUR_NAMES[language]["R"]
    expect(page.locator("#active-colour .card")).to_be_visible()
    chip, top = shown(page, "#active-colour .card")[0], shown(page, "#top-card .card")[0]
    play = shown(page, '#plays button[data-card="R7"]')[0]
    if language == "zh-CN":
        assert letters(chip) == "红", chip
        assert letters(top) == "红5", top
        assert letters(play) == "红7", play  # the name carries the colour: no mark before it
    else:
        assert letters(chip) == "RRed", chip  # the letter, and the colour in words
        assert letters(play) == "RRed7", play
    page.click('#plays button[data-card="WHF"]')  # a wild: which colour was named?
    choices = page.locator(".colour-choices button")
    expect(choices).to_have_count(4)
    for letter, words in zip("RYGB", shown(page, ".colour-choices button"), strict=True):
        name = COLOUR_NAMES[language][letter]
        expected = name if language == "zh-CN" else letter + name
        assert letters(words) == expected, (letter, words)
        assert letters(words).count(name) == 1
    # the words are there for a screen reader too
    label = page.locator('.colour-choices button[data-colour="R"]').evaluate("el => el.textContent")
    assert red in label
    fits(page)
    assert page.errors == []


def scoring_table(table: Table, game: str = "attack") -> None:
    """Bob went out: Ann's hand (7 cards) is to be counted."""
    table.started(top="R5", game=game)
    table.act(type="Correct", seat=1, count=1)
    table.act(type="Play", seat=1, card="R7")


# Each tile's face, the name it shows, and whether any of it is cut short (an ellipsis, or
# more than its box holds).
TILES = """() => [...document.querySelectorAll("#faces .face")].map((tile) => {
  const name = tile.querySelector(".face-name");
  const cut = [tile, name].some((el) =>
    el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  return [tile.dataset.face, name.innerText.replace(/\\s+/g, " ").trim(), cut];
})"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_hand_counter_names_every_face_whole(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    scoring_table(table)
    page = opened(table, viewport, language=language)
    page.click("#scoring .count-cards summary")
    expect(page.locator("#faces")).to_be_visible()
    tiles = page.evaluate(TILES)
    names = CARD_NAMES[language]
    assert [face for face, _, _ in tiles][:2] == ["1", "2"]
    for face, name, cut in tiles:
        assert name == names.get(face, face), (face, name)
        assert not cut, f"{face}: {name!r} is cut short"
    assert len({name for _, name, _ in tiles}) == len(tiles)  # no two read alike ("W…")
    point, points = ("1 point", "20 points") if language == "en" else ("1 分", "20 分")
    expect(page.locator('#faces [data-face="1"] .face-points')).to_have_text(point)
    expect(page.locator('#faces [data-face="S"] .face-points')).to_have_text(points)
    page.click('#faces [data-face="1"] .plus')
    total = "1 card, 1 point" if language == "en" else "1 张，1 分"
    expect(page.locator("#picks-points")).to_have_text(total)
    page.click('#faces [data-face="1"] .plus')
    total = "2 cards, 2 points" if language == "en" else "2 张，2 分"
    expect(page.locator("#picks-points")).to_have_text(total)
    fits(page)
    assert page.errors == []


def test_the_classic_hand_counter_names_its_wilds_apart(table: Table) -> None:
    scoring_table(table, game="classic")
    page = opened(table, PHONE)
    page.click("#scoring .count-cards summary")
    tiles = {face: (name, cut) for face, name, cut in page.evaluate(TILES)}
    assert tiles["W"] == ("Wild", False)
    assert tiles["W4"] == ("Wild Draw Four", False)
    expect(page.locator('#faces [data-face="0"] .face-points')).to_have_text("0 points")


# The big line's words, and whether they all show: no ellipsis, no more than its box holds
# (give or take the pixel its box's height is rounded to).
HERO = """() => {
  const el = document.getElementById("turn-name");
  return [el.textContent, el.scrollWidth <= el.clientWidth, el.scrollHeight <= el.clientHeight + 1];
}"""

HERO_SIZES = [("landscape", LANDSCAPE), ("portrait", PORTRAIT), ("phone", PHONE)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("size", "viewport"), HERO_SIZES)
def test_the_big_line_between_deals_is_never_cut_short(
    table: Table, size: str, viewport: dict[str, int], language: str
) -> None:
    players = ["Ann", "Maximiliana Bartholomew", "Cy"]
    table.submit({"type": "setup", "setup": {"players": players, "game": "attack", "seed": 3}})
    page = opened(table, viewport, language=language)
    waiting = "Waiting for the deal" if language == "en" else "等待发牌"
    expect(page.locator("#turn-name")).to_have_text(waiting)
    assert page.evaluate(HERO) == [waiting, True, True]
    fits(page)

    table.submit({"type": "deal"})
    table.act(type="TurnUp", card="R5")
    table.act(type="Correct", seat=1, count=1)
    table.act(type="Play", seat=1, card="R7")  # between turns: Maximiliana went out
    out = f"{players[1]} went out" if language == "en" else f"{players[1]} 出完了"
    expect(page.locator("#turn-name")).to_have_text(out)
    assert page.evaluate(HERO) == [out, True, True]
    fits(page)
    assert page.errors == []


def test_called_uno_is_offered_only_where_the_claim_can_apply(table: Table) -> None:
    table.started(top="R5")
    mover = table.state()["deal"]["to_move"]
    table.act(type="Correct", seat=(mover + 1) % 3, count=1)  # somebody else holds one card
    page = opened(table, LANDSCAPE)
    expect(page.locator("#plays")).to_be_visible()
    assert table.state()["deal"]["hands"][mover] == 7  # seven cards: no play leaves one
    assert page.locator("#uno-toggle").count() == 0  # drawn with the plays
    page.click('#plays button[data-card="RTH"]')  # Trade Hands: the one-card hand is taken
    expect(page.locator("#step #uno-toggle")).to_be_visible()
    page.check("#step #uno-toggle")
    page.click(f'#step [data-target="{(mover + 1) % 3}"]')
    wait_until(lambda: mover in table.state()["deal"]["uno"], "the UNO call went with the trade")
    assert page.errors == []
