"""Reads that must not stall play (issue: an outside tester's "Reads that stall play").

- service.command_p99_history_pollers: the p99 of a tablet's commands (POST of a legal tap)
  while POLLERS anonymous clients ask GET /api/matches back to back, on a log of LOG_RECORDS
  records (a year of evenings: finished matches, then the one in play). The service is
  `uno-attack run` in its own process and the pollers another, so neither's Python shares a
  lock with the client that times. Peer: the same commands with nobody polling, in the same
  run; target ratio <= 2.
- service.undo_p99_10k: POST /api/undo of the play just made, in a match of MATCH_RECORDS
  records (target < 50 ms). Peer: the same in a match just begun, in the same run.

The logs are written straight into SQLite, in bulk, from matches the engine plays.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.bench_service import Tablet, _free_port, _wait_up
from benchmarks.latency import latency_line
from controller.store import FILE_NAME, Store
from controller.table.codec import action_to_dict
from controller.table.session import TableSession, TableSetup

LOG_RECORDS, POLLERS, COMMANDS = 100_000, 8, 500
MATCH_RECORDS, UNDOS = 10_000, 100
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
EVENING = {"players": PLAYERS, "first_dealer": 3, "seed": 7, "options": {"target": 500}}
ENDLESS = {"players": PLAYERS, "first_dealer": 3, "seed": 9, "options": {"target": 100_000}}

POLLER = """
import http.client, json, sys, threading, time
port, count = int(sys.argv[1]), int(sys.argv[2])
stop, done = threading.Event(), [0] * count
def poll(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while not stop.is_set():
        connection.request("GET", "/api/matches")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"/api/matches answered {response.status}")
        done[index] += 1
threads = [threading.Thread(target=poll, args=(i,), daemon=True) for i in range(count)]
started = time.perf_counter()
for thread in threads:
    thread.start()
print("polling", flush=True)
sys.stdin.readline()
stop.set()
for thread in threads:
    thread.join(120)
print(json.dumps({"requests": sum(done), "seconds": time.perf_counter() - started}), flush=True)
"""


def tap(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal command for this state: mostly plays, some presses of 0 to 2 cards."""
    deal = state["deal"]
    if deal is None:
        return {"type": "deal"}
    if deal["phase"] == "turn_up":
        return {"type": "action", "action": {"type": "TurnUp", "card": "R5"}}
    if deal["phase"] == "scoring":
        seat = next(s for s in range(4) if s != deal["winner"] and str(s) not in deal["shown"])
        points = 5 + rng.randrange(40)
        return {"type": "action", "action": {"type": "EnterHand", "seat": seat, "points": points}}
    plays = [m for m in deal["moves"] if m["type"] == "Play"]
    if plays and rng.random() < 0.7:
        return {"type": "action", "action": rng.choice(plays)}
    action = rng.choice(deal["moves"])
    if action["type"] == "Press":
        action = action | {"cards": rng.choice([0, 0, 1, 2])}
    return {"type": "action", "action": action}


def played(setup: dict[str, Any], count: int, seed: int) -> list[tuple[dict[str, Any], Any]]:
    """Up to `count` (command, events) of a match the engine plays (fewer if it ends)."""
    session, rng = TableSession(TableSetup.from_dict(setup)), random.Random(seed)
    out: list[tuple[dict[str, Any], Any]] = []
    while len(out) < count and not session.match.over:
        game = session.game
        state = {"deal": None}
        if game is not None:
            moves = [action_to_dict(m) for m in game.moves()]
            shown = {str(seat): 0 for seat in game.shown}
            phase = game.phase.value
            state = {"deal": {"phase": phase, "winner": game.winner, "shown": shown,
                              "moves": moves}}  # fmt: skip
        command = tap(state, rng)
        out.append((command, session.apply(command)))
    return out


def fill(path: Path, matches: list[list[tuple[dict[str, Any], Any]]]) -> int:
    """Write these matches (each after its set-up) into a new log at `path`, in bulk."""
    Store(path).close()  # the schema
    rows = []
    for setup, commands in matches:
        rows.append(("setup", {"type": "setup", "setup": setup}, [{"type": "MatchStarted"}]))
        rows.extend((str(command["type"]), command, events) for command, events in commands)
    now = time.time()
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO log (table_id, at, kind, actor, command, events)"
            " VALUES ('main', ?, ?, 'bench', ?, ?)",
            [(now, kind, json.dumps(c), json.dumps(e)) for kind, c, e in rows],
        )
    db.close()
    return len(rows)


