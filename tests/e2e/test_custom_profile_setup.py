"""The set-up page in Chromium offers a family's own eject profile (installed by `uno-attack
tune --install`) by its name, marked as theirs, with the one line its file describes it by; the
match it starts records it, in English and in Chinese."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Table
from .looks import LANDSCAPE, opened

pytestmark = pytest.mark.browser

OURS = 'description = "Ours: quick deals for the little ones"\nbase = "gentle"\n'


@pytest.mark.parametrize(
    ("language", "label"), [("en", "ours (our own)"), ("zh-CN", "ours（自定义）")]
)
def test_the_set_up_page_offers_an_installed_profile_with_its_description(
    table: Table, language: str, label: str
) -> None:
    folder = table.service.log_path.parent / "eject-profiles"
    folder.mkdir()
    (folder / "ours.toml").write_text(OURS, encoding="utf-8")
    page = opened(table, LANDSCAPE, "/setup", language)
    expect(page.locator("#setup-form[data-ready=true]")).to_be_attached()
    expect(page.locator("#eject-profile option[value=ours]")).to_have_text(label)
    page.select_option("#eject-profile", "ours")
    expect(page.locator("#eject-profile-hint")).to_have_text(
        "Ours: quick deals for the little ones"
    )
    page.select_option("#eject-profile", "gentle")  # a built-in keeps its own words
    expect(page.locator("#eject-profile-hint")).not_to_contain_text("Ours")
    page.select_option("#eject-profile", "ours")
    names = page.locator(".setup-player input")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        names.nth(i).fill(name)
    page.click("#setup-form button[type=submit]")
    page.wait_for_url("**/")
    setup = table.state()["setup"]
    assert setup["eject_profile"] == "ours" and setup["eject_params"]["counts"]
    assert page.errors == []
