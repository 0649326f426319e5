"""The service against what once took it down or reset it (issue: a crash from the Wi-Fi).

- service.fd_flood_survives: `uno-attack run` in its own process; 16 event streams and 1,100
  idle connections from one address (127.0.0.1) push past descriptor 1023 (waitress's
  select() used to fail there, ending the process). The value is GET /api/state's median
  answer time under that flood as a ratio to the idle median measured in the same run; the
  line says whether the process lived and answered every request, and the most descriptors
  it held.
- service.pin_guesses_per_hour_with_restarts: an attacker with as many addresses as it likes
  restarts the service before every guess (the table service, the app and the server are
  built again on the same database; the guard's clock is simulated, the requests are real
  HTTP). Wrong PINs evaluated per hour after the first hour (target: 4 an hour at most, as
  without restarts).
"""

from __future__ import annotations

import http.client
import logging
import os
import socket
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.bench_service import bare_service
from controller.config import Config, ServiceConfig, TableConfig
from controller.store import Store
from controller.table.service import TableService
from tests.reliability.flood import connect, open_stream
from tests.reliability.loopback import Client, address
from tests.serving import serve
from tests.waiting import FakeClock
from web_ui import security
from web_ui.app import create_app

STREAMS, IDLE, REQUESTS = 16, 1100, 50
HOURS = 3  # simulated hours of guessing after the first
PIN = "8642"


def _state_ms(port: int) -> float:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"/api/state answered {response.status}")
    finally:
        connection.close()
    return (time.perf_counter() - started) * 1000


def _open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _snapshot(sock: socket.socket) -> None:
    seen = b""
    while b"event: snapshot" not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("a stream was closed before its snapshot")
        seen = seen[-32:] + chunk


def fd_flood() -> dict[str, Any]:
    sockets: list[socket.socket] = []
    with bare_service() as (process, port):
        try:
            idle = [_state_ms(port) for _ in range(REQUESTS)]
            streams = [open_stream(port, "127.0.0.1") for _ in range(STREAMS)]
            sockets += streams
            for sock in streams:
                _snapshot(sock)
            started = time.perf_counter()
            sockets += [connect(port, "127.0.0.1") for _ in range(IDLE)]
            opened = time.perf_counter() - started
            flooded, most = [], _open_files(process.pid)
            for _ in range(REQUESTS):
                try:
                    flooded.append(_state_ms(port))
                except OSError:
                    break  # the process died: counted below
                most = max(most, _open_files(process.pid))
            alive = process.poll() is None
        finally:
            for sock in sockets:
                sock.close()
    idle_ms = statistics.median(idle)
    flood_ms = statistics.median(flooded) if flooded else None
    return {
        "name": "service.fd_flood_survives",
        "value": None if flood_ms is None else round(flood_ms / idle_ms, 2),
        "unit": "x idle", "alive": alive, "answered": f"{len(flooded)}/{REQUESTS}",
        "flood_p50_ms": None if flood_ms is None else round(flood_ms, 2),
        "flood_max_ms": round(max(flooded), 2) if flooded else None,
        "idle_p50_ms": round(idle_ms, 2), "streams": STREAMS, "idle_connections": IDLE,
        "opened_in_s": round(opened, 2), "service_fds_max": most,
        "target": "alive, every request answered",
    }  # fmt: skip


def _guess_once(folder: Path, clock: FakeClock, n: int) -> tuple[int, dict[str, str]]:
    """Start the service on the database in `folder`, send one wrong PIN from a new address,
    stop it: (status, headers)."""
    with Store(folder / "uno-attack.db") as store:
        table = TableService(store).start()
        config = Config(table=TableConfig(pin=PIN), service=ServiceConfig(data_dir=str(folder)))
        app = create_app(table, config, secret_key="bench")
        app.extensions["pin_guard"] = security.Guard("PIN", clock, table)
        url, stop = serve(app, threads=8)
        try:
            port = int(url.rsplit(":", 1)[1])
            status, _, headers = Client(port, address(n)).post("/api/session/pin", {"pin": "0"})
        finally:
            stop()
            table.stop()
    return status, headers


def guesses_with_restarts() -> dict[str, Any]:
    logging.getLogger("uno-attack").setLevel(logging.ERROR)  # the default-PIN warnings
    clock, per_hour, restarts, n = FakeClock(1_800_000_000.0), [], 0, 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(1 + HOURS):
            evaluated, end = 0, clock.now + 3600
            while clock.now < end:
                n += 1
                restarts += 1
                status, headers = _guess_once(Path(folder), clock, n)
                if status == 429:
                    clock.advance(int(headers["Retry-After"]))
                else:
                    assert status == 403, status
                    evaluated += 1
            per_hour.append(evaluated)
    steady = sum(per_hour[1:]) / HOURS
    return {
        "name": "service.pin_guesses_per_hour_with_restarts", "value": round(steady, 1),
        "unit": "guesses/h", "first_hour": per_hour[0], "hours": per_hour,
        "restarts": restarts, "days_for_half_of_10000": round(5000 / (steady * 24), 1),
        "seconds": round(time.perf_counter() - started, 1),
        "target": "at most 4 an hour (before: about 25 a minute in a crash-restart loop)",
    }  # fmt: skip


def run() -> Iterator[dict[str, Any]]:
    yield fd_flood()
    yield guesses_with_restarts()
