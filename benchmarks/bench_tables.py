"""Several tables in one service (issue: tournaments across tables).

- service.tables_press_p99: one of four tables served by one process (`uno-attack run` with four
  `[[tables]]`, in this process): its UNO button's press becoming real (its debounce settled) →
  its launcher's forward motor line on, through that table's owner thread (the press consumer,
  its inbox, the match's turn, the eject policy, the ejector), suspense 0; meanwhile the three
  other tables' bots play at `--demo-speed 20` on their simulated launchers and every table's
  scoreboard stream is open (waitress, the stream loops). 300 presses at a fast human's pace
  (held 30-60 ms, 60-120 ms apart), every one firing a card. Peer: the same presses on a
  service of that one table alone (`ratio`). Target < 2 ms, as `launcher.press_to_motor_p99`.
"""

from __future__ import annotations

import json
import logging
import random
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from benchmarks.bench_service import Listener
from benchmarks.latency import latency_line
from controller.cli.tables import OpenedTables, TablePlan, open_launcher_for, web_app
from controller.config import parse_config
from controller.launcher import ButtonEvent, Launcher, load_pin_profile
from controller.table import TableService
from web_ui.server import create_server, serve_in_thread

PRESSES = 300
PER_MATCH = 50  # presses in one match (its pile holds more cards than that)
SPEED = 20.0  # the other tables' demo speed
PROFILE = load_pin_profile("hbridge")  # every table's
SETUP = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "game": "attack",
    "first_dealer": 3,
    "eject_profile": "draw-one",  # every press fires one card
}


def tables_config(count: int) -> str:
    entries = "".join(f'[[tables]]\nid = "t{n}"\nlauncher = "sim"\n' for n in range(1, count + 1))
    return f"[launcher]\nsuspense = 0\n{entries}"


def launchers(plan: TablePlan, speed: float) -> Launcher | None:
    """Every table's simulated launcher as the demo's at `SPEED` (cards ten times as fast as
    real ones, the ejector's timings alike; the press's debounce as real), the measured
    table's too, alone or not."""
    return open_launcher_for(plan, SPEED)


@contextmanager
def service(count: int, demo: bool) -> Iterator[TableService]:
    """A service of `count` tables (with `demo`, the bots play every table but the measured
    one, which a person set up), each table's stream open; the measured table's service."""
    with tempfile.TemporaryDirectory() as data:
        config = parse_config(f'[service]\ndata_dir = "{data}"\n{tables_config(count)}')
        speed = SPEED if demo else 1.0
        with OpenedTables(config, demo, speed, open_launcher=launchers) as opened:
            tables = opened.tables
            server = create_server(web_app(config, opened), host="127.0.0.1", port=0, threads=32)
            serve_in_thread(server)
            port = int(server.effective_port)
            streams = [Listener(port, f"/t/{t.plan.table_id}/api/events") for t in tables]
            try:
                for stream in streams:
                    stream.ready.wait(10)
                yield tables[0].service
            finally:
                logging.getLogger("waitress").setLevel(logging.CRITICAL)  # streams cut
                server.close()


def new_match(table: TableService) -> None:
    """A person's match (the bots leave it alone): set up, dealt, the first card turned up."""
    table.submit({"type": "setup", "setup": SETUP | {"seed": random.randrange(1 << 30)}})
    table.submit({"type": "deal"})
    table.submit({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})


def press_to_motor(table: TableService, presses: int = PRESSES) -> list[float]:
    """Milliseconds from each press becoming real to the motor line on."""
    launcher = table.launcher
    assert launcher is not None and launcher.simulator is not None
    machine = launcher.simulator
    settle = PROFILE.press.debounce_ms / 1e3
    stamps: list[float] = []
    first_on: list[float] = []
    motor_on = threading.Event()

    def on_motor(t: float, speed: float) -> None:
        if speed > 0 and not motor_on.is_set():
            first_on.append(t)
            motor_on.set()

    machine.add_motor_listener(on_motor)

    def on_press(event: ButtonEvent) -> None:
        if event.kind == "press":
            stamps.append(event.t)

    launcher.add_press_consumer(on_press)
    rng = random.Random(3)
    latencies = []
    for done in range(presses):
        if done % PER_MATCH == 0:
            new_match(table)
        seq = table.snapshot()["seq"]
        motor_on.clear()
        machine.hold_button()
        if not motor_on.wait(5.0):
            raise RuntimeError("the motor did not start after a press")
        time.sleep(rng.uniform(0.03, 0.06))
        machine.release_button()
        deadline = time.monotonic() + 10
        while table.snapshot()["seq"] == seq:  # the press's record
            if time.monotonic() > deadline:
                raise RuntimeError("the press was not recorded")
            time.sleep(0.001)
        latencies.append((first_on[-1] - stamps[-1] - settle) * 1e3)
        time.sleep(rng.uniform(0.06, 0.12))
    return latencies


def tables_press() -> dict[str, Any]:
    with service(4, demo=True) as table:
        busy = press_to_motor(table)
    with service(1, demo=False) as table:
        alone = press_to_motor(table)
    peer = latency_line("alone", alone)
    line = latency_line(
        "service.tables_press_p99", busy, presses=PRESSES, tables=4, demo_speed=SPEED,
        target="< 2",
    )  # fmt: skip
    return line | {
        "peer": "service.press_p99_one_table",
        "peer_value": peer["value"],
        "ratio": round(line["value"] / peer["value"], 2) if peer["value"] else None,
    }


def run() -> Iterator[dict[str, Any]]:
    yield tables_press()


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