def a_year_of_evenings(path: Path) -> int:
    """LOG_RECORDS records: finished matches of about 480 records, then one in play."""
    evening = played(EVENING, 5_000, 1)
    tonight = played(ENDLESS, 300, 2)
    setup, current = TableSetup.from_dict(EVENING).to_dict(), TableSetup.from_dict(ENDLESS)
    matches: list[Any] = []
    total = len(tonight) + 1
    while total + len(evening) + 1 <= LOG_RECORDS:
        matches.append((setup, evening))
        total += len(evening) + 1
    matches.append((setup, evening[: LOG_RECORDS - total - 1]))
    matches.append((current.to_dict(), tonight))
    return fill(path, matches)


@contextmanager
def running(data: str) -> Iterator[tuple[int, float]]:
    """`uno-attack run` on `data`: its port and how long it took to answer."""
    port = _free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--launcher", "none",
         "--host", "127.0.0.1", "--port", str(port), "--data-dir", data],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_up(port, started + 120)
        yield port, time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(15)


def commands(tablet: Tablet, rng: random.Random, count: int) -> list[float]:
    """Milliseconds each of `count` legal taps took (a deal, a play, a press, a hand...)."""
    state, millis = tablet.call("GET", "/api/state"), []
    for _ in range(count):
        command = tap(state, rng)
        path, body = ("/api/deal", {}) if command["type"] == "deal" else (
            "/api/actions", {"action": command["action"]})  # fmt: skip
        started = time.perf_counter()
        state = tablet.call("POST", path, body)["state"]
        millis.append((time.perf_counter() - started) * 1000)
    return millis


def history_pollers() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data:
        records = a_year_of_evenings(Path(data) / FILE_NAME)
        with running(data) as (port, startup):
            tablet = Tablet(port)
            tablet.call("POST", "/api/session/pin", {"pin": "1234"})
            rng = random.Random(5)
            commands(tablet, rng, 20)  # warm
            idle = commands(tablet, rng, COMMANDS)
            pollers = subprocess.Popen(
                [sys.executable, "-c", POLLER, str(port), str(POLLERS)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert pollers.stdin is not None and pollers.stdout is not None
            try:
                assert pollers.stdout.readline().strip() == "polling"
                polled = commands(tablet, rng, COMMANDS)
                pollers.stdin.write("\n")
                pollers.stdin.flush()
                tally = json.loads(pollers.stdout.readline())
            finally:
                pollers.kill()
                pollers.wait(15)
    idle_p99 = latency_line("idle", idle)["value"]
    line = latency_line(
        "service.command_p99_history_pollers", polled, records=records, pollers=POLLERS,
        polls_per_s=round(tally["requests"] / tally["seconds"], 1), commands=COMMANDS,
        first_start_s=round(startup, 2), target="ratio <= 2",
    )  # fmt: skip
    return line | {
        "peer": "the same commands, nobody polling",
        "peer_value": idle_p99,
        "ratio": round(line["value"] / max(idle_p99, 0.001), 2),
    }


def undos(tablet: Tablet, count: int) -> list[float]:
    """Milliseconds each undo of a play just made took (pressing, dealing, scoring first
    while the table waits for something else: those are not undone)."""
    rng, millis = random.Random(3), []
    state = tablet.call("GET", "/api/state")
    while len(millis) < count:
        deal = state["deal"]
        plays = [] if deal is None or deal["phase"] != "playing" else [
            m for m in deal["moves"] if m["type"] == "Play"]  # fmt: skip
        if not plays:
            command = tap(state, rng)
            path, body = ("/api/deal", {}) if command["type"] == "deal" else (
                "/api/actions", {"action": command["action"]})  # fmt: skip
            state = tablet.call("POST", path, body)["state"]
            continue
        tablet.call("POST", "/api/actions", {"action": plays[0]})
        started = time.perf_counter()
        state = tablet.call("POST", "/api/undo", {})["state"]
        millis.append((time.perf_counter() - started) * 1000)
    return millis


def undo_in_a_long_match() -> dict[str, Any]:
    setup = TableSetup.from_dict(ENDLESS).to_dict()
    timed = {}
    for size in (MATCH_RECORDS, 20):
        with tempfile.TemporaryDirectory() as data:
            fill(Path(data) / FILE_NAME, [(setup, played(ENDLESS, size - 1, 4))])
            with running(data) as (port, _):
                tablet = Tablet(port)
                tablet.call("POST", "/api/session/pin", {"pin": "1234"})
                timed[size] = undos(tablet, UNDOS)
    peer = latency_line("short", timed[20])["value"]
    line = latency_line(
        "service.undo_p99_10k", timed[MATCH_RECORDS], match_records=MATCH_RECORDS, undos=UNDOS,
        target=50,
    )  # fmt: skip
    return line | {
        "peer": "the same undos in a match of 20 records",
        "peer_value": peer,
        "ratio": round(line["value"] / max(peer, 0.001), 2),
    }


def run() -> Iterator[dict[str, Any]]:
    yield history_pollers()
    yield undo_in_a_long_match()


if __name__ == "__main__":
    for line in run():
        print(json.dumps(line))
