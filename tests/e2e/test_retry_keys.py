"""The tablet's script in Chromium: one idempotency key per tap, sent again on a retry, so a
tap whose answer was lost on the way back applies once; the operator's warnings are shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import wait_until

from .conftest import Table, open_page

pytestmark = pytest.mark.browser


def test_a_tap_whose_answer_is_lost_is_retried_with_its_key(manual_table: Table) -> None:
    table = manual_table
    table.started()
    page = table.tablet(unlocked=True)
    bodies: list[dict[str, Any]] = []

    def lose_the_first_answer(route: Any) -> None:
        bodies.append(json.loads(route.request.post_data or "{}"))
        if len(bodies) == 1:
            route.fetch()  # the table applies the tap...
            route.fulfill(status=503, body='{"error": "no answer"}')  # ...the answer is lost
        elif len(bodies) == 2:
            route.abort("connectionreset")  # and the retry's connection drops, too
        else:
            route.continue_()

    page.route("**/api/actions", lose_the_first_answer)
    page.click('#plays button[data-card="R7"]')
    # the script waits a little before each retry; the page's events arrive while it waits
    wait_until(lambda: page.wait_for_timeout(50) or len(bodies) >= 3, "the tap sent again")
    expect(page.locator("#turn-name")).to_have_text("Cy")
    expect(page.locator("#message")).to_be_hidden()
    assert len({body["key"] for body in bodies}) == 1
    plays = [r for r in table.service.store.records("main") if "R7" in json.dumps(r.command)]
    assert len(plays) == 1  # applied once, however often it arrived

    page.unroute("**/api/actions")
    page.click("#undo")  # the next tap: a key of its own
    expect(page.locator("#turn-name")).to_have_text("Bob")
    keys = [r.idem_key for r in table.service.store.records("main") if r.idem_key]
    assert len(keys) == 2 and len(set(keys)) == 2
    assert not page.errors


def test_the_setup_page_warns_of_default_credentials(manual_table: Table) -> None:
    page = manual_table.tablet(unlocked=True)
    open_page(page, "/setup")
    expect(page.locator("#warnings")).to_contain_text("still the default one")
    stranger = manual_table.tablet()
    open_page(stranger, "/setup")
    expect(stranger.locator("#warnings")).to_have_count(0)
