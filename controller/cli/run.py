"""`uno-attack run`: the table service and its scoreboard, in one process.

One process owns the GPIO lines (or the simulator), the event log and the web server (waitress,
threads sized for the scoreboards' event streams). SIGTERM and Ctrl-C stop it cleanly, motor
off; the launcher's own guards cover a harder death.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import signal
import sys
import time
from dataclasses import replace
from typing import Any

from controller.cli import UsageError
from controller.config import Config, load_config
from controller.launcher import LauncherError, load_pin_profile
from controller.launcher.guard import open_guarded
from controller.launcher.sim import SimOptions
from controller.policy import ProfileError
from controller.policy.custom_profiles import ProfileShelf, read_entry
from controller.sdnotify import Notifier, Watchdog, watchdog_interval
from controller.sections import ConfigError
from controller.stops import FILE as STOP_FILE
from controller.stops import last_stop
from controller.store import FILE_NAME, Store, StoreError
from controller.table import DemoTable, TableService
from web_ui.addresses import urls

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
    with _opened(config, demo_table, speed) as (service, demo):
        from web_ui.app import create_app
        from web_ui.server import create_server

        app = create_app(service, config, secret_key=_secret(service), demo=demo)
        server = create_server(
            app,
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
        if demo is not None:
            print(demo_banner(speed), flush=True)
        log.info("ready in %.2f s", time.monotonic() - started)
        notifier = systemd_hooks(service, config, addresses[0])
        try:
            server.run()
        finally:
            notifier.stopping()
            server.close()
    return 0


def systemd_hooks(service: TableService, config: Config, url: str) -> Notifier:
    """Tell systemd we are up, keep it informed, and ping its watchdog from the owner loop."""
    notifier = Notifier()
    watchdog = Watchdog(notifier, watchdog_interval())
    stopped = last_stop(config.data_path / STOP_FILE)  # written by ExecStopPost after a crash
    if stopped:
        log.warning("restarted: the last run ended badly: %s", stopped)
    prefix = f"restarted after: {stopped}; " if stopped else ""
    if service.store.lost:  # the journal has which and why (the store said it at its start)
        first, last = service.store.lost
        prefix += f"{last - first + 1} acknowledged records missing from the event log; "
    reporter = StatusReporter(notifier, service, prefix)
    service.on_tick.extend([watchdog.tick, reporter.tick])
    notifier.ready(f"scoreboard at {url}, launcher {config.launcher.backend}")
    return notifier


class StatusReporter:
    """A `STATUS=` line for `systemctl status` whenever the table's state says something new."""

    def __init__(self, notifier: Notifier, service: TableService, prefix: str = "") -> None:
        self.notifier, self.service, self.prefix = notifier, service, prefix
        self._last = ""

    def tick(self) -> None:
        line = self.prefix + status_line(self.service.snapshot())
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
    launcher = config.launcher
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


class _opened:
    """Store, launcher and table service, closed in reverse order whatever happens."""

    def __init__(self, config: Config, demo: bool, speed: float = 1.0) -> None:
        self.config, self.demo, self.speed = config, demo, speed
        self.closers: list[Any] = []

    def __enter__(self) -> tuple[TableService, DemoTable | None]:
        try:
            return self._open()
        except BaseException:
            self.__exit__()
            raise

    def _open(self) -> tuple[TableService, DemoTable | None]:
        config = self.config
        # Only the demo makes its data directory: a missing one elsewhere is a disk that
        # was not mounted, and starting an empty log there would hide the real one.
        store = Store(config.data_path / FILE_NAME, create_dir=self.demo)
        self.closers.append(store.close)
        shelf, eject_profile = eject_profiles(config)
        launcher = None
        if config.launcher.backend != "none":
            try:
                # a guard process stops the motor if this one dies
                launcher = open_guarded(**_launcher_args(config, self.speed))
            except (LauncherError, ValueError, OSError) as error:
                raise UsageError(f"cannot open the launcher: {error}") from None
            self.closers.append(launcher.close)
        service = TableService(
            store,
            launcher=launcher,
            suspense=config.launcher.suspense / self.speed,
            deal_pause=config.launcher.deal_pause / self.speed,
            eject_profile=eject_profile,
            eject_profiles=shelf,
        )
        self.closers.append(service.stop)
        demo = None
        if self.demo:
            demo = DemoTable(
                service, players=config.demo.players, pace=config.demo.pace, speed=self.speed
            )
        service.start()
        return service, demo

    def __exit__(self, *_: object) -> None:
        while self.closers:
            closer = self.closers.pop()
            try:
                closer()
            except Exception:
                log.exception("while shutting down")


def eject_profiles(config: Config) -> tuple[ProfileShelf, str]:
    """The table's eject profiles and the name of the one a set-up gets by default, checked:
    a custom profile that is missing or broken stops the start with a message (exit 2)."""
    file = config.launcher.eject_profile_file
    shelf = ProfileShelf.for_data_dir(config.data_path, [file] if file else [])
    name = file.stem if file else config.launcher.eject_profile
    refused = read_entry(file).error if file else None  # a file named like a built-in, too
    try:
        if refused is not None:
            raise ProfileError(refused)
        shelf.load(name)
    except ProfileError as error:
        raise UsageError(f"[launcher] eject_profile: {error}") from None
    return shelf, name


# --- a faster demo: the simulated cards run faster and the ejector's timings shrink alike ---
FASTEST_CARDS = 10.0  # beyond this a simulated card's beam pulse nears the sensor filter


def _launcher_args(config: Config, speed: float) -> dict[str, Any]:
    args: dict[str, Any] = {"profile": config.launcher.pin_profile}
    args["backend"] = config.launcher.backend
    if speed == 1 or config.launcher.backend != "sim":
        return args
    scale = 1 / min(speed, FASTEST_CARDS)
    profile = load_pin_profile(config.launcher.pin_profile)
    args["profile"] = profile.with_ejector(**profile.ejector.scaled(scale).__dict__)
    args["sim"] = SimOptions(time_scale=scale)
    return args


# --- end of the faster demo ---


def _secret(table: TableService) -> str:
    """The key that signs session cookies, kept in the table's settings so tablets stay
    unlocked."""
    key = table.setting("secret_key")
    if key is None:
        key = secrets.token_hex(32)
        table.set_setting("secret_key", key)
    return key


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    """SIGTERM stops the server's loop like Ctrl-C does; the service then shuts down in order."""
    log.info("signal %d: stopping", signum)
    raise SystemExit(0)
