"""The service's availability under load (issue: the table service on a real home network).

- service.state_p99_under_flood: GET /api/state (a new connection each) while 200 event
  streams that never read and 100 half-open requests trickling a byte every 2 s are open, each
  from its own loopback address; the cut-off half-open ones are reopened at once. The service
  is `uno-attack run` in its own process. Peer: the same flood against the previous serving
  (waitress, a worker thread per stream, 32 threads, waitress's default limits); a request
  that gets no answer within PEER_TIMEOUT counts as PEER_TIMEOUT.
- service.history_p99_100k / service.undo_p99_100k: GET /api/history and POST /api/undo (each
  undoing the play just made) through the real server, on a 100,000-record log whose current
  match holds CURRENT records (earlier matches fill the rest).
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.bench_service import Tablet, _free_port, _wait_up
from benchmarks.latency import latency_line
from controller.config import Config
from controller.store import FILE_NAME, Store
from controller.table.codec import action_to_dict
from controller.table.service import TableService
from controller.table.session import TableSession, TableSetup
from tests.reliability.flood import Flood
from web_ui.app import create_app
from web_ui.server import create_server, serve_in_thread

STREAMS, SLOW = 200, 100
REQUESTS = 300
PEER_REQUESTS, PEER_TIMEOUT = 20, 2.0
LOG_RECORDS, CURRENT = 100_000, 1_000
SETUP = {"players": ["Ann", "Bob", "Cy", "Di"], "first_dealer": 3, "seed": 7,
         "options": {"target": 100_000}}  # fmt: skip

PEER = """
import sys
from pathlib import Path
from waitress import serve
from controller.config import Config
from controller.store import Store
from controller.table.service import TableService
from web_ui.app import create_app
table = TableService(Store(Path(sys.argv[2]) / "uno-attack.db")).start()
app = create_app(table, Config(), secret_key="bench")
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=32, channel_request_lookahead=1)
"""


def get_state(port: int, timeout: float) -> float:
    """Seconds one GET /api/state took on a new connection (`timeout` if it got no answer)."""
    started = time.perf_counter()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200:
            raise RuntimeError(f"/api/state answered {response.status}")
    except TimeoutError:
        return timeout
    return time.perf_counter() - started


def flooded(command: list[str], requests: int, timeout: float) -> tuple[list[float], Flood]:
    """Start `command` (a server on the port it is given), flood it, time /api/state."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [part.replace("{port}", str(port)).replace("{data}", data) for part in command],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            _wait_up(port, time.perf_counter() + 30)
            flood = Flood(port, STREAMS, SLOW)
            flood.trickle_every(2.0, refill=True)
            time.sleep(1.0)  # the streams reach the server
            try:
                latencies = [get_state(port, timeout) for _ in range(requests)]
            finally:
                flood.close()
        finally:
            process.kill()
            process.wait(15)
    return [s * 1000 for s in latencies], flood


def state_under_flood() -> dict[str, Any]:
    ours = [sys.executable, "-m", "controller.cli", "run", "--launcher", "none", "--host",
            "127.0.0.1", "--port", "{port}", "--data-dir", "{data}"]  # fmt: skip
    millis, flood = flooded(ours, REQUESTS, 30.0)
    peer, _ = flooded([sys.executable, "-c", PEER, "{port}", "{data}"], PEER_REQUESTS, PEER_TIMEOUT)
    peer_p99 = latency_line("peer", peer)["value"]
    line = latency_line(
        "service.state_p99_under_flood", millis, streams=STREAMS, slow=SLOW,
        slow_reopened=flood.reopened, requests=REQUESTS, target=100,
    )  # fmt: skip
    unanswered = sum(1 for m in peer if m >= PEER_TIMEOUT * 1000)
    return line | {
        "peer": f"thread per stream (waitress, 32 threads); {unanswered}/{len(peer)} unanswered",
        "peer_value": peer_p99,
        "ratio": round(peer_p99 / max(line["value"], 0.001), 1),
    }


