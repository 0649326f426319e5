"""`uno-attack run`: the table service and its scoreboard, in one process.

One process owns the GPIO lines (or the simulator), the event log and the web server (waitress,
threads sized for the scoreboards' event streams). SIGTERM and Ctrl-C stop it cleanly, motor
off; the launcher's own guards cover a harder death.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from controller.cli import UsageError
from controller.cli.tables import OpenedTables, OpenTable, web_app
from controller.config import Config, load_config
from controller.sdnotify import Notifier, Watchdog, watchdog_interval
from controller.sections import ConfigError
from controller.stops import FILE as STOP_FILE
from controller.stops import last_stop
from controller.store import StoreError
from controller.table import TableService
from web_ui.addresses import urls

if TYPE_CHECKING:
    from controller.announce import Announcer

log = logging.getLogger("uno-attack")


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "run",
        help="start the table service and the tablet scoreboard",
        description="Start the table service: launcher, event log and tablet scoreboard.",
    )
    parser.add_argument("--config", help="TOML configuration file (see config.example.toml)")
    parser.add_argument("--host", help="address to serve on (default from the config)")
    parser.add_argument("--port", type=int, help="port to serve on (default from the config)")
    parser.add_argument("--data-dir", help="where the event log lives (default from the config)")
    parser.add_argument(
        "--launcher",
        choices=("auto", "gpio", "sim", "serial", "fake-serial", "none"),
        help="launcher backend (default from the config)",
    )
    parser.add_argument("--demo", action="store_true", help="bots play on the simulated launcher")
    parser.add_argument(
        "--demo-speed",
        type=float,
        default=1.0,
        metavar="N",
        help="with --demo: bots and the simulated launcher run N times faster (default 1)",
    )
    parser.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the table on the network for hall boards (config: "
        "[service] announce)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = _config(args)
    _fit_descriptors(config)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        return _serve(config, args.demo, args.demo_speed)
    except StoreError as error:  # one line naming the file and what to do; no restart loop
        print(f"uno-attack run: error: {error}", file=sys.stderr, flush=True)
        return error.status


def _serve(config: Config, demo_table: bool, speed: float) -> int:
    started = time.monotonic()
    with OpenedTables(config, demo_table, speed) as opened:
        from web_ui.server import create_server

        tables = opened.tables
        server = create_server(
            web_app(config, opened),
            host=config.service.host,
            port=config.service.port,
            threads=config.service.threads,
            connections=config.service.connections,
            streams=config.service.streams,
        )
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        addresses = urls(config)
        for url in addresses:
            print(f"Scoreboard: {url}", flush=True)
        if len(tables) > 1:
            for table in tables:
                plan = table.plan
                print(f"Table {plan.table_id} ({plan.table.name}): "
                      f"{addresses[0]}t/{plan.table_id}/", flush=True)  # fmt: skip
        if demo_table:
            print(demo_banner(speed), flush=True)
        log.info("ready in %.2f s", time.monotonic() - started)
        notifier = systemd_hooks([table.service for table in tables], config, addresses[0])
        announcer = _announce(config, tables)
        try:
            server.run()
        finally:
            notifier.stopping()
            if announcer is not None:
                announcer.close()
            server.close()
    return 0


def _announce(config: Config, tables: list[OpenTable]) -> Announcer | None:
    """Announce the tables on the network for hall boards, unless the config says not to:
    at the address the service is bound to, or else this machine's LAN address."""
    if not config.service.announce:
        return None
    from controller.announce import AnnouncedTable, Announcer
    from web_ui.addresses import lan_addresses

    host = config.service.host
    addresses = lan_addresses() if host in ("0.0.0.0", "::", "") else [host]
    announced = [
        AnnouncedTable(t.plan.table_id, f"/t/{t.plan.table_id}/" if i else "/", t.plan.table.name)
        for i, t in enumerate(tables)
    ]
    return Announcer(announced, config.service.port, host, addresses).start()


