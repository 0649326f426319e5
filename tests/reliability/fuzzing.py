"""An endpoint fuzzer: hypothesis makes requests to every endpoint of a real app (a real table
service, a real SQLite store), as a stranger, a player or the admin, with bodies that are
nearly right, plainly wrong or hostile; `Probe.send` asserts that no answer is a 5xx and that
a refused request changed nothing (the log, the settings, the tablets' grants, the presets).

Used by tests/reliability/test_fuzz.py and by the `service.fuzz_5xx` benchmark.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tempfile
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import Config, ServiceConfig, TableConfig
from controller.engine import Action
from controller.store import Store
from controller.table.service import TableService
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app

PIN, PASSWORD = "2468", "a fine admin password"
SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}
ROLES = ("stranger", "player", "admin")
FIELDS = (
    "pin",
    "password",
    "language",
    "name",
    "setup",
    "action",
    "key",
    "winner",
    "points",
    "cards",
    "seat",
    "options",
    "game",
    "players",
    "type",
    "card",
    "colour",
    "target",
    "count",
    "mode",
    "profile",
    "eject_profile",
    "first_dealer",
    "seed",
    "also",
    "group",
    "uno",
    "guilty",
)
CARDS = (
    "R5",
    "R7",
    "B5",
    "Y0",
    "G9",
    "RS",
    "RR",
    "R+2",
    "RH2",
    "RTH",
    "RDA",
    "W",
    "W4",
    "WAH",
    "WHF",
    "?",
    "BH2",
    "GDA",
    "R",
    "",
    "5R",
    "W+4",
)
ACTIONS = [cls.__name__ for cls in typing.get_args(Action)]
HOSTILE_TEXT = (
    "\ud800",
    "a\nb",
    "\u202e",
    "\u200b",
    "²",
    "１２３４",
    "\x00",
    "é" * 40,
    "9" * 30,
    "1234",
    PIN,
    "en",
    "zh-CN",
    "classic",
    "attack",
    "score_only",
    "toy",
)


def text() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(HOSTILE_TEXT), st.sampled_from(CARDS), st.text(max_size=30))


def valid_text() -> st.SearchStrategy[str]:
    """Text a URL can carry (percent-encoded UTF-8): no unpaired surrogates."""
    return text().filter(lambda t: not any("\ud800" <= c <= "\udfff" for c in t))


def wire_text() -> st.SearchStrategy[str]:
    """Text as a header or query string carries it: UTF-8 bytes seen as Latin-1, one line."""
    return (
        text()
        .map(lambda t: t.encode("utf-8", "replace").decode("latin-1"))
        .filter(lambda t: not any(c in t for c in "\r\n\x00"))
    )


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.integers(-3, 12),
        st.floats(allow_nan=True, allow_infinity=True),
        text(),
    )


def json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=5),
            st.dictionaries(st.one_of(st.sampled_from(FIELDS), text()), inner, max_size=5),
        ),
        max_leaves=12,
    )


ACTION_FIELDS = (
    "seat",
    "card",
    "colour",
    "target",
    "count",
    "also",
    "group",
    "uno",
    "guilty",
    "cards",
    "points",
)


@st.composite
def actions(draw: st.DrawFn) -> dict[str, Any]:
    """An engine action that is nearly right: a known type and plausible fields."""
    action: dict[str, Any] = {"type": draw(st.sampled_from(ACTIONS))}
    action["seat"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        action["card"] = draw(st.sampled_from(CARDS))
    for name in draw(st.sets(st.sampled_from(ACTION_FIELDS), max_size=3)):
        action[name] = draw(
            st.one_of(
                st.integers(-1, 5),
                st.sampled_from(CARDS),
                st.sampled_from("RYGB"),
                st.lists(st.sampled_from(CARDS), max_size=3),
                scalars(),
            )
        )
    return action


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    setup: dict[str, Any] = dict(SETUP)
    setup["players"] = draw(
        st.one_of(
            st.lists(text(), min_size=0, max_size=11),
            st.just(SETUP["players"]),
            st.just(["Ann", "Bob"]),
            st.just(["Zoë", "Zoe\u0308"]),
            st.just(["Ann", "ann", "Cy"]),
        )
    )
    for name in draw(
        st.sets(
            st.sampled_from(
                (
                    "game",
                    "mode",
                    "eject_profile",
                    "profile",
                    "options",
                    "seed",
                    "first_dealer",
                    "bogus",
                )
            ),
            max_size=3,
        )
    ):
        setup[name] = draw(st.one_of(scalars(), st.dictionaries(text(), scalars(), max_size=3)))
    return setup


@functools.cache
def bodies(path: str) -> st.SearchStrategy[Any]:
    """Bodies for `path`: mostly shaped like what it wants, sometimes anything at all."""
    shaped: dict[str, st.SearchStrategy[Any]] = {
        "/api/actions": st.fixed_dictionaries({"action": actions()}),
        "/api/setup": st.fixed_dictionaries({"setup": setups()}),
        "/api/presets": st.fixed_dictionaries(
            {
                "name": text(),
                "options": st.one_of(
                    st.dictionaries(
                        st.sampled_from(("stack_s0", "stack_s1", "target", "x")),
                        scalars(),
                        max_size=3,
                    ),
                    json_values(),
                ),
            }
        ),
        "/api/rounds": st.fixed_dictionaries(
            {
                "winner": st.integers(-1, 4),
                "points": st.lists(st.integers(-5, 90), max_size=5),
                "cards": json_values(),
            }
        ),
    }
    right = shaped.get(path, st.nothing())
    return st.one_of(
        right,
        right,
        right,
        json_values(),
        st.dictionaries(st.sampled_from(FIELDS), json_values(), max_size=4),
    )


@dataclass(frozen=True)
class Request:
    role: str
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None


def endpoints(app: Flask) -> list[tuple[str, str]]:
    """Every (method, path) the app serves; a path's variables filled with something."""
    found = []
    for rule in app.url_map.iter_rules():
        path = rule.rule.replace("<path:filename>", "js/api.js")
        found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


