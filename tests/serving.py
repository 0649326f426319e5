"""A real waitress server in a background thread, for tests that talk HTTP to the app; and
waiting for a `uno-attack run` process to answer."""

from __future__ import annotations

import logging
import random
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.waiting import wait_until

QUIET_PORTS = range(20000, 32000)
"""Below Linux's ephemeral range (32768-60999, `ip_local_port_range`): no outgoing connection of
any process takes a port from here, so one found free stays free until a child binds it."""


def free_port() -> int:
    """A port for a child `uno-attack run` to listen on. Port 0's answer came from the ephemeral
    range, where a client socket of any other process could take it before the child bound it
    (a busy machine once answered "Address already in use")."""
    while True:
        port = random.choice(QUIET_PORTS)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def serve(
    app: Any, port: int = 0, threads: int = 16, **options: Any
) -> tuple[str, Callable[[], None]]:
    """Serve `app` as `uno-attack run` does (waitress, and the event loop for the streams) in
    a thread, on a free port unless given, with `create_server`'s other `options`; return its
    URL and a stopper."""
    from waitress import wasyncore

    from web_ui.server import create_server

    server = create_server(app, host="127.0.0.1", port=port, threads=threads, **options)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # the loop was polling sockets that stop() just closed
            if not stopping.is_set():
                raise

    threading.Thread(target=run, name="waitress", daemon=True).start()
    port = int(server.effective_port)  # type: ignore[union-attr]

    def stop() -> None:
        """Close the listening socket and every connection (the tablets' streams too)."""
        stopping.set()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)  # open streams are cut
        server.close()
        wasyncore.close_all(server._map)  # type: ignore[union-attr]

    return f"http://127.0.0.1:{port}", stop


def wait_answering(
    port: int, process: subprocess.Popen[Any], output: Callable[[], str] = lambda: ""
) -> None:
    """Wait until the service that `process` runs answers on `port`; fail at once, with its
    `output`, if it ends first."""

    def answering() -> bool:
        assert process.poll() is None, f"the service ended ({process.returncode}): {output()}"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).close()
        except OSError:  # not listening yet, or too busy to answer: ask again
            return False
        return True

    wait_until(answering, f"the service answers on port {port}")