def systemd_hooks(services: list[TableService], config: Config, url: str) -> Notifier:
    """Tell systemd we are up, keep it informed, and ping its watchdog from the owner loops
    (only while every table's turns)."""
    notifier = Notifier()
    watchdog = Watchdog(notifier, watchdog_interval())
    stopped = last_stop(config.data_path / STOP_FILE)  # written by ExecStopPost after a crash
    if stopped:
        log.warning("restarted: the last run ended badly: %s", stopped)
    prefix = f"restarted after: {stopped}; " if stopped else ""
    lost = services[0].store.lost
    if lost:  # the journal has which and why (the store said it at its start)
        first, last = lost
        prefix += f"{last - first + 1} acknowledged records missing from the event log; "
    reporter = StatusReporter(notifier, services, prefix)
    turning = EveryLoop(watchdog.tick, len(services))
    for index, service in enumerate(services):
        service.on_tick.append(partial(turning.tick, index))
    services[0].on_tick.append(reporter.tick)
    launchers = "launcher " + config.launcher.backend if len(services) == 1 else (
        f"{len(services)} tables"
    )  # fmt: skip
    notifier.ready(f"scoreboard at {url}, {launchers}")
    return notifier


class EveryLoop:
    """Calls `then()` once every one of `count` loops has ticked since the last call: a
    watchdog fed only while all the tables' owner loops turn."""

    def __init__(self, then: Callable[[], None], count: int) -> None:
        self.then, self.count = then, count
        self._lock = threading.Lock()
        self._seen: set[int] = set()

    def tick(self, loop: int) -> None:
        with self._lock:
            self._seen.add(loop)
            if len(self._seen) < self.count:
                return
            self._seen.clear()
        self.then()


class StatusReporter:
    """A `STATUS=` line for `systemctl status` whenever the tables' state says something new."""

    def __init__(self, notifier: Notifier, services: list[TableService], prefix: str = "") -> None:
        self.notifier, self.services, self.prefix = notifier, services, prefix
        self._last = ""

    def tick(self) -> None:
        if len(self.services) == 1:
            line = status_line(self.services[0].snapshot())
        else:
            line = "; ".join(
                f"{service.table_id}: {status_line(service.snapshot())}"
                for service in self.services
            )
        line = self.prefix + line
        if line != self._last:
            self._last = line
            self.notifier.status(line)


def status_line(state: dict[str, Any]) -> str:
    """A person-readable summary: the match, the deal, whose turn, the launcher."""
    launcher = f"launcher {state.get('launcher', {}).get('status', '?')}"
    setup = state.get("setup")
    if not setup:
        return f"waiting for a table to be set up; {launcher}"
    players = setup["players"]
    deal = state.get("deal")
    played = f"{state.get('deal_count', 0)} deals scored"
    if state.get("match_over"):
        return f"match over ({played}); {launcher}"
    if not deal or deal.get("to_move") is None:
        return f"{len(players)} players, {played}; {launcher}"
    seat = deal["to_move"]
    name = players[state["seating"][seat]] if state.get("seating") else players[seat]
    return f"{len(players)} players, {played}; {name} to play; {launcher}"


def demo_banner(speed: float) -> str:
    pace = "" if speed == 1 else f", {speed:g} times faster than real time"
    return (
        f"Demo: bots play on a simulated launcher{pace}. Nothing is connected to real hardware; "
        "take a seat from the scoreboard, or set up a table and the bots leave it alone."
    )


def _config(args: argparse.Namespace) -> Config:
    if not 0 < args.demo_speed <= 100:
        raise UsageError(
            f"--demo-speed must be more than 0 and at most 100, not {args.demo_speed:g}"
        )
    if args.demo_speed != 1 and not args.demo:
        raise UsageError("--demo-speed needs --demo")
    try:
        config = load_config(args.config)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    service = config.service
    if args.host:
        service = replace(service, host=args.host)
    if args.port is not None:
        if not 1 <= args.port <= 65535:
            raise UsageError(f"--port must be 1 to 65535, not {args.port}")
        service = replace(service, port=args.port)
    if args.data_dir:
        service = replace(service, data_dir=args.data_dir)
    if args.no_announce:
        service = replace(service, announce=False)
    launcher = config.launcher
    if args.launcher and config.tables:
        raise UsageError("--launcher is for a service of one table: [[tables]] name each one's")
    if args.launcher:
        launcher = replace(launcher, backend=args.launcher)
    if args.demo and launcher.backend in ("auto", "gpio"):
        launcher = replace(launcher, backend="sim")
    return replace(config, service=service, launcher=launcher)


def _fit_descriptors(config: Config) -> None:
    """Connections and streams must fit the open-file limit: say so before anything opens."""
    from web_ui.server import fit_descriptors

    service = config.service
    try:
        fit_descriptors(service.connections, service.streams, service.threads)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    """SIGTERM stops the server's loop like Ctrl-C does; the service then shuts down in order."""
    log.info("signal %d: stopping", signum)
    raise SystemExit(0)
