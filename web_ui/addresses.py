"""Where tablets and phones find the scoreboard: this machine's addresses as URLs."""

from __future__ import annotations

import socket

from controller.config import Config


def urls(config: Config) -> list[str]:
    """Where tablets find the scoreboard: first the address that works on this machine, then
    the LAN addresses, then the host's .local name when this machine can resolve it."""
    host, port = config.service.host, config.service.port
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    names = ["localhost", *lan_addresses(), *_resolvable(f"{socket.gethostname()}.local")]
    return [f"http://{name}:{port}/" for name in dict.fromkeys(names)]


def _resolvable(name: str) -> list[str]:
    try:
        socket.getaddrinfo(name, None)
    except (OSError, UnicodeError):
        return []
    return [name]


def lan_addresses() -> list[str]:
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the LAN address
        address = str(probe.getsockname()[0])
        probe.close()
        return [address] if not address.startswith("127.") else []
    except OSError:
        return []
