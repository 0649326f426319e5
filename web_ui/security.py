"""Who may do what.

Anyone on the network may read the scoreboard. Two roles may change things:

- a **player** (a tablet unlocked with the table PIN, or let in by a player's tablet:
  `join.py`) plays, sets up a match, saves presets, clears a jam and reloads the launcher;
- the **admin** (a tablet logged in with the config's `admin_password`, or let in as the
  admin by an admin tablet) may also change the PIN and the table's settings and run
  hardware tests on a real launcher.

A tablet's rights live on the server (`Tablets`), found by a secret token in its signed
session cookie. A grant holds the PIN's epoch and the admin password's epoch: a new PIN or a
new (or removed) password revokes it, and "Lock" throws the token away, so a copied cookie
stops working too. Every state-changing request carries the session's CSRF token (header
`X-CSRF-Token`). Neither the PIN nor the password is ever logged.

Guessing: wrong PINs (and passwords) are counted across every address, with exponential
back-off (`Backoff`), so any number of addresses together gets a handful of guesses an hour.
A tablet that was unlocked before has its own count: an attacker can neither spend its budget
nor lock it out, and tablets that are unlocked never need the PIN at all. The counts live in
the table's database (`Guard`), written before a guess is checked: a restart, a crash or a
power cut gives nobody fresh guesses. A right guess gives back only what it cost: it never
clears the count of the tablets never unlocked here (the attacker's).

Strangers' guesses are written to the log (so the journal has them) at most once a minute,
with their count and addresses (`GuessReport`), and the open scoreboards are told (`notice`
`guessing`: the unlocked tablets show it). A person at the table never needs to win against
the guessing: an unlocked tablet lets a new one in without the PIN (`join.py`).

A tablet's standing is renewed while it is used: its cookie is signed again (and its expiry
pushed on) on the first request of every day that finds it known here (`renew`), so only a
tablet unused for the whole cookie lifetime (30 days) must unlock again. A cookie signed "in
the future" (the Pi's clock went back) is still read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Flask, Request, Response, current_app, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner

from controller.table import TableService

from .errors import Forbidden, TooMany
from .settings import TableSettings
from .table_access import table_service

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger("uno-attack")

FREE = 5  # wrong guesses before any wait...
FIRST_WAIT = 2.0  # ...then this many seconds, doubling with every further wrong guess...
LONGEST_WAIT = 900.0  # ...up to one guess every 15 minutes
FORGET = 24 * 3600.0  # a day without a wrong guess forgets them
TABLETS = 200  # tablets remembered (the oldest without rights are forgotten first)
RENEW_AFTER = 24 * 3600.0  # a tablet in use has its cookie signed again once a day
REPORT_EVERY = 60.0  # strangers' guesses are logged (and the tablets told) at most this often
ADDRESSES_NAMED = 8  # addresses a report line names (the rest are counted)


def delay(failures: int) -> float:
    """Seconds the next guess waits after `failures` wrong ones."""
    if failures < FREE:
        return 0.0
    doublings = min(failures - FREE, 16)  # past LONGEST_WAIT already; 2.0 ** 1100 overflows
    return min(FIRST_WAIT * 2.0**doublings, LONGEST_WAIT)


@dataclass
class Backoff:
    """Wrong guesses and the wait they impose, on the wall clock (it is kept across restarts):
    `failures`, when the `last` was evaluated and when the next may be (`not_before`). Every
    evaluation counts as wrong until it proves right, so concurrent guesses cannot slip
    through together."""

    failures: int = 0
    last: float | None = None
    not_before: float | None = None

    def wait(self, now: float) -> float:
        """Seconds before the next guess may be evaluated (0: now)."""
        if self.last is not None and now < self.last:  # the clock went back (a Pi has no RTC)
            shift = self.last - now  # the wait starts again from now: one step at most
            self.last = now
            self.not_before = None if self.not_before is None else self.not_before - shift
        if self.last is None or now - self.last >= FORGET:
            self.failures, self.last, self.not_before = 0, None, None
        if self.not_before is None:
            return 0.0
        return max(0.0, min(self.not_before - now, delay(self.failures)))

    def reserve(self, now: float) -> None:
        self.failures += 1
        self.last, self.not_before = now, now + delay(self.failures)

    def give_back(self) -> None:
        """A guess proved right: it was not a wrong one after all (the count of wrong ones
        made by others stays, and so does the time it is counted from)."""
        self.failures = max(0, self.failures - 1)
        if self.last is not None:
            self.not_before = self.last + delay(self.failures)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Backoff:
        failures, last, not_before = data["failures"], data["last"], data["not_before"]
        if not isinstance(failures, int) or failures < 0:
            raise ValueError(f"not a count of wrong guesses: {failures!r}")
        return cls(failures, _time(last), _time(not_before))


def _time(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"not a time: {value!r}")
    return float(value)


class Guard:
    """Guesses of one secret (the PIN, or the admin password): one budget for every tablet
    never unlocked before, whatever its address, and one per tablet that was.

    With a `table`, the budgets live in its database (the setting `guesses:<what>`), written
    before each guess is checked; without one (some tests), in memory only."""

    def __init__(
        self,
        what: str,
        clock: Callable[[], float] = time.time,
        table: TableService | None = None,
    ) -> None:
        self.what = what
        self._clock = clock
        self._table = table
        self.key = f"guesses:{what}"
        self._lock = threading.Lock()
        self._strangers = Backoff()
        self._known: dict[str, Backoff] = {}
        self._load()

    def evaluate(self, tablet: str | None, check: Callable[[], bool]) -> bool:
        """Run `check` (is the guess right?) if the budget allows; else raise TooMany. The
        guess is counted as wrong, and stored, before `check` runs."""
        with self._lock:
            backoff = self._backoff(tablet)
            wait = backoff.wait(self._clock())
            if wait > 0:
                raise TooMany(f"too many wrong {self.what}s: try again in {int(wait) + 1} s",
                              retry_after=int(wait) + 1)  # fmt: skip
            backoff.reserve(self._clock())
            self._save()  # a crash from here on still counts this guess
        right = check()
        if right:
            with self._lock:
                if tablet is None:
                    backoff.give_back()  # the strangers' count: nothing else is undone
                else:
                    self._known.pop(tablet, None)  # this tablet's own record, and no other
                self._save()
        return right

    def _backoff(self, tablet: str | None) -> Backoff:
        if tablet is None:
            return self._strangers
        if tablet not in self._known and len(self._known) >= TABLETS:
            self._known.pop(next(iter(self._known)))
        return self._known.setdefault(tablet, Backoff())

    def _save(self) -> None:
        if self._table is None:
            return
        data = {
            "strangers": self._strangers.to_json(),
            "tablets": {k: v.to_json() for k, v in self._known.items()},
        }
        self._table.set_setting(self.key, json.dumps(data))

    def _load(self) -> None:
        if self._table is None:
            return
        raw = self._table.setting(self.key)
        if raw is None:
            return
        try:
            data = json.loads(raw)
            self._strangers = Backoff.from_json(data["strangers"])
            self._known = {str(k): Backoff.from_json(v) for k, v in data["tablets"].items()}
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("the count of wrong %ss was unreadable: it starts at the limit", self.what)
            now = self._clock()
            self._strangers = Backoff(FREE, now, now + delay(FREE))
            self._known = {}


def _later(seconds: float, function: Callable[[], None]) -> None:
    timer = threading.Timer(seconds, function)
    timer.daemon = True
    timer.start()


class GuessReport:
    """The guesses of tablets never unlocked here, for the journal and the unlocked tablets:
    one log line (and one notice) at most every `REPORT_EVERY` seconds, with how many guesses
    (checked and wrong, or refused: too many) came from which addresses since the last one.

    The first guess after a quiet spell is reported at once; the rest of its minute at the
    minute's end (`later(seconds, flush)`, a timer thread by default), whether or not the
    guessing goes on. `tell(count, what)` tells the tablets (the table's notice)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        tell: Callable[[int, str], None] = lambda count, what: None,
        later: Callable[[float, Callable[[], None]], None] = _later,
    ) -> None:
        self._clock = clock
        self._tell = tell
        self._later = later
        self._lock = threading.Lock()
        self._wrong: Counter[str] = Counter()  # by secret: "PIN", "password"
        self._refused: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()
        self._reported: float | None = None
        self._waiting = False  # a flush is scheduled

    def note(self, what: str, address: str, *, refused: bool) -> None:
        """One stranger's guess of `what`, from `address`: checked and wrong, or refused."""
        with self._lock:
            (self._refused if refused else self._wrong)[what] += 1
            self._addresses[address] += 1
            report, wake = self._due(self._clock())
        self._act(report, wake)

    def flush(self) -> None:
        """The end of a report's minute: report what came since, if anything."""
        with self._lock:
            self._waiting = False
            report, wake = self._due(self._clock()) if self._addresses else (None, None)
        self._act(report, wake)

    def _due(self, now: float) -> tuple[tuple[str, int, str] | None, float | None]:
        """(the report to make now, or None; when to look again, if a flush must be set)."""
        if self._reported is None or not 0 <= now - self._reported < REPORT_EVERY:
            return self._take(now), None  # a quiet minute, or a clock that went back
        if self._waiting:
            return None, None
        self._waiting = True
        return None, self._reported + REPORT_EVERY - now

    def _act(self, report: tuple[str, int, str] | None, wake: float | None) -> None:
        if wake is not None:
            self._later(wake, self.flush)
        if report is not None:
            self._emit(*report)

    def _take(self, now: float) -> tuple[str, int, str]:
        """The report of everything noted since the last one: (line, count, what)."""
        count = self._wrong.total() + self._refused.total()
        secrets_guessed = sorted(set(self._wrong) | set(self._refused), reverse=True)
        kinds = "; ".join(
            f"{self._wrong[w]} {w} wrong, {self._refused[w]} refused as too many"
            for w in secrets_guessed
        )
        named = self._addresses.most_common(ADDRESSES_NAMED)
        addresses = ", ".join(f"{address} ({n})" for address, n in named)
        if len(self._addresses) > len(named):
            addresses += f" and {len(self._addresses) - len(named)} more"
        span = "" if self._reported is None else f" in the last {round(now - self._reported)} s"
        line = (
            f"guessing: {count} {'guess' if count == 1 else 'guesses'}{span} from tablets "
            f"never unlocked here ({kinds}), from {len(self._addresses)} "
            f"{'address' if len(self._addresses) == 1 else 'addresses'}: {addresses}"
        )
        self._wrong.clear()
        self._refused.clear()
        self._addresses.clear()
        self._reported = now
        return line, count, " and ".join(secrets_guessed)

    def _emit(self, line: str, count: int, what: str) -> None:
        log.warning("%s", line)
        try:
            self._tell(count, what)
        except Exception:  # the journal has it; the tablets' notice is a courtesy
            log.exception("could not tell the tablets about the guessing")


