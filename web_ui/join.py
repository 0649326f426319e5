"""Letting a new tablet in without the PIN: it asks, a person at an unlocked tablet lets it in.

A new tablet (the family's own after its cookie lapsed, a guest's phone, the admin's new
phone) asks to join (`POST /api/join`) and shows the code it is given. Every unlocked tablet
lists the tablets asking (`GET /api/join/pending`, told by the stream's `notice`
`join_request`); a person who sees the same code on the tablet in front of them taps "Let it
in" (`POST /api/join/approve {code}`). The asking tablet's next look (`GET /api/join`) takes
the rights: a player's, or the admin's when an admin tablet let it in as the admin.

- **Outside the guess budget**: asking costs no guess and is never refused for the strangers'
  guesses, so a device guessing the PIN cannot keep a person at the table out.
- **No way round the PIN**: a request only becomes rights when a tablet that has them (the
  PIN, or the admin password for the admin's) approves it. The code picks the request; the
  rights go only to the session that asked (a secret in its own cookie), so knowing the code
  is worth nothing to anyone else.
- **Short-lived and single use**: a request waits `LIFETIME` seconds; once let in, the tablet
  has `COLLECT` seconds to take its rights, and the request is gone once taken.
- **Bounded**: at most `PER_ADDRESS` requests wait per address (an IPv6 address counts by
  its /64 network; a new request replaces that address's oldest) and `MOST` in all (past
  that, the oldest of the address holding the most goes), so a flood from one device cannot
  push the family's request out. (A device that takes more than `MOST` addresses could.)

Requests live in memory: a restart forgets them (the tablet asks again).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, abort, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue

from controller.table import InvalidInput

from . import security
from .api import body
from .errors import Forbidden
from .table_access import table_service

bp = Blueprint("join", __name__, url_prefix="/api/join")
log = logging.getLogger("uno-attack")

LIFETIME = 300.0  # seconds a request waits for a person to let it in
COLLECT = 60.0  # seconds the tablet let in has to take its rights (it looks every 2 s)
PER_ADDRESS = 3
MOST = 200
DIGITS = 6


@dataclass
class Request:
    """One tablet asking to join. `pin` and `admin` are the epochs it was let in under
    (None: not let in, or not as the admin)."""

    code: str
    address: str
    asked: float
    expires: float
    pin: str | None = None
    admin: str | None = None

    @property
    def approved(self) -> bool:
        return self.pin is not None


class Joins:
    """The tablets asking to join, by (a hash of) the secret in each asking session."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._requests: dict[str, Request] = {}  # oldest first

    def ask(self, secret: object, address: str) -> tuple[str, Request, bool]:
        """This session's live request, or a new one: (its secret, the request, whether new)."""
        with self._lock:
            now = self._prune()
            if isinstance(secret, str) and (mine := self._requests.get(_digest(secret))):
                return secret, mine, False
            self._make_room(address)
            taken = {r.code for r in self._requests.values()}
            code = _code()
            while code in taken:
                code = _code()
            secret = secrets.token_urlsafe(24)
            mine = Request(code, address, now, now + LIFETIME)
            self._requests[_digest(secret)] = mine
            return secret, mine, True

    def now(self) -> float:
        return self._clock()

    def mine(self, secret: object) -> Request | None:
        with self._lock:
            self._prune()
            return self._requests.get(_digest(secret)) if isinstance(secret, str) else None

    def take(self, secret: str) -> Request | None:
        """The request, if let in: it is gone from now on (single use)."""
        with self._lock:
            self._prune()
            found = self._requests.get(_digest(secret))
            if found is None or not found.approved:
                return None
            del self._requests[_digest(secret)]
            return found

    def cancel(self, secret: object) -> bool:
        with self._lock:
            if not isinstance(secret, str):
                return False
            return self._requests.pop(_digest(secret), None) is not None

    def waiting(self) -> list[Request]:
        """The requests nobody let in yet, oldest first."""
        with self._lock:
            self._prune()
            return [r for r in self._requests.values() if not r.approved]

    def approve(self, code: str, pin: str, admin: str | None) -> Request | None:
        """Let in the tablet waiting with `code` (None: nobody waits with it)."""
        with self._lock:
            now = self._prune()
            found = self._waiting_with(code)
            if found is not None:
                found.pin, found.admin = pin, admin
                found.expires = now + COLLECT
            return found

    def refuse(self, code: str) -> bool:
        with self._lock:
            self._prune()
            found = self._waiting_with(code)
            if found is not None:
                self._requests = {k: r for k, r in self._requests.items() if r is not found}
            return found is not None

    def _waiting_with(self, code: str) -> Request | None:
        return next((r for r in self._requests.values() if r.code == code and not r.approved), None)

    def _prune(self) -> float:
        now = self._clock()
        self._requests = {k: r for k, r in self._requests.items() if now < r.expires}
        return now

    def _make_room(self, address: str) -> None:
        """Room for one more from `address`: its own oldest goes past `PER_ADDRESS`; past
        `MOST`, the oldest of the address with the most waiting."""
        counts = Counter(r.address for r in self._requests.values())
        if counts[address] >= PER_ADDRESS:
            self._drop_oldest(address)
        elif len(self._requests) >= MOST:
            self._drop_oldest(counts.most_common(1)[0][0])

    def _drop_oldest(self, address: str) -> None:
        key = next(k for k, r in self._requests.items() if r.address == address)
        del self._requests[key]


