"""A person at the table lets a new tablet in, in Chromium, while a device has spent the
strangers' guesses: the new tablet asks and shows a code, the unlocked tablet shows the same
code and "Let it in" (the admin's tablet also "as the admin"), the new tablet is in. The
unlocked tablet is told that someone is guessing; at tablet and phone sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.reliability.loopback import Client, address
from tests.waiting import FakeClock
from web_ui import security

from .conftest import (
    ADMIN_PASSWORD,
    PHONE,
    PIN,
    PORTRAIT,
    TABLET,
    Table,
    csrf,
    open_page,
    shoot,
)
from .looks import fits

pytestmark = pytest.mark.browser

CODE = re.compile(r"^\d{3} \d{3}$")

# The texts of every notice the page shows, kept as they appear (a notice fades by itself).
WATCH_NOTICES = """() => {
  window.noticesSeen = [];
  const box = document.getElementById("notices");
  new MutationObserver(() => box.querySelectorAll(".notice").forEach((n) => {
    if (!window.noticesSeen.includes(n.textContent)) window.noticesSeen.push(n.textContent);
  })).observe(box, { childList: true });
}"""


def admin_tablet(table: Table, viewport: dict[str, int]) -> Any:
    page = table.tablet(viewport)
    answer = page.request.post(
        f"{table.url}/api/session/admin",
        data={"password": ADMIN_PASSWORD},
        headers={"X-CSRF-Token": csrf(page)},
    )
    assert answer.ok, answer.text()
    open_page(page, "/")
    return page


@pytest.mark.parametrize(
    ("approver", "newcomer", "as_admin"),
    [(TABLET, PHONE, False), (PHONE, PORTRAIT, True)],
    ids=["tablet-lets-in-a-phone", "admin-phone-lets-in-a-tablet-as-admin"],
)
def test_a_new_tablet_is_let_in_while_someone_guesses(
    table: Table, approver: dict[str, int], newcomer: dict[str, int], as_admin: bool
) -> None:
    table.started()
    table.app.extensions["pin_guard"] = security.Guard("PIN", FakeClock())  # time stands still
    family = admin_tablet(table, approver) if as_admin else table.tablet(approver, unlocked=True)
    family.evaluate(WATCH_NOTICES)

    port = int(table.url.rsplit(":", 1)[1])
    guesses = [Client(port, address(n)).unlock("0000") for n in range(security.FREE + 2)]
    assert guesses[-1] == 429  # the strangers' budget is spent
    family.wait_for_function("() => noticesSeen.some((text) => text.includes('guessing'))")

    new = table.tablet(newcomer)
    new.click("#unlock")
    new.fill("#pin-input", PIN)
    new.click("#pin-form button[type=submit]")
    expect(new.locator("#message")).to_contain_text("Too many")  # the right PIN waits, too
    new.click("#join-ask")
    shown = new.locator("#join-code")
    expect(shown).to_have_text(CODE)
    code = str(shown.text_content())

    request = family.locator(f'.join-request[data-code="{code.replace(" ", "")}"]')
    expect(request).to_be_visible()
    expect(request.locator(".join-code")).to_have_text(code)
    expect(request.locator(".join-admin")).to_have_count(1 if as_admin else 0)
    fits(family)
    fits(new)
    size = "admin-" if as_admin else ""
    shoot(family, f"join-{size}list-{approver['width']}")
    shoot(new, f"join-{size}code-{newcomer['width']}")
    request.locator(".join-admin" if as_admin else "button.primary").click()

    expect(new.locator("#lock")).to_be_visible()  # it reloaded itself, unlocked
    expect(family.locator("#join-panel")).to_be_hidden()
    expect(family.locator("#notices")).to_contain_text("let in")
    open_page(new, "/admin")
    expect(new.locator("#admin-status")).to_have_count(1 if as_admin else 0)
    assert family.errors == [] and new.errors == []


def test_a_locked_tablet_sees_no_list_and_no_guessing(table: Table) -> None:
    table.app.extensions["pin_guard"] = security.Guard("PIN", FakeClock())
    watcher = table.tablet(TABLET, unlocked=True)
    locked = table.tablet(PHONE)
    for page in (watcher, locked):
        page.evaluate(WATCH_NOTICES)
    asking = table.tablet(PORTRAIT)
    asking.click("#unlock")
    asking.click("#join-ask")
    expect(asking.locator("#join-code")).to_have_text(CODE)
    expect(watcher.locator(".join-request")).to_have_count(1)  # told over the stream

    port = int(table.url.rsplit(":", 1)[1])
    assert Client(port, address(1)).unlock("0000") == 403
    watcher.wait_for_function("() => noticesSeen.some((text) => text.includes('guessing'))")
    assert locked.locator("#join-panel").count() == 0  # a locked tablet has no list...
    assert locked.evaluate("() => noticesSeen") == []  # ...and is not told of the guessing
    asking.click("#join-cancel")
    expect(watcher.locator("#join-panel")).to_be_hidden()
    expect(asking.locator("#join-ask")).to_be_visible()
    assert locked.errors == [] and asking.errors == [] and watcher.errors == []
