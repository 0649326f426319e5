"""A scoreboard opened while the table plays: the record logged after the page was drawn and
before its stream opened still reaches its feed and its board (the stream starts at `?last=`,
the seq of the state the page shows)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import TABLET, Table, wait_ready

pytestmark = pytest.mark.browser


def test_a_record_logged_before_the_stream_opened_reaches_the_feed(table: Table) -> None:
    drawn = table.started()  # the page is drawn at this seq: Bob to play on a Red 5
    mover = drawn["deal"]["turn"]
    context = table.browser.new_context(viewport=TABLET, base_url=table.url)
    table.contexts.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def play_before_the_stream(route: Any) -> None:
        """The feed's history is answered as the page was drawn; then a play is logged, before
        the page (loaded, its history in hand) opens its stream."""
        history = route.fetch()
        table.act(type="Play", seat=mover, card="R7")
        route.fulfill(response=history)

    page.route("**/api/history?*", play_before_the_stream, times=1)
    page.goto("/")
    wait_ready(page)
    players, seating = drawn["setup"]["players"], drawn["seating"]
    expect(page.locator("#feed")).to_contain_text(f"{players[seating[mover]]} played Red 7")
    expect(page.locator("#top-card")).to_contain_text("Red 7")
    expect(page.locator("#turn-name")).to_have_text(players[seating[table.state()["deal"]["turn"]]])
    assert table.state()["seq"] == drawn["seq"] + 1
    assert not errors