# ------------------------------------------------------------------ tablets and their grants


@dataclass(frozen=True)
class Grant:
    """One tablet's rights, kept server-side. `pin` and `admin` are the epochs it was
    granted under (None: not granted)."""

    id: str
    name: str = ""
    pin: str | None = None
    admin: str | None = None
    since: float = 0.0

    @property
    def actor(self) -> str:
        """How the event log names this tablet."""
        return f"tablet:{self.id}" + (f" {self.name}" if self.name else "")


class Tablets:
    """Every tablet unlocked on this table, by (a hash of) the token in its cookie; kept in
    the table's settings so tablets stay unlocked across restarts."""

    KEY = "tablets"

    def __init__(self, table: TableService) -> None:
        self._table = table
        self._lock = threading.Lock()
        self._grants = self._load()

    def _load(self) -> dict[str, Grant]:
        try:
            data = json.loads(self._table.setting(self.KEY) or "{}")
            return {str(k): Grant(**v) for k, v in data.items()}
        except (ValueError, TypeError, AttributeError):
            log.warning("the remembered tablets were unreadable: every tablet must unlock again")
            return {}

    def get(self, token: object) -> Grant | None:
        if not isinstance(token, str):
            return None
        return self._grants.get(_digest(token))

    def put(self, token: str | None, **changes: Any) -> str:
        """Give the tablet holding `token` (a new tablet if None or unknown) these rights;
        returns its token."""
        with self._lock:
            old = self.get(token)
            if old is None or token is None:
                token, old = secrets.token_urlsafe(24), Grant(id=secrets.token_hex(3))
            self._grants[_digest(token)] = replace(old, since=time.time(), **changes)
            self._save()
        return token

    def revoke(self, token: object) -> str | None:
        """Lock: the tablet keeps its id and name under a new token, with no rights; the old
        token (and any copy of the cookie) is worth nothing from now on."""
        with self._lock:
            old = self._grants.pop(_digest(token), None) if isinstance(token, str) else None
            if old is None:
                return None
            fresh = secrets.token_urlsafe(24)
            self._grants[_digest(fresh)] = replace(old, pin=None, admin=None, since=time.time())
            self._save()
        return fresh

    def _save(self) -> None:
        while len(self._grants) > TABLETS:
            oldest = min(self._grants, key=lambda k: (self._grants[k].pin is not None,
                                                     self._grants[k].since))  # fmt: skip
            del self._grants[oldest]
        self._table.set_setting(
            self.KEY, json.dumps({k: asdict(v) for k, v in self._grants.items()})
        )


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class TabletSessions(SecureCookieSessionInterface):
    """Flask's signed session cookies on `clock` (a test may turn it). A cookie is refused
    once older than the session's lifetime (30 days), as in Flask; one signed "in the future"
    (the clock went back: a Pi without a real-time clock boots with an old time until it
    syncs) is still read instead of locking every tablet out."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        sessions = self

        class Signer(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(sessions.clock())

        self._signer = Signer

    def get_signing_serializer(self, app: Flask) -> Any:
        serializer = super().get_signing_serializer(app)
        if serializer is not None:
            serializer.signer = self._signer
        return serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        lifetime = int(app.permanent_session_lifetime.total_seconds())
        try:
            return self.session_class(serializer.loads(cookie, max_age=lifetime))
        except SignatureExpired as error:
            signed = error.date_signed
            if signed is None or error.payload is None or signed.timestamp() <= self.clock():
                return self.session_class()  # too old
            try:
                return self.session_class(serializer.load_payload(error.payload))
            except BadSignature:
                return self.session_class()
        except BadSignature:
            return self.session_class()

    def get_expiration_time(self, app: Flask, session: Any) -> Any:
        if not session.permanent:
            return None
        expires = self.clock() + app.permanent_session_lifetime.total_seconds()
        return datetime.fromtimestamp(expires, UTC)


def _session_clock() -> float:
    return cast(TabletSessions, current_app.session_interface).clock()


def renew(response: Response) -> Response:
    """A tablet in use keeps its standing: the first request of a day from a tablet known
    here signs its cookie again, and its expiry moves on by the whole lifetime. (Not more
    often: only a request that changes the session sends the cookie back, so a slow read
    cannot put back an older session: `SESSION_REFRESH_EACH_REQUEST` in app.py.)"""
    if request.endpoint in (None, "static") or "tablet" not in session:
        return response
    now, signed = _session_clock(), session.get("signed")
    if isinstance(signed, int | float) and now - signed < RENEW_AFTER:
        return response  # signed lately (or "in the future": left alone until the clock syncs)
    if tablets().get(session.get("tablet")) is not None:
        session["signed"] = int(now)
        session.permanent = True
    return response


# ------------------------------------------------------------------ the request's tablet


def settings() -> TableSettings:
    return current_app.extensions["settings"]  # type: ignore[no-any-return]


def tablets() -> Tablets:
    return current_app.extensions["tablets"]  # type: ignore[no-any-return]


def grant() -> Grant | None:
    """This request's tablet, if it was ever unlocked here."""
    return tablets().get(session.get("tablet"))


