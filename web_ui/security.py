"""Who may do what.

Anyone on the network may read the scoreboard. Every control action needs the table PIN,
entered once per tablet and then remembered in a signed session cookie; the hardware and
config pages need the admin password from the config file. Every state-changing request carries
the session's CSRF token (header `X-CSRF-Token`). Wrong PINs are rate-limited per address.
Neither the PIN nor the password is ever logged.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, current_app, request, session

from .errors import Forbidden, TooMany
from .settings import TableSettings

F = TypeVar("F", bound=Callable[..., Any])

ATTEMPTS = 5  # wrong PINs allowed per address...
WINDOW = 300.0  # ...within this many seconds


class PinGuard:
    """Counts wrong PINs per client address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, list[float]] = {}

    def check(self, address: str) -> None:
        with self._lock:
            recent = self._recent(address)
        if len(recent) >= ATTEMPTS:
            wait = int(WINDOW - (self._clock() - recent[0])) + 1
            raise TooMany(f"too many wrong PINs: try again in {wait} s")

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures[address] = [*self._recent(address), self._clock()]

    def _recent(self, address: str) -> list[float]:
        now = self._clock()
        return [t for t in self._failures.get(address, []) if now - t < WINDOW]


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return str(token)


def check_csrf() -> None:
    """Refuse a state-changing request without this session's token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    token = session.get("csrf")
    if not token or not hmac.compare_digest(str(token), sent):
        raise Forbidden("missing or stale CSRF token: reload the page")


def settings() -> TableSettings:
    return current_app.extensions["settings"]  # type: ignore[no-any-return]


def unlocked() -> bool:
    return bool(session.get("pin") == settings().epoch)


def is_admin() -> bool:
    return bool(session.get("admin") == settings().epoch)


def needs_pin(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not unlocked():
            raise Forbidden("enter the table PIN first")
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def try_pin(pin: str) -> None:
    guard: PinGuard = current_app.extensions["pin_guard"]
    address = request.remote_addr or "?"
    guard.check(address)
    if not settings().matches(pin):
        guard.failed(address)
        raise Forbidden("wrong PIN")
    session["pin"] = settings().epoch
    session.permanent = True


def change_pin(pin: object) -> None:
    """A new table PIN: this tablet stays unlocked, every other one must enter it."""
    settings().change_pin(pin)
    session["pin"] = settings().epoch
    if session.get("admin"):
        session["admin"] = settings().epoch


def try_admin(password: str) -> None:
    guard: PinGuard = current_app.extensions["pin_guard"]
    address = request.remote_addr or "?"
    guard.check(address)
    expected = current_app.config["ADMIN_PASSWORD"]
    if not expected:
        raise Forbidden("no admin password is set: add service.admin_password to the config")
    if not hmac.compare_digest(password.encode(), expected.encode()):
        guard.failed(address)
        raise Forbidden("wrong password")
    session["admin"] = session["pin"] = settings().epoch


def install(app: Flask) -> None:
    app.extensions["pin_guard"] = PinGuard()
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
