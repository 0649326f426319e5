"""Announcing the service's tables on the local network (mDNS/DNS-SD, python-zeroconf), so a hall
board (`uno-attack hall`) finds them without anyone typing an address.

Each table is one service instance of type `_uno-attack._tcp.local.` ("UNO Attack (main) on
pi-a"), at the service's port, its TXT record saying where its scoreboard is under the
service (`path`: `/`, or `/t/<id>/` for another table of a service that hosts several), its
`id` and its `name`, reached at the IPv4 addresses the caller gives (`uno-attack run`: the
LAN address, or the address it is bound to). A service bound to every interface (`0.0.0.0`) is
announced on every interface; one bound to an address, on that address's interface only
(`127.0.0.1`: this machine alone).

Announcing is a courtesy: whatever fails (no multicast, a busy port 5353, no address) is
logged and the service goes on; the hall's typed addresses remain the fallback.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_uno-attack._tcp.local."
WILDCARDS = ("", "0.0.0.0", "::")
LONGEST_NAME = 63  # bytes of an instance name (DNS-SD)


@dataclass(frozen=True)
class AnnouncedTable:
    id: str
    path: str  # where its scoreboard is under the service: "/" or "/t/<id>/"
    name: str  # the table's name, for people


class Announcer:
    """Announces `tables` (served on `host`:`port`, reached at `addresses`) from `start()`
    until `close()`; registering runs on a thread of its own, so the service's start never
    waits for it."""

    def __init__(
        self,
        tables: Sequence[AnnouncedTable],
        port: int,
        host: str,
        addresses: Sequence[str],
        *,
        zeroconf: Callable[..., Zeroconf] = Zeroconf,
    ) -> None:
        self.tables, self.port, self.host = list(tables), port, host
        self.addresses = list(addresses)
        self._make_zeroconf = zeroconf
        self._zeroconf: Zeroconf | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._register, name="announce", daemon=True)

    def start(self) -> Announcer:
        self._thread.start()
        return self

    def close(self) -> None:
        """Say goodbye on the network (the tables' records expire at once) and stop."""
        with self._lock:
            self._closed = True
            zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is None:
            return
        try:
            zeroconf.unregister_all_services()
            zeroconf.close()
        except Exception as error:
            log.warning("announcing: could not say goodbye on the network: %s", error)

    def _register(self) -> None:
        try:
            if not self.addresses:
                log.warning("announcing: this machine has no network address to announce")
                return
            interfaces = InterfaceChoice.All if self.host in WILDCARDS else [self.host]
            zeroconf = self._make_zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
            with self._lock:
                if self._closed:
                    zeroconf.close()
                    return
                self._zeroconf = zeroconf
            host = socket.gethostname()
            for table in self.tables:
                info = service_info(table, self.port, self.addresses, host)
                zeroconf.register_service(info, allow_name_change=True)
                log.info("announced %r at %s", info.name, ", ".join(self.addresses))
        except Exception as error:
            if not self._closed:  # else the service stopped while it was announcing
                log.warning("announcing the table on the network failed: %s", error)
            self.close()


def service_info(
    table: AnnouncedTable, port: int, addresses: Sequence[str], host: str
) -> ServiceInfo:
    """The DNS-SD records of one table."""
    instance = _fit(f"{table.name} ({table.id}) on {host}")
    properties: dict[str | bytes, Any] = {"path": table.path, "id": table.id, "name": table.name}
    return ServiceInfo(
        SERVICE_TYPE,
        f"{instance}.{SERVICE_TYPE}",
        port=port,
        properties=properties,
        addresses=[socket.inet_aton(address) for address in addresses],
        server=f"{host}.local.",
    )


def _fit(name: str) -> str:
    """The name cut to what an instance name may hold, never inside a character."""
    return name.encode("utf-8")[:LONGEST_NAME].decode("utf-8", "ignore").replace(".", " ")
