"""HTTP clients that come from many addresses: every 127.x.y.z is this machine on Linux, so a
test can be 1,000 different tablets (or attackers) to a real waitress server."""

from __future__ import annotations

import http.client
import json
from http.cookies import SimpleCookie
from typing import Any


def address(n: int) -> str:
    """The n-th loopback address past 127.0.0.1: 127.0.0.2, ..., 127.0.1.0, ..."""
    n += 2
    return f"127.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


class Client:
    """A tablet at `source` (a loopback address): keeps its cookie and CSRF token."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.csrf = self.request("GET", "/api/session")[1]["csrf"]

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        """(status, JSON answer, headers); a new connection each time, like a phone waking."""
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            sent |= {"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")}
        try:
            data = None if body is None else json.dumps(body)
            connection.request(method, path, body=data, headers=sent | (headers or {}))
            response = connection.getresponse()
            payload = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            answer = json.loads(payload) if payload.startswith(b"{") else payload
            return response.status, answer, dict(response.headers)
        finally:
            connection.close()

    def post(self, path: str, body: Any = None) -> tuple[int, Any, dict[str, str]]:
        return self.request("POST", path, {} if body is None else body)

    def unlock(self, pin: str) -> int:
        return self.post("/api/session/pin", {"pin": pin})[0]
