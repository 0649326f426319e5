"""The table service under load (issue: table service and scoreboard).

- service.press_to_tablet_p99: the UNO button's pin driven low on the simulated launcher →
  the press's record received by all of 10 SSE clients (a real waitress server on loopback).
  The eject policy answers "no card" so the figure is the software path, not motor time.
- service.action_p99: POST of a legal play → 200, with 10 SSE clients connected.
- service.rss_mb: the service process's peak RSS after a 10-deal match played over HTTP.
- service.startup_s: `uno-attack run` started → first 200 on /api/state.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.latency import latency_line
from controller.config import Config
from controller.launcher import open_launcher
from controller.launcher.sim import SimOptions
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.service import TableService
from web_ui.app import create_app
from web_ui.server import create_server, serve_in_thread

CLIENTS = 10
SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 3, "seed": 1}


class Listener(threading.Thread):
    """An SSE client that stamps the arrival of every record id."""

    def __init__(self, port: int, path: str = "/api/events") -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode()
                if line.startswith("event: snapshot"):
                    self.ready.set()
                elif line.startswith("id: "):
                    self.arrived[int(line[4:])] = time.perf_counter()
        except (OSError, ValueError):
            return


class Tablet:
    def __init__(self, port: int, source: str | None = None) -> None:
        address = None if source is None else (source, 0)
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=address
        )
        self.cookie = ""
        self.csrf = self.call("GET", "/api/session")["csrf"]

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        payload = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {payload}")
        return payload


@contextmanager
def serving(launcher: Any = None, policy: Any = None) -> Iterator[tuple[TableService, int]]:
    with tempfile.TemporaryDirectory() as data:
        store = Store(Path(data) / "uno-attack.db")
        table = TableService(store, launcher=launcher, policy=policy).start()
        app = create_app(table, Config(), secret_key="bench")
        server = create_server(app, host="127.0.0.1", port=0, threads=32)
        serve_in_thread(server)
        try:
            yield table, int(server.effective_port)
        finally:
            logging.getLogger("waitress").setLevel(logging.CRITICAL)  # streams cut at shutdown
            server.close()
            table.stop()
            store.close()


def listeners(port: int) -> list[Listener]:
    clients = [Listener(port) for _ in range(CLIENTS)]
    for client in clients:
        client.ready.wait(10)
    return clients


def start_match(table: TableService) -> None:
    table.submit({"type": "setup", "setup": SETUP})
    table.submit({"type": "deal"})
    table.submit({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})


def press_to_tablet(presses: int = 300) -> dict[str, Any]:
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=10.0))
    try:
        with serving(launcher, ScriptedPolicy([0] * (presses + 10))) as (table, port):
            start_match(table)
            clients = listeners(port)
            simulator = launcher.simulator  # type: ignore[attr-defined]
            latencies = []
            for _ in range(presses):
                expected = table.snapshot()["seq"] + 1
                started = time.perf_counter()
                simulator.hold_button()
                while not all(expected in c.arrived for c in clients):
                    time.sleep(0.0002)
                latencies.append(max(c.arrived[expected] for c in clients) - started)
                simulator.release_button()
                time.sleep(0.03)  # the button's debounce lock-out
    finally:
        launcher.close()
    return latency_line(
        "service.press_to_tablet_p99", [s * 1000 for s in latencies],
        presses=presses, clients=CLIENTS, target=50,
    )  # fmt: skip


def _plays(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """The plain plays the table offers the player to move (real cards with copies left)."""
    plain = {"type": "Play", "seat": deal["to_move"], "group": [], "also": [], "colour": None,
             "target": None}  # fmt: skip
    return [m for m in deal["moves"] if plain.items() <= m.items()]


def _next_tap(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    deal = state["deal"]
    seat, plays = deal["to_move"], _plays(deal)
    if deal["hands"][seat] > 3 and plays:
        return {"type": "Play", "seat": seat, "card": rng.choice(plays)["card"]}
    return {"type": "Press", "seat": seat, "cards": 3}


def action_latency(posts: int = 400) -> dict[str, Any]:
    rng = random.Random(1)
    with serving() as (table, port):
        start_match(table)
        clients = listeners(port)
        tablet = Tablet(port)
        tablet.call("POST", "/api/session/pin", {"pin": "1234"})
        state, latencies = table.snapshot(), []
        for _ in range(posts):
            body = {"action": _next_tap(state, rng)}
            started = time.perf_counter()
            state = tablet.call("POST", "/api/actions", body)["state"]
            latencies.append(time.perf_counter() - started)
        del clients
    return latency_line(
        "service.action_p99", [s * 1000 for s in latencies],
        posts=posts, clients=CLIENTS, target=30,
    )  # fmt: skip


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_up(port: int, deadline: float) -> None:
    while time.perf_counter() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/api/state")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("the service did not start")


def _play_deal(tablet: Tablet) -> None:
    tablet.call("POST", "/api/deal", {})
    tablet.call("POST", "/api/actions", {"action": {"type": "TurnUp", "card": "R5"}})
    state = tablet.call("GET", "/api/state")
    while state["deal"] and state["deal"]["phase"] == "playing":
        seat, plays = state["deal"]["to_move"], _plays(state["deal"])
        tap = {"type": "Play", "seat": seat, "card": plays[0]["card"]} if plays else \
            {"type": "Press", "seat": seat, "cards": 1}  # fmt: skip
        state = tablet.call("POST", "/api/actions", {"action": tap})["state"]
    while state["deal"] and state["deal"]["phase"] == "scoring":
        seat = next(s for s in range(4) if s != state["deal"]["winner"]
                    and str(s) not in state["deal"]["shown"])  # fmt: skip
        tap = {"type": "EnterHand", "seat": seat, "points": 25}
        state = tablet.call("POST", "/api/actions", {"action": tap})["state"]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory now (or its peak, `VmHWM`), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    kb = next(line.split()[1] for line in status.splitlines() if line.startswith(field))
    return int(kb) / 1024


@contextmanager
def bare_service(config: str = "") -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`uno-attack run` without a launcher on a free loopback port, once it answers; `config`
    holds its [service] lines."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        path = Path(data) / "uno.toml"
        path.write_text(f"[service]\n{config}\n", encoding="utf-8")
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(path),
             "--launcher", "none", "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", data],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            _wait_up(port, time.perf_counter() + 30)
            yield process, port
        finally:
            process.terminate()
            process.wait(15)


def service_process() -> Iterator[dict[str, Any]]:
    started = time.perf_counter()
    with bare_service() as (process, port):
        startup = time.perf_counter() - started
        tablet = Tablet(port)
        tablet.call("POST", "/api/session/pin", {"pin": "1234"})
        setup = SETUP | {"options": {"target": 100_000}}
        tablet.call("POST", "/api/setup", {"setup": setup})
        for _ in range(10):
            _play_deal(tablet)
        assert len(tablet.call("GET", "/api/state")["deals"]) == 10
        peak_mb = rss_mb(process.pid, "VmHWM")
    yield {"name": "service.rss_mb", "value": round(peak_mb, 1), "unit": "MB",
           "deals": 10, "target": 80}  # fmt: skip
    yield {"name": "service.startup_s", "value": round(startup, 2), "unit": "s", "target": 2}


def run() -> Iterator[dict[str, Any]]:
    yield press_to_tablet()
    yield action_latency()
    yield from service_process()


if __name__ == "__main__":
    for line in run():
        print(json.dumps(line))
