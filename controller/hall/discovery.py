"""Finding the tables that announce themselves (`controller/announce.py`): an mDNS/DNS-SD
browser for `_uno-attack._tcp.local.` that hands each table's address to the hall.

A table found again at the same address is the same table; one that is no longer announced
stays on the board (it shows offline if it is really gone). A table is reached at the first
IPv4 address its announcement gives. Browsing is a courtesy like announcing: when it cannot
start (no multicast on this machine), that is logged and the hall goes on with the addresses
it was given.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from zeroconf import (
    InterfaceChoice,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from controller.announce import SERVICE_TYPE

from .urls import table_url

log = logging.getLogger(__name__)

ASK_MS = 3000  # how long to ask for a found table's address and port


class TableBrowser:
    """Calls `found(url)` for each table announced on the network, from `start()` until
    `close()`."""

    def __init__(
        self,
        found: Callable[[str], object],
        interfaces: Sequence[str] | InterfaceChoice = InterfaceChoice.All,
    ) -> None:
        self.found = found
        self.interfaces = interfaces
        self._zeroconf: Zeroconf | None = None
        self._browser: ServiceBrowser | None = None

    def start(self) -> bool:
        """Start browsing; False (and a warning logged) when it cannot."""
        try:
            self._zeroconf = zeroconf_of_its_own(
                interfaces=self.interfaces, ip_version=IPVersion.V4Only
            )
            self._browser = ServiceBrowser(self._zeroconf, SERVICE_TYPE, handlers=[self._changed])
        except Exception as error:
            log.warning("cannot look for tables on the network: %s", error)
            self.close()
            return False
        return True

    def close(self) -> None:
        browser, zeroconf = self._browser, self._zeroconf
        self._browser = self._zeroconf = None
        try:
            if browser is not None:
                browser.cancel()
            if zeroconf is not None:
                zeroconf.close()
        except Exception as error:
            log.warning("looking for tables: could not stop cleanly: %s", error)

    def _changed(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            return
        info = zeroconf.get_service_info(service_type, name, timeout=ASK_MS)
        url = None if info is None else announced_url(info)
        if url is None:
            log.warning("found %r on the network, but not its address", name)
            return
        try:
            self.found(url)
        except Exception:
            log.exception("following %s, found on the network", url)


def zeroconf_of_its_own(**options: Any) -> Zeroconf:
    """A Zeroconf that runs on an event loop thread of its own, whichever thread asks for it.

    Made on a thread where an asyncio loop counts as running, python-zeroconf joins that loop
    instead of starting its own. A loop that stands still while the code inside it blocks (a
    coroutine that calls this, or a library whose blocking API runs one on the caller's thread)
    would then never let it hear an answer, nor say goodbye when it is closed. A fresh thread has
    no loop running, so the Zeroconf made there always starts its own.
    """
    with ThreadPoolExecutor(1, thread_name_prefix="zeroconf-start") as pool:
        return pool.submit(Zeroconf, **options).result()


def announced_url(info: ServiceInfo) -> str | None:
    """The table's address from its announcement, or None when it has no usable one."""
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    properties: dict[Any, Any] = info.properties or {}
    path = properties.get(b"path") or b"/"
    try:
        return table_url(f"http://{addresses[0]}:{info.port}{path.decode('utf-8')}")
    except (UnicodeDecodeError, ValueError):
        return None
