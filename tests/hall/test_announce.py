"""Tables announce themselves with mDNS/DNS-SD and the hall finds them, on this machine's
loopback interface only (no packet leaves it): the announcer and the browser in one process,
then a real `uno-attack run` found by the browser. Announcing never stops a service. A browser
started where an asyncio loop runs but stands still (as Playwright's sync API leaves one on the
thread driving the browser tests) still finds them."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from controller.announce import AnnouncedTable, Announcer, service_info
from controller.hall.discovery import TableBrowser, announced_url
from tests.serving import free_port, wait_answering
from tests.waiting import wait_until

LOOPBACK = "127.0.0.1"


def loopback_browser(found: Callable[[str], object]) -> TableBrowser:
    """A started browser on the loopback interface; the test skips where mDNS cannot run."""
    if os.environ.get("CI"):  # multicast on a machine shared with other work: not dependable
        pytest.skip("mDNS on a shared CI machine: a fresh clone there found nothing in 60 s")
    browser = TableBrowser(found, interfaces=[LOOPBACK])
    if not browser.start():
        pytest.skip("mDNS cannot run here (no multicast on the loopback interface)")
    return browser


@pytest.fixture
def found() -> Iterator[list[str]]:
    """The addresses a browser on the loopback interface finds, as it finds them."""
    urls: list[str] = []
    browser = loopback_browser(urls.append)
    yield urls
    browser.close()


def announce_two_tables_until_found(found: list[str]) -> None:
    """Announce two tables of one service on the loopback interface until both are found."""
    port = free_port()
    tables = [AnnouncedTable("main", "/", "Hall test"), AnnouncedTable("b", "/t/b/", "Hall test")]
    announcer = Announcer(tables, port, LOOPBACK, [LOOPBACK]).start()
    try:
        expected = {f"http://{LOOPBACK}:{port}/", f"http://{LOOPBACK}:{port}/t/b/"}
        wait_until(lambda: expected <= set(found), f"both tables found: {expected}")
    finally:
        announcer.close()


def test_announced_tables_are_found_at_their_addresses(found: list[str]) -> None:
    announce_two_tables_until_found(found)


def test_a_browser_started_inside_a_loop_that_stands_still_finds_tables() -> None:
    async def blocking_inside_the_loop() -> None:  # the loop runs, but never gets to turn
        urls: list[str] = []
        browser = loopback_browser(urls.append)
        try:
            announce_two_tables_until_found(urls)
        finally:
            browser.close()

    with ThreadPoolExecutor(1) as pool:  # a thread of its own: this one may have a loop already
        pool.submit(asyncio.run, blocking_inside_the_loop()).result()


def test_a_running_service_is_found(found: list[str], tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--launcher", "none",
         "--host", LOOPBACK, "--port", str(port), "--data-dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_answering(port, process)
        wait_until(lambda: f"http://{LOOPBACK}:{port}/" in found, "the service found")
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_announcing_that_fails_is_logged_and_the_service_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def no_multicast(**_: Any) -> Any:
        raise OSError("no multicast here")

    caplog.set_level(logging.WARNING, logger="controller.announce")
    table = AnnouncedTable("main", "/", "UNO Attack")
    announcer = Announcer([table], 8080, "0.0.0.0", ["192.0.2.7"], zeroconf=no_multicast)
    announcer.start()
    wait_until(lambda: "no multicast here" in caplog.text, "the failure logged")
    announcer.close()  # nothing to close: no error either
    silent = Announcer([table], 8080, "0.0.0.0", [], zeroconf=no_multicast).start()
    wait_until(lambda: "no network address" in caplog.text, "nothing to announce, logged")
    silent.close()


def test_an_announcement_names_the_table_and_where_it_is() -> None:
    table = AnnouncedTable("b", "/t/b/", "大厅 " * 30)  # a name too long for DNS-SD
    info = service_info(table, 8080, ["192.0.2.7"], "pi-a")
    instance = info.name.removesuffix("._uno-attack._tcp.local.")
    assert len(instance.encode("utf-8")) <= 63 and instance.startswith("大厅")
    assert info.properties == {b"path": b"/t/b/", b"id": b"b", b"name": ("大厅 " * 30).encode()}
    assert info.server == "pi-a.local."
    assert announced_url(info) == "http://192.0.2.7:8080/t/b/"