def source(address: str) -> str:
    """Who asks, for the bounds: the address, or an IPv6 address's /64 network (one device
    may take any number of addresses in it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def joins() -> Joins:
    """The app's requests (made at the first use; a test may put its own, on its clock)."""
    return current_app.extensions.setdefault("joins", Joins())  # type: ignore[no-any-return]


def _tell(code: str, text: str) -> None:
    """The unlocked tablets look at the list again (the notice names no code: anyone may
    read the stream)."""
    table_service().notice(code, text, at=time.time())


def _view(found: Request) -> dict[str, object]:
    now = joins().now()
    return {
        "code": found.code,
        "asked": round(now - found.asked),
        "expires_in": max(0, round(found.expires - now)),
        "address": found.address,
    }


def _clean_code(raw: object) -> str:
    code = "".join(raw.split()) if isinstance(raw, str) else ""
    if not (code.isascii() and code.isdigit() and len(code) == DIGITS):
        raise InvalidInput(f"send the code the new tablet shows ({DIGITS} digits)")
    return code


@bp.post("")
def ask() -> ResponseReturnValue:
    """This tablet asks to be let in: its code (the same while its request waits)."""
    if security.is_admin():
        abort(409, "this tablet is already the admin's")
    secret, mine, new = joins().ask(session.get("join"), source(request.remote_addr or "?"))
    session["join"] = secret
    if new:
        _tell("join_request", "a tablet asks to join: let it in from an unlocked tablet")
    return jsonify(status="waiting", code=mine.code, expires_in=_view(mine)["expires_in"])


@bp.get("")
def look() -> ResponseReturnValue:
    """This tablet's request: `waiting` (with its code), `none` (it expired, was refused or
    never asked), or `approved`: the rights are this tablet's from now on."""
    secret = session.get("join")
    mine = joins().mine(secret)
    if mine is None or not isinstance(secret, str):
        return jsonify(status="none")
    if not mine.approved:
        return jsonify(status="waiting", code=mine.code, expires_in=_view(mine)["expires_in"])
    taken = joins().take(secret)
    if taken is None:  # taken by a request of the same session a moment ago
        return jsonify(status="none")
    session.pop("join", None)
    granted = security.admit(taken.pin, taken.admin)
    log.info("%s joined: let in by another tablet (code %s)", granted.actor, taken.code)
    _tell("join_settled", "a tablet was let in")
    return jsonify(status="approved", unlocked=security.unlocked(), admin=security.is_admin())


@bp.post("/cancel")
def cancel() -> ResponseReturnValue:
    """This tablet no longer asks."""
    if joins().cancel(session.pop("join", None)):
        _tell("join_settled", "a tablet stopped asking to join")
    return jsonify(status="none")


@bp.get("/pending")
@security.needs_pin
def pending() -> ResponseReturnValue:
    """The tablets asking to join, oldest first: `{requests: [{code, asked, expires_in,
    address}]}` (`asked`: seconds ago)."""
    return jsonify(requests=[_view(r) for r in joins().waiting()])


@bp.post("/approve")
@security.needs_pin
def approve() -> ResponseReturnValue:
    """Let in the tablet showing `code`: as a player, or (`admin: true`, from an admin
    tablet only) as the admin. 404 when no tablet waits with that code."""
    data = body()
    code, as_admin = _clean_code(data.get("code")), data.get("admin", False)
    if not isinstance(as_admin, bool):
        raise InvalidInput("admin must be true or false")
    if as_admin and not security.is_admin():
        raise Forbidden("only the admin may let a tablet in as the admin")
    settings = security.settings()
    admin = settings.admin_epoch if as_admin else None
    if joins().approve(code, settings.epoch, admin) is None:
        abort(404, f"no tablet is waiting with the code {code}: it expired or was let in")
    role = "the admin" if as_admin else "a player"
    log.info("%s let a tablet in as %s (code %s)", security.actor(), role, code)
    _tell("join_settled", "a tablet was let in")
    return jsonify(approved=True, code=code, admin=as_admin)


@bp.post("/refuse")
@security.needs_pin
def refuse() -> ResponseReturnValue:
    """Not this one: the request with `code` is dropped."""
    code = _clean_code(body().get("code"))
    if not joins().refuse(code):
        abort(404, f"no tablet is waiting with the code {code}")
    _tell("join_settled", "a request to join was refused")
    return jsonify(refused=True, code=code)