def is_admin() -> bool:
    mine, epoch = grant(), settings().admin_epoch
    return mine is not None and epoch is not None and mine.admin == epoch


def unlocked() -> bool:
    mine = grant()
    return mine is not None and (mine.pin == settings().epoch or is_admin())


def actor() -> str:
    mine = grant()
    return mine.actor if mine else "tablet:?"


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str) or not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    """Refuse a state-changing request without this session's token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    token = session.get("csrf")
    if not isinstance(token, str) or not hmac.compare_digest(
        token.encode(), sent.encode("utf-8", "replace")
    ):
        raise Forbidden("missing or stale CSRF token: reload the page")


def needs_pin(view: F) -> F:
    """A player's action: the table PIN (or the admin password) unlocked this tablet."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not unlocked():
            raise Forbidden("enter the table PIN first")
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def needs_admin(view: F) -> F:
    """The admin's action: this tablet logged in with the current admin password."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_admin():
            raise Forbidden("only the admin may do this: log in on the admin page")
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _known_id() -> str | None:
    mine = grant()
    return mine.id if mine else None


def try_pin(pin: str) -> None:
    guard: Guard = current_app.extensions["pin_guard"]
    if not _evaluate(guard, lambda: settings().matches(pin)):
        raise Forbidden("wrong PIN")
    _grant(pin=settings().epoch)


def try_admin(password: str) -> None:
    if settings().admin_epoch is None:
        raise Forbidden("no admin password is set: add service.admin_password to the config")
    guard: Guard = current_app.extensions["password_guard"]
    if not _evaluate(guard, lambda: settings().password_matches(password)):
        raise Forbidden("wrong password")
    _grant(pin=settings().epoch, admin=settings().admin_epoch)


def _evaluate(guard: Guard, check: Callable[[], bool]) -> bool:
    """The guard's verdict on this request's guess; a stranger's wrong or refused guess is
    noted for the journal and the unlocked tablets."""
    known = _known_id()
    report: GuessReport = current_app.extensions["guess_report"]
    address = request.remote_addr or "?"
    try:
        right = guard.evaluate(known, check)
    except TooMany:
        if known is None:
            report.note(guard.what, address, refused=True)
        raise
    if known is None and not right:
        report.note(guard.what, address, refused=False)
    return right


def admit(pin: str | None, admin: str | None) -> Grant:
    """Give this request's tablet the rights another tablet let it in with (`join.py`): the
    PIN's and the admin password's epochs of that moment."""
    _grant(pin=pin, admin=admin)
    mine = grant()
    assert mine is not None  # just granted
    return mine


def change_pin(pin: object) -> None:
    """A new table PIN: this tablet stays unlocked, every other one must enter it."""
    settings().change_pin(pin)
    _grant(pin=settings().epoch)


def name_tablet(name: str) -> None:
    _grant(name=name)


def lock() -> None:
    """This tablet forgets the PIN and the admin login, and so does any copy of its cookie."""
    fresh = tablets().revoke(session.get("tablet"))
    if fresh is None:
        session.pop("tablet", None)
    else:
        session["tablet"] = fresh


def _grant(**changes: Any) -> None:
    session["tablet"] = tablets().put(session.get("tablet"), **changes)
    session["signed"] = int(_session_clock())
    session.permanent = True


def telling(table: TableService) -> Callable[[int, str], None]:
    """How a `GuessReport` tells the open scoreboards that someone is guessing (a notice the
    unlocked tablets show; it names no address: anyone may read the stream)."""

    def tell(count: int, what: str) -> None:
        text = f"someone is guessing the {what}: {count} tries in the last minute"
        table.notice("guessing", text, count=count, what=what, at=time.time())

    return tell


def install(app: Flask) -> None:
    table = table_service(app)
    app.extensions["pin_guard"] = Guard("PIN", table=table)
    app.extensions["password_guard"] = Guard("password", table=table)
    app.extensions["tablets"] = Tablets(table)
    app.extensions["guess_report"] = GuessReport(tell=telling(table))
    app.session_interface = TabletSessions()
    app.before_request(check_csrf)
    app.after_request(renew)
    app.jinja_env.globals["csrf_token"] = csrf_token
    if app.extensions.get("demo") is None:
        for warning in app.extensions["settings"].warnings():
            log.warning("%s", warning)
