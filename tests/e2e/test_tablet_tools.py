"""A tablet's own tools, in Chromium: sound that starts at the first tap after every page load
(and says it waits for one), a screen kept on by the wake lock on a secure page and by a silent
video where the browser has none (with a line that says what keep-awake does, or what to do
when nothing can), and a refused PIN that stays said while the scoreboard refreshes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, TABLET, TIMEOUT_MS, Table, open_page, wait_ready

pytestmark = pytest.mark.browser

# A browser without the Screen Wake Lock API, as on a tablet that opens the table's plain-http
# LAN address (the API only exists on secure pages; 127.0.0.1 counts as one).
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
# ...and one that cannot play the silent video either.
NO_VIDEO = """HTMLMediaElement.prototype.play = function () {
  return Promise.reject(new DOMException("no video here", "NotSupportedError"));
};"""

VIDEO = "video.keep-awake-video"
PLAYING = f"""() => {{
  const video = document.querySelector("{VIDEO}");
  return video !== null && !video.paused && video.currentTime > 0;
}}"""


def sound_hint(page: Any) -> str:
    """The words shown beside the sound switch."""
    return str(page.locator("#sound-hint").text_content())


def test_sound_starts_at_the_first_tap_or_key_after_every_load(table: Table) -> None:
    table.started()
    page = table.tablet(TABLET)
    sound = page.locator("#sound")
    expect(sound).to_have_attribute("data-audio", "off")
    sound.click()
    expect(sound).to_have_attribute("data-audio", "running")  # the tap that turns it on
    assert sound_hint(page) == ""
    for gesture in ("tap", "key"):
        page.reload()  # as after unlocking, locking, a language switch
        wait_ready(page)
        expect(sound).to_have_text("Sound: on")
        # Chromium's own autoplay policy (a document needs a tap before it plays sound): the
        # context waits, and the switch says so
        expect(sound).to_have_attribute("data-audio", "suspended")
        assert "tap anywhere to start" in sound_hint(page)
        if gesture == "tap":
            page.click("#players-panel h2")  # anywhere: not the switch
        else:
            page.keyboard.press("a")
        expect(sound).to_have_attribute("data-audio", "running")
        assert sound_hint(page) == ""
        expect(sound).to_have_attribute("aria-pressed", "true")  # still on
    assert page.errors == []


def test_the_tap_that_starts_the_sound_lands_on_the_switch(table: Table) -> None:
    """A finger on the switch's far edge while it waits for a tap: the touch starts the sound
    (its hint goes), and the switch under the finger is the same size when it lifts, so the tap
    still turns it off, as it says."""
    table.started()
    page = table.tablet(PHONE)
    sound = page.locator("#sound")
    sound.click()
    page.reload()
    wait_ready(page)
    expect(sound).to_have_attribute("data-audio", "suspended")
    box = sound.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(sound).to_have_attribute("data-audio", "running")  # the touch started it
    page.mouse.up()
    expect(sound).to_have_attribute("aria-pressed", "false")
    assert page.errors == []


def test_sound_hint_in_chinese(table: Table) -> None:
    page = table.tablet(PHONE)
    page.click("#sound")
    page.click("#language")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    # (Chromium lets a page that a tap reloaded play at once; a fresh load has had no tap)
    page.reload()
    wait_ready(page)
    expect(page.locator("#sound")).to_have_attribute("data-audio", "suspended")
    assert "轻触页面任意处开始" in sound_hint(page)
    page.click("#players-panel h2")
    expect(page.locator("#sound")).to_have_attribute("data-audio", "running")


def tablet_without(table: Table, *scripts: str, viewport: dict[str, int] = PHONE) -> Any:
    """A tablet whose browser lacks what `scripts` take away before the page's own run."""
    context = table.browser.new_context(viewport=viewport, base_url=table.url)
    context.set_default_timeout(TIMEOUT_MS)
    table.contexts.append(context)
    for script in scripts:
        context.add_init_script(script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    open_page(page, "/")
    return page


def test_keep_awake_takes_the_wake_lock_on_a_secure_page(table: Table) -> None:
    page = table.tablet(PHONE)
    wake, note = page.locator("#wake"), page.locator("#wake-note")
    expect(note).to_be_visible()  # what the button does, before anyone taps it
    expect(note).to_contain_text("will not dim or lock while the scoreboard is open")
    expect(wake).to_have_attribute("data-wake", "off")
    wake.click()
    expect(wake).to_have_attribute("data-wake", "lock")
    expect(wake).to_have_attribute("aria-pressed", "true")
    expect(note).to_have_text("The screen stays on while this page is open.")
    expect(page.locator(VIDEO)).to_have_count(0)  # the lock does it: no video
    page.reload()  # remembered on the tablet: kept on again after a reload
    wait_ready(page)
    expect(wake).to_have_attribute("data-wake", "lock")
    wake.click()
    expect(wake).to_have_attribute("data-wake", "off")
    expect(wake).to_have_attribute("aria-pressed", "false")
    assert page.errors == []


# Whether the video meets Chromium's rule for a muted video to keep the screen on: playing,
# at least 3/4 of it on screen, and covering more than a fifth of the page; and it takes no tap.
VIDEO_KEEPS_AWAKE = """(video) => {
  const box = video.getBoundingClientRect();
  const seen = Math.max(0, Math.min(box.right, innerWidth) - Math.max(box.left, 0))
    * Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
  const area = box.width * box.height;
  const middle = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  return {
    playing: !video.paused && video.currentTime > 0,
    onScreen: area > 0 && seen / area >= 0.75,
    big: seen / (innerWidth * innerHeight) > 0.2,
    inline: video.playsInline && video.muted && video.loop,
    clear: parseFloat(getComputedStyle(video).opacity) < 0.05 && middle !== video,
  };
}"""


@pytest.mark.parametrize(("name", "viewport"), [("tablet", TABLET), ("phone", PHONE)])
def test_keep_awake_plays_a_silent_video_where_there_is_no_wake_lock(
    table: Table, name: str, viewport: dict[str, int]
) -> None:
    page = tablet_without(table, NO_WAKE_LOCK, viewport=viewport)
    assert page.evaluate("'wakeLock' in navigator") is False
    wake, note = page.locator("#wake"), page.locator("#wake-note")
    expect(note).to_contain_text("will not dim or lock")
    wake.click()
    expect(wake).to_have_attribute("data-wake", "video")
    expect(note).to_have_text("The screen stays on while this page is open.")
    video = page.locator(VIDEO)
    page.wait_for_function(PLAYING)
    assert page.evaluate(VIDEO_KEEPS_AWAKE, video.element_handle()) == {
        "playing": True,
        "onScreen": True,
        "big": True,
        "inline": True,
        "clear": True,
    }
    page.click("#fullscreen")  # the page still answers taps through it
    wake.click()
    expect(wake).to_have_attribute("data-wake", "off")
    assert video.evaluate("v => v.paused")
    wake.click()
    expect(wake).to_have_attribute("data-wake", "video")
    page.reload()  # remembered: a muted video may start again without a tap
    wait_ready(page)
    expect(wake).to_have_attribute("data-wake", "video")
    page.wait_for_function(PLAYING)
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_keep_awake_says_how_when_nothing_can_keep_the_screen_on(
    table: Table, language: str
) -> None:
    page = tablet_without(table, NO_WAKE_LOCK, NO_VIDEO)
    if language == "zh-CN":
        page.click("#language")
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        wait_ready(page)
    page.click("#wake")
    expect(page.locator("#wake")).to_have_attribute("data-wake", "failed")
    expect(page.locator("#wake")).to_have_attribute("aria-pressed", "false")
    words = "display settings" if language == "en" else "“显示”设置"
    expect(page.locator("#wake-note")).to_contain_text(words)


# What a background call that succeeds does (the demo's refresh of its seats, which ran at every
# move and still runs at every reconnect): `attempt` clears a refusal when its call succeeds.
SUCCESS_ELSEWHERE = """async () => {
  const api = await import("/static/js/api.js");
  await api.attempt(async () => ({}));
}"""


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_a_wrong_pin_stays_said_until_the_person_types_or_closes_the_box(
    table: Table, language: str
) -> None:
    page = table.tablet(PHONE)
    if language == "zh-CN":
        page.click("#language")
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        wait_ready(page)
    wrong = "Wrong PIN: try again." if language == "en" else "密码错误，请重试。"
    message = page.locator("#message")
    page.click("#unlock")
    page.fill("#pin-input", "0000")
    page.click("#pin-form button[type=submit]")
    expect(message).to_have_text(wrong)
    page.evaluate(SUCCESS_ELSEWHERE)
    page.evaluate(SUCCESS_ELSEWHERE)
    expect(message).to_be_visible()
    expect(message).to_have_text(wrong)
    page.locator("#pin-input").press_sequentially("1")  # typing again: it has been read
    expect(message).to_be_hidden()

    page.fill("#pin-input", "0000")
    page.click("#pin-form button[type=submit]")
    expect(message).to_have_text(wrong)
    page.evaluate(SUCCESS_ELSEWHERE)
    expect(message).to_be_visible()
    page.click("#unlock")  # closing the box
    expect(page.locator("#pin-panel")).to_be_hidden()
    expect(message).to_be_hidden()
    assert page.errors == []