def match_commands(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` commands of a match played at random by the engine (all legal)."""
    session, rng = TableSession(TableSetup.from_dict(SETUP)), random.Random(seed)
    commands: list[dict[str, Any]] = []
    while len(commands) < count or not _playing(session):
        game = session.game
        if game is None:
            command: dict[str, Any] = {"type": "deal"}
        elif game.phase.value == "turn_up":
            command = {"type": "action", "action": {"type": "TurnUp", "card": "R5"}}
        elif game.phase.value == "scoring":
            seat = next(s for s in range(4) if s not in game.shown and s != game.winner)
            command = {"type": "action", "action": {"type": "EnterHand", "seat": seat,
                                                    "points": 5}}  # fmt: skip
        else:
            action = action_to_dict(rng.choice(game.moves()))
            command = {"type": "action", "action": action}
        events = session.apply(command)
        commands.append(command | {"_events": events})
    return commands


def _playing(session: TableSession) -> bool:
    return session.game is not None and session.game.phase.value == "playing"


def fill_log(path: Path) -> None:
    """100,000 records: earlier matches, then the current one (CURRENT records)."""
    Store(path).close()  # the schema
    match = match_commands(CURRENT, 1)
    setup = {"type": "setup", "setup": TableSetup.from_dict(SETUP).to_dict()}
    rows: list[tuple[Any, ...]] = []
    while len(rows) < LOG_RECORDS - len(match) - 1:
        rows.append(("setup", setup, [{"type": "MatchStarted"}]))
        rows.extend((c["type"], c, c["_events"]) for c in match[: 1 + len(rows) % 500])
    rows = rows[: LOG_RECORDS - len(match) - 1]
    rows.append(("setup", setup, [{"type": "MatchStarted"}]))
    rows.extend((c["type"], c, c["_events"]) for c in match)
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO log (table_id, at, kind, actor, command, events)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [("main", time.time(), kind, "bench", json.dumps({k: v for k, v in command.items()
              if k != "_events"}), json.dumps(events)) for kind, command, events in rows],
        )  # fmt: skip
    db.close()


def big_log() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as data:
        fill_log(Path(data) / FILE_NAME)
        store = Store(Path(data) / FILE_NAME)
        table = TableService(store).start()
        app = create_app(table, Config(), secret_key="bench")
        server = create_server(app, host="127.0.0.1", port=0, threads=8)
        serve_in_thread(server)
        try:
            tablet = Tablet(int(server.effective_port))
            tablet.call("POST", "/api/session/pin", {"pin": "1234"})
            size = {"records": store.last_seq(), "match_records": CURRENT + 1, "target": 50}
            yield latency_line("service.history_p99_100k", timed(tablet, history_once, 200), **size)
            yield latency_line("service.undo_p99_100k", timed(tablet, undo_once, 100), **size)
        finally:
            server.close()
            table.stop()
            store.close()


def history_once(tablet: Tablet) -> float:
    started = time.perf_counter()
    records = tablet.call("GET", "/api/history?limit=50")["records"]
    assert len(records) == 50
    return time.perf_counter() - started


def undo_once(tablet: Tablet) -> float:
    """Make a play (pressing first while a press is owed: presses are not undone), then time
    the undo of it."""
    while True:
        moves = tablet.call("GET", "/api/state")["deal"]["moves"]
        plays = [m for m in moves if m["type"] != "Press"]
        if plays:
            break
        tablet.call("POST", "/api/actions", {"action": moves[0] | {"cards": 1}})
    tablet.call("POST", "/api/actions", {"action": plays[0]})
    started = time.perf_counter()
    tablet.call("POST", "/api/undo", {})
    return time.perf_counter() - started


def timed(tablet: Tablet, once: Any, times: int) -> list[float]:
    return [once(tablet) * 1000 for _ in range(times)]


def run() -> Iterator[dict[str, Any]]:
    yield from big_log()
    yield state_under_flood()


if __name__ == "__main__":
    for line in run():
        print(json.dumps(line))
