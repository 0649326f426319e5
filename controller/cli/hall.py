"""`uno-attack hall`: a read-only wall board that follows several tables (docs/HALL.md).

The tables are the addresses given on the command line, else the configuration's `[hall]
tables`, else those found on the network (mDNS/DNS-SD: each `uno-attack run` announces its
tables). The board follows each through its public HTTP API only, and serves its page and
`GET /api/hall` with waitress. SIGTERM and Ctrl-C stop it.
"""

from __future__ import annotations

import argparse
import logging
import signal
from dataclasses import replace
from typing import Any

from controller.cli import UsageError
from controller.config import HallConfig, load_config
from controller.hall import Hall, table_url
from controller.sections import ConfigError

log = logging.getLogger("uno-attack")

THREADS = 16  # each open wall page holds one while it waits for news


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "hall",
        help="serve a wall board that follows several tables",
        description="Serve a read-only wall board: every table's game at a glance and the "
        "standings across tables. Give the tables' scoreboard addresses, or none to find "
        "the tables announced on this network.",
    )
    parser.add_argument(
        "tables",
        nargs="*",
        metavar="URL",
        help="a table's scoreboard address, e.g. http://pi-a.local:8080/ "
        "(default: the config's [hall] tables, else the tables found on the network)",
    )
    parser.add_argument("--config", help="TOML configuration file (its [hall] section)")
    parser.add_argument("--host", help="address to serve the board on (default from the config)")
    parser.add_argument("--port", type=int, help="port to serve the board on (default 8090)")
    parser.add_argument(
        "--since",
        metavar="TIME",
        help='only matches started at or after this local time count, e.g. "2025-06-14 13:00"',
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = hall_config(args)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    hall = Hall(since=config.since_time)
    browser = None
    try:
        for url in config.tables:
            hall.follow(url)
        if not config.tables:
            browser = _browse(hall)
        _serve(hall, config)
    finally:
        if browser is not None:
            browser.close()
        hall.stop()
    return 0


def hall_config(args: argparse.Namespace) -> HallConfig:
    """The `[hall]` section with the command line's choices in place of its own."""
    try:
        config = load_config(args.config).hall
        changes: dict[str, Any] = {}
        if args.tables:
            changes["tables"] = tuple(args.tables)
        for key in ("host", "port", "since"):
            if getattr(args, key) is not None:
                changes[key] = getattr(args, key)
        config = replace(config, **changes)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    return replace(config, tables=tuple(dict.fromkeys(table_url(url) for url in config.tables)))


def _browse(hall: Hall) -> Any:
    from controller.hall.discovery import TableBrowser

    browser = TableBrowser(hall.follow)
    if browser.start():
        print("Looking for tables on this network (mDNS)...", flush=True)
    else:
        print("Cannot look for tables on this network: give their addresses.", flush=True)
    return browser


def _serve(hall: Hall, config: HallConfig) -> None:
    from waitress import create_server

    from web_ui.addresses import lan_addresses
    from web_ui.hall import create_hall_app

    app = create_hall_app(hall, config.title)
    server: Any = create_server(app, host=config.host, port=config.port, threads=THREADS)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    everywhere = config.host in ("0.0.0.0", "::", "")
    for host in ["localhost", *lan_addresses()] if everywhere else [config.host]:
        print(f"Hall board: http://{host}:{server.effective_port}/", flush=True)
    for url in config.tables:
        print(f"Following: {url}", flush=True)
    try:
        server.run()
    finally:
        server.close()


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    log.info("signal %d: stopping", signum)
    raise SystemExit(0)