def requests(
    app: Flask,
    legal: Callable[[], list[dict[str, Any]]],
    target: tuple[str, str] | None = None,
) -> st.SearchStrategy[Request]:
    """Requests to `target` (a method and path), or to any endpoint; `legal` gives the moves
    the game allows now, so that play goes on and the fuzzer reaches deeper than the first
    refusal."""
    plays = [("POST", path) for path in ("/api/actions", "/api/actions", "/api/undo", "/api/deal")]
    targets = st.just(target) if target else st.sampled_from(endpoints(app) + plays * 4)
    numbers = st.one_of(st.sampled_from(("²", "１", "0", "50", "9" * 5000, "-1")), valid_text())
    queries = st.dictionaries(st.sampled_from(("limit", "last", "x")), numbers, max_size=2)
    fresh = st.uuids().map(str)
    keys = st.one_of(fresh, fresh, fresh, st.sampled_from(("tap-0000001", "k")), wire_text())
    lasts = st.one_of(st.sampled_from(("0", "1" * 40, "²")), wire_text())
    roles = st.sampled_from(ROLES)

    @st.composite
    def one(draw: st.DrawFn) -> Request:
        method, path = draw(targets)
        headers: dict[str, str] = {}
        if draw(st.booleans()):
            headers["Idempotency-Key"] = draw(keys)
        if draw(st.integers(0, 9)) == 0:
            headers["Last-Event-ID"] = draw(lasts)
        if draw(st.integers(0, 9)) == 0:
            headers["X-CSRF-Token"] = draw(wire_text())
        body = None
        if method == "POST":
            kind, moves = draw(st.integers(0, 19)), legal()
            if kind == 0:
                body = draw(st.binary(max_size=40))
            elif kind == 1:
                depth = draw(st.integers(30, 1500))
                body = ("[" * depth + "]" * depth).encode()
            elif kind < 8 and path == "/api/actions":  # draws the same whatever the state
                pick = draw(st.integers(0, 999))
                move = moves[pick % len(moves)] if moves else {"type": "Pass", "seat": 0}
                body = json.dumps({"action": move}).encode()
            else:
                body = json.dumps(draw(bodies(path))).encode()
        return Request(draw(roles), method, path, draw(queries), headers, body)

    return one()


class Probe:
    """A real app on a real table service and store, with a stranger, a player and the admin."""

    def __init__(self, folder: Path | None = None, *, strict: bool = True) -> None:
        self.strict = strict  # raise at the first finding (tests), or count them (benchmarks)
        self.findings: list[str] = []
        self.folder = folder or Path(tempfile.mkdtemp(prefix="uno-fuzz-"))
        self.store = Store(self.folder / "uno-attack.db")
        self.table = TableService(self.store).start()
        service = ServiceConfig(data_dir=str(self.folder), admin_password=PASSWORD)
        config = Config(table=TableConfig(pin=PIN), service=service)
        self.app = create_app(self.table, config, secret_key="fuzz-secret")
        self.app.config["SSE_HEARTBEAT"] = 0.01
        self.clock = FakeClock(0.0)
        for name in ("pin_guard", "password_guard"):
            self.app.extensions[name] = security.Guard(name, self.clock)
        self.clients = {role: self.app.test_client() for role in ROLES}
        self.csrf = {role: "" for role in ROLES}
        self.pin = PIN
        self.sent = 0
        self.statuses: dict[int, int] = {}
        self.log_in()
        self._request("player", "POST", "/api/setup", body=json.dumps({"setup": SETUP}).encode())
        self._request("player", "POST", "/api/deal", body=b"{}")

    def close(self) -> None:
        self.table.stop()
        self.store.close()

    def log_in(self) -> None:
        """The player and the admin (again) hold their rights: a day later, so no earlier wrong
        guess of theirs stands in the way."""
        self.clock.advance(security.FORGET)
        for role in ROLES:
            client = self.clients[role]
            self.csrf[role] = client.get("/api/session").get_json()["csrf"]
        self._request(
            "player", "POST", "/api/session/pin", body=json.dumps({"pin": self.pin}).encode()
        )
        self._request(
            "admin", "POST", "/api/session/admin", body=json.dumps({"password": PASSWORD}).encode()
        )

    def _request(
        self,
        role: str,
        method: str,
        path: str,
        *,
        query: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> Any:
        sent = {"Content-Type": "application/json"} if body is not None else {}
        sent["X-CSRF-Token"] = self.csrf[role]
        sent |= headers or {}
        environ = {"waitress.client_disconnected": lambda: True}  # a stream ends after its snapshot
        response = self.clients[role].open(
            path,
            method=method,
            query_string=query or {},
            headers=sent,
            data=body,
            environ_base=environ,
        )
        response.get_data()
        response.close()
        return response

    def legal(self) -> list[dict[str, Any]]:
        """The moves the game allows now, and a turned-up card when it waits for one."""
        deal = self.table.snapshot().get("deal") or {}
        moves = list(deal.get("moves") or [])
        if deal.get("phase") == "turn_up":
            moves.append({"type": "TurnUp", "card": "R5"})
        return moves

    def requests(self, target: tuple[str, str] | None = None) -> st.SearchStrategy[Request]:
        return requests(self.app, self.legal, target)

    def fuzz(self, examples: int, target: tuple[str, str] | None = None) -> None:
        """Send `examples` requests drawn by hypothesis (to `target`, or anywhere)."""

        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(self.requests(target))
        def fuzz(request: Request) -> None:
            self.send(request)

        fuzz()

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything a refused request must leave as it was."""
        presets = sorted(
            (p.name, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in (self.folder / "presets").glob("*")
        )
        settings = [self.store.setting(k) for k in ("table_pin_hash", "language", "tablets")]
        return self.store.last_seq(), settings, presets, self.table.snapshot().get("seq")

    def send(self, request: Request) -> int:
        """Send one request; check no 5xx, and no change if refused. Returns the status."""
        before = self.fingerprint()
        response = self._request(
            request.role,
            request.method,
            request.path,
            query=request.query,
            headers=request.headers,
            body=request.body,
        )
        status = response.status_code
        self.sent += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 500:
            self._found(f"{status} for {request}: {response.get_data(as_text=True)[:300]}")
        if status >= 400 and self.fingerprint() != before:
            self._found(f"refused ({status}) but changed: {request}")
        if status < 400 and request.path in (
            "/api/settings/pin",
            "/session/lock",
            "/api/session/pin",
        ):
            if request.path == "/api/settings/pin":
                self.pin = json.loads(request.body or b"{}")["pin"]
            self.log_in()
        return status

    def _found(self, finding: str) -> None:
        assert not self.strict, finding
        self.findings.append(finding)
